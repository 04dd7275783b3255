"""The jump game as one CP-SAT model (exact, small boards).

Data: the board, its jumps, the players' start cells.
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

from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.jump_game import (
    JumpInstance,
    format_jump_answer,
    game_result,
    jump_targets,
    player_name,
)
from knightcert.problems.method import method
from knightcert.problems.result import Result, Status
from ortools.sat.python import cp_model

#: Cells above which the model is refused (it has about 2·(N·M)² Booleans).
MAX_CPSAT_CELLS = 144


@method("jump", "cpsat")
def cpsat(
    instance: JumpInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
) -> Result:
    """Winner of the jump game by a CP-SAT path model.

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
        Boards with more than ``MAX_CPSAT_CELLS`` cells.
    """
    rows, cols, players = instance.rows, instance.cols, instance.players
    n = rows * cols
    if n > MAX_CPSAT_CELLS:
        raise SizeLimitExceeded(f"cpsat handles boards up to {MAX_CPSAT_CELLS} cells; this one has {n}")
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
        return Result(
            "jump", "cpsat", run.status, None, None, nobody, time.perf_counter() - began, info=run.info()
        )
    if not run.has_solution:
        return Result(
            "jump", "cpsat", run.status, None, None, None, time.perf_counter() - began, info=run.info()
        )
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
    return Result(
        "jump", "cpsat", status, arrival, bound, solution, time.perf_counter() - began, info=run.info()
    )
