"""Lost knight as a CP-SAT model (exact), in two formulations (``formulation=``).

``"distance"`` (default: ``bench/bench_cpsat.py``), the dual of the shortest path problem
    Data: the distinct knight arcs between free squares of the torus.
    Variables: one integer ``d[v]`` in [0, F] per free square (F = free squares).
    Constraints: ``d[C] = 0`` and ``d[v] <= d[u] + 1`` for every arc ``u -> v``.
    Objective: maximise ``d[S]`` (it was the sum of every label, a linear constraint over
    all of them propagated at every decision). Every label is at most its distance
    (induction along a shortest path) and the distances satisfy every constraint, so the
    maximum of ``d[S]`` is the fewest moves, or F when S cannot be reached; in any
    labelling that reaches it the labels along a shortest path are tight, and the path
    follows tight arcs (``d[v] = d[u] + 1``) back from S. CP-SAT's bound propagation of
    ``d[v] <= d[u] + 1`` from ``d[C] = 0`` is a Bellman-Ford pass, so the bound is found
    at the root; a decision strategy that sets each label to its largest value then
    finds the optimum without a backtrack.
``"flow"``, a unit flow
    Variables: one Boolean per arc (is the arc used?).
    Constraints: flow conservation: one unit leaves C, one unit enters S,
    every other square passes on what it receives.
    Objective: minimise the number of arcs used (a minimum-cost unit flow decomposes
    into one C-S path plus cycles, and cycles only cost).

Neither model knows anything of breadth-first search; but by default (``bound="bfs"``) the
``distance`` model is handed breadth-first search's distances as a complete hint and stops at
the first labelling whose ``d[S]`` reaches the distance found: no labelling goes past it, so
that labelling is optimal, and the distances go with the answer as its certificate (the
checker validates them). Proving the same bound by propagation alone took CP-SAT 7-50 s on
caso550 (docs/benchmarks.md); ``bound="none"`` still does that.
"""

from __future__ import annotations

import time

import numpy as np
from ortools.sat.python import cp_model

from knightcert.models.cpsat_labels import LABEL_PARAMETERS, maximise_label
from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_arcs
from knightcert.problems.result import Result, Status

__all__ = ["FORMULATIONS", "MAX_CPSAT_SQUARES", "cpsat"]

#: The formulations, the default first (chosen by ``bench/bench_cpsat.py``).
FORMULATIONS = ("distance", "flow")
#: Free squares above which the model is refused (about 8 Booleans per square).
MAX_CPSAT_SQUARES = 250_000


