"""Running (instance, method) pairs in isolated worker processes.

Each run gets a fresh process (forked on Linux, so it starts with the
modules already loaded; a crash, a runaway solver or memory growth cannot
touch the other runs), a wall-clock limit after which it is killed, and its
peak memory measured by the operating system (``ru_maxrss``: it includes the
interpreter and libraries inherited from the parent, about 150 MB). A crash or a timeout
becomes a row with status ``UNKNOWN`` and the reason in ``error``.

Timing: the parent calls each method once on a tiny instance before forking
(loading and compiling its kernels; the seconds are kept in ``WARMED`` and
recorded by reports), and each worker calls it once more before its timed
run, so that its first call's page faults and lazy dispatch are not timed.

Any ``concurrent.futures.Executor`` can run the same tasks instead (a thread
pool, a process pool, a Dask ``Client.get_executor()``): then the method's
own time limit is the only limit, and ``peak_mb`` is the worker's peak.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import resource
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass
from typing import Any

from knightcert.compare.harness import Row, failed_row, row_from_result
from knightcert.compare.registry import get_method
from knightcert.problems.errors import KnightcertError

#: Seconds a run may take beyond its method time limit before it is killed.
GRACE_SECONDS = 30.0
#: Wall-clock limit of a run that has no method time limit.
DEFAULT_WALL_LIMIT = 600.0


@dataclass(frozen=True)
class Task:
    """One run to do."""

    problem: str
    instance: Any
    method: str
    time_limit: float | None = None
    seed: int | None = 0
    repeat: int = 0
    size: int | None = None
    known_optimum: float | int | None = None
    wall: float | None = None  # wall-clock limit; default from the time limit
    options: tuple[tuple[str, Any], ...] = ()  # keyword options of the method
    sha256: str = ""  # content hash of the instance

    @property
    def name(self) -> str:
        return getattr(self.instance, "name", str(self.instance))

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.problem, self.name, self.method, self.repeat)

    def wall_limit(self) -> float:
        if self.wall is not None:
            return self.wall
        return DEFAULT_WALL_LIMIT if self.time_limit is None else 2 * self.time_limit + GRACE_SECONDS


def run_task(task: Task) -> Row:
    """Run one task in this process and return its row (never raises for a method's failure)."""
    ensure_warm(task.problem, task.method)
    began = time.perf_counter()
    try:
        result = get_method(task.problem, task.method)(
            task.instance, time_limit=task.time_limit, seed=task.seed, **dict(task.options)
        )
        row = row_from_result(result, task.known_optimum, peak_mb=_peak_mb())
    except KnightcertError as exc:
        row = failed_row(task.problem, task.name, task.method, f"refused: {exc}", time.perf_counter() - began)
    except MemoryError:
        row = failed_row(task.problem, task.name, task.method, "out of memory", time.perf_counter() - began)
    except Exception as exc:  # a crash is reported, not lost
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{os.path.basename(last.filename)}:{last.lineno}"
        row = failed_row(
            task.problem,
            task.name,
            task.method,
            f"crash: {type(exc).__name__}: {exc} ({where})",
            time.perf_counter() - began,
        )
    return _stamp(row, task)


def _stamp(row: Row, task: Task) -> Row:
    """Copy what identifies the run from the task to its row."""
    row.size, row.repeat, row.known_optimum = task.size, task.repeat, task.known_optimum
    row.seed, row.instance_hash = task.seed, task.sha256
    return row


def _peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _child(task: Task, connection) -> None:  # pragma: no cover - runs in the worker process
    try:
        # once more in this fresh process: its first call pays for page faults and lazy
        # dispatch even when the parent compiled everything (measured: 3-10x on 1 ms runs)
        warm_up(task.problem, [task.method], again=True)
        connection.send(run_task(task))
    finally:
        connection.close()


#: (problem, method) -> seconds its warm-up took in this process (forked workers inherit it).
WARMED: dict[tuple[str, str], float] = {}


def ensure_warm(problem: str, method: str) -> None:
    """Warm ``method`` in this process unless done already (here or in the parent before forking)."""
    if (problem, method) not in WARMED:
        warm_up(problem, [method])


def warm_up(problem: str, methods: Iterable[str], *, again: bool = False) -> None:
    """Run each method once on a tiny instance in this process, so that forked
    workers inherit loaded compiled code and do not time its loading.

    The seconds each warm-up took (loading, compiling, first call) are kept in
    :data:`WARMED`; reports record them as compile time, apart from the runs.
    A method that fails on the tiny instance is still counted as warmed: its
    failure shows in its timed runs. ``again``: warm even if warmed before
    (the first warm-up's time is kept).
    """
    from knightcert.problems.independent_knights import knights_instance
    from knightcert.problems.jump_game import parse_jump
    from knightcert.problems.lost_knight import parse_lost_knight
    from knightcert.problems.tours import tour_instance

    tiny = {
        "path": lambda: parse_lost_knight("C.S\n...\n.x.\n"),
        "jump": lambda: parse_jump("2 2\n1\n1 1\n1 0\n0 0\n"),
        "knights": lambda: knights_instance(3),
        "tour": lambda: tour_instance(6, closed=True),
    }[problem]()
    for method in methods:
        if (problem, method) in WARMED and not again:
            continue
        began = time.perf_counter()
        with contextlib.suppress(Exception):  # any failure shows again in the timed run
            get_method(problem, method)(tiny, time_limit=5)
        WARMED.setdefault((problem, method), time.perf_counter() - began)


def run_isolated(tasks: Iterable[Task], workers: int = 2) -> Iterator[Row]:
    """Run each task in a fresh process, ``workers`` at a time; yield rows as they finish.

    A run past its wall-clock limit is killed (row: ``UNKNOWN``, "timeout");
    a process that dies without an answer gives "crash: exit code N".
    Closing the generator (or Ctrl-C) kills the runs still going.
    """
    context = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    pending = list(tasks)
    for problem in dict.fromkeys(task.problem for task in pending):
        warm_up(problem, dict.fromkeys(task.method for task in pending if task.problem == problem))
    running: list[tuple[Task, Any, Any, float]] = []
    try:
        while pending or running:
            while pending and len(running) < max(1, workers):
                task = pending.pop(0)
                receiver, sender = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(task, sender), daemon=True)
                process.start()
                sender.close()
                running.append((task, process, receiver, time.perf_counter()))
            time.sleep(0.005)
            still = []
            for task, process, receiver, started in running:
                elapsed = time.perf_counter() - started
                if receiver.poll():
                    try:
                        row = receiver.recv()
                    except EOFError:
                        row = None
                    process.join()
                    yield row or _died(task, process, elapsed)
                elif not process.is_alive():
                    process.join()
                    yield _died(task, process, elapsed)
                elif elapsed > task.wall_limit():
                    process.kill()
                    process.join()
                    row = failed_row(
                        task.problem,
                        task.name,
                        task.method,
                        f"timeout: killed after {elapsed:.1f} s wall clock",
                        elapsed,
                    )
                    yield _stamp(row, task)
                else:
                    still.append((task, process, receiver, started))
            running = still
    finally:
        for _, process, _, _ in running:
            process.kill()
            process.join()


def _died(task: Task, process, elapsed: float) -> Row:
    row = failed_row(
        task.problem, task.name, task.method, f"crash: worker exit code {process.exitcode}", elapsed
    )
    return _stamp(row, task)


def run_with_executor(tasks: Iterable[Task], executor: Executor) -> Iterator[Row]:
    """Run the tasks on any ``concurrent.futures.Executor``; yield rows as they finish."""
    futures = {executor.submit(run_task, task): task for task in tasks}
    for future in as_completed(futures):
        task = futures[future]
        try:
            yield future.result()
        except Exception as exc:  # the executor itself failed (lost worker, ...)
            row = failed_row(task.problem, task.name, task.method, f"crash: {type(exc).__name__}: {exc}", 0.0)
            yield _stamp(row, task)


def run_tasks(
    tasks: list[Task],
    *,
    workers: int = 2,
    executor: Executor | None = None,
    on_row: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Run all tasks (isolated processes by default) and collect the rows."""
    rows = []
    source = run_with_executor(tasks, executor) if executor is not None else run_isolated(tasks, workers)
    for row in source:
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows
