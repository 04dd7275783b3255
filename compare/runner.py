"""Running (instance, method) pairs in isolated worker processes.

Each run gets a fresh process (forked on Linux, so it starts with the
modules already loaded; a crash, a runaway solver or memory growth cannot
touch the other runs), a wall-clock limit after which it is killed, and its
peak memory measured by the operating system (``ru_maxrss``: it includes the
interpreter and libraries inherited from the parent, about 150 MB; a foreign method's is its
own process tree's, :mod:`knightcert.contained`). A crash or a timeout becomes a row with
status ``UNKNOWN`` and the reason in ``error``. The time budget of a method is its time limit
plus :func:`knightcert.contained.grace`; a foreign method is stopped there, a built-in's worker
:data:`CHECK_SECONDS` later (its answer is checked in the worker), and an answer that came
after the budget is never a normal row (:func:`over_budget`).

Timing: every run takes the one run path (:func:`knightcert.solving.run`). A
row's ``time_s`` is the method's own time, measured where it runs (a foreign
method's inside its own process, around the call: the containment's start-up
is ``info["containment_s"]``, never added); the check's time is ``check_s``,
beside it. The parent warms each method before forking, on a board large
enough to load every compiled kernel a timed run takes
(:mod:`knightcert.warming`; the seconds are kept in ``WARMED`` and recorded by
reports), and each worker warms it once more before its timed run, so that
its first call's page faults and lazy dispatch are not timed.

Any ``concurrent.futures.Executor`` can run the same tasks instead (a thread
pool, a process pool, a Dask ``Client.get_executor()``): then the method's
own time limit is the only limit, and ``peak_mb`` is the worker's peak.

A worker never outlives its parent: on Linux the kernel kills it when the
parent dies (``PR_SET_PDEATHSIG``); everywhere a watchdog thread exits when
the parent is gone, and an alarm kills it a little after its wall-clock limit
even if nobody is left to do so. Workers ignore Ctrl-C: the parent, which the
terminal interrupts as well, kills them.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import math
import multiprocessing as mp
import os
import resource
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass
from typing import Any

from knightcert.compare.harness import Row, failed_row, row_from_result
from knightcert.contained import time_budget
from knightcert.problems import stopping
from knightcert.problems.answers import answer_fields
from knightcert.problems.checkers import certify
from knightcert.problems.errors import KnightcertError
from knightcert.problems.result import Result
from knightcert.registry import MethodRef, resolve
from knightcert.solving import over_budget, run
from knightcert.warming import WARMED, ensure_warm, warm_up

__all__ = [
    "WARMED",
    "Task",
    "ensure_warm",
    "over_budget",
    "recheck",
    "run_isolated",
    "run_task",
    "run_task_answer",
    "run_tasks",
    "run_with_executor",
    "warm_up",
]

__all__ = [
    "CHECK_SECONDS",
    "DEFAULT_WALL_LIMIT",
    "PARENT_POLL_SECONDS",
    "SELF_KILL_MARGIN",
    "WARMED",
    "Task",
    "answer_file_name",
    "bind_to_parent",
    "ensure_warm",
    "over_budget",
    "recheck",
    "run_alone",
    "run_isolated",
    "run_remote",
    "run_task",
    "run_task_answer",
    "run_tasks",
    "run_with_executor",
    "save_run_answer",
    "stop_if_interrupted",
    "warm_up",
]

#: Seconds a worker gets past its method's time budget for checking the answer and sending
#: its row (the method itself is stopped at the budget: knightcert.contained.time_budget).
CHECK_SECONDS = 10.0
#: Wall-clock limit of a run that has no method time limit.
DEFAULT_WALL_LIMIT = 600.0
#: Seconds past its wall-clock limit after which a worker kills itself (the parent normally
#: kills it first, at the limit; this holds when the parent is gone or stuck).
SELF_KILL_MARGIN = 5.0
#: How often a worker's watchdog looks for its parent.
PARENT_POLL_SECONDS = 0.5


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
    answers: str | None = None  # folder where the run's answer file is saved
    options: tuple[tuple[str, Any], ...] = ()  # keyword options of the method
    sha256: str = ""  # content hash of the instance
    ref: Any = None  # the resolved method (a MethodRef), when it is not found by name alone

    def method_ref(self) -> MethodRef | None:
        """The method to run: ``ref``, or the one ``method`` names (resolved here: on a Dask
        worker a module path is imported there); None when the name cannot be resolved (the
        run's row then says why)."""
        if self.ref is not None:
            return self.ref
        try:
            return resolve(self.problem, self.method)
        except KnightcertError:
            return None

    @property
    def name(self) -> str:
        return getattr(self.instance, "name", str(self.instance))

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.problem, self.name, self.method, self.repeat)

    def wall_limit(self) -> float:
        if self.wall is not None:
            return self.wall
        budget = time_budget(self.time_limit)
        return DEFAULT_WALL_LIMIT if budget is None else budget + CHECK_SECONDS


