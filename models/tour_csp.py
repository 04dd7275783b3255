"""Knight's tours with python-constraint, for tiny boards (exact).

Variables: the square of each step ``0 .. n-1``. Constraints: all different,
consecutive steps a knight move apart, the closing move for closed tours,
the fixed start and end.
"""

from __future__ import annotations

from constraint import AllDifferentConstraint, FunctionConstraint, Problem

from knightcert.algorithms.tour_separator import with_separator
from knightcert.problems import stopping
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.method import method
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance

__all__ = ["MAX_CSP_SQUARES", "csp"]

#: Usable squares above which the CSP is refused (5 x 5).
MAX_CSP_SQUARES = 25


@method("tour", "csp")
def csp(instance: TourInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """Find a tour or prove there is none by backtracking (python-constraint).

    Raises
    ------
    SizeLimitExceeded
        More than ``MAX_CSP_SQUARES`` usable squares.
    """
    board = instance.board
    SizeLimitExceeded.check("csp", board.n_free, MAX_CSP_SQUARES)
    usable = [int(i) for i in range(board.size) if board.free.reshape(-1)[i]]
    nb = knight_neighbours(board)
    adjacent = {i: {int(j) for j in nb[i] if j >= 0} for i in usable}
    n = len(usable)
    if instance.closed and n < 3:
        return Result.empty("tour", "csp", status=Status.INFEASIBLE)
    problem = Problem()
    for step in range(n):
        domain = [board.index(*instance.start)] if step == 0 and instance.start is not None else usable
        if step == n - 1 and instance.end is not None:
            domain = [board.index(*instance.end)]
        problem.addVariable(step, list(domain))
    problem.addConstraint(AllDifferentConstraint(), list(range(n)))
    for step in range(n - 1):
        problem.addConstraint(FunctionConstraint(lambda a, b: b in adjacent[a]), (step, step + 1))
    if instance.closed:
        problem.addConstraint(FunctionConstraint(lambda a, b: b in adjacent[a]), (n - 1, 0))
        if instance.start is None and instance.end is None:  # break rotations (a fixed square does)
            problem.addConstraint(FunctionConstraint(lambda a: a == usable[0]), (0,))
    try:
        solution = problem.getSolution()
    except KeyboardInterrupt:
        stopping.caught()  # the signal, not this answer, tells a driver to stop
        return Result.empty("tour", "csp").with_record(interrupted=True)
    if not solution:
        return with_separator(instance, Result.empty("tour", "csp", status=Status.INFEASIBLE))
    tour = [list(board.square(solution[step])) for step in range(n)]
    return Result.answer("tour", "csp", status=Status.FEASIBLE, objective=n, solution=tour)
