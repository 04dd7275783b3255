"""Independent knights as a CP-SAT model (exact).

Data: the knight edges between usable squares.
Variables: one Boolean per usable square (a knight there?).
Constraints: at most one end of every edge.
Objective: maximise the number of knights (optionally from a hinted placement).
"""

from __future__ import annotations

import numpy as np
from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.deadline import Deadline
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_edges
from knightcert.problems.result import Result, Status
from ortools.sat.python import cp_model


@method("knights", "cpsat")
def cpsat(
    instance: KnightsInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    hint: list[list[int]] | None = None,
) -> Result:
    """Maximum independent knights by CP-SAT.

    Parameters
    ----------
    time_limit : float, optional
        Seconds for the whole call, building included; without a proof the
        result is ``FEASIBLE`` with ``bound`` = CP-SAT's ``best_objective_bound``,
        and ``UNKNOWN`` (reason in ``info["stopped"]``) when building used it all.
    workers : int, optional
        CP-SAT ``num_workers`` (default ``knightcert.models.cpsat_solve.default_workers()``).
    hint : list of [row, col], optional
        A placement to start the search from (``add_hint``); the registered
        ``cpsat`` method passes seed 002's greedy placement (``knightcert.combined``).

    Returns
    -------
    Result
        ``OPTIMAL`` with the solver's proof, or ``FEASIBLE`` / ``UNKNOWN``.

    Notes
    -----
    One Boolean per square and one at-most-one per attacking pair (at most 4 per
    square). On bipartite boards the LP bound meets the optimum, so proofs
    are quick; odd tori are hard (the LP bound n/2 is far off).
    """
    board = instance.board
    clock = Deadline(time_limit)
    # data
    tails, heads = knight_edges(board)
    usable = np.flatnonzero(board.free.reshape(-1))
    # variables
    model = cp_model.CpModel()
    knight = {i: model.new_bool_var(f"k{i}") for i in usable.tolist()}
    # constraints, in chunks so that building stops when the time limit is spent
    pairs = list(zip(tails.tolist(), heads.tolist(), strict=True))
    for start in range(0, len(pairs), BUILD_CHUNK):
        if _no_time_to_build(clock):
            return _unknown(clock, "model building")
        for u, v in pairs[start : start + BUILD_CHUNK]:
            model.add_at_most_one(knight[u], knight[v])
    # objective
    if _no_time_to_build(clock):
        return _unknown(clock, "model building")
    model.maximize(cp_model.LinearExpr.sum(list(knight.values())))
    if hint is not None and not clock.expired():
        placed = {board.index(int(r), int(c)) for r, c in hint}
        for i, var in knight.items():
            model.add_hint(var, i in placed)
    # solve
    run = solve_cpsat(model, began=clock.began, time_limit=time_limit, seed=seed, workers=workers)
    # extract
    info = run.info()
    info_status = run.status.value
    placed, bound = None, None
    if run.has_solution:
        placed = [list(board.square(i)) for i, var in knight.items() if run.solver.boolean_value(var)]
        bound = max(int(np.floor(run.solver.best_objective_bound + 1e-9)), len(placed))
    del model, knight, pairs, run  # freeing a large model takes a while: Result.time counts it
    if placed is None:
        return Result("knights", "cpsat", Status(info_status), None, None, None, clock.elapsed(), info=info)
    proven = info_status == Status.OPTIMAL.value or bound == len(placed)
    status = Status.OPTIMAL if proven else Status.FEASIBLE
    return Result("knights", "cpsat", status, len(placed), bound, placed, clock.elapsed(), info=info)


#: Constraints added between two looks at the clock while building (about 0.1 s here).
BUILD_CHUNK = 10_000
#: Share of the build time that freeing a model takes (0.5 s after a 3 s build, measured).
FREE_SHARE = 0.2


def _no_time_to_build(clock: Deadline) -> bool:
    """Whether building must stop: the budget is spent, or what is left would not even pay for
    freeing the model built so far (which the call's time counts)."""
    left = clock.remaining()
    return left is not None and left <= FREE_SHARE * clock.elapsed()


def _unknown(clock: Deadline, step: str) -> Result:
    info = {**clock.stopped(step), "build_time_s": round(clock.elapsed(), 6)}
    return Result("knights", "cpsat", Status.UNKNOWN, None, None, None, clock.elapsed(), info=info)
