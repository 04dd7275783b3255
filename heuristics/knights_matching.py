"""Compiled Hopcroft-Karp maximum matching on a knight graph, and its Koenig independent set.

Squares keep their board index: ``match[s]`` is the square matched to ``s``
(or -1) for squares of both colours, and ``nb`` is the padded neighbour table
of :func:`knightcert.problems.moves.knight_neighbours`. ``left`` lists the
usable squares of one colour; every knight move joins the two colours.

Why not a library: ``scipy.sparse.csgraph.maximum_bipartite_matching`` takes
exponential time on layered graphs (scipy issue #26147: its depth-first phase
never marks dead ends), and the polynomial alternatives measured on knight
boards (scipy's Dinic ``maximum_flow``, python-igraph, OR-Tools' push-relabel
``SimpleMaxFlow``) are 3-50x slower than the targets; see docs/benchmarks.md.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Distance of a vertex outside the current layered graph (or a dead end).
INF = np.int64(1) << np.int64(62)


@njit(cache=True, nogil=True)
def greedy_matching(nb, left, match):  # pragma: no cover - compiled
    """Match each unmatched left square to its first unmatched neighbour; return how many were matched."""
    size = 0
    for u in left:
        if match[u] >= 0:
            continue
        for k in range(nb.shape[1]):
            v = nb[u, k]
            if v < 0:
                break
            if match[v] < 0:
                match[u] = v
                match[v] = u
                size += 1
                break
    return size


@njit(cache=True, nogil=True)
def hopcroft_karp_phase(nb, left, match, dist, queue, stack, cursor):  # pragma: no cover - compiled
    """One Hopcroft-Karp phase: a maximal set of shortest disjoint augmenting paths.

    Breadth-first search from the unmatched left squares layers the graph by
    alternating distance (``dist``, left squares only) up to the first free
    right square. Depth-first search then follows the layers from each
    unmatched left square. ``cursor[u]`` is the next edge of ``u`` to try: an
    edge that led nowhere is never tried again in the phase, and a square
    whose edges are all spent gets ``dist = INF`` (a dead end, never entered
    again). Hence every edge is looked at O(1) times per phase: O(E).

    Returns the number of augmenting paths applied (0: the matching is maximum,
    and ``dist < INF`` marks the left squares reachable from unmatched left
    squares by alternating paths).
    """
    width = nb.shape[1]
    tail = 0
    for u in left:
        if match[u] < 0:
            dist[u] = 0
            queue[tail] = u
            tail += 1
        else:
            dist[u] = INF
    roots = tail
    limit = INF
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        if dist[u] >= limit:
            break
        for k in range(width):
            v = nb[u, k]
            if v < 0:
                break
            w = match[v]
            if w < 0:
                if limit == INF:
                    limit = dist[u] + 1
            elif dist[w] == INF:
                dist[w] = dist[u] + 1
                queue[tail] = w
                tail += 1
    if limit == INF:
        return 0
    for i in range(tail):
        cursor[queue[i]] = 0
    augmented = 0
    for i in range(roots):
        root = queue[i]
        top = 0
        stack[0] = root
        while top >= 0:
            u = stack[top]
            pushed = False
            found = False
            while cursor[u] < width:
                v = nb[u, cursor[u]]
                if v < 0:
                    cursor[u] = width
                    break
                w = match[v]
                if w < 0:
                    if dist[u] + 1 == limit:
                        found = True
                        break
                elif dist[w] == dist[u] + 1 and dist[w] < limit:
                    top += 1
                    stack[top] = w
                    pushed = True
                    break
                cursor[u] += 1
            if found:  # flip the path stack[0] .. stack[top] -> free square
                for j in range(top, -1, -1):
                    x = stack[j]
                    y = nb[x, cursor[x]]
                    match[x] = y
                    match[y] = x
                    dist[x] = INF  # used by this phase's disjoint paths
                augmented += 1
                break
            if not pushed:  # every edge of u is spent: a dead end
                dist[u] = INF
                top -= 1
                if top >= 0:
                    cursor[stack[top]] += 1
    return augmented


@njit(cache=True, nogil=True)
def koenig_independent(nb, left, right, match, reached):  # pragma: no cover - compiled
    """Koenig's independent set of a maximum matching, as a 0/1 array over the squares.

    ``reached[u]`` marks the left squares reachable from unmatched left squares
    by alternating paths (Z). The set is Z's left squares plus the right
    squares with no neighbour in Z (the complement of the minimum vertex cover
    (left - Z) + N(Z)). Its size is usable squares - matching size.
    """
    n = nb.shape[0]
    chosen = np.zeros(n, dtype=np.uint8)
    covered = np.zeros(n, dtype=np.uint8)
    for u in left:
        if reached[u]:
            chosen[u] = 1
            for k in range(nb.shape[1]):
                v = nb[u, k]
                if v < 0:
                    break
                covered[v] = 1
    for v in right:
        if not covered[v]:
            chosen[v] = 1
    return chosen
