"""Running (instance, method) pairs on persistent worker processes, each answer checked here.

Every run takes the one run path (:func:`knightcert.solving.run`) on a worker of a
:class:`knightcert.workers.Pool`: a fresh interpreter that runs many tasks, so a method's
imports, compiled kernels and caches are loaded once per worker. A built-in is warmed there on
its warm-up board (:mod:`knightcert.warming`); a foreign Python method's first task on a worker
is run once untimed first, on the same path. A row's ``time_s`` and ``cpu_s`` are measured there,
around the method's call (a program's from its exec to its exit); the check's time is
``check_s``, the warm-up's ``warm_s``, beside it. A run past its wall-clock limit (its time
budget plus :data:`CHECK_SECONDS`, counted from its timed call; the budget alone until the call
returns) or past the memory limit, or
whose worker dies, costs that worker only (it is replaced): its row has status ``UNKNOWN`` and
says why in ``error``. The worker's answer is checked again here (:func:`recheck`).

Any ``concurrent.futures.Executor`` can run the same tasks instead (a thread pool, a Dask
``Client.get_executor()``): a built-in method runs in the executor's worker itself, a foreign
one on a worker pool of that process (:func:`run_remote`).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
import time
import traceback
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass, replace
from typing import Any

from knightcert.compare.harness import Row, failed_row, row_from_result
from knightcert.compare.report import row_from_record
from knightcert.problems import stopping
from knightcert.problems.answers import answer_fields
from knightcert.problems.checkers import certify
from knightcert.problems.cores import usable_cores
from knightcert.problems.errors import KnightcertError
from knightcert.problems.result import Result
from knightcert.registry import MethodRef, resolve
from knightcert.solving import over_budget, run
from knightcert.warming import WARMED, warm_up
from knightcert.workers import Job, Pool, checked_again, shared_pool, time_budget

__all__ = [
    "ANSWERS_BYTES",
    "CHECK_SECONDS",
    "DEFAULT_WALL_LIMIT",
    "WARMED",
    "Task",
    "recheck",
    "run_isolated",
    "run_remote",
    "run_task",
    "run_task_answer",
    "run_with_executor",
    "save_run_answer",
]

#: Seconds a worker gets past its method's time budget (:func:`knightcert.workers.time_budget`)
#: for checking the answer and sending its row.
CHECK_SECONDS = 10.0
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
        return str(self.instance) if (name := getattr(self.instance, "name", None)) is None else name

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.problem, self.name, self.method, self.repeat)

    def wall_limit(self) -> float:
        budget = time_budget(self.time_limit)
        fallback = DEFAULT_WALL_LIMIT if budget is None else budget + CHECK_SECONDS
        return fallback if self.wall is None else self.wall


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
        # the one run path (knightcert.solving.run): options, fit, warm-up, budget, certificate;
        # a name that cannot be resolved (ref None) goes as it is: resolving it says why it fails
        result = run(
            task.problem, task.method if ref is None else ref, task.instance, time_limit=task.time_limit,
            seed=task.seed, options=dict(task.options), warm=True,
        )  # fmt: skip
        if stopping.since(mark):  # a CP-SAT solve stopped by Ctrl-C returns its best answer: stop here
            raise KeyboardInterrupt
        if (result.method, result.instance) != (task.method, task.name):
            # the row names what the task ran, never what the method says it is
            result = result.with_(method=task.method, instance=task.name)
        # a foreign method's peak is its own process tree's; a built-in's, its worker's (pool_rows):
        # a process that runs one run after another (or several at once) has no run's own peak
        row = row_from_result(
            result, task.known_optimum, result.record.peak_mb, instance=task.instance, checked=True
        )
        row.cpu_s, row.load = (None if result.cpu_time is None else round(result.cpu_time, 6)), load
        if task.answers is not None:
            row.answer = save_run_answer(task, result)
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
    again = row_from_result(checked, task.known_optimum, row.peak_mb, instance=task.instance, checked=True)
    again.cpu_s, again.load = row.cpu_s, row.load
    again.check_s = row.check_s  # the check where the method ran, as timed there
    again.warm_s, again.answer = row.warm_s, row.answer
    return _stamp(again, task)


def machine_load() -> float | None:
    """The machine's 1-minute load average (``os.getloadavg``), None where it is not available."""
    with contextlib.suppress(OSError, AttributeError):
        return round(os.getloadavg()[0], 2)
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
    ref = task.method_ref()  # None: a method that cannot be found where it ran (the row says why)
    row.kind, row.origin = ("heuristic", "python") if ref is None else (ref.kind, ref.origin)
    return row


#: An answers file takes runs until the next would take it past this size (bytes).
ANSWERS_BYTES = 1 << 20
_ANSWERS: dict[str, tuple[Any, str, int]] = {}  # folder -> (stream, file name, lines)
_ANSWERS_LOCK = threading.Lock()


def _forked() -> None:  # a forked process starts files of its own, and a lock no thread holds
    global _ANSWERS_LOCK
    _ANSWERS.clear()
    _ANSWERS_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_forked)


