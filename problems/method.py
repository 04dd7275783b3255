"""The one call shape of every method, and the check that follows every run."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from knightcert.problems.argument_checks import BOUNDS, bounded, bounded_seconds, describe
from knightcert.problems.checkers import certify
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.instance_types import instance_type
from knightcert.problems.result import Result

__all__ = ["MAX_SEED", "Method", "check_arguments", "method"]

Method = Callable[..., Result]

#: Largest seed (CP-SAT's ``random_seed`` is a 32-bit signed integer).
MAX_SEED = BOUNDS["seed"][1]


def check_arguments(problem: str, instance: Any, time_limit: Any, seed: Any) -> None:
    """The common arguments of every method, checked before any work.

    Raises
    ------
    InvalidArgument
        ``instance`` not of the problem's instance type, ``time_limit`` not a
        positive finite number, ``seed`` not a whole number in ``0..MAX_SEED``;
        the message names the parameter.
    """
    kind = instance_type(problem)
    if not isinstance(instance, kind):
        raise InvalidArgument(f"instance: expected a {kind.__name__}, got {describe(instance)}")
    if time_limit is not None:
        bounded_seconds(time_limit, "time limit", "time_limit")  # the flags' and files' own bound
    if seed is not None:
        bounded(seed, "seed")


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
            check_arguments(problem, instance, time_limit, seed)
            result = function(instance, time_limit=time_limit, seed=seed, **options)
            named = {"problem": problem, "method": name, "instance": getattr(instance, "name", "") or ""}
            unchecked = {"verified": False, "evidence": ()}
            return certify(instance, result.with_(**named)) if check else result.with_(**named, **unchecked)

        solve.problem = problem  # type: ignore[attr-defined]
        solve.method_name = name  # type: ignore[attr-defined]
        return solve

    return decorate