def run_task(task: Task) -> Row:
    """Run one task in this process and return its row (never raises for a method's failure).

    See :func:`run_task_answer`, which also returns the checked answer.
    """
    return run_task_answer(task)[0]


def run_task_answer(task: Task) -> tuple[Row, Result | None]:
    """Run one task in this process: its row, and the checked answer (None when the run failed).

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C or SIGTERM arrived during the run (:mod:`knightcert.problems.stopping`), even
        when it surfaced as another error (an interrupted import) or a method returned anyway.
    """
    began = time.perf_counter()
    mark = stopping.current()
    try:
        ref = task.method_ref()
        load = machine_load()
        # the one run path (knightcert.solving.run): options, fit, warm-up, budget, certificate
        result = run(
            task.problem,
            task.method if ref is None else ref,  # None: resolving the name says why it fails
            task.instance,
            time_limit=task.time_limit,
            seed=task.seed,
            options=dict(task.options),
            warm=True,
        )
        cpu = result.cpu_time
        stop_if_interrupted(mark)
        if (result.method, result.instance) != (task.method, task.name):
            # the row names what the task ran, never what the method says it is
            result = result.with_(method=task.method, instance=task.name)
        # a foreign method's peak is its own process tree's (None: ended before it was measured)
        foreign = ref is not None and ref.foreign and "peak_mb" in result.info
        peak = result.info["peak_mb"] if foreign else _peak_mb()
        row = row_from_result(result, task.known_optimum, peak_mb=peak, instance=task.instance)
        row.cpu_s, row.load = (None if cpu is None else round(cpu, 6)), load
        if task.answers is not None:
            save_run_answer(task, result)
    except Exception as exc:
        if stopping.since(mark):  # the interrupt, not the method, ended this run
            raise KeyboardInterrupt from None
        return _stamp(_failed(task, exc, time.perf_counter() - began), task), None
    return _stamp(row, task), result


def recheck(task: Task, row: Row, answer: dict[str, Any] | None) -> Row:
    """The row of a run made in a worker process, its answer checked again here, in the parent.

    A worker is the method's own process: a method may have patched the checker there. So the
    parent reads the answer the worker sent (plain JSON values), checks it against its own copy
    of the instance (which the worker could not touch) and rebuilds the row from that; only the
    worker's measurements (time, peak memory) are kept. A worker row without an answer (a crash,
    a refusal) is kept as it is.
    """
    if answer is None:
        return row
    from knightcert.problems.answers import result_from_answer

    try:
        result = result_from_answer(answer, problem=task.problem)
    except KnightcertError as exc:
        return _stamp(failed_row(task.problem, task.name, task.method, f"refused: {exc}", row.time_s), task)
    result = result.with_(method=task.method, instance=task.name, time=row.time_s)
    checked = certify(task.instance, over_budget(result, task.time_limit))
    again = row_from_result(checked, task.known_optimum, peak_mb=row.peak_mb, instance=task.instance)
    again.cpu_s, again.load = row.cpu_s, row.load
    again.check_s = row.check_s  # the check where the method ran, as timed there
    again.warm_s, again.containment_s = row.warm_s, row.containment_s
    return _stamp(again, task)


def machine_load() -> float | None:
    """The machine's 1-minute load average (``os.getloadavg``), None where it is not available."""
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


def _failed(task: Task, exc: Exception, elapsed: float) -> Row:
    """The row of a run that raised ``exc``: refused (bad input), out of memory, or a crash."""
    if isinstance(exc, KnightcertError):
        return failed_row(task.problem, task.name, task.method, f"refused: {exc}", elapsed)
    if isinstance(exc, MemoryError):
        return failed_row(task.problem, task.name, task.method, "out of memory", elapsed)
    last = traceback.extract_tb(exc.__traceback__)[-1]
    # a foreign method's error comes back from its own process with where it was raised
    where = getattr(exc, "where", None) or f"{os.path.basename(last.filename)}:{last.lineno}"
    kind = getattr(exc, "kind", None) or type(exc).__name__  # a contained method's error keeps its name
    return failed_row(task.problem, task.name, task.method, f"crash: {kind}: {exc} ({where})", elapsed)


def _stamp(row: Row, task: Task) -> Row:
    """Copy what identifies the run from the task to its row."""
    row.problem, row.instance, row.method = task.problem, task.name, task.method
    row.size, row.repeat, row.known_optimum = task.size, task.repeat, task.known_optimum
    row.seed, row.instance_hash = task.seed, task.sha256
    ref = task.method_ref()
    if ref is None:  # a method that cannot be found where it ran: the row says why already
        row.kind, row.origin = "heuristic", "python"
    else:
        row.kind, row.origin = ref.kind, ref.origin
    return row


