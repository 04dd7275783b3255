"""The second counter: CP-SAT's enumeration of every solution (``enumerate_all_solutions``).

Each model is built from the definition of the problem alone, with no knowledge taken from
the exact counters of :mod:`knightcert.algorithms.counting`:

* tours: ``AddCircuit`` over the knight arcs (an open tour through an extra node joined to
  the allowed starts and ends); a solution is a directed tour;
* shortest paths: square ``v`` at step ``t`` for ``t = 0..L``, where a walk may also stay on S;
  a solution that stands on S before step ``L`` is a shorter path (the caller's ``L`` is then
  wrong), the others are the paths of ``L`` moves;
* independent knights: the maximum found by a first solve, then every placement of that many.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model

from knightcert.models.side_constraints import add_knight_sides, rotated_to_visits, tour_sides_in_proto
from knightcert.problems import stopping
from knightcert.problems.checkers.sides import via_passed
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.moves import knight_arcs, knight_edges
from knightcert.problems.tours import TourInstance

__all__ = ["Enumeration", "enumerate_knights", "enumerate_paths", "enumerate_tours"]


@dataclass
class Enumeration:
    """What an enumeration found: the solutions counted (complete when ``complete``), up to
    ``keep`` of them as ``[row, col]`` lists, the seconds it took, and anything to report."""

    count: int = 0
    complete: bool = False
    solutions: list = field(default_factory=list)
    seconds: float = 0.0
    optimum: int | None = None
    shorter: bool = False
    interrupted: bool = False


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, decode, keep: int, found: Enumeration, stop: bool) -> None:
        super().__init__()
        self.decode, self.keep, self.found, self.stop = decode, keep, found, stop

    def on_solution_callback(self) -> None:
        self.found.count += 1
        solution = self.decode(self)  # every one: a decoder may note what it sees
        if len(self.found.solutions) < self.keep:
            self.found.solutions.append(solution)
        if self.stop and len(self.found.solutions) >= self.keep:
            self.stop_search()


def _solver(time_limit: float | None, linearization: int) -> cp_model.CpSolver:
    """One worker (enumeration needs it) and a ``linearization_level``: 0 for tours and paths
    (5x5 open tours: 1.1 s against 6.4 at the default 1 and over 30 at 2), 2 for knights (the
    LP of the knight moves is integral on bipartite boards: 12x12 knights enumerated in 0.26 s,
    over 30 s at 0 and 1)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.linearization_level = linearization
    solver.parameters.catch_sigint_signal = False  # its handler would leave Ctrl-C killing the process
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(float(time_limit), 1e-3)
    return solver


def _enumerate(
    model, decode, keep, time_limit, found: Enumeration, stop: bool = False, linearization: int = 0
):
    began = time.perf_counter()
    solver = _solver(time_limit, linearization)
    solver.parameters.enumerate_all_solutions = True
    collector = _Collector(decode, keep, found, stop)
    status, found.interrupted = stopping.run_stoppable(
        lambda: solver.solve(model, collector), solver.stop_search
    )
    found.complete = not (stop or found.interrupted) and status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    found.seconds += time.perf_counter() - began
    return found


def enumerate_tours(
    instance: TourInstance, keep: int = 0, time_limit: float | None = None, stop: bool = False
) -> Enumeration:
    """Every directed tour (an open one from its start, a closed one in each direction); with
    ``stop``, only the first ``keep``."""
    board = instance.board
    tails, heads = knight_arcs(board)
    squares = np.flatnonzero(board.free.reshape(-1)).tolist()
    if (instance.closed and len(squares) < 3) or (
        len(squares) > 1 and not set(squares) <= set(tails.tolist()) & set(heads.tolist())
    ):
        return Enumeration(complete=True)
    model = cp_model.CpModel()
    arcs = [(int(t), int(h), model.new_bool_var(f"{t}>{h}")) for t, h in zip(tails, heads, strict=True)]
    circuit = list(arcs)
    if instance.closed and instance.start is not None and instance.end is not None:
        closing = [
            x for t, h, x in arcs if (t, h) == (board.index(*instance.end), board.index(*instance.start))
        ]
        model.add_bool_or(closing)  # empty: no closing move, no tour
    enter = {}
    if not instance.closed:
        extra = board.size
        for label, square in (("start", instance.start), ("end", instance.end)):
            allowed = squares if square is None else [board.index(*square)]
            for s in allowed:
                pair = (extra, s) if label == "start" else (s, extra)
                circuit.append((*pair, model.new_bool_var(f"{label}{s}")))
                enter.update({squares.index(s): circuit[-1][2].index} if label == "start" else {})
    model.add_circuit(circuit)
    tour_sides_in_proto(model, instance, tails, heads, squares, enter)

    def decode(solver: cp_model.CpSolverSolutionCallback) -> list[list[int]]:
        after = {t: h for t, h, x in circuit if solver.value(x)}
        fixed = instance.start or instance.end
        if not instance.closed:
            first = after[board.size]  # the square after the extra node
        else:
            first = squares[0] if fixed is None else board.index(*fixed)
            if instance.start is None and instance.end is not None:
                first = after[first]  # the square after the end, so that the tour ends on it
        tour = [first]
        while len(tour) < len(squares):
            tour.append(after[tour[-1]])
        return rotated_to_visits([list(board.square(s)) for s in tour], instance)

    return _enumerate(model, decode, keep, time_limit, Enumeration(), stop)


