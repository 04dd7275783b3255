"""One clock per method call, so that ``time_limit`` bounds the whole call.

Every method starts a :class:`Deadline` when it is called, asks it how much
time is left before each costly step (building a model, a matching phase, a
search chunk); CP-SAT gets only what remains after building
(``knightcert.models.cpsat_solve``). When the
budget is spent before an answer exists the method returns ``UNKNOWN`` with
the reason, :meth:`Deadline.stopped`, as ``record.stopped``.

Examples
--------
>>> clock = Deadline(None)
>>> clock.expired(), clock.remaining() is None
(False, True)
>>> Deadline(1e-9).expired()  # a budget of a nanosecond is spent at once
True
"""

from __future__ import annotations

import time

__all__ = ["Deadline"]


class Deadline:
    """The time budget of one method call.

    Parameters
    ----------
    time_limit : float or None
        Seconds for the whole call; None for no limit.

    Notes
    -----
    Reads ``time.perf_counter``; O(1) per question. ``elapsed`` is the wall
    time since the call began (``Result.time`` is measured by the run path).
    """

    __slots__ = ("began", "time_limit")

    def __init__(self, time_limit: float | None) -> None:
        self.began = time.perf_counter()
        self.time_limit = None if time_limit is None else float(time_limit)

    def elapsed(self) -> float:
        """Seconds since the call began."""
        return time.perf_counter() - self.began

    def remaining(self) -> float | None:
        """Seconds left (may be negative), or None without a limit."""
        return None if self.time_limit is None else self.time_limit - self.elapsed()

    def expired(self) -> bool:
        """True once the budget is spent."""
        left = self.remaining()
        return left is not None and left <= 0

    def stopped(self, step: str) -> str:
        """Why an answer was cut short while ``step`` was running (``record.stopped``)."""
        return f"time limit of {self.time_limit:g} s reached during {step}"
