"""Lost knight as a unit-flow CP-SAT model (exact).

Data: the distinct knight arcs between free squares of the torus.
Variables: one Boolean per arc (is the arc used?).
Constraints: flow conservation: one unit leaves C, one unit enters S,
every other square passes on what it receives.
Objective: minimise the number of arcs used.

The model knows nothing of breadth-first search; its optimum is a shortest
path (a minimum-cost unit flow decomposes into one C-S path plus cycles, and
cycles only cost).
"""

from __future__ import annotations

import time

import numpy as np
from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_arcs
from knightcert.problems.result import Result, Status
from ortools.sat.python import cp_model

#: Free squares above which the model is refused (about 8 Booleans per square).
MAX_CPSAT_SQUARES = 250_000


@method("path", "cpsat")
def cpsat(
    instance: LostKnightInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
) -> Result:
    """Shortest knight path by a CP-SAT min-cost flow model.

    Parameters
    ----------
    instance : LostKnightInstance
    time_limit : float, optional
        Seconds for the CP-SAT search.
    seed : int, optional
        CP-SAT ``random_seed``.
    workers : int, optional
        CP-SAT ``num_workers`` (default ``knightcert.models.cpsat_solve.default_workers()``).

    Returns
    -------
    Result
        ``OPTIMAL`` or ``INFEASIBLE`` with the solver's proof; under a time
        limit ``FEASIBLE`` (a path, ``bound`` = best proven bound) or ``UNKNOWN``.

    Raises
    ------
    SizeLimitExceeded
        More than ``MAX_CPSAT_SQUARES`` free squares.

    Notes
    -----
    About 8 Boolean variables and one linear equation per free square; the LP
    relaxation of a unit flow is integral, so CP-SAT usually proves the
    optimum at the root.
    """
    board = instance.board
    if board.n_free > MAX_CPSAT_SQUARES:
        raise SizeLimitExceeded(
            f"cpsat handles up to {MAX_CPSAT_SQUARES} free squares; this board has {board.n_free}"
        )
    began = time.perf_counter()
    # data
    tails, heads = knight_arcs(board)
    start, goal = instance.start_index, instance.exit_index
    # variables
    model = cp_model.CpModel()
    used = [model.new_bool_var(f"arc{k}") for k in range(len(tails))]
    # constraints: flow conservation
    order_out = np.argsort(tails, kind="stable")
    order_in = np.argsort(heads, kind="stable")
    out_start = np.searchsorted(tails[order_out], np.arange(board.size + 1))
    in_start = np.searchsorted(heads[order_in], np.arange(board.size + 1))
    for square in np.flatnonzero(board.free.reshape(-1)):
        outgoing = [used[k] for k in order_out[out_start[square] : out_start[square + 1]]]
        incoming = [used[k] for k in order_in[in_start[square] : in_start[square + 1]]]
        supply = 1 if square == start else -1 if square == goal else 0
        model.add(sum(outgoing) - sum(incoming) == supply)
    # objective
    model.minimize(sum(used))
    # solve
    run = solve_cpsat(model, began=began, time_limit=time_limit, seed=seed, workers=workers)
    # extract
    if not run.has_solution:
        return Result(
            "path", "cpsat", run.status, None, None, None, time.perf_counter() - began, info=run.info()
        )
    active = [k for k in range(len(used)) if run.solver.boolean_value(used[k])]
    path = _path_from_flow(board.cols, tails[active], heads[active], start, goal)
    length = len(path) - 1
    bound = int(np.ceil(run.solver.best_objective_bound - 1e-9))
    status = run.status if length > bound else Status.OPTIMAL
    return Result(
        "path",
        "cpsat",
        status,
        length,
        min(bound, length),
        path,
        time.perf_counter() - began,
        info=run.info(),
    )


def _path_from_flow(
    cols: int, tails: np.ndarray, heads: np.ndarray, start: int, goal: int
) -> list[list[int]]:
    """Follow used arcs from ``start`` to ``goal`` and cut out any loop."""
    successors: dict[int, list[int]] = {}
    for u, v in zip(tails.tolist(), heads.tolist(), strict=False):
        successors.setdefault(u, []).append(v)
    walk = [start]
    position = {start: 0}
    while walk[-1] != goal:
        nxt = successors[walk[-1]].pop()
        if nxt in position:  # a loop back: drop it
            for square in walk[position[nxt] + 1 :]:
                del position[square]
            del walk[position[nxt] + 1 :]
        else:
            position[nxt] = len(walk)
            walk.append(nxt)
    return [list(divmod(square, cols)) for square in walk]
