"""Foreign methods contained: a process tree of their own, stopped whole, within one time budget.

A foreign method (a ``module:function``, a registered or plug-in function, an
``exec:`` program) is a suspect: it may hang, print, exit, allocate without
end or start daemons. :func:`run_contained` runs it in two processes of its own:

* a **keeper**, in a new session, made a *child subreaper*
  (``PR_SET_CHILD_SUBREAPER``): whatever the method starts — a ``setsid``
  child, a double-forked daemon — stays below it; it dies with its parent
  (``PR_SET_PDEATHSIG``, then kills the tree first);
* a **runner**, forked by the keeper, which calls the method with standard
  output sent to standard error (a ``print`` never lands in the command's
  output) and standard input closed.

The keeper watches the clock and the memory of the whole tree (the sum of
its processes' resident memory, polled every :data:`POLL_SECONDS`), and when
the method answers, runs past its budget, passes its memory limit or the
keeper is told to stop (SIGTERM, SIGHUP, its parent's death), it kills every
process of the tree (``SIGKILL``, repeated until none is left) and reports.

Layers below the keeper, each used when the machine allows it and checked, never assumed
(:data:`LAYERS`; the layers in force are the outcome's ``containment``):

* ``cgroup``: a fresh memory (and pids) cgroup of the tree, in a cgroup hierarchy this
  process may write to (v2 ``memory.max``/``pids.max``, or v1 ``memory.limit_in_bytes`` and
  ``pids.max``): the kernel counts every page of the tree, ``/dev/shm`` included, and stops
  it at the memory limit (then "memory limit", exit 5); removed after the run, and before
  that, when it still has ``/dev/shm`` pages charged, the files made in ``/dev/shm`` during
  the run that are this user's and that no process holds are removed;
* ``namespace``: a private mount namespace (a user namespace too when needed) with its own
  ``tmpfs`` on ``/dev/shm``, its size the memory limit: what the method writes there counts
  with its memory, is bounded, and vanishes with its last process;
* ``watchdog``: always, the keeper's polling; without a private ``/dev/shm`` it also counts the
  files in ``/dev/shm`` the tree holds open or mapped, and removes them after the run. A
  process forked from the caller's interpreter (the runner, before any ``exec``) counts its
  private pages only: the ones it still shares with the caller are the caller's memory.

The time budget, the same for every kind of method: a method that has not
answered by its time limit plus :func:`grace` (1 s + 10 % of the limit) is
stopped, and its answer says ``time limit``. ``SystemExit``,
``KeyboardInterrupt`` and ``os._exit`` inside the method are an answer saying
"crash: the method exited with ...", never the caller's own exit.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import json
import os
import select
import signal
import stat
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "GRACE_SECONDS",
    "GRACE_SHARE",
    "KEEPER_MARGIN",
    "LAYERS",
    "LAYERS_VARIABLE",
    "MAX_OUTCOME_BYTES",
    "MEMORY_SHARE",
    "PIDS_LIMIT",
    "POLL_SECONDS",
    "MethodError",
    "Outcome",
    "containment_layers",
    "decode_outcome",
    "default_memory_limit",
    "encode_outcome",
    "grace",
    "machine_memory",
    "run_contained",
    "time_budget",
    "tree",
]

#: Fixed part of the grace a method gets past its time limit (seconds).
GRACE_SECONDS = 1.0
#: Share of the time limit added to the grace.
GRACE_SHARE = 0.1
#: Default memory limit of a method's process tree: this share of the machine's memory.
MEMORY_SHARE = 0.75
#: How often the keeper looks at the clock and the tree's memory (seconds).
POLL_SECONDS = 0.05
#: How often the keeper reads the private pages of the processes forked from the caller
#: (``smaps_rollup``, whose cost grows with the process: 38 ms at 3 GB), between which it
#: counts their growth since then (``statm``); and before it stops the tree at the limit.
PRIVATE_SECONDS = 1.0
#: Seconds the caller waits past the budget for the keeper before killing it itself.
KEEPER_MARGIN = 5.0

#: The containment layers, strongest first (see the module docstring).
LAYERS = ("cgroup", "namespace", "watchdog")
#: Most processes and threads of a method's tree, where a pids cgroup holds it.
PIDS_LIMIT = 4096
#: Seconds the caller retries removing a run's cgroup while its last processes finish exiting.
CGROUP_REMOVE_SECONDS = 0.5

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_STOPS = {signal.SIGINT, signal.SIGTERM}


def grace(time_limit: float | None) -> float:
    """Seconds a method may run past ``time_limit`` before it is stopped: 1 s + 10 % of the limit.

    Examples
    --------
    >>> grace(10), grace(None)
    (2.0, 1.0)
    """
    return GRACE_SECONDS + (0.0 if time_limit is None else GRACE_SHARE * time_limit)


def time_budget(time_limit: float | None) -> float | None:
    """The one time budget of every method: ``time_limit + grace(time_limit)`` (None: no limit).

    Examples
    --------
    >>> time_budget(2.0), time_budget(None)
    (3.2, None)
    """
    return None if time_limit is None else time_limit + grace(time_limit)


def machine_memory() -> int:
    """Bytes of memory of this machine (``MemTotal``), or 0 when unknown."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) * 1024
    with contextlib.suppress(ValueError, OSError, AttributeError):
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    return 0


