"""argparse value types shared by the subcommands."""

from __future__ import annotations

import argparse


def positive_float(text: str) -> float:
    """A number > 0 (time limits)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """A whole number >= 1 (sizes)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def square(text: str) -> tuple[int, int]:
    """``R,C`` (0-indexed row and column)."""
    parts = text.split(",")
    try:
        r, c = (int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROW,COL (two whole numbers), got {text!r}") from None
    return (r, c)