def answer_file_name(name: str, method: str, repeat: int) -> str:
    """``<instance>--<method>--<repeat>.json`` with characters unsafe in file names replaced."""
    import re

    stem = f"{name}--{method}--{repeat}"
    return re.sub(r"[^A-Za-z0-9._+-]+", "_", stem) + ".json"


def save_run_answer(task: Task, result) -> None:
    """Write the run's answer file into ``task.answers`` (see knightcert.problems.answers)."""
    from knightcert.problems.answers import write_answer

    assert task.answers is not None  # called only for tasks that keep their answers
    os.makedirs(task.answers, exist_ok=True)
    parameters = {"time_limit": task.time_limit, "seed": task.seed, "repeat": task.repeat}
    write_answer(
        os.path.join(task.answers, answer_file_name(task.name, task.method, task.repeat)),
        result,
        task.instance,
        parameters=parameters,
    )


def stop_if_interrupted(mark: int) -> None:
    """Raise ``KeyboardInterrupt`` when Ctrl-C or SIGTERM arrived since ``mark``
    (:func:`knightcert.problems.stopping.current`).

    A CP-SAT solve stopped by Ctrl-C returns its best answer instead of raising;
    a driver running many tasks must stop there, not go on. The signal decides,
    never a method's ``info["interrupted"]`` (a foreign method could say it).
    """
    if stopping.since(mark):
        raise KeyboardInterrupt


def _peak_mb() -> float:
    """Peak resident memory of this process, or of a program it ran if that was larger (MB)."""
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return round(peak / 1024, 1)


def _child(task: Task, connection, parent: int) -> None:  # pragma: no cover - runs in the worker process
    bind_to_parent(parent, task.wall_limit() + SELF_KILL_MARGIN)
    try:
        # once more in this fresh process: its first call pays for page faults and lazy
        # dispatch even when the parent compiled everything (measured: 3-10x on 1 ms runs)
        warm_up(task.problem, [task.method_ref() or task.method], again=True)
        row, result = run_task_answer(task)
        connection.send((row, None if result is None else answer_fields(result)))
    finally:
        connection.close()


