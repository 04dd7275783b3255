"""``knightcert report``: statistics, plots and performance profiles of a comparison report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from knightcert.cli.commands import HELP
from knightcert.cli.options import output_file
from knightcert.problems.errors import InvalidInstance

#: Endings ``report --output`` accepts.
TABLE_FORMATS = (".md", ".csv", ".tex", ".txt")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "report",
        help=HELP["report"],
        description="Statistics of a report written by 'knightcert compare --out': per group (default "
        "size,method) the runs, answered, certified, success rate, gap mean and median with 95 % "
        "bootstrap confidence intervals, time median and interquartile range, peak memory.",
    )
    parser.add_argument("report", metavar="REPORT", help="a report: .json, .csv, .md or .parquet")
    parser.add_argument(
        "--by", metavar="F1,F2", help="group fields (default: size,method, else instance,method)"
    )
    parser.add_argument("--format", choices=("md", "csv", "latex"), default="md", help="table format (md)")
    parser.add_argument(
        "--output",
        type=output_file(TABLE_FORMATS, "--output"),
        metavar="FILE",
        help="write the table to FILE (.md, .csv, .tex, .txt) instead of stdout",
    )
    parser.add_argument(
        "--plot",
        type=output_file((), "--plot", plot=True),
        metavar="FILE.png",
        help="gap (95 %% CI) and time (IQR) against size",
    )
    parser.add_argument(
        "--profile",
        type=output_file((), "--profile", plot=True),
        metavar="FILE.png",
        help="Dolan–Moré performance profiles: time and gap",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from knightcert.compare.report import read_rows
    from knightcert.compare.statistics import default_by, parse_by, stats_table

    path = Path(args.report)
    if not path.exists():
        raise InvalidInstance("no such report", str(path))
    rows = read_rows(path)
    if not rows:
        raise InvalidInstance("the report holds no runs", str(path))
    by = parse_by(args.by) if args.by else default_by(rows)
    table = stats_table(rows, by, args.format)
    if args.plot:
        from knightcert.compare.plots import plot_rows

        plot_rows(rows, args.plot)
    if args.profile:
        from knightcert.compare.profiles import plot_profiles

        plot_profiles(rows, args.profile, title=rows[0].problem)
    if args.output:
        from knightcert.compare.report_file import write_text_atomic

        write_text_atomic(args.output, table)
    else:
        sys.stdout.write(table)
    return 0
