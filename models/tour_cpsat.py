"""Knight's tours as a CP-SAT circuit (exact).

Data: the knight arcs between usable squares.
Variables: one Boolean per arc (is it a step of the tour?).
Constraints: ``AddCircuit`` over the squares, written straight into the model proto as
three arrays; an open tour adds one extra node joined to every square (or only to the
fixed start and end), so that the circuit enters the board at the start and leaves it
at the end; a closed tour with a fixed start and end has the closing arc end -> start
fixed; a square without any move gets an empty, unsatisfiable degree constraint, since
CP-SAT's circuit leaves out nodes without arcs. One formulation, ``"circuit"`` (the circuit
with redundant one-in/one-out constraints and a fixed direction, 0.83x at 60 x 60 but 1.42x at
100 x 100, inside the spread idle, was dropped: docs/benchmarks-archive.md).

No objective: any circuit is a tour. Parameters: ``TOUR_PARAMETERS`` (no LP relaxation of
the circuit: measured 10-50x faster to the first tour on n x n boards).
A hint (e.g. Warnsdorff's partial tour) is recorded as ``info["hint"]``; the tour returned
is always the solver's. A hint that is a complete tour of the instance is given to CP-SAT
as a complete assignment (every arc variable hinted) and solved with
``HINTED_TOUR_PARAMETERS``: CP-SAT checks it against the model and returns it as its
solution in a fraction of a second (the checker then certifies the tour as any other).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from ortools.sat.python import cp_model_helper

from knightcert.algorithms.tour_separator import with_separator
from knightcert.models.cpsat_model import CpsatModel, VariableMap, check_choice
from knightcert.models.cpsat_solve import CpSatRun
from knightcert.models.side_constraints import rotated_to_visits, tour_sides_in_proto
from knightcert.problems.deadline import Deadline
from knightcert.problems.method import method
from knightcert.problems.moves import knight_arcs
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance

__all__ = ["FORMULATIONS", "HINTED_TOUR_PARAMETERS", "TOUR_PARAMETERS", "TourModel", "cpsat"]

#: The formulations, the default first (chosen by ``bench/bench_cpsat.py``).
FORMULATIONS = ("circuit",)
#: Solver parameters of the tour models (see ``bench/bench_cpsat.py``).
TOUR_PARAMETERS: dict[str, object] = {"linearization_level": 0}
#: Parameters when the hint is a complete tour (every arc variable hinted, 1 on the tour's
#: moves and 0 elsewhere): CP-SAT checks a complete hint against the model itself and takes
#: it as its first solution, so presolve and probing (3 s of a 3.1 s solve on a closed 60 x 60
#: board, docs/benchmarks-archive.md) only delay the answer. Should the hint not be a tour of the
#: model after all, the search runs on without them.
HINTED_TOUR_PARAMETERS: dict[str, object] = {
    **TOUR_PARAMETERS,
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
}


class TourModel(CpsatModel):
    """The exact model of a tour instance (module docstring), built straight into the proto.

    ``move[(r1, c1), (r2, c2)]`` is the Boolean of a knight move of the tour (a closed tour is
    a cycle, so its closing move is one of them); ``step[r, c]`` the square's place in the tour,
    numbered from 1 (integer variables tied to the moves, made on first use: a model that
    never asks for them is the circuit alone).

    Examples
    --------
    >>> from knightcert.problems.tours import tour_instance
    >>> model = TourModel(tour_instance(5, 5, start=(0, 0)))
    >>> model.cp.add(model.step[2, 2] == 5)  # doctest: +ELLIPSIS
    <...>
    >>> result = model.solve(check=lambda tour: tour[4] == [2, 2])
    >>> result.status.value, result.verified, result.solution[4]
    ('FEASIBLE', True, [2, 2])
    """

    problem = "tour"
    parameters = TOUR_PARAMETERS

    def __init__(
        self,
        instance: TourInstance,
        *,
        formulation: str = "circuit",
        hint: list[list[int]] | None = None,
        clock: Deadline | None = None,
    ) -> None:
        check_choice("formulation", formulation, FORMULATIONS)
        super().__init__(instance, clock)
        board = self.board = instance.board
        # data: the knight arcs between usable squares (squares numbered 0 .. n - 1 as nodes)
        self.usable = np.flatnonzero(board.free.reshape(-1)).tolist()
        self.node = {square: k for k, square in enumerate(self.usable)}
        n = self.n = len(self.usable)
        self.tails, self.heads = knight_arcs(board)
        node_of = np.full(board.size, -1, dtype=np.int64)
        node_of[self.usable] = np.arange(n)
        self.arc_tail, self.arc_head = node_of[self.tails], node_of[self.heads]
        # variables: one Boolean per arc (variable k is arc k), then an open tour's entry/exit arcs
        proto = self.cp.proto
        for _ in range(len(self.tails)):
            proto.variables.add().domain.extend((0, 1))
        self.enter: dict[int, int] = {}
        self.leave: dict[int, int] = {}
        if not instance.closed:
            self._open_ends()
        # constraints: one circuit through every square (and the outside node of an open tour)
        self._circuit()
        # the instance's side constraints
        tour_sides_in_proto(self.cp, instance, self.tails, self.heads, self.usable, self.enter)
        if hint is not None and self._hinted(hint):
            self.parameters = HINTED_TOUR_PARAMETERS
        self._built()
        self.info.update(formulation=formulation)

    def _open_ends(self) -> None:
        """An open tour's entry arcs (outside -> first square) and exit arcs (last square ->
        outside), to every square or only to the fixed start and end; exactly one of each."""
        proto, board, instance = self.cp.proto, self.board, self.instance
        firsts = [self.node[board.index(*instance.start)]] if instance.start is not None else range(self.n)
        lasts = [self.node[board.index(*instance.end)]] if instance.end is not None else range(self.n)
        for ends, squares in ((self.enter, firsts), (self.leave, lasts)):
            for k in squares:
                ends[k] = len(proto.variables)
                proto.variables.add().domain.extend((0, 1))
            proto.constraints.add().exactly_one.literals.extend(ends.values())

    def _circuit(self) -> None:
        """The circuit constraint, and what it cannot say:
        a board without a tour at all, a square without a move, a fixed closing move."""
        proto, instance, n = self.cp.proto, self.instance, self.n
        if n == 1 and not instance.closed:
            return  # the one square is the tour
        if (instance.closed and n < 3) or len(self.tails) == 0:  # no tour: an empty constraint says so
            proto.constraints.add().exactly_one.literals.extend([])
            return
        if instance.closed and instance.end is not None and instance.start is not None:
            # the tour start ... end closes with the move end -> start: that arc is in the circuit
            end, start = (
                self.node[self.board.index(*instance.end)],
                self.node[self.board.index(*instance.start)],
            )
            closing = np.flatnonzero((self.arc_tail == end) & (self.arc_head == start))
            proto.constraints.add().bool_or.literals.extend(closing[:1].tolist())  # empty: unsatisfiable
        outside = n
        tails = self.arc_tail.tolist() + [outside] * len(self.enter) + list(self.leave)
        heads = self.arc_head.tolist() + list(self.enter) + [outside] * len(self.leave)
        literals = list(range(len(self.tails))) + list(self.enter.values()) + list(self.leave.values())
        circuit = proto.constraints.add().circuit
        circuit.tails.extend(tails)
        circuit.heads.extend(heads)
        circuit.literals.extend(literals)
        # CP-SAT's circuit leaves out a node without arcs: a square without a move empties a
        # degree constraint, which the solver answers INFEASIBLE
        for _ in np.setdiff1d(np.arange(n), self.arc_tail).tolist():
            proto.constraints.add().exactly_one.literals.extend([])

    def _hinted(self, hint: list[list[int]]) -> bool:
        """Write the hint; True when it is a complete tour of the instance (then solved as one)."""
        return _add_hint(
            self.cp.proto, self.instance, self.tails, self.heads, self.node, self.enter, self.leave, hint
        )

    @functools.cached_property
    def move(self) -> VariableMap:
        """The Boolean of every knight move ``((r1, c1), (r2, c2))`` between usable squares."""
        square = self.board.square
        arcs = zip(self.tails.tolist(), self.heads.tolist(), strict=True)
        return VariableMap(self.cp, {(square(t), square(h)): k for k, (t, h) in enumerate(arcs)})

    @functools.cached_property
    def step(self) -> VariableMap:
        """The place of every usable square ``(r, c)`` in the tour, 1 to n: ``step[head] = step[tail] + 1``
        on every move of the tour but the closing one of a closed tour, whose first square is
        the start (else the square after the end; else, with visits, numbered as they are: modulo
        n, the first visit at its place; else the first usable square)."""
        was_changed, proto, n, instance = self.changed, self.cp.proto, self.n, self.instance
        base = len(proto.variables)  # step[node k] is variable base + k

        def fixed(k: int, value: int, enforced: str = "") -> str:
            return (
                f"constraints{{{enforced}linear{{vars:{base + k} coeffs:1 domain:{value} domain:{value}}}}}"
            )

        text = [f"variables{{domain:1 domain:{n}}}"] * n
        anchor = self.node[self.usable[0]] if instance.closed else -1  # the square numbered 1
        skip_tail = -1  # a closed tour's closing move leaves the square numbered n
        cyclic = instance.closed and instance.visits and instance.start is None and instance.end is None
        if cyclic:  # as side_constraints.tour_steps and rotated_to_visits number it
            (r, c, k), anchor = instance.visits[0], -1
            text.append(fixed(self.node[self.board.index(r, c)], k))
        elif instance.start is not None:
            anchor = self.node[self.board.index(*instance.start)]
        elif instance.closed and instance.end is not None:
            anchor, skip_tail = -1, self.node[self.board.index(*instance.end)]
            text.append(fixed(skip_tail, n))
        if anchor >= 0:
            text.append(fixed(anchor, 1))
        text += [fixed(k, 1, f"enforcement_literal:{enter} ") for k, enter in self.enter.items()]
        keep = (self.arc_head != anchor) & (self.arc_tail != skip_tail)
        text += [
            f"constraints{{enforcement_literal:{k} linear{{vars:{base + v} vars:{base + u} "
            f"coeffs:1 coeffs:-1 {f'domain:{1 - n} domain:{1 - n} ' if cyclic else ''}domain:1 domain:1}}}}"
            for k, u, v in zip(
                np.flatnonzero(keep).tolist(),
                self.arc_tail[keep].tolist(),
                self.arc_head[keep].tolist(),
                strict=True,
            )
        ]
        # one parse: a Python call per constraint took 3-4 s on 100 x 100
        proto.merge_text_format("".join(text))
        if not was_changed:  # the builder's own variables: not the user's change
            self._base = self._shape()
        square = self.board.square
        return VariableMap(self.cp, {square(s): base + k for k, s in enumerate(self.usable)})

    def _extract(self, solved: CpSatRun) -> Result:
        values = self.values(solved)
        chosen = values[: len(self.tails)] > 0
        successor = dict(zip(self.tails[chosen].tolist(), self.heads[chosen].tolist(), strict=True))
        instance, board, usable = self.instance, self.board, self.usable
        if not instance.closed:
            first = usable[next((k for k, var in self.enter.items() if values[var]), 0)]
        elif instance.start is not None:
            first = board.index(*instance.start)
        elif instance.end is not None:  # the cycle turned to finish at the end
            first = successor[board.index(*instance.end)]
        else:
            first = usable[0]
        tour = [first]
        while len(tour) < self.n:
            tour.append(successor[tour[-1]])
        squares = rotated_to_visits([list(board.square(i)) for i in tour], self.instance)
        return Result.answer(
            "tour", "cpsat", status=Status.FEASIBLE, objective=self.n, solution=squares, time=0.0
        )


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
    """Find a tour, or prove that none exists, with CP-SAT's circuit constraint (:class:`TourModel`).

    ``hint`` is a partial tour ([row, col] squares in order, e.g. where
    Warnsdorff's rule dead-ended): its moves are given to CP-SAT as a hint,
    recorded as ``info["hint"] = hint_source``. ``formulation`` is "circuit"
    (the one formulation, module docstring). With ``separator`` (the default) an
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
    (docs/benchmarks-archive.md).
    """
    clock = Deadline(time_limit)
    model = TourModel(instance, formulation=formulation, hint=hint, clock=clock)
    complete = model.parameters is HINTED_TOUR_PARAMETERS
    model.info.update(hint=None if hint is None else hint_source + (" (a complete tour)" if complete else ""))
    result = model.run(began=clock.began, time_limit=time_limit, seed=seed, workers=workers)
    return with_separator(instance, result) if separator else result


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
    sorted_keys = np.append(keys[order], np.iinfo(np.int64).max)  # past every step: no index runs over
    steps = index[:-1] * board.size + index[1:]
    n = len(node)
    if instance.closed and len(index) == n:
        steps = np.append(steps, index[-1] * board.size + index[0])
    where = np.searchsorted(sorted_keys, steps)
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
