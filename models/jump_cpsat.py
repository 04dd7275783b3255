"""The jump game as a CP-SAT model (exact), in two formulations (``formulation=``).

``"layers"`` (default: ``bench/bench_cpsat.py``), per-player reachability by layers
    Data: the board's jumps (at most 4 arcs per cell), the players' start cells.
    Variables: ``d[p][c]`` in [0, F] per player p and cell c (F = cells): the round in which
    player p can first stand on c (F: never).
    Constraints: ``d[p][start_p] = 0`` and ``d[p][v] <= d[p][u] + 1`` for every jump u -> v.
    Objective: maximise the sum of the labels: the largest labelling is each player's exact
    layering by rounds (the dual of the shortest path problem), so ``d[p][goal]`` is the
    round of arrival of p playing its own fastest game. The tie key (length of the jump in
    the round before the last) is read from the proven layers: the smallest value of a cell
    w in layer ``d[p][goal] - 2`` from which the goal is two jumps away. The winner is the
    smallest (rounds, key, input order), as in the rules.
``"monolithic"``, one path model for the winner (boards up to 144 cells)
    Variables: ``choose[p]`` (which player the model follows), ``at[t][c]``
    (that player is on cell ``c`` after ``t`` rounds, t = 0..T with T = N·M - 1,
    the goal absorbing), ``before_last[t][c]`` (on ``c`` after ``t`` rounds and
    arriving at round ``t + 2``).
    Constraints: one player, one cell per round, legal jumps, arrival by T.
    Objective: lexicographic (rounds, jump in the round before the last, input
    order) as one weighted sum. Its optimum is the winner: every player plays
    its own fastest game, and the winner is the smallest of those triples.
"""

from __future__ import annotations

import time

import numpy as np
from ortools.sat.python import cp_model

from knightcert.models.cpsat_labels import LABEL_PARAMETERS, maximise_labels
from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.jump_game import (
    JumpInstance,
    format_jump_answer,
    game_result,
    jump_targets,
    player_name,
    player_row,
)
from knightcert.problems.method import method
from knightcert.problems.result import Result, Status

__all__ = ["FORMULATIONS", "MAX_CPSAT_CELLS", "MAX_CPSAT_LABELS", "MAX_MONOLITHIC_CELLS", "cpsat"]

#: The formulations, the default first (chosen by ``bench/bench_cpsat.py``).
FORMULATIONS = ("layers", "monolithic")
#: Cells above which the default (``layers``) model is refused.
MAX_CPSAT_CELLS = 250_000
#: Labels (players x cells) above which the ``layers`` model is refused (about 4 constraints each).
MAX_CPSAT_LABELS = 1_000_000
#: Cells above which the ``monolithic`` model is refused (it has about 2·(N·M)² Booleans).
MAX_MONOLITHIC_CELLS = 144