def default_memory_limit() -> int | None:
    """The default memory limit of a method's tree: :data:`MEMORY_SHARE` of the machine's memory
    (None when the machine's memory is unknown)."""
    total = machine_memory()
    return int(total * MEMORY_SHARE) if total else None


@dataclass(frozen=True)
class Outcome:
    """What a contained call gave.

    Attributes
    ----------
    value : Any
        What the method returned (None when it did not return).
    stopped : str or None
        Why it gave nothing: ``"time limit: ..."``, ``"memory limit: ..."``,
        ``"crash: the method exited with ..."``; None when it returned or raised.
    error : BaseException or None
        The exception the method raised (its ``where`` attribute: ``file:line``).
    peak_mb : float or None
        Peak resident memory of the method's process tree (MB): the tree's sum polled every
        :data:`POLL_SECONDS` (a process forked from the caller counting its private pages), and
        the kernel's peak (the memory cgroup's when one is in force, else the runner's, which
        counts the caller's pages it shares); for a program (``count_runner=False``) the polled
        sum only, None when it ended before a poll.
    elapsed : float
        Wall-clock seconds from the start of the method to its end.
    containment : str or None
        The layers that bounded the tree (:data:`LAYERS` joined by ``+``: ``"cgroup+namespace+watchdog"``),
        as the keeper set them up; None when the method ran uncontained.
    """

    value: Any = None
    stopped: str | None = None
    error: BaseException | None = None
    peak_mb: float | None = None
    elapsed: float = 0.0
    containment: str | None = None


def run_contained(
    call: Callable[[], Any],
    *,
    wall_limit: float | None = None,
    memory_limit: int | None = None,
    count_runner: bool = True,
) -> Outcome:
    """Call ``call()`` in a contained process tree (see the module docstring) and return its outcome.

    Parameters
    ----------
    call : callable
        Called without arguments in the runner; its value must be plain JSON values (it crosses
        back as JSON, never as a pickle).
    wall_limit : float, optional
        Seconds after which the tree is killed (``"time limit"``); None: none.
    memory_limit : int, optional
        Bytes of resident memory of the whole tree past which it is killed
        (``"memory limit"``); None: none.
    count_runner : bool
        Whether the runner itself counts in ``peak_mb`` and the memory limit
        (False for a program: then only what it started counts).

    Raises
    ------
    KeyboardInterrupt
        The caller was interrupted while waiting; the tree is killed first.
    """
    if not sys.platform.startswith("linux"):  # no subreaper: the method runs here, uncontained
        began = time.perf_counter()
        try:
            return Outcome(value=call(), elapsed=time.perf_counter() - began)
        except Exception as exc:
            return Outcome(error=exc, elapsed=time.perf_counter() - began)
    for stream in (sys.stdout, sys.stderr):  # nothing buffered here is written twice by a child
        with contextlib.suppress(Exception):
            stream.flush()
    parent = os.getpid()
    _cgroup_bases()  # found once, here: the keeper and this process look at the same folders
    _remove_stale_cgroups()  # a dead run's, like a dead writer's temporaries
    reader, writer = channel()  # the keeper's report: nothing the method can open by name
    before = _adopt_orphans()  # if the keeper dies, what it kept comes back here to be killed
    with _stops_held():
        keeper = os.fork()
        if keeper == 0:  # pragma: no cover - runs in the keeper
            code = 1
            try:
                os.close(reader)
                close_inherited((writer,))  # the caller's pipes, locks and sockets: not the method's
                _prctl(_PR_SET_DUMPABLE, 0)  # /proc/<keeper>/fd closed to the method
                code = _keep(call, writer, parent, wall_limit, memory_limit, count_runner)
            finally:
                os._exit(code)
    os.close(writer)
    try:
        return _collect(keeper, reader, wall_limit, before)
    finally:
        _prctl(_PR_SET_CHILD_SUBREAPER, 0)  # the caller is a subreaper for the run only
        _remove_cgroups(keeper)  # the keeper's, even when it died before removing them


def _collect(keeper: int, reader: int, wall_limit: float | None, before: set[int]) -> Outcome:
    """The keeper's report on ``reader``; after a keeper that hung or died, its tree killed."""
    try:
        data = _read_all(reader, None if wall_limit is None else wall_limit + KEEPER_MARGIN)
    except BaseException:
        _stop_keeper(keeper, signal.SIGTERM)
        raise
    finally:
        os.close(reader)
    if data is None:  # the keeper itself hung: killed, and its tree after it
        _stop_keeper(keeper, signal.SIGKILL)
        kill_strays(keeper, before)
        return Outcome(stopped=f"time limit: no answer after {wall_limit:.1f} s; the method was killed")
    _reap(keeper)
    try:
        return decode_outcome(data)
    except ValueError:
        kill_strays(keeper, before)  # the keeper died without a report: nothing it kept survives it
        return Outcome(stopped=f"crash: {KEEPER_LOST}")


