"""The ``knightcert`` command line.

Every subcommand takes ``--json``. Bad input never shows a traceback: the
error is one line on stderr and the exit code is 2; nothing is written to
stdout before all inputs have been read and checked.

Ctrl-C (SIGINT) and SIGTERM stop the work the same way: the running solve
returns its best answer so far (CP-SAT) or is abandoned, worker processes are
killed, a ``--out`` report keeps every finished run, one line
``knightcert: interrupted`` goes to stderr and the exit code is 130 (SIGINT)
or 143 (SIGTERM).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import signal
import sys
import typing as _typing
from collections.abc import Sequence
from typing import Any

from knightcert.cli import session
from knightcert.cli.commands import EXIT_CODES, EXIT_SUMMARY, HELP
from knightcert.cli.options import apply_memory_limit
from knightcert.cli.text import printable
from knightcert.problems.errors import KnightcertError

__all__ = ["COMMAND_MODULES", "build_parser", "main"]

#: command -> its module, imported only when that command runs (``HELP`` has the order and help lines)
COMMAND_MODULES = {
    "demo": "knightcert.cli.demo",
    "compare": "knightcert.cli.compare",
    "report": "knightcert.cli.report",
    "path": "knightcert.cli.path",
    "jump": "knightcert.cli.jump",
    "knights": "knightcert.cli.knights",
    "tour": "knightcert.cli.tour",
    "check": "knightcert.cli.check",
    "instance": "knightcert.cli.instance",
}


def _help_formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's own, as wide as ``shutil.get_terminal_size`` reads the terminal, without importing
    shutil (and with it bz2 and lzma: 3 ms of every command's start)."""
    columns, stdout = 0, sys.__stdout__  # no standard output, or not a terminal: 80
    with contextlib.suppress(ValueError):
        columns = int(os.environ.get("COLUMNS", 0))
    with contextlib.suppress(AttributeError, ValueError, OSError):
        columns = columns if columns > 0 or stdout is None else os.get_terminal_size(stdout.fileno()).columns
    return argparse.HelpFormatter(prog, width=(columns if columns > 0 else 80) - 2)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error on one line instead of exiting, help as wide as the
    terminal (:func:`_help_formatter`)."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **{"formatter_class": _help_formatter, **options})

    @property
    def version(self) -> str:  # what ``--version`` prints, read then: the metadata costs 30-60 ms
        return f"knightcert {importlib.import_module('knightcert').__version__}"

    def error(self, message: str) -> _typing.NoReturn:
        # main() prints "knightcert: error: ": name the subcommand only once
        where = self.prog.removeprefix("knightcert").strip()
        if message.endswith("expected one argument"):  # argparse reads "--fixed -1,0" as two options
            message += f" (a value that starts with '-' is given as {message.split()[1].rstrip(':')}=VALUE)"
        raise session.UsageError(f"{where}: {message} (see --help)" if where else f"{message} (see --help)")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser of the command line.

    Only the command named in ``argv`` is imported and given its options; the
    others are listed with their help line when no command is named (all of them
    when ``argv`` is None).
    """
    chosen = _command_in(argv)
    parser = _Parser(
        prog="knightcert",
        description="Exact and heuristic solvers for knight problems, with independent checkers.",
        epilog=EXIT_SUMMARY,
    )
    parser.add_argument("--version", action="version")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, help_line in HELP.items():
        if argv is None or name == chosen:
            importlib.import_module(COMMAND_MODULES[name]).add_parser(sub)
            sub.choices[name].epilog = f"exit codes: {EXIT_CODES[name]}"
        elif chosen not in HELP:  # the list of commands (--help) or what a misspelt one could be
            sub.add_parser(name, help=help_line)
    return parser


def _command_in(argv: Sequence[str] | None) -> str | None:
    """The subcommand ``argv`` names (its first word that is not an option), if any."""
    for word in argv or ():
        if not word.startswith("-"):
            return word
        if word == "--":
            break
    return None


def main(
    argv: Sequence[str] | None = None, *, started: float | None = None, own_process: bool = False
) -> int:
    """Run the command line; return the exit code.

    ``started``: the ``time.perf_counter()`` reading when the process started
    its work (the console script passes it), from which ``--time-limit`` counts.
    ``own_process``: the process is the command line's (the console script and
    ``python -m knightcert`` say so): numpy is loaded with one OpenBLAS thread and the
    command's modules without garbage collection (then frozen: no later collection traverses
    them); a program calling ``main`` keeps numpy's threads and its own collector as they are.
    """
    session.start(started)
    argv = list(sys.argv[1:] if argv is None else argv)
    if sys.stdout is None:  # started with standard output closed (``>&-``): nowhere to answer
        closed = "knightcert: error: standard output is closed; redirect it (to a file or /dev/null)"
        if sys.stderr is not None:
            print(closed, file=sys.stderr)
        return session.EXIT_USAGE
    previous = {signum: _install(signum, session.on_signal) for signum in _STOPS}
    memory = os.environ.get("KNIGHTCERT_MEMORY_LIMIT")  # set by --memory-limit for the workers
    try:
        parser = _build_parser_deferring_signals(argv, own_process)
        args = parser.parse_args(argv)
        args.argv = argv  # recorded by reports
        apply_memory_limit(getattr(args, "memory_limit", None))
        if args.command is None:
            parser.print_help()
            return session.EXIT_USAGE
        return int(args.run(args))
    except KnightcertError as exc:
        print(printable(f"knightcert: error: {exc}"), file=sys.stderr)
        return session.EXIT_USAGE
    except KeyboardInterrupt:
        code, word = session.interruption()
        print(f"knightcert: {word}", file=sys.stderr)
        return code
    except BrokenPipeError:
        return session.EXIT_OK
    except MemoryError:
        print("knightcert: error: out of memory", file=sys.stderr)
        return session.EXIT_OUT_OF_MEMORY
    except Exception as exc:  # a bug, not the user's fault: one line unless debugging
        if session.stop_requested():  # an interrupt that landed inside an import or a library
            code, word = session.interruption()
            print(f"knightcert: {word}", file=sys.stderr)
            return code
        if os.environ.get("KNIGHTCERT_DEBUG"):
            raise
        print(
            f"knightcert: internal error: {type(exc).__name__}: {exc} "
            "(set KNIGHTCERT_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
        return session.EXIT_CRASHED
    finally:
        for signum, handler in previous.items():
            if handler is not None:
                _install(signum, handler)
        if not own_process and memory is None:  # a program calling main: its environment as it was
            os.environ.pop("KNIGHTCERT_MEMORY_LIMIT", None)
        elif not own_process and memory is not None:
            os.environ["KNIGHTCERT_MEMORY_LIMIT"] = memory


def _build_parser_deferring_signals(argv: Sequence[str], own_process: bool) -> argparse.ArgumentParser:
    """:func:`build_parser`, which imports the chosen command, with Ctrl-C and SIGTERM held
    until the imports are done: an interrupt inside a compiled module's import turns into an
    ``ImportError`` there (numpy: "PyCapsule_Import could not import module"), not an interrupt."""
    held: list[int] = []
    previous = {signum: _install(signum, lambda number, frame: held.append(number)) for signum in _STOPS}
    # numpy's import starts an OpenBLAS thread per core (25-35 ms of CPU on 2 cores); knightcert
    # does no BLAS work, so one thread unless the user said otherwise; the methods' processes,
    # started later, get the user's environment as it was
    users = os.environ.get("OPENBLAS_NUM_THREADS")
    # and no garbage collection while importing: the imports make no garbage, yet numpy's alone
    # ran 33 collections (8-10 ms of CPU); what they made is then frozen, never traversed again
    if own_process:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        gc.disable()
    try:
        parser = build_parser(argv)
    finally:
        if own_process:
            gc.freeze()
            gc.enable()
            if users is None:
                del os.environ["OPENBLAS_NUM_THREADS"]
        for signum, handler in previous.items():
            if handler is not None:
                _install(signum, handler)
    if held:
        session.stopped_by(signal.SIGTERM if signal.SIGTERM in held else signal.SIGINT)
        raise KeyboardInterrupt
    return parser


_STOPS = (signal.SIGINT, signal.SIGTERM)


def _install(signum: int, handler: Any) -> Any:
    """Set a signal handler from the main thread; the previous one (None off the main thread)."""
    try:
        return signal.signal(signum, handler)
    except ValueError:  # not the main thread (main() called from a library user's thread)
        return None
