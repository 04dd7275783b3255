"""Plain-text pictures of boards and answers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from knightcert.problems.board import Board

__all__ = ["numbered_board"]


def numbered_board(board: Board, squares: Sequence[Sequence[int]], start: int = 0) -> str:
    """Draw ``board`` with the i-th square of ``squares`` labelled ``start + i``.

    Blocked squares are ``x`` and unvisited free squares ``.``; columns are
    right-aligned to the widest label.

    Examples
    --------
    >>> print(numbered_board(Board(2, 3), [[0, 0], [1, 2]]))
    0 . .
    . . 1
    """
    labels = np.where(board.blocked, "x", ".").astype(object)
    for i, (r, c) in enumerate(squares):
        labels[r, c] = str(start + i)
    width = max((len(str(x)) for x in labels.ravel()), default=1)
    return "\n".join(" ".join(str(x).rjust(width) for x in row) for row in labels)
