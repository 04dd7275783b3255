"""Independent knights as a CP-SAT model (exact).

Data: the knight edges between usable squares.
Variables: one Boolean per usable square (a knight there?).
Constraints: at most one end of every edge.
Objective: maximise the number of knights (optionally from a hinted placement).
"""

from __future__ import annotations

import time

import numpy as np
from knightcert.models.cpsat_solve import solve_cpsat
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
        Seconds for the search; without a proof the result is ``FEASIBLE``
        with ``bound`` = CP-SAT's ``best_objective_bound``.
    workers : int, optional
        CP-SAT ``num_workers`` (default ``knightcert.models.cpsat_solve.DEFAULT_WORKERS``).
    hint : list of [row, col], optional
        A placement to start the search from (``add_hint``); the registered
        ``cpsat`` method passes seed 002's greedy placement (``knightcert.compare.wiring``).

    Returns
    -------
    Result
        ``OPTIMAL`` with the solver's proof, or ``FEASIBLE`` / ``UNKNOWN``.

    Notes
    -----
    One Boolean per square and one clause per attacking pair (at most 4 per
    square). On bipartite boards the LP bound meets the optimum, so proofs
    are quick; odd tori are hard (the LP bound n/2 is far off).
    """
    board = instance.board
    began = time.perf_counter()
    # data
    tails, heads = knight_edges(board)
    usable = np.flatnonzero(board.free.reshape(-1))
    # variables
    model = cp_model.CpModel()
    knight = {int(i): model.new_bool_var(f"k{i}") for i in usable}
    # constraints
    for u, v in zip(tails.tolist(), heads.tolist(), strict=True):
        model.add_bool_or([knight[u].Not(), knight[v].Not()])
    # objective
    model.maximize(sum(knight.values()))
    if hint is not None:
        placed = {board.index(int(r), int(c)) for r, c in hint}
        for i, var in knight.items():
            model.add_hint(var, i in placed)
    # solve
    run = solve_cpsat(model, began=began, time_limit=time_limit, seed=seed, workers=workers)
    # extract
    if not run.has_solution:
        return Result("knights", "cpsat", run.status, None, None, None, run.time, info=run.info())
    placed = [list(board.square(i)) for i, var in knight.items() if run.solver.boolean_value(var)]
    bound = int(np.floor(run.solver.best_objective_bound + 1e-9))
    status = Status.OPTIMAL if run.status is Status.OPTIMAL or bound == len(placed) else Status.FEASIBLE
    return Result(
        "knights", "cpsat", status, len(placed), max(bound, len(placed)), placed, run.time, info=run.info()
    )
