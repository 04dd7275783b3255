"""``knightcert compare``: heuristics against exact methods on suites of instances."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from knightcert.compare.arguments import dask_address, positive_float, repeat_count, worker_count
from knightcert.compare.registry import method_names, problems
from knightcert.compare.suites import SUITES, SuiteItem, build_suite, parse_sizes
from knightcert.problems.errors import InvalidInstance


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "compare",
        help="run methods side by side on a suite; gaps, times, memory, all answers checked",
        description="Run methods side by side on built-in suites or given instances; every answer is "
        "checked; gaps are measured against the best proven value.",
    )
    parser.add_argument("problem", choices=problems(), help="which problem")
    parser.add_argument("--suite", choices=SUITES, help="built-in suite (default: seed)")
    parser.add_argument("--sizes", metavar="A..B", help="size range of the scaling and random suites")
    parser.add_argument("--instances", nargs="+", metavar="FILE", help="instance files instead of a suite")
    parser.add_argument("--methods", metavar="M1,M2", help="comma-separated methods (default: all)")
    parser.add_argument(
        "--time-limit", type=positive_float, metavar="S", help="seconds per run for the methods"
    )
    parser.add_argument("--repeat", type=repeat_count, default=1, metavar="K", help="runs of each pair")
    parser.add_argument("--workers", type=worker_count, default=2, metavar="K", help="local worker processes")
    parser.add_argument(
        "--dask",
        type=dask_address,
        metavar="tcp://HOST:PORT",
        help="run on a Dask distributed scheduler instead",
    )
    parser.add_argument("--data", metavar="DIR", help="folder of the seed instances (default ../shared/data)")
    parser.add_argument("--out", metavar="FILE", help="report .csv, .json or .md (an existing .json resumes)")
    parser.add_argument("--plot", metavar="FILE.png", help="gap and time against size (needs matplotlib)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    parser.add_argument("--answers", metavar="DIR", help="save every run's answer file in DIR")
    parser.set_defaults(run=run)


def instances_from_files(problem: str, files: list[str]) -> list[SuiteItem]:
    from knightcert.problems.independent_knights import knights_instance
    from knightcert.problems.jump_game import read_jump
    from knightcert.problems.lost_knight import read_lost_knight
    from knightcert.problems.tours import tour_instance

    items = []
    for name in files:
        if problem == "path":
            inst = read_lost_knight(name)
            items.append(SuiteItem(inst, inst.board.rows))
        elif problem == "jump":
            game = read_jump(name)
            items.append(SuiteItem(game, game.rows * game.cols))
        elif problem == "knights":
            inst = knights_instance(board_file=name)
            items.append(SuiteItem(inst, inst.board.rows))
        else:
            inst = tour_instance(board_file=name)
            items.append(SuiteItem(inst, inst.board.rows))
    return items


#: Seconds to wait for a Dask scheduler before giving up.
DASK_CONNECT_SECONDS = 5


def connect_dask(client_class: type, address: str):
    """A Dask client of ``address``; an unreachable scheduler is one line after a short wait."""
    try:
        return client_class(address, timeout=DASK_CONNECT_SECONDS)
    except (OSError, TimeoutError) as exc:
        why = str(exc).splitlines()[0][:80] if str(exc) else type(exc).__name__
        raise InvalidInstance(
            f"--dask: no scheduler answered at {address} within {DASK_CONNECT_SECONDS} s ({why})"
        ) from None


def check_paths(args: argparse.Namespace) -> None:
    """``--out`` and ``--plot`` writable, an existing ``--out`` a readable report of this problem."""
    from knightcert.compare.report import FORMATS, resume_rows
    from knightcert.compare.report_file import check_output_path, check_plot_path

    if args.out:
        check_output_path(args.out, FORMATS, "--out")
        resume_rows(args.out, args.problem)
    if args.plot:
        check_plot_path(args.plot)


def run(args: argparse.Namespace) -> int:
    import json

    from knightcert.compare.comparison import run_comparison
    from knightcert.compare.harness import median_of_repeats
    from knightcert.compare.report import plot_rows
    from knightcert.compare.summary import rows_table
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    if args.instances and (args.suite or args.sizes):
        raise InvalidInstance("give --instances or --suite/--sizes, not both")
    check_paths(args)  # before any work: a bad --out or --plot must not cost the runs
    sizes = parse_sizes(args.sizes) if args.sizes else None
    if args.instances:
        items = instances_from_files(args.problem, args.instances)
    else:
        items = build_suite(args.problem, args.suite or "seed", sizes, Path(args.data) if args.data else None)
    methods = args.methods.split(",") if args.methods else method_names(args.problem)
    executor = None
    client = None
    if args.dask:
        try:
            from distributed import Client
        except ImportError:
            raise InvalidInstance("--dask needs the dask extra: pip install 'knightcert[dask]'") from None
        client = connect_dask(Client, args.dask)
        executor = client.get_executor()
    total = len(items) * len(methods) * args.repeat
    console = Console(stderr=True)
    interrupted = False
    rows = []
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task(f"compare {args.problem}", total=total)
        try:
            rows = run_comparison(
                args.problem,
                items,
                methods,
                time_limit=args.time_limit,
                repeat=args.repeat,
                workers=args.workers,
                executor=executor,
                out=args.out,
                answers=args.answers,
                on_row=lambda row: bar.update(task, advance=1, description=f"{row.instance} {row.method}"),
            )
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if client is not None:
                client.close()
    if interrupted:
        from knightcert.compare.cli import interruption

        code, word = interruption()
        saved = f"; finished runs are in {args.out}" if args.out else ""
        print(f"knightcert: {word}{saved}", file=sys.stderr)
        return code
    if args.plot:
        plot_rows(rows, args.plot)
    if args.json:
        json.dump([row.as_dict() for row in rows], sys.stdout)
        print()
    else:
        out = Console(width=None if Console().is_terminal else 120)
        shown = rows if args.repeat == 1 else median_of_repeats(rows)
        title = f"knightcert compare {args.problem}" + (
            f" (median time of {args.repeat} runs)" if args.repeat > 1 else ""
        )
        out.print(rows_table(shown, title=title))
        failed = sum(1 for r in rows if r.error)
        print(
            f"{sum(r.verified for r in rows)} of {len(rows)} answers verified"
            + (f"; {failed} runs without an answer (see error column)" if failed else "")
        )
    return 1 if any(not r.verified and r.status != "UNKNOWN" for r in rows) else 0
