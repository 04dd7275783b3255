"""The one call shape of every method, and the check that follows every run."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from knightcert.problems.checkers.common import verified
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.result import Result

Method = Callable[..., Result]


def _checker(problem: str) -> Callable[[Any, Result], None]:
    # imported lazily: each checker module pulls in its problem's types
    if problem == "path":
        from knightcert.problems.checkers.path import check_path

        return check_path
    if problem == "jump":
        from knightcert.problems.checkers.jump import check_jump

        return check_jump
    if problem == "knights":
        from knightcert.problems.checkers.knights import check_knights

        return check_knights
    if problem == "tour":
        from knightcert.problems.checkers.tour import check_tour

        return check_tour
    raise ValueError(f"no checker for problem {problem!r}")


def method(problem: str, name: str) -> Callable[[Callable[..., Result]], Method]:
    """Decorate a solving function so that it has the common call shape.

    The decorated function is called as
    ``solve(instance, *, time_limit=None, seed=None, check=True, **options)``.
    It fills ``problem``, ``method`` and ``instance`` in the result and, unless
    ``check=False``, runs the problem's independent checker and sets
    ``verified``.
    """

    def decorate(function: Callable[..., Result]) -> Method:
        @functools.wraps(function)
        def solve(
            instance: Any,
            *,
            time_limit: float | None = None,
            seed: int | None = None,
            check: bool = True,
            **options: Any,
        ) -> Result:
            if time_limit is not None and not time_limit > 0:
                raise InvalidArgument(f"time_limit must be positive, got {time_limit}")
            result = function(instance, time_limit=time_limit, seed=seed, **options)
            result = result.with_(problem=problem, method=name, instance=getattr(instance, "name", "") or "")
            if check:
                result = verified(result, _checker(problem), instance)
            return result

        solve.problem = problem  # type: ignore[attr-defined]
        solve.method_name = name  # type: ignore[attr-defined]
        return solve

    return decorate
