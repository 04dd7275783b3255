"""The compiled kernel of the lost knight's checker (numba): a distance labelling checked in one pass.

:func:`first_rise` does, square by square, what whole-board numpy operations move by move did
(0.2-0.4 ms of fixed cost on an 8 x 8 board, several times the compiled search's 0.05 ms);
:func:`first_misstep` replays a path step by step (0.05 ms of numpy calls on a 5-square path).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knightcert.problems.moves import KNIGHT_OFFSETS

__all__ = ["OFFSETS", "first_rise"]

#: The knight's moves in the library's order (the order faults are reported in, square by square).
OFFSETS = np.array(KNIGHT_OFFSETS, dtype=np.int64)


@njit(cache=True, nogil=True)
def first_rise(blocked, labels, rows, cols):  # pragma: no cover - numba
    """The first knight move ``u -> v`` of the torus between squares not ``blocked`` (flat,
    row-major) whose label grows by more than 1 (``labels[v] > labels[u] + 1``), as ``8 u + k``
    (``k``: the move's index in :data:`OFFSETS`); -1 when there is none. Only squares labelled
    below the highest label less 1 can start such a move: the others are passed over at once."""
    top = labels.max() if labels.size else 0
    for u in range(rows * cols):
        if labels[u] + 1 >= top or blocked[u]:  # the labels first: most squares are passed over here
            continue
        for k in range(8):
            v = ((u // cols + OFFSETS[k, 0]) % rows) * cols + (u % cols + OFFSETS[k, 1]) % cols
            if labels[v] > labels[u] + 1 and not blocked[v]:
                return 8 * u + k
    return -1
