"""Independent knights with python-constraint, for small boards (exact).

Variables: one 0/1 per usable square. Constraints: not both ends of a knight
move; at least ``k`` knights. ``k`` grows from the greedy value + 1 until the
CSP has no solution; the last feasible ``k`` is the optimum.
"""

from __future__ import annotations

from constraint import FunctionConstraint, MinSumConstraint, Problem

from knightcert.problems import stopping
from knightcert.problems.deadline import Deadline
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_edges
from knightcert.problems.result import Result, Status

__all__ = ["MAX_CSP_SQUARES", "csp"]

#: Usable squares above which the CSP is refused: its search is exponential.
MAX_CSP_SQUARES = 36


@method("knights", "csp")
def csp(instance: KnightsInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """Maximum independent knights by a sequence of CSPs (python-constraint).

    Raises
    ------
    SizeLimitExceeded
        More than ``MAX_CSP_SQUARES`` usable squares.
    """
    board = instance.board
    SizeLimitExceeded.check("csp", board.n_free, MAX_CSP_SQUARES)
    clock = Deadline(time_limit)
    squares = [i for i in range(board.size) if board.free.reshape(-1)[i]]
    tails, heads = knight_edges(board)
    best: list[int] = []
    target = 1
    checks = [0]

    def apart(a: int, b: int) -> bool:  # the search itself looks at the clock, every 1024 checks
        checks[0] += 1
        if not checks[0] & 1023 and clock.expired():
            raise _OutOfTime
        return a + b <= 1

    try:
        while target <= len(squares):
            if clock.expired():
                return _best_so_far(board, best)
            problem = Problem()
            problem.addVariables(squares, [0, 1])
            for u, v in zip(tails.tolist(), heads.tolist(), strict=True):
                problem.addConstraint(FunctionConstraint(apart), (u, v))
            problem.addConstraint(MinSumConstraint(target), squares)
            solution = problem.getSolution()
            if not solution:
                break
            best = [i for i in squares if solution[i]]
            target = len(best) + 1
    except _OutOfTime:  # the time limit, inside a search: the best placement so far, unproven
        return _best_so_far(board, best)
    except KeyboardInterrupt:  # Ctrl-C: the best placement found so far, unproven
        stopping.caught()  # the signal, not this answer, tells a driver to stop
        return _best_so_far(board, best)
    return Result.answer(
        "knights",
        "csp",
        status=Status.OPTIMAL,
        objective=len(best),
        solution=[list(board.square(i)) for i in best],
        bound=len(best),
    )


class _OutOfTime(Exception):
    """Raised inside python-constraint's search when the time limit is spent."""


def _best_so_far(board, best: list[int]) -> Result:
    squares = [list(board.square(i)) for i in best]
    return Result.answer("knights", "csp", status=Status.FEASIBLE, objective=len(best), solution=squares)
