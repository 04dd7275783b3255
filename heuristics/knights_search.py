"""Independent knights by greedy placement, swap local search, and bipartite matching.

``greedy`` is seed 002's rule; ``greedy+`` improves it with (1,2)-swaps and
random perturbations; ``matching`` is exact on bipartite boards (every plain
board, and tori with even sides) by Koenig's theorem.
"""

from __future__ import annotations

import time

import numpy as np
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.result import Result, Status


def _squares(board, mask: np.ndarray) -> list[list[int]]:
    return [list(board.square(i)) for i in np.flatnonzero(mask)]


@method("knights", "greedy")
def greedy(instance: KnightsInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """Seed 002's greedy rule (heuristic).

    Repeatedly place a knight on the usable square that removes the fewest
    still-free squares (itself and the free squares it attacks); ties go to
    the first square in row-major order.

    Returns
    -------
    Result
        ``FEASIBLE``; ``OPTIMAL`` only when the placement fills every usable
        square (nothing can beat it).

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> greedy(knights_instance(3)).objective
    5

    Notes
    -----
    O(n log n) for n squares (a heap with lazy deletion; costs only drop).
    """
    from knightcert.heuristics.knights_kernels import greedy_fewest_removed

    board = instance.board
    began = time.perf_counter()
    chosen = greedy_fewest_removed(knight_neighbours(board), board.free.reshape(-1).view(np.uint8))
    return _placement("greedy", board, chosen, time.perf_counter() - began)


@method("knights", "greedy+")
def greedy_plus(
    instance: KnightsInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    iterations: int | None = None,
) -> Result:
    """Greedy followed by (1,2)-swap iterated local search (heuristic).

    Parameters
    ----------
    iterations : int, optional
        Random perturbations after the first local optimum (0: plain local
        search); default ``2 * usable squares + 1000``.
    time_limit : float, optional
        Stops the perturbations (checked every 50 000) when it runs out.
    seed : int, optional
        Seed of the perturbations (default 0: deterministic).

    Notes
    -----
    A (1,2)-swap removes one knight and adds two squares that only it
    attacked and that do not attack each other. Never worse than ``greedy``:
    the search starts from its placement and keeps the best one seen.
    """
    from knightcert.heuristics.knights_kernels import greedy_fewest_removed, swap_local_search

    board = instance.board
    began = time.perf_counter()
    nb = knight_neighbours(board)
    free = board.free.reshape(-1).view(np.uint8)
    start = greedy_fewest_removed(nb, free)
    remaining = 2 * board.n_free + 1000 if iterations is None else int(iterations)
    rng_seed = 0 if seed is None else int(seed)
    best = swap_local_search(nb, free, start, min(remaining, _CHUNK), rng_seed)
    remaining -= min(remaining, _CHUNK)
    while remaining > 0 and (time_limit is None or time.perf_counter() - began < time_limit):
        rng_seed += 1
        best = swap_local_search(nb, free, best, min(remaining, _CHUNK), rng_seed)
        remaining -= min(remaining, _CHUNK)
    result = _placement("greedy+", board, best, time.perf_counter() - began)
    return result.with_(info={"greedy": int(start.sum())})


_CHUNK = 50_000


def _placement(name: str, board, chosen: np.ndarray, elapsed: float) -> Result:
    count = int(chosen.sum())
    status = Status.OPTIMAL if count == board.n_free else Status.FEASIBLE
    bound = count if status is Status.OPTIMAL else None
    return Result("knights", name, status, count, bound, _squares(board, chosen.astype(bool)), elapsed)


@method("knights", "matching")
def matching(
    instance: KnightsInstance, *, time_limit: float | None = None, seed: int | None = None
) -> Result:
    """Maximum independent knights from a maximum matching (exact on bipartite boards).

    A knight move joins squares of opposite colours on a plain board (and on
    a torus with even sides), so the knight graph is bipartite and, by
    Koenig's theorem, its largest independent set has ``usable squares -
    maximum matching`` squares. The set is read off the matching with
    alternating paths (the complement of a minimum vertex cover).

    Returns
    -------
    Result
        ``OPTIMAL`` with the placement and the matching as certificate.

    Raises
    ------
    InvalidInstance
        A torus with an odd side (its knight graph is not bipartite).

    Notes
    -----
    Hopcroft-Karp (``scipy.sparse.csgraph.maximum_bipartite_matching``):
    O(E sqrt(V)) with E <= 4V.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import breadth_first_order, maximum_bipartite_matching

    board = instance.board
    if board.torus and (board.rows % 2 or board.cols % 2):
        raise InvalidInstance(
            f"matching needs a bipartite knight graph; a {board.rows} x {board.cols} torus with an odd "
            "side is not bipartite (use cpsat)"
        )
    began = time.perf_counter()
    n = board.size
    nb = knight_neighbours(board)
    colour = (np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2).reshape(-1)
    free = board.free.reshape(-1)
    left = np.flatnonzero(free & (colour == 0))
    right = np.flatnonzero(free & (colour == 1))
    left_pos = np.full(n, -1, dtype=np.int64)
    left_pos[left] = np.arange(left.size)
    right_pos = np.full(n, -1, dtype=np.int64)
    right_pos[right] = np.arange(right.size)
    tails = np.repeat(left, 8)
    heads = nb[left].reshape(-1).astype(np.int64)
    keep = heads >= 0
    tails, heads = tails[keep], heads[keep]
    graph = coo_matrix(
        (np.ones(tails.size, dtype=np.int8), (left_pos[tails], right_pos[heads])),
        shape=(left.size, right.size),
    ).tocsr()
    match_of_left = maximum_bipartite_matching(graph, perm_type="column")  # right index or -1
    matched_left = np.flatnonzero(match_of_left >= 0)
    pairs = np.stack([left[matched_left], right[match_of_left[matched_left]]], axis=1)
    # Koenig: Z = vertices reachable from unmatched left vertices by alternating paths
    # (left -> right by non-matching edges, right -> left by matching edges)
    source = left.size + right.size
    non_matching = match_of_left[left_pos[tails]] != right_pos[heads]
    a = np.concatenate(
        [
            left_pos[tails][non_matching],
            left.size + match_of_left[matched_left],
            np.full(np.count_nonzero(match_of_left < 0), source),
        ]
    )
    b = np.concatenate(
        [left.size + right_pos[heads][non_matching], matched_left, np.flatnonzero(match_of_left < 0)]
    )
    alternating = coo_matrix((np.ones(a.size, dtype=np.int8), (a, b)), shape=(source + 1, source + 1)).tocsr()
    reached = np.zeros(source + 1, dtype=bool)
    reached[breadth_first_order(alternating, source, directed=True, return_predecessors=False)] = True
    independent = np.zeros(n, dtype=bool)
    independent[left[reached[: left.size]]] = True  # left in Z
    independent[right[~reached[left.size : source]]] = True  # right not in Z
    count = int(independent.sum())
    elapsed = time.perf_counter() - began
    certificate = {"matching": [[list(board.square(u)), list(board.square(v))] for u, v in pairs.tolist()]}
    return Result(
        "knights",
        "matching",
        Status.OPTIMAL,
        count,
        count,
        _squares(board, independent),
        elapsed,
        certificate=certificate,
        info={"matching_size": len(pairs)},
    )
