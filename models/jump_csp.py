"""The jump game with python-constraint, player by player (exact, tiny boards).

For each player: variables ``p0 .. pR`` (cell after each round), ``p0`` the
start, ``pR`` the goal, no earlier visit to the goal, all cells different, and
consecutive cells one legal jump apart. ``R = 0, 1, 2, ...`` until feasible
gives the player's rounds; then the tie key ``value(p[R-2])`` is fixed to each
candidate value in increasing order until feasible.
"""

from __future__ import annotations

from constraint import AllDifferentConstraint, FunctionConstraint, InSetConstraint, Problem

from knightcert.problems import stopping
from knightcert.problems.deadline import Deadline
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.jump_game import JumpInstance, game_result, jump_targets, player_row
from knightcert.problems.method import method
from knightcert.problems.result import Result

__all__ = ["MAX_CSP_CELLS", "csp"]

#: Cells above which the CSP is refused: its search is exponential.
MAX_CSP_CELLS = 30


@method("jump", "csp")
def csp(instance: JumpInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """Winner of the jump game by per-player CSPs (python-constraint).

    Returns
    -------
    Result
        ``OPTIMAL`` / ``INFEASIBLE`` with the per-player table; ``UNKNOWN``
        when ``time_limit`` (checked between CSPs) runs out.

    Raises
    ------
    SizeLimitExceeded
        Boards with more than ``MAX_CSP_CELLS`` cells.
    """
    rows, cols = instance.rows, instance.cols
    n = rows * cols
    if n > MAX_CSP_CELLS:
        raise SizeLimitExceeded(f"csp handles boards up to {MAX_CSP_CELLS} cells; this one has {n}")
    clock = Deadline(time_limit)
    cells = [divmod(i, cols) for i in range(n)]
    succ = {i: {r * cols + c for r, c in jump_targets(instance.values, *cells[i])} for i in range(n)}
    table = []
    try:
        for p, start in enumerate(instance.starts):
            table.append(_player(instance, p, start[0] * cols + start[1], succ, clock))
    except TimeoutError:
        return Result.empty("jump", "csp")
    except KeyboardInterrupt:
        stopping.caught()  # the signal, not this answer, tells a driver to stop
        return Result.empty("jump", "csp").with_record(interrupted=True)
    return game_result(instance, "csp", table)


def _player(instance: JumpInstance, p: int, start: int, succ: dict[int, set[int]], clock: Deadline):
    cols = instance.cols
    n = instance.rows * cols
    goal = n - 1
    values = instance.values.reshape(-1).tolist()
    row = player_row(instance, p)
    if start == goal:
        row.update(rounds=0, path=[list(divmod(start, cols))])
        return row
    for rounds in range(1, n):
        _tick(clock)
        solution = _solve(rounds, start, goal, n, succ, values, None)
        if solution is None:
            continue
        key = None
        if rounds >= 2:  # the cheapest jump possible in the round before the last
            for candidate in sorted(set(values) - {0}):
                _tick(clock)
                keyed = _solve(rounds, start, goal, n, succ, values, candidate)
                if keyed is not None:
                    solution, key = keyed, candidate
                    break
        row.update(rounds=rounds, key=key, path=[list(divmod(solution[t], cols)) for t in range(rounds + 1)])
        return row
    return row


def _tick(clock: Deadline) -> None:
    if clock.expired():
        raise TimeoutError


def _solve(rounds, start, goal, n, succ, values, key):
    problem = Problem()
    problem.addVariable(0, [start])
    inner = [c for c in range(n) if c not in (start, goal)]
    for t in range(1, rounds):
        problem.addVariable(t, inner)
    problem.addVariable(rounds, [goal])
    for t in range(rounds):
        problem.addConstraint(FunctionConstraint(lambda a, b: b in succ[a]), (t, t + 1))
    if rounds > 1:
        problem.addConstraint(AllDifferentConstraint(), list(range(rounds + 1)))
    if key is not None:
        problem.addConstraint(InSetConstraint({c for c in range(n) if values[c] == key}), (rounds - 2,))
    return problem.getSolution()
