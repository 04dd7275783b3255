"""The compiled kernels of the jump game's checker (numba): its own labels, and their check.

:func:`meet_labels` labels the start cells by a search from both ends (the checker's own code,
no search code shared). :func:`label_faults`: a pass over the board for the labels' range, then
for every labelled cell (every cell, when cells / (rows + cols) or more are labelled) and each
of its four jumps, whether the target's round label allows the cell's, whether the cell has a
jump one round closer, and whether its tie key is at most that successor's; when fewer are
labelled (a goal few players reach), an unlabelled cell is read only from the labelled cells it
jumps onto, found along their row and column: the check then costs about what the solve's own
search does, not the whole board four times (64 x 64, two cells labelled: 40 us to 14).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["DIRECTIONS", "label_faults", "label_faults32", "meet_labels", "replay_fault"]

#: The four jump directions, in the order the checker reports faults (up, down, left, right).
DIRECTIONS = np.array([(-1, 0), (1, 0), (0, -1), (0, 1)], dtype=np.int64)


@njit(cache=True, nogil=True)
def label_faults(values, rounds, keys):  # pragma: no cover - numba
    """The faults of the labels, as flags.

    Parameters
    ----------
    values, rounds, keys : int64 arrays of one shape (rows, cols)
        The board's jump values and the labels checked (``rounds`` int32: ``label_faults32``).

    Returns
    -------
    faults : bool array of length 13
        ``faults[2 d]``: some label is larger than a jump in direction ``d`` allows (the
        cell unlabelled, or more than one round above the target); ``faults[2 d + 1]``:
        some cell more than two rounds from the goal has a tie key above that of its
        successor one round closer in direction ``d``; ``faults[8]``: some labelled cell
        other than the goal has no jump one round closer; ``faults[9]``: some label or key
        is below -1; ``faults[10]``: the goal (the last cell) has a label other than 0;
        ``faults[11]``: another cell has label 0; ``faults[12]``: some cell two rounds out
        has a tie key other than its own value.
    """
    rows, cols = values.shape
    faults = np.zeros(13, dtype=np.bool_)
    labelled, below, other_zero, wrong_key = 0, False, False, False  # in registers, written at the end
    for r in range(rows):
        for c in range(cols):
            label, key = rounds[r, c], keys[r, c]
            labelled += label >= 0
            below |= label < -1 or key < -1
            other_zero |= label == 0 and (r != rows - 1 or c != cols - 1)
            wrong_key |= label == 2 and key != values[r, c]
    # few labelled cells (a goal few reach): an unlabelled cell is read only where it jumps onto one
    sparse, unlabelled = labelled * (rows + cols) < rows * cols, False
    for r in range(rows):
        for c in range(cols):
            value, label, key = values[r, c], rounds[r, c], keys[r, c]
            if sparse and label < 0:
                continue
            closer = False
            for d in range(4):
                tr, tc = r + DIRECTIONS[d, 0] * value, c + DIRECTIONS[d, 1] * value
                if value <= 0 or not (0 <= tr < rows and 0 <= tc < cols) or rounds[tr, tc] < 0:
                    continue
                target = rounds[tr, tc]
                faults[2 * d] |= label < 0 or label > target + 1
                if label >= 1 and target == label - 1:
                    closer = True
                    faults[2 * d + 1] |= label > 2 and key > keys[tr, tc]  # only on a jump one round closer
            unlabelled |= label > 0 and not closer
            for k in range(rows + cols if sparse else 0):  # the unlabelled cells that jump onto this one
                kr, kc = (k, c) if k < rows else (r, k - rows)
                if values[kr, kc] == abs(kr - r) + abs(kc - c) > 0 and rounds[kr, kc] < 0:
                    faults[(0 if kr > r else 2) if k < rows else (4 if kc > c else 6)] = True
    faults[8], faults[9], faults[11], faults[12] = unlabelled, below, other_zero, wrong_key
    faults[10] = rows * cols > 0 and rounds[rows - 1, cols - 1] != 0
    return faults


label_faults32 = label_faults  # exported a second time, for int32 round labels (the methods' own)


@njit(cache=True, nogil=True)
def meet_labels(values, starts, rounds, keys):  # pragma: no cover - numba
    """Each flat start cell's fewest jumps to the goal (the last cell; ``rounds``, -1: never)
    and, two or more jumps out, the least value a fastest path jumps from in the round before
    its last (``keys``, else -1): a search from both ends that meet in the middle.

    The goal's labels grow breadth-first over the reversed jumps (a cell's jumpers found by
    scanning its row and column: no reversed graph is built) and are kept from one start to
    the next; each start's own forward layers grow from it. Whichever side's next layer costs
    less grows, until the forward layer ``i`` holds cells the goal's labels reach (all at the
    outer label ``b``, as no shorter path crossed; then ``rounds = i + b``, and the key is the
    least of their keys, every fastest path passing one of them; when ``b = 1``, the least
    value of the layer before with a jump onto one of them) or a side runs out (never). Work:
    the two balls of about half the rounds each, not the whole board; a backward layer is
    grown only when cheaper than the forward one beside it for every start left (the goal's
    labels serve them all), the goal's jumpers excepted."""
    rows, cols = values.shape
    n = rows * cols
    back = np.zeros(n, dtype=np.int32)  # 1 + fewest jumps to the goal; 0: not labelled yet
    tie = np.empty(n, dtype=np.int64)  # the key of each cell labelled two or more rounds out
    seen = np.zeros(n, dtype=np.bool_)
    bqueue, fqueue = np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32)
    back[n - 1], bqueue[0] = 1, n - 1
    bstart, bend = 1, _grow_back(values, back, tie, bqueue, 0, 1)  # the goal's jumpers: one scan
    for p in range(starts.size):
        fqueue[0], seen[starts[p]] = starts[p], True
        fstart, fend, depth, meet, before = 0, 1, 0, 0, 0
        while True:
            for j in range(fstart, fend):
                label = back[fqueue[j]]
                meet = label if label > 0 and (meet == 0 or label < meet) else meet
            if meet > 0 or fstart == fend or bstart == bend:
                break
            if (fend - fstart) * 4 * (starts.size - p) <= (bend - bstart) * (rows + cols):
                before, fstart, fend = fstart, fend, _grow_forward(values, seen, fqueue, fstart, fend)
                depth += 1
            else:
                bstart, bend = bend, _grow_back(values, back, tie, bqueue, bstart, bend)
        rounds[p], keys[p] = (depth + meet - 1 if meet > 0 else -1), -1
        for j in range(fstart, fend if meet > 2 else fstart):  # met two or more jumps out: their keys
            if back[fqueue[j]] == meet and (keys[p] < 0 or tie[fqueue[j]] < keys[p]):
                keys[p] = tie[fqueue[j]]
        for j in range(before, fstart if meet == 2 else before):  # met one jump from the goal
            r, c = fqueue[j] // cols, fqueue[j] % cols
            for d in range(4):
                tr, tc = r + DIRECTIONS[d, 0] * values[r, c], c + DIRECTIONS[d, 1] * values[r, c]
                if values[r, c] > 0 and 0 <= tr < rows and 0 <= tc < cols and back[tr * cols + tc] == 2:
                    keys[p] = values[r, c] if keys[p] < 0 else min(keys[p], values[r, c])
        for j in range(fend):
            seen[fqueue[j]] = False


