"""Knight's tours by Warnsdorff's rule, with five tie-breaks and any jump order, on one compiled engine.

Warnsdorff (1823): go to the unvisited neighbour with the fewest onward
moves. The four methods are one rule with different settings, each an option
of every method (``order``: the jump priority, a permutation of the eight
knight moves, :func:`~knightcert.problems.moves.move_order`; ``tie_break``:
how ties in onward moves are broken, then by the jump priority):

``warnsdorff``
    ``tie_break="first"``: the first jump in ``order`` (``KNIGHT_OFFSETS``).
``marginality`` (seed 001)
    the square nearest the edges and corners first: largest
    ``|2r - (R-1)| + |2c - (C-1)|`` (Manhattan distance to the centre).
``roth``
    the square farthest from the centre first: largest
    ``(2r - (R-1))^2 + (2c - (C-1))^2`` (Euclidean).
``cenpl`` (seed 003, CeNPL'02 ``wm(N)``)
    ``tie_break="centre"``: the square *closest* to the centre first, jump
    priority (-1,2), (-2,1), (-2,-1), (-1,-2), (1,-2), (2,-1), (2,1), (1,2)
    read as (column, row) increments (``order="75312468"``), start at the
    top-left corner and then every square in row-major order, full backtracking.

``tie_break="random"`` gives ties to the smallest of a hash of (``seed``, square): a random
order of the squares drawn once per run. All but ``cenpl`` start at the given start, else at
the first usable square in row-major order. Backtracking is on by default with a node budget.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from knightcert.algorithms.tour_separator import with_separator
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.method import method
from knightcert.problems.moves import KNIGHT_OFFSETS, TIE_BREAKS, move_order
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance

__all__ = [
    "CENPL_OFFSETS",
    "CENPL_PAIRS",
    "DEFAULT_BUDGET",
    "TIE_BREAKS",
    "cenpl",
    "greedy_path",
    "marginality",
    "roth",
    "run_warnsdorff",
    "warnsdorff",
]

#: Default node budget of the backtracking search.
DEFAULT_BUDGET = 2_000_000
#: Boards of at most this many squares keep their tables (11 MB at 500 x 500) for the next run
#: with the same order and tie-break: a repeated run skips building them.
WARM_SQUARES = 250_000
_WARM: list[tuple[tuple[Any, ...], tuple[np.ndarray, ...]]] = []  # (settings, tables): one at most
#: Seed 003's jump priority, as printed: pairs read as (column, row) increments.
CENPL_PAIRS = ((-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1), (2, 1), (1, 2))
CENPL_OFFSETS = tuple((row, col) for col, row in CENPL_PAIRS)


def run_warnsdorff(
    instance: TourInstance,
    name: str,
    *,
    order: Any = KNIGHT_OFFSETS,
    tie_break: str = "first",
    seed: int | None = None,
    all_starts: bool = False,
    backtracking: bool = True,
    budget: int = DEFAULT_BUDGET,
) -> Result:
    """Run the engine from each start in turn until a tour is found.

    ``order`` is the jump priority (any form :func:`~knightcert.problems.moves.move_order`
    takes), ``tie_break`` one of :data:`TIE_BREAKS` (``random`` draws from ``seed``, 0 when None).
    ``all_starts``: without a given start, try every usable square in row-major order (``cenpl``),
    all of them within the one ``budget`` of nodes.
    ``INFEASIBLE`` is reported only when backtracking exhausted every start
    the instance allows (any one square for a closed tour, the given start,
    else every usable square): a complete search. With only the end fixed, the
    walk starts there and the tour found is turned round to finish there.
    Fewer starts exhausted, a spent budget or a dead end without backtracking
    is ``UNKNOWN`` with the reason in ``record.stopped``. ``info["covered"]`` is the most squares a
    partial tour reached (the gap of a dead end in comparisons is
    ``1 - covered / usable squares``). A tour is an ``(n, 2)`` int32 array of ``[row, col]``.
    """
    from knightcert.heuristics.tour_kernels import EXHAUSTED, FOUND, warnsdorff

    if budget < 1:
        raise InvalidArgument(f"budget must be at least 1 node, got {budget}")
    if tie_break not in TIE_BREAKS:
        raise InvalidArgument(f"tie_break: expected one of {', '.join(TIE_BREAKS)}, got {tie_break!r}")
    drs, dcs, digits = _jumps(order if isinstance(order, (str, int)) else move_order(order))
    board, n = instance.board, instance.board.size
    free = board.free.reshape(-1).view(np.uint8)
    starts, end, backwards = _starts(instance, free, all_starts)
    path = np.empty(n, dtype=np.int32)
    nodes = backtracks = covered = 0
    rule = (TIE_BREAKS.index(tie_break), (seed or 0) if tie_break == "random" else 0)
    warm = (board.rows, board.cols, board.torus, digits, *rule)
    kept = _WARM.pop()[1] if _WARM and _WARM[-1][0] == warm else None  # the last small board's, taken out
    if kept is None or not np.array_equal(kept[0], free):  # new ones, built as the walks need them
        tiles = np.zeros(((board.rows + 7) >> 3) * ((board.cols + 7) >> 3), np.uint8)  # none built yet
        kept = (free.copy(), np.empty((n, 8), np.int32), np.empty(n, np.int32), np.empty(n, np.int64), tiles)
    keep = n <= WARM_SQUARES or (len(starts) > 1 and backtracking)  # the tables kept for the next start
    settings = (board.rows, board.cols, board.torus, free, drs, dcs, *rule)
    info: dict[str, Any] = {"order": digits, "tie_break": tie_break}
    for tried, start in enumerate(starts, 1):  # the node budget shared by the starts
        walk = (end, instance.closed, budget - nodes if backtracking else 0, path, kept[1:], keep)
        status, length, used, back, deepest = warnsdorff(*settings, board.index(*start), *walk)
        nodes, backtracks, covered = nodes + int(used), backtracks + int(back), max(covered, int(deepest))
        info.update(backtracks=backtracks, starts_tried=tried, covered=covered)
        if status != EXHAUSTED or not backtracking or nodes >= budget:
            break
    if n <= WARM_SQUARES:  # and for the next run
        _WARM[:] = [(warm, kept)]
    if status == FOUND:
        tour = _squares(path[:length], board.cols)
        if backwards:  # a walk from the end turned round to finish there
            tour = np.roll(tour, -1, axis=0) if instance.closed else tour[::-1].copy()
        return Result.answer(
            "tour", name, status=Status.FEASIBLE, objective=int(length), solution=tour, nodes=nodes, info=info
        )
    # none found: INFEASIBLE when the search was exhausted from every start the instance allows (a
    # closed tour passes through any start; an open one may begin anywhere allowed), else UNKNOWN
    proven = status == EXHAUSTED and backtracking
    every_start = instance.closed or instance.start is not None or backwards or len(starts) >= board.n_free
    incomplete = f"no tour from {len(starts)} of the {board.n_free} allowed starts (search incomplete)"
    stopped = ("node budget spent" if backtracking else "dead end") if not proven else None
    stopped = stopped or (None if every_start else incomplete)
    outcome = Status.INFEASIBLE if proven and every_start else Status.UNKNOWN
    partial = None
    if outcome is Status.UNKNOWN and 0 < int(length) == covered:  # the dead end is the deepest path
        squares = _squares(path[:length], board.cols)
        partial = {"partial": squares[::-1] if backwards else squares}  # a walk from the end, turned
    result = Result.empty(
        "tour", name, status=outcome, nodes=nodes, info=info, certificate=partial, stopped=stopped
    )
    return with_separator(instance, result)  # an exhausted search: a separator makes it certified


@lru_cache(maxsize=64)
def _jumps(order: Any) -> tuple[np.ndarray, np.ndarray, str]:
    """The row and column steps of the jumps of ``order`` (kept between runs) and their digits."""
    jumps = np.array(move_order(order), dtype=np.int64)
    digits = "".join(str(KNIGHT_OFFSETS.index((dr, dc)) + 1) for dr, dc in jumps.tolist())
    return jumps[:, 0].copy(), jumps[:, 1].copy(), digits


def _starts(instance: TourInstance, free: np.ndarray, all_starts: bool) -> tuple[list[Any], int, bool]:
    """``(starts, end index or -1, backwards)``: the squares to walk from, in turn. With only the
    end fixed, the walk starts there (``backwards``) and the tour is turned round afterwards."""
    board = instance.board
    if not all_starts and instance.start is None and instance.end is not None:
        return [instance.end], -1, True  # every tour ends there
    end = -1 if instance.end is None else board.index(*instance.end)
    if all_starts and instance.start is None:
        return [board.square(int(i)) for i in np.flatnonzero(free)], end, False
    return [instance.start if instance.start is not None else board.square(int(np.argmax(free)))], end, False


def _squares(flat: np.ndarray, cols: int) -> np.ndarray:
    """The flat squares ``flat`` as an ``(n, 2)`` int32 array of ``[row, col]``."""
    from knightcert.heuristics.tour_kernels import order_squares

    squares = np.empty((len(flat), 2), dtype=np.int32)
    order_squares(flat, cols, squares)
    return squares


@method("tour", "warnsdorff")
def warnsdorff(instance: TourInstance, *, time_limit: float | None = None, **options: Any) -> Result:
    """Warnsdorff's rule, ties to the first jump in ``order``, backtracking within ``budget`` nodes.

    Options (all four methods): ``backtracking`` (default True), ``budget`` (default
    :data:`DEFAULT_BUDGET`), ``order`` (default ``KNIGHT_OFFSETS``), ``tie_break`` (one of
    :data:`TIE_BREAKS`) and ``seed`` (for ``random``); see :func:`run_warnsdorff`.

    Returns
    -------
    Result
        ``FEASIBLE`` with the tour (objective = squares visited), ``INFEASIBLE``
        when backtracking exhausted every continuation from the start,
        ``UNKNOWN`` when the budget ran out (or at a dead end without
        backtracking). ``nodes`` and ``info["backtracks"]`` count the work.

    Examples
    --------
    >>> from knightcert.problems.tours import tour_instance
    >>> warnsdorff(tour_instance(5)).objective
    25
    >>> warnsdorff(tour_instance(6, start=(0, 0)), tie_break="random", seed=7).info["tie_break"]
    'random'

    Notes
    -----
    O(8 n) per square tried; without dead ends the whole tour is O(n).
    """
    return run_warnsdorff(instance, "warnsdorff", **options)


@method("tour", "marginality")
def marginality(instance: TourInstance, *, time_limit: float | None = None, **options: Any) -> Result:
    """Warnsdorff with ties to the square nearest the edges and corners (seed 001); options as
    :func:`warnsdorff`."""
    return run_warnsdorff(instance, "marginality", **{"tie_break": "marginality", **options})


@method("tour", "roth")
def roth(instance: TourInstance, *, time_limit: float | None = None, **options: Any) -> Result:
    """Warnsdorff with ties to the square farthest from the centre (Roth's rule); options as
    :func:`warnsdorff`."""
    return run_warnsdorff(instance, "roth", **{"tie_break": "roth", **options})


@method("tour", "cenpl")
def cenpl(instance: TourInstance, *, time_limit: float | None = None, **options: Any) -> Result:
    """Seed 003's ``wm(N)``: improved Warnsdorff, fixed priority, start fallback.

    Ties go to the square closest to the centre; starts are tried from the
    top-left corner in row-major order, each searched with full backtracking.
    Past ``budget`` nodes (over all starts) it stops with ``UNKNOWN``: it then
    claims neither a tour nor that none exists. ``INFEASIBLE`` (``No``) means
    every start was searched to the end. ``order`` and ``tie_break`` as :func:`warnsdorff`.

    Notes
    -----
    Reproduces the published 5 x 5 board exactly (see docs/tours.md for the
    reading of the rules this needs).
    """
    rule = {"order": CENPL_OFFSETS, "tie_break": "centre", **options}
    return run_warnsdorff(instance, "cenpl", all_starts=True, **rule)


def greedy_path(instance: TourInstance) -> list[list[int]]:
    """The squares Warnsdorff's rule with Roth's tie-break visits before its first dead end (or a tour).

    Used as a solution hint for CP-SAT. O(8 n).
    """
    walk = run_warnsdorff(instance, "roth", tie_break="roth", backtracking=False)
    return (walk.solution if walk.solution is not None else walk.certificate["partial"]).tolist()