def save_run_answer(task: Task, result) -> str:
    """Append the run's answer (see knightcert.problems.answers) to this process's answers file in
    ``task.answers``: JSON Lines (``runs-*.jsonl``, created exclusively), a line per run, flushed
    before the run's row leaves; one file per process and megabyte, not one per run (a file's
    creation cost a loaded disk a millisecond), kept open for the last three folders only. A file
    no longer at its path (deleted, or its folder renamed) takes no more lines: the next goes to
    a new file at ``task.answers`` (the folder made again), never into the moved one.
    Returns ``FILE#LINE``, relative to the folder."""
    from knightcert.problems.answers import answer_to_dict
    from knightcert.problems.output_file import cannot_write, file_mode

    assert task.answers is not None  # called only for tasks that keep their answers
    parameters = {"time_limit": task.time_limit, "seed": task.seed, "repeat": task.repeat}
    answer, folder = answer_to_dict(result, task.instance, parameters=parameters), task.answers
    line = json.dumps(answer, separators=(",", ":")) + "\n"
    with _ANSWERS_LOCK:
        stream, name, lines = _ANSWERS.pop(folder, (None, "", 0))
        while len(_ANSWERS) > 2:  # a worker serves comparison after comparison: the oldest closed
            _ANSWERS.pop(next(iter(_ANSWERS)))[0].close()
        try:
            if not stream or not _takes(stream, os.path.join(folder, name), len(line)):  # a new file
                os.makedirs(folder, exist_ok=True)
                fd, path = tempfile.mkstemp(".jsonl", "runs-", folder)
                os.fchmod(fd, file_mode())
                stream, name, lines = os.fdopen(fd, "w", encoding="utf-8"), os.path.basename(path), 0
            stream.write(line)
            stream.flush()
        except OSError as exc:  # a file with a torn line takes no more: the next run starts another
            raise cannot_write(os.path.join(folder, name or "runs-*.jsonl"), exc) from None
        _ANSWERS[folder] = (stream, name, lines + 1)
    return f"{name}#{lines + 1}"


def _takes(out: Any, path: str, size: int) -> bool:
    """Whether the answers file ``out`` takes ``size`` bytes more: not full, and still the file at
    ``path`` (not deleted, replaced, nor moved with its folder); if not, it is closed (the next
    line goes to a new file)."""
    with contextlib.suppress(OSError):  # none at its path now
        if out.tell() + size <= ANSWERS_BYTES and os.path.samestat(os.fstat(out.fileno()), os.lstat(path)):
            return True
    out.close()
    return False


_WARM_HERE: set[tuple[str, str]] = set()


def _work(task: Task) -> dict[str, Any]:  # pragma: no cover - runs in a worker
    """In a worker: the task's row and answer as plain data; a foreign Python method's first task
    here is run once untimed first (its imports, compilation and caches stay for the next; its
    answer is neither kept nor saved)."""
    ref = task.method_ref()
    if (
        ref is not None
        and ref.origin not in ("built-in", "program")
        and (task.problem, task.method) not in _WARM_HERE
    ):
        _WARM_HERE.add((task.problem, task.method))
        run_task_answer(replace(task, answers=None))  # no run: its answer is not saved
    row, result = run_task_answer(task)
    wanted = checked_again()  # the caller checks the row again: a foreign job ran here
    return {"row": row.as_dict(), "answer": answer_fields(result) if wanted and result else None}


def pool_rows(pool: Pool, tasks: Iterable[Task]) -> Generator[Row, None, None]:
    """Run ``tasks`` on ``pool``; yield their rows, each answer checked again here, as they end."""
    jobs = [Job(_work, (t,), t.wall_limit(), time_budget(t.time_limit), t, not _foreign(t)) for t in tasks]
    with contextlib.closing(pool.run(jobs)) as outcomes:
        for job, outcome in outcomes:
            task = job.tag
            try:
                if outcome.stopped is None:
                    # after foreign code the row is read as strictly as a report's (its fields' types)
                    record, answer = outcome.value["row"], outcome.value["answer"]
                    row = Row(**record) if job.clean else row_from_record(record)
                    row.peak_mb = outcome.peak_mb
                    if row.warm_s and (ref := task.method_ref()) is not None:
                        WARMED.setdefault((task.problem, ref.name), row.warm_s)
                    # as it is when its worker ran the project's code only, else checked again here
                    if job.clean or answer is not None:
                        yield _stamp(row, task) if job.clean else recheck(task, row, answer)
                        continue
                    # after foreign code: a row without an answer says at most why it failed
                    outcome.stopped = row.error or "crash: the worker sent a row without its answer"
            except (KeyError, TypeError, ValueError, OverflowError):  # OverflowError: int(inf)
                outcome.stopped = "crash: the worker's row was garbled"
            row = failed_row(task.problem, task.name, task.method, str(outcome.stopped), outcome.elapsed)
            row.peak_mb = outcome.peak_mb
            yield _stamp(row, task)


def run_isolated(tasks: Iterable[Task], workers: int = 2) -> Generator[Row, None, None]:
    """Run the tasks on ``workers`` persistent workers (see the module docstring); yield rows as
    they finish. Closing the generator (or Ctrl-C) kills the runs still going."""
    # never more busy workers than cores; runs x solver threads <= cores (workers.thread_share)
    yield from pool_rows(shared_pool(min(workers, usable_cores())), tasks)


def _foreign(task: Task) -> bool:
    ref = task.method_ref()
    return ref is None or ref.foreign


_POOLS = threading.local()


def run_remote(task: Task) -> tuple[Row, dict[str, Any] | None]:
    """What an executor's worker runs: a built-in method in the worker itself, a foreign one on a
    worker pool of that process's thread (kept for its next runs); the row and the answer's plain
    fields, which the caller checks again (:func:`recheck`)."""
    if _foreign(task):
        if getattr(_POOLS, "pool", None) is None:
            _POOLS.pool = Pool(1)
        return next(pool_rows(_POOLS.pool, [task])), None  # checked here, outside the method's worker
    row, result = run_task_answer(task)
    return row, None if result is None else answer_fields(result)


def run_with_executor(tasks: Iterable[Task], executor: Executor) -> Iterator[Row]:
    """Run the tasks on any ``concurrent.futures.Executor``; yield rows as they finish.

    Built-in methods run in the executor's worker itself (their own time limit
    holds); a foreign method on a worker pool there (:func:`run_remote`), so that its
    wall-clock and memory limits hold there too.
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
