"""The compiled kernels of the jump game's checker (numba): its own labels, and their check.

:func:`jump_labels` labels the board breadth-first from the goal (the checker's own code, no
search code shared). :func:`label_faults`: one pass over the board does what
:func:`knightcert.problems.checkers.jump.check_labels` does with whole-board numpy operations
direction by direction (89 ms on a 1000 x 1000 board, more than the 73 ms of the solve; 39 ms
here): for every cell and each of its four jumps, whether the target's round label allows
the cell's, whether the cell has a jump one round closer, and whether its tie key is at most
that successor's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["DIRECTIONS", "jump_labels", "label_faults"]

#: The four jump directions, in the order the checker reports faults (up, down, left, right).
DIRECTIONS = np.array([(-1, 0), (1, 0), (0, -1), (0, 1)], dtype=np.int64)


@njit(cache=True, nogil=True)
def label_faults(values, rounds, keys):  # pragma: no cover - numba
    """The faults of the labels, as flags.

    Parameters
    ----------
    values, rounds, keys : int64 arrays of one shape (rows, cols)
        The board's jump values and the labels checked.

    Returns
    -------
    faults : bool array of length 9
        ``faults[2 d]``: some label is larger than a jump in direction ``d`` allows (the
        cell unlabelled, or more than one round above the target); ``faults[2 d + 1]``:
        some cell more than two rounds from the goal has a tie key above that of its
        successor one round closer in direction ``d``; ``faults[8]``: some labelled cell
        other than the goal has no jump one round closer.
    """
    rows, cols = values.shape
    faults = np.zeros(9, dtype=np.bool_)
    for r in range(rows):
        for c in range(cols):
            value, label, key = values[r, c], rounds[r, c], keys[r, c]
            closer = False
            for d in range(4):
                tr = r + DIRECTIONS[d, 0] * value
                tc = c + DIRECTIONS[d, 1] * value
                if value <= 0 or tr < 0 or tr >= rows or tc < 0 or tc >= cols:
                    continue
                target = rounds[tr, tc]
                if target < 0:
                    continue
                if label < 0 or label > target + 1:
                    faults[2 * d] = True
                if label >= 1 and target == label - 1:
                    closer = True
                    if label > 2 and key > keys[tr, tc]:
                        faults[2 * d + 1] = True
            if label > 0 and not closer:
                faults[8] = True
    return faults


@njit(cache=True, nogil=True, inline="always")
def _jump(values, cell, d):  # pragma: no cover - numba
    """The flat cell the jump from flat ``cell`` in direction ``d`` reaches, or -1."""
    rows, cols = values.shape
    r = cell // cols
    c = cell - r * cols
    value = values[r, c]
    tr = r + DIRECTIONS[d, 0] * value
    tc = c + DIRECTIONS[d, 1] * value
    if value <= 0 or tr < 0 or tr >= rows or tc < 0 or tc >= cols:
        return -1
    return tr * cols + tc


@njit(cache=True, nogil=True)
def jump_labels(values, goal_row, goal_col, rounds, keys):  # pragma: no cover - numba
    """The checker's labels: ``rounds`` (pre-set to -1) the fewest jumps from each cell to the
    goal, breadth-first over the reversed jumps (indexed by target: a counting sort); then, in
    that order (nondecreasing rounds), ``keys`` (pre-set to -1): a cell's own value two rounds
    out, beyond that the least key of its jumps one round closer. O(cells)."""
    rows, cols = values.shape
    n = rows * cols
    first = np.zeros(n + 1, dtype=np.int64)
    for cell in range(n):
        for d in range(4):
            target = _jump(values, cell, d)
            if target >= 0:
                first[target + 1] += 1
    for cell in range(n):
        first[cell + 1] += first[cell]
    into = np.empty(first[n], dtype=np.int32)
    queue = first[:n].astype(np.int32)  # fill pointers first, then the breadth-first queue
    for cell in range(n):
        for d in range(4):
            target = _jump(values, cell, d)
            if target >= 0:
                into[queue[target]] = cell
                queue[target] += 1
    flat_rounds, flat_keys, flat_values = rounds.reshape(n), keys.reshape(n), values.reshape(n)
    flat_rounds[goal_row * cols + goal_col] = 0
    queue[0] = goal_row * cols + goal_col
    head, tail = 0, 1
    while head < tail:
        target = queue[head]
        head += 1
        for j in range(first[target], first[target + 1]):
            if flat_rounds[into[j]] < 0:
                flat_rounds[into[j]] = flat_rounds[target] + 1
                queue[tail] = into[j]
                tail += 1
    for i in range(tail):
        cell = queue[i]
        label = flat_rounds[cell]
        if label == 2:
            flat_keys[cell] = flat_values[cell]
        elif label > 2:
            best = np.iinfo(np.int64).max
            for d in range(4):
                target = _jump(values, cell, d)
                if target >= 0 and flat_rounds[target] == label - 1:
                    best = min(best, flat_keys[target])
            flat_keys[cell] = best
