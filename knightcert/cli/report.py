"""``knightcert report``: statistics, plots and performance profiles of a comparison report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from knightcert.cli.commands import HELP
from knightcert.cli.options import output_file
from knightcert.cli.text import printable
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
        "median over instances (repeats averaged within an instance first) with 95 %% confidence "
        "intervals (Student-t for the mean, order-statistic for the median; flagged under 10 instances), "
        "time median and interquartile range, peak memory. "
        "With two reports A B: each method in both, paired by instance, gap (success for tours), wall "
        "and CPU time compared by the Wilcoxon signed-rank test (median difference, rank-biserial effect, "
        "p-value, Holm-corrected p-value, which is better), with warnings when the method files, source, "
        "machine or load differ (time verdicts are then withheld).",
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
    parser.add_argument(
        "--html",
        type=output_file((".html",), "--html"),
        metavar="FILE.html",
        help="one self-contained page: tables, plots, pictures of answers, provenance (docs/pictures.md)",
    )
    parser.add_argument(
        "--answers",
        type=folder,
        metavar="DIR",
        help="--html: the answer files of 'compare --answers DIR' to draw "
        "(default: those of the report's own command)",
    )
    parser.set_defaults(run=run)


def folder(text: str) -> str:
    """``--answers``: a folder that exists, checked before any work."""
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text}: no such folder")
    return text


def _load(name: str):
    """The runs of a report with their derived figures recomputed (:mod:`knightcert.compare.audit`),
    and its header; what rests on the file as written is said on standard error."""
    from knightcert.compare.audit import audit_notes, audit_rows
    from knightcert.compare.report import read_header, read_rows

    path = Path(name)
    if not path.exists():
        raise InvalidInstance("no such report", str(path))
    rows = read_rows(path)
    if not rows:
        raise InvalidInstance("the report holds no runs", str(path))
    header = read_header(path)
    audit = audit_rows(rows, header, path.parent)
    for note in audit_notes(audit, str(path)):
        print(printable(note), file=sys.stderr)
    return audit.rows, header


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
    if args.html:
        _write_html(args, rows, header)
    _write(args, table)
    return 0


def _write_html(args: argparse.Namespace, rows, header) -> None:
    """``--html``: the page of :mod:`knightcert.compare.html_report`; pictures from ``--answers``,
    else from the folder the report's own command saved its answers in, when it is there."""
    from knightcert.compare.html_report import html_report
    from knightcert.compare.report_file import write_text_atomic

    answers = args.answers
    command = header.get("command") or []
    if answers is None and "--answers" in command[:-1]:
        answers = command[command.index("--answers") + 1]
    if answers is not None and not Path(answers).is_dir():
        answers = None
    write_text_atomic(args.html, html_report(rows, header, args.report[0], answers))


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
    from knightcert.compare.paired import ALPHA, HOLM, report_warnings

    (a, a_header), (b, b_header) = _load(args.report[0]), _load(args.report[1])
    if a[0].problem != b[0].problem:
        raise InvalidInstance(f"the reports are of problems {a[0].problem!r} and {b[0].problem!r}")
    warnings, unreliable = report_warnings(a_header, b_header, a, b)
    tests = paired_tests(a, b, unreliable=unreliable)
    if not tests:
        raise InvalidInstance("the two reports have no method in common")
    table = paired_table(tests, args.format)
    holm = HOLM.format(m=sum(t.p is not None for t in tests), alpha=ALPHA)
    if args.format == "md":
        notes = [f"warning: {w}" for w in warnings]
        if unreliable:
            notes.append(f"verdicts on {', '.join(unreliable)} withheld: not comparable (see the warnings)")
        table = "\n".join(
            [f"A = {args.report[0]}, B = {args.report[1]}", "", table.rstrip("\n"), "", holm, *notes]
        )
        table += "\n"
    else:  # the CSV stays a plain table; what qualifies it goes to stderr
        for line in (holm, *(f"warning: {w}" for w in warnings)):
            print(f"knightcert: {line}", file=sys.stderr)
    _write(args, table)
    return 0
