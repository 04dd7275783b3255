"""The CPUs this process may run on, and the threads a solve may use of them.

``$KNIGHTCERT_THREADS`` (:data:`THREADS_ENV`, a whole number of 1 to 4 a usable CPU) overrides
the CPUs: the harness sets it, in its workers' environment only (local and Dask), to the usable
CPUs // its parallel runs (:func:`thread_share`, unless the user set it), so that runs x solver
threads never exceed them.

Examples
--------
>>> 1 <= available_threads() and 1 <= usable_cores()
True
"""

from __future__ import annotations

import os

from knightcert.problems.errors import InvalidArgument

__all__ = ["THREADS_ENV", "available_threads", "thread_share", "usable_cores"]

#: Environment variable that tells a solve how many threads it may use.
THREADS_ENV = "KNIGHTCERT_THREADS"


def usable_cores() -> int:
    """The CPUs this process may run on: its affinity (``os.sched_getaffinity``, as
    ``os.process_cpu_count`` of Python 3.13 reads it), else every CPU of the machine."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def available_threads() -> int:
    """The threads a solve may use: ``$KNIGHTCERT_THREADS`` when it is set, else :func:`usable_cores`.

    Raises
    ------
    InvalidArgument
        When it is set to anything but a whole number of 1 to 4 a usable CPU (more only slows a
        solve down; CP-SAT refuses 65,536 workers).
    """
    text, most = os.environ.get(THREADS_ENV, "").strip(), 4 * usable_cores()
    if text and not (text.isascii() and text.isdigit() and len(text) < 9 and 1 <= int(text) <= most):
        raise InvalidArgument(f"${THREADS_ENV}: expected 1 to {most} threads (4 a usable CPU), got {text!r}")
    return int(text) if text else usable_cores()


def thread_share(runs: int) -> str:
    """The threads each of ``runs`` parallel runs may use: ``$KNIGHTCERT_THREADS`` when the user set
    it, else the usable CPUs // ``runs`` (at least one); the workers get it in their environment."""
    return os.environ.get(THREADS_ENV) or str(max(1, usable_cores() // max(1, runs)))