@njit(cache=True, nogil=True)
def _grow_back(values, back, tie, queue, start, end):  # pragma: no cover - numba
    """Label the cells that jump onto the layer ``queue[start:end]`` one round further out
    (their key: their own value two rounds out, beyond the least of their successors'
    in the layer); return the new end of the queue."""
    rows, cols = values.shape
    tail = end
    for j in range(start, end):
        target = queue[j]
        r, c = target // cols, target % cols
        label = back[target] + 1
        for k in range(rows + cols):  # the column, then the row
            kr, kc = (k, c) if k < rows else (r, k - rows)
            cell = kr * cols + kc
            if values[kr, kc] != abs(kr - r) + abs(kc - c) or cell == target:
                continue
            if back[cell] == 0:
                back[cell], queue[tail] = label, cell
                tail += 1
                tie[cell] = values[kr, kc] if label == 3 else tie[target]
            elif back[cell] == label and label > 3 and tie[target] < tie[cell]:
                tie[cell] = tie[target]
    return tail


@njit(cache=True, nogil=True)
def _grow_forward(values, seen, queue, start, end):  # pragma: no cover - numba
    """Append the cells not seen yet that the layer ``queue[start:end]`` jumps to; return the
    new end of the queue."""
    rows, cols = values.shape
    tail = end
    for j in range(start, end):
        r, c = queue[j] // cols, queue[j] % cols
        for d in range(4):
            tr = r + DIRECTIONS[d, 0] * values[r, c]
            tc = c + DIRECTIONS[d, 1] * values[r, c]
            if values[r, c] > 0 and 0 <= tr < rows and 0 <= tc < cols and not seen[tr * cols + tc]:
                seen[tr * cols + tc], queue[tail] = True, tr * cols + tc
                tail += 1
    return tail


@njit(cache=True, nogil=True)
def replay_fault(values, squares):  # pragma: no cover - numba
    """The first fault of a player's path ``squares`` ((n, 2) int64 rows) to the goal (the last
    cell): ``2 k`` for a square ``k < n - 1`` on the goal (reached before the path's end), else
    ``2 k + 1`` for the round ``k`` (from the square ``k - 1``) that is not a jump of the cell's
    value along its row or column, from the board onto the board; -1 when there is none."""
    rows, cols = values.shape
    n = squares.shape[0]
    for k in range(n - 1):
        if squares[k, 0] == rows - 1 and squares[k, 1] == cols - 1:
            return 2 * k
    for k in range(1, n):
        r, c, tr, tc = squares[k - 1, 0], squares[k - 1, 1], squares[k, 0], squares[k, 1]
        if not (0 <= r < rows and 0 <= c < cols and 0 <= tr < rows and 0 <= tc < cols):
            return 2 * k + 1
        across, down = abs(tc - c), abs(tr - r)
        if values[r, c] <= 0 or min(across, down) != 0 or across + down != values[r, c]:
            return 2 * k + 1
    return -1
