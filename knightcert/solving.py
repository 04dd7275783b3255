"""The Python entry point: solve any instance with any registered method.

>>> from knightcert.solving import solve
>>> from knightcert.problems.lost_knight import parse_lost_knight
>>> result = solve(parse_lost_knight("C.....\\n......\\n....S.\\n......\\n......\\n......\\n"))
>>> (result.method, result.status.value, result.objective, result.verified)
('bfs', 'OPTIMAL', 2, True)
"""

from __future__ import annotations

from typing import Any

from knightcert.memory import check_fits
from knightcert.problems.checkers import certify
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.result import Result
from knightcert.registry import default_method, get_method

__all__ = ["problem_of", "solve"]


def problem_of(instance: Any) -> str:
    """The problem name an instance belongs to (``"path"``, ``"jump"``, ``"knights"``, ``"tour"``).

    Raises
    ------
    InvalidArgument
        ``instance`` is not one of the project's instance types.
    """
    from knightcert.problems.independent_knights import KnightsInstance
    from knightcert.problems.jump_game import JumpInstance
    from knightcert.problems.lost_knight import LostKnightInstance
    from knightcert.problems.tours import TourInstance

    kinds = {
        LostKnightInstance: "path",
        JumpInstance: "jump",
        KnightsInstance: "knights",
        TourInstance: "tour",
    }
    for kind, problem in kinds.items():
        if isinstance(instance, kind):
            return problem
    raise InvalidArgument(
        f"instance: expected one of {', '.join(k.__name__ for k in kinds)}, got {type(instance).__name__}"
    )


def solve(
    instance: Any,
    method: str | None = None,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    **options: Any,
) -> Result:
    """Solve ``instance`` with ``method`` (the problem's default when None); the answer is checked.

    Parameters
    ----------
    instance : LostKnightInstance, JumpInstance, KnightsInstance or TourInstance
        What to solve; its type decides the problem.
    method : str, optional
        A registered method name of that problem (see ``knightcert.method_names``).
    time_limit : float, optional
        Seconds for the whole call.
    seed : int, optional
        Random seed for methods that use one.

    Returns
    -------
    Result
        The answer with ``verified``, ``evidence`` and ``certified`` set by the problem's
        independent checker (whatever the method itself said).

    Raises
    ------
    UnknownMethod
        ``method`` is not registered for the problem; the message lists the valid ones.
    InvalidArgument
        ``instance`` is not an instance type of the project.
    InstanceTooLarge
        The method's memory estimate for this board exceeds the memory available.
    """
    problem = problem_of(instance)
    solve_with = get_method(problem, method)
    check_fits(problem, method or default_method(problem), instance)
    result = solve_with(instance, time_limit=time_limit, seed=seed, **options)
    return certify(instance, result)  # free when the method's decorator already did it
