"""The exact counters against the test's own brute force, and against published counts (test
references only: 1,728 directed open tours on 5 x 5, 304 from a corner, 9,862 closed tours on
6 x 6, 2 placements of 32 knights on 8 x 8, 6 of 8 on 4 x 4)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from knightcert.algorithms.counting import count_knights, count_paths, count_tours, shortest_paths
from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.tours import TourInstance, tour_instance

JUMPS = [(a * 1, b * 2) for a in (1, -1) for b in (1, -1)] + [
    (a * 2, b * 1) for a in (1, -1) for b in (1, -1)
]


def neighbours(board: Board) -> dict[tuple[int, int], set[tuple[int, int]]]:
    """The test's own move graph: distinct usable squares one jump away (wrapping on a torus)."""
    out: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for r, c in itertools.product(range(board.rows), range(board.cols)):
        if board.blocked[r, c]:
            continue
        out[r, c] = set()
        for dr, dc in JUMPS:
            t = (r + dr, c + dc)
            if board.torus:
                t = (t[0] % board.rows, t[1] % board.cols)
            if 0 <= t[0] < board.rows and 0 <= t[1] < board.cols and not board.blocked[t] and t != (r, c):
                out[r, c].add(t)
    return out


def brute_tours(instance: TourInstance) -> tuple[int, int]:
    """(directed, undirected) tours by plain depth-first search over every start, the side
    constraints tested on each whole tour; undirected: the distinct sets of moves."""
    graph = neighbours(instance.board)
    n = len(graph)
    found = []

    def extend(path: list, seen: set) -> None:
        if len(path) < n:
            for t in graph[path[-1]] - seen:
                extend([*path, t], seen | {t})
            return
        moves = {frozenset(m) for m in zip(path, path[1:] + path[:1] * instance.closed, strict=False)}
        closes = path[0] in graph[path[-1]] and n >= 3
        if (
            (not instance.closed or closes)
            and (instance.end is None or path[-1] == instance.end)
            and all(path[k - 1] == (r, c) for r, c, k in instance.visits)
            and not moves & {frozenset(m) for m in instance.forbidden_moves}
            and {frozenset(m) for m in instance.required_moves} <= moves
        ):
            found.append(frozenset(moves) if n > 1 else path[0])

    for s in [instance.start] if instance.start is not None else list(graph):
        extend([s], {s})
    anchored = instance.start or instance.end or instance.visits
    return len(found) // (n if instance.closed and not anchored else 1), len(set(found))


def random_board(rng, torus: bool) -> Board:
    rows, cols = (int(x) for x in rng.integers(1, 5, size=2))
    while rows * cols > 12:
        rows, cols = (int(x) for x in rng.integers(1, 5, size=2))
    return Board(rows, cols, rng.random((rows, cols)) < 0.15, torus=torus)


def test_published_tour_counts():
    assert count_tours(tour_instance(5, 5)) == (1728, 864)
    assert count_tours(tour_instance(5, 5, start=(0, 0))) == (304, 304)
    assert count_tours(tour_instance(6, 6, closed=True)) == (19724, 9862)


