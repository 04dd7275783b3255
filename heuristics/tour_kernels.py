"""The compiled Warnsdorff engine (numba) for knight's tours.

``moves[u, k]`` is the square reached from ``u`` by the k-th jump in priority
order (-1 when off the board or removed). Candidates are ranked by
(onward moves, tie key, jump priority), smallest first.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["EXHAUSTED", "FOUND", "STOPPED", "order_squares", "walk_order", "walk_squares", "warnsdorff"]

FOUND = 1  # a tour is in ``path``
EXHAUSTED = 0  # every continuation was tried: no tour from this start (a proof when budget > 0)
STOPPED = -1  # gave up: node budget spent, or a dead end without backtracking


@njit(cache=True, nogil=True)
def warnsdorff(moves, free, key, start, end, closed, budget, path):  # pragma: no cover - compiled
    """Warnsdorff's rule with optional backtracking.

    Parameters
    ----------
    moves : int32 (n, 8)
    free : uint8 (n,)
    key : int64 (n,)  tie-break, smaller wins
    start, end : int  (end = -1: any)
    closed : bool
    budget : int  nodes allowed for backtracking; 0 = pure greedy (no backtracking)
    path : int32 (n,)  output

    Returns
    -------
    (status, length, nodes, backtracks, covered)
        status FOUND, EXHAUSTED or STOPPED (see the module constants); ``covered`` is the
        most squares any partial tour reached (= length without backtracking).
    """
    n = moves.shape[0]
    total = 0
    for i in range(n):
        total += free[i]
    visited = np.zeros(n, dtype=np.uint8)
    degree = np.zeros(n, dtype=np.int32)
    for u in range(n):
        if free[u]:
            for k in range(8):
                v = moves[u, k]
                if v >= 0:
                    degree[u] += 1
    candidates = np.empty((total, 8), dtype=np.int32)
    count = np.zeros(total, dtype=np.int32)
    pointer = np.zeros(total, dtype=np.int32)
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
        if depth == total - 1:
            ok = True
            if end >= 0 and u != end:
                ok = False
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
                    w = candidates[depth, j - 1]
                    if degree[w] > degree[v] or (degree[w] == degree[v] and key[w] > key[v]):
                        candidates[depth, j] = w
                        j -= 1
                    else:
                        break
                candidates[depth, j] = v
                c += 1
            count[depth] = max(c, 0)
            pointer[depth] = 0
        if depth < total - 1 and pointer[depth] < count[depth] and (budget > 0 or pointer[depth] == 0):
            v = candidates[depth, pointer[depth]]
            pointer[depth] += 1
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


@njit(cache=True, nogil=True)
def walk_squares(table, first, cols):  # pragma: no cover - compiled
    """Read a tour (cycle or path) from its neighbour table as (n, 2) int32 [row, col] squares.

    ``table[u]`` holds the two neighbours of ``u`` on the tour, -1 at the ends
    of a path; ``first`` is where to begin (a path end for a path).
    """
    n = table.shape[0]
    out = np.empty((n, 2), dtype=np.int32)
    previous = -1
    current = first
    for i in range(n):
        out[i, 0] = current // cols
        out[i, 1] = current % cols
        following = table[current, 0]
        if following == previous:
            following = table[current, 1]
        previous = current
        current = following
    return out
