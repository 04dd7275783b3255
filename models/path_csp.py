"""Lost knight as a python-constraint CSP, for small boards (exact).

Data: the knight neighbours of every free square.
Variables: ``p0 .. pL``, the square after each move.
Constraints: ``p0 = C``, ``pL = S``, consecutive squares a knight move apart,
all squares different (a shortest path never repeats a square).
Search: ``L = 1, 2, ...`` until the CSP has a solution; the first feasible
``L`` is the optimum. When ``L`` passes the number of free squares minus one
without a solution, S is unreachable.
"""

from __future__ import annotations

from constraint import AllDifferentConstraint, FunctionConstraint, Problem

from knightcert.problems import stopping
from knightcert.problems.deadline import Deadline
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_targets
from knightcert.problems.result import Result, Status

__all__ = ["MAX_CSP_SQUARES", "csp"]

#: Free squares above which the CSP is refused: its search is exponential.
MAX_CSP_SQUARES = 30


@method("path", "csp")
def csp(instance: LostKnightInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """Shortest knight path by an increasing-length CSP (python-constraint).

    Parameters
    ----------
    instance : LostKnightInstance
        At most ``MAX_CSP_SQUARES`` free squares.
    time_limit : float, optional
        Checked between lengths; when it runs out the result is ``UNKNOWN``
        with ``bound`` = the shortest length not yet refuted.

    Returns
    -------
    Result
        ``OPTIMAL`` with a path, or ``INFEASIBLE``.

    Raises
    ------
    SizeLimitExceeded
        Boards with more than ``MAX_CSP_SQUARES`` free squares.

    Notes
    -----
    Worst case exponential in the path length (backtracking with forward
    checking); exact because every shorter length was refuted first.
    """
    board = instance.board
    SizeLimitExceeded.check("csp", board.n_free, MAX_CSP_SQUARES, "free squares")
    clock = Deadline(time_limit)
    targets = knight_targets(board)
    squares = [int(i) for i in range(board.size) if board.free.reshape(-1)[i]]
    neighbours = {i: {int(t) for t in targets[i] if t >= 0 and t != i} for i in squares}
    start, goal = instance.start_index, instance.exit_index
    checked = 0
    try:
        for length in range(1, len(squares)):
            if clock.expired():
                return _unknown(length, checked)
            problem = Problem()
            problem.addVariable(0, [start])
            for step in range(1, length):
                problem.addVariable(step, [s for s in squares if s not in (start, goal)])
            problem.addVariable(length, [goal])
            for step in range(length):
                problem.addConstraint(FunctionConstraint(lambda a, b: b in neighbours[a]), (step, step + 1))
            if length > 1:
                problem.addConstraint(AllDifferentConstraint(), list(range(length + 1)))
            solution = problem.getSolution()
            checked = length
            if solution:
                path = [list(board.square(solution[step])) for step in range(length + 1)]
                return Result.answer(
                    "path",
                    "csp",
                    status=Status.OPTIMAL,
                    objective=length,
                    solution=path,
                    bound=length,
                    info={"lengths_tried": length},
                )
    except KeyboardInterrupt:
        stopping.caught()  # the signal, not this answer, tells a driver to stop
        return _unknown(checked + 1, checked)
    return Result.empty("path", "csp", status=Status.INFEASIBLE, info={"lengths_tried": checked})


def _unknown(bound: int, checked: int) -> Result:
    return Result.empty("path", "csp", bound=bound, info={"lengths_tried": checked})
