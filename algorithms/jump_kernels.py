"""Compiled loops (numba) of the jump-game searches.

Cells are flat indices ``r * cols + c``; a cell of value ``v > 0`` jumps to
``r -/+ v`` (same column) and ``c -/+ v`` (same row) when that stays on the board.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["forward_player", "rounds_and_keys"]


@njit(cache=True, nogil=True, inline="always")
def _target(values, rows, cols, cell, k):  # pragma: no cover - compiled
    """Cell reached from ``cell`` in direction ``k`` (up, down, left, right), or -1."""
    v = values[cell]
    if v == 0:
        return -1
    r = cell // cols
    c = cell - r * cols
    if k == 0:
        r -= v
    elif k == 1:
        r += v
    elif k == 2:
        c -= v
    else:
        c += v
    if r < 0 or r >= rows or c < 0 or c >= cols:
        return -1
    return r * cols + c


@njit(cache=True, nogil=True)
def rounds_and_keys(values, rows, cols, goal, dist, best):  # pragma: no cover - compiled
    """Backward BFS from ``goal`` over reversed jumps, with the tie keys on the way.

    Fills ``dist`` (pre-set to -1) with the fewest jumps from every cell to
    the goal, and ``best`` (pre-set to -1), for cells with ``dist >= 2``, with
    the shortest jump possible in the round before the last over all fastest
    paths: ``values[c]`` when ``dist[c] == 2``, else the minimum of ``best``
    over the successors one round closer. BFS pops every cell of distance
    ``d`` before any of distance ``d + 1``, and a popped cell updates all its
    predecessors one round further, so ``best[u]`` is final when ``u`` is
    popped. Returns how many cells reach the goal.
    """
    n = rows * cols
    # reversed jumps in compressed rows: predecessors of t are preds[start[t]:start[t+1]]
    start = np.zeros(n + 1, dtype=np.int32)
    cell = 0
    for r in range(rows):
        for c in range(cols):
            v = values[cell]
            if v > 0:
                if r - v >= 0:
                    start[cell - v * cols + 1] += 1
                if r + v < rows:
                    start[cell + v * cols + 1] += 1
                if c - v >= 0:
                    start[cell - v + 1] += 1
                if c + v < cols:
                    start[cell + v + 1] += 1
            cell += 1
    for i in range(n):
        start[i + 1] += start[i]
    fill = start[:n].copy()
    preds = np.empty(start[n], dtype=np.int32)
    cell = 0
    for r in range(rows):
        for c in range(cols):
            v = values[cell]
            if v > 0:
                if r - v >= 0:
                    t = cell - v * cols
                    preds[fill[t]] = cell
                    fill[t] += 1
                if r + v < rows:
                    t = cell + v * cols
                    preds[fill[t]] = cell
                    fill[t] += 1
                if c - v >= 0:
                    t = cell - v
                    preds[fill[t]] = cell
                    fill[t] += 1
                if c + v < cols:
                    t = cell + v
                    preds[fill[t]] = cell
                    fill[t] += 1
            cell += 1
    queue = fill  # reuse: the fill pointers are no longer needed
    dist[goal] = 0
    queue[0] = goal
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        d = dist[u] + 1
        bu = best[u]
        for j in range(start[u], start[u + 1]):
            p = preds[j]
            if dist[p] < 0:
                dist[p] = d
                queue[tail] = p
                tail += 1
                if d == 2:
                    best[p] = values[p]
                elif d > 2:
                    best[p] = bu
            elif dist[p] == d and d > 2 and bu < best[p]:
                best[p] = bu
    return tail


@njit(cache=True, nogil=True)
def forward_player(values, rows, cols, start, goal, dist, parent, queue):  # pragma: no cover
    """One player's own breadth-first search (the per-player method).

    Returns ``(rounds, key, witness)``: fewest rounds to the goal (-1 when it
    cannot arrive), the shortest jump possible in the round before the last
    (-1 when rounds < 2), and the cell where that jump starts (-1 likewise).
    ``dist`` must be pre-set to -1; ``parent`` and ``queue`` are scratch.
    """
    dist[start] = 0
    if start == goal:
        return 0, -1, -1
    queue[0] = start
    head = 0
    tail = 1
    rounds = -1
    while head < tail and rounds < 0:
        u = queue[head]
        head += 1
        for k in range(4):
            t = _target(values, rows, cols, u, k)
            if t >= 0 and dist[t] < 0:
                dist[t] = dist[u] + 1
                parent[t] = u
                queue[tail] = t
                tail += 1
                if t == goal:
                    rounds = dist[t]
    if rounds < 0:
        return -1, -1, -1
    if rounds < 2:
        return rounds, -1, -1
    # every cell at distance rounds-2 is labelled: pick the cheapest one with a
    # successor x (distance rounds-1) that jumps onto the goal
    key = -1
    witness = -1
    for i in range(tail):
        w = queue[i]
        if dist[w] != rounds - 2:
            continue
        if key >= 0 and values[w] >= key:
            continue
        for k in range(4):
            x = _target(values, rows, cols, w, k)
            if x < 0 or dist[x] != rounds - 1:
                continue
            hits = False
            for kk in range(4):
                if _target(values, rows, cols, x, kk) == goal:
                    hits = True
            if hits:
                key = values[w]
                witness = w
                break
    return rounds, key, witness
