"""``knightcert demo``: every seed problem, heuristic against exact."""

from __future__ import annotations

import argparse
import json
import sys

from knightcert.cli.commands import HELP
from knightcert.problems.errors import InvalidInstance

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "demo",
        help=HELP["demo"],
        description="Run every seed problem with heuristics and exact methods; print one summary table.",
    )
    parser.add_argument(
        "--data",
        metavar="DIR",
        help="folder with lost-knight/ and jump-game/ instances (default: ../shared/data if present)",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    parser.add_argument("--detail", action="store_true", help="also print every run, one table per problem")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from knightcert.cli.output import table_console
    from knightcert.compare.demo import run_demo
    from knightcert.compare.suites import find_shared_data
    from knightcert.compare.summary import method_summary_table, rows_table

    data = find_shared_data(args.data)
    if args.data and data is None:
        raise InvalidInstance("not a folder", args.data)
    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=args.json or not console.is_terminal,
    ) as bar:
        task = bar.add_task("demo", total=None)
        rows = run_demo(
            data,
            on_row=lambda row: bar.update(task, description=f"{row.problem} {row.instance} {row.method}"),
        )
    if args.json:
        json.dump([row.as_dict() for row in rows], sys.stdout)
        print()
    else:
        out = table_console()
        if args.detail:
            for problem in dict.fromkeys(row.problem for row in rows):
                title = f"knightcert demo: {problem}, every run"
                out.print(rows_table([row for row in rows if row.problem == problem], title=title))
        out.print(
            method_summary_table(
                rows, title="knightcert demo: heuristics vs exact methods on the seed problems"
            )
        )
        proven = [r for r in rows if r.status in ("OPTIMAL", "INFEASIBLE")]
        certified = sum(r.certified for r in proven)
        print(
            f"{sum(r.verified for r in rows)} of {len(rows)} answers verified by the independent checkers; "
            f"{certified} of {len(proven)} proven answers certified"
            f"{' (the others rest on a solver proof only)' if certified < len(proven) else ''}"
            f"{'' if data else ' (no ../shared/data found: generated instances used)'}"
        )
    return 0 if all(row.verified for row in rows) else 1