_STOPS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _stops_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM (delivered right after) around a fork.

    An interrupt inside ``os.fork``'s after-fork hooks is swallowed half way
    ("Exception ignored in _releaseLock") and leaves the logging lock taken:
    the next log call, anywhere, then hangs the process for ever.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def bind_to_parent(parent: int, wall_limit: float | None) -> None:
    """Make this (worker) process die with its parent and at ``wall_limit`` seconds.

    Three independent guards: the kernel's parent-death signal (Linux), a
    daemon thread that exits when ``os.getppid()`` is no longer ``parent``,
    and ``SIGALRM`` at its default action (termination) after ``wall_limit``
    seconds, which needs neither the parent nor the GIL. Ctrl-C is ignored:
    the parent stops its workers itself.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked with them held (see _stops_held)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError, TypeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    if os.getppid() != parent:  # the parent died before the guards were in place
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()
    if wall_limit is not None and math.isfinite(wall_limit) and hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(max(1, math.ceil(wall_limit)))


def run_isolated(tasks: Iterable[Task], workers: int = 2) -> Generator[Row, None, None]:
    """Run each task in a fresh process, ``workers`` at a time; yield rows as they finish.

    A run past its wall-clock limit is killed (row: ``UNKNOWN``, "timeout");
    a process that dies without an answer gives "crash: exit code N".
    Closing the generator (or Ctrl-C) kills the runs still going.
    """
    context = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context("spawn")
    # runs x solver threads <= cores: each run's CP-SAT reads this (knightcert.models.cpsat_solve)
    os.environ.setdefault("KNIGHTCERT_THREADS", str(max(1, (os.cpu_count() or 1) // max(1, workers))))
    pending = list(tasks)
    for problem in dict.fromkeys(task.problem for task in pending):
        warm_up(problem, [task.ref or task.method for task in _distinct_methods(pending, problem)])
    running: list[tuple[Task, Any, Any, float]] = []
    try:
        while pending or running:
            while pending and len(running) < max(1, workers):
                task = pending.pop(0)
                receiver, sender = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(task, sender, os.getpid()), daemon=True)
                with _stops_held():
                    process.start()
                sender.close()
                running.append((task, process, receiver, time.perf_counter()))
            time.sleep(0.005)
            still = []
            for task, process, receiver, started in running:
                elapsed = time.perf_counter() - started
                if receiver.poll():
                    try:
                        row, answer = receiver.recv()
                    except (EOFError, TypeError, ValueError):
                        row = answer = None
                    process.join()
                    yield _died(task, process, elapsed) if row is None else recheck(task, row, answer)
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
                        f"time limit: killed after {elapsed:.1f} s wall clock",
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


def _foreign(task: Task) -> bool:
    ref = task.method_ref()
    return ref is None or ref.foreign


def _distinct_methods(tasks: list[Task], problem: str) -> list[Task]:
    """One task of each method of ``problem``."""
    return list({task.method: task for task in tasks if task.problem == problem}.values())


def _died(task: Task, process, elapsed: float) -> Row:
    row = failed_row(
        task.problem, task.name, task.method, f"crash: worker exit code {process.exitcode}", elapsed
    )
    return _stamp(row, task)


def run_alone(task: Task) -> Row:
    """Run one task in a fresh process of its own, killed at its wall-clock limit (see
    :func:`run_isolated`): how an executor's worker runs a foreign method, which may hang,
    crash or exhaust memory."""
    source = run_isolated([task], workers=1)
    with _children_allowed():
        try:
            return next(source)
        finally:
            source.close()


@contextlib.contextmanager
def _children_allowed() -> Iterator[None]:
    """Let a daemonic process (a Dask worker) start worker processes.

    ``multiprocessing`` refuses it so that no child is orphaned when the daemon
    dies; ours cannot be (:func:`bind_to_parent`: the kernel's parent-death
    signal, a watchdog and an alarm), so the flag is lifted for the call.
    """
    config = mp.current_process()._config  # type: ignore[attr-defined]  # no public switch exists
    daemon = config.get("daemon")
    config["daemon"] = False
    try:
        yield
    finally:
        if daemon is None:
            config.pop("daemon", None)
        else:
            config["daemon"] = daemon


def run_remote(task: Task) -> tuple[Row, dict[str, Any] | None]:
    """What an executor's worker runs: a built-in method in the worker itself, a foreign one in
    a process of its own there (:func:`run_alone`); the row and the answer's plain fields, which
    the caller checks again (:func:`recheck`)."""
    if _foreign(task):
        return run_alone(task), None  # checked on the worker, outside the method's process
    row, result = run_task_answer(task)
    return row, None if result is None else answer_fields(result)


def run_with_executor(tasks: Iterable[Task], executor: Executor) -> Iterator[Row]:
    """Run the tasks on any ``concurrent.futures.Executor``; yield rows as they finish.

    Built-in methods run in the executor's worker itself (their own time limit
    holds); a foreign method runs in a process of its own on the worker
    (:func:`run_alone`), so that its wall-clock limit holds there too.
    """
    tasks = list(tasks)
    warm_workers(tasks, executor)
    futures = {executor.submit(run_remote, task): task for task in tasks}
    finished = 0
    for future in as_completed(futures):
        task = futures[future]
        try:
            row, answer = future.result()
            yield recheck(task, row, answer)  # checked again here, whatever the worker said
            finished += 1
        except BaseException as exc:
            if executor_lost(exc):  # not the run's fault: no row, so that a resume redoes it
                for other in futures:
                    other.cancel()
                raise ExecutorLost(
                    f"the executor was lost after {finished} of {len(futures)} runs ({type(exc).__name__}); "
                    "the finished runs are kept in the report: run the same command again to do the rest"
                ) from None
            if not isinstance(exc, Exception):
                raise
            # the run itself failed on the worker (its process died, ...): a crash row
            row = failed_row(task.problem, task.name, task.method, f"crash: {type(exc).__name__}: {exc}", 0.0)
            yield _stamp(row, task)


def warm_workers(tasks: list[Task], executor: Executor) -> None:
    """Warm every built-in method of ``tasks`` on the executor before any timed run (each run
    warms its method again where it lands, :func:`knightcert.solving.run`): a warm-up loading
    compiled kernels never competes with a timed run of the same worker."""
    wanted = {(task.problem, task.method) for task in tasks if not _foreign(task)}
    futures = [executor.submit(warm_up, problem, [method]) for problem, method in sorted(wanted)]
    for future in futures:
        with contextlib.suppress(Exception):  # a failure shows again in the timed run
            future.result()


class ExecutorLost(KnightcertError):
    """The executor (a Dask scheduler, a process pool) went away during a comparison."""


#: Exceptions that say the executor went away, not that a run failed (by class name, so that
#: Dask's need not be imported): the scheduler lost, every future cancelled, a broken pool.
LOST_EXECUTOR = frozenset(
    {"CancelledError", "FutureCancelledError", "CommClosedError", "BrokenProcessPool", "BrokenExecutor"}
)


def executor_lost(exc: BaseException) -> bool:
    """Whether ``exc`` from a future says the executor itself is gone (see :data:`LOST_EXECUTOR`)."""
    return any(kind.__name__ in LOST_EXECUTOR for kind in type(exc).__mro__)


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
