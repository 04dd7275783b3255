"""Knight's tours (seeds 001 and 003): instance type, existence theorems, output formats.

A tour visits every usable square exactly once with knight moves; a closed
tour also ends one move away from its start.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from knightcert.problems.argument_checks import expect_square
from knightcert.problems.board import Board
from knightcert.problems.board_text import board_of
from knightcert.problems.errors import InvalidArgument, InvalidInstance
from knightcert.problems.moves import is_knight_move, knight_neighbours
from knightcert.problems.side_constraints import SIDE_FIELDS, Move, side_moves, side_visits

__all__ = [
    "CONRAD",
    "SCHWENK",
    "TourInstance",
    "closed_tour_exists",
    "closed_tour_reason",
    "colour_count_reason",
    "colour_reason",
    "counting_reason",
    "format_mostra",
    "full_board_reason",
    "numbered",
    "open_tour_exists",
    "open_tour_reason",
    "outer_rows_reason",
    "tour_instance",
]


@dataclass(frozen=True, eq=False)
class TourInstance:
    """A board, whether the tour must be closed, and optional fixed ends."""

    board: Board
    closed: bool = False
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    name: str = ""
    #: side constraints (:mod:`knightcert.problems.side_constraints`): ``(r, c, k)`` square r, c is the
    #: k-th of the tour (from 1); unordered pairs of squares a knight move apart it must not / must take
    visits: tuple[tuple[int, int, int], ...] = ()
    forbidden_moves: tuple[Move, ...] = ()
    required_moves: tuple[Move, ...] = ()

    def __post_init__(self) -> None:
        """The instance's checks, whoever builds it (:func:`tour_instance` or a caller).

        Raises
        ------
        InvalidInstance
            No usable square, a start or end off the board or on a removed square, a start
            equal to the end; a malformed side constraint (the field is named). (A closed
            tour with an end, E a knight move from its start S, is an instance of the API;
            the command line refuses it in :func:`tour_instance`.)
        """
        if not isinstance(self.board, Board):
            raise InvalidInstance(f"board must be a Board, got {type(self.board).__name__}")
        if not isinstance(self.closed, bool | np.bool_):  # "no" is a str, and true
            raise InvalidInstance(f"closed must be True or False, got {self.closed!r}")
        object.__setattr__(self, "closed", bool(self.closed))
        if self.board.n_free == 0:
            raise InvalidInstance("the board has no usable square")
        for label in ("start", "end"):
            square = getattr(self, label)
            if square is not None:
                object.__setattr__(self, label, self.board.check_square(square, label))
        if self.start is not None and self.start == self.end and self.board.n_free > 1:
            raise InvalidInstance(f"start and end are the same square {self.start}")
        object.__setattr__(self, "visits", side_visits(self.board, self.visits, "visits"))
        for label in ("forbidden_moves", "required_moves"):
            object.__setattr__(self, label, side_moves(self.board, getattr(self, label), label))


def tour_instance(
    rows: int | None = None,
    cols: int | None = None,
    *,
    closed: bool = False,
    start: tuple[int, int] | None = None,
    end: tuple[int, int] | None = None,
    board_file: str | os.PathLike[str] | None = None,
    torus: bool = False,
    **sides: Any,
) -> TourInstance:
    """Build a tour instance from a size or a board file (``.`` usable, ``x`` removed).

    ``sides``: its side constraints (``visits``, ``forbidden_moves``, ``required_moves``).

    Raises
    ------
    InvalidArgument
        A keyword that is not a tour's side constraint (``fixed`` is the knights').
    InvalidInstance
        Sizes below 1, a size and a file together, a start or end off the
        board or on a removed square, an end for a closed tour, or a start
        equal to the end.
    """
    if unknown := sorted(sides.keys() - set(known := SIDE_FIELDS["tour"])):
        raise InvalidArgument(f"a tour has no side constraint {unknown[0]!r} (it has {', '.join(known)})")
    expect_square(start, "start")
    expect_square(end, "end")
    board, name = board_of(rows, cols, board_file, torus)
    for label, square in (("start", start), ("end", end)):  # the words of the command line
        if square is not None and board.contains(*square) and board.blocked[square]:
            raise InvalidInstance(f"{label} ({square[0]}, {square[1]}) is a removed square")
    if closed and end is not None:  # the API has it (TourInstance); the command line does not
        raise InvalidInstance("a closed tour has no separate end square (drop --end)")
    # the other checks are the instance's own (TourInstance.__post_init__), whoever builds it
    kind = ("torus " if torus else "") + ("closed" if closed else "open")
    ends = "".join(
        f" {label} {sq[0]},{sq[1]}" for label, sq in (("from", start), ("to", end)) if sq is not None
    )
    return TourInstance(board, closed, start, end, f"{name} {kind}{ends}", **sides)


#: Where the existence theorems come from (cited in every "No").
SCHWENK = "Schwenk (1991)"
CONRAD = "Conrad et al. (1994) / Cull and De Curtins (1978)"


def closed_tour_reason(m: int, n: int) -> str | None:
    """Why no closed tour of the full ``m x n`` board exists, or None when one does.

    Schwenk (1991): with ``m <= n``, a closed tour exists unless ``m`` and ``n``
    are both odd, ``m`` is 1, 2 or 4, or ``m = 3`` and ``n`` is 4, 6 or 8.

    Examples
    --------
    >>> closed_tour_reason(4, 9)
    'Schwenk (1991): no closed tour on a board with 4 rows (4 x 9)'
    >>> closed_tour_reason(6, 6) is None
    True
    """
    a, b = sorted((m, n))
    if a * b % 2 == 1:
        return f"{SCHWENK}: no closed tour when both sides are odd ({m} x {n}: a tour alternates colours)"
    if a in (1, 2, 4):
        return f"{SCHWENK}: no closed tour on a board with {a} rows ({m} x {n})"
    if a == 3 and b in (4, 6, 8):
        return f"{SCHWENK}: no closed tour on 3 x 4, 3 x 6 or 3 x 8 ({m} x {n})"
    return None


def open_tour_reason(m: int, n: int) -> str | None:
    """Why no open tour of the full ``m x n`` board exists, or None when one does.

    Conrad et al. (1994), Cull and De Curtins (1978): with ``m <= n``, an open
    tour exists on 1 x 1, on 3 x 4, on 3 x n for n >= 7, on 4 x n for n >= 5
    and on every board with ``m >= 5``; on no other board.

    Examples
    --------
    >>> open_tour_reason(3, 6)
    'Conrad et al. (1994) / Cull and De Curtins (1978): no open tour on 3 x 3, 3 x 5 or 3 x 6 (3 x 6)'
    """
    a, b = sorted((m, n))
    if a == 1 and b > 1:
        return f"{CONRAD}: a knight cannot move on a single row or column ({m} x {n})"
    if a == 2:
        return f"{CONRAD}: no tour on a board with 2 rows ({m} x {n})"
    if a == 3 and b in (3, 5, 6):
        return f"{CONRAD}: no open tour on 3 x 3, 3 x 5 or 3 x 6 ({m} x {n})"
    return f"{CONRAD}: no open tour on 4 x 4" if a == 4 and b == 4 else None


def open_tour_exists(m: int, n: int) -> bool:
    """Conrad et al. (1994): an open tour of the full ``m x n`` board exists.

    Examples
    --------
    >>> [n for n in range(1, 9) if open_tour_exists(n, n)]
    [1, 5, 6, 7, 8]
    """
    return open_tour_reason(m, n) is None


def closed_tour_exists(m: int, n: int) -> bool:
    """Schwenk (1991): a closed tour of the full ``m x n`` board exists (see :func:`closed_tour_reason`).

    A closed tour is a cycle, so it needs at least 3 squares.
    """
    return closed_tour_reason(m, n) is None


def colour_reason(
    m: int, n: int, start: tuple[int, int] | None, end: tuple[int, int] | None = None
) -> str | None:
    """Why no open tour of the full ``m x n`` board can run from ``start`` to ``end`` by colour, or None.

    A knight move changes the square colour, so a tour alternates colours: on a
    board with an odd number of squares it starts and ends on the majority
    colour (that of the corner (0, 0)); with an even number its two ends have
    different colours.

    Examples
    --------
    >>> print(colour_reason(5, 5, (0, 1)))
    colour: on 5 x 5 (25 squares, odd) a tour starts and ends on the colour of (0, 0); the start (0, 1) is not
    """
    squares = m * n
    if squares % 2 == 1:
        for label, sq in (("start", start), ("end", end)):
            if sq is not None and (sq[0] + sq[1]) % 2 == 1:
                return (
                    f"colour: on {m} x {n} ({squares} squares, odd) a tour starts and ends on the colour "
                    f"of (0, 0); the {label} {tuple(sq)} is not"
                )
    elif start is not None and end is not None and (sum(start) + sum(end)) % 2 == 0:
        return (
            f"colour: on {m} x {n} ({squares} squares, even) a tour's ends have different colours; "
            f"{tuple(start)} and {tuple(end)} have the same"
        )
    return None


def outer_rows_reason(
    m: int, n: int, start: tuple[int, int] | None, end: tuple[int, int] | None = None
) -> str | None:
    """Why no open tour of the full 4 x ``n`` board can start or end on an inner row, or None.

    On a 4-row board every move from an outer row (the first or last) lands
    on an inner row, and each kind holds half the squares. A tour that ends
    on an inner row at either end would need more inner than outer squares,
    or would alternate outer and inner strictly; then its outer squares all
    sit an even number of steps apart and have one colour, but the outer rows
    hold both colours. So both ends are on outer rows (the argument of
    Schwenk's proof that 4 x n has no closed tour).

    Examples
    --------
    >>> outer_rows_reason(4, 12, (1, 5)) is not None
    True
    >>> outer_rows_reason(12, 4, (5, 1)) is not None  # on 12 x 4 the four lines are the columns
    True
    """
    if 4 not in (m, n):
        return None
    across = 0 if m == 4 else 1  # the coordinate that runs across the 4 lines
    for label, sq in (("start", start), ("end", end)):
        if sq is not None and sq[across] in (1, 2):
            return (
                f"outer lines: on {m} x {n} an open tour starts and ends on the two outer lines of four "
                f"(every move from them lands on the inner two, as many squares each); the {label} "
                f"{tuple(sq)} is on an inner line"
            )
    return None


def full_board_reason(m: int, n: int, *, closed: bool, start=None, end=None) -> str | None:
    """Why the query has no tour on the full ``m x n`` board, by the theorems above; None if they allow one.

    None does not promise a tour from a fixed start or to a fixed end (the
    theorems say nothing there beyond colour); it promises one otherwise.
    """
    if closed:
        return closed_tour_reason(m, n)
    return open_tour_reason(m, n) or colour_reason(m, n, start, end) or outer_rows_reason(m, n, start, end)


def counting_reason(instance: TourInstance) -> str | None:
    """Why no tour of ``instance`` exists by counting colours and moves (any board), or None.

    A knight move changes colour, so a closed tour needs as many squares of
    each colour, an open one at most one more of one colour (and then starts
    and ends on it), and fixed ends of an even tour differ in colour; the fixed
    ends of a closed tour are a knight move apart (the closing move). A square
    without a move, a closed tour through a square with one move, or more
    than two squares with one move also rule a tour out. O(rows * cols).
    """
    board = instance.board
    n = board.n_free
    if instance.closed and n < 3:
        return "a closed tour needs at least 3 squares"
    start, end = instance.start, instance.end
    if instance.closed and start is not None and end is not None and not is_knight_move(board, start, end):
        return (
            f"a closed tour from {tuple(start)} to {tuple(end)} closes with a move between them, "
            "and they are not a knight move apart"
        )
    if (reason := colour_count_reason(instance)) is not None:
        return reason
    degree = (knight_neighbours(board) >= 0).sum(axis=1)[board.free.reshape(-1)]
    if n > 1 and (degree == 0).any():
        return "a usable square has no knight move"
    if instance.closed and (degree == 1).any():
        return "a closed tour needs two moves at every square"
    if not instance.closed and (degree == 1).sum() > 2:
        return "more than two squares have a single knight move"
    return None


def colour_count_reason(instance: TourInstance) -> str | None:
    """The colour part of :func:`counting_reason`: a knight move changes colour (except a
    wrapping move across an odd side of a torus, where this says nothing)."""
    board = instance.board
    if board.torus and (board.rows % 2 or board.cols % 2):
        return None
    n = board.n_free
    colour = (np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2)[board.free]
    white, black = int((colour == 0).sum()), int((colour == 1).sum())
    if abs(white - black) > (0 if instance.closed else 1):
        kind = "a closed" if instance.closed else "an open"
        return f"{kind} tour alternates colours, but the board has {white} and {black}"
    if instance.closed:
        return None
    for label, square in (("start", instance.start), ("end", instance.end)):
        if square is not None and n % 2 == 1 and (square[0] + square[1]) % 2 != (0 if white > black else 1):
            return f"with {n} squares a tour starts and ends on the majority colour; the {label} is not"
    start, end = instance.start, instance.end
    if start is not None and end is not None and n % 2 == 0 and (sum(start) + sum(end)) % 2 == 0:
        return f"with {n} squares a tour starts and ends on different colours"
    return None


def numbered(board: Board, tour: list[list[int]]) -> list[list[int | None]]:
    """Board of visit numbers (1-based), ``None`` on removed squares."""
    grid: list[list[int | None]] = [[None] * board.cols for _ in range(board.rows)]
    for step, (r, c) in enumerate(tour, start=1):
        grid[r][c] = step
    return grid


def format_mostra(grid: list[list[int | None]]) -> str:
    """Seed 003's ``mostra`` layout: each number right-aligned to 3 characters plus a space.

    The Prolog writes ``'  '`` before numbers below 10, ``' '`` before numbers
    below 100, nothing before larger ones, and a space after each.
    """
    return "\n".join("".join(f"{x or 0:>3} " for x in row) for row in grid) + "\n"
