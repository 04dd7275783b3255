"""Compiled maximum matching on a knight graph (push-relabel, then Hopcroft-Karp), and its
Koenig independent set.

Used by the ``matching`` method (``knightcert.algorithms.knights_matching``) and by the
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
A bug in :func:`push_relabel` cannot make the result wrong either: it only
moves a valid matching along edges, and Hopcroft-Karp finishes whatever it
leaves and proves the matching maximum.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = [
    "INF",
    "MatchingRun",
    "block_matching",
    "global_relabel",
    "greedy_matching",
    "hopcroft_karp_phase",
    "koenig_independent",
    "push_relabel",
]

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
    Call :meth:`phase` until it returns 0. From the 2 x 4-block and greedy
    start, push-relabel (:func:`push_relabel`) moves the remaining excess
    across the board in chunks of ``len(left)`` pushes, at most
    ``8 L (sqrt(L) + 1)`` pushes in all (L left squares); Hopcroft-Karp phases
    then finish the matching and, with a phase that finds no augmenting path,
    prove it maximum (whatever push-relabel left). Each push is O(1) (at most 8
    neighbours), each global relabelling and each Hopcroft-Karp phase O(E)
    (dead ends marked), and Hopcroft-Karp from any matching needs O(sqrt(V))
    phases: O(E sqrt(V)) in all. On boards with holes push-relabel does
    nearly all the work: Hopcroft-Karp alone spent hundreds of phases there
    that augmented one or two long paths each (docs/benchmarks.md).
    ``match``, ``left``, ``right`` and ``dist`` are then the matching and the
    last layered search, from which :func:`koenig_independent` reads a
    maximum independent set.
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
        self.phases = 0  # Hopcroft-Karp phases
        self.size = int(np.count_nonzero(self.match[self.left] >= 0))
        self.pushes = 0
        # push-relabel first, within O(E sqrt(V)) pushes in all, a chunk per step
        self._push_budget = 8 * self.left.size * (math.isqrt(self.left.size) + 1)
        self._degree = (nb >= 0).sum(axis=1).astype(np.int64)
        self._label = np.empty(n, dtype=np.int64)
        self._active = np.empty(self.left.size + 1, dtype=np.int64)
        self._relabel_queue = np.empty(max(n, 1), dtype=np.int64)

    def phase(self) -> int:
        """One step: a chunk of push-relabel while it lasts, then one Hopcroft-Karp phase.

        Returns the number of augmentations the step made, at least 1 while
        push-relabel goes on; 0 only from a Hopcroft-Karp phase that found no
        augmenting path: the matching is maximum, and ``dist`` holds that
        phase's layered search.
        """
        if self._push_budget > 0:
            before = self.size
            self._push_step()
            return max(1, self.size - before)
        gained = hopcroft_karp_phase(
            self.nb, self.left, self.match, self.dist, self._queue, self._stack, self._cursor
        )
        self.phases += 1
        self.size += gained
        return gained

    def _push_step(self) -> None:
        """A chunk of push-relabel: at most ``len(left)`` pushes (one global relabelling's worth)."""
        chunk = min(max(self.left.size, 1), self._push_budget - self.pushes)
        finished, pushes = push_relabel(
            self.nb,
            self._degree,
            self.left,
            self.right,
            self.match,
            self._label,
            self._active,
            self._relabel_queue,
            np.int64(2 * self.nb.shape[0] + 2),
            np.int64(chunk),
        )
        self.pushes += int(pushes)
        self.size = int(np.count_nonzero(self.match[self.left] >= 0))
        if finished or self.pushes >= self._push_budget:
            self._push_budget = 0  # over: Hopcroft-Karp finishes and proves the matching

    def pairs(self) -> np.ndarray:
        """The matched moves as flat indices, shape (k, 2), left square first."""
        matched = self.left[self.match[self.left] >= 0]
        return np.stack([matched, self.match[matched]], axis=1)
