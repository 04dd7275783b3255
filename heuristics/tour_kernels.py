"""The compiled Warnsdorff engine (numba) for knight's tours.

``warnsdorff`` runs Warnsdorff's rule (with backtracking) from the board itself: one
pass builds the neighbour table in the jumps' priority order, the degrees and the
tie keys, then the walk updates the degrees in place. The walks read a tour from a
neighbour table.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["EXHAUSTED", "FOUND", "STOPPED", "order_squares", "tie_key", "walk_order", "warnsdorff"]

FOUND = 1  # a tour is in ``path``
EXHAUSTED = 0  # every continuation was tried: no tour from this start (a proof when budget > 0)
STOPPED = -1  # gave up: node budget spent, or a dead end without backtracking


@njit(cache=True, nogil=True)
def tie_key(r, c, rows, cols, tie, seed):  # pragma: no cover - compiled
    """The tie key of square ``(r, c)`` (smaller wins) for the tie-break ``tie`` (the place in
    ``tour_warnsdorff.TIE_BREAKS``: first, marginality, roth, centre, random): 0; minus the
    doubled Manhattan distance to the centre; minus the squared doubled Euclidean distance; plus
    it; a splitmix64 hash of (seed, square), 31 bits."""
    if tie == 4:
        z = (np.uint64(seed) << np.uint64(32)) + np.uint64(r * cols + c) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return np.int64((z ^ (z >> np.uint64(31))) >> np.uint64(33))
    y = abs(2 * np.int64(r) - (rows - 1))
    x = abs(2 * np.int64(c) - (cols - 1))
    if tie == 1:
        return -(y + x)
    if tie == 2:
        return -(y * y + x * x)
    return y * y + x * x if tie == 3 else np.int64(0)


@njit(cache=True, nogil=True)
def warnsdorff(  # pragma: no cover - compiled
    rows, cols, torus, free, drs, dcs, tie, seed, start, end, closed, budget, path
):
    """Warnsdorff's rule with optional backtracking, from the board itself.

    Parameters
    ----------
    rows, cols : int
    torus : bool
    free : uint8 (rows * cols,)
    drs, dcs : int64 (8,)  the jumps in priority order
    tie, seed : int  the tie-break (:func:`tie_key`) and its seed (``random``)
    start, end : int  (end = -1: any)
    closed : bool
    budget : int  nodes allowed for backtracking; 0 = pure greedy (no backtracking)
    path : int32 (n,)  output

    Candidates are ranked by (onward moves, tie key, jump priority), smallest first;
    the neighbour table, the degrees and the keys are built here in one pass.

    Returns
    -------
    (status, length, nodes, backtracks, covered)
        status FOUND, EXHAUSTED or STOPPED (see the module constants); ``covered`` is the
        most squares any partial tour reached (= length without backtracking).
    """
    n = rows * cols
    moves = np.empty((n, 8), dtype=np.int32)
    degree = np.empty(n, dtype=np.int32)
    key = np.empty(n, dtype=np.int64)
    total = 0
    r, c = 0, -1
    for u in range(n):
        c += 1  # (r, c) of u without a division
        if c == cols:
            r, c = r + 1, 0
        key[u] = tie_key(r, c, rows, cols, tie, seed)
        total += free[u]
        d = 0
        for k in range(8):
            nr = r + drs[k]
            nc = c + dcs[k]
            if torus:
                nr %= rows
                nc %= cols
            v = nr * cols + nc
            if free[u] and 0 <= nr < rows and 0 <= nc < cols and free[v]:
                moves[u, k] = v
                d += 1
            else:
                moves[u, k] = -1
        degree[u] = d
    visited = np.zeros(n, dtype=np.uint8)
    # the ranked candidates of every depth are kept only for backtracking
    candidates = np.empty((total if budget > 0 else 1, 8), dtype=np.int32)
    count = np.zeros(total if budget > 0 else 1, dtype=np.int32)
    pointer = np.zeros(total if budget > 0 else 1, dtype=np.int32)
    nodes = 1
    backtracks = 0
    depth = 0
    deepest = 0
    path[0] = start
    visited[start] = 1
    for k in range(8):
        v = moves[start, k]
        if v >= 0:
            degree[v] -= 1
    fresh = True
    while True:
        u = path[depth]
        row = depth if budget > 0 else 0
        if depth == total - 1:
            ok = end < 0 or u == end
            if closed:
                ok = False
                for k in range(8):
                    if total > 2 and moves[u, k] == start:
                        ok = True
            if ok:
                return FOUND, depth + 1, nodes, backtracks, depth + 1
            fresh = False
        elif fresh:
            # rank the unvisited neighbours: insertion sort on (degree, key, priority)
            c = 0
            if closed and degree[start] == 0:
                c = -1  # every neighbour of the start is used: the tour cannot close
            for k in range(8):
                if c < 0:
                    break
                v = moves[u, k]
                if v < 0 or visited[v]:
                    continue
                if v == end and depth + 2 < total:
                    continue  # the fixed end square comes last
                j = c
                while j > 0:
                    w = candidates[row, j - 1]
                    if degree[w] > degree[v] or (degree[w] == degree[v] and key[w] > key[v]):
                        candidates[row, j] = w
                        j -= 1
                    else:
                        break
                candidates[row, j] = v
                c += 1
            count[row] = max(c, 0)
            pointer[row] = 0
        if depth < total - 1 and pointer[row] < count[row] and (budget > 0 or pointer[row] == 0):
            v = candidates[row, pointer[row]]
            pointer[row] += 1
            nodes += 1
            if budget > 0 and nodes > budget:
                return STOPPED, depth + 1, nodes, backtracks, deepest + 1
            depth += 1
            deepest = max(deepest, depth)
            path[depth] = v
            visited[v] = 1
            for k in range(8):
                w = moves[v, k]
                if w >= 0:
                    degree[w] -= 1
            fresh = True
            continue
        # dead end (or no backtracking allowed): undo the last square
        if budget == 0:
            return STOPPED, depth + 1, nodes, backtracks, deepest + 1
        if depth == 0:
            return EXHAUSTED, 1, nodes, backtracks, deepest + 1
        visited[u] = 0
        for k in range(8):
            w = moves[u, k]
            if w >= 0:
                degree[w] += 1
        depth -= 1
        backtracks += 1
        fresh = False


@njit(cache=True, nogil=True)
def walk_order(table, first):  # pragma: no cover - compiled
    """Read a tour (cycle or path) from its neighbour table as its int32 flat squares in order
    (4 bytes per square: the caller frees the table before it makes the (n, 2) squares).

    ``table[u]`` holds the two neighbours of ``u`` on the tour, -1 at the ends
    of a path; ``first`` is where to begin (a path end for a path).
    """
    n = table.shape[0]
    out = np.empty(n, dtype=np.int32)
    previous = -1
    current = first
    for i in range(n):
        out[i] = current
        following = table[current, 0]
        if following == previous:
            following = table[current, 1]
        previous = current
        current = following
    return out


@njit(cache=True, nogil=True)
def order_squares(order, cols, out):  # pragma: no cover - compiled
    """Fill the (n, 2) ``out`` with the [row, col] squares of the flat squares ``order`` (the
    caller allocates ``out`` with numpy: an array that owns its memory, which the checker
    can take without a copy; numba's own arrays hang on a ``MemInfo``)."""
    for i in range(order.shape[0]):
        out[i, 0] = order[i] // cols
        out[i, 1] = order[i] % cols