#: Why a run has no answer when its keeper died without reporting (killed by the method or
#: from outside); the method's whole tree is killed by the caller then.
KEEPER_LOST = (
    "the method's keeper process was killed (by the method or from outside); its processes were killed"
)


def _adopt_orphans() -> set[int]:
    """Make this process a child subreaper (orphans of the trees it starts come back to it, not
    to init), and return its children now (those are not a method's)."""
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    return set(_children(os.getpid()))


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError):
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def kill_strays(keeper: int, before: set[int], settle: float = 0.2) -> None:
    """The watchdog of the caller: after the keeper died without a report, kill its process group
    and every process that came back to this subreaper since the run began (a method's children,
    ``setsid`` ones too), with their descendants, until none is left for ``settle`` seconds."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(keeper, signal.SIGKILL)
    quiet_since = time.monotonic()
    deadline = quiet_since + 10.0
    while time.monotonic() < deadline:
        strays = [pid for pid in _children(os.getpid()) if pid not in before]
        if not strays and time.monotonic() - quiet_since > settle:
            return
        for pid in strays:
            for victim in [*tree(pid), pid]:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(victim, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        if strays:
            quiet_since = time.monotonic()
        time.sleep(0.01)


def channel() -> tuple[int, int]:
    """A fresh one-way channel ``(reader, writer)`` between two processes of the tree.

    A connected pair of Unix sockets, not a pipe: a pipe can be opened again by name through
    ``/proc/<pid>/fd/<n>`` by any process of the same user (a method could write a forged report
    into it), a socket cannot; the pair has no name to connect to.
    """
    import socket

    reading, writing = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    reading.shutdown(socket.SHUT_WR)
    writing.shutdown(socket.SHUT_RD)
    return reading.detach(), writing.detach()


def close_inherited(keep: tuple[int, ...]) -> None:
    """Close every descriptor of this (forked) process but standard input, output, error and
    ``keep``: a fork inherits all of its parent's — the caller's result pipes, report locks,
    sockets — and none of them is the method's to write."""
    low = 3
    for fd in sorted(k for k in keep if k >= 3):
        os.closerange(low, fd)
        low = fd + 1
    import resource

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    os.closerange(low, soft if 0 < soft < 2**20 else 2**20)


@contextlib.contextmanager
def _stops_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM around the fork (delivered after it, in the caller)."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _read_all(fd: int, timeout: float | None) -> bytes | None:
    """Everything written on ``fd`` until end of file; None when ``timeout`` passes first."""
    chunks: list[bytes] = []
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _stop_keeper(keeper: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(keeper, signum)
    _reap(keeper)


def _first_to_go() -> None:  # pragma: no cover - runs in the runner
    """Make this process, and all it starts, the first the kernel kills when memory runs out
    (``oom_score_adj`` 1000, which needs no privilege): at the cgroup's limit the method goes,
    never its keeper. Pages in ``/dev/shm`` are no process's resident memory, so without it
    the kernel would choose between two copies of the same interpreter."""
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as handle:
        handle.write("1000")


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _prctl(option: int, value: int) -> None:
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


_stop_requested: list[int] = []


def _keep(
    call: Callable[[], Any],
    writer: int,
    parent: int,
    wall_limit: float | None,
    memory_limit: int | None,
    count_runner: bool,
) -> int:  # pragma: no cover - runs in the keeper
    """The keeper: start the runner, watch it, kill the tree, report on ``writer``."""
    os.setsid()
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda number, frame: _stop_requested.append(number))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    if os.getppid() != parent:  # the caller died before the death signal was set
        return 1
    layers = _Layers(memory_limit)  # the cgroups made and /dev/shm made private, where allowed
    result_reader, result_writer = channel()
    go_reader, go_writer = os.pipe()  # the runner starts the method once it is in its cgroups
    keeper_pid = os.getpid()
    began = time.perf_counter()
    runner = os.fork()
    if runner == 0:
        code = 1
        try:
            os.close(result_reader)
            os.close(writer)
            os.close(go_writer)
            close_inherited((result_writer, go_reader))
            _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # the runner never outlives its keeper
            if os.getppid() != keeper_pid:
                os._exit(1)
            if os.read(go_reader, 1) != b"g":  # the keeper is gone
                os._exit(1)
            os.close(go_reader)
            _first_to_go()
            code = _run(call, result_writer, layers.private_shm)
        finally:
            os._exit(code)
    os.close(go_reader)
    layers.enter(runner)  # the runner alone: the keeper stays out of the memory it bounds
    os.write(go_writer, b"g")
    os.close(go_writer)
    os.close(result_writer)
    os.set_blocking(result_reader, False)
    payload = bytearray()
    status: int | None = None
    peak = 0
    stopped = None
    shared: dict[int, int] = {}  # forked processes: the resident bytes they share, when last read
    read_private = 0.0
    while True:
        with contextlib.suppress(InterruptedError):
            select.select([result_reader], [], [], POLL_SECONDS)
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(result_reader, 1 << 16):
                payload += chunk
        status = _reap_all(runner, status)
        pids = tree(os.getpid())  # once per poll: a scan of /proc costs milliseconds on a busy machine
        precise = time.perf_counter() - read_private >= PRIVATE_SECONDS
        in_shm = layers.shm_bytes(pids)
        used = _tree_memory(os.getpid(), runner, count_runner, pids, shared, precise) + in_shm
        if memory_limit is not None and used > memory_limit and not precise:  # read, not estimated
            precise = True
            used = _tree_memory(os.getpid(), runner, count_runner, pids, shared, True) + in_shm
        if precise:
            read_private = time.perf_counter()
        peak = max(peak, used)
        elapsed = time.perf_counter() - began
        if _stop_requested:  # the caller is gone or stopping: nobody else removes the cgroups
            _kill_tree()
            layers.close()
            layers.release()
            return 1
        if status is not None:
            break
        if memory_limit is not None and used > memory_limit:
            stopped = (
                f"memory limit: the method's processes used {used / 2**20:.0f} MB, "
                f"over the limit of {memory_limit / 2**20:.0f} MB; they were killed"
            )
            break
        if wall_limit is not None and elapsed > wall_limit:
            stopped = (
                f"time limit: no answer after {elapsed:.1f} s (budget {wall_limit:.1f} s); "
                "the method was killed"
            )
            break
    _kill_tree()
    if stopped is None and layers.oom_killed():  # the kernel stopped the tree at the cgroup's limit
        stopped = (
            f"memory limit: the method's processes reached the limit of {(memory_limit or 0) / 2**20:.0f} MB "
            "(counted by the kernel, /dev/shm included); they were killed"
        )
    layers.close()
    with contextlib.suppress(BlockingIOError, OSError):
        while chunk := os.read(result_reader, 1 << 16):
            payload += chunk
    elapsed = time.perf_counter() - began
    import resource

    if count_runner:  # the kernel's peak too, which sees spikes between polls: the cgroup's, which
        # counts the pages the tree made; else the runner's, which also counts those it shares
        # with the interpreter it was forked from (so a program's is polled only)
        kernel = layers.cgroup_peak()
        if kernel is None:
            kernel = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        peak = max(peak, kernel)
    outcome = _outcome(bytes(payload), status, stopped, elapsed)
    peak_mb = round(peak / 2**20, 1) if peak else None  # None: ended before it could be measured
    outcome = Outcome(outcome.value, outcome.stopped, outcome.error, peak_mb, elapsed, layers.name)
    try:
        _write_all(writer, encode_outcome(outcome))
    finally:
        if os.getppid() != parent:  # the caller died meanwhile: nobody else removes the cgroups
            layers.release()
    return 0


