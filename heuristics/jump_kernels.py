"""Compiled loops (numba) of the jump-game searches.

Cells are flat indices ``r * cols + c``; a cell of value ``v > 0`` jumps to
``r -/+ v`` (same column) and ``c -/+ v`` (same row) when that stays on the board.
"""

from __future__ import annotations

import numpy as np
from numba import njit


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
def jump_table(values, rows, cols):  # pragma: no cover - compiled
    """``table[cell, k]``: the cell one jump away in direction ``k`` (up, down, left, right), or -1."""
    table = np.full((rows * cols, 4), -1, dtype=np.int32)
    cell = 0
    for r in range(rows):
        for c in range(cols):
            v = values[cell]
            if v > 0:
                if r - v >= 0:
                    table[cell, 0] = cell - v * cols
                if r + v < rows:
                    table[cell, 1] = cell + v * cols
                if c - v >= 0:
                    table[cell, 2] = cell - v
                if c + v < cols:
                    table[cell, 3] = cell + v
            cell += 1
    return table


@njit(cache=True, nogil=True)
def rounds_to_goal(table, goal, dist, order):  # pragma: no cover - compiled
    """Backward BFS from ``goal`` over reversed jumps.

    Fills ``dist`` (pre-set to -1) with the fewest jumps from every cell to
    the goal and ``order`` with the cells in BFS order; returns how many cells
    reach the goal.
    """
    n = table.shape[0]
    start = np.zeros(n + 1, dtype=np.int64)
    for cell in range(n):
        for k in range(4):
            t = table[cell, k]
            if t >= 0:
                start[t + 1] += 1
    for i in range(n):
        start[i + 1] += start[i]
    fill = start[:n].copy()
    preds = np.empty(start[n], dtype=np.int32)
    for cell in range(n):
        for k in range(4):
            t = table[cell, k]
            if t >= 0:
                preds[fill[t]] = cell
                fill[t] += 1
    dist[goal] = 0
    order[0] = goal
    head = 0
    tail = 1
    while head < tail:
        u = order[head]
        head += 1
        du = dist[u] + 1
        for j in range(start[u], start[u + 1]):
            p = preds[j]
            if dist[p] < 0:
                dist[p] = du
                order[tail] = p
                tail += 1
    return tail


@njit(cache=True, nogil=True)
def best_previous_jump(values, table, dist, order, reached, best):  # pragma: no cover
    """For every cell ``c`` with ``dist[c] >= 2``: the shortest possible jump in
    the round before the last, over all fastest paths from ``c``.

    ``best[c] = values[c]`` when ``dist[c] == 2``, else the minimum of ``best``
    over the successors one round closer. Cells are taken in BFS order, so
    every successor is done first. ``best`` is pre-set to -1.
    """
    for i in range(reached):
        cell = order[i]
        d = dist[cell]
        if d < 2:
            continue
        if d == 2:
            best[cell] = values[cell]
            continue
        lowest = -1
        for k in range(4):
            t = table[cell, k]
            if t >= 0 and dist[t] == d - 1 and (lowest < 0 or best[t] < lowest):
                lowest = best[t]
        best[cell] = lowest


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
