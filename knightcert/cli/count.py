"""``--count`` and ``--all N`` of ``knightcert knights``, ``tour`` and ``path``."""

from __future__ import annotations

import argparse
from typing import Any

from knightcert.cli.options import positive_int
from knightcert.cli.session import time_left

__all__ = ["add_count_arguments", "run_count"]


def add_count_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--count`` and ``--all N`` to a subcommand; ``what`` says what is counted."""
    parser.add_argument(
        "--count",
        action="store_true",
        help=f"count {what} with three independent counters (exact search, CP-SAT's enumeration, the "
        "checker's) within --time-limit (default 10 s) and say which agreed; a counter stopped by it "
        "or by Ctrl-C gives only a lower bound",
    )
    parser.add_argument(
        "--all",
        type=positive_int,
        metavar="N",
        help="write up to N solutions, each checked, as JSON lines: answer records (the schema of --save; "
        "'knightcert check INSTANCE FILE#K' re-checks line K)",
    )


def run_count(args: argparse.Namespace, instances: list[Any]) -> int:
    """Print each instance's count (with ``--count``) and solutions (with ``--all``); exit 1 when
    counters disagree (a claim rejected), else 0 (a count, or none in time: as any command). The
    time limit is the whole command's, counted from its start (:func:`time_left`)."""
    import json

    from knightcert.counting import count
    from knightcert.problems.answers import answer_to_dict
    from knightcert.problems.checkers import certify
    from knightcert.problems.errors import InvalidArgument
    from knightcert.problems.result import Result, Status

    given = [
        name
        for name in ("json", "save", "npy", "show", "budget", "no_backtracking")
        if getattr(args, name, None)
    ]
    if given:
        raise InvalidArgument(f"--{given[0].replace('_', '-')} does not go with --count or --all")
    status = 0
    limit = 10.0 if args.time_limit is None else args.time_limit
    for instance in instances:
        tally = count(instance, keep=args.all or 0, time_limit=time_left(limit), second=args.count)
        if args.count:
            print(f"{instance.name}: {_headline(tally)}")
            print(_counters(tally))
            status = status or int(tally.disagree)
        for solution in tally.solutions:  # each checked again as it leaves, with the instance it answers
            size = len(solution) - (tally.problem == "path")
            found = Result(tally.problem, "count", Status.FEASIBLE, size, None, solution, 0.0)
            print(json.dumps(answer_to_dict(certify(instance, found), instance)))
        if any(c.note.startswith("interrupted") for c in tally.counters):
            raise KeyboardInterrupt  # after printing what was counted so far
    return status


def _headline(tally: Any) -> str:
    if tally.count is None:
        bound = tally.at_least is not None
        what = f"{tally.at_least}{' directed' * (tally.problem == 'tour')}"
        return f"no count{f'; at least {what}, a lower bound (stopped)' * bound} ({tally.convention})"
    if tally.problem == "tour":
        return f"{tally.directed} directed, {tally.undirected} undirected; {tally.convention}"
    if tally.optimum is None:  # nothing to place: fixed knights that attack each other; S unreachable
        return f"{tally.count} {tally.convention} (none exists)"
    return f"{tally.count} {tally.convention} ({tally.optimum}{' moves' * (tally.problem == 'path')})"


def _counters(tally: Any) -> str:
    runs = ", ".join(
        f"{c.name} {'none' if c.count is None else c.count} ({c.seconds:.2f} s{'; ' * bool(c.note)}{c.note})"
        for c in tally.counters
    )
    verdict = "counters disagree" if tally.disagree else f"agreed: {', '.join(tally.agreed) or 'none'}"
    return f"  counted by: {runs}; {verdict}"
