"""argparse value types shared by the subcommands.

Every numeric option is range-checked here, at parse time, so that a bad
value is one usage line (exit 2) before any work, never an error deep inside
a solver.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

#: Largest ``--seed`` (CP-SAT's ``random_seed`` is a 32-bit signed integer).
MAX_SEED = 2**31 - 1
#: Largest node budget (a 64-bit signed counter in the compiled searches).
MAX_BUDGET = 2**63 - 1
#: Largest ``--workers`` and ``--repeat``: beyond these a typo, not an experiment.
MAX_WORKERS = 1024
MAX_REPEAT = 100_000


def positive_float(text: str) -> float:
    """A number > 0 (time limits)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {_cut(text)!r}") from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {_cut(text)!r}")
    return value


def positive_int(text: str) -> int:
    """A whole number >= 1 (sizes)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_cut(text)!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {_cut(text)!r}")
    return value


def bounded_int(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number in ``low..high`` (``what`` names it in the message)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {_cut(text)!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be in {low}..{high}, got {_cut(text)}")
        return value

    parse.__name__ = what
    return parse


seed_value = bounded_int(0, MAX_SEED, "seed")
node_budget = bounded_int(1, MAX_BUDGET, "node budget")
worker_count = bounded_int(1, MAX_WORKERS, "worker count")
repeat_count = bounded_int(1, MAX_REPEAT, "repeat count")


def dask_address(text: str) -> str:
    """``tcp://host:port`` (or ``tls://``) of a Dask scheduler, port in 1..65535."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        port = None
        parts = None
    if parts is None or parts.scheme not in ("tcp", "tls") or not parts.hostname or port is None or port < 1:
        raise argparse.ArgumentTypeError(f"expected tcp://HOST:PORT, got {_cut(text)!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"expected tcp://HOST:PORT with nothing after, got {_cut(text)!r}")
    return text


def _cut(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def square(text: str) -> tuple[int, int]:
    """``R,C`` (0-indexed row and column)."""
    parts = text.split(",")
    try:
        r, c = (int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected ROW,COL (two whole numbers), got {_cut(text)!r}"
        ) from None
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
    time_help: str = "seconds for the whole command, shared by its instances",
    json_help: str = "JSON output",
) -> None:
    """``--method``, ``--time-limit``, ``--seed``, ``--json`` and ``--save``, shared by the subcommands."""
    from knightcert.registry import default_method, method_names

    default = default_method(problem)
    parser.add_argument(
        "--method",
        default=default if fixed_default else None,
        metavar="METHOD",
        help=(method_help or f"solving method (default: {default})")
        + f": {', '.join(method_names(problem))}; a registered or plug-in name; "
        "package.module:function; or 'exec:COMMAND' (docs/your-own-method.md)",
    )
    parser.add_argument("--time-limit", type=positive_float, metavar="S", help=time_help)
    parser.add_argument(
        "--seed", type=seed_value, help=f"random seed for solvers that use one (0..{MAX_SEED})"
    )
    parser.add_argument("--json", action="store_true", help=json_help)
    parser.add_argument(
        "--save",
        metavar="ANSWER.json",
        help="save the answer with its evidence and certificate (re-check it with 'knightcert check')",
    )


def split_methods(values: list[str] | None) -> list[str] | None:
    """``--methods`` values (the option may be repeated) as a list of method names.

    Each value is split on commas, except one that starts with ``exec:``: a
    command line is one method whatever it holds (``--methods greedy,matching
    --methods 'exec:./solver --fast'``).
    """
    if not values:
        return None
    names: list[str] = []
    for value in values:
        if value.startswith("exec:"):
            names.append(value)
        else:
            names.extend(name.strip() for name in value.split(",") if name.strip())
    return names
