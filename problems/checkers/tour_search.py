"""The tour checker's own exhaustive search (numba), independent of every tour method.

A depth-first search over Hamiltonian paths (or cycles) of the usable
squares, with two pruning rules that only cut branches holding no tour:

* *links*: every square not yet visited needs two neighbours among the
  unvisited squares and the current one (one for the last square of an open
  tour; the start counts for the last square of a closed tour);
* *connectivity*: the unvisited squares and the current one form one
  connected piece.

Side constraints (:mod:`knightcert.problems.side_constraints`) are applied as the search
goes: ``at_depth[d]`` the only square allowed at depth ``d`` (-1: any), ``depth_of[v]`` the
only depth of square ``v`` (-1: any), ``req[v]`` the (at most two) squares the tour must
join to ``v`` (-1 padded); forbidden moves are left out of the neighbour table.

Moves are tried fewest-onward-moves first (Warnsdorff's order), which finds
tours fast where they exist. The search stops after a node budget; then it
has decided nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["FOUND", "NONE", "UNDECIDED", "find_tour", "search"]

FOUND = 1
NONE = 0
UNDECIDED = -1


@njit(cache=True, nogil=True)
def _feasible(nb, adjacent, visited, du, cur, start, end, closed, queue, seen):  # pragma: no cover - numba
    n = nb.shape[0]
    ones = 0
    remaining = 0
    for w in range(n):
        if visited[w]:
            continue
        remaining += 1
        links = du[w]
        if adjacent[w, cur]:
            links += 1
        if closed and adjacent[w, start]:
            links += 1
        if links == 0:
            return False
        if links == 1:
            if closed:
                return False
            if end >= 0 and w != end:
                return False
            ones += 1
            if ones > 1:
                return False
    # connectivity of the unvisited squares plus the current one
    for w in range(n):
        seen[w] = False
    head = 0
    tail = 1
    queue[0] = cur
    seen[cur] = True
    reached = 0
    while head < tail:
        u = queue[head]
        head += 1
        for k in range(nb.shape[1]):
            w = nb[u, k]
            if w < 0 or visited[w] or seen[w]:
                continue
            seen[w] = True
            reached += 1
            queue[tail] = w
            tail += 1
    return reached == remaining


@njit(cache=True, nogil=True)
def search(nb, starts, end, closed, budget, count, path, at_depth, depth_of, req, stop):  # pragma: no cover
    """Look for a tour; return (FOUND / NONE / UNDECIDED, nodes, tours). ``path`` receives a found
    tour; with ``count``, the search goes on past every tour and ``tours`` counts them (a tour
    from each start; a closed one from the first only, one way round per call). UNDECIDED past
    ``budget`` nodes, or once another thread sets ``stop[0]`` (read every 16,384 nodes).

    ``nb`` (n, 8): distinct neighbours of each square (compact indices, -1 padded);
    ``starts``: first squares to try; ``end``: the last square or -1.
    """
    n = nb.shape[0]
    adjacent = np.zeros((n, n), dtype=np.bool_)
    du = np.zeros(n, dtype=np.int64)
    for u in range(n):
        for k in range(nb.shape[1]):
            w = nb[u, k]
            if w >= 0:
                adjacent[u, w] = True
                du[u] += 1
    visited = np.zeros(n, dtype=np.bool_)
    cand = np.empty((n, 8), dtype=np.int64)
    ncand = np.zeros(n, dtype=np.int64)
    pos = np.zeros(n, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    nodes, sides = 0, (at_depth, depth_of, req)
    tours = 0
    for si in range(starts.shape[0]):
        s = starts[si]
        if n == 1:
            path[0] = s
            if closed or (end >= 0 and end != s):
                return NONE, nodes, 0
            return FOUND, nodes, 1
        _visit(nb, visited, du, s, True)
        path[0] = s
        depth = 0
        ok = _feasible(nb, adjacent, visited, du, s, s, end, closed, queue, seen)
        ncand[0] = 0
        pos[0] = 0
        if ok:
            _fill(nb, visited, du, s, end, 1, n, cand, ncand, 0, -1, s, closed, sides)
        while depth >= 0:
            if pos[depth] == ncand[depth]:
                _visit(nb, visited, du, path[depth], False)
                depth -= 1
                continue
            x = cand[depth, pos[depth]]
            pos[depth] += 1
            nodes += 1
            if nodes > budget or (nodes & 16383 == 0 and stop[0]):
                return UNDECIDED, nodes, tours
            _visit(nb, visited, du, x, True)
            depth += 1
            path[depth] = x
            if depth == n - 1:
                if (end < 0 or x == end) and (not closed or (adjacent[x, s] and _joins(req, s, path[1], x))):
                    tours += 1
                    if not count:
                        return FOUND, nodes, tours
                ok = False
            else:
                ok = _feasible(nb, adjacent, visited, du, x, s, end, closed, queue, seen)
            ncand[depth] = 0
            pos[depth] = 0
            if ok:
                prev = path[depth - 1]
                _fill(nb, visited, du, x, end, depth + 1, n, cand, ncand, depth, prev, s, closed, sides)
        if closed:
            break  # a closed tour passes through the first square
    return (FOUND if tours else NONE), nodes, tours


@njit(cache=True, nogil=True)
def _visit(nb, visited, du, x, entering):  # pragma: no cover - numba
    """Mark ``x`` visited (or not) and update its neighbours' unvisited-neighbour counts."""
    visited[x] = entering
    delta = -1 if entering else 1
    for k in range(nb.shape[1]):
        w = nb[x, k]
        if w >= 0:
            du[w] += delta