@method("jump", "cpsat")
def cpsat(
    instance: JumpInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    formulation: str = "layers",
) -> Result:
    """Winner of the jump game by CP-SAT: per-player layers (default) or one monolithic model.

    Parameters
    ----------
    instance : JumpInstance
    time_limit : float, optional
        Seconds for the whole call.
    seed : int, optional
        CP-SAT ``random_seed``.
    workers : int, optional
        CP-SAT ``num_workers`` (default ``knightcert.models.cpsat_solve.default_workers()``).
    formulation : {"layers", "monolithic"}
        The model (module docstring); recorded as ``info["formulation"]``.

    Returns
    -------
    Result
        ``OPTIMAL`` (winner proven) or ``INFEASIBLE`` (nobody can arrive) from the solver's
        proof; under ``time_limit`` ``FEASIBLE`` or ``UNKNOWN``. ``layers`` gives the full
        per-player table (``players``); ``monolithic`` the winner only (``players`` None).

    Raises
    ------
    SizeLimitExceeded
        ``layers``: more than ``MAX_CPSAT_CELLS`` cells or ``MAX_CPSAT_LABELS`` labels;
        ``monolithic``: more than ``MAX_MONOLITHIC_CELLS`` cells.
    ValueError
        An unknown ``formulation``.

    Notes
    -----
    ``layers``: players x cells integers and at most 4 two-variable inequalities each.
    """
    if formulation not in FORMULATIONS:
        raise ValueError(f"unknown formulation {formulation!r}; valid: {', '.join(FORMULATIONS)}")
    if formulation == "monolithic":
        result = _monolithic(instance, time_limit=time_limit, seed=seed, workers=workers)
        return result.with_(info={**result.info, "formulation": "monolithic"})
    rows, cols, players = instance.rows, instance.cols, instance.players
    n = rows * cols
    if n > MAX_CPSAT_CELLS or n * players > MAX_CPSAT_LABELS:
        raise SizeLimitExceeded(
            f"cpsat handles boards up to {MAX_CPSAT_CELLS} cells and {MAX_CPSAT_LABELS} labels "
            f"(players x cells); this one has {n} cells and {n * players} labels"
        )
    began = time.perf_counter()
    if n == 0 or players == 0:  # nobody to follow: no winner, nothing to search
        return game_result(instance, "cpsat", [], time.perf_counter() - began)
    # data: the jumps u -> v (the goal is absorbing: no jump leaves it)
    goal = n - 1
    values = np.minimum(instance.values.reshape(-1), max(rows, cols)).astype(np.int64)
    r, c = np.divmod(np.arange(n), cols)
    tail_parts, head_parts = [], []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        nr, nc = r + dr * values, c + dc * values
        ok = (values > 0) & (nr >= 0) & (nr < rows) & (nc >= 0) & (nc < cols) & (np.arange(n) != goal)
        tail_parts.append(np.flatnonzero(ok))
        head_parts.append((nr * cols + nc)[ok])
    tails, heads = np.concatenate(tail_parts), np.concatenate(head_parts)
    one_jump = np.zeros(n, dtype=bool)
    one_jump[tails[heads == goal]] = True
    two_jumps = np.zeros(n, dtype=bool)  # cells whose jump lands one jump from the goal
    two_jumps[tails[one_jump[heads]]] = True
    starts = [r0 * cols + c0 for r0, c0 in instance.starts]
    # variables: d[p][c] is variable p * n + c, in [0, n] (n: never), d[p][start_p] = 0
    model = cp_model.CpModel()
    proto = model.proto
    for p in range(players):
        for cell in range(n):
            proto.variables.add().domain.extend((0, 0 if cell == starts[p] else n))
    # constraints: d[p][v] <= d[p][u] + 1 on every jump
    arcs = list(zip(heads.tolist(), tails.tolist(), strict=True))
    constraints = proto.constraints
    for p in range(players):
        base = p * n
        for v, u in arcs:
            if v == starts[p]:
                continue
            linear = constraints.add().linear
            linear.vars.extend((base + v, base + u))
            linear.coeffs.extend((1, -1))
            linear.domain.extend((-n, 1))
    # objective: maximise every label, largest label first
    total = n * players
    maximise_labels(proto, total)
    # solve
    run = solve_cpsat(
        model, began=began, time_limit=time_limit, seed=seed, workers=workers, parameters=LABEL_PARAMETERS
    )
    # extract
    info = {**run.info(), "formulation": "layers", "constraints": len(constraints)}
    if run.status is not Status.OPTIMAL:  # the layers are exact only at the optimum
        status = Status.UNKNOWN if run.status is not Status.INFEASIBLE else run.status
        return Result.empty("jump", "cpsat", time.perf_counter() - began, status=status, info=info)
    labels = np.fromiter(run.solver.response_proto.solution, dtype=np.int64, count=total).reshape(players, n)
    table = [_player_row(instance, p, labels[p], tails, heads, values, two_jumps, n) for p in range(players)]
    result = game_result(instance, "cpsat", table, time.perf_counter() - began)
    return result.with_(info=info)


def _player_row(
    instance: JumpInstance,
    player: int,
    label: np.ndarray,
    tails: np.ndarray,
    heads: np.ndarray,
    values: np.ndarray,
    two_jumps: np.ndarray,
    never: int,
) -> dict:
    """A player's rounds, tie key and one fastest path with that key, from its exact layers."""
    row = player_row(instance, player)
    goal = len(label) - 1
    rounds = int(label[goal])
    if rounds >= never:
        return row
    tight = label[heads] == label[tails] + 1
    into: dict[int, list[int]] = {}
    for v, u in zip(heads[tight].tolist(), tails[tight].tolist(), strict=True):
        into.setdefault(v, []).append(u)
    if rounds >= 2:  # the cell of the round before the last: smallest value in layer rounds - 2
        candidates = np.flatnonzero((label == rounds - 2) & two_jumps)
        w = int(candidates[np.argmin(values[candidates])])
        key = int(instance.values.reshape(-1)[w])
        middle = next(m for m in into[goal] if w in into.get(m, ()))
        walk = [goal, middle, w]
    else:
        key, walk = None, [goal]
    while label[walk[-1]] > 0:
        walk.append(into[walk[-1]][0])
    cols = instance.cols
    row.update(rounds=rounds, key=key, path=[list(divmod(cell, cols)) for cell in reversed(walk)])
    return row


