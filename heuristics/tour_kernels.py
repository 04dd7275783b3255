"""The compiled Warnsdorff engine (numba) for knight's tours.

``warnsdorff`` runs Warnsdorff's rule (with backtracking) from the board itself: one
pass builds the neighbour table in the jumps' priority order, the degrees and the
tie keys (or takes those an earlier run built, and leaves them as built), then the walk
updates the degrees in place. A closed walk without backtracking
(which mostly stops within a few rows of its start, when the last of the start's neighbours
is taken) builds them by tiles of 8 x 8 squares, those round the tile of each square it
steps on (2000 x 2000: 15 ms against 180-210 ms for the whole board), and marks them built, so a
later run builds only those still missing. The walks read a tour from a neighbour table.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["EXHAUSTED", "FOUND", "STOPPED", "order_squares", "tie_key", "walk_order", "warnsdorff"]

FOUND = 1  # a tour is in ``path``
EXHAUSTED = 0  # every continuation was tried: no tour from this start (a proof when budget > 0)
STOPPED = -1  # gave up: node budget spent, or a dead end without backtracking


@njit(cache=True, nogil=True)
def tie_key(r, c, rows, cols, tie, seed):  # pragma: no cover - compiled
    """The tie key of square ``(r, c)`` (smaller wins) for the tie-break ``tie`` (the place in
    ``tour_warnsdorff.TIE_BREAKS``: first, marginality, roth, centre, random): 0; minus the
    doubled Manhattan distance to the centre; minus the squared doubled Euclidean distance; plus
    it; a splitmix64 hash of (seed, square), 31 bits."""
    if tie == 4:
        z = (np.uint64(seed) << np.uint64(32)) + np.uint64(r * cols + c) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return np.int64((z ^ (z >> np.uint64(31))) >> np.uint64(33))
    y = abs(2 * np.int64(r) - (rows - 1))
    x = abs(2 * np.int64(c) - (cols - 1))
    if tie == 1:
        return -(y + x)
    if tie == 2:
        return -(y * y + x * x)
    return y * y + x * x if tie == 3 else np.int64(0)


@njit(cache=True, nogil=True)
def warnsdorff(  # pragma: no cover - compiled
    rows, cols, torus, free, drs, dcs, tie, seed, start, end, closed, budget, path, tables, keep
):
    """Warnsdorff's rule with optional backtracking, from the board itself.

    Parameters
    ----------
    rows, cols : int
    torus : bool
    free : uint8 (rows * cols,)
    drs, dcs : int64 (8,)  the jumps in priority order
    tie, seed : int  the tie-break (:func:`tie_key`) and its seed (``random``)
    start, end : int  (end = -1: any)
    closed : bool
    budget : int  nodes allowed for backtracking; 0 = pure greedy (no backtracking)
    path : int32 (n,)  output
    tables : (moves, degree, key, built) int32 (n, 8), int32 (n,), int64 (n,) (:func:`_build`)
        and uint8 (tiles of 8 x 8 squares, row-major): 0 a tile not built yet (all 0: new
        tables), 1 built, 2 and the tiles round it; the missing ones are built here
    keep : bool  with ``keep`` the degrees are as built again on return, for another run

    Candidates are ranked by (onward moves, tie key, jump priority), smallest first
    (:func:`_greedy` without backtracking, else :func:`_search`).

    Returns
    -------
    (status, length, nodes, backtracks, covered)
        status FOUND, EXHAUSTED or STOPPED (see the module constants); ``covered`` is the
        most squares any partial tour reached (= length without backtracking).
    """
    total = np.count_nonzero(free)
    moves, degree, key, built = tables
    board = (rows, cols, torus, free, drs, dcs, tie, seed, moves, degree, key)
    # a closed walk without backtracking mostly stops within a few rows (when the last of the
    # start's neighbours is taken): its tiles are built as it nears them, not the whole board first
    lazy = closed and budget == 0 and not torus
    if not (lazy or built.all()):  # the whole board (a tile built before is as built: same values)
        _build(0, rows, 0, cols, *board)
        built[:] = 2
    visited = np.zeros(rows * cols, dtype=np.uint8)
    path[0] = start
    if budget == 0:
        status, depth = _greedy(board, built, lazy, visited, start, end, closed, total, path)
        nodes, backtracks, deepest = depth + 1, 0, depth
    else:
        status, depth, nodes, backtracks, deepest = _search(
            moves, degree, key, visited, start, end, closed, total, budget, path
        )
    if keep:  # the degrees as built again: each square of the path back on its neighbours'
        for i in range(depth + 1):
            _shift(moves, degree, path[i], 1)
    return status, depth + 1, nodes, backtracks, deepest + 1


@njit(cache=True, nogil=True)
def _shift(moves, degree, u, step):  # pragma: no cover - compiled
    """Add ``step`` to the degrees of the neighbours of ``u`` (-1: ``u`` taken, 1: given back)."""
    for k in range(8):
        if moves[u, k] >= 0:
            degree[moves[u, k]] += step


@njit(cache=True, nogil=True)
def _greedy(board, built, lazy, visited, start, end, closed, total, path):  # pragma: no cover - compiled
    """Warnsdorff's rule without backtracking from ``path[0]``: to the unvisited neighbour of
    fewest onward moves, then smallest key, then first jump; ``(FOUND or STOPPED, depth)`` with
    the walk in ``path[:depth + 1]``. ``lazy``: the tiles round each square built first."""
    moves, degree, key = board[8], board[9], board[10]
    u, depth = start, 0
    while True:
        if lazy:
            _near(u // board[1], u % board[1], board, built)
            if depth >= total >> 3:  # a long walk: the tiles not built yet (none near a visited square)
                for t in np.flatnonzero(built == 0):  # built at once, then no more checks
                    r, c = divmod(t, (board[1] + 7) >> 3)  # the tile's row and column of tiles
                    _build(r * 8, r * 8 + 8, c * 8, c * 8 + 8, *board)
                built[:] = 2
                lazy = False
        visited[u] = 1
        _shift(moves, degree, u, -1)
        if depth == total - 1:
            ok = (total > 2 and (moves[u] == start).any()) if closed else (end < 0 or u == end)
            return (FOUND if ok else STOPPED), depth
        best, fewest, smallest = -1, 9, np.int64(0)
        for k in range(0 if closed and degree[start] == 0 else 8):  # none: the tour cannot close
            v = moves[u, k]
            if v < 0 or visited[v] or (v == end and depth + 2 < total):
                continue  # off the board, visited, or the fixed end square before the last
            if degree[v] < fewest or (degree[v] == fewest and key[v] < smallest):
                best, fewest, smallest = v, degree[v], key[v]
        if best < 0:
            return STOPPED, depth
        depth += 1
        path[depth] = u = best


@njit(cache=True, nogil=True)
def _near(r, c, board, built):  # pragma: no cover - compiled
    """Build the tiles of 8 x 8 squares round the tile of ``(r, c)`` that are not built yet (no
    square near them visited: their degrees as built); ``built`` 2 marks a tile done."""
    tiles = (board[1] + 7) >> 3
    if built[(r >> 3) * tiles + (c >> 3)] < 2:
        for tr in range(max((r >> 3) - 1, 0), min((r >> 3) + 2, len(built) // tiles)):
            for tc in range(max((c >> 3) - 1, 0), min((c >> 3) + 2, tiles)):
                if not built[tr * tiles + tc]:
                    built[tr * tiles + tc] = 1
                    _build(tr * 8, tr * 8 + 8, tc * 8, tc * 8 + 8, *board)
        built[(r >> 3) * tiles + (c >> 3)] = 2


@njit(cache=True, nogil=True)
def _search(moves, degree, key, visited, start, end, closed, total, budget, path):  # pragma: no cover
    """Warnsdorff's rule with backtracking within ``budget`` nodes from ``path[0]``, on built
    tables: the ranked candidates of every depth kept; ``(status, depth, nodes, backtracks,
    deepest)`` with the last walk in ``path[:depth + 1]``."""
    candidates = np.empty((total, 8), dtype=np.int32)
    count = np.empty(total, dtype=np.int32)
    pointer = np.empty(total, dtype=np.int32)
    nodes, backtracks, depth, deepest = 1, 0, 0, 0
    fresh = True
    while True:
        u = path[depth]
        if fresh:  # a step to u: u off its neighbours' degrees
            visited[u] = 1
            _shift(moves, degree, u, -1)
        if depth == total - 1:
            if (total > 2 and (moves[u] == start).any()) if closed else (end < 0 or u == end):
                return FOUND, depth, nodes, backtracks, deepest
            fresh = False
        elif fresh:
            # rank the unvisited neighbours: insertion sort on (degree, key, priority)
            m = 0  # none when every neighbour of the start is used: the tour cannot close
            for k in range(0 if closed and degree[start] == 0 else 8):
                v = moves[u, k]
                if v < 0 or visited[v] or (v == end and depth + 2 < total):
                    continue  # off the board, visited, or the fixed end square before the last
                j = m
                while j > 0:
                    w = candidates[depth, j - 1]
                    if degree[w] > degree[v] or (degree[w] == degree[v] and key[w] > key[v]):
                        candidates[depth, j] = w
                        j -= 1
                    else:
                        break
                candidates[depth, j] = v
                m += 1
            count[depth] = m
            pointer[depth] = 0
        if depth < total - 1 and pointer[depth] < count[depth]:
            v = candidates[depth, pointer[depth]]
            pointer[depth] += 1
            nodes += 1
            if nodes > budget:
                return STOPPED, depth, nodes, backtracks, deepest
            depth += 1
            deepest = max(deepest, depth)
            path[depth] = v
            fresh = True
            continue
        if depth == 0:  # dead end: every continuation of the start tried
            return EXHAUSTED, depth, nodes, backtracks, deepest
        visited[u] = 0  # dead end: undo the last square
        _shift(moves, degree, u, 1)
        depth -= 1
        backtracks += 1
        fresh = False


@njit(cache=True, nogil=True)
def _build(  # pragma: no cover - compiled
    r0, r1, c0, c1, rows, cols, torus, free, drs, dcs, tie, seed, moves, degree, key
):
    """Work out the neighbours by jump (-1 for none), usable neighbours and tie keys of the squares
    in rows ``r0:r1`` and columns ``c0:c1``."""
    for r in range(r0, min(r1, rows)):
        for c in range(c0, min(c1, cols)):
            u = r * cols + c
            key[u] = tie_key(r, c, rows, cols, tie, seed)
            d = 0
            inside = not torus and 2 <= r < rows - 2 and 2 <= c < cols - 2  # every jump on the board
            for k in range(8):
                nr = r + drs[k]
                nc = c + dcs[k]
                if torus:
                    nr, nc = nr % rows, nc % cols
                v = nr * cols + nc
                ok = free[u] and (inside or (0 <= nr < rows and 0 <= nc < cols)) and free[v]
                moves[u, k] = v if ok else -1
                d += ok
            degree[u] = d


@njit(cache=True, nogil=True)
def walk_order(table, first):  # pragma: no cover - compiled
    """Read a tour (cycle or path) from its neighbour table as its int32 flat squares in order
    (4 bytes per square: the caller frees the table before it makes the (n, 2) squares).

    ``table[u]`` holds the two neighbours of ``u`` on the tour, -1 at the ends
    of a path; ``first`` is where to begin (a path end for a path).
    """
    n = table.shape[0]
    out = np.empty(n, dtype=np.int32)
    previous = -1
    current = first
    for i in range(n):
        out[i] = current
        following = table[current, 0]
        if following == previous:
            following = table[current, 1]
        previous = current
        current = following
    return out


@njit(cache=True, nogil=True)
def order_squares(order, cols, out):  # pragma: no cover - compiled
    """Fill the (n, 2) ``out`` with the [row, col] squares of the flat squares ``order`` (the
    caller allocates ``out`` with numpy: an array that owns its memory, which the checker
    can take without a copy; numba's own arrays hang on a ``MemInfo``)."""
    for i in range(order.shape[0]):
        out[i, 0] = order[i] // cols
        out[i, 1] = order[i] % cols
