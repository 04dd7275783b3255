"""argparse value types shared by the subcommands.

Every numeric option is range-checked here, at parse time, so that a bad
value is one usage line (exit 2) before any work, never an error deep inside
a solver.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from knightcert.problems.argument_checks import BOUNDS, bounded
from knightcert.problems.cores import usable_cores
from knightcert.problems.errors import InvalidArgument, KnightcertError

__all__ = [
    "SIDE_FLAGS",
    "add_board_arguments",
    "add_export_proof",
    "add_memory_limit",
    "add_option_argument",
    "add_solver_arguments",
    "answers_folder",
    "apply_memory_limit",
    "board_size",
    "dask_address",
    "memory_megabytes",
    "method_option",
    "method_options",
    "node_budget",
    "output_file",
    "player_count",
    "positive_float",
    "positive_int",
    "repeat_count",
    "seed_value",
    "shared_bound",
    "split_methods",
    "square",
    "worker_count",
]


def _parsed(kind: Callable[[str], Any], text: str, expected: str) -> Any:
    """``kind(text)``, or the argparse error "expected EXPECTED, got TEXT"."""
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {_cut(text)!r}") from None


def positive_float(text: str) -> float:
    """A number > 0 (time limits)."""
    value = _parsed(float, text, "a number")
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {_cut(text)!r}")
    from knightcert.problems.argument_checks import bounded_seconds

    return bounded_seconds(value, "time limit", "the time limit", error=argparse.ArgumentTypeError)


def positive_int(text: str) -> int:
    """A whole number >= 1 (sizes)."""
    value = _parsed(int, text, "a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {_cut(text)!r}")
    return value


def shared_bound(name: str) -> Callable[[str], int]:
    """An argparse type checking a whole number against the shared bound ``name``
    (:func:`knightcert.problems.argument_checks.bounded`: same range, same message)."""

    def parse(text: str) -> int:
        value = _parsed(int, text, "a whole number")
        try:
            return bounded(value, name)
        except InvalidArgument as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = name
    return parse


seed_value = shared_bound("seed")
node_budget = shared_bound("node budget")
worker_count = shared_bound("workers")
repeat_count = shared_bound("repeat")
player_count = shared_bound("players")
board_size = shared_bound("size")
memory_megabytes = shared_bound("memory limit")


def dask_address(text: str) -> str:
    """``tcp://host:port`` (or ``tls://``) of a Dask scheduler, port in 1..65535, or ``local:N``:
    a local cluster of N single-threaded worker processes, N at most the usable cores."""
    from urllib.parse import urlsplit

    if text.startswith("local:"):
        count = text.partition(":")[2]
        cores = usable_cores()
        if not count.isdigit() or not 1 <= int(count) <= cores:
            raise argparse.ArgumentTypeError(
                f"expected local:N with N in 1..{cores} (the usable cores: no oversubscription), "
                f"got {_cut(text)!r}"
            )
        return f"local:{int(count)}"

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

    def pair(whole: str) -> tuple[int, int]:
        r, c = (int(p) for p in whole.split(","))
        return r, c

    return _parsed(pair, text, "ROW,COL (two whole numbers)")


def visit(text: str) -> tuple[int, int, int]:
    """``R,C@K``: square R,C is the K-th of the tour (from 1)."""
    step = _parsed(lambda whole: int(whole.partition("@")[2]), text, "ROW,COL@STEP")
    return (*square(text.partition("@")[0]), step)


def move(text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """``R,C:R,C``: the move between two squares."""
    a, colon, b = text.partition(":")
    if not colon:
        raise argparse.ArgumentTypeError(f"expected ROW,COL:ROW,COL, got {_cut(text)!r}")
    return (square(a), square(b))


#: Each problem's side constraints on the command line: (flag, field, type, metavar, help).
SIDE_FLAGS: dict[str, list[tuple[str, str, Callable[[str], Any], str, str]]] = {
    "knights": [("--fixed", "fixed", square, "R,C", "a knight must stand on R,C")],
    "tour": [
        ("--visit", "visits", visit, "R,C@K", "square R,C is the K-th of the tour (from 1)"),
        ("--forbid-move", "forbidden_moves", move, "R,C:R,C", "the tour must not take this move"),
        ("--require-move", "required_moves", move, "R,C:R,C", "the tour must take this move"),
    ],
    "path": [("--via", "via", square, "R,C", "the path passes through R,C (in the order given)")],
}


def add_side_arguments(parser: argparse.ArgumentParser, problem: str) -> None:
    """The problem's side constraints (:mod:`knightcert.problems.side_constraints`), each repeatable."""
    for flag, dest, kind, metavar, text in SIDE_FLAGS[problem]:
        repeatable: dict[str, Any] = {"action": "append", "default": [], "help": f"{text}; repeatable"}
        parser.add_argument(flag, dest=dest, type=kind, metavar=metavar, **repeatable)


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
        "--seed", type=seed_value, help=f"random seed for solvers that use one (0..{BOUNDS['seed'][1]})"
    )
    parser.add_argument("--json", action="store_true", help=json_help)
    add_option_argument(parser)
    add_memory_limit(parser)
    parser.add_argument(
        "--save",
        type=output_file((".json",), "--save"),
        metavar="ANSWER.json",
        help="save the answer with its evidence and certificate (re-check it with 'knightcert check')",
    )


