"""Certificates for knight's tours.

A tour is checked directly: every usable square exactly once, each step a
knight move, the closing move for a closed tour, the given start and end.

Non-existence (``INFEASIBLE``) is accepted only when the checker can confirm
it by itself: a colour count that no tour can meet (a knight move always
changes the square colour), a square with too few neighbours, the published
existence theorems for full boards (Schwenk 1991 for closed tours, Conrad
et al. 1994 for open ones, colour and outer-rows arguments for fixed ends:
:func:`knightcert.problems.tours.full_board_reason`), or its own exhaustive search
on boards of at most ``EXHAUSTIVE_SQUARES`` usable squares.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from knightcert.problems.checkers.common import CheckFailed, as_squares
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance, counting_reason, full_board_reason

#: Usable squares up to which the checker searches all tours itself.
EXHAUSTIVE_SQUARES = 30
#: Node budget of that search.
EXHAUSTIVE_NODES = 5_000_000


def check_tour(instance: TourInstance, result: Result) -> None:
    """Check a tour, or a claim that none exists; raise :class:`CheckFailed` if wrong."""
    if result.status is Status.UNKNOWN and result.solution is None:
        raise CheckFailed("no answer to check (status UNKNOWN)")
    if result.status is Status.INFEASIBLE:
        if result.solution is not None:
            raise CheckFailed("an INFEASIBLE answer must not carry a tour")
        reason = nonexistence_reason(instance)
        if reason is None:
            raise CheckFailed(
                "non-existence could not be confirmed independently (board too large to search)"
            )
        return
    check_tour_moves(instance, result.solution)
    if result.objective != len(result.solution):
        raise CheckFailed(f"objective {result.objective} but the tour has {len(result.solution)} squares")


def check_tour_moves(instance: TourInstance, tour: Any) -> None:
    """Check that ``tour`` is a tour of ``instance`` (see module docstring); vectorised."""
    board = instance.board
    squares = as_squares(tour)
    r, c = squares[:, 0], squares[:, 1]
    inside = (r >= 0) & (r < board.rows) & (c >= 0) & (c < board.cols)
    if not inside.all():
        step = int(np.flatnonzero(~inside)[0])
        raise CheckFailed(f"step {step}: ({r[step]}, {c[step]}) is off the board")
    index = r * board.cols + c
    removed = board.blocked.reshape(-1)[index]
    if removed.any():
        step = int(np.flatnonzero(removed)[0])
        raise CheckFailed(f"step {step}: ({r[step]}, {c[step]}) is a removed square")
    counts = np.bincount(index, minlength=board.size)
    if (counts > 1).any():
        square = board.square(int(np.flatnonzero(counts > 1)[0]))
        raise CheckFailed(f"square {square} is visited twice")
    if len(squares) != board.n_free:
        raise CheckFailed(f"the tour visits {len(squares)} of {board.n_free} usable squares")
    bad = ~_knight_steps(board, squares[:-1], squares[1:])
    if bad.any():
        step = int(np.flatnonzero(bad)[0]) + 1
        a, b = tuple(squares[step - 1].tolist()), tuple(squares[step].tolist())
        raise CheckFailed(f"step {step}: {a} -> {b} is not a knight move")
    if instance.closed and len(squares) < 3:
        raise CheckFailed("a closed tour needs at least 3 squares")
    if instance.closed and not _knight_steps(board, squares[-1:], squares[:1])[0]:
        a, b = tuple(squares[-1].tolist()), tuple(squares[0].tolist())
        raise CheckFailed(f"the tour is not closed: {a} -> {b} is not a knight move")
    if instance.start is not None and tuple(squares[0].tolist()) != tuple(instance.start):
        raise CheckFailed(f"the tour starts at {tuple(squares[0].tolist())}, not at {tuple(instance.start)}")
    if instance.end is not None and tuple(squares[-1].tolist()) != tuple(instance.end):
        raise CheckFailed(f"the tour ends at {tuple(squares[-1].tolist())}, not at {tuple(instance.end)}")


def _knight_steps(board, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether each a[i] -> b[i] is a knight move (modulo the size on a torus)."""
    dr = b[:, 0] - a[:, 0]
    dc = b[:, 1] - a[:, 1]
    if board.torus:
        ok = np.zeros(len(a), dtype=bool)
        for odr, odc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
            ok |= ((dr - odr) % board.rows == 0) & ((dc - odc) % board.cols == 0)
        return ok
    dr, dc = np.abs(dr), np.abs(dc)
    return ((dr == 1) & (dc == 2)) | ((dr == 2) & (dc == 1))


def nonexistence_reason(instance: TourInstance) -> str | None:
    """Why no tour exists, if the checker can tell on its own; else None."""
    board = instance.board
    reason = counting_reason(instance)
    if reason is not None:
        return reason
    if not board.blocked.any():
        reason = full_board_reason(
            board.rows, board.cols, closed=instance.closed, start=instance.start, end=instance.end
        )
        if reason is not None:
            return reason
    if board.n_free <= EXHAUSTIVE_SQUARES and not _exists_by_search(instance):
        return "the checker's exhaustive search found no tour"
    return None


def _exists_by_search(instance: TourInstance) -> bool:
    """Plain depth-first search over all tours (small boards only)."""
    board = instance.board
    nb = knight_neighbours(board)
    usable = [int(i) for i in np.flatnonzero(board.free.reshape(-1))]
    neighbours = {i: [int(j) for j in nb[i] if j >= 0] for i in usable}
    n = len(usable)
    starts = [board.index(*instance.start)] if instance.start is not None else usable
    end = board.index(*instance.end) if instance.end is not None else None
    nodes = 0
    for first in starts:
        visited = {first}
        stack = [(first, iter(neighbours[first]))]
        if n == 1:
            return not instance.closed and (end is None or end == first)
        while stack:
            square, options = stack[-1]
            nodes += 1
            if nodes > EXHAUSTIVE_NODES:
                return True  # undecided: do not confirm non-existence
            nxt = next(options, None)
            if nxt is None:
                stack.pop()
                visited.discard(square)
                continue
            if nxt in visited or (nxt == end and len(visited) < n - 1):
                continue
            if len(visited) == n - 1:
                if (end is None or nxt == end) and (not instance.closed or first in neighbours[nxt]):
                    return True
                continue
            visited.add(nxt)
            stack.append((nxt, iter(neighbours[nxt])))
        if instance.closed:
            break  # a closed tour passes through the first square
    return False