@njit(cache=True, nogil=True)
def _joins(req, v, a, b):  # pragma: no cover - numba
    """Every square the tour must join to ``v`` is ``a`` or ``b``."""
    for i in range(req.shape[1]):  # noqa: SIM110 - numba compiles no generator
        if req[v, i] >= 0 and req[v, i] != a and req[v, i] != b:
            return False
    return True


@njit(cache=True, nogil=True)
def _fill(
    nb, visited, du, cur, end, next_depth, n, cand, ncand, depth, prev, s, closed, sides
):  # pragma: no cover - numba
    at_depth, depth_of, req = sides
    count = 0
    # a closed tour's first square is joined to its last as well: checked when the tour is whole
    free_first = closed and depth == 0
    for k in range(nb.shape[1]):
        w = nb[cur, k]
        if w < 0 or visited[w]:
            continue
        if w == end and next_depth != n - 1:
            continue
        if (at_depth[next_depth] >= 0 and w != at_depth[next_depth]) or (
            depth_of[w] >= 0 and depth_of[w] != next_depth
        ):
            continue
        if not free_first and not _joins(req, cur, prev, w):
            continue
        late = False  # a required partner of ``w`` already left behind
        for i in range(req.shape[1]):
            p = req[w, i]
            if p >= 0 and visited[p] and p != cur and not (closed and p == s and next_depth == n - 1):
                late = True
        if late:
            continue
        # insertion by onward moves (Warnsdorff's order)
        i = count
        while i > 0 and du[cand[depth, i - 1]] > du[w]:
            cand[depth, i] = cand[depth, i - 1]
            i -= 1
        cand[depth, i] = w
        count += 1
    ncand[depth] = count


def find_tour(
    neighbours: np.ndarray,
    starts: np.ndarray,
    end: int,
    closed: bool,
    budget: int,
    sides: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    count: bool = False,
    stop: np.ndarray | None = None,
) -> tuple[int, int, np.ndarray, int]:
    """Run :func:`search`: (FOUND / NONE / UNDECIDED, nodes used, the tour found as compact
    indices, the tours counted: with ``count``, all of them).

    ``sides``: ``(at_depth, depth_of, req)`` (module docstring); None: no side constraint.
    ``stop``: an int64 array of one entry another thread sets to stop the search (UNDECIDED).
    """
    n = neighbours.shape[0]
    path = np.full(n, -1, dtype=np.int64)
    if sides is None:
        free = np.full(n, -1, dtype=np.int64)
        sides = (free, free, free.reshape(n, 1))
    at_depth, depth_of, req = (np.ascontiguousarray(a, dtype=np.int64) for a in sides)
    outcome, nodes, tours = search(
        neighbours.astype(np.int64),
        starts.astype(np.int64),
        int(end),
        bool(closed),
        int(budget),
        bool(count),
        path,
        at_depth,
        depth_of,
        req,
        np.zeros(1, dtype=np.int64) if stop is None else stop,
    )
    return int(outcome), int(nodes), path, int(tours)