def _outcome(payload: bytes, status: int | None, stopped: str | None, elapsed: float) -> Outcome:
    """The runner's report, or what its end says when it gave none."""
    if stopped is None and payload:
        try:
            return decode_outcome(payload)
        except ValueError:
            stopped = "crash: the method's answer could not be read back"
    if stopped is None:
        if status is not None and os.WIFSIGNALED(status):
            stopped = f"crash: the method was killed by signal {os.WTERMSIG(status)}"
        else:
            code = os.WEXITSTATUS(status) if status is not None else "?"
            stopped = f"crash: the method exited with code {code} (os._exit) without an answer"
    return Outcome(stopped=stopped, elapsed=elapsed)


def _run(call: Callable[[], Any], writer: int, private_shm: bool = False) -> int:  # pragma: no cover
    """The runner: call the method with its own standard streams; write its Outcome. With a
    private ``/dev/shm`` (sized to the memory limit), a method that filled it is stopped at the
    memory limit, whatever it made of the full disk."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # the method's prints go to standard error, never into the command's output
    began = time.perf_counter()
    try:
        outcome = Outcome(value=call())
    except SystemExit as exc:
        outcome = Outcome(stopped=f"crash: the method exited with SystemExit({exc.code!r})")
    except KeyboardInterrupt:
        outcome = Outcome(stopped="crash: the method exited with KeyboardInterrupt (raised by the method)")
    except BaseException as exc:
        outcome = Outcome(error=_portable(exc))
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    if private_shm and _shm_full():
        outcome = Outcome(
            stopped="memory limit: the method filled its /dev/shm, whose size is the memory limit"
        )
    outcome = Outcome(outcome.value, outcome.stopped, outcome.error, None, time.perf_counter() - began)
    try:
        data = encode_outcome(outcome)
    except (TypeError, ValueError, RecursionError) as exc:
        failure = RuntimeError(f"the method's answer cannot be sent back ({str(exc)[:200]})")
        data = encode_outcome(Outcome(error=failure))
    _write_all(writer, data)
    return 0


class MethodError(Exception):
    """An exception a contained method raised, as it crossed back: its type's name, its text and
    where it was raised (``file:line``); ``refusal`` for a knightcert error (bad input)."""

    def __init__(self, kind: str, message: str, where: str = "", refusal: bool = False) -> None:
        super().__init__(message)
        self.kind, self.where, self.refusal = kind, where, refusal


#: Most bytes an outcome may take on its way back (an answer as JSON; arrays are compact).
MAX_OUTCOME_BYTES = 1 << 30


def encode_outcome(outcome: Outcome) -> bytes:
    """An outcome as JSON bytes: plain values only cross a process boundary, never a pickle (a
    pickle from the method's process could run code in the reader's)."""
    from knightcert.problems.errors import KnightcertError

    error = outcome.error
    plain_error = None
    if error is not None:
        plain_error = {
            "kind": getattr(error, "kind", None) or type(error).__name__,
            "message": str(error)[:2000],
            "where": str(getattr(error, "where", "") or ""),
            "refusal": bool(getattr(error, "refusal", False) or isinstance(error, KnightcertError)),
            "memory": isinstance(error, MemoryError),
        }
    body = {
        "value": outcome.value,
        "stopped": outcome.stopped,
        "error": plain_error,
        "peak_mb": outcome.peak_mb,
        "elapsed": outcome.elapsed,
        "containment": outcome.containment,
    }
    return json.dumps(body, allow_nan=True).encode()


def decode_outcome(data: bytes) -> Outcome:
    """:func:`encode_outcome`'s bytes read back, every field's type checked.

    Raises
    ------
    ValueError
        Anything but an outcome (too large, not JSON, a field of the wrong type).
    """
    if len(data) > MAX_OUTCOME_BYTES:
        raise ValueError("outcome too large")
    try:
        body = json.loads(data)
    except (UnicodeDecodeError, RecursionError) as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(body, dict) or set(body) != {
        "value",
        "stopped",
        "error",
        "peak_mb",
        "elapsed",
        "containment",
    }:
        raise ValueError("not an outcome")
    stopped, error, peak, elapsed = body["stopped"], body["error"], body["peak_mb"], body["elapsed"]
    containment = body["containment"]
    if containment is not None and not isinstance(containment, str):
        raise ValueError("containment")
    if stopped is not None and not isinstance(stopped, str):
        raise ValueError("stopped")
    if peak is not None and not (isinstance(peak, int | float) and not isinstance(peak, bool)):
        raise ValueError("peak_mb")
    if not (isinstance(elapsed, int | float) and not isinstance(elapsed, bool)):
        raise ValueError("elapsed")
    exception: BaseException | None = None
    if error is not None:
        if not (
            isinstance(error, dict)
            and all(isinstance(error.get(k), str) for k in ("kind", "message", "where"))
        ):
            raise ValueError("error")
        if error.get("memory"):
            exception = MemoryError(error["message"])
        else:
            exception = MethodError(
                error["kind"], error["message"], error["where"], bool(error.get("refusal"))
            )
    return Outcome(body["value"], stopped, exception, peak, float(elapsed), containment)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        with contextlib.suppress(InterruptedError):
            view = view[os.write(fd, view) :]


def _portable(exc: BaseException) -> BaseException:
    """``exc`` with ``where`` (``file:line`` of the innermost frame), or a RuntimeError with its
    text when it does not survive pickling."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f"{os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    from knightcert.problems.errors import KnightcertError

    if isinstance(exc, MemoryError):
        return exc
    return MethodError(type(exc).__name__, str(exc), where, isinstance(exc, KnightcertError))


def _reap_all(runner: int, status: int | None) -> int | None:
    """Reap every ended child (orphans of the tree come to the keeper); the runner's wait status."""
    while True:
        try:
            pid, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return status
        if pid == 0:
            return status
        if pid == runner:
            status = code


def tree(root: int) -> list[int]:
    """Every living descendant of ``root`` (Linux ``/proc``)."""
    parents: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != b"Z":
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in parents.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def _tree_memory(
    root: int,
    runner: int,
    count_runner: bool,
    pids: list[int] | None = None,
    shared: dict[int, int] | None = None,
    precise: bool = True,
) -> int:
    """Resident bytes of ``root``'s descendants. The ``runner``, forked from this interpreter,
    and its copies not yet replaced by a program (a fork before ``exec`` shares its command
    line) count their private pages only: the pages they still share with the interpreter they
    were forked from are the caller's, not the method's. Without ``count_runner`` they count
    nothing (a program's runner only starts it).

    The private pages are read (:func:`_private_bytes`) when ``precise`` or the first time a
    process is seen, and what it shared then is kept in ``shared``; otherwise they are its
    resident bytes less that (cheap, and short only of the shared pages it has copied since)."""
    total = 0
    forked = _command_line(runner)
    shared = {} if shared is None else shared
    for pid in tree(root) if pids is None else pids:
        is_forked = pid == runner or (forked is not None and _command_line(pid) == forked)
        if is_forked and not count_runner:
            continue
        resident = _resident(pid)
        if not is_forked:
            total += resident
        elif precise or pid not in shared:
            private = _private_bytes(pid)
            shared[pid] = max(resident - private, 0)
            total += private
        else:
            total += max(resident - shared[pid], 0)
    return total


def _private_bytes(pid: int) -> int:
    """Bytes of process ``pid``'s pages no other process shares (``/proc/<pid>/smaps_rollup``:
    private clean and dirty); 0 when it is gone."""
    total = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            for line in handle:
                if line.startswith((b"Private_Clean:", b"Private_Dirty:")):
                    total += int(line.split()[1]) * 1024
    except FileNotFoundError:  # a kernel before 4.14: the resident pages, shared ones included
        return _resident(pid)
    except (OSError, ValueError):
        return 0
    return total


def _resident(pid: int) -> int:
    """Resident bytes of process ``pid`` (``/proc/<pid>/statm``); 0 when it is gone."""
    with contextlib.suppress(OSError, IndexError, ValueError), open(f"/proc/{pid}/statm", "rb") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return 0


def _command_line(pid: int) -> bytes | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _kill_tree() -> None:  # pragma: no cover - runs in the keeper
    """SIGKILL every descendant until none is left (orphans come back to the subreaper)."""
    me = os.getpid()
    for _ in range(1000):
        pids = tree(me)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.002)
        _reap_all(-1, None)
    while True:  # reap what is left
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
        except OSError as exc:
            if exc.errno != errno.EINTR:
                break


