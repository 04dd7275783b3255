"""The CPUs this process may run on, and the threads a solve may use of them.

``$KNIGHTCERT_THREADS`` (:data:`THREADS_ENV`) overrides the CPUs: the harness sets it to the
usable CPUs // its parallel runs (:func:`share_threads`), so that runs x solver threads never
exceed them; every process started after that (workers, Dask workers) inherits it.

Examples
--------
>>> 1 <= available_threads() and 1 <= usable_cores()
True
"""

from __future__ import annotations

import os

__all__ = ["THREADS_ENV", "available_threads", "share_threads", "usable_cores"]

#: Environment variable that tells a solve how many threads it may use.
THREADS_ENV = "KNIGHTCERT_THREADS"


def usable_cores() -> int:
    """The CPUs this process may run on: its affinity (``os.sched_getaffinity``, as
    ``os.process_cpu_count`` of Python 3.13 reads it), else every CPU of the machine."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def available_threads() -> int:
    """The threads a solve may use: ``$KNIGHTCERT_THREADS`` when it is a number, else
    :func:`usable_cores`."""
    text = os.environ.get(THREADS_ENV, "").strip()
    return max(1, int(text)) if text.isdigit() else usable_cores()


def share_threads(runs: int) -> None:
    """Give each of ``runs`` parallel runs the usable CPUs // ``runs`` threads (at least one), by
    setting ``$KNIGHTCERT_THREADS`` for this process and those it starts, unless it is set."""
    os.environ.setdefault(THREADS_ENV, str(max(1, usable_cores() // max(1, runs))))
