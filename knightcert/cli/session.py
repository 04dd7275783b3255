"""The state of one running command: its clock, how it was stopped, its exit codes.

Every command module reads the clock (:func:`time_left`) and the stopping
signal (:func:`interruption`) from here; :mod:`knightcert.cli.main` starts
the clock and installs the SIGTERM handler. Nothing here imports a command,
so the command modules and the dispatcher never import each other in a circle.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Sequence
from typing import Any

from knightcert.problems import stopping
from knightcert.problems.errors import KnightcertError

__all__ = [
    "EXIT_FAILED_CHECK",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_TERMINATED",
    "EXIT_USAGE",
    "FAILURE_EXITS",
    "UsageError",
    "interruption",
    "on_signal",
    "solve_each",
    "start",
    "started_at",
    "stop_for_time",
    "stop_requested",
    "stopped_by",
    "time_left",
    "watch_begins",
    "watch_over",
]

EXIT_OK = 0
EXIT_FAILED_CHECK = 1
EXIT_USAGE = 2
#: A method crashed (raised, exited, or knightcert itself failed): no answer, not the input's fault.
EXIT_CRASHED = 3
#: A method was killed by a signal from outside (not by the time limit).
EXIT_KILLED = 4
#: A method ran out of memory (its memory limit, or MemoryError).
EXIT_OUT_OF_MEMORY = 5
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
#: How a method's run failed (``RunRecord.failure``) -> the command's exit code.
FAILURE_EXITS = {"memory": EXIT_OUT_OF_MEMORY, "killed": EXIT_KILLED, "crash": EXIT_CRASHED}

#: When this command started (``time.perf_counter()``): ``--time-limit`` counts from here.
_started = time.perf_counter()
#: The stop requests before this command started (:mod:`knightcert.problems.stopping`).
_mark = stopping.current()


def start(started: float | None = None) -> None:
    """Start the command's clock (at ``started`` when given); earlier stop requests are forgotten."""
    global _started, _mark
    _started = time.perf_counter() if started is None else started
    _mark = stopping.current()


def stopped_by(signum: int) -> None:
    """Record the signal that stops the command (SIGINT or SIGTERM)."""
    stopping.request(signum)


def stop_requested() -> bool:
    """Whether Ctrl-C or SIGTERM arrived since the command started (whatever a method says)."""
    return stopping.since(_mark)


def on_signal(signum: int, frame: object) -> None:
    """The handler of SIGINT and SIGTERM while a command runs: both become a ``KeyboardInterrupt``,
    so every cleanup path of Ctrl-C runs, and the request is recorded.

    A SIGINT sent by the command's own watchdog (:func:`stop_for_time`) raises the same
    ``KeyboardInterrupt`` without recording a stop request: a built-in method past its time
    budget is stopped the way Ctrl-C stops it, and the command goes on; once the watched run is
    over (:func:`watch_over`) such a late SIGINT is dropped.
    """
    global _time_stop
    if signum == signal.SIGINT and _time_stop:
        _time_stop = False
        if _watching:
            stopping.timed_out()
            raise KeyboardInterrupt
        return
    stopping.signalled(signum)
    raise KeyboardInterrupt


#: A stop sent by the watchdog (:func:`stop_for_time`) not yet raised by :func:`on_signal`.
_time_stop = False
#: Whether a watched run (a built-in method under the watchdog) is in progress.
_watching = False


def watch_begins() -> None:
    """A built-in method starts under the watchdog (:mod:`knightcert.cli.watched`)."""
    global _watching, _time_stop
    _time_stop = False
    _watching = True


def watch_over() -> None:
    """The watched method returned: a watchdog SIGINT still on its way is dropped."""
    global _watching
    _watching = False
    stopping.settled()


def stop_for_time(main_thread: int) -> None:
    """The watchdog's stop: a SIGINT to the main thread that :func:`on_signal` raises as a time
    stop (a real signal, so that a blocking wait there is woken too)."""
    global _time_stop
    _time_stop = True
    signal.pthread_kill(main_thread, signal.SIGINT)


def interruption() -> tuple[int, str]:
    """Exit code and the word for the stopping signal: (130, "interrupted") or (143, "terminated")."""
    if stop_requested() and stopping.last_signal() == signal.SIGTERM:
        return EXIT_TERMINATED, "interrupted (SIGTERM)"
    return EXIT_INTERRUPTED, "interrupted"


def started_at() -> float:
    """When this command started (``time.perf_counter()``): the origin of ``--time-limit``."""
    return _started


def time_left(limit: float | None) -> float | None:
    """What is left of a ``--time-limit`` of ``limit`` seconds for the whole command.

    The clock starts when the command line starts, before the solvers' imports,
    so that loading OR-Tools and compiled kernels counts against the limit too.
    A spent budget still gives the method a sliver (it then answers ``UNKNOWN``
    or what it has). None stays None (no limit).
    """
    return None if limit is None else max(limit - (time.perf_counter() - _started), 1e-3)


def solve_each(solve: Callable[..., Any], instances: Sequence[Any], **options: Any) -> tuple[list[Any], bool]:
    """Solve the instances in order; stop at an interruption.

    Returns the results finished so far (an interrupted CP-SAT solve gives its
    best answer, kept as the last result) and whether an interrupt arrived, so
    that the caller prints what it has before exiting with :func:`interruption`.
    """
    results = []
    try:
        for instance in instances:
            results.append(solve(instance, **options))
            if stop_requested():  # a method's own info["interrupted"] is not believed
                return results, True
    except KeyboardInterrupt:
        return results, True
    return results, False


class UsageError(KnightcertError):
    """Bad command-line usage (reported like any other input error)."""