#: Environment variable naming the containment layers a run may use (a comma-separated subset of
#: :data:`LAYERS`; ``watchdog`` is always in force); unset: every layer the machine allows.
LAYERS_VARIABLE = "KNIGHTCERT_CONTAINMENT"


def containment_layers() -> tuple[str, ...]:
    """The layers a run may try (:data:`LAYERS_VARIABLE`), strongest first; ``watchdog`` always."""
    text = os.environ.get(LAYERS_VARIABLE, "").strip()
    if not text:
        return LAYERS
    asked = {word.strip() for word in text.split(",")}
    return tuple(layer for layer in LAYERS if layer in asked or layer == "watchdog")


@functools.lru_cache(maxsize=1)
def _cgroup_bases() -> tuple[tuple[str, str, str], ...]:
    """``(hierarchy, own folder, controller)`` of each cgroup hierarchy of this process that holds
    the memory or pids controller and that this process may write to: ``("v2", folder, "")`` for
    the unified one, ``("v1", folder, "memory")`` and ``("v1", folder, "pids")`` for the legacy
    ones. Empty when none (the usual case without delegation)."""
    try:
        mounts = Path("/proc/self/mounts").read_text().splitlines()
        own = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return ()
    points: dict[str, str] = {}  # "" (v2) or a controller -> mount point
    for line in mounts:
        fields = line.split()
        if len(fields) < 4:
            continue
        if fields[2] == "cgroup2":
            points.setdefault("", fields[1])
        elif fields[2] == "cgroup":
            for controller in ("memory", "pids"):
                if controller in fields[3].split(","):
                    points.setdefault(controller, fields[1])
    found = []
    for line in own:
        ident, controllers, path = [*line.split(":", 2), "", ""][:3]
        names = [""] if ident == "0" and controllers == "" else controllers.split(",")
        for name in names:
            if name not in points or (name == "" and not path):
                continue
            folder = os.path.join(points[name], path.lstrip("/"))
            if os.path.isdir(folder) and os.access(folder, os.W_OK):
                found.append(("v2" if name == "" else "v1", folder, name))
    return tuple(found)


