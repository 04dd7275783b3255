"""Independent knights by greedy placement, swap local search, and bipartite matching.

``greedy`` is seed 002's rule; ``greedy+`` improves it with (1,2)-swaps and
random perturbations; ``matching`` is exact on bipartite boards (every plain
board, and tori with even sides) by Koenig's theorem.
"""

from __future__ import annotations

import time

import numpy as np
from knightcert.problems.deadline import Deadline
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.result import Result, Status


def _squares(board, mask: np.ndarray) -> list[list[int]]:
    return np.stack(np.divmod(np.flatnonzero(mask), board.cols), axis=1).tolist()


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
    began = time.perf_counter()  # the compiled code's loading counts: Result.time is the call's wall time
    from knightcert.heuristics.knights_kernels import greedy_fewest_removed

    board = instance.board
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
    began = time.perf_counter()
    from knightcert.heuristics.knights_kernels import greedy_fewest_removed, swap_local_search

    board = instance.board
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

    Parameters
    ----------
    time_limit : float, optional
        Seconds for the whole call, checked between steps of the matching (a chunk of
        push-relabel or a Hopcroft-Karp phase, each O(E)).

    Returns
    -------
    Result
        ``OPTIMAL`` with the placement and the matching as certificate;
        ``UNKNOWN`` (reason in ``info["stopped"]``) when ``time_limit`` runs out first.

    Raises
    ------
    InvalidInstance
        A torus with an odd side (its knight graph is not bipartite).

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> result = matching(knights_instance(8))
    >>> result.objective, result.bound, len(result.certificate["matching"])
    (32, 32, 32)

    Notes
    -----
    Push-relabel from a 2 x 4-block and greedy start, finished and proven
    maximum by Hopcroft-Karp with dead-end marking
    (``knightcert.problems.knight_matching``): O(E sqrt(V)) worst case, E <= 4V. It replaces
    ``scipy.sparse.csgraph.maximum_bipartite_matching``, exponential on
    layered graphs (scipy issue #26147; 946 s on a 200 x 200 board with holes).
    """
    board = instance.board
    if board.torus and (board.rows % 2 or board.cols % 2):
        raise InvalidInstance(
            f"matching needs a bipartite knight graph; a {board.rows} x {board.cols} torus with an odd "
            "side is not bipartite (use cpsat)"
        )
    clock = Deadline(time_limit)
    if board.size <= PLAIN_MATCHING_SQUARES:  # loading the compiled kernels costs more than the search
        pairs, independent = _plain_matching(board)
        info = {"matching_size": len(pairs), "plain": True}
        return _matching_result(board, independent, pairs, clock, info)
    from knightcert.problems.knight_matching import INF, MatchingRun, koenig_independent

    run = MatchingRun(board, knight_neighbours(board))
    while True:
        if clock.expired():
            info = {**clock.stopped("the matching"), "matching_size": run.size}
            return Result("knights", "matching", Status.UNKNOWN, None, None, None, clock.elapsed(), info=info)
        if run.phase() == 0:
            break
    independent = koenig_independent(run.nb, run.left, run.right, run.match, run.dist < INF).astype(bool)
    info = {"matching_size": run.size, "phases": run.phases, "pushes": run.pushes}
    return _matching_result(board, independent, run.pairs(), clock, info)


def _matching_result(
    board, independent: np.ndarray, pairs: np.ndarray, clock: Deadline, info: dict
) -> Result:
    """The ``matching`` method's answer: the Kőnig independent set, optimal, with its matching
    (pairs of flat square indices) as the certificate."""
    count = int(independent.sum())
    return Result(
        "knights",
        "matching",
        Status.OPTIMAL,
        count,
        count,
        _squares(board, independent),
        clock.elapsed(),
        certificate={"matching": _square_pairs(board, pairs)},
        info=info,
    )


#: Boards up to this many squares are matched in plain Python (no compiled kernel to load).
PLAIN_MATCHING_SQUARES = 1024


def _plain_matching(board) -> tuple[np.ndarray, np.ndarray]:
    """Hopcroft-Karp in plain Python for small boards: the (k, 2) pairs of flat indices (white
    square first) and Koenig's independent set as a boolean mask over the squares."""
    neighbours = knight_neighbours(board)
    free = board.free.reshape(-1)
    colour = (np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2).reshape(-1)
    left = [int(u) for u in np.flatnonzero(free & (colour == 0))]
    adjacent = {u: [int(v) for v in neighbours[u] if v >= 0] for u in left}
    mate: dict[int, int] = {}
    while True:
        # breadth-first layers from the unmatched left squares
        layer = {u: 0 for u in left if u not in mate}
        queue, found = list(layer), False
        for u in queue:
            for v in adjacent[u]:
                w = mate.get(v)
                if w is None:
                    found = True
                elif w not in layer:
                    layer[w] = layer[u] + 1
                    queue.append(w)
        if not found:
            break
        for root in [u for u in left if u not in mate]:
            stack = [(root, iter(adjacent[root]))]
            while stack:  # depth-first along the layers, iteratively
                u, choices = stack[-1]
                v = next(choices, None)
                if v is None:
                    layer.pop(u, None)  # a dead end in this phase
                    stack.pop()
                    continue
                w = mate.get(v)
                if w is None:
                    for x, _ in reversed(stack):  # augment along the stack
                        mate[v], mate[x], v = x, v, mate.get(x, -1)
                    break
                if layer.get(w) == layer.get(u, -2) + 1:
                    stack.append((w, iter(adjacent[w])))
    pairs = np.array([[u, mate[u]] for u in left if u in mate], dtype=np.int64).reshape(-1, 2)
    # Koenig: left squares reached by alternating paths from unmatched left squares, plus the
    # right squares none of them attacks
    reached = {u for u in left if u not in mate}
    queue = list(reached)
    for u in queue:
        for v in adjacent[u]:
            w = mate.get(v)
            if w is not None and w not in reached:
                reached.add(w)
                queue.append(w)
    independent = free & (colour == 1)
    for u in reached:
        independent[adjacent[u]] = False
    independent[list(reached)] = True
    return pairs, independent


def _square_pairs(board, pairs: np.ndarray) -> np.ndarray:
    """``[[[r, c], [r2, c2]], ...]`` of pairs of flat indices, as an (k, 2, 2) int64 array: the
    checker and answer files take it as it is (a list of half a million pairs costs 0.6 s)."""
    rows, cols = np.divmod(pairs, board.cols)
    return np.stack([rows, cols], axis=2).astype(np.int64)
