"""Independent knights as a CP-SAT model (exact), built straight into the model proto.

Data: the knight neighbours of every usable square (one numpy table).
Variables: one Boolean per usable square (a knight there?).
Constraints, in one of two formulations (``formulation=``):

``"star"`` (default)
    one constraint per square ``u`` of one side: ``knight[u]`` implies no knight on any
    square ``u`` attacks (an enforced ``bool_and``). On bipartite boards (plain boards,
    even tori) the side is the smaller colour class, so every edge is covered once by
    about n/2 constraints; on odd tori every square takes its neighbours of larger index.
``"pairwise"``
    one clause ``not knight[u] or not knight[v]`` per attacking pair (about 4 per square).

Redundant constraints (``cuts=``): ``"auto"`` (default) adds, on odd tori, every knight
"line" (the squares one fixed jump apart, an odd cycle of length L) as at most (L - 1) / 2
knights, and, in the :func:`cpsat` method only (never in a model a user extends or exports, nor
with fixed knights), a knight fixed on square (0, 0) (symmetry breaking: a translation of a full
torus moves any knight there), and nothing on bipartite boards, whose LP is already exact
(the 2 x 4 window cuts, 5x the build and slower at 200 x 200, were dropped:
docs/benchmarks-archive.md); ``"none"`` adds nothing.
Search (``search=``, default ``"colour"``): a decision strategy that tries a knight on
every square of the larger colour class first (the optimum of a full plain board);
CP-SAT's own search follows once that is exhausted.
Objective: maximise the number of knights (optionally from a hinted placement).
A proven upper bound (``upper_bound=``; on bipartite boards ``knightcert.combined`` passes
Kőnig's, from a maximum matching, with the matching's independent set as the hint) is added
as ``sum <= bound``, and the search stops at the first placement that reaches it
(``BOUNDED_PARAMETERS``: no LP, presolve or symmetry detection, which would only delay it).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np
from ortools.sat.python import cp_model_helper

from knightcert.models.cpsat_model import BuildStopped, CpsatModel, VariableMap, check_choice, square_index
from knightcert.models.cpsat_solve import CpSatRun
from knightcert.models.side_constraints import knight_sides_in_proto
from knightcert.problems.deadline import Deadline
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import method
from knightcert.problems.moves import KNIGHT_OFFSETS, knight_neighbours
from knightcert.problems.result import Result, Status

__all__ = ["BUILD_CHUNK", "CUTS", "FORMULATIONS", "SEARCHES", "KnightsModel", "cpsat"]

#: The formulations, the default first (chosen by ``bench/bench_cpsat.py``).
FORMULATIONS = ("star", "pairwise")
#: Redundant constraint families: "auto" (lines on odd tori), "none"; the default first.
CUTS = ("auto", "none")
#: Searches: the colour-class decision strategy, or CP-SAT's own.
SEARCHES = ("colour", "solver")

#: Parameters when a proven upper bound is given: the search only has to reach it, so no LP,
#: no presolve and no symmetry detection (on 400 x 400 they took 12-50 s before a complete,
#: optimal hint was even read; without them it is the first solution, 1.5 s at load 7).
BOUNDED_PARAMETERS: dict[str, object] = {
    "linearization_level": 0,
    "cp_model_presolve": False,
    "symmetry_level": 0,
}

#: Constraints added between two looks at the clock while building (about 0.05 s here).
BUILD_CHUNK = 20_000


class KnightsModel(CpsatModel):
    """The exact model of a knights instance (module docstring), built straight into the proto.

    ``knight[r, c]`` is the Boolean of usable square ``(r, c)`` (a knight there?); the
    options are those of :func:`cpsat`; ``clock`` (a method's) stops a build that runs out
    of time with :class:`~knightcert.models.cpsat_model.BuildStopped`; ``symmetry`` (the
    method's own) fixes a knight on (0, 0) of a full odd torus without fixed knights.

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> model = KnightsModel(knights_instance(5))  # no knight on the main diagonal:
    >>> model.cp.add(sum(model.knight[r, r] for r in range(5)) == 0)  # doctest: +ELLIPSIS
    <...>
    >>> result = model.solve()
    >>> result.objective, result.verified, [e.backing.value for e in result.evidence]
    (12, True, ['certificate', 'solver'])
    """

    problem = "knights"

    def __init__(
        self,
        instance: KnightsInstance,
        *,
        formulation: str = "star",
        cuts: str = "auto",
        search: str = "colour",
        upper_bound: int | None = None,
        hint: list[list[int]] | None = None,
        clock: Deadline | None = None,
        symmetry: bool = False,
    ) -> None:
        check_choice("formulation", formulation, FORMULATIONS)
        check_choice("cuts", cuts, CUTS)
        check_choice("search", search, SEARCHES)
        super().__init__(instance, clock)
        board = self.board = instance.board
        # data
        self.usable = np.flatnonzero(board.free.reshape(-1))
        self.var_of = np.full(board.size + 1, -1, dtype=np.int64)  # index -1 (padding) maps to -1
        self.var_of[self.usable] = np.arange(len(self.usable))
        rows, cols = np.divmod(self.usable, board.cols)
        self.white = (rows + cols) % 2 == 0
        self.bipartite = not board.torus or (board.rows % 2 == 0 and board.cols % 2 == 0)
        # variables: one Boolean per usable square
        n = self.n = len(self.usable)
        proto = self.cp.proto
        for _ in range(n):
            proto.variables.add().domain.extend((0, 1))
        # constraints: no two knights attack each other; the given bound; redundant cuts
        self._forbid_attacks(formulation)
        self.info.update(attack_constraints=len(proto.constraints))
        if upper_bound is not None:
            self.stop_at = int(upper_bound)
            self.parameters = BOUNDED_PARAMETERS
            linear = proto.constraints.add().linear
            linear.vars.extend(range(n))
            linear.coeffs.extend([1] * n)
            linear.domain.extend((0, int(upper_bound)))
        if cuts != "none" and not self.bipartite:
            _add_line_cuts(proto, board, self.var_of)
            if symmetry and not board.blocked.any() and not instance.fixed:  # the bare instance only
                proto.constraints.add().bool_or.literals.append(int(self.var_of[0]))
        knight_sides_in_proto(self.cp, board, self.var_of, instance)  # the instance's side constraints
        # objective: maximise the knights (CP-SAT minimises -sum, reported back scaled by -1)
        self._stop_building()
        proto.objective.vars.extend(range(n))
        proto.objective.coeffs.extend([-1] * n)
        proto.objective.scaling_factor = -1
        self._search(search, hint)
        self._built()
        self.info.update(
            constraints=len(proto.constraints),
            build_s_per_million_constraints=round(self.build_time / max(len(proto.constraints), 1) * 1e6, 3),
        )

    @functools.cached_property
    def knight(self) -> VariableMap:
        """The Boolean of every usable square ``(r, c)``: a knight stands there."""
        return VariableMap(self.cp, square_index(self.usable, self.board.cols))

    def _forbid_attacks(self, formulation: str) -> None:
        """No knight attacks another: one enforced ``bool_and`` per square of one side ("star")
        or one clause per attacking pair ("pairwise"), written in chunks between looks at the clock."""
        n, constraints = self.n, self.cp.proto.constraints
        neighbours = self.var_of[knight_neighbours(self.board)[self.usable]]  # (n, 8), -1 padded
        if formulation == "pairwise":
            tails = np.repeat(np.arange(n), neighbours.shape[1])
            heads = neighbours.reshape(-1)
            keep = heads > tails
            pairs = np.stack((-tails[keep] - 1, -heads[keep] - 1), axis=1).tolist()
            for start in range(0, len(pairs), BUILD_CHUNK):
                self._stop_building()
                for pair in pairs[start : start + BUILD_CHUNK]:
                    constraints.add().bool_or.literals.extend(pair)
            return
        white = self.white
        if self.bipartite:
            side = white if np.count_nonzero(white) <= n - np.count_nonzero(white) else ~white
            centres = np.flatnonzero(side)
            targets = neighbours[centres]
        else:
            centres = np.arange(n)
            targets = np.where(neighbours > centres[:, None], neighbours, -1)
        targets = -np.sort(-targets, axis=1)  # the real neighbours first
        counts = np.count_nonzero(targets >= 0, axis=1)
        keep = counts > 0
        centres, targets, counts = centres[keep], (-targets[keep] - 1), counts[keep]
        literal_rows = targets.tolist()
        for start in range(0, len(centres), BUILD_CHUNK):
            self._stop_building()
            for u, row, k in zip(
                centres[start : start + BUILD_CHUNK].tolist(),
                literal_rows[start : start + BUILD_CHUNK],
                counts[start : start + BUILD_CHUNK].tolist(),
                strict=True,
            ):
                constraint = constraints.add()
                constraint.enforcement_literal.append(u)
                constraint.bool_and.literals.extend(row[:k])

    def _search(self, search: str, hint: list[list[int]] | None) -> None:
        """The colour-class decision strategy (larger class first, each at 1) and the hint."""
        proto, n, white = self.cp.proto, self.n, self.white
        if search == "colour" and n:
            larger = white if np.count_nonzero(white) >= n - np.count_nonzero(white) else ~white
            strategy = proto.search_strategy.add()
            strategy.variables.extend(
                np.concatenate((np.flatnonzero(larger), np.flatnonzero(~larger))).tolist()
            )
            strategy.variable_selection_strategy = cp_model_helper.DecisionStrategyProto.CHOOSE_FIRST
            strategy.domain_reduction_strategy = cp_model_helper.DecisionStrategyProto.SELECT_MAX_VALUE
        if hint is not None:
            values = np.zeros(n, dtype=np.int64)
            squares = np.asarray(hint, dtype=np.int64).reshape(-1, 2)
            values[self.var_of[squares[:, 0] * self.board.cols + squares[:, 1]]] = 1
            proto.solution_hint.vars.extend(range(n))
            proto.solution_hint.values.extend(values.tolist())

    def _extract(self, solved: CpSatRun) -> Result:
        values = self.values(solved)[: self.n]
        placed = np.stack(np.divmod(self.usable[values > 0], self.board.cols), axis=1).tolist()
        bound = max(math.floor(solved.solver.best_objective_bound + 1e-9), len(placed))
        if self.stop_at is not None:
            bound = min(bound, int(self.stop_at))
        proven = solved.status is Status.OPTIMAL or bound == len(placed)
        status = Status.OPTIMAL if proven else Status.FEASIBLE
        return Result.answer(
            "knights", "cpsat", status=status, objective=len(placed), bound=bound, solution=placed, time=0.0
        )


@method("knights", "cpsat")
def cpsat(
    instance: KnightsInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    hint: list[list[int]] | None = None,
    hint_source: str = "given",
    formulation: str = "star",
    cuts: str = "auto",
    search: str = "colour",
    upper_bound: int | None = None,
    bound_source: str = "given",
    stop_when: Callable[[], bool] | None = None,
) -> Result:
    """Maximum independent knights by CP-SAT: :class:`KnightsModel` built, solved, read back.

    Parameters
    ----------
    instance : KnightsInstance
    time_limit : float, optional
        Seconds for the whole call, building included; without a proof the
        result is ``FEASIBLE`` with ``bound`` = CP-SAT's ``best_objective_bound``,
        and ``UNKNOWN`` (reason in ``record.stopped``) when building used it all.
    seed : int, optional
        CP-SAT ``random_seed``.
    workers : int, optional
        CP-SAT ``num_workers`` (default ``knightcert.models.cpsat_solve.default_workers()``).
    hint : list of [row, col], optional
        A placement to start the search from (``add_hint``); the registered
        ``cpsat`` method passes seed 002's greedy placement (``knightcert.combined``).
    hint_source : str
        What the hint is, recorded as ``info["hint"]`` (None when no hint is given).
    formulation : {"star", "pairwise"}
        How the attacks are forbidden (module docstring).
    cuts : {"auto", "none"}
        Redundant constraints: lines and a fixed knight on odd tori.
    search : {"colour", "solver"}
        The colour-class decision strategy first, or CP-SAT's own search only.
    upper_bound : int, optional
        A proven upper bound on the number of knights (e.g. Kőnig's, from a maximum
        matching: ``knightcert.combined``), added as the constraint ``sum <= upper_bound``:
        a placement that reaches it is optimal, which CP-SAT then knows at once. The
        result's optimality then rests on that bound, recorded as ``info["upper_bound"]``
        and ``info["bound_source"]``; the checker proves it again on its own.
    bound_source : str
        What the bound is, recorded as ``info["bound_source"]``.
    stop_when : callable, optional
        Asked during the search, which stops with its best placement once it returns True
        (``knightcert.combined`` stops it when the proof running alongside ends).

    Returns
    -------
    Result
        ``OPTIMAL`` with the solver's proof, or ``FEASIBLE`` / ``UNKNOWN``; ``info`` records
        the formulation, cuts, search, hint, constraint count and build time per million
        constraints.

    Raises
    ------
    ValueError
        An unknown ``formulation``, ``cuts`` or ``search``.

    Notes
    -----
    O(n) Booleans and O(n) constraints for n usable squares, built in bulk from numpy
    arrays (a Python call per constraint, none per literal). On bipartite boards the
    LP relaxation of the attack constraints is integral (the matrix is totally
    unimodular), so the LP bound is the optimum; odd tori are hard (LP bound n/2).
    """
    clock = Deadline(time_limit)
    try:
        model = KnightsModel(
            instance,
            formulation=formulation,
            cuts=cuts,
            search=search,
            upper_bound=upper_bound,
            hint=hint,
            clock=clock,
            symmetry=True,
        )
    except BuildStopped as stop:
        info = {"build_time_s": round(clock.elapsed(), 6)}
        return Result.empty("knights", "cpsat", clock.elapsed(), info=info, stopped=clock.stopped(str(stop)))
    model.info.update(
        formulation=formulation, cuts=cuts, search=search, hint=None if hint is None else hint_source
    )
    if upper_bound is not None:
        model.info.update(upper_bound=int(upper_bound), bound_source=bound_source)
    result = model.run(
        began=clock.began, time_limit=time_limit, seed=seed, workers=workers, stop_when=stop_when
    )
    del model  # freeing a large model takes a while: Result.time counts it
    return result.with_(time=clock.elapsed())


def _add_line_cuts(proto: cp_model_helper.CpModelProto, board, var_of: np.ndarray) -> None:
    """Odd-cycle cuts on a torus: every line of squares one fixed jump apart, when it is an
    odd cycle of usable squares of length L >= 3, holds at most (L - 1) / 2 knights."""
    grid = var_of[:-1].reshape(board.rows, board.cols)
    for dr, dc in KNIGHT_OFFSETS[::2]:  # one of each pair of opposite jumps
        length = math.lcm(_order(dr, board.rows), _order(dc, board.cols))
        if length < 3 or length % 2 == 0:
            continue
        seen = np.zeros((board.rows, board.cols), dtype=bool)
        steps = np.arange(length)
        for r in range(board.rows):
            for c in range(board.cols):
                if seen[r, c]:
                    continue
                line_r, line_c = (r + dr * steps) % board.rows, (c + dc * steps) % board.cols
                seen[line_r, line_c] = True
                variables = grid[line_r, line_c]
                if np.all(variables >= 0):
                    linear = proto.constraints.add().linear
                    linear.vars.extend(variables.tolist())
                    linear.coeffs.extend([1] * length)
                    linear.domain.extend((0, (length - 1) // 2))


def _order(step: int, size: int) -> int:
    """How many ``step``s take a coordinate around a cycle of ``size`` back to its start."""
    return size // math.gcd(size, step % size or size)
