"""The compiled kernel of the lost knight's checker (numba): a distance labelling checked in one pass.

:func:`first_rise` does, square by square, what whole-board numpy operations move by move did
(0.2-0.4 ms of fixed cost on an 8 x 8 board, several times the compiled search's 0.05 ms).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knightcert.problems.moves import KNIGHT_OFFSETS

__all__ = ["OFFSETS", "first_misstep", "first_rise"]

#: The knight's moves in the library's order (the order faults are reported in, square by square).
OFFSETS = np.array(KNIGHT_OFFSETS, dtype=np.int64)


@njit(cache=True, nogil=True)
def first_rise(blocked, labels, rows, cols):  # pragma: no cover - numba
    """The first knight move ``u -> v`` of the torus between squares not ``blocked`` (flat, row-major) whose
    label grows by more than 1 (``labels[v] > labels[u] + 1``), as ``8 u + k`` (``k``: the move's
    index in :data:`OFFSETS`); -1 when there is none. Only squares labelled below the highest
    label less 1 can start such a move: the others are passed over at once."""
    top = labels.max() if labels.size else 0
    for r in range(rows):
        for c in range(cols):
            u = r * cols + c
            if labels[u] + 1 >= top or blocked[u]:
                continue
            for k in range(8):
                tr, tc = _wrap(r + OFFSETS[k, 0], rows), _wrap(c + OFFSETS[k, 1], cols)
                if labels[tr * cols + tc] > labels[u] + 1 and not blocked[tr * cols + tc]:
                    return 8 * u + k
    return -1


@njit(cache=True, nogil=True, inline="always")
def _wrap(line, size):  # pragma: no cover - numba
    """``line % size`` for a line at most 2 beyond the board (no division: 4x faster)."""
    while line < 0:
        line += size
    while line >= size:
        line -= size
    return line


@njit(cache=True, nogil=True)
def first_misstep(blocked, rows, cols, torus, squares):  # pragma: no cover - numba
    """The first fault of the path ``squares`` ((n, 2) int64 rows): ``k`` for the square ``k``
    off the board or ``blocked`` (flat), else ``n + k`` for the step ``k`` (from the square
    ``k - 1``) that is not a knight move (around the board when ``torus``); -1 when none."""
    n = squares.shape[0]
    for k in range(n):
        r, c = squares[k, 0], squares[k, 1]
        if not (0 <= r < rows and 0 <= c < cols) or blocked[r * cols + c]:
            return k
    for k in range(1, n):
        move = False
        for j in range(8):
            r, c = squares[k - 1, 0] + OFFSETS[j, 0], squares[k - 1, 1] + OFFSETS[j, 1]
            r, c = (r % rows, c % cols) if torus else (r, c)
            move |= r == squares[k, 0] and c == squares[k, 1]
        if not move:
            return n + k
    return -1
