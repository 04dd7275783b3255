"""Knight's tours (seeds 001 and 003): instance type, existence theorems, output formats.

A tour visits every usable square exactly once with knight moves; a closed
tour also ends one move away from its start.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from knightcert.problems.argument_checks import expect_square, expect_whole
from knightcert.problems.board import Board
from knightcert.problems.board_text import parse_board_mask, read_bytes
from knightcert.problems.errors import InvalidInstance


@dataclass(frozen=True, eq=False)
class TourInstance:
    """A board, whether the tour must be closed, and optional fixed ends."""

    board: Board
    closed: bool = False
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.board, Board):
            raise InvalidInstance(f"board must be a Board, got {type(self.board).__name__}")
        for label in ("start", "end"):
            square = getattr(self, label)
            if square is not None:
                object.__setattr__(self, label, self.board.check_square(square, label))


def tour_instance(
    rows: int | None = None,
    cols: int | None = None,
    *,
    closed: bool = False,
    start: tuple[int, int] | None = None,
    end: tuple[int, int] | None = None,
    board_file: str | os.PathLike[str] | None = None,
) -> TourInstance:
    """Build a tour instance from a size or a board file (``.`` usable, ``x`` removed).

    Raises
    ------
    InvalidInstance
        Sizes below 1, a size and a file together, a start or end off the
        board or on a removed square, an end for a closed tour, or a start
        equal to the end.
    """
    for name, value in (("rows", rows), ("cols", cols)):
        if value is not None:
            expect_whole(value, name)  # the range is checked below, as a board size
    expect_square(start, "start")
    expect_square(end, "end")
    if board_file is not None:
        if rows is not None:
            raise InvalidInstance("give ROWS [COLS] or --board FILE, not both")
        data, source = read_bytes(board_file)
        blocked = parse_board_mask(data, source)
        board = Board(blocked.shape[0], blocked.shape[1], blocked)
        name = os.path.basename(source)
    else:
        if rows is None:
            raise InvalidInstance("give the board size ROWS [COLS] or --board FILE")
        cols = rows if cols is None else cols
        if rows < 1 or cols < 1:
            raise InvalidInstance(f"board size must be at least 1 x 1, got {rows} x {cols}")
        board = Board(rows, cols)
        name = f"{rows}x{cols}"
    if board.n_free == 0:
        raise InvalidInstance("the board has no usable square")
    for label, square in (("start", start), ("end", end)):
        if square is None:
            continue
        r, c = square
        if not board.contains(r, c):
            raise InvalidInstance(f"{label} ({r}, {c}) is off the {board.rows} x {board.cols} board")
        if board.blocked[r, c]:
            raise InvalidInstance(f"{label} ({r}, {c}) is a removed square")
    if closed and end is not None:
        raise InvalidInstance("a closed tour has no separate end square (drop --end)")
    if start is not None and start == end and board.n_free > 1:
        raise InvalidInstance(f"start and end are the same square {start}")
    kind = "closed" if closed else "open"
    ends = "".join(
        f" {label} {sq[0]},{sq[1]}" for label, sq in (("from", start), ("to", end)) if sq is not None
    )
    return TourInstance(board, closed, start, end, f"{name} {kind}{ends}")


def open_tour_exists(m: int, n: int) -> bool:
    """Conrad et al. (1994): an open tour of the full ``m x n`` board exists.

    Examples
    --------
    >>> [n for n in range(1, 9) if open_tour_exists(n, n)]
    [1, 5, 6, 7, 8]
    """
    m, n = sorted((m, n))
    if m == 1:
        return n == 1
    if m == 2:
        return False
    if m == 3:
        return n == 4 or n >= 7
    if m == 4:
        return n >= 5
    return True


def closed_tour_exists(m: int, n: int) -> bool:
    """Schwenk (1991): a closed tour of the full ``m x n`` board exists (m <= n)
    unless m and n are both odd, m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8.

    A closed tour is a cycle, so it needs at least 3 squares.
    """
    m, n = sorted((m, n))
    if m * n % 2 == 1 or m in (1, 2, 4):
        return False
    return not (m == 3 and n in (4, 6, 8))


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
    lines = []
    for row in grid:
        cells = []
        for x in row:
            x = 0 if x is None else x
            cells.append(("  " if x < 10 else " " if x < 100 else "") + f"{x} ")
        lines.append("".join(cells))
    return "\n".join(lines) + "\n"
