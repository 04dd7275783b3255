"""Independent knights (seed 002): as many knights as possible, none attacking another.

An instance is a board (plain or toroidal) whose removed squares cannot hold
a knight. The closed form for full plain boards (m <= n) is
``n`` for ``1 x n``, ``4*floor(n/4) + 2*min(n mod 4, 2)`` for ``2 x n`` and
``ceil(m*n/2)`` otherwise.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from knightcert.problems.board import Board
from knightcert.problems.board_text import board_of
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.moves import KNIGHT_OFFSETS, is_knight_move
from knightcert.problems.side_constraints import side_squares

__all__ = ["KnightsInstance", "closed_form", "fixed_conflict", "knights_instance", "rest_of"]


@dataclass(frozen=True, eq=False)
class KnightsInstance:
    """A board on which to place independent knights."""

    board: Board
    name: str = ""
    #: squares that must hold a knight (a side constraint)
    fixed: tuple[tuple[int, int], ...] = ()
    #: the instance with fixed knights whose rest this is (:func:`rest_of`), else None
    outer: KnightsInstance | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.board, Board):
            raise InvalidInstance(f"board must be a Board, got {type(self.board).__name__}")
        fixed = side_squares(self.board, self.fixed, "fixed")
        object.__setattr__(self, "fixed", tuple(sorted(set(fixed))))  # a set: in one order, each square once


def knights_instance(
    rows: int | None = None,
    cols: int | None = None,
    *,
    torus: bool = False,
    board_file: str | os.PathLike[str] | None = None,
    fixed: tuple[tuple[int, int], ...] = (),
) -> KnightsInstance:
    """Build an instance from a size, or from a board file (``.`` usable, ``x`` removed).

    Raises
    ------
    InvalidInstance
        Sizes below 1, both a size and a file, neither, or a malformed file.
    """
    board, name = board_of(rows, cols, board_file, torus)
    if torus:
        name += " (torus)" if board_file is not None else " torus"
    return KnightsInstance(board, name, fixed)


def fixed_conflict(instance: KnightsInstance) -> str | None:
    """Why the fixed knights admit no placement (two attack each other), or None."""
    for i, a in enumerate(instance.fixed):
        for b in instance.fixed[i + 1 :]:
            if is_knight_move(instance.board, a, b):
                return f"fixed: the knights on {a} and {b} attack each other"
    return None


def rest_of(instance: KnightsInstance) -> KnightsInstance:
    """The board left for the other knights: without the fixed squares and every square they
    attack. A placement with the fixed knights is the fixed knights plus a placement of the
    rest, so its optimum is ``len(fixed)`` plus the rest's (when :func:`fixed_conflict` is None).
    Its ``outer`` is ``instance``: a proof of the rest's bound refutes ``instance``'s formula.
    """
    board = instance.board
    blocked = board.blocked.copy()
    for r, c in instance.fixed:
        blocked[r, c] = True
        for dr, dc in KNIGHT_OFFSETS:
            tr, tc = r + dr, c + dc
            if board.torus or board.contains(tr, tc):
                blocked[tr % board.rows, tc % board.cols] = True
    left = Board(board.rows, board.cols, blocked, torus=board.torus)
    rest = KnightsInstance(left, f"{instance.name} without {len(instance.fixed)} fixed")
    object.__setattr__(rest, "outer", instance)
    return rest


def closed_form(rows: int, cols: int) -> int:
    """Published maximum number of independent knights on a full plain ``rows x cols`` board.

    Examples
    --------
    >>> [closed_form(n, n) for n in range(1, 9)]  # OEIS A030978
    [1, 4, 5, 8, 13, 18, 25, 32]
    """
    m, n = sorted((rows, cols))
    return n if m == 1 else 4 * (n // 4) + 2 * min(n % 4, 2) if m == 2 else (m * n + 1) // 2
