"""What all checkers share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from knightcert.problems.errors import KnightcertError
from knightcert.problems.result import Result, Status


class CheckFailed(KnightcertError):
    """An answer (or its certificate) that the checker rejects."""


def verified(result: Result, check: Callable[[Any, Result], None], instance: Any) -> Result:
    """Run ``check(instance, result)`` and return the result with ``verified`` set.

    A rejected answer keeps its status but gets ``verified=False`` and the
    checker's message in ``info["check_error"]``. An ``UNKNOWN`` result without
    an answer claims nothing and is returned unverified, unchanged.
    """
    if result.status is Status.UNKNOWN and result.solution is None:
        return result.with_(verified=False)  # nothing was claimed, nothing to check
    try:
        check(instance, result)
    except CheckFailed as exc:
        return result.with_(verified=False, info={**result.info, "check_error": str(exc)})
    return result.with_(verified=True)


def as_squares(solution: Any) -> np.ndarray:
    """A list of ``[row, col]`` pairs as an (n, 2) integer array; CheckFailed if it is not one."""
    if not isinstance(solution, (list, tuple, np.ndarray)):
        raise CheckFailed("the answer must be a list of [row, col] squares")
    try:
        squares = np.asarray(solution, dtype=np.int64)
    except (TypeError, ValueError):
        squares = None
    if squares is None or squares.ndim != 2 or squares.shape[1] != 2:
        if len(solution) == 0:
            return np.zeros((0, 2), dtype=np.int64)
        bad = next((s for s in solution if not (isinstance(s, (list, tuple)) and len(s) == 2)), solution[0])
        raise CheckFailed(f"{bad!r} is not a [row, col] pair")
    return squares