def add_export_model(parser: argparse.ArgumentParser) -> None:
    """``--export-model FILE``: write the instance's exact CP-SAT model (``knightcert.model``) and stop."""
    parser.add_argument(
        "--export-model",
        type=output_file((".pbtxt", ".txt"), "--export-model"),
        metavar="MODEL.pbtxt",
        help="write the exact CP-SAT model as text proto (OR-Tools: text_format.Parse into "
        "CpModelProto) and stop without solving (docs/models.md)",
    )


def export_model(path: str, instance: object) -> int:
    """Write ``instance``'s CP-SAT model to ``path`` and say so on one line; the exit code (0)."""
    from knightcert.solving import model

    built = model(instance)
    built.export(path)
    proto = built.cp.proto
    size = f"{len(proto.variables)} variables, {len(proto.constraints)} constraints"
    print(f"{getattr(instance, 'name', '')}: CP-SAT model written to {path} ({size})")
    return 0


def add_export_proof(parser: argparse.ArgumentParser) -> None:
    """``--export-proof DIR`` (knights, check): the clausal proof as standard files."""
    parser.add_argument(
        "--export-proof",
        type=proof_folder,
        metavar="DIR",
        help="knights: where an answer rests on a clausal proof, write DIR/formula.cnf (DIMACS), "
        "DIR/proof.lrat (text LRAT) and DIR/README (the commands of two other checkers)",
    )


def add_memory_limit(parser: argparse.ArgumentParser) -> None:
    """``--memory-limit MB``: the memory of a worker's processes (see
    :mod:`knightcert.workers`); past it the method is killed and its answer says "memory limit"."""
    low, high = BOUNDS["memory limit"]
    parser.add_argument(
        "--memory-limit",
        type=memory_megabytes,
        metavar="MB",
        help=f"memory of a foreign method's processes, in MB ({low}..{high}; "
        "default: 75%% of this machine's memory); past it the method is killed",
    )


def apply_memory_limit(megabytes: int | None) -> None:
    """Pass ``--memory-limit`` to the methods (and the workers forked to run them)."""
    if megabytes is not None:
        from knightcert.workers import MEMORY_LIMIT_VARIABLE

        os.environ[MEMORY_LIMIT_VARIABLE] = str(megabytes)


def output_file(formats: tuple[str, ...], option: str, plot: bool = False) -> Callable[[str], str]:
    """An argparse type: a file to write, checked before any work (its ending one of ``formats``,
    its folder existing and writable, no folder in its place; ``plot``: matplotlib installed)."""

    def parse(text: str) -> str:
        from knightcert.compare.report_file import check_output_path, check_plot_path

        try:
            check_plot_path(text) if plot else check_output_path(text, formats, option)
        except KnightcertError as exc:
            message = str(exc).replace(f"{option}: ", "").replace(f"{option} ", "")  # argparse names it
            raise argparse.ArgumentTypeError(message) from None
        return text

    parse.__name__ = option
    return parse


def answers_folder(text: str) -> str:
    """``--answers DIR``: a folder that exists or can be made, writable, checked before any work."""
    if not text:
        raise argparse.ArgumentTypeError("expected a folder")
    if os.path.exists(text):
        if not os.path.isdir(text):
            raise argparse.ArgumentTypeError(f"{_cut(text)}: exists and is not a folder")
        folder = text
    else:
        folder = os.path.dirname(os.path.abspath(text))
        if not os.path.isdir(folder):
            raise argparse.ArgumentTypeError(f"{_cut(text)}: folder {_cut(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{_cut(text)}: cannot write into folder {_cut(folder)!r}")
    return text


def proof_folder(text: str) -> str:
    """``--export-proof DIR``: :func:`answers_folder`, none of the proof's files in it (before any work)."""
    from knightcert.problems.checkers.lrat_files import occupied

    if (taken := occupied(answers_folder(text))) is not None:
        raise argparse.ArgumentTypeError(f"{_cut(text)}: {taken} exists: export into another folder")
    return text


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """``--option NAME=VALUE``, repeatable: an option of the method, checked against its
    specification (:mod:`knightcert.specs`) before any work."""
    parser.add_argument(
        "--option",
        action="append",
        type=method_option,
        metavar="NAME=VALUE",
        help="an option of the method, repeatable (e.g. workers=1, formulation=circuit, "
        "backtracking=false; VALUE is read as JSON, else as text), checked against its specification",
    )


def method_option(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` -> ``(NAME, VALUE)``: VALUE read as JSON (``5``, ``true``, ``[[0, 1]]``),
    ``True``/``False`` as booleans, anything else as text.

    Examples
    --------
    >>> method_option("workers=1"), method_option("hint=[[0, 1]]"), method_option("formulation=circuit")
    (('workers', 1), ('hint', [[0, 1]]), ('formulation', 'circuit'))
    """
    import json

    name, equals, value = text.partition("=")
    if not equals or not name.strip().isidentifier():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    if value in ("True", "False"):
        return name.strip(), value == "True"
    try:
        return name.strip(), json.loads(value)
    except ValueError:
        return name.strip(), value


def method_options(pairs: list[tuple[str, object]] | None) -> dict[str, object]:
    """``--option`` values as a dictionary; a name given twice is an InvalidArgument."""
    options: dict[str, object] = {}
    for name, value in pairs or ():
        if name in options:
            raise InvalidArgument(f"--option {name} is given twice")
        options[name] = value
    return options


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
