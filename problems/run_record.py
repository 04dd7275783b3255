"""How one run went, beside its answer: why it stopped, what it cost, where the method came from.

The run path (:func:`knightcert.solving.run`), the command's watchdog, the workers and the
methods that stop early write these facts; the command line, the harness and the reports read
them as attributes of :attr:`Result.record <knightcert.problems.result.Result.record>`, never by a
string key. In an answer file and in ``Result.to_dict()`` they stay where earlier versions put
them: the times at the top (``time_s``, ``check_s``, ``cpu_s``), the rest in ``info`` under the
attribute's own name, so saved answers of any version read the same.

Examples
--------
>>> from knightcert.problems.result import Result
>>> stopped = Result.empty("tour", "roth", stopped="node budget spent")
>>> stopped.record.stopped, stopped.record.interrupted, stopped.info
('node budget spent', False, {'stopped': 'node budget spent'})
>>> stopped.with_record(warm_s=0.25).record.warm_s
0.25
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

__all__ = ["INFO_KEYS", "RunRecord", "cpu_seconds"]


@dataclass(frozen=True)
class RunRecord:
    """The facts of one run that are not its answer.

    Attributes
    ----------
    time_s : float
        Wall-clock seconds of the method's call, measured by the run path (``Result.time``).
    check_s, cpu_s : float or None
        Seconds of the independent check; CPU seconds of the call (``Result.check_time``,
        ``Result.cpu_time``); None when not measured.
    stopped : str or None
        Why the run has no answer, or not a complete one: ``"time limit: ..."``,
        ``"memory limit: ..."``, ``"crash: ..."``, ``"node budget spent"``, ...
    interrupted : bool
        The method caught a stop request (Ctrl-C, the watchdog) and returned its best so far.
    warm_s : float or None
        Seconds spent loading the method's code before the timed call (never in ``time_s``).
    peak_mb : float or None
        Peak memory of a foreign method's worker process, in MB.
    foreign : str or None
        Where a foreign method came from (``"python"``, ``"program"``, ...); None: built in.
    """

    time_s: float = 0.0
    check_s: float | None = None
    cpu_s: float | None = None
    stopped: str | None = None
    interrupted: bool = False
    warm_s: float | None = None
    peak_mb: float | None = None
    foreign: str | None = None

    @classmethod
    def of(cls, result: Any) -> RunRecord:
        """The record of ``result`` (a :class:`~knightcert.problems.result.Result`)."""
        info = result.info
        stopped = info.get("stopped")
        return cls(
            time_s=result.time,
            check_s=result.check_time,
            cpu_s=result.cpu_time,
            stopped=stopped if isinstance(stopped, str) and stopped else None,
            interrupted=bool(info.get("interrupted")),
            warm_s=_number(info.get("warm_s")),
            peak_mb=_number(info.get("peak_mb")),
            foreign=info.get("foreign") if isinstance(info.get("foreign"), str) else None,
        )

    @property
    def failure(self) -> str | None:
        """How a run without an answer failed, from why it stopped: ``"memory"`` (memory limit,
        out of memory), ``"killed"`` (a signal from outside), ``"crash"``; None when it did not
        fail (an answer, or no answer in time).

        Examples
        --------
        >>> [RunRecord(stopped=why).failure for why in (
        ...     "memory limit: the method's processes used 900 MB", "crash: killed by signal 9",
        ...     "crash: ZeroDivisionError: division by zero", "time limit: no answer after 2.0 s")]
        ['memory', 'killed', 'crash', None]
        """
        stopped = self.stopped or ""
        if stopped.startswith(("memory limit:", "crash: MemoryError")):
            return "memory"
        crash = "killed" if "killed by signal" in stopped else "crash"
        return crash if stopped.startswith("crash:") else None


#: The record's entries kept in ``Result.info`` (on disk too), under the attribute's own name.
INFO_KEYS = ("stopped", "interrupted", "warm_s", "peak_mb", "foreign")


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def cpu_seconds() -> float:
    """CPU seconds (user + system) of this process, all its threads, and its waited-for children
    (a foreign method's process): what a run costs, less sensitive to a busy machine than the
    wall clock."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime
