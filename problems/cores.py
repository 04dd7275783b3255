"""The CPUs this process may run on, and the threads a solve may use of them.

``$KNIGHTCERT_THREADS`` (:data:`THREADS_ENV`, a whole number from 1 to :data:`MAX_THREADS`)
overrides the CPUs: the harness sets it to the usable CPUs // its parallel runs
(:func:`share_threads`), so that runs x solver threads never exceed them; every process started
after that (workers, Dask workers) inherits it.

Examples
--------
>>> 1 <= available_threads() and 1 <= usable_cores()
True
"""

from __future__ import annotations

import os

from knightcert.problems.errors import InvalidArgument

__all__ = ["MAX_THREADS", "THREADS_ENV", "available_threads", "share_threads", "usable_cores"]

#: Environment variable that tells a solve how many threads it may use.
THREADS_ENV = "KNIGHTCERT_THREADS"
#: The most threads ``$KNIGHTCERT_THREADS`` may ask for (CP-SAT refuses 65,536 workers).
MAX_THREADS = 1024
_SHARED: dict[str, str] = {}  # the value share_threads set, while it is still this process's


def usable_cores() -> int:
    """The CPUs this process may run on: its affinity (``os.sched_getaffinity``, as
    ``os.process_cpu_count`` of Python 3.13 reads it), else every CPU of the machine."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def available_threads() -> int:
    """The threads a solve may use: ``$KNIGHTCERT_THREADS`` when it is set, else :func:`usable_cores`.

    Raises
    ------
    InvalidArgument
        When it is set to anything but a whole number from 1 to :data:`MAX_THREADS`.
    """
    text = os.environ.get(THREADS_ENV, "").strip()
    if text and not (text.isascii() and text.isdigit() and len(text) < 6 and 1 <= int(text) <= MAX_THREADS):
        raise InvalidArgument(f"${THREADS_ENV}: expected a whole number of 1 to {MAX_THREADS}, got {text!r}")
    return int(text) if text else usable_cores()


def share_threads(runs: int) -> None:
    """Give each of ``runs`` parallel runs the usable CPUs // ``runs`` threads (at least one), by
    setting ``$KNIGHTCERT_THREADS`` for this process and those it starts, unless the user set it
    (a value set here is set again for the next call's runs)."""
    threads = str(min(MAX_THREADS, max(1, usable_cores() // max(1, runs))))
    if os.environ.get(THREADS_ENV) in (None, _SHARED.get(THREADS_ENV)):
        os.environ[THREADS_ENV] = _SHARED[THREADS_ENV] = threads