@method("path", "cpsat")
def cpsat(
    instance: LostKnightInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    formulation: str = "distance",
    bound: str = "bfs",
) -> Result:
    """Shortest knight path by a CP-SAT model: distance labels (default) or a unit flow.

    Parameters
    ----------
    instance : LostKnightInstance
    time_limit : float, optional
        Seconds for the CP-SAT search.
    seed : int, optional
        CP-SAT ``random_seed``.
    workers : int, optional
        CP-SAT ``num_workers`` (default ``knightcert.models.cpsat_solve.default_workers()``).
    formulation : {"distance", "flow"}
        The model (module docstring); recorded as ``info["formulation"]``.
    bound : {"bfs", "none"}
        ``"bfs"`` (default, ``distance`` model only): breadth-first search's distances from C
        (capped at the length found) are the hint, a complete labelling that is optimal, and
        the search stops at the first labelling whose ``d[S]`` reaches the distance found
        (no labelling goes past it: every label is at most its distance). Optimality then
        rests on that search, recorded as ``info["bound_source"]``, with the labelling as
        the certificate (the checker validates it, or a closed set for an unreachable S).
        ``"none"``: the model alone proves the optimum by its own propagation.

    Returns
    -------
    Result
        ``OPTIMAL`` or ``INFEASIBLE`` with the solver's proof; under a time
        limit ``FEASIBLE`` (a path, ``bound`` = best proven bound) or ``UNKNOWN``.

    Raises
    ------
    SizeLimitExceeded
        More than ``MAX_CPSAT_SQUARES`` free squares.
    ValueError
        An unknown ``formulation``.

    Notes
    -----
    ``distance``: one integer per free square, one two-variable inequality per arc.
    ``flow``: about 8 Boolean variables and one linear equation per free square; the LP
    relaxation of a unit flow is integral, so CP-SAT usually proves the optimum at the root.
    """
    if formulation not in FORMULATIONS:
        raise ValueError(f"unknown formulation {formulation!r}; valid: {', '.join(FORMULATIONS)}")
    board = instance.board
    if board.n_free > MAX_CPSAT_SQUARES:
        raise SizeLimitExceeded(
            f"cpsat handles up to {MAX_CPSAT_SQUARES} free squares; this board has {board.n_free}"
        )
    if bound not in ("bfs", "none"):
        raise ValueError(f"unknown bound {bound!r}; valid: bfs, none")
    if formulation == "distance":
        return _distance_model(
            instance, time_limit=time_limit, seed=seed, workers=workers, use_bfs=bound == "bfs"
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
    for count, square in enumerate(np.flatnonzero(board.free.reshape(-1))):
        if not count & CLOCK_EVERY and _spent(began, time_limit):  # building looks at the clock too
            return _building_stopped(began, time_limit)
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
        return Result.empty("path", "cpsat", time.perf_counter() - began, status=run.status, info=run.info())
    active = [k for k in range(len(used)) if run.solver.boolean_value(used[k])]
    path = _path_from_flow(board.cols, tails[active], heads[active], start, goal)
    length = len(path) - 1
    lower = int(np.ceil(run.solver.best_objective_bound - 1e-9))
    status = run.status if length > lower else Status.OPTIMAL
    return Result.answer(
        "path",
        "cpsat",
        status=status,
        objective=length,
        bound=min(lower, length),
        solution=path,
        time=time.perf_counter() - began,
        info={**run.info(), "formulation": "flow"},
    )


#: Model building looks at the clock once every ``CLOCK_EVERY + 1`` constraints.
CLOCK_EVERY = 4095


def _spent(began: float, time_limit: float | None) -> bool:
    return time_limit is not None and time.perf_counter() - began >= time_limit


def _building_stopped(began: float, time_limit: float | None) -> Result:
    """``UNKNOWN``: the time limit was spent building the model (nothing was solved)."""
    info = {"stopped": f"time limit of {time_limit:g} s reached while building the model"}
    return Result.empty("path", "cpsat", time.perf_counter() - began, info=info)


def _distance_model(
    instance: LostKnightInstance,
    *,
    time_limit: float | None,
    seed: int | None,
    workers: int | None,
    use_bfs: bool = False,
) -> Result:
    """The ``distance`` formulation (module docstring), built straight into the model proto."""
    board = instance.board
    began = time.perf_counter()
    searched = None
    if use_bfs:
        from knightcert.algorithms.path_search import bfs

        searched = bfs(instance, check=False)
    # data
    tails, heads = knight_arcs(board)
    if _spent(began, time_limit):
        return _building_stopped(began, time_limit)
    usable = np.flatnonzero(board.free.reshape(-1))
    label_of = np.full(board.size, -1, dtype=np.int64)
    label_of[usable] = np.arange(len(usable))
    n = len(usable)
    start, goal = int(label_of[instance.start_index]), int(label_of[instance.exit_index])
    heads_var, tails_var = label_of[heads], label_of[tails]
    # variables: d[v] in [0, n] (n = unreachable); d[C] = 0
    model = cp_model.CpModel()
    proto = model.proto
    # constraints: d[head] - d[tail] <= 1 on every arc into a square other than C
    keep = heads_var != start
    # both written as protobuf text and parsed in one call: 1.2 s of CPU for caso550's 218 000
    # constraints, against 2.2 s for a Python call per field (measured in one process)
    variable = f"variables{{domain:0 domain:{n}}}"
    text = [variable] * n
    text[start] = "variables{domain:0 domain:0}"
    text += [
        f"constraints{{linear{{vars:{v} vars:{u} coeffs:1 coeffs:-1 domain:{-n} domain:1}}}}"
        for v, u in zip(heads_var[keep].tolist(), tails_var[keep].tolist(), strict=True)
    ]
    if _spent(began, time_limit):  # building looks at the clock between its steps
        return _building_stopped(began, time_limit)
    proto.merge_text_format("".join(text))
    constraints = proto.constraints
    if _spent(began, time_limit):
        return _building_stopped(began, time_limit)
    # objective: maximise the label of S (the other labels are decided at their largest values)
    maximise_label(proto, n, goal)
    stop_at = None
    if searched is not None:  # BFS's labels, capped at the length (n when S is unreachable)
        if searched.status is Status.OPTIMAL and searched.objective is not None:
            stop_at = int(searched.objective)
            hinted = np.asarray(searched.certificate["labels"]).reshape(-1)[usable]
        else:
            stop_at = n
            # 0 on the squares C reaches, n elsewhere: feasible, as no move leaves the closed set
            hinted = np.where(np.asarray(searched.certificate["closed"]).reshape(-1)[usable], 0, n)
        proto.solution_hint.vars.extend(range(n))
        proto.solution_hint.values.extend(hinted.tolist())
    # solve
    run = solve_cpsat(
        model,
        began=began,
        time_limit=time_limit,
        seed=seed,
        workers=workers,
        parameters=LABEL_PARAMETERS,
        stop_at=stop_at,
    )
    # extract
    info = {**run.info(), "formulation": "distance", "constraints": len(constraints)}
    if searched is not None:
        info.update(hint="breadth-first distances", bound_source="breadth-first search", bfs_s=searched.time)
    if not run.has_solution:
        return Result.empty("path", "cpsat", time.perf_counter() - began, status=run.status, info=info)
    label = np.fromiter(run.solver.response_proto.solution, dtype=np.int64, count=n)
    optimal = run.status is Status.OPTIMAL or (stop_at is not None and label[goal] == stop_at)
    if label[goal] >= n:  # S is unreachable (proven when the labelling is optimal)
        status = Status.INFEASIBLE if optimal else Status.UNKNOWN
        certificate = None if searched is None or status is Status.UNKNOWN else searched.certificate
        elapsed = time.perf_counter() - began
        return Result.empty("path", "cpsat", elapsed, status=status, certificate=certificate, info=info)
    path = _path_from_labels(board.cols, usable, tails_var, heads_var, label, goal)
    length = len(path) - 1
    status = Status.OPTIMAL if optimal and length == label[goal] else Status.FEASIBLE
    bound = length if status is Status.OPTIMAL else None
    certificate = searched.certificate if searched is not None and status is Status.OPTIMAL else None
    elapsed = time.perf_counter() - began
    return Result.answer(
        "path",
        "cpsat",
        status=status,
        objective=length,
        bound=bound,
        solution=path,
        time=elapsed,
        certificate=certificate,
        info=info,
    )


def _path_from_labels(
    cols: int,
    usable: np.ndarray,
    tails: np.ndarray,
    heads: np.ndarray,
    label: np.ndarray,
    goal: int,
) -> list[list[int]]:
    """From S back to C along tight arcs (``label[head] = label[tail] + 1``)."""
    tight = label[heads] == label[tails] + 1
    into: dict[int, int] = dict(zip(heads[tight].tolist(), tails[tight].tolist(), strict=True))
    walk = [goal]
    while label[walk[-1]] > 0:
        walk.append(into[walk[-1]])
    return [list(divmod(int(usable[v]), cols)) for v in reversed(walk)]


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
