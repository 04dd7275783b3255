"""The lost-knight problem (seed 000): instance type and text parser.

A board of ``.`` (free), ``x`` (blocked), one ``C`` (the knight) and one
``S`` (the exit); the board wraps on both axes. The question is the fewest
knight moves from ``C`` to ``S``.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass

import numpy as np

from knightcert.problems.board import Board
from knightcert.problems.board_text import parse_grid, read_bytes
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.side_constraints import side_squares

__all__ = ["LostKnightInstance", "format_lost_knight", "parse_lost_knight", "read_lost_knight"]


@dataclass(frozen=True, eq=False)
class LostKnightInstance:
    """A toroidal board with a start square ``C`` and an exit square ``S``."""

    board: Board
    start: tuple[int, int]
    exit: tuple[int, int]
    name: str = ""
    #: squares the path passes through, in this order (a side constraint)
    via: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.board, Board):
            raise InvalidInstance(f"board must be a Board, got {type(self.board).__name__}")
        if not self.board.torus:  # the lost knight's board wraps; the solvers and checker assume it
            raise InvalidInstance("a lost-knight board wraps on both axes: give Board(..., torus=True)")
        object.__setattr__(self, "start", self.board.check_square(self.start, "start C"))
        object.__setattr__(self, "exit", self.board.check_square(self.exit, "exit S"))
        if self.start == self.exit:
            raise InvalidInstance(f"start C and exit S are the same square {self.start}")
        object.__setattr__(self, "via", side_squares(self.board, self.via, "via"))

    def legs(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """The path's legs: C to the first via square, ..., the last to S (one leg without via).

        A shortest path through the via squares in order is a shortest path of each leg, joined.
        """
        return list(itertools.pairwise([self.start, *self.via, self.exit]))

    @property
    def start_index(self) -> int:
        return self.board.index(*self.start)

    @property
    def exit_index(self) -> int:
        return self.board.index(*self.exit)


def parse_lost_knight(
    text: str | bytes, source: str = "<string>", name: str | None = None
) -> LostKnightInstance:
    """Parse a lost-knight board.

    Parameters
    ----------
    text : str or bytes
        The file contents. CRLF line ends, a missing final newline and
        trailing blank lines are accepted.
    source : str
        Name used in error messages.
    name : str, optional
        Instance name; defaults to ``source``.

    Returns
    -------
    LostKnightInstance

    Raises
    ------
    InvalidInstance
        Empty input, rows of different lengths, a character other than
        ``. x C S``, or not exactly one ``C`` and one ``S``; the message gives
        the source, line and column.

    Examples
    --------
    >>> inst = parse_lost_knight("C..\\n...\\n..S\\n")
    >>> inst.start, inst.exit, inst.board.torus
    ((0, 0), (2, 2), True)
    """
    codes = parse_grid(text, source, ".xCS")
    rows, cols = codes.shape
    start = _single(codes, 2, "C", "the knight", source, cols)
    exit_ = _single(codes, 3, "S", "the exit", source, cols)
    board = Board(rows, cols, blocked=codes == 1, torus=True)
    return LostKnightInstance(board, start, exit_, name if name is not None else source)


def read_lost_knight(path: str | os.PathLike[str]) -> LostKnightInstance:
    """Read and parse a lost-knight file; see :func:`parse_lost_knight`."""
    data, source = read_bytes(path)
    return parse_lost_knight(data, source=source, name=os.path.basename(source))


def format_lost_knight(instance: LostKnightInstance) -> str:
    """Write an instance back in the text format (inverse of the parser)."""
    chars = np.where(instance.board.blocked, "x", ".").astype("<U1")
    chars[instance.start] = "C"
    chars[instance.exit] = "S"
    return "".join("".join(row) + "\n" for row in chars)


def _single(codes: np.ndarray, code: int, char: str, what: str, source: str, cols: int) -> tuple[int, int]:
    where = np.flatnonzero(codes.ravel() == code)
    if where.size == 0:
        raise InvalidInstance(f"no '{char}' ({what}) on the board: expected exactly one", source)
    if where.size > 1:
        r, c = divmod(int(where[1]), cols)
        raise InvalidInstance(f"second '{char}' ({what}): expected exactly one", source, r + 1, c + 1)
    r, c = divmod(int(where[0]), cols)
    return (r, c)
