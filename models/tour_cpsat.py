"""Knight's tours as a CP-SAT circuit (exact).

Data: the knight arcs between usable squares.
Variables: one Boolean per arc (is it a step of the tour?).
Constraints: ``AddCircuit`` over the squares, written straight into the model proto as
three arrays; an open tour adds one extra node joined to every square (or only to the
fixed start and end), so that the circuit enters the board at the start and leaves it
at the end; a closed tour with a fixed start and end has the closing arc end -> start
fixed. Two formulations (``formulation=``):

``"circuit"`` (default: ``bench/bench_cpsat.py``)
    the circuit alone (a square without any move gets an empty, unsatisfiable
    degree constraint, since CP-SAT's circuit leaves out nodes without arcs);
``"circuit+degree"``
    plus the redundant one-in/one-out constraint of every square and, on a closed
    tour, the direction fixed at the first corner (a reversed tour is a tour).

No objective: any circuit is a tour. Parameters: ``TOUR_PARAMETERS`` (no LP relaxation of
the circuit: measured 10-50x faster to the first tour on n x n boards).
A hint (e.g. Warnsdorff's partial tour) is recorded as ``info["hint"]``; the tour returned
is always the solver's. A hint that is a complete tour of the instance is given to CP-SAT
as a complete assignment (every arc variable hinted) and solved with
``HINTED_TOUR_PARAMETERS``: CP-SAT checks it against the model and returns it as its
solution in a fraction of a second (the checker then certifies the tour as any other).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
from ortools.sat.python import cp_model, cp_model_helper

from knightcert.algorithms.tour_separator import with_separator
from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.models.side_constraints import rotated_to_visits, tour_sides_in_proto
from knightcert.problems.method import method
from knightcert.problems.moves import knight_arcs
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance

__all__ = ["FORMULATIONS", "HINTED_TOUR_PARAMETERS", "TOUR_PARAMETERS", "cpsat"]

#: The formulations, the default first (chosen by ``bench/bench_cpsat.py``).
FORMULATIONS = ("circuit", "circuit+degree")
#: Solver parameters of the tour models (see ``bench/bench_cpsat.py``).
TOUR_PARAMETERS: dict[str, object] = {"linearization_level": 0}
#: Parameters when the hint is a complete tour (every arc variable hinted, 1 on the tour's
#: moves and 0 elsewhere): CP-SAT checks a complete hint against the model itself and takes
#: it as its first solution, so presolve and probing (3 s of a 3.1 s solve on a closed 60 x 60
#: board, docs/benchmarks.md) only delay the answer. Should the hint not be a tour of the
#: model after all, the search runs on without them.
HINTED_TOUR_PARAMETERS: dict[str, object] = {
    **TOUR_PARAMETERS,
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
}


@method("tour", "cpsat")
def cpsat(
    instance: TourInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    hint: list[list[int]] | None = None,
    hint_source: str = "given",
    formulation: str = "circuit",
    separator: bool = True,
) -> Result:
    """Find a tour, or prove that none exists, with CP-SAT's circuit constraint.

    ``hint`` is a partial tour ([row, col] squares in order, e.g. where
    Warnsdorff's rule dead-ended): its moves are given to CP-SAT as a hint,
    recorded as ``info["hint"] = hint_source``. ``formulation`` is "circuit"
    or "circuit+degree" (module docstring). With ``separator`` (the default) an
    ``INFEASIBLE`` answer carries a separator when one is found
    (:func:`knightcert.algorithms.tour_separator.with_separator`), so that the
    checker certifies it on any board; a caller that has searched for one already
    passes False.

    Returns
    -------
    Result
        ``FEASIBLE`` with a tour, ``INFEASIBLE`` with the solver's proof that
        none exists (and ``certificate["separator"]`` where one shows it),
        ``UNKNOWN`` when ``time_limit`` runs out first.

    Notes
    -----
    About 8 Booleans per square. The solver proves non-existence on small
    boards in milliseconds; closed 100 x 100 tours in about 40 s on one worker
    (docs/benchmarks.md).
    """
    if formulation not in FORMULATIONS:
        raise ValueError(f"unknown formulation {formulation!r}; valid: {', '.join(FORMULATIONS)}")
    result = _circuit(instance, time_limit, seed, workers, hint, hint_source, formulation)
    return with_separator(instance, result) if separator else result


def _circuit(
    instance: TourInstance,
    time_limit: float | None,
    seed: int | None,
    workers: int | None,
    hint: list[list[int]] | None,
    hint_source: str,
    formulation: str,
) -> Result:
    """The model of :func:`cpsat`, solved."""
    board = instance.board
    began = time.perf_counter()
    # data
    usable = np.flatnonzero(board.free.reshape(-1)).tolist()
    node = {square: k for k, square in enumerate(usable)}
    n = len(usable)
    if n == 1 or (instance.closed and n < 3):
        status = Status.INFEASIBLE if instance.closed else Status.FEASIBLE
        single = None if instance.closed else [list(board.square(usable[0]))]
        objective = None if single is None else 1
        elapsed = time.perf_counter() - began
        return Result.answer(
            "tour", "cpsat", status=status, objective=objective, solution=single, time=elapsed
        )
    tails, heads = knight_arcs(board)
    if len(tails) == 0:  # two or more squares and not a single move between them
        return Result.empty("tour", "cpsat", time.perf_counter() - began, status=Status.INFEASIBLE)
    node_of = np.full(board.size, -1, dtype=np.int64)
    node_of[usable] = np.arange(n)
    arc_tail, arc_head = node_of[tails], node_of[heads]
    # variables: one Boolean per arc (variable k is arc k), then the open tour's entry/exit arcs
    model = cp_model.CpModel()
    proto = model.proto
    for _ in range(len(tails)):
        proto.variables.add().domain.extend((0, 1))
    circuit_tails, circuit_heads = arc_tail.tolist(), arc_head.tolist()
    circuit_literals = list(range(len(tails)))
    enter: dict[int, int] = {}
    leave: dict[int, int] = {}
    if instance.closed and instance.end is not None and instance.start is not None:
        # the tour start ... end closes with the move end -> start: that arc is in the circuit
        closing = np.flatnonzero(
            (arc_tail == node[board.index(*instance.end)]) & (arc_head == node[board.index(*instance.start)])
        )
        if closing.size == 0:  # the end is not a knight move from the start
            return Result.empty("tour", "cpsat", time.perf_counter() - began, status=Status.INFEASIBLE)
        proto.constraints.add().bool_and.literals.append(int(closing[0]))
    if not instance.closed:
        outside = n
        firsts = [node[board.index(*instance.start)]] if instance.start is not None else range(n)
        lasts = [node[board.index(*instance.end)]] if instance.end is not None else range(n)
        for k in firsts:
            enter[k] = len(proto.variables)
            proto.variables.add().domain.extend((0, 1))
        for k in lasts:
            leave[k] = len(proto.variables)
            proto.variables.add().domain.extend((0, 1))
        circuit_tails += [outside] * len(enter) + list(leave)
        circuit_heads += list(enter) + [outside] * len(leave)
        circuit_literals += list(enter.values()) + list(leave.values())
        proto.constraints.add().exactly_one.literals.extend(enter.values())
        proto.constraints.add().exactly_one.literals.extend(leave.values())
    complete = False
    if hint is not None:
        complete = _add_hint(proto, instance, tails, heads, node, enter, leave, hint)
    # constraints: one circuit through every square (and the outside node of an open tour)
    circuit = proto.constraints.add().circuit
    circuit.tails.extend(circuit_tails)
    circuit.heads.extend(circuit_heads)
    circuit.literals.extend(circuit_literals)
    tour_sides_in_proto(model, instance, tails, heads, usable, enter)  # models/side_constraints.py
    # CP-SAT's circuit leaves out a node without arcs: a square without a move empties a
    # degree constraint, which the solver answers INFEASIBLE
    isolated = np.setdiff1d(np.arange(n), arc_tail)
    for _ in isolated.tolist():
        proto.constraints.add().exactly_one.literals.extend([])
    if formulation == "circuit+degree":
        _add_degree_constraints(
            proto,
            np.asarray(circuit_tails),
            np.asarray(circuit_heads),
            np.asarray(circuit_literals),
            n,
            symmetric=instance.closed and instance.end is None,  # a fixed end orients the tour
        )
    # solve
    run = solve_cpsat(
        model,
        began=began,
        time_limit=time_limit,
        seed=seed,
        workers=workers,
        parameters=HINTED_TOUR_PARAMETERS if complete else TOUR_PARAMETERS,
    )
    info = {
        **run.info(),
        "formulation": formulation,
        "hint": None if hint is None else hint_source + (" (a complete tour)" if complete else ""),
    }
    # extract
    if not run.has_solution:
        return Result.empty("tour", "cpsat", time.perf_counter() - began, status=run.status, info=info)
    values = np.fromiter(run.solver.response_proto.solution, dtype=np.int64, count=len(proto.variables))
    chosen = values[: len(tails)] > 0
    successor = dict(zip(tails[chosen].tolist(), heads[chosen].tolist(), strict=True))
    if instance.closed:
        if instance.start is not None:
            first = board.index(*instance.start)
        elif instance.end is not None:  # the cycle turned to finish at the end
            first = successor[board.index(*instance.end)]
        else:
            first = usable[0]
    else:
        first = usable[next(k for k, var in enter.items() if values[var])]
    tour = [first]
    while len(tour) < n:
        tour.append(successor[tour[-1]])
    squares = rotated_to_visits([list(board.square(i)) for i in tour], instance)
    elapsed = time.perf_counter() - began
    return Result.answer(
        "tour", "cpsat", status=Status.FEASIBLE, objective=n, solution=squares, time=elapsed, info=info
    )


def _add_degree_constraints(
    proto: cp_model_helper.CpModelProto,
    tails: np.ndarray,
    heads: np.ndarray,
    literals: np.ndarray,
    n: int,
    *,
    symmetric: bool,
) -> None:
    """Redundant constraints: one arc of the circuit into and one out of every square (the
    circuit implies them), and on a closed tour a direction: of the two arcs used at the first
    square of degree 2 (a corner) the one to its smaller neighbour leaves it (a tour reversed
    is a tour)."""
    order_out = np.argsort(tails, kind="stable")
    order_in = np.argsort(heads, kind="stable")
    out_start = np.searchsorted(tails[order_out], np.arange(n + 1))
    in_start = np.searchsorted(heads[order_in], np.arange(n + 1))
    for k in range(n):
        leaving = literals[order_out[out_start[k] : out_start[k + 1]]].tolist()
        entering = literals[order_in[in_start[k] : in_start[k + 1]]].tolist()
        proto.constraints.add().exactly_one.literals.extend(leaving)
        proto.constraints.add().exactly_one.literals.extend(entering)
    if not symmetric:
        return
    degree = out_start[1:] - out_start[:-1]
    corners = np.flatnonzero(degree == 2)
    if len(corners):
        k = int(corners[0])
        arcs: Sequence[int] = order_out[out_start[k] : out_start[k + 1]].tolist()
        smaller = min(arcs, key=lambda a: int(heads[a]))
        proto.constraints.add().bool_or.literals.append(int(literals[smaller]))


def _add_hint(
    proto: cp_model_helper.CpModelProto,
    instance: TourInstance,
    tails: np.ndarray,
    heads: np.ndarray,
    node: dict[int, int],
    enter: dict[int, int],
    leave: dict[int, int],
    hint: Sequence[Sequence[int]] | np.ndarray,
) -> bool:
    """Write ``hint`` (squares in order) into ``proto.solution_hint``; True when it is a
    complete tour of the instance.

    A partial hint sets its moves that are arcs to 1 (nothing else is hinted). A hint that
    visits every usable square once, a knight move apart (and, on a closed tour, with the
    closing move last -> first) sets every arc variable: 1 on its moves, 0 elsewhere (and
    the entry and exit arcs of an open tour), a complete assignment that CP-SAT checks
    itself. Nothing here is trusted: the solver's tour is returned and checked as any other.
    """
    board = instance.board
    squares = np.asarray(hint, dtype=np.int64).reshape(-1, 2)
    rows, cols = squares[:, 0], squares[:, 1]
    inside = (rows >= 0) & (rows < board.rows) & (cols >= 0) & (cols < board.cols)
    index = squares[inside, 0] * board.cols + squares[inside, 1]
    keys = tails.astype(np.int64) * board.size + heads  # arcs are sorted by neither: sort the keys once
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    steps = index[:-1] * board.size + index[1:]
    n = len(node)
    closing = bool(instance.closed) and len(index) == n
    if closing:
        steps = np.append(steps, index[-1] * board.size + index[0])
    where = np.minimum(np.searchsorted(sorted_keys, steps), len(sorted_keys) - 1)
    found = sorted_keys[where] == steps
    arcs = np.unique(order[where[found]])
    complete = (
        bool(inside.all())
        and len(index) == n
        and bool(found.all())
        and bool(board.free.reshape(-1)[index].all())
        and len(np.unique(index)) == n
    )
    if not complete:
        proto.solution_hint.vars.extend(arcs.tolist())
        proto.solution_hint.values.extend([1] * len(arcs))
        return False
    values = np.zeros(len(proto.variables), dtype=np.int64)
    values[arcs] = 1
    first, last = node[int(index[0])], node[int(index[-1])]
    if instance.closed and instance.start is not None and instance.end is not None:
        # the closing move end -> start is fixed: the hint must start and end there
        complete = (board.square(int(index[0])), board.square(int(index[-1]))) == (
            tuple(instance.start),
            tuple(instance.end),
        )
    if not instance.closed:
        if first not in enter or last not in leave:  # a fixed start or end the hint misses
            complete = False
        else:
            values[enter[first]] = 1
            values[leave[last]] = 1
    proto.solution_hint.vars.extend(range(len(values)))
    proto.solution_hint.values.extend(values.tolist())
    return complete
