"""The numba kernels of :mod:`knightcert.problems.knight_matching`: push-relabel, Hopcroft-Karp
phases, the greedy start and Koenig's independent set, on the padded neighbour table.

``pip install`` compiles them ahead of time (:mod:`knightcert.problems.compiled`); this module,
and numba with it, is loaded only where that build is missing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["INF", "global_relabel", "greedy_matching", "hopcroft_karp_phase", "koenig_independent"]
__all__ += ["push_relabel"]

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
def global_relabel(nb, degree, left, right, match, label, queue, limit):  # pragma: no cover - compiled
    """Exact distance labels of the right squares to a free right square in the residual graph.

    Breadth-first search backwards from the free right squares (label 0): a
    left square reaches right square ``v`` along an unmatched move, a right
    square reaches its matched left square. ``label[v]`` is the length of the
    shortest alternating path from ``v`` to a free right square; ``limit``
    where there is none (no augmenting path can use ``v``). O(E).
    """
    tail = 0
    for v in right:
        if match[v] < 0:
            label[v] = 0
            queue[tail] = v
            tail += 1
        else:
            label[v] = limit
    head = 0
    while head < tail:
        v = queue[head]
        head += 1
        for k in range(degree[v]):
            u = nb[v, k]
            m = match[u]
            if m < 0 or m == v:
                continue  # a free left square needs no label; u's own edge is not residual
            if label[m] == limit:
                label[m] = label[v] + 2
                queue[tail] = m
                tail += 1
    return tail


@njit(cache=True, nogil=True)
def push_relabel(  # pragma: no cover - compiled
    nb, degree, left, right, match, label, active, queue, limit, budget
):
    """Push-relabel for bipartite matching: double pushes, FIFO order, global relabelling.

    Each unmatched left square (active) takes its neighbour ``v`` of lowest
    label: it is matched to ``v``, ``v``'s former partner becomes active,
    and ``v`` is relabelled to the second lowest label + 2 (Cherkassky,
    Goldberg, Martin, Setubal and Stolfi 1998; Kaya, Langguth, Manne and
    Uçar 2013). Every ``len(left)`` pushes the labels are recomputed exactly
    (:func:`global_relabel`). A left square whose neighbours all have
    ``limit`` cannot be matched and drops out. Each unit of excess travels
    the board by itself, so the long transports across a board with holes
    cost no phases; it keeps a matching at every step.

    Returns ``(finished, pushes)``: it stops after ``budget`` pushes, or when
    no active square is left (finished). Called again, it resumes from the
    matching (labels recomputed). A matching it leaves is finished by
    Hopcroft-Karp, which also proves it maximum.
    """
    global_relabel(nb, degree, left, right, match, label, queue, limit)
    tail = 0
    for u in left:
        if match[u] < 0:
            active[tail] = u
            tail += 1
    size = active.shape[0]
    head = 0
    count = tail  # active squares in the ring buffer active[head .. head + count)
    pushes = 0
    since = 0
    while count > 0:
        if pushes >= budget:
            return False, pushes
        if since >= left.shape[0]:
            global_relabel(nb, degree, left, right, match, label, queue, limit)
            since = 0
        u = active[head]
        head = (head + 1) % size
        count -= 1
        best, second = -1, limit
        low = limit
        for k in range(degree[u]):
            v = nb[u, k]
            if label[v] < low:
                if best >= 0:
                    second = low
                best, low = v, label[v]
            elif label[v] < second:
                second = label[v]
        if best < 0 or low >= limit:
            continue  # no augmenting path from u: it stays unmatched
        w = match[best]
        match[u] = best
        match[best] = u
        label[best] = min(second + 2, limit) if second < limit else limit
        pushes += 1
        since += 1
        if w >= 0:
            match[w] = -1
            active[(head + count) % size] = w
            count += 1
    return True, pushes


@njit(cache=True, nogil=True)
def koenig_independent(nb, left, right, match, dist):  # pragma: no cover - compiled
    """Koenig's independent set of a maximum matching, as a 0/1 array over the squares.

    ``dist[u] < INF`` (the last Hopcroft-Karp phase's labels) marks the left squares reachable
    from unmatched left squares by alternating paths (Z). The set is Z's left squares plus the right
    squares with no neighbour in Z (the complement of the minimum vertex cover
    (left - Z) + N(Z)). Its size is usable squares - matching size.
    """
    n = nb.shape[0]
    chosen = np.zeros(n, dtype=np.uint8)
    covered = np.zeros(n, dtype=np.uint8)
    for u in left:
        if dist[u] < INF:
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
