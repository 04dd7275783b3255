"""Checks of public functions' arguments, done at the top: a wrong type or range is an
:class:`~knightcert.problems.errors.InvalidArgument` naming the parameter, never an
``AttributeError`` or ``TypeError`` from deep inside."""

from __future__ import annotations

import numbers
import os
from typing import Any

from knightcert.problems.errors import InvalidArgument


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
