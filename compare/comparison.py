"""The comparison API: methods x instances x repeats, isolated, checked, with gaps.

>>> from knightcert.compare.comparison import run_comparison
>>> from knightcert.compare.suites import build_suite
>>> rows = run_comparison("knights", build_suite("knights", "seed"), ["greedy", "matching"])
>>> [(r.instance, r.method, r.objective, round(r.gap, 3)) for r in rows if r.instance == "6x6"]
[('6x6', 'greedy', 15, 0.167), ('6x6', 'matching', 18, 0.0)]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor

from knightcert.compare.harness import Row, fill_gaps
from knightcert.compare.registry import get_method
from knightcert.compare.report import resume_rows, write_rows
from knightcert.compare.report_file import holding_report_lock
from knightcert.compare.runner import Task, run_isolated, run_with_executor
from knightcert.compare.suites import SuiteItem
from knightcert.problems.argument_checks import describe, expect_whole
from knightcert.problems.errors import InvalidArgument


def check_comparison_arguments(items: object, methods: object, repeat: object, workers: object) -> None:
    """Types of :func:`run_comparison`'s arguments (InvalidArgument naming the parameter)."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise InvalidArgument(f"items: expected a list of SuiteItem, got {describe(items)}")
    for item in items:
        if not isinstance(item, SuiteItem):
            raise InvalidArgument(f"items: expected SuiteItem entries, got {describe(item)}")
    if isinstance(methods, str) or not isinstance(methods, Sequence):
        raise InvalidArgument(f"methods: expected a list of method names, got {describe(methods)}")
    expect_whole(repeat, "repeat", 1)
    expect_whole(workers, "workers", 1)


@holding_report_lock
def run_comparison(
    problem: str,
    items: Sequence[SuiteItem],
    methods: Sequence[str],
    *,
    time_limit: float | None = None,
    repeat: int = 1,
    seed: int | None = 0,
    workers: int = 2,
    executor: Executor | None = None,
    out: str | os.PathLike[str] | None = None,
    on_row: Callable[[Row], None] | None = None,
    wall_limit: float | None = None,
    answers: str | os.PathLike[str] | None = None,
) -> list[Row]:
    """Run every method on every instance ``repeat`` times; return rows with gaps.

    Parameters
    ----------
    executor : concurrent.futures.Executor, optional
        Where to run (a Dask ``Client.get_executor()``, a process pool, ...);
        default: one fresh local process per run, ``workers`` at a time, each
        killed at its wall-clock limit.
    wall_limit : float, optional
        Seconds after which a local run is killed (default: twice the time
        limit plus 30 s, or 600 s without a time limit).
    out : path, optional
        Report written after every finished run (``.csv``, ``.json``, ``.md``),
        so an interruption keeps what finished. An existing report is resumed:
        runs already in it are not redone. One run at a time writes a report
        (an exclusive lock), each write is atomic, and a report that cannot be
        read or is of another problem is refused, never overwritten.
    answers : path, optional
        Folder where every run saves its answer file (``knightcert check`` re-checks them).

    Raises
    ------
    UnknownMethod
        A method name the problem does not have.
    InvalidReport
        ``out`` exists but is not a report of this problem.
    ReportInUse
        Another run is writing ``out``.
    """
    check_comparison_arguments(items, methods, repeat, workers)
    for method in methods:
        get_method(problem, method)  # validate names before any work
    done = resume_rows(out, problem)
    finished = {row.key for row in done}
    tasks = [
        Task(
            problem,
            item.instance,
            method,
            time_limit,
            seed,
            k,
            item.size,
            item.known_optimum,
            wall_limit,
            None if answers is None else os.fspath(answers),
        )
        for item in items
        for method in methods
        for k in range(repeat)
    ]
    known = {
        getattr(item.instance, "name", ""): item.known_optimum
        for item in items
        if item.known_optimum is not None
    }
    todo = [task for task in tasks if task.key not in finished]
    rows = list(done)
    source = run_with_executor(todo, executor) if executor is not None else run_isolated(todo, workers)
    try:
        for row in source:
            rows.append(row)
            if out is not None:
                write_rows(rows, out)
            if on_row is not None:
                on_row(row)
    finally:
        if hasattr(source, "close"):
            source.close()
        fill_gaps(rows, known)
        order = {task.key: i for i, task in enumerate(tasks)}
        rows.sort(key=lambda row: order.get(row.key, len(order)))
        if out is not None:
            write_rows(rows, out)
    return rows
