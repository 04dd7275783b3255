"""Independent knights by greedy placement and swap local search (heuristics).

``greedy`` is seed 002's rule; ``greedy+`` improves it with (1,2)-swaps and
random perturbations. Neither proves anything, except that a placement filling
every usable square is optimal.
"""

from __future__ import annotations

import time

import numpy as np

from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.result import Result, Status

__all__ = ["greedy", "greedy_plus"]


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
    began = time.perf_counter()  # the combined methods read this time to share out their limit
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
    return Result.answer(
        "knights",
        name,
        status=status,
        objective=count,
        solution=_squares(board, chosen.astype(bool)),
        time=elapsed,
        bound=bound,
    )