def _cgroup_name(keeper: int) -> str:
    return f"knightcert-{keeper}"


def _remove_cgroups(keeper: int) -> None:
    """Remove the cgroups of ``keeper``'s run (empty once its tree is gone; retried for
    :data:`CGROUP_REMOVE_SECONDS` while its last processes finish exiting, and removed by the
    next run, :func:`_remove_stale_cgroups`, if they still do not)."""
    for _, folder, _ in _cgroup_bases():
        path = os.path.join(folder, _cgroup_name(keeper))
        until = time.monotonic() + CGROUP_REMOVE_SECONDS
        while True:
            try:
                os.rmdir(path)
            except OSError as exc:
                if exc.errno == errno.EBUSY and time.monotonic() < until:
                    time.sleep(0.01)
                    continue
            break


def _remove_stale_cgroups() -> None:
    """Remove the cgroups of earlier runs whose keeper has ended (a caller killed before it
    removed them): the kernel refuses to remove one that still holds a process."""
    for _, base, _ in _cgroup_bases():
        with contextlib.suppress(OSError), os.scandir(base) as entries:
            for entry in entries:
                pid = entry.name.removeprefix("knightcert-")
                if entry.name != pid and pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                    with contextlib.suppress(OSError):
                        os.rmdir(entry.path)


_CLONE_NEWNS = 0x00020000
_CLONE_NEWUSER = 0x10000000
_MS_NOSUID, _MS_NODEV, _MS_REC, _MS_PRIVATE = 2, 4, 16384, 1 << 18


