"""Compiled inner loops (numba) of the lost-knight searches.

All kernels work on the implicit toroidal knight graph: square ``u`` of a
``rows x cols`` board is ``r * cols + c`` and its eight jumps wrap modulo the
board size. ``blocked`` is the flattened mask as uint8.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knightcert.algorithms.heap_kernels import heap_pop, heap_push

__all__ = ["DC", "DR", "best_first_torus", "bfs_torus", "torus_knight_bound"]

DR = np.array([-2, -2, -1, -1, 1, 1, 2, 2], dtype=np.int64)
DC = np.array([-1, 1, -2, 2, -2, 2, -1, 1], dtype=np.int64)


@njit(cache=True, nogil=True)
def bfs_torus(blocked, rows, cols, start, goal, dist):  # pragma: no cover - compiled
    """Breadth-first search from ``start``; stops when ``goal`` is labelled.

    Fills ``dist`` (pre-set to -1) with exact distances for every square it
    labels and returns the number of expanded squares. When it stops early,
    every square at distance < dist[goal] is labelled.
    """
    n = rows * cols
    queue = np.empty(n, dtype=np.int32)
    queue[0] = start
    dist[start] = 0
    head = 0
    tail = 1
    if start == goal:
        return 0
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u]
        r = u // cols
        c = u - r * cols
        for k in range(8):
            nr = (r + DR[k]) % rows
            nc = (c + DC[k]) % cols
            v = nr * cols + nc
            if dist[v] < 0 and blocked[v] == 0:
                dist[v] = du + 1
                if v == goal:
                    return head
                queue[tail] = v
                tail += 1
    return head


@njit(cache=True, nogil=True)
def torus_knight_bound(u, goal, rows, cols):  # pragma: no cover - compiled
    """Admissible, consistent lower bound on toroidal knight distance.

    With ``tr``/``tc`` the toroidal row/column distances, one jump changes
    ``tr`` and ``tc`` by at most 2 each and ``tr + tc`` by at most 3, so
    ``max(ceil(tr/2), ceil(tc/2), ceil((tr+tc)/3))`` never overestimates and
    changes by at most 1 per jump.
    """
    r = u // cols
    c = u - r * cols
    gr = goal // cols
    gc = goal - gr * cols
    dr = abs(r - gr)
    dc = abs(c - gc)
    tr = min(dr, rows - dr)
    tc = min(dc, cols - dc)
    return max((tr + 1) // 2, (tc + 1) // 2, (tr + tc + 2) // 3)


@njit(cache=True, nogil=True)
def best_first_torus(blocked, rows, cols, start, goal, weight_g, parent, g):  # pragma: no cover
    """A* (``weight_g = 1``) or greedy best-first (``weight_g = 0``) search.

    Fills ``parent`` and ``g`` (path cost found so far, -1 = unseen) and
    returns ``(expanded, found)``. Priority is ``weight_g * g + h`` with ties
    to the smaller ``h``; A* with this consistent bound expands each square at
    most once and is exact.
    """
    n = rows * cols
    closed = np.zeros(n, dtype=np.uint8)
    # binary heap of (priority, h, square) packed into int64 keys
    heap = np.empty(8 * n + 8, dtype=np.int64)
    size = 0
    shift = np.int64(1)  # room for a square index
    while shift <= n:
        shift *= 2
    shift_h = np.int64(1)  # room for a bound value
    while shift_h <= rows + cols:
        shift_h *= 2
    g[start] = 0
    h0 = torus_knight_bound(start, goal, rows, cols)
    heap[0] = (np.int64(h0) * shift_h + h0) * shift + start
    size = 1
    expanded = 0
    while size > 0:
        key, size = heap_pop(heap, size)
        u = key % shift
        if closed[u] == 1:
            continue
        closed[u] = 1
        expanded += 1
        if u == goal:
            return expanded, True
        r = u // cols
        c = u - r * cols
        for k in range(8):
            nr = (r + DR[k]) % rows
            nc = (c + DC[k]) % cols
            v = nr * cols + nc
            if blocked[v] != 0 or closed[v] == 1:
                continue
            gv = g[u] + 1
            if g[v] >= 0 and g[v] <= gv:
                continue
            if weight_g == 0 and g[v] >= 0:
                continue
            g[v] = gv
            parent[v] = u
            hv = torus_knight_bound(v, goal, rows, cols)
            if weight_g == 0 and v == goal:
                return expanded, True
            pv = weight_g * gv + hv
            size = heap_push(heap, size, (np.int64(pv) * shift_h + hv) * shift + v)
    return expanded, False
