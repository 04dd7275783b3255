"""The compiled kernel of the lost knight's checker (numba): a distance labelling checked in one pass.

:func:`first_rise` does, square by square, what whole-board numpy operations move by move did
(0.2-0.4 ms of fixed cost on an 8 x 8 board, several times the compiled search's 0.05 ms).
Labels are any int64, or int32 (``first_rise32``): no comparison adds to one (``v > u + 1`` is
``v > u and v - 1 > u``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knightcert.problems.moves import KNIGHT_OFFSETS

__all__ = ["OFFSETS", "first_rise", "first_rise32"]

#: The knight's moves in the library's order (the order faults are reported in, square by square).
OFFSETS = np.array(KNIGHT_OFFSETS, dtype=np.int64)


@njit(cache=True, nogil=True)
def first_rise(blocked, labels, rows, cols):  # pragma: no cover - numba
    """The first knight move ``u -> v`` of the torus between squares not ``blocked`` (flat,
    row-major) whose label grows by more than 1 (``labels[v] > labels[u] + 1``), as ``8 u + k``
    (``k``: the move's index in :data:`OFFSETS`); -1 when there is none. Only squares labelled
    below the highest label less 1 can start such a move: the others are passed over at once."""
    top = labels.max() if labels.size else 0
    for r in range(rows):
        if labels[r * cols : (r + 1) * cols].min() >= top - 1:  # top - 1 wraps only at int64's least
            continue  # no square of the row can start one (a vectorised pass: most rows end here)
        for u in range(r * cols, (r + 1) * cols):
            if labels[u] >= top - 1 or blocked[u]:
                continue
            for k in range(8):  # the board wraps (a division only at its edges)
                tr, tc = r + OFFSETS[k, 0], u - r * cols + OFFSETS[k, 1]
                tr, tc = tr % rows if not 0 <= tr < rows else tr, tc % cols if not 0 <= tc < cols else tc
                v = labels[tr * cols + tc]
                if v > labels[u] and v - 1 > labels[u] and not blocked[tr * cols + tc]:
                    return 8 * u + k
    return -1


first_rise32 = first_rise  # exported a second time, for int32 labels (compiled ahead of time)