class _Layers:  # pragma: no cover - runs in the keeper
    """The layers below the keeper, set up in the keeper before it starts the runner: a cgroup
    (the runner put in it before it starts the method, so that all it starts are in it; the
    keeper stays out), a private ``/dev/shm``; every failure falls back quietly to the next
    layer."""

    def __init__(self, memory_limit: int | None) -> None:
        allowed = containment_layers()
        self.memory_limit = memory_limit
        self.cgroups: list[tuple[str, str, str]] = []  # (hierarchy, folder, controller)
        self.private_shm = False
        self.held: dict[str, tuple[int, int]] = {}  # /dev/shm files the tree held: path -> (dev, ino)
        if "cgroup" in allowed and memory_limit is not None:
            self._make_cgroups(memory_limit)
        if "namespace" in allowed:
            self.private_shm = _private_shm(memory_limit)
        self.began = time.time()
        self.shm_before = set() if self.private_shm else _shm_entries()  # what /dev/shm held before the run

    @property
    def name(self) -> str:
        """The layers in force, joined by ``+``."""
        used = ["cgroup"] if self._memory_folders() else []
        return "+".join([*used, *(["namespace"] if self.private_shm else []), "watchdog"])

    def _make_cgroups(self, limit: int) -> None:
        """Make and bound the run's cgroups (named for the keeper); :meth:`enter` puts the
        runner in them."""
        keeper = os.getpid()
        for hierarchy, base, controller in _cgroup_bases():
            folder = os.path.join(base, _cgroup_name(keeper))
            try:
                os.mkdir(folder, 0o700)
            except OSError:
                continue
            try:
                if hierarchy == "v2":
                    _write(folder, "memory.max", str(limit))
                    with contextlib.suppress(OSError):
                        _write(folder, "memory.swap.max", "0")
                    with contextlib.suppress(OSError):
                        _write(folder, "pids.max", str(PIDS_LIMIT))
                elif controller == "memory":
                    _write(folder, "memory.limit_in_bytes", str(limit))
                    with contextlib.suppress(OSError):
                        _write(folder, "memory.memsw.limit_in_bytes", str(limit))
                else:
                    _write(folder, "pids.max", str(PIDS_LIMIT))
            except OSError:
                with contextlib.suppress(OSError):
                    os.rmdir(folder)
                continue
            self.cgroups.append((hierarchy, folder, controller))

    def enter(self, runner: int) -> None:
        """Move ``runner`` (before it starts the method) into the run's cgroups; one that will
        not take it is removed and not counted. The keeper stays out: at the memory limit,
        with the runner killed and its ``/dev/shm`` pages still charged, the kernel would
        otherwise kill the keeper for its next page."""
        entered = []
        for hierarchy, folder, controller in self.cgroups:
            try:
                _write(folder, "cgroup.procs", str(runner))
            except OSError:
                with contextlib.suppress(OSError):
                    os.rmdir(folder)
                continue
            entered.append((hierarchy, folder, controller))
        self.cgroups = entered

    def _memory_folders(self) -> list[tuple[str, str]]:
        """``(hierarchy, folder)`` of the run's memory cgroups."""
        return [(h, folder) for h, folder, controller in self.cgroups if h == "v2" or controller == "memory"]

    def _counter(self, v2: str, v1: str, name: str) -> int:
        """The sum of the counter ``name`` over the run's memory cgroups, read from their
        flat-keyed file (``v2`` in cgroup v2, ``v1`` in v1); 0 without one."""
        total = 0
        for hierarchy, folder in self._memory_folders():
            with contextlib.suppress(OSError, ValueError):
                for line in Path(folder, v2 if hierarchy == "v2" else v1).read_text().splitlines():
                    key, _, value = line.partition(" ")
                    if key == name:
                        total += int(value)
        return total

    def oom_killed(self) -> bool:
        """Whether the kernel killed a process of the tree at the cgroup's memory limit."""
        return self._counter("memory.events", "memory.oom_control", "oom_kill") > 0

    def shm_bytes(self, pids: list[int]) -> int:
        """Bytes the tree (``pids``) holds in ``/dev/shm``: the private tmpfs's use, or, without
        one, the files of ``/dev/shm`` a process of the tree has open or mapped (remembered until
        the end)."""
        if self.private_shm:
            with contextlib.suppress(OSError):
                info = os.statvfs("/dev/shm")
                return (info.f_blocks - info.f_bfree) * info.f_frsize
            return 0
        for pid in pids:
            for path in _shm_files_of(pid):
                if path not in self.held:
                    with contextlib.suppress(OSError):
                        found = os.stat(path, follow_symlinks=False)
                        if found.st_uid == os.geteuid():
                            self.held[path] = (found.st_dev, found.st_ino)
        total = 0
        for path, (device, inode) in self.held.items():
            with contextlib.suppress(OSError):
                found = os.stat(path, follow_symlinks=False)
                if (found.st_dev, found.st_ino) == (device, inode):
                    total += found.st_blocks * 512
        return total

    def close(self) -> None:
        """After the tree is killed: its ``/dev/shm`` files removed (a private tmpfs vanishes by
        itself). The cgroups are removed by the caller once the keeper has ended
        (:func:`_remove_cgroups`)."""
        for path, (device, inode) in self.held.items():
            with contextlib.suppress(OSError):
                found = os.stat(path, follow_symlinks=False)
                if (found.st_dev, found.st_ino) == (device, inode):
                    os.unlink(path)
        self.held.clear()
        if not self.private_shm and self._cgroup_shmem() > 0:
            self._remove_unseen()

    def cgroup_peak(self) -> int | None:
        """The peak bytes the kernel charged to the run's memory cgroup (v1
        ``memory.max_usage_in_bytes``, v2 ``memory.peak``); None without one."""
        for hierarchy, folder in self._memory_folders():
            name = "memory.peak" if hierarchy == "v2" else "memory.max_usage_in_bytes"
            with contextlib.suppress(OSError, ValueError):
                return int(Path(folder, name).read_text())
        return None

    def _cgroup_shmem(self) -> int:
        """Bytes of shared memory (``/dev/shm`` files among them) still charged to the run's
        memory cgroups once its tree is gone: 0 when nothing it wrote there is left, or when no
        memory cgroup is in force."""
        return self._counter("memory.stat", "memory.stat", "shmem")

    def _remove_unseen(self) -> None:
        """Remove the files the tree left in ``/dev/shm`` that no poll saw it hold (the kernel
        stopped it at the cgroup's limit between two polls, or it closed them): those the
        cgroup still has charged, so made during the run; among the files made since it began,
        only this user's, and only those no living process holds open or mapped."""
        made = sorted(_shm_entries() - self.shm_before)
        if not made:
            return
        in_use: set[str] = set()
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                in_use |= _shm_files_of(int(entry.name))
        for name, device, inode in made:
            path = "/dev/shm/" + name
            with contextlib.suppress(OSError):
                found = os.stat(path, follow_symlinks=False)
                if (
                    (found.st_dev, found.st_ino) == (device, inode)
                    and stat.S_ISREG(found.st_mode)
                    and found.st_uid == os.geteuid()
                    and found.st_ctime >= self.began - 1
                    and path not in in_use
                ):
                    os.unlink(path)

    def release(self) -> None:
        """The keeper removes the run's cgroups (when its caller, who would remove them, is
        gone; the tree they held is killed first)."""
        for _, folder, _ in self.cgroups:
            with contextlib.suppress(OSError):
                os.rmdir(folder)


