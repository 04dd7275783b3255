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
knights, and a knight fixed on square (0, 0) (symmetry breaking: a translation of a full
torus moves any knight there), and nothing on bipartite boards, whose LP is already exact;
``"windows"`` adds as well, on bipartite boards, the sum over every 2 x 4 and 4 x 2 window
as at most half its squares (a window's squares pair up by knight moves): a bound n/2
without the LP, measured slower overall (``bench/bench_cpsat.py``); ``"none"`` adds nothing.
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

import math
from collections.abc import Callable

import numpy as np
from ortools.sat.python import cp_model, cp_model_helper

from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.models.side_constraints import knight_sides_in_proto
from knightcert.problems.deadline import Deadline
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import method
from knightcert.problems.moves import KNIGHT_OFFSETS, knight_neighbours
from knightcert.problems.result import Result, Status

__all__ = ["BUILD_CHUNK", "CUTS", "FORMULATIONS", "FREE_SHARE", "SEARCHES", "cpsat"]

#: The formulations, the default first (chosen by ``bench/bench_cpsat.py``).
FORMULATIONS = ("star", "pairwise")
#: Redundant constraint families: "auto" (lines on odd tori), "windows" (and windows on bipartite
#: boards), "none"; the default first.
CUTS = ("auto", "windows", "none")
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
#: Share of the build time that freeing a model takes (0.5 s after a 3 s build, measured).
FREE_SHARE = 0.2


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
    """Maximum independent knights by CP-SAT.

    Parameters
    ----------
    instance : KnightsInstance
    time_limit : float, optional
        Seconds for the whole call, building included; without a proof the
        result is ``FEASIBLE`` with ``bound`` = CP-SAT's ``best_objective_bound``,
        and ``UNKNOWN`` (reason in ``info["stopped"]``) when building used it all.
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
    cuts : {"auto", "windows", "none"}
        Redundant constraints: lines and a fixed knight on odd tori; "windows" adds the
        2 x 4 / 4 x 2 windows on bipartite boards.
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
    for name, value, valid in (
        ("formulation", formulation, FORMULATIONS),
        ("cuts", cuts, CUTS),
        ("search", search, SEARCHES),
    ):
        if value not in valid:
            raise ValueError(f"unknown {name} {value!r}; valid: {', '.join(valid)}")
    board = instance.board
    clock = Deadline(time_limit)
    # data
    free = board.free.reshape(-1)
    usable = np.flatnonzero(free)
    var_of = np.full(board.size + 1, -1, dtype=np.int64)  # index -1 (padding) maps to -1
    var_of[usable] = np.arange(len(usable))
    neighbours = var_of[knight_neighbours(board)[usable]]  # (n, 8) variable indices, -1 padded
    rows, cols = np.divmod(usable, board.cols)
    white = (rows + cols) % 2 == 0
    bipartite = not board.torus or (board.rows % 2 == 0 and board.cols % 2 == 0)
    # variables
    model = cp_model.CpModel()
    proto = model.proto
    n = len(usable)
    for _ in range(n):
        proto.variables.add().domain.extend((0, 1))
    # constraints
    knight_sides_in_proto(model, board, var_of, instance)  # models/side_constraints.py
    constraints = proto.constraints
    if formulation == "star":
        if bipartite:
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
            if _no_time_to_build(clock):
                return _unknown(clock, "model building")
            for u, row, k in zip(
                centres[start : start + BUILD_CHUNK].tolist(),
                literal_rows[start : start + BUILD_CHUNK],
                counts[start : start + BUILD_CHUNK].tolist(),
                strict=True,
            ):
                constraint = constraints.add()
                constraint.enforcement_literal.append(u)
                constraint.bool_and.literals.extend(row[:k])
    else:
        tails = np.repeat(np.arange(n), neighbours.shape[1])
        heads = neighbours.reshape(-1)
        keep = heads > tails
        pairs = np.stack((-tails[keep] - 1, -heads[keep] - 1), axis=1).tolist()
        for start in range(0, len(pairs), BUILD_CHUNK):
            if _no_time_to_build(clock):
                return _unknown(clock, "model building")
            for pair in pairs[start : start + BUILD_CHUNK]:
                constraints.add().bool_or.literals.extend(pair)
    attack_constraints = len(constraints)
    if upper_bound is not None:
        linear = constraints.add().linear
        linear.vars.extend(range(n))
        linear.coeffs.extend([1] * n)
        linear.domain.extend((0, int(upper_bound)))
    if cuts != "none":
        if not bipartite:
            _add_line_cuts(proto, board, var_of)
        elif cuts == "windows":
            _add_window_cuts(proto, board, var_of)
    # objective: maximise the knights (CP-SAT minimises -sum, reported back scaled by -1)
    if _no_time_to_build(clock):
        return _unknown(clock, "model building")
    objective = proto.objective
    objective.vars.extend(range(n))
    objective.coeffs.extend([-1] * n)
    objective.scaling_factor = -1
    if search == "colour" and n:
        larger = white if np.count_nonzero(white) >= n - np.count_nonzero(white) else ~white
        strategy = proto.search_strategy.add()
        strategy.variables.extend(np.concatenate((np.flatnonzero(larger), np.flatnonzero(~larger))).tolist())
        strategy.variable_selection_strategy = cp_model_helper.DecisionStrategyProto.CHOOSE_FIRST
        strategy.domain_reduction_strategy = cp_model_helper.DecisionStrategyProto.SELECT_MAX_VALUE
    if hint is not None:
        hint_values = np.zeros(n, dtype=np.int64)
        squares = np.asarray(hint, dtype=np.int64).reshape(-1, 2)
        hint_values[var_of[squares[:, 0] * board.cols + squares[:, 1]]] = 1
        proto.solution_hint.vars.extend(range(n))
        proto.solution_hint.values.extend(hint_values.tolist())
    build_s = clock.elapsed()
    # solve
    run = solve_cpsat(
        model,
        began=clock.began,
        time_limit=time_limit,
        seed=seed,
        workers=workers,
        parameters=None if upper_bound is None else BOUNDED_PARAMETERS,
        stop_at=upper_bound,
        stop_when=stop_when,
    )
    # extract
    info = {
        **run.info(),
        "formulation": formulation,
        "cuts": cuts,
        "search": search,
        "hint": None if hint is None else hint_source,
        **({} if upper_bound is None else {"upper_bound": int(upper_bound), "bound_source": bound_source}),
        "constraints": len(constraints),
        "attack_constraints": attack_constraints,
        "build_s_per_million_constraints": round(build_s / max(len(constraints), 1) * 1e6, 3),
    }
    status, placed, bound = run.status, None, None
    if run.has_solution:
        values = np.fromiter(run.solver.response_proto.solution, dtype=np.int64, count=n)
        placed = np.stack(np.divmod(usable[values > 0], board.cols), axis=1).tolist()
        bound = max(math.floor(run.solver.best_objective_bound + 1e-9), len(placed))
        if upper_bound is not None:
            bound = min(bound, int(upper_bound))
    del model, proto, constraints, run  # freeing a large model takes a while: Result.time counts it
    if placed is None:
        return Result.empty("knights", "cpsat", clock.elapsed(), status=status, info=info)
    proven = status is Status.OPTIMAL or bound == len(placed)
    status = Status.OPTIMAL if proven else Status.FEASIBLE
    return Result.answer(
        "knights",
        "cpsat",
        status=status,
        objective=len(placed),
        bound=bound,
        solution=placed,
        time=clock.elapsed(),
        info=info,
    )


def _add_window_cuts(proto: cp_model_helper.CpModelProto, board, var_of: np.ndarray) -> None:
    """At most half the usable squares of every 2 x 4 and 4 x 2 window (bipartite boards).

    A full window's eight squares pair up by four knight moves, so it holds at most four
    knights; a window with blocked squares holds at most its usable squares less the
    pairs of that matching whose both ends are usable.
    """
    grid = var_of[:-1].reshape(board.rows, board.cols)
    # the matching of a 2 x 4 window: (0,0)-(1,2), (0,1)-(1,3), (1,0)-(0,2), (1,1)-(0,3)
    pairs = (((0, 0), (1, 2)), ((0, 1), (1, 3)), ((1, 0), (0, 2)), ((1, 1), (0, 3)))
    for h, w in ((2, 4), (4, 2)):
        if board.rows < h or board.cols < w:
            continue
        oriented = pairs if h == 2 else tuple(((a[1], a[0]), (b[1], b[0])) for a, b in pairs)
        cells = [(r, c) for r in range(h) for c in range(w)]
        view = np.stack(
            [grid[r : board.rows - h + 1 + r, c : board.cols - w + 1 + c] for r, c in cells], axis=-1
        ).reshape(-1, h * w)
        matched = sum(
            ((view[:, cells.index(a)] >= 0) & (view[:, cells.index(b)] >= 0)).astype(np.int64)
            for a, b in oriented
        )
        usable = np.count_nonzero(view >= 0, axis=1)
        limit = usable - matched
        useful = (matched > 0) & (limit < usable)
        for row, cap in zip(view[useful].tolist(), limit[useful].tolist(), strict=True):
            variables = [v for v in row if v >= 0]
            linear = proto.constraints.add().linear
            linear.vars.extend(variables)
            linear.coeffs.extend([1] * len(variables))
            linear.domain.extend((0, cap))


def _add_line_cuts(proto: cp_model_helper.CpModelProto, board, var_of: np.ndarray) -> None:
    """Odd-cycle cuts on a torus: every line of squares one fixed jump apart, when it is an
    odd cycle of usable squares of length L >= 3, holds at most (L - 1) / 2 knights; on a
    full torus a knight is fixed on square (0, 0) (a translation moves any knight there)."""
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
    if not board.blocked.any():
        proto.constraints.add().bool_or.literals.append(int(var_of[0]))


def _order(step: int, size: int) -> int:
    """How many ``step``s take a coordinate around a cycle of ``size`` back to its start."""
    return size // math.gcd(size, step % size or size)


def _no_time_to_build(clock: Deadline) -> bool:
    """Whether building must stop: the budget is spent, or what is left would not even pay for
    freeing the model built so far (which the call's time counts)."""
    left = clock.remaining()
    return left is not None and left <= FREE_SHARE * clock.elapsed()


def _unknown(clock: Deadline, step: str) -> Result:
    info = {**clock.stopped(step), "build_time_s": round(clock.elapsed(), 6)}
    return Result.empty("knights", "cpsat", clock.elapsed(), info=info)
