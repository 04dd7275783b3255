"""Compiled Hopcroft-Karp maximum matching on a knight graph, and its Koenig independent set.

Used by the ``matching`` method (``knightcert.heuristics.knights_search``) and by the
independent-knights checker, which derives its own matching with it. Sharing the code
costs the checker no independence: any set of disjoint knight moves bounds the optimum
(Kőnig), and the checker validates every move of the matching it uses, so a fault here
can only make a claim go uncertified, never certify a wrong one.

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


#: A perfect knight matching of a 2 x 4 block: (row, col) pairs inside the block.
_BLOCK_PAIRS = (((0, 0), (1, 2)), ((0, 1), (1, 3)), ((0, 2), (1, 0)), ((0, 3), (1, 1)))


def block_matching(board, match: np.ndarray) -> None:
    """Start from the perfect matching of 2 x 4 blocks (pairs whose two squares are usable).

    A full board whose sides are multiples of 2 and 4 is then matched at once;
    elsewhere the greedy step and Hopcroft-Karp only repair the edges and holes.
    """
    free = board.free
    top = np.arange(0, board.rows - 1, 2)[:, None]
    first = np.arange(0, board.cols - 3, 4)[None, :]
    for (ra, ca), (rb, cb) in _BLOCK_PAIRS:
        a_r, a_c = np.broadcast_arrays(top + ra, first + ca)
        b_r, b_c = np.broadcast_arrays(top + rb, first + cb)
        usable = free[a_r, a_c] & free[b_r, b_c]
        a = (a_r * board.cols + a_c)[usable]
        b = (b_r * board.cols + b_c)[usable]
        match[a] = b
        match[b] = a


class MatchingRun:
    """A maximum matching of the knight graph of a bipartite board, phase by phase.

    Parameters
    ----------
    board : Board
        Plain board or torus with both sides even (bipartite by colour).
    nb : numpy.ndarray
        Its padded neighbour table (:func:`knightcert.problems.moves.knight_neighbours`).

    Notes
    -----
    Call :meth:`phase` until it returns 0: Hopcroft-Karp, O(E sqrt(V)) in all,
    each phase O(E) (dead ends are marked). ``match``, ``left``, ``right`` and
    ``dist`` are then the matching and the last layered search, from which
    :func:`koenig_independent` reads a maximum independent set.
    """

    def __init__(self, board, nb: np.ndarray) -> None:
        n = board.size
        self.nb = nb
        colour = (np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2).reshape(-1)
        free = board.free.reshape(-1)
        self.left = np.flatnonzero(free & (colour == 0))
        self.right = np.flatnonzero(free & (colour == 1))
        self.match = np.full(n, -1, dtype=np.int64)
        self.dist = np.empty(n, dtype=np.int64)
        self._queue = np.empty(max(self.left.size, 1), dtype=np.int64)
        self._stack = np.empty(max(self.left.size, 1), dtype=np.int64)
        self._cursor = np.zeros(n, dtype=np.int64)
        block_matching(board, self.match)
        greedy_matching(nb, self.left, self.match)
        self.size = int(np.count_nonzero(self.match[self.left] >= 0))
        self.phases = 0

    def phase(self) -> int:
        """One Hopcroft-Karp phase; how many augmenting paths it applied (0: maximum)."""
        gained = hopcroft_karp_phase(
            self.nb, self.left, self.match, self.dist, self._queue, self._stack, self._cursor
        )
        self.phases += 1
        self.size += gained
        return gained

    def pairs(self) -> np.ndarray:
        """The matched moves as flat indices, shape (k, 2), left square first."""
        matched = self.left[self.match[self.left] >= 0]
        return np.stack([matched, self.match[matched]], axis=1)
