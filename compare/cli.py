"""The ``knightcert`` command line.

Every subcommand takes ``--json``. Bad input never shows a traceback: the
error is one line on stderr and the exit code is 2; nothing is written to
stdout before all inputs have been read and checked.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from knightcert.problems.errors import KnightcertError

EXIT_OK = 0
EXIT_FAILED_CHECK = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(KnightcertError):
    """Bad command-line usage (reported like any other input error)."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error on one line instead of exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message} (see --help)")


def build_parser() -> argparse.ArgumentParser:
    from knightcert.compare import (
        cli_compare,
        cli_demo,
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
    for module in (cli_demo, cli_compare, cli_report, cli_path, cli_jump, cli_knights, cli_tour):
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    try:
        parser = build_parser()
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
        print("knightcert: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
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
