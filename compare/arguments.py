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


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """``ROWS [COLS]`` and ``--board FILE`` (knights and tours)."""
    parser.add_argument("rows", nargs="?", type=positive_int, metavar="ROWS", help="board rows")
    parser.add_argument(
        "cols", nargs="?", type=positive_int, metavar="COLS", help="board columns (default ROWS)"
    )
    parser.add_argument("--board", metavar="FILE", help="board file: '.' usable, 'x' removed")


def add_solver_arguments(
    parser: argparse.ArgumentParser,
    problem: str,
    *,
    fixed_default: bool = True,
    method_help: str | None = None,
    time_help: str = "seconds per instance for exact models",
    json_help: str = "JSON output",
) -> None:
    """``--method``, ``--time-limit``, ``--seed``, ``--json`` and ``--save``, shared by the subcommands."""
    from knightcert.compare.registry import default_method, method_names

    default = default_method(problem)
    parser.add_argument(
        "--method",
        default=default if fixed_default else None,
        choices=method_names(problem),
        help=method_help or f"solving method (default: {default})",
    )
    parser.add_argument("--time-limit", type=positive_float, metavar="S", help=time_help)
    parser.add_argument("--seed", type=int, help="random seed for solvers that use one")
    parser.add_argument("--json", action="store_true", help=json_help)
    parser.add_argument(
        "--save",
        metavar="ANSWER.json",
        help="save the answer with its evidence and certificate (re-check it with 'knightcert check')",
    )
