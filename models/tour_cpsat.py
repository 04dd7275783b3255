"""Knight's tours as a CP-SAT circuit (exact).

Data: the knight arcs between usable squares.
Variables: one Boolean per arc (is it a step of the tour?).
Constraints: ``AddCircuit`` over the squares; an open tour adds one extra
node joined to every square (or only to the fixed start and end), so that
the circuit enters the board at the start and leaves it at the end.
No objective: any circuit is a tour.
"""

from __future__ import annotations

import itertools
import time

import numpy as np
from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.method import method
from knightcert.problems.moves import knight_arcs
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance
from ortools.sat.python import cp_model


@method("tour", "cpsat")
def cpsat(
    instance: TourInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    hint: list[list[int]] | None = None,
) -> Result:
    """Find a tour, or prove that none exists, with CP-SAT's circuit constraint.

    ``hint`` is a partial tour ([row, col] squares in order, e.g. where
    Warnsdorff's rule dead-ended): its moves are given to CP-SAT as a hint.

    Returns
    -------
    Result
        ``FEASIBLE`` with a tour, ``INFEASIBLE`` with the solver's proof that
        none exists, ``UNKNOWN`` when ``time_limit`` runs out first.

    Notes
    -----
    About 8 Booleans per square. The solver proves non-existence on small
    boards in milliseconds; see docs/benchmarks.md for the largest closed
    tour found in 60 s.
    """
    board = instance.board
    began = time.perf_counter()
    # data
    usable = np.flatnonzero(board.free.reshape(-1)).tolist()
    node = {square: k for k, square in enumerate(usable)}
    n = len(usable)
    if n == 1 or (instance.closed and n < 3):
        status = Status.INFEASIBLE if instance.closed else Status.FEASIBLE
        tour = None if instance.closed else [list(board.square(usable[0]))]
        return Result(
            "tour", "cpsat", status, None if tour is None else 1, None, tour, time.perf_counter() - began
        )
    tails, heads = knight_arcs(board)
    if len(tails) == 0:  # two or more squares and not a single move between them
        return Result("tour", "cpsat", Status.INFEASIBLE, None, None, None, time.perf_counter() - began)
    # variables
    model = cp_model.CpModel()
    arcs = []
    step = {}
    for u, v in zip(tails.tolist(), heads.tolist(), strict=True):
        if len(arcs) % 50_000 == 0 and time_limit is not None and time.perf_counter() - began > time_limit:
            info = {"stopped": f"time limit of {time_limit:g} s reached during model building"}
            return Result(
                "tour", "cpsat", Status.UNKNOWN, None, None, None, time.perf_counter() - began, info=info
            )
        var = model.new_bool_var(f"step{u}_{v}")
        step[u, v] = var
        arcs.append((node[u], node[v], var))
    if hint is not None:
        for (ar, ac), (br, bc) in itertools.pairwise(hint):
            var = step.get((board.index(ar, ac), board.index(br, bc)))
            if var is not None:
                model.add_hint(var, 1)
    # constraints
    if not instance.closed:
        outside = n
        firsts = [node[board.index(*instance.start)]] if instance.start is not None else range(n)
        lasts = [node[board.index(*instance.end)]] if instance.end is not None else range(n)
        enter = {k: model.new_bool_var(f"enter{k}") for k in firsts}
        leave = {k: model.new_bool_var(f"leave{k}") for k in lasts}
        arcs += [(outside, k, var) for k, var in enter.items()]
        arcs += [(k, outside, var) for k, var in leave.items()]
        model.add_exactly_one(enter.values())
        model.add_exactly_one(leave.values())
    outgoing: list[list[cp_model.IntVar]] = [[] for _ in range(n + 1)]
    incoming: list[list[cp_model.IntVar]] = [[] for _ in range(n + 1)]
    for u, v, var in arcs:
        outgoing[u].append(var)
        incoming[v].append(var)
    for k in range(n):  # one step into and one out of every square, so that none is left out
        model.add_exactly_one(outgoing[k])
        model.add_exactly_one(incoming[k])
    model.add_circuit(arcs)  # a closed tour passes every square, so it is read from the start
    # solve
    run = solve_cpsat(model, began=began, time_limit=time_limit, seed=seed, workers=workers)
    # extract
    if not run.has_solution:
        return Result(
            "tour", "cpsat", run.status, None, None, None, time.perf_counter() - began, info=run.info()
        )
    successor = {u: v for (u, v), var in step.items() if run.solver.boolean_value(var)}
    if instance.closed:
        first = board.index(*instance.start) if instance.start is not None else usable[0]
    else:
        first = usable[next(k for k, var in enter.items() if run.solver.boolean_value(var))]
    tour = [first]
    while len(tour) < n:
        tour.append(successor[tour[-1]])
    squares = [list(board.square(i)) for i in tour]
    elapsed = time.perf_counter() - began
    return Result("tour", "cpsat", Status.FEASIBLE, n, None, squares, elapsed, info=run.info())
