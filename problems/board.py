"""Rectangular boards, plain or toroidal, with blocked squares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from knightcert.problems.errors import InvalidInstance

__all__ = ["MAX_SQUARES", "Board"]

#: Largest number of squares a board may have (about 1.1 GB of int32 labels).
MAX_SQUARES = 300_000_000


@dataclass(frozen=True, eq=False)
class Board:
    """A ``rows x cols`` board.

    Parameters
    ----------
    rows, cols : int
        Board dimensions, both >= 1.
    blocked : numpy.ndarray of bool, shape (rows, cols), optional
        True where a square is removed / blocked. Defaults to no blocked square.
    torus : bool
        True when moves wrap around both edges.

    Notes
    -----
    Squares are numbered row-major: square ``(r, c)`` has index ``r * cols + c``.
    """

    rows: int
    cols: int
    blocked: np.ndarray = field(default=None)  # type: ignore[assignment, arg-type]  # None: all usable, set in __post_init__
    torus: bool = False

    def __post_init__(self) -> None:
        if not all(
            isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in (self.rows, self.cols)
        ):
            raise InvalidInstance(f"board size must be integers, got {self.rows!r} x {self.cols!r}")
        if not isinstance(self.torus, bool | np.bool_):  # "no" is a str, and true
            raise InvalidInstance(f"torus must be True or False, got {self.torus!r}")
        object.__setattr__(self, "torus", bool(self.torus))
        if self.rows < 1 or self.cols < 1:
            raise InvalidInstance(f"board size must be at least 1 x 1, got {self.rows} x {self.cols}")
        if self.rows * self.cols > MAX_SQUARES:
            raise InvalidInstance(f"board {self.rows} x {self.cols} has more than {MAX_SQUARES} squares")
        if self.blocked is None:
            object.__setattr__(self, "blocked", np.zeros((self.rows, self.cols), dtype=bool))
        else:
            blocked = np.asarray(self.blocked, dtype=bool)
            if blocked.shape != (self.rows, self.cols):
                raise InvalidInstance(
                    f"blocked mask has shape {blocked.shape}, expected {(self.rows, self.cols)}"
                )
            object.__setattr__(self, "blocked", blocked)

    @property
    def size(self) -> int:
        """Number of squares, blocked or not."""
        return self.rows * self.cols

    @property
    def free(self) -> np.ndarray:
        """Boolean mask of usable squares, shape ``(rows, cols)``."""
        return ~self.blocked

    @property
    def n_free(self) -> int:
        """Number of usable squares."""
        return int(self.size - np.count_nonzero(self.blocked))

    def index(self, r: int, c: int) -> int:
        """Flat index of square ``(r, c)``."""
        return r * self.cols + c

    def square(self, i: int) -> tuple[int, int]:
        """``(row, col)`` of flat index ``i``."""
        return divmod(int(i), self.cols)

    def contains(self, r: int, c: int) -> bool:
        """True when ``(r, c)`` lies on the board (blocked or not)."""
        return 0 <= r < self.rows and 0 <= c < self.cols

    def check_square(self, square: object, what: str) -> tuple[int, int]:
        """``square`` as ``(row, col)`` on a usable square, or InvalidInstance naming ``what``."""
        try:
            r, c = cast("tuple[Any, Any]", square)  # any pair; checked below
        except (TypeError, ValueError):
            raise InvalidInstance(f"{what} must be a (row, col) pair, got {square!r:.40}") from None
        if not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in (r, c)):
            raise InvalidInstance(f"{what} must be a pair of whole numbers, got {square!r:.40}")
        if not self.contains(r, c):
            raise InvalidInstance(f"{what} ({r}, {c}) is off the {self.rows} x {self.cols} board")
        if self.blocked[r, c]:
            raise InvalidInstance(f"{what} ({r}, {c}) is a blocked square")
        return (int(r), int(c))

    def is_free(self, r: int, c: int) -> bool:
        """True when ``(r, c)`` lies on the board and is not blocked."""
        return self.contains(r, c) and not self.blocked[r, c]
