"""Compiled loops (numba) of the independent-knights heuristics.

``nb`` is the padded neighbour table of :func:`knightcert.problems.moves.knight_neighbours`
(distinct attacked squares, ``-1`` padding at the end of each row).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from knightcert.algorithms.heap_kernels import heap_pop as _pop
from knightcert.algorithms.heap_kernels import heap_push as _push

__all__ = ["greedy_fewest_removed", "swap_local_search"]


@njit(cache=True, nogil=True)
def greedy_fewest_removed(nb, free):  # pragma: no cover - compiled
    """Seed 002's rule: place a knight where it removes the fewest still-free squares.

    The cost of a square is 1 (itself) plus its still-free neighbours; ties go
    to the first square in row-major order. A heap keyed ``cost * n + square``
    with lazy deletion gives O(n log n). Returns a 0/1 array of knights.
    """
    n = nb.shape[0]
    avail = free.copy()
    cost = np.zeros(n, dtype=np.int64)
    heap = np.empty(9 * n + 1, dtype=np.int64)
    size = 0
    for i in range(n):
        if avail[i]:
            c = 1
            for k in range(8):
                j = nb[i, k]
                if j >= 0 and avail[j]:
                    c += 1
            cost[i] = c
            size = _push(heap, size, c * n + i)
    chosen = np.zeros(n, dtype=np.uint8)
    while size > 0:
        key, size = _pop(heap, size)
        i = key % n
        if not avail[i] or cost[i] * n + i != key:
            continue
        chosen[i] = 1
        avail[i] = 0
        for k in range(8):
            j = nb[i, k]
            if j < 0 or not avail[j]:
                continue
            avail[j] = 0
            for kk in range(8):
                m = nb[j, kk]
                if m >= 0 and avail[m]:
                    cost[m] -= 1
                    size = _push(heap, size, cost[m] * n + m)
    return chosen


@njit(cache=True, nogil=True)
def _adjacent(nb, a, b):  # pragma: no cover - compiled
    for k in range(8):  # noqa: SIM110 - numba compiles loops, not generators
        if nb[a, k] == b:
            return True
    return False


@njit(cache=True, nogil=True)
def _mark(nb, inset, tau, v, step):  # pragma: no cover - compiled
    """Put a knight on ``v`` (``step`` 1: the squares it attacks gain one attacker) or take it
    off (-1: they lose one)."""
    inset[v] = step > 0
    for k in range(8):
        if nb[v, k] >= 0:
            tau[nb[v, k]] += step


@njit(cache=True, nogil=True)
def swap_local_search(nb, free, chosen, iterations, seed):  # pragma: no cover - compiled
    """(1,2)-swap local search with random perturbations (iterated local search).

    A knight whose removal frees two non-attacking squares (each attacked by
    it alone) is replaced by those two. When no swap improves, up to
    ``iterations`` times a random square is forced in (its attackers removed)
    and the search restarts around it; the best placement seen is returned.
    """
    np.random.seed(seed)
    n = nb.shape[0]
    inset = chosen.copy()
    tau = np.zeros(n, dtype=np.int32)  # knights attacking each square
    placed = np.flatnonzero(inset)
    for i in placed:
        _mark(nb, inset, tau, i, 1)
    queue = np.empty(16 * n + 16, dtype=np.int64)
    queued = np.zeros(n, dtype=np.uint8)
    head, tail, size = 0, len(placed), len(placed)
    queue[:tail] = placed
    queued[placed] = 1
    best = inset.copy()
    best_size = size
    candidates = np.empty(8, dtype=np.int64)
    free_list = np.flatnonzero(free)
    for round_ in range(iterations + 1):
        while head != tail:
            x = queue[head]
            head = (head + 1) % queue.size
            queued[x] = 0
            if not inset[x]:
                continue
            count = 0
            for k in range(8):
                v = nb[x, k]
                if v >= 0 and not inset[v] and tau[v] == 1:
                    candidates[count] = v
                    count += 1
            done = False
            for p in range(count):
                if done:
                    break
                for q in range(p + 1, count):
                    a = candidates[p]
                    b = candidates[q]
                    if _adjacent(nb, a, b):
                        continue
                    # remove x, add a and b
                    _mark(nb, inset, tau, x, -1)
                    _mark(nb, inset, tau, a, 1)
                    _mark(nb, inset, tau, b, 1)
                    size += 1
                    # keep the placement maximal around x
                    for k in range(8):
                        j = nb[x, k]
                        if j >= 0 and not inset[j] and tau[j] == 0:
                            _mark(nb, inset, tau, j, 1)
                            size += 1
                    # re-examine the knights around the change
                    for y in (a, b):
                        for k in range(8):
                            j = nb[y, k]
                            if j < 0:
                                continue
                            for kk in range(8):
                                m = nb[j, kk]
                                if m >= 0 and inset[m] and not queued[m]:
                                    queue[tail] = m
                                    tail = (tail + 1) % queue.size
                                    queued[m] = 1
                        if not queued[y]:
                            queue[tail] = y
                            tail = (tail + 1) % queue.size
                            queued[y] = 1
                    done = True
                    break
        if size > best_size:
            best_size = size
            best[:] = inset
        elif size < best_size - 1:
            inset[:] = best  # drifted too far: restart from the best
            size = best_size
            tau[:] = 0
            for i in np.flatnonzero(inset):
                _mark(nb, inset, tau, i, 1)
        if round_ == iterations or free_list.size == 0:
            break
        # perturb: force a random outside square in
        v = free_list[np.random.randint(free_list.size)]
        if inset[v]:
            continue
        for k in range(8):
            j = nb[v, k]
            if j >= 0 and inset[j]:
                _mark(nb, inset, tau, j, -1)
                size -= 1
        _mark(nb, inset, tau, v, 1)
        size += 1
        for k in range(8):
            j = nb[v, k]
            if j < 0:
                continue
            for kk in range(8):
                m = nb[j, kk]
                if m >= 0 and not inset[m] and tau[m] == 0:
                    _mark(nb, inset, tau, m, 1)
                    size += 1
                if m >= 0 and inset[m] and not queued[m]:
                    queue[tail] = m
                    tail = (tail + 1) % queue.size
                    queued[m] = 1
    return best
