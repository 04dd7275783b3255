"""``knightcert report``: statistics, plots and performance profiles of a comparison report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from knightcert.cli.commands import HELP
from knightcert.cli.options import output_file
from knightcert.problems.errors import InvalidInstance

__all__ = ["TABLE_FORMATS", "add_parser", "run"]

#: Endings ``report --output`` accepts.
TABLE_FORMATS = (".md", ".csv", ".tex", ".txt")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "report",
        help=HELP["report"],
        description="Statistics of a report written by 'knightcert compare --out': per group (default "
        "size,method) the runs, instances and repeats, answered, certified, success rate, gap mean and "
        "median over instances (repeats averaged within an instance first) with 95 %% bootstrap "
        "confidence intervals that resample instances, time median and interquartile range, peak memory. "
        "With two reports A B: each method in both, paired by instance, gap and time compared by the "
        "Wilcoxon signed-rank test (median difference, rank-biserial effect, p-value, which is better).",
    )
    parser.add_argument(
        "report", metavar="REPORT", nargs="+", help="one report (.json, .csv, .md, .parquet), or two: A B"
    )
    parser.add_argument(
        "--by",
        metavar="F1,F2",
        help="group fields among problem, instance, method, size, status, repeat, suite, holes, seed "
        "(generator seed) (default: size,method, else instance,method)",
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


def _load(name: str):
    from knightcert.compare.report import read_header, read_rows

    path = Path(name)
    if not path.exists():
        raise InvalidInstance("no such report", str(path))
    rows = read_rows(path)
    if not rows:
        raise InvalidInstance("the report holds no runs", str(path))
    return rows, read_header(path)


def run(args: argparse.Namespace) -> int:
    from knightcert.compare.statistics import default_by, instance_dimensions, parse_by, stats_table

    if len(args.report) > 2:
        raise InvalidInstance("give one report, or two reports A B to compare")
    if len(args.report) == 2:
        return _compare(args)
    rows, header = _load(args.report[0])
    by = parse_by(args.by) if args.by else default_by(rows)
    table = stats_table(rows, by, args.format, instance_dimensions(header))
    if args.plot:
        from knightcert.compare.plots import plot_rows

        plot_rows(rows, args.plot, instances=instance_dimensions(header))
    if args.profile:
        from knightcert.compare.profiles import plot_profiles

        plot_profiles(rows, args.profile, title=rows[0].problem)
    _write(args, table)
    return 0


def _write(args: argparse.Namespace, table: str) -> None:
    if args.output:
        from knightcert.compare.report_file import write_text_atomic

        write_text_atomic(args.output, table)
    else:
        sys.stdout.write(table)


def _compare(args: argparse.Namespace) -> int:
    """``knightcert report A B``: the paired tests of :mod:`knightcert.compare.paired`."""
    from knightcert.compare.paired import paired_table, paired_tests

    if args.by or args.plot or args.profile or args.format == "latex":
        raise InvalidInstance("comparing two reports takes --format md or csv and --output only")
    (a, _), (b, _) = _load(args.report[0]), _load(args.report[1])
    if a[0].problem != b[0].problem:
        raise InvalidInstance(f"the reports are of problems {a[0].problem!r} and {b[0].problem!r}")
    tests = paired_tests(a, b)
    if not tests:
        raise InvalidInstance("the two reports have no method in common")
    table = paired_table(tests, args.format)
    if args.format == "md":
        table = f"A = {args.report[0]}, B = {args.report[1]}\n\n" + table
    _write(args, table)
    return 0