def test_tour_counts_match_a_brute_force_on_small_boards():
    rng = np.random.default_rng(37)
    nonzero = 0
    for trial in range(60):
        board = random_board(rng, torus=bool(trial % 2))
        if board.n_free == 0:
            continue
        free = [tuple(map(int, s)) for s in np.argwhere(board.free)]
        for closed in (False, True):
            ends = [(None, None), (free[0], None), (None, free[-1])]
            if len(free) > 1:
                ends.append((free[0], free[-1]))
            for start, end in ends:
                if closed and end is not None:
                    continue
                instance = TourInstance(board, closed, start, end)
                directed, undirected = count_tours(instance)
                assert (directed, undirected) == brute_tours(instance), (board.blocked, closed, start, end)
                halved = (start is None and end is None and board.n_free > 1) or closed
                assert undirected == (directed // 2 if halved else directed)
                nonzero += directed > 0
    assert nonzero > 20


def random_sides(rng, board: Board) -> dict:
    """One to three visits, moves forbidden and required, at random (often contradictory)."""
    free = [tuple(map(int, s)) for s in np.argwhere(board.free)]
    moves = sorted(
        {tuple(sorted(m)) for m in itertools.combinations(free, 2) if m[1] in neighbours(board)[m[0]]}
    )
    picks = [
        rng.choice(len(x), size=min(len(x), int(rng.integers(0, 3))), replace=False)
        for x in (free, moves, moves)
    ]
    return {
        "visits": [(*free[i], int(rng.integers(1, len(free) + 1))) for i in picks[0]],
        "forbidden_moves": [moves[i] for i in picks[1]],
        "required_moves": [moves[i] for i in picks[2]],
    }


@pytest.mark.heavy
def test_tour_counts_under_side_constraints_match_a_brute_force():
    rng = np.random.default_rng(44)
    nonzero = set()
    for trial in range(150):
        board = random_board(rng, torus=bool(trial % 2))
        if board.n_free < 2:
            continue
        free = [tuple(map(int, s)) for s in np.argwhere(board.free)]
        end = (None, free[-1])[trial % 3 == 1]
        instance = TourInstance(
            board, trial % 4 == 3, (None, free[0])[trial % 3 == 2], end, **random_sides(rng, board)
        )
        counted = count_tours(instance)
        assert counted == brute_tours(instance), instance
        nonzero.add((bool(instance.visits), counted[0] > 0, counted[0] != counted[1]))
    assert {(True, True, True), (True, True, False), (True, False, False), (False, True, True)} <= nonzero


def test_a_closed_tour_between_fixed_ends_uses_the_closing_move():
    """On 6 x 6 the corner has two moves, so every closed tour takes the move (0,0)-(1,2)."""
    board = Board(6, 6)
    assert count_tours(TourInstance(board, True, (0, 0), (1, 2))) == (9862, 9862)
    assert count_tours(TourInstance(board, True, (0, 0), (2, 2))) == (0, 0)


def test_too_many_squares_are_refused():
    with pytest.raises(InvalidInstance, match="at most 64"):
        count_tours(tour_instance(9, 9))


def brute_paths(instance: LostKnightInstance) -> tuple[int, int]:
    """All walks from C of 0, 1, 2, ... moves until one reaches S (the test's own)."""
    graph = neighbours(instance.board)
    walks = [[instance.start]]
    while walks:
        ends = [w for w in walks if w[-1] == instance.exit]
        if ends:
            return len(ends[0]) - 1, len(ends)
        walks = [[*w, t] for w in walks for t in graph[w[-1]] if t not in w]
    return -1, 0


def test_shortest_paths_match_a_brute_force():
    rng = np.random.default_rng(7)
    seen = set()
    for _ in range(60):
        rows, cols = (int(x) for x in rng.integers(1, 7, size=2))
        board = Board(rows, cols, rng.random((rows, cols)) < 0.4, torus=True)
        free = [tuple(map(int, s)) for s in np.argwhere(board.free)]
        if len(free) < 2:
            continue
        a, b = rng.choice(len(free), size=2, replace=False)
        instance = LostKnightInstance(board, free[a], free[b])
        length, number = count_paths(instance)
        expected = brute_paths(instance)
        assert ((-1 if length is None else length), number) == expected
        paths = list(shortest_paths(instance))
        assert len(paths) == number and len({tuple(map(tuple, p)) for p in paths}) == number
        assert all(len(p) - 1 == length for p in paths)
        seen.add(min(number, 3))
    assert seen == {0, 1, 2, 3}


def brute_knights(board: Board) -> tuple[int, int]:
    graph = neighbours(board)
    squares = list(graph)
    best, ways = 0, 0
    for mask in range(1 << len(squares)):
        chosen = {s for k, s in enumerate(squares) if mask >> k & 1}
        if any(graph[s] & chosen for s in chosen):
            continue
        if len(chosen) > best:
            best, ways = len(chosen), 1
        elif len(chosen) == best:
            ways += 1
    return best, ways


def test_published_knights_counts():
    assert count_knights(knights_instance(8, 8)) == (32, 2)
    assert count_knights(knights_instance(4, 4)) == (8, 6)


def test_knights_counts_match_a_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(40):
        rows, cols = (int(x) for x in rng.integers(1, 6, size=2))
        while rows * cols > 15:
            rows, cols = (int(x) for x in rng.integers(1, 6, size=2))
        board = Board(rows, cols, rng.random((rows, cols)) < 0.2)
        assert count_knights(KnightsInstance(board)) == brute_knights(board), board.blocked


def test_knights_counting_refuses_tori_and_wide_boards():
    with pytest.raises(InvalidInstance, match="plain boards"):
        count_knights(knights_instance(4, torus=True))
    with pytest.raises(InvalidInstance, match="narrow side"):
        count_knights(knights_instance(9, 9))
