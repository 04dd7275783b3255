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
def _jump(values, r, c, d):  # pragma: no cover - numba
    """The flat cell the jump from ``(r, c)`` in direction ``d`` reaches, or -1."""
    rows, cols = values.shape
    value = values[r, c]
    tr = r + DIRECTIONS[d, 0] * value
    tc = c + DIRECTIONS[d, 1] * value
    if value <= 0 or tr < 0 or tr >= rows or tc < 0 or tc >= cols:
        return -1
    return tr * cols + tc


@njit(cache=True, nogil=True)
def jump_labels(values, goal, starts, rounds, keys):  # pragma: no cover - numba
    """The checker's labels of the flat cells: ``rounds`` (pre-set to -1) the fewest jumps from
    each cell to the flat ``goal``, breadth-first over the reversed jumps (indexed by target: a
    counting sort), until every cell of ``starts`` is labelled (no starts: the whole board);
    then, in that order (nondecreasing rounds), ``keys`` (pre-set to -1): a cell's own value two
    rounds out, beyond that the least key of its jumps one round closer. O(cells)."""
    rows, cols = values.shape
    n = rows * cols
    first = np.zeros(n + 1, dtype=np.int32)
    for r in range(rows):
        for c in range(cols):
            for d in range(4):
                first[_jump(values, r, c, d) + 1] += 1  # no jump (-1) counts in first[0]
    first[0] = 0
    for cell in range(n):
        first[cell + 1] += first[cell]
    into = np.empty(first[n], dtype=np.int32)
    queue = first[:n].copy()  # fill pointers first, then the breadth-first queue
    for r in range(rows):
        for c in range(cols):
            for d in range(4):
                target = _jump(values, r, c, d)
                if target >= 0:
                    into[queue[target]] = r * cols + c
                    queue[target] += 1
    wanted = np.zeros(n, dtype=np.bool_)
    wanted[starts] = True
    wanted[goal] = False
    waiting = np.count_nonzero(wanted) if starts.size else n
    rounds[goal] = 0
    queue[0] = goal
    head, tail = 0, 1
    while head < tail and waiting > 0:
        target = queue[head]
        head += 1
        for j in range(first[target], first[target + 1]):
            cell = into[j]
            if rounds[cell] < 0:
                rounds[cell] = rounds[target] + 1
                waiting -= wanted[cell]
                queue[tail] = cell
                tail += 1
    for i in range(tail):
        cell = queue[i]
        r = cell // cols
        label = rounds[cell]
        if label == 2:
            keys[cell] = values[r, cell - r * cols]
        elif label > 2:
            best = np.iinfo(np.int64).max
            for d in range(4):
                target = _jump(values, r, cell - r * cols, d)
                if target >= 0 and rounds[target] == label - 1:
                    best = min(best, keys[target])
            keys[cell] = best
