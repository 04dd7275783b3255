"""The tour checker's pruned search agrees with a plain brute force on small boards.

A pruning bug would certify a false non-existence, so the search is
cross-checked against the simplest possible enumeration on random small
boards (plain and toroidal, with holes, open and closed, with fixed ends).
"""

from __future__ import annotations

import numpy as np
import pytest

from knightcert.problems.board import Board
from knightcert.problems.checkers.tour import search_tour
from knightcert.problems.checkers.tour_search import FOUND, NONE, UNDECIDED
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.tours import TourInstance


def brute_force(instance: TourInstance) -> bool:
    board = instance.board
    near = [[int(t) for t in row if t >= 0] for row in knight_neighbours(board)]  # lists: fast to walk
    usable = [int(i) for i in np.flatnonzero(board.free.reshape(-1))]
    n = len(usable)
    starts = [board.index(*instance.start)] if instance.start is not None else usable
    end = None if instance.end is None else board.index(*instance.end)

    def extend(path: list[int], seen: set[int]) -> bool:
        if len(path) == n:
            if end is not None and path[-1] != end:
                return False
            return not instance.closed or (n >= 3 and path[0] in near[path[-1]])
        for nxt in near[path[-1]]:
            if nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                if extend(path, seen):
                    return True
                path.pop()
                seen.discard(nxt)
        return False

    return any(extend([s], {s}) for s in starts)


def random_instances(count: int, seed: int = 11):
    rng = np.random.default_rng(seed)
    for k in range(count):
        rows, cols = int(rng.integers(2, 5)), int(rng.integers(3, 6))
        torus = bool(rng.random() < 0.3)
        blocked = rng.random((rows, cols)) < 0.15
        board = Board(rows, cols, blocked, torus=torus)
        free = [board.square(i) for i in np.flatnonzero(board.free.reshape(-1))]
        if len(free) < 2:
            continue
        closed = bool(rng.random() < 0.35)
        start = free[int(rng.integers(len(free)))] if rng.random() < 0.4 else None
        end = None
        if not closed and rng.random() < 0.4:
            end = free[int(rng.integers(len(free)))]
            if end == start:
                end = None
        yield TourInstance(board, closed, start, end, f"random-{k}")


@pytest.mark.parametrize("instance", list(random_instances(160)), ids=lambda i: i.name)
def test_search_agrees_with_brute_force(instance):
    outcome, _, tour = search_tour(instance, budget=2_000_000)
    assert outcome != UNDECIDED
    assert (outcome == FOUND) == brute_force(instance), instance
    if outcome == FOUND:
        board = instance.board
        squares = [board.square(i) for i in tour]
        assert len(set(squares)) == board.n_free
        if instance.start is not None:
            assert squares[0] == instance.start
        if instance.end is not None:
            assert squares[-1] == instance.end
    else:
        assert outcome == NONE and tour == []


@pytest.mark.parametrize(
    ("rows", "cols", "closed", "visits"),
    [
        (5, 6, True, ((0, 3, 30), (1, 5, 29))),  # a closed tour anchored at its last place, no first
        (6, 6, True, ((1, 4, 36), (3, 0, 14))),
        (5, 5, False, ((0, 0, 25), (3, 4, 12))),  # an open one: searched backwards from its end
    ],
)
def test_a_tour_found_under_visits_anchored_at_the_last_place_keeps_them(rows, cols, closed, visits):
    """The search renumbers the places from its anchor (backwards for an open tour whose last
    square alone is known, never for a closed one): the tour it hands back is a tour of the board,
    each visited square at its place (read here square by square, not by the checker)."""
    board = Board(rows, cols)
    instance = TourInstance(board, closed, visits=visits)
    outcome, _, tour = search_tour(instance, budget=2_000_000)
    squares = [board.square(i) for i in tour]
    assert outcome == FOUND and len(set(squares)) == rows * cols
    following = squares[1:] + squares[:1]  # a closed tour's last move returns to its first square
    steps = list(zip(squares, following, strict=True))[: None if closed else -1]
    assert all(sorted((abs(a - c), abs(b - d))) == [1, 2] for (a, b), (c, d) in steps)
    assert [squares[k - 1] for _, _, k in visits] == [(r, c) for r, c, _ in visits]