def _write(folder: str, name: str, text: str) -> None:
    with open(os.path.join(folder, name), "w") as handle:
        handle.write(text)


def _shm_entries() -> set[tuple[str, int, int]]:
    """The regular files of ``/dev/shm`` (symbolic links not followed): (name, device, inode)."""
    found = set()
    with contextlib.suppress(OSError), os.scandir("/dev/shm") as entries:
        for entry in entries:
            with contextlib.suppress(OSError):
                if entry.is_file(follow_symlinks=False):
                    info = entry.stat(follow_symlinks=False)
                    found.add((entry.name, info.st_dev, info.st_ino))
    return found


def _shm_files_of(pid: int) -> set[str]:
    """Paths under ``/dev/shm`` process ``pid`` has open or mapped."""
    found = set()
    with contextlib.suppress(OSError):
        for entry in os.scandir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(entry.path)
                if target.startswith("/dev/shm/"):
                    found.add(target.removesuffix(" (deleted)"))
    with contextlib.suppress(OSError), open(f"/proc/{pid}/maps", "rb") as handle:
        for line in handle:
            at = line.find(b" /dev/shm/")
            if at >= 0:
                found.add(line[at + 1 :].rstrip(b"\n").decode("utf-8", "replace").removesuffix(" (deleted)"))
    return found


def _private_shm(memory_limit: int | None, user: bool | None = None) -> bool:
    """Give this process (and all it starts later) a mount namespace of its own, with a fresh
    ``tmpfs`` of ``memory_limit`` bytes on ``/dev/shm``: True when done, False (nothing changed
    that matters) when the machine does not allow it. ``user``: enter a user namespace first
    (None: only when a mount namespace alone is refused, as for a user without privileges)."""
    if not sys.platform.startswith("linux") or not os.path.isdir("/dev/shm"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    uid, gid = os.geteuid(), os.getegid()
    try:
        before = os.readlink("/proc/self/ns/mnt")
    except OSError:
        return False
    if user is not True and libc.unshare(_CLONE_NEWNS) == 0:
        pass
    elif user is not False and libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNS) == 0:
        try:
            _write("/proc/self", "setgroups", "deny")
            _write("/proc/self", "uid_map", f"{uid} {uid} 1")
            _write("/proc/self", "gid_map", f"{gid} {gid} 1")
        except OSError:
            return False
    else:
        return False
    try:  # never mount anything unless this process is in a mount namespace of its own now
        if os.readlink("/proc/self/ns/mnt") == before:
            return False
    except OSError:
        return False
    if libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None) != 0:  # nothing leaks out
        return False
    size = f"size={memory_limit}," if memory_limit else ""
    options = f"{size}mode=1777".encode()
    return libc.mount(b"knightcert", b"/dev/shm", b"tmpfs", _MS_NOSUID | _MS_NODEV, options) == 0


def _shm_full() -> bool:
    """Whether this process's ``/dev/shm`` has no room left."""
    try:
        info = os.statvfs("/dev/shm")
    except OSError:
        return False
    return info.f_bavail == 0