def _monolithic(
    instance: JumpInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
) -> Result:
    """Winner of the jump game by the ``monolithic`` CP-SAT model (module docstring).

    Returns
    -------
    Result
        ``OPTIMAL`` (winner proven) or ``INFEASIBLE`` (nobody can arrive) from
        the solver's proof; under ``time_limit`` ``FEASIBLE`` or ``UNKNOWN``.
        ``solution`` has the winner, its round, tie key and path, and the
        official output; there is no per-player table (``players`` is None).

    Raises
    ------
    SizeLimitExceeded
        Boards with more than ``MAX_MONOLITHIC_CELLS`` cells.
    """
    rows, cols, players = instance.rows, instance.cols, instance.players
    n = rows * cols
    if n > MAX_MONOLITHIC_CELLS:
        raise SizeLimitExceeded(
            f"cpsat (monolithic) handles boards up to {MAX_MONOLITHIC_CELLS} cells; this one has {n}"
        )
    began = time.perf_counter()
    if n == 0 or players == 0:  # nobody to follow: no winner, nothing to search
        return game_result(instance, "cpsat", [], time.perf_counter() - began)
    # data
    goal = n - 1
    horizon = n - 1
    # A value >= max(N, M) leaves the board in every direction: such a cell has no jump, so its
    # value never becomes a tie key and can be capped there. This keeps every coefficient small
    # (CP-SAT refuses coefficients that overflow int64; values go up to 10^18).
    reach = max(rows, cols)
    values = [min(int(v), reach) for v in instance.values.reshape(-1).tolist()]
    preds: list[list[int]] = [[] for _ in range(n)]
    for cell in range(n):
        for r, c in jump_targets(instance.values, *divmod(cell, cols)):
            preds[r * cols + c].append(cell)
    weight_key = (max(values) + 1) * players
    weight_rounds = (max(values) + 1) * weight_key
    # variables
    model = cp_model.CpModel()
    choose = [model.new_bool_var(f"choose{p}") for p in range(players)]
    at = [[model.new_bool_var(f"at{t}_{c}") for c in range(n)] for t in range(horizon + 1)]
    before_last = [[model.new_bool_var(f"bl{t}_{c}") for c in range(n)] for t in range(horizon - 1)]
    # constraints
    model.add_exactly_one(choose)
    for t in range(horizon + 1):
        model.add_exactly_one(at[t])
    for cell in range(n):
        model.add(
            at[0][cell] == sum(choose[p] for p, s in enumerate(instance.starts) if s == divmod(cell, cols))
        )
    for t in range(horizon):
        for cell in range(n):
            came_from = [at[t][p] for p in preds[cell]]
            if cell == goal:
                came_from.append(at[t][goal])  # the goal is absorbing
            model.add(sum(came_from) >= at[t + 1][cell])
    model.add(at[horizon][goal] == 1)
    for t in range(horizon - 1):
        for cell in range(n):  # before_last[t][c] = at[t][c] and arrival exactly at t + 2
            bl = before_last[t][cell]
            model.add_implication(bl, at[t][cell])
            model.add_implication(bl, at[t + 2][goal])
            model.add_implication(bl, at[t + 1][goal].Not())
            model.add_bool_or([bl, at[t][cell].Not(), at[t + 2][goal].Not(), at[t + 1][goal]])
    # objective
    rounds = horizon - sum(at[t][goal] for t in range(horizon))
    key = sum(values[c] * before_last[t][c] for t in range(horizon - 1) for c in range(n))
    order = sum(p * choose[p] for p in range(players))
    model.minimize(weight_rounds * rounds + weight_key * key + order)
    # solve
    run = solve_cpsat(model, began=began, time_limit=time_limit, seed=seed, workers=workers)
    # extract
    if run.status is Status.INFEASIBLE:  # proven: nobody can ever arrive
        nobody = {
            "winner": None,
            "round": None,
            "key": None,
            "path": None,
            "output": format_jump_answer(None, None),
            "players": None,
        }
        elapsed = time.perf_counter() - began
        return Result.answer(
            "jump", "cpsat", status=run.status, objective=None, solution=nobody, time=elapsed, info=run.info()
        )
    if not run.has_solution:
        return Result.empty("jump", "cpsat", time.perf_counter() - began, status=run.status, info=run.info())
    solver = run.solver
    winner = next(p for p in range(players) if solver.boolean_value(choose[p]))
    cells = [next(c for c in range(n) if solver.boolean_value(at[t][c])) for t in range(horizon + 1)]
    arrival = cells.index(goal)
    path = [list(divmod(c, cols)) for c in cells[: arrival + 1]]
    round_key = values[cells[arrival - 2]] if arrival >= 2 else None
    solution = {
        "winner": player_name(winner),
        "round": arrival,
        "key": round_key,
        "path": path,
        "output": format_jump_answer(winner, arrival),
        "players": None,
    }
    status = Status.OPTIMAL if run.status is Status.OPTIMAL else Status.FEASIBLE
    bound = arrival if status is Status.OPTIMAL else None
    return Result.answer(
        "jump",
        "cpsat",
        status=status,
        objective=arrival,
        bound=bound,
        solution=solution,
        time=time.perf_counter() - began,
        info=run.info(),
    )
