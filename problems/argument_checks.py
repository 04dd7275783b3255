"""Checks of public functions' arguments, done at the top: a wrong type or range is an
:class:`~knightcert.problems.errors.InvalidArgument` naming the parameter, never an
``AttributeError`` or ``TypeError`` from deep inside."""

from __future__ import annotations

import numbers
import os
from typing import Any

from knightcert.problems.errors import InvalidArgument

__all__ = ["BOUNDS", "bounded", "describe", "expect_path", "expect_square", "expect_text", "expect_whole"]


def describe(value: Any) -> str:
    """``type repr`` of a value for a message, the repr cut to 40 characters."""
    text = repr(value)
    return f"{type(value).__name__} {text[:40] + '...' if len(text) > 40 else text}"


def expect_text(value: Any, name: str) -> None:
    """``value`` is ``str`` or bytes-like (file contents)."""
    if not isinstance(value, (str, bytes, bytearray, memoryview)):
        raise InvalidArgument(f"{name}: expected the text (str or bytes), got {describe(value)}")


def expect_path(value: Any, name: str) -> None:
    """``value`` is a file name (``str`` or path-like)."""
    if not isinstance(value, (str, os.PathLike)):
        raise InvalidArgument(f"{name}: expected a file name, got {describe(value)}")


def expect_whole(value: Any, name: str, low: int | None = None) -> None:
    """``value`` is a whole number (not a bool), at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgument(f"{name}: expected a whole number, got {describe(value)}")
    if low is not None and value < low:
        raise InvalidArgument(f"{name} must be at least {low}, got {value}")


def expect_square(value: Any, name: str) -> None:
    """``value`` is a ``(row, col)`` pair of whole numbers (or None)."""
    if value is None:
        return
    try:
        row, col = value
    except (TypeError, ValueError):
        raise InvalidArgument(f"{name}: expected a (row, col) pair, got {describe(value)}") from None
    for part in (row, col):
        expect_whole(part, name)


#: The bounds of every numeric option, the same wherever it is given — a command-line flag, an
#: experiment file's key or a report's header: name -> (smallest, largest). Beyond the largest
#: a value is a typo, not an experiment, and is refused before anything is built.
BOUNDS: dict[str, tuple[int, int]] = {
    "seed": (0, 2**31 - 1),  # CP-SAT's random_seed is a 32-bit signed integer
    "workers": (1, 1024),
    "repeat": (1, 100_000),
    "size": (1, 100_000),  # a board side
    "players": (1, 10_000),
    "seed count": (1, 10_000),  # generator seeds of a random suite
    "size count": (1, 1_000),  # sizes of a suite
    "runs": (1, 1_000_000),  # (instance, method, repeat) runs of one experiment
    "memory limit": (16, 2**40),  # MB
    "node budget": (1, 2**63 - 1),  # nodes of a backtracking search
    "iterations": (1, 2**63 - 1),  # steps of a local search
    "solutions kept": (0, 2**63 - 1),  # solutions a count hands back
}


#: The bounds of every duration in seconds, the same wherever it is given (flag, experiment
#: file, report header, Python call): name -> largest. Past it a limit is a typo (``1e10``,
#: ``1e308``), and clocks, sleeps and ``select`` overflow on it: refused at the gate.
SECONDS_BOUNDS: dict[str, float] = {
    "time limit": 1e6,  # 11.6 days: longer than any run of this project
    "wall limit": 1e6,
}


def bounded_seconds(
    value: Any, name: str, where: str = "", error: type[Exception] = InvalidArgument
) -> float:
    """``value`` as seconds, positive, finite and at most ``SECONDS_BOUNDS[name]``; the one check of
    every time limit.

    Raises
    ------
    InvalidArgument (or ``error``)
        Not a number (a bool, a string), not positive, not finite, or past the bound; the message
        names ``where`` and the bound.

    Examples
    --------
    >>> bounded_seconds(2, "time limit")
    2.0
    >>> bounded_seconds(1e10, "time limit", "t")
    Traceback (most recent call last):
    knightcert.problems.errors.InvalidArgument: t must be a positive number of seconds up to 1e+06, got 1e+10
    """
    high = SECONDS_BOUNDS[name]
    label = where or name
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise error(f"{label}: expected a number of seconds, got {describe(value)}")
    number = float(value)
    if not 0 < number <= high:  # NaN fails too
        raise error(f"{label} must be a positive number of seconds up to {high:g}, got {number:g}")
    return number


def bounded(value: Any, name: str, where: str = "", error: type[Exception] = InvalidArgument) -> int:
    """``value`` as a whole number inside ``BOUNDS[name]``; the one check of every numeric option.

    Raises
    ------
    InvalidArgument (or ``error``)
        Not a whole number (a bool, a float, a string) or outside the bounds; the message
        names ``where`` (a file and key, a flag) and the bounds.

    Examples
    --------
    >>> bounded(3, "repeat")
    3
    >>> bounded(10**12, "seed", "seed")
    Traceback (most recent call last):
    knightcert.problems.errors.InvalidArgument: seed must be in 0..2147483647, got 1000000000000
    """
    low, high = BOUNDS[name]
    label = where or name
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise error(f"{label}: expected a whole number, got {describe(value)}")
    if not low <= int(value) <= high:
        shown = str(value) if len(str(value)) <= 40 else str(value)[:40] + "..."
        raise error(f"{label} must be in {low}..{high}, got {shown}")
    return int(value)
