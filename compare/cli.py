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
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from knightcert.problems.errors import KnightcertError

EXIT_OK = 0
EXIT_FAILED_CHECK = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143

#: The stopping signal received by this process (SIGINT unless SIGTERM arrived).
_stopped_by = signal.SIGINT


def _on_sigterm(signum: int, frame: Any) -> None:
    """SIGTERM becomes a ``KeyboardInterrupt``, so every cleanup path of Ctrl-C runs."""
    global _stopped_by
    _stopped_by = signal.SIGTERM
    raise KeyboardInterrupt


def interruption() -> tuple[int, str]:
    """Exit code and the word for the stopping signal: (130, "interrupted") or (143, "terminated")."""
    if _stopped_by == signal.SIGTERM:
        return EXIT_TERMINATED, "interrupted (SIGTERM)"
    return EXIT_INTERRUPTED, "interrupted"


def solve_each(solve: Callable[..., Any], instances: Sequence[Any], **options: Any) -> tuple[list[Any], bool]:
    """Solve the instances in order; stop at an interruption.

    Returns the results finished so far (an interrupted CP-SAT solve gives its
    best answer, kept as the last result) and whether an interrupt arrived, so
    that the caller prints what it has before exiting with :func:`interruption`.
    """
    results = []
    try:
        for instance in instances:
            results.append(solve(instance, **options))
            if results[-1].info.get("interrupted"):
                return results, True
    except KeyboardInterrupt:
        return results, True
    return results, False


class UsageError(KnightcertError):
    """Bad command-line usage (reported like any other input error)."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error on one line instead of exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message} (see --help)")


def build_parser() -> argparse.ArgumentParser:
    from knightcert.compare import (
        cli_check,
        cli_compare,
        cli_demo,
        cli_instance,
        cli_jump,
        cli_knights,
        cli_path,
        cli_report,
        cli_tour,
    )

    parser = _Parser(
        prog="knightcert",
        description="Exact and heuristic solvers for knight problems, with independent checkers.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in (
        cli_demo,
        cli_compare,
        cli_report,
        cli_path,
        cli_jump,
        cli_knights,
        cli_tour,
        cli_check,
        cli_instance,
    ):
        module.add_parser(sub)
    return parser


#: When this command started (``time.perf_counter()``): ``--time-limit`` counts from here.
_started = time.perf_counter()


def time_left(limit: float | None) -> float | None:
    """What is left of a ``--time-limit`` of ``limit`` seconds for the whole command.

    The clock starts when the command line starts, before the solvers' imports,
    so that loading OR-Tools and compiled kernels counts against the limit too.
    A spent budget still gives the method a sliver (it then answers ``UNKNOWN``
    or what it has). None stays None (no limit).
    """
    if limit is None:
        return None
    return max(limit - (time.perf_counter() - _started), 1e-3)


def main(argv: Sequence[str] | None = None, *, started: float | None = None) -> int:
    """Run the command line; return the exit code.

    ``started``: the ``time.perf_counter()`` reading when the process started
    its work (the console script passes it), from which ``--time-limit`` counts.
    """
    global _stopped_by, _started
    _started = time.perf_counter() if started is None else started
    _stopped_by = signal.SIGINT
    previous = _install(signal.SIGTERM, _on_sigterm)
    try:
        parser = _build_parser_deferring_signals()
        args = parser.parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)  # recorded by reports
        if args.command is None:
            parser.print_help()
            return EXIT_USAGE
        return int(args.run(args))
    except KnightcertError as exc:
        print(f"knightcert: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        code, word = interruption()
        print(f"knightcert: {word}", file=sys.stderr)
        return code
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug, not the user's fault: one line unless debugging
        if os.environ.get("KNIGHTCERT_DEBUG"):
            raise
        print(
            f"knightcert: internal error: {type(exc).__name__}: {exc} "
            "(set KNIGHTCERT_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
        return EXIT_FAILED_CHECK
    finally:
        if previous is not None:
            _install(signal.SIGTERM, previous)


def _build_parser_deferring_signals() -> argparse.ArgumentParser:
    """:func:`build_parser`, which imports numpy and the subcommands, with Ctrl-C and SIGTERM held
    until the imports are done: an interrupt inside a compiled module's import turns into an
    ``ImportError`` there (numpy: "PyCapsule_Import could not import module"), not an interrupt."""
    global _stopped_by
    held: list[int] = []
    previous = {signum: _install(signum, lambda number, frame: held.append(number)) for signum in _STOPS}
    try:
        parser = build_parser()
    finally:
        for signum, handler in previous.items():
            if handler is not None:
                _install(signum, handler)
    if held:
        _stopped_by = signal.SIGTERM if signal.SIGTERM in held else signal.SIGINT
        raise KeyboardInterrupt
    return parser


_STOPS = (signal.SIGINT, signal.SIGTERM)


def _install(signum: int, handler: Any) -> Any:
    """Set a signal handler from the main thread; the previous one (None off the main thread)."""
    try:
        return signal.signal(signum, handler)
    except ValueError:  # not the main thread (main() called from a library user's thread)
        return None
