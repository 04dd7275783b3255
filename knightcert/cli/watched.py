"""One method run of a single command, its time budget kept whatever the method does.

``--time-limit`` bounds the whole command, from its process's start (the
interpreter's start and the heavy imports included:
:data:`knightcert.__main__._STARTED`). :func:`run_watched`:

* loads a built-in method's code (OR-Tools, compiled kernels) *before* it
  reads what is left of the limit, so the import counts against it;
* runs a foreign method on a worker process (:mod:`knightcert.workers`,
  killed at the budget);
* runs a built-in method here under a **watchdog** thread: at the command's
  limit plus :data:`COMMAND_GRACE` (or the grace, when shorter), counted from the
  command's start, it stops the method the way Ctrl-C does (a
  ``KeyboardInterrupt`` in the main thread, not recorded as a stop request):
  a search that catches it returns its best answer so far, any other is
  ``UNKNOWN``; either says ``time limit: ...`` in ``record.stopped``. A
  method that still has not returned :data:`COMMAND_GRACE` later (it swallowed the
  stop, or runs in compiled code that never yields) ends the command: one
  line on standard error and exit code 4 (killed).
"""

from __future__ import annotations

import importlib
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from knightcert.cli import session
from knightcert.problems import progress
from knightcert.problems.result import Result

__all__ = ["COMMAND_GRACE", "Watchdog", "run_watched"]

#: Seconds past ``--time-limit`` (counted from the process's start) at which the watchdog stops a
#: built-in method, and again after which it ends the command: the whole command's overrun stays
#: under a second at load 8 on 2 cores, where the stop itself may land 0.5 s late (a method's own
#: budget, the limit plus its grace, may be longer).
COMMAND_GRACE = 0.3


class Watchdog:
    """Stops the main thread's method at ``deadline`` (``time.perf_counter()``), ends the command
    ``hard_grace`` seconds later if it has not returned.

    Use as a context manager around the method call, in the main thread, with
    :func:`knightcert.cli.session.on_signal` as the SIGINT handler.
    """

    def __init__(self, deadline: float, hard_grace: float, what: str) -> None:
        self.deadline, self.hard_grace, self.what = deadline, hard_grace, what
        self.fired_at: float | None = None
        self.over = False  # one store: set first by close(), read by the watchdog after each wait
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="knightcert-watchdog", daemon=True)
        self._main = threading.main_thread().ident or 0

    @property
    def fired(self) -> bool:
        """Whether the watchdog stopped the method."""
        return self.fired_at is not None

    def __enter__(self) -> Watchdog:
        session.watch_begins()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """The method returned (or raised): the watchdog stands down; a stop it sent that has not
        been raised yet is dropped. Idempotent (the stop it sent may land in here, once)."""
        self.over = True
        session.watch_over()
        self._wake.set()

    def _watch(self) -> None:
        self._wake.wait(max(0.0, self.deadline - time.perf_counter()))
        if self.over:
            return
        self.fired_at = time.perf_counter()
        session.stop_for_time(self._main)
        self._wake.wait(self.hard_grace)
        if self.over:
            return
        line = (
            f"knightcert: error: {self.what} did not stop at its time limit "
            f"(stopped {self.hard_grace:.1f} s ago, still running); the command was ended\n"
        )
        try:
            os.write(2, line.encode("utf-8", "replace"))
        finally:
            os._exit(session.EXIT_KILLED)


def run_watched(
    problem: str,
    method: Any,
    instance: Any,
    *,
    time_limit: float | None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Result:
    """Run ``method`` on ``instance`` within what is left of the command's ``time_limit``, and
    certify its answer (see the module docstring).

    Raises
    ------
    KnightcertError
        As :func:`knightcert.solving.run`, before any work.
    KeyboardInterrupt
        Ctrl-C or SIGTERM (never the watchdog's own stop).
    """
    from knightcert.solving import prepare

    ref, _ = prepare(problem, method, instance, options)
    if time_limit is not None and time.perf_counter() > _deadline(time_limit):  # a loaded machine: no
        why = f"time limit: {time_limit:g} s + grace had passed before the method started"  # time to
        return Result.empty(problem, ref.name, stopped=why)  # load its code (OR-Tools: 1 s)
    if not ref.foreign:  # its code loaded now, its model's too (OR-Tools): the import counts
        ref.function()
        if (Path(__file__).parents[1] / "models" / f"{problem}_{ref.name}.py").exists():  # not OR-Tools else
            importlib.import_module(f"knightcert.models.{problem}_{ref.name}")
    with progress.listening(_progress_line()):
        return _run_watched(problem, ref, instance, time_limit=time_limit, seed=seed, options=options)


def _progress_line() -> Callable[[str], None]:
    """A listener for the method's progress notes: one line each on standard error, with the
    command's seconds so far, when standard error is a terminal; else nothing."""
    import sys

    if not sys.stderr.isatty():
        return lambda text: None

    def show(text: str) -> None:
        print(f"knightcert: {time.perf_counter() - session.started_at():.0f} s: {text}", file=sys.stderr)

    return show


def _run_watched(
    problem: str,
    ref: Any,
    instance: Any,
    *,
    time_limit: float | None,
    seed: int | None,
    options: Mapping[str, Any] | None,
) -> Result:
    from knightcert.problems.checkers import certify
    from knightcert.solving import run

    limit = session.time_left(time_limit)
    watched = not ref.foreign and time_limit is not None and _can_watch()
    if not watched:
        return run(problem, ref, instance, time_limit=limit, seed=seed, options=options)
    assert time_limit is not None
    watchdog = Watchdog(_deadline(time_limit), COMMAND_GRACE, f"method {ref.name!r}")
    began = time.perf_counter()
    answer: Result | None = None
    try:
        with watchdog:
            answer = run(problem, ref, instance, time_limit=limit, seed=seed, options=options, check=False)
    except (KeyboardInterrupt, ImportError):  # the stop may land in an import the method makes
        watchdog.close()  # the watchdog's one stop may land in its own __exit__
        if not watchdog.fired or session.stop_requested():
            raise
    if watchdog.fired and not session.stop_requested():
        assert watchdog.fired_at is not None
        reason = (
            f"time limit: the method had not returned {watchdog.fired_at - session.started_at():.1f} s "
            f"after the command started (limit {time_limit:g} s + grace); it was stopped"
        )
        if answer is None:  # the stop went through the method: no answer
            answer = Result.empty(problem, ref.name, time.perf_counter() - began, stopped=reason)
        elif answer.record.interrupted:  # it caught the stop: its best answer so far
            answer = answer.with_record(interrupted=False, stopped=reason)
    assert answer is not None
    return certify(instance, answer)  # its seconds in check_time


def _deadline(time_limit: float) -> float:
    """When the watchdog stops a built-in method (``time.perf_counter()``)."""
    from knightcert.workers import grace

    return session.started_at() + time_limit + min(grace(time_limit), COMMAND_GRACE)


def _can_watch() -> bool:
    """Whether this thread can be stopped by the watchdog: the main thread, with the command's
    own SIGINT handler (not when ``main()`` runs in a library user's thread)."""
    return (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is session.on_signal
    )
