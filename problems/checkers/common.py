"""What all checkers share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from problems.errors import KnightcertError
from problems.result import Result


class CheckFailed(KnightcertError):
    """An answer (or its certificate) that the checker rejects."""


def verified(result: Result, check: Callable[[Any, Result], None], instance: Any) -> Result:
    """Run ``check(instance, result)`` and return the result with ``verified`` set.

    A rejected answer keeps its status but gets ``verified=False`` and the
    checker's message in ``info["check_error"]``.
    """
    try:
        check(instance, result)
    except CheckFailed as exc:
        return result.with_(verified=False, info={**result.info, "check_error": str(exc)})
    return result.with_(verified=True)
