"""Whether this process was asked to stop (Ctrl-C or SIGTERM) — known from the signal itself.

A method's answer is never the witness of an interruption: a result that says
``info["interrupted"]`` may come from a foreign method, and an interrupt that
lands inside a compiled module's import turns into an ``ImportError`` there.
So the signal handlers of the command line (:func:`signalled`), and every place of the library
that catches a ``KeyboardInterrupt`` (a CP-SAT search stopped by Ctrl-C),
record the signal here; drivers ask :func:`since` whether one arrived during
their work.

Examples
--------
>>> mark = current()
>>> since(mark)
False
>>> request(2)
>>> since(mark), last_signal()
(True, 2)
>>> mark = current()
>>> caught()  # a KeyboardInterrupt from Python's own handler, caught by a search
>>> since(mark)
True
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Any

__all__ = ["caught", "current", "last_signal", "request", "run_stoppable", "settled", "signalled", "since"]
__all__ += ["timed_out"]

_count = 0
_last = int(signal.SIGINT)
#: A request recorded by :func:`signalled` whose ``KeyboardInterrupt`` no one has caught yet.
_unclaimed = False


def request(signum: int = signal.SIGINT) -> None:
    """Record a stop request (the signal number: SIGINT or SIGTERM)."""
    global _count, _last
    _count += 1
    _last = int(signum)


def current() -> int:
    """A mark of the stop requests so far (give it to :func:`since`)."""
    return _count


def since(mark: int) -> bool:
    """Whether a stop was requested after ``mark`` was taken."""
    return _count != mark


def last_signal() -> int:
    """The signal of the latest stop request (SIGINT when there was none)."""
    return _last


def signalled(signum: int) -> None:
    """Record a stop request that a signal handler is about to turn into a ``KeyboardInterrupt``.

    The handler itself belongs to whoever installs it (the command line's is
    :func:`knightcert.cli.session.on_signal`); :func:`caught` then knows that this
    interrupt is already recorded.
    """
    global _unclaimed
    request(signum)
    _unclaimed = True


def caught() -> None:
    """Say that a ``KeyboardInterrupt`` was caught (a search stopped to return its best answer).

    The request is recorded unless :func:`signalled` already recorded this one (with
    Python's own Ctrl-C handler, as in a notebook, nothing else records it).
    """
    global _unclaimed
    if _unclaimed:
        _unclaimed = False
    else:
        request(signal.SIGINT)


def timed_out() -> None:
    """Say that the ``KeyboardInterrupt`` about to be raised is the command's watchdog stopping a
    method past its time budget, not a signal: a search that catches it (:func:`caught`) returns
    its best answer so far and records no stop request (the command goes on)."""
    global _unclaimed
    _unclaimed = True


def settled() -> None:
    """Forget a :func:`timed_out` stop that no search caught (the method let it propagate)."""
    global _unclaimed
    _unclaimed = False


def run_stoppable(
    work: Callable[[], Any], stop: Callable[[], Any], stop_when: Callable[[], bool] | None = None
) -> tuple[Any, bool]:
    """``work()`` in a helper thread (native code that releases the GIL: a CP-SAT search, a
    compiled count) while this thread waits; Ctrl-C here (a ``KeyboardInterrupt``, recorded with
    :func:`caught`) or ``stop_when()`` turning True calls ``stop()``, and ``work`` is expected to
    return soon after. Returns what ``work`` returned and whether Ctrl-C stopped it; its
    exception is raised here. Native code may change the C-level SIGINT handler behind Python's
    back: on the main thread the handler is restored in every case.
    """
    import threading  # here: ``knightcert --help`` (through the command line's session) needs none

    main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGINT) if main else None
    outcome: list[Any] = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as exc:  # re-raised in the caller's thread
            outcome.append((False, exc))
        finally:
            done.set()

    # waiting on an Event, not Thread.join: an interrupted join can leave is_alive() False too early
    worker = threading.Thread(target=run, name="stoppable", daemon=True)
    interrupted = False
    try:
        while True:  # each step inside the ``try``: a Ctrl-C anywhere stops the work, never leaves it running
            try:
                if worker.ident is None:  # started once: not interrupted half way (it cannot be told)
                    _start_held(worker)
                if done.is_set():
                    break
                if interrupted or (stop_when is not None and stop_when()):  # repeated: a stop asked
                    stop()  # before the work started may not be kept
                done.wait(0.05)
            except KeyboardInterrupt:  # a second Ctrl-C changes nothing: the work is stopping
                caught()  # the signal, not this answer, tells a driver to stop
                interrupted = True
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    finished, value = outcome[0]
    if not finished:
        raise value
    return value, interrupted


def _start_held(worker: Any) -> None:
    """``worker.start()`` with SIGINT and SIGTERM held off in this thread, its signal mask restored
    after: a signal that comes meanwhile waits, and is handled once the worker has started (the
    worker's thread keeps them held: Python handles signals in the main thread)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        worker.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
