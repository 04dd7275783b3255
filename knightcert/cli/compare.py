"""``knightcert compare``: heuristics against exact methods on suites of instances.

The experiment comes from the flags, from an experiment file
(``--experiment study.toml``) or from a report (``--rerun report.json``);
either way the report records it in full.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import Any

from knightcert.cli.commands import HELP
from knightcert.cli.options import (
    add_memory_limit,
    add_option_argument,
    answers_folder,
    dask_address,
    method_options,
    positive_float,
    repeat_count,
    seed_value,
    split_methods,
    square,
    worker_count,
)
from knightcert.compare.suites import SUITES
from knightcert.problems.cores import THREADS_ENV, thread_share
from knightcert.problems.errors import InvalidInstance
from knightcert.registry import method_names, problem_names

__all__ = [
    "DASK_CONNECT_SECONDS",
    "DEFINING",
    "Progress",
    "add_parser",
    "check_methods_on_workers",
    "check_paths",
    "connect_dask",
    "experiment_from_args",
    "run",
]

#: Flags that define the experiment: given with --experiment or --rerun they would contradict it.
DEFINING = (
    "problem",
    "suite",
    "sizes",
    "seeds",
    "holes",
    "instances",
    "torus",
    "closed",
    "start",
    "end",
    "all_starts",
    "methods",
    "option",
    "time_limit",
    "repeat",
    "seed",
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "compare",
        help=HELP["compare"],
        description="Run methods side by side on built-in suites or given instances; every answer is "
        "checked; gaps are measured against the best proven value. The report records the full "
        "experiment, so that --rerun REPORT.json repeats it.",
    )
    parser.add_argument("problem", nargs="?", choices=problem_names(), help="which problem")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--experiment", metavar="FILE.toml", help="read the experiment from a TOML file")
    source.add_argument("--rerun", metavar="REPORT.json", help="run again the experiment a report records")
    parser.add_argument(
        "--trust-methods",
        action="store_true",
        help="with --rerun: run the report's foreign methods (exec:, module:function) after checking "
        "that their files still hold the recorded SHA-256",
    )
    parser.add_argument("--suite", choices=SUITES, help="built-in suite (default: seed)")
    parser.add_argument(
        "--sizes",
        metavar="SPEC",
        help="sizes of the scaling and random suites: A..B (6 geometric sizes from A to B, rounded; "
        "the sizes chosen are printed), A..B:K (K geometric), A..B:K:linear, or a list of sides and "
        "rectangles N1,RxC,...",
    )
    fields = parser.add_argument_group("instances (as the solve commands build them)")
    fields.add_argument("--torus", action="store_true", default=None, help="boards wrap on both axes")
    fields.add_argument("--closed", action="store_true", default=None, help="closed tours")
    fields.add_argument("--start", type=square, metavar="R,C", help="first square of every tour")
    fields.add_argument("--end", type=square, metavar="R,C", help="last square of every open tour")
    fields.add_argument(
        "--all-starts",
        action="store_true",
        default=None,
        help="tours from every start square (--suite starts)",
    )
    parser.add_argument("--seeds", metavar="K|A..B|S1,S2", help="generator seeds of the random suites")
    parser.add_argument(
        "--holes", type=float, metavar="P", help="fraction of blocked squares (random suites)"
    )
    parser.add_argument("--instances", nargs="+", metavar="FILE", help="instance files instead of a suite")
    parser.add_argument(
        "--methods",
        action="append",
        metavar="M1,M2",
        help="comma-separated methods (default: all built-in); repeat it for more; a method can be "
        "package.module:function or 'exec:COMMAND' (one per --methods)",
    )
    parser.add_argument(
        "--upload",
        action="append",
        metavar="FILE.py",
        help="with --dask: ship this one-file module to the workers (for --methods FILE:function)",
    )
    parser.add_argument(
        "--time-limit", type=positive_float, metavar="S", help="seconds per run for the methods"
    )
    add_option_argument(parser)
    add_memory_limit(parser)
    parser.add_argument(
        "--repeat", type=repeat_count, metavar="K", help="timed runs of each pair (default 1)"
    )
    parser.add_argument(
        "--seed", type=seed_value, metavar="N", help="base seed; each run's seed is derived from it"
    )
    parser.add_argument(
        "--workers", type=worker_count, metavar="K", help="local worker processes (default 2)"
    )
    parser.add_argument(
        "--dask",
        type=dask_address,
        metavar="tcp://HOST:PORT|local:N",
        help="run on a Dask distributed scheduler instead; local:N starts a local cluster of N "
        "single-threaded worker processes for the run and closes it after",
    )
    parser.add_argument("--data", metavar="DIR", help="folder of the seed instances (default ../shared/data)")
    parser.add_argument(
        "--out",
        nargs="+",
        metavar="FILE",
        help="reports: .json (resumes the same experiment), .csv, .md, .parquet",
    )
    parser.add_argument(
        "--new-file",
        action="store_true",
        help="when a --out report holds a different experiment, write NAME-2.EXT beside it instead",
    )
    parser.add_argument("--plot", metavar="FILE.png", help="gap and time against size (needs matplotlib)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    parser.add_argument(
        "--answers", type=answers_folder, metavar="DIR", help="save every run's answer file in DIR"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.set_defaults(run=run)


def experiment_from_args(args: argparse.Namespace):
    """The experiment the flags (or ``--experiment``, ``--rerun``) describe.

    Raises
    ------
    InvalidInstance
        Contradicting flags, a missing problem, or a bad value.
    """
    from knightcert.compare.experiment import experiment_from_dict, experiment_from_report, read_experiment

    if args.experiment or args.rerun:
        given = [name for name in DEFINING if getattr(args, name) is not None]
        if given:
            flag = given[0].replace("_", "-")
            what = "--experiment" if args.experiment else "--rerun"
            raise InvalidInstance(f"{what} fixes the experiment: drop {flag} (or edit the experiment file)")
        experiment = (
            read_experiment(args.experiment) if args.experiment else experiment_from_report(args.rerun)
        )
    else:
        if args.problem is None:
            raise InvalidInstance("give a problem, --experiment FILE.toml or --rerun REPORT.json")
        record: dict[str, Any] = {
            "problem": args.problem,
            "suites": [_suite(args)],
            "methods": [
                {"name": name, "options": options} if options else name
                for options in [method_options(args.option)]
                for name in split_methods(args.methods) or method_names(args.problem)
            ],
            "repeat": args.repeat or 1,
        }
        # --time-limit and --seed when given (experiment_from_dict checks them)
        optional = {key: getattr(args, key) for key in ("time_limit", "seed")}
        record |= {key: value for key, value in optional.items() if value is not None}
        experiment = experiment_from_dict(record, "command line")
    if args.workers is not None:
        from dataclasses import replace

        experiment = replace(experiment, workers=args.workers)
    return experiment


def _suite(args: argparse.Namespace) -> dict[str, Any]:
    """The suite the flags describe: files, or a generated suite with its sizes, seeds, holes and
    the instance fields of the solve commands (``--torus``, ``--closed``, ``--start``, ``--end``)."""
    from knightcert.compare.experiment import parse_seeds
    from knightcert.compare.suites import parse_sizes

    if args.instances and (args.suite or args.sizes or args.seeds or args.holes is not None):
        raise InvalidInstance("give --instances or --suite/--sizes/--seeds/--holes, not both")
    if args.all_starts and args.suite not in (None, "starts"):
        raise InvalidInstance(f"--all-starts is the starts suite: drop --suite {args.suite}")
    suite: dict[str, Any] = {"suite": "files", "files": args.instances} if args.instances else {}
    suite.update((k, getattr(args, k)) for k in ("torus", "closed", "start", "end") if getattr(args, k))
    if args.instances:
        return suite
    suite["suite"] = "starts" if args.all_starts else args.suite or ("scaling" if args.sizes else "seed")
    given = {
        "sizes": parse_sizes(args.sizes) if args.sizes else None,
        "seeds": parse_seeds(args.seeds) if args.seeds else None,
        "holes": args.holes,
    }
    return suite | {key: value for key, value in given.items() if value is not None}


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


def local_cluster(address: str):
    """A client of a fresh local cluster for ``local:N``: N worker processes of one thread each,
    CP-SAT told to use the usable CPUs / N threads (``KNIGHTCERT_THREADS``), no dashboard; the client
    started the cluster, so closing the client closes it."""
    from distributed import Client

    workers = int(address.partition(":")[2])
    return Client(
        n_workers=workers,
        env={THREADS_ENV: thread_share(workers)},  # in the workers' environment, never in ours
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=50,
    )


def check_paths(args: argparse.Namespace) -> None:
    """Every ``--out`` writable with a known ending (an existing one a readable report), ``--plot``
    writable: checked before any work."""
    from knightcert.compare.report import FORMATS, read_rows
    from knightcert.compare.report_file import check_output_path, check_plot_path

    for path in args.out or []:
        check_output_path(path, FORMATS, "--out")
        if os.path.lexists(path) and not getattr(args, "new_file", False):
            read_rows(path)  # a report that cannot be read is refused here, never overwritten
    if args.plot:
        check_plot_path(args.plot)


def run(args: argparse.Namespace) -> int:
    from knightcert.compare.comparison import instance_records, run_experiment

    check_paths(args)  # before any work: a bad --out or --plot must not cost the runs
    _check_optional_packages(args)
    if args.rerun:  # before any method is resolved: resolving module:function imports (runs) it
        _check_received(args.rerun, args.trust_methods)
    uploads = _uploads(args)
    experiment = experiment_from_args(args)
    items = experiment.build(Path(args.data) if args.data else None)
    header = {"experiment": experiment.to_dict(), "instances": instance_records(items)}
    if args.rerun:
        _check_rerun(args.rerun, header)
    outputs, finished = _outputs(args, header, items)
    client = _dask_client(args, experiment, uploads) if args.dask else None
    executor = None if client is None else client.get_executor()
    total = len(items) * len(experiment.methods) * experiment.repeat
    command = ["knightcert", *getattr(args, "argv", sys.argv[1:])]
    interrupted, rows = False, []
    with Progress(experiment.problem, total, done=finished, quiet=args.quiet) as progress:
        try:
            rows = run_experiment(
                experiment,
                items=items,
                executor=executor,
                out=outputs,
                answers=args.answers,
                on_row=progress.advance,
                command=command,
            )
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if client is not None:
                client.close()
    if interrupted:
        from knightcert.cli.session import interruption

        code, word = interruption()
        saved = f"; finished runs are in {', '.join(map(str, outputs))}" if outputs else ""
        print(f"knightcert: {word}{saved}", file=sys.stderr)
        if not outputs and progress.rows:  # kept nowhere else: the finished runs shown (their gaps so far)
            _show(args, experiment, progress.rows, header)
        return code
    _say_sizes(args, experiment)
    _show(args, experiment, rows, header)
    return 1 if any(not r.verified and r.status != "UNKNOWN" for r in rows) else 0


def _dask_client(args: argparse.Namespace, experiment: Any, uploads: list[str]) -> Any:
    """The Dask client of ``--dask``, the ``--upload`` files shipped and every method found on
    every worker (closed again on any failure)."""
    try:
        from distributed import Client
    except ImportError:
        raise InvalidInstance("--dask needs the dask extra: pip install 'knightcert[dask]'") from None
    local = args.dask.startswith("local:")
    client = local_cluster(args.dask) if local else connect_dask(Client, args.dask)
    try:
        for path in uploads:
            client.upload_file(path)
        check_methods_on_workers(client, experiment.problem, [m.name for m in experiment.methods])
    except BaseException:
        client.close()
        raise
    # the client logs the loss of its scheduler itself; the command says it in one line (ExecutorLost)
    logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
    return client


#: Above this many runs the table shows a row per method, not a row per run.
ROWS_SHOWN = 200


def _show(args: argparse.Namespace, experiment: Any, rows: list[Any], header: dict[str, Any]) -> None:
    """The plot, and the rows as JSON or as a table with one line of counts."""
    import json

    from knightcert.cli.output import table_console
    from knightcert.compare.harness import median_of_repeats
    from knightcert.compare.summary import method_summary_table, rows_table

    if args.plot:
        from knightcert.compare.plots import plot_rows
        from knightcert.compare.statistics import instance_dimensions

        plot_rows(rows, args.plot, instances=instance_dimensions(header))
    if args.json:
        json.dump([row.as_dict() for row in rows], sys.stdout)
        print()
    else:
        out = table_console()
        shown = rows if experiment.repeat == 1 else median_of_repeats(rows)
        title = f"knightcert compare {experiment.problem}" + (
            f" (median time of {experiment.repeat} runs)" if experiment.repeat > 1 else ""
        )
        if len(shown) <= ROWS_SHOWN:
            out.print(rows_table(shown, title=title))
        else:  # thousands of lines are read by nobody (printing 20,000 cost 15 s): a row per method
            out.print(method_summary_table(rows, title=f"{title}: {len(shown)} runs, a row per method"))
            print("every run: --out FILE (then knightcert report FILE), or --json")
        rejected = sum(1 for r in rows if not r.verified and r.status != "UNKNOWN")
        failed = sum(1 for r in rows if r.status == "UNKNOWN" and r.error)
        print(
            f"{sum(r.verified for r in rows)} of {len(rows)} answers verified"
            + (f"; {rejected} rejected by the checker" if rejected else "")
            + (f"; {failed} runs without an answer" if failed else "")
            + (" (see the status column)" if rejected or failed else "")
        )


def _say_sizes(args: argparse.Namespace, experiment: Any) -> None:
    """After the runs, on stderr: which sizes a plain ``--sizes A..B`` chose (six geometric ones)."""
    text = args.sizes or ""
    if ":" in text or ".." not in text or args.quiet or args.experiment or args.rerun:
        return
    sizes = experiment.suites[0].sizes
    print(
        f"knightcert: --sizes {text} means {len(sizes)} geometric sizes: {', '.join(map(str, sizes))} "
        "(A..B:K:linear or a list N1,N2,... for others)",
        file=sys.stderr,
    )


def _uploads(args: argparse.Namespace) -> list[str]:
    """``--upload`` files: one-file Python modules, which become importable here too.

    Raises
    ------
    InvalidInstance
        ``--upload`` without ``--dask``, or a file that is not a readable ``.py`` file.
    """
    files = args.upload or []
    if files and not args.dask:
        raise InvalidInstance("--upload ships a module to Dask workers: use it with --dask")
    for path in files:
        if not path.endswith(".py") or not os.path.isfile(path):
            raise InvalidInstance(f"--upload: {path!r} is not a Python file (FILE.py)")
        folder = os.path.dirname(os.path.abspath(path))
        if folder not in sys.path:
            sys.path.append(folder)  # resolved here before it runs there
    return files


def check_methods_on_workers(client: Any, problem: str, names: list[str]) -> None:
    """Every foreign method can be found on every Dask worker: a program exists and can be run
    there, a module path imports there.

    Raises
    ------
    InvalidInstance
        One line naming the method, what is wrong and on which worker.
    """
    from knightcert.program import PREFIX, parse_command, program_missing
    from knightcert.registry import REGISTRY, import_problem

    for name in names:
        if name in REGISTRY[problem]:
            continue
        if name.startswith(PREFIX):
            answers = client.run(program_missing, parse_command(name)[0])
        elif ":" in name:
            answers = client.run(import_problem, name)
        else:
            continue  # registered or plug-in functions travel with the task
        bad = {worker: why for worker, why in answers.items() if why}
        if bad:
            worker, why = next(iter(bad.items()))
            more = f" (and {len(bad) - 1} more workers)" if len(bad) > 1 else ""
            raise InvalidInstance(f"--dask: method {name!r} on worker {worker}: {why}{more}")


def _check_optional_packages(args: argparse.Namespace) -> None:
    """Refuse up front (not after the runs) a Parquet report without pyarrow or a plot without matplotlib."""
    if any(Path(p).suffix.lower() == ".parquet" for p in args.out or []):
        from knightcert.compare.report import pyarrow_modules

        pyarrow_modules()
    if args.plot:
        from knightcert.compare.plots import pyplot

        pyplot()


def _check_received(report: str, trusted: bool) -> None:
    """A received report runs no foreign code unasked, nor code changed since it was written
    (:func:`knightcert.compare.received.check_received_methods`)."""
    from knightcert.compare.experiment import read_report_header
    from knightcert.compare.received import check_received_methods

    check_received_methods(report, read_report_header(report), trusted)


def _check_rerun(report: str, header: dict[str, Any]) -> None:
    """Refuse to call a run a repetition when its instances are not the recorded ones.

    Raises
    ------
    ExperimentMismatch
        The rebuilt instances differ (another generator version, a changed file).
    """
    from knightcert.compare.experiment import ExperimentMismatch, read_report_header, same_experiment

    reason = same_experiment(read_report_header(report), header)
    if reason is not None:
        raise ExperimentMismatch(f"{report}: cannot repeat the experiment exactly: {reason}")


def _outputs(args: argparse.Namespace, header: dict[str, Any], items: Any) -> tuple[list[Path], int]:
    """The report paths and the number of runs they already hold (resumed).

    A JSON report of another experiment is refused before any work, or with
    --new-file left alone and the report written beside it.
    """
    from knightcert.compare.comparison import free_path, resume_split
    from knightcert.compare.experiment import ExperimentMismatch

    chosen, finished = [], 0
    for path in (Path(p) for p in args.out or []):
        try:
            backed, others = resume_split([path], header, items)
            finished = max(finished, len(backed))
            if others:
                print(
                    f"knightcert: {path}: {len(others)} run(s) without an answer file that re-checks "
                    "(received without its answers, or edited): running them again",
                    file=sys.stderr,
                )
        except ExperimentMismatch as exc:
            if not args.new_file:
                raise
            new = free_path(path)
            print(f"knightcert: {exc.args[0].split(';')[0]}; writing {new}", file=sys.stderr)
            path = new
        chosen.append(path)
    return chosen, finished


class Progress:
    """A live bar on a terminal; one line per finished run on stderr otherwise; nothing when quiet."""

    def __init__(self, problem: str, total: int, *, done: int = 0, quiet: bool = False) -> None:
        from rich.console import Console

        from knightcert.compare.comparison import ProgressBar

        self.total, self.done, self.quiet = total, done, quiet
        self.rows: list[Any] = []  # the finished runs, shown after Ctrl-C when no report keeps them
        console = Console(stderr=True)
        live = not quiet and console.is_terminal
        self.bar = ProgressBar(problem, total, done, console, transient=True) if live else None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def advance(self, row) -> None:
        self.done += 1
        self.rows.append(row)
        if self.bar is not None:
            self.bar.advance(row)
        elif not self.quiet:
            gap = "" if row.gap is None else f" gap {100 * row.gap:.2f}%"
            print(
                f"[{self.done}/{self.total}] {row.instance} {row.method} #{row.repeat}: {row.status}"
                f"{gap} {row.time_s:.4f} s" + (f" ({row.error})" if row.error else ""),
                file=sys.stderr,
                flush=True,
            )
