"""The checker's predicates for side constraints (:mod:`knightcert.problems.side_constraints`).

Each ``*_fault`` takes an instance and an answer already replayed as a legal answer of the
base problem (an (n, 2) int64 array of squares) and returns what breaks the constraint, or
None. The ``*_argument`` functions return why no tour of a variant exists, or None: each is
proved in its docstring and never assumes more than the constraints say.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from knightcert.problems.board import Board
from knightcert.problems.moves import is_knight_move

if TYPE_CHECKING:  # the tour checker's predicates; the path and knights checkers load no tours
    from knightcert.problems.tours import TourInstance

__all__ = [
    "fixed_fault",
    "forbidden_moves_fault",
    "required_moves_fault",
    "tour_moves",
    "via_fault",
    "via_passed",
    "visits_argument",
    "visits_fault",
]


def _square(row: np.ndarray) -> tuple[int, int]:
    return (int(row[0]), int(row[1]))


def tour_moves(squares: np.ndarray, closed: bool) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """The tour's moves as ``(low, high)`` pairs of squares (the closing move of a closed tour too)."""
    pairs = list(zip(map(_square, squares[:-1]), map(_square, squares[1:]), strict=True))
    if closed and len(squares) > 2:
        pairs.append((_square(squares[-1]), _square(squares[0])))
    return {(min(a, b), max(a, b)) for a, b in pairs}


def visits_fault(instance: TourInstance, squares: np.ndarray) -> str | None:
    """A visit ``(r, c, k)`` whose ``k``-th square is not ``(r, c)``."""
    for r, c, k in instance.visits:
        if _square(squares[k - 1]) != (r, c):
            return f"visits: square {k} of the tour is {_square(squares[k - 1])}, not {(r, c)}"
    return None


def forbidden_moves_fault(instance: TourInstance, squares: np.ndarray) -> str | None:
    """A forbidden move the tour takes."""
    taken = tour_moves(squares, instance.closed) if instance.forbidden_moves else set()
    move = next((move for move in instance.forbidden_moves if move in taken), None)
    return None if move is None else f"forbidden_moves: the tour takes the move {move[0]} - {move[1]}"


def required_moves_fault(instance: TourInstance, squares: np.ndarray) -> str | None:
    """A required move the tour does not take."""
    taken = tour_moves(squares, instance.closed) if instance.required_moves else set()
    move = next((move for move in instance.required_moves if move not in taken), None)
    return None if move is None else f"required_moves: the tour does not take the move {move[0]} - {move[1]}"


def fixed_fault(instance, squares: np.ndarray) -> str | None:
    """A fixed square without a knight."""
    placed = set(map(_square, squares))
    missing = [square for square in instance.fixed if square not in placed]
    return f"fixed: no knight on {missing[0]}" if missing else None


def via_fault(instance, squares: np.ndarray) -> str | None:
    """A via square the path does not pass through after the previous one (in order)."""
    passed = 0
    for square in map(_square, squares):
        passed = via_passed(instance.via, passed, square)
    if passed < len(instance.via):
        missed = instance.via[passed]
        return f"via[{passed}]: the path does not pass through {missed} after the squares before it"
    return None


def via_passed(via: Sequence[Hashable], passed: int, square: Hashable) -> int:
    """The via squares passed, in order, once the path reaches ``square`` with ``passed`` behind
    it: the next ones while they are ``square`` (one square stands for a via square repeated)."""
    while passed < len(via) and via[passed] == square:
        passed += 1
    return passed


def visits_argument(instance: TourInstance) -> str | None:
    """Why the visits (with the ends and the moves required or forbidden) admit no tour, or None.

    Proof. A tour is one sequence: a square has one place and a place one square; the
    squares at places ``k`` and ``k + 1`` (and, closed, ``n`` and ``1``) are a move apart, and
    that move is not forbidden; place 1 is the start, place ``n`` the end; a knight move
    changes colour on a plain board or a torus with even sides, so places of the same parity
    have the same colour; a required move joins squares at adjacent places.
    """
    board, n = instance.board, instance.board.n_free
    place: dict[int, tuple[int, int]] = {}
    for fixed_end, k in ((instance.start, 1), (instance.end, n)):
        if fixed_end is not None:
            place[k] = fixed_end
    for r, c, k in instance.visits:
        if place.get(k, (r, c)) != (r, c):
            return f"visits: place {k} holds both {place[k]} and {(r, c)}"
        place[k] = (r, c)
    where: dict[tuple[int, int], int] = {}
    for k, square in sorted(place.items()):
        if square in where:
            return f"visits: {square} is at places {where[square]} and {k} of the tour"
        where[square] = k
    for move in instance.required_moves:
        if move in instance.forbidden_moves:
            return f"moves: {move[0]} - {move[1]} is both required and forbidden"
        a, b = (where.get(sq) for sq in move)
        apart = a is not None and b is not None and abs(a - b) != 1
        if apart and not (instance.closed and {a, b} == {1, n}):
            return f"visits: {move[0]} and {move[1]} are at places {a} and {b}, yet joined by a required move"
    forbidden = set(instance.forbidden_moves)
    pairs = [(k, k + 1) for k in range(1, n)] + ([(n, 1)] if instance.closed and n > 2 else [])
    for k, j in pairs:
        if k in place and j in place:
            one, other = place[k], place[j]
            pair = (min(one, other), max(one, other))
            if not is_knight_move(board, one, other) or pair in forbidden:
                what = "not a knight move apart" if pair not in forbidden else "a forbidden move"
                return f"visits: places {k} and {j} are {one} and {other}, {what}"
    return _parity_argument(board, place)


def _parity_argument(board: Board, place: dict[int, tuple[int, int]]) -> str | None:
    if board.torus and (board.rows % 2 or board.cols % 2):
        return None  # a wrapping move across an odd side keeps the colour
    items = sorted(place.items())
    for (k, a), (j, b) in itertools.pairwise(items):
        if (sum(a) + sum(b) + k + j) % 2:
            return (
                f"colours: places {k} and {j} are {j - k} moves apart, so their squares' colours "
                f"{'differ' if (j - k) % 2 else 'agree'}; {a} and {b} do not"
            )
    return None