def enumerate_paths(
    instance: LostKnightInstance, length: int, keep: int = 0, time_limit: float | None = None
) -> Enumeration:
    """Every path of ``length`` moves from C to S; ``shorter`` when a walk reaches S sooner."""
    board = instance.board
    tails, heads = knight_arcs(board)
    free = np.flatnonzero(board.free.reshape(-1)).tolist()
    model = cp_model.CpModel()
    at = [{v: model.new_bool_var(f"{v}@{t}") for v in free} for t in range(length + 1)]
    for step in at:
        model.add_exactly_one(step.values())
    model.add(at[0][instance.start_index] == 1)
    model.add(at[length][instance.exit_index] == 1)
    into: dict[int, list[int]] = {v: [] for v in free}
    for t, h in zip(tails.tolist(), heads.tolist(), strict=True):
        into[h].append(t)
    into[instance.exit_index].append(instance.exit_index)  # a walk may wait on S
    for t in range(1, length + 1):
        for v in free:
            model.add_bool_or([at[t - 1][u] for u in into[v]]).only_enforce_if(at[t][v])
    if instance.via:  # passed[t][j]: j via squares passed (in order) by step t, as an automaton reads them
        via = [board.index(*square) for square in instance.via]
        passed = [[model.new_bool_var("") for _ in range(len(via) + 1)] for _ in at]
        for t, states in enumerate(passed):
            model.add_exactly_one(states)
            for j, v in itertools.product(range(len(via) + 1) if t else [0], free):
                before = [passed[t - 1][j].Not()] if t else []
                model.add_bool_or([*before, at[t][v].Not(), states[via_passed(via, j, v)]])
        model.add(passed[length][len(via)] == 1)
    found = Enumeration()

    def decode(solver: cp_model.CpSolverSolutionCallback) -> list[list[int]]:
        path = [next(v for v in free if solver.value(at[t][v])) for t in range(length + 1)]
        found.shorter |= any(a == b for a, b in itertools.pairwise(path))  # it waited on S
        return [list(board.square(v)) for v in path]

    return _enumerate(model, decode, keep, time_limit, found)


def enumerate_knights(
    instance: KnightsInstance, keep: int = 0, time_limit: float | None = None, stop: bool = False
) -> Enumeration:
    """The maximum number of independent knights, then every placement of that many (with
    ``stop``, the first ``keep``)."""
    board = instance.board
    free = np.flatnonzero(board.free.reshape(-1)).tolist()
    model = cp_model.CpModel()
    knight = {v: model.new_bool_var(f"k{v}") for v in free}
    for a, b in zip(*knight_edges(board), strict=True):
        model.add_at_most_one(knight[int(a)], knight[int(b)])
    add_knight_sides(model, {board.square(v): x for v, x in knight.items()}, instance)
    model.maximize(sum(knight.values()))
    began = time.perf_counter()
    solver = _solver(time_limit, 2)
    status = solver.solve(model)
    if status != cp_model.OPTIMAL:  # infeasible: fixed knights that attack each other
        return Enumeration(complete=status == cp_model.INFEASIBLE, seconds=time.perf_counter() - began)
    found = Enumeration(optimum=round(solver.objective_value), seconds=time.perf_counter() - began)
    model.clear_objective()
    model.add(sum(knight.values()) == found.optimum)

    def decode(solver: cp_model.CpSolverSolutionCallback) -> list[list[int]]:
        return [list(board.square(v)) for v in free if solver.value(knight[v])]

    left = None if time_limit is None else time_limit - found.seconds
    return _enumerate(model, decode, keep, left, found, stop, 2)
