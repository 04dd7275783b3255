"""Compiled inner loops (numba) of the exact counters (:mod:`knightcert.algorithms.counting`)."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["count_hamiltonian_paths", "count_max_rows"]


@njit(cache=True, nogil=True, inline="always")
def _popcount(x):  # pragma: no cover - compiled
    count = 0
    while x:
        x &= x - np.uint64(1)
        count += 1
    return count


@njit(cache=True, nogil=True)
def count_hamiltonian_paths(nbr, free, start, last, place, reserved, stop):  # pragma: no cover - compiled
    """(paths, finished): paths from ``start`` through every square of ``free`` that end on a
    square of ``last``; not finished, the paths found so far, when ``stop[0]`` was set (read
    every 16,384 nodes: another thread stops the search, which holds no GIL).

    ``nbr[v]`` is the bitmask of the squares one move from ``v``; ``place[k] >= 0`` is the
    square the path must have at position ``k`` (from 0), and the squares of ``reserved`` (those
    with a place) stand nowhere else. A depth-first search on
    bitmasks, pruned by links: every unvisited square needs two links (unvisited neighbours,
    the current square, and a virtual sink joined to the squares of ``last``), and at most one
    may have fewer than two links without the sink (it can only be the path's end).
    """
    n = _popcount(free)
    stack_square = np.empty(n, dtype=np.int64)
    stack_left = np.empty(n, dtype=np.uint64)
    one = np.uint64(1)
    total = 0
    depth = 0
    stack_square[0] = start
    visited = one << np.uint64(start)
    stack_left[0] = nbr[start] & free & ~visited & _allowed(place, reserved, 1)
    if n == 1:
        return (1 if (last >> np.uint64(start)) & one else 0), True
    nodes = 0
    while depth >= 0:
        nodes += 1
        if nodes & 16383 == 0 and stop[0]:
            return total, False
        moves = stack_left[depth]
        if moves == 0:
            visited &= ~(one << np.uint64(stack_square[depth]))
            depth -= 1
            continue
        w = 0
        while not (moves >> np.uint64(w)) & one:
            w += 1
        stack_left[depth] = moves & ~(one << np.uint64(w))
        visited |= one << np.uint64(w)
        rest = free & ~visited
        if rest == 0:
            if (last >> np.uint64(w)) & one:
                total += 1
            visited &= ~(one << np.uint64(w))
            continue
        here = (one << np.uint64(w)) | rest
        ends = 0
        dead = False
        scan = rest
        while scan:
            u = 0
            low = scan & (~scan + one)
            while not (low >> np.uint64(u)) & one:
                u += 1
            scan &= scan - one
            links = _popcount(nbr[u] & here)
            if links < 2:
                ends += 1
                if links + ((last >> np.uint64(u)) & one) < 2 or ends > 1:
                    dead = True
                    break
        if dead or (nbr[w] & rest) == 0:
            visited &= ~(one << np.uint64(w))
            continue
        depth += 1
        stack_square[depth] = w
        stack_left[depth] = nbr[w] & rest & _allowed(place, reserved, depth + 1)
    return total, True


@njit(cache=True, nogil=True, inline="always")
def _allowed(place, reserved, k):  # pragma: no cover - compiled
    """The squares that may stand at position ``k``: its own if it has one, else any unreserved."""
    return np.uint64(1) << np.uint64(place[k]) if place[k] >= 0 else ~reserved


@njit(cache=True, nogil=True)
def count_max_rows(rows_free, width):  # pragma: no cover - compiled
    """(maximum, number of maximum placements) of independent knights, row by row.

    ``rows_free[i]`` is the bitmask of row ``i``'s usable squares (plain board, ``width``
    columns). The state is the last two rows' masks; a row may join them when no knight of it
    attacks one of theirs (one row up: two columns apart; two rows up: one column apart).
    """
    size = 1 << width
    full = size - 1
    best = np.full((size, size), -1, dtype=np.int64)
    exact = np.zeros((size, size), dtype=np.int64)
    best[0, 0] = 0
    exact[0, 0] = 1
    for i in range(rows_free.shape[0]):
        new_best = np.full((size, size), -1, dtype=np.int64)
        new_exact = np.zeros((size, size), dtype=np.int64)
        allowed = rows_free[i]
        for a in range(size):
            for b in range(size):
                if best[a, b] < 0:
                    continue
                near = ((b << 2) | (b >> 2)) & full
                far = ((a << 1) | (a >> 1)) & full
                blocked = near | far
                c = allowed & ~blocked
                sub = c
                while True:
                    value = best[a, b] + _popcount(np.uint64(sub))
                    if value > new_best[b, sub]:
                        new_best[b, sub] = value
                        new_exact[b, sub] = exact[a, b]
                    elif value == new_best[b, sub]:
                        new_exact[b, sub] += exact[a, b]
                    if sub == 0:
                        break
                    sub = (sub - 1) & c
        best = new_best
        exact = new_exact
    top = best.max()
    count = 0
    for a in range(size):
        for b in range(size):
            if best[a, b] == top:
                count += exact[a, b]
    return top, count
