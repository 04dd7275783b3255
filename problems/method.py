"""The one call shape of every method, and the check that follows every run."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from knightcert.problems.checkers import certify
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.result import Result

Method = Callable[..., Result]


def method(problem: str, name: str) -> Callable[[Callable[..., Result]], Method]:
    """Decorate a solving function so that it has the common call shape.

    The decorated function is called as
    ``solve(instance, *, time_limit=None, seed=None, check=True, **options)``.
    It fills ``problem``, ``method`` and ``instance`` in the result and, unless
    ``check=False``, runs the problem's independent checker
    (:func:`knightcert.problems.checkers.certify`), which sets ``verified``,
    ``evidence`` and the certificate checked. With ``check=False`` the
    result is returned unverified, without evidence, whatever the method said.
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
                return certify(instance, result)
            return result.with_(verified=False, evidence=())

        solve.problem = problem  # type: ignore[attr-defined]
        solve.method_name = name  # type: ignore[attr-defined]
        return solve

    return decorate
