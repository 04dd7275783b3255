"""Persistent worker processes: warm between tasks, killed one task at a time, harmless to the caller.

A worker is a fresh interpreter (``python -c``, started like ``multiprocessing``'s *spawn*: it
inherits no memory mapping, no descriptor and no child of the caller) in a session of its own,
so that killing its process group takes the processes its method started along. It runs many
tasks, one at a time; what a method loads or caches (imports, numba kernels, its own caches)
stays for its next task there. The caller's side, :class:`Pool`, sends each task (a function
and its arguments, pickled: the caller's own data) and reads one JSON value back (never a
pickle: a method's process can write nothing the caller would execute). The caller watches
each busy worker and kills it (``SIGKILL`` to its process group) when

* its task runs past its wall-clock limit (``"time limit"``), counted from the moment the
  worker says its timed call began (:func:`timed_call`), so that loading and warming a method
  never eat its budget; or its timed call runs past the job's ``call_limit`` (the method's own
  time budget) before the worker says it returned: the time for checking its answer is given
  only to an answer;
* its processes' memory passes the memory limit (``"memory limit"``): read by the caller from
  ``/proc/PID/status`` (``RssAnon``) of the worker and of its descendants
  (``/proc/PID/task/*/children``), plus the ``/dev/shm`` files they hold open or mapped
  (``/proc/PID/fd``, ``/proc/PID/maps``), every :data:`POLL_SECONDS`. Workers stay dumpable, so
  an unprivileged user reads them exactly as root does;

and a worker that ends without an answer is a ``"crash"`` (``"killed by signal"`` when a signal
ended it). A killed or dead worker is replaced before the next task. What its methods left running
is killed with it: its tree (while its pid is still its own), the processes a poll saw below it,
and this user's processes whose environment carries its mark (``KNIGHTCERT_WORKER``, a random
token per worker), pass after pass until a pass finds none. After a worker is killed,
the ``/dev/shm`` files its processes were seen holding, made during that task, and owned by
this user are removed: nothing else ever is. Nothing is mounted, no namespace or cgroup is made,
and the caller's signal handlers, children and reaping are left alone. A worker exits when its
caller's channel closes or its parent is gone (polled every :data:`PARENT_POLL_SECONDS`).
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import pickle
import selectors
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from knightcert.problems.cores import THREADS_ENV, thread_share

__all__ = [
    "GRACE_SECONDS",
    "GRACE_SHARE",
    "MEMORY_LIMIT_VARIABLE",
    "MEMORY_SHARE",
    "POLL_SECONDS",
    "Job",
    "Outcome",
    "Pool",
    "checked_again",
    "grace",
    "in_worker",
    "memory_limit",
    "run_alone",
    "shared_pool",
    "time_budget",
    "timed_call",
]

#: Fixed part of the grace a method gets past its time limit (seconds).
GRACE_SECONDS = 1.0
#: Share of the time limit added to the grace.
GRACE_SHARE = 0.1
#: Default memory limit of a worker's processes: this share of the machine's memory.
MEMORY_SHARE = 0.75
#: Environment variable holding the memory limit of a worker's processes (MB; ``--memory-limit``).
MEMORY_LIMIT_VARIABLE = "KNIGHTCERT_MEMORY_LIMIT"
#: How often the caller reads a busy worker's memory (seconds).
POLL_SECONDS = 0.05
#: Work a batch of jobs is sized to (seconds, from the jobs' mean time so far): jobs go to a
#: worker in batches, one write each, a new batch while its last job runs (it never waits).
BATCH_SECONDS = 0.05
#: Most jobs in a batch.
BATCH_JOBS = 64
#: Largest batch (bytes; a larger job goes alone): well inside a pipe's 64 KB, so that the
#: caller's write never waits on a worker that is itself waiting to write its reply.
AHEAD_BYTES = 16 * 1024
#: How often a worker looks whether its parent is still there (seconds).
PARENT_POLL_SECONDS = 0.5
#: Largest reply a worker may send (bytes); past it the reply is garbled and the worker killed.
MAX_REPLY_BYTES = 1 << 30
_HEADER = struct.Struct("<Q")
_BEGIN = b"\x00begin"  # a worker's note that its timed call begins now
_RETURNED = b"\x00returned"  # ... that its timed call returned (its answer is being checked)
_SHM = "/dev/shm/"
_MARK = "KNIGHTCERT_WORKER"  # a worker's random token, in its processes' environment


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


def memory_limit() -> int | None:
    """Bytes a worker's processes may hold: ``KNIGHTCERT_MEMORY_LIMIT`` (MB) when set, else
    :data:`MEMORY_SHARE` of the machine's memory (None when unknown)."""
    with contextlib.suppress(ValueError):
        megabytes = float(os.environ.get(MEMORY_LIMIT_VARIABLE, "").strip() or "0")
        if megabytes > 0:
            return int(megabytes * 2**20)
    with contextlib.suppress(OSError, ValueError):
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") * MEMORY_SHARE)
    return None


@dataclass
class Job:
    """A task for a worker: ``function(*args)`` there, its JSON-able value sent back."""

    function: Callable[..., Any]
    args: tuple[Any, ...] = ()
    wall_limit: float | None = None  # seconds from its timed call's start; None: none
    call_limit: float | None = None  # seconds its timed call may take to return; None: wall_limit
    tag: Any = None  # the caller's, handed back with the outcome
    trusted: bool = False  # runs the project's own code only (no foreign method)
    data: bytes | None = field(default=None, repr=False)  # pickled, once
    clean: bool = field(default=False, repr=False)  # its worker had run trusted jobs only, it included
    deadline: float | None = None  # a single call's (run_alone): stopped then, however it started


@dataclass
class Outcome:
    """What a job gave: ``value`` (JSON values) or why there is none (``stopped``)."""

    value: Any = None
    stopped: str | None = None
    peak_mb: float | None = None
    elapsed: float = 0.0


_worker_side = False
_checked_again = True


def in_worker() -> bool:
    """Whether this process is a knightcert worker (a method runs here directly)."""
    return _worker_side


def checked_again() -> bool:
    """In a worker: whether the caller checks this job's value again (a foreign job has run on this
    worker: the value must carry what the check needs); False: the caller takes it as it is."""
    return _checked_again


def timed_call(begins: bool = True) -> None:
    """In a worker: tell the caller the timed call begins now (its wall clock restarts here), or
    returned (``begins`` False). Between the two, the job's ``call_limit`` holds (its method's time
    budget); before and after, its ``wall_limit`` alone (loading, warming, checking the answer)."""
    if _worker_side:
        _send(_CHANNEL[0], _BEGIN if begins else _RETURNED)


_CHANNEL: list[int] = []


def _send(fd: int, data: bytes) -> None:
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _receive(stream: Any) -> bytes | None:
    """The next message of the buffered ``stream``, None at its end."""
    header = stream.read(_HEADER.size)
    data = stream.read(_HEADER.unpack(header)[0]) if len(header) == _HEADER.size else b""
    return data if data else None  # a job is never empty: its first byte is its flag


def serve() -> None:  # pragma: no cover - runs in the worker
    """A worker's loop: read a pickled job, run it, write its JSON value back, until EOF."""
    global _worker_side, _checked_again
    _worker_side = True
    tasks, answers = os.fdopen(os.dup(0), "rb"), os.dup(1)
    _CHANNEL[:] = [answers]
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # a method's print goes to standard error, never into the channel
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller stops its workers itself
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):  # orphans of the method come back here
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        _kill_tree(os.getpid())

    threading.Thread(target=watch, daemon=True).start()
    while (data := _receive(tasks)) is not None:
        # this process's high-water mark of resident memory (VmHWM) restarts now: the job's own peak
        # (not ru_maxrss: it keeps the caller's peak when the worker was spawned); not restarted: none.
        # Less its file-backed pages at the end (libraries, which the memory limit does not count)
        restarted = False
        with contextlib.suppress(OSError):
            restarted = Path("/proc/self/clear_refs").write_text("5") > 0
        try:
            _checked_again = data[:1] != b"\x01"
            function, args = pickle.loads(memoryview(data)[1:])
            reply: Any = {"value": function(*args)}
        except BaseException as exc:  # SystemExit, KeyboardInterrupt in a method: a crash row
            last = traceback.extract_tb(exc.__traceback__)[-1:]
            where = f" ({os.path.basename(last[0].filename)}:{last[0].lineno})" if last else ""
            reply = {"stopped": f"crash: {type(exc).__name__}: {str(exc)[:300]}{where}"}
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        mark, files = _resident("self", "VmHWM:", "RssFile:")
        reply["peak"] = mark - files if restarted else None
        try:
            payload = json.dumps(reply).encode()
        except (TypeError, ValueError) as exc:
            payload = json.dumps({"stopped": f"crash: the answer is not plain data ({exc})"}).encode()
        _send(answers, payload)


def _dumps(value: Any) -> bytes:
    """``value`` pickled; by value with cloudpickle when it holds a local function or a lambda
    that pickle cannot send, or anything of ``__main__`` (a script's or a notebook's function,
    which pickle sends by a name the worker's own ``__main__`` does not hold)."""
    with contextlib.suppress(pickle.PicklingError, AttributeError, TypeError):
        if b"__main__" not in (data := pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)):
            return data
    import cloudpickle  # type: ignore[import-untyped]

    return cloudpickle.dumps(value)


@dataclass
class _Worker:
    process: subprocess.Popen[bytes]
    mark: bytes  # in the environment of its processes (and of theirs, unless a method drops it)
    queue: collections.deque[Job] = field(default_factory=collections.deque)  # sent; [0] runs
    began: float = 0.0
    peak: int = 0
    shm_before: set[str] = field(default_factory=set)
    shm_seen: set[str] = field(default_factory=set)
    polled: float = 0.0
    buffer: bytes = b""
    members: dict[int, str | None] = field(default_factory=dict)  # pid -> start time, seen below it
    clean: bool = True  # sent trusted jobs only
    calling: bool = False  # its running job's timed call has begun and not returned
    folder: str = ""  # TMPDIR of its processes, removed when it ends (however it ends)

    @classmethod
    def start(cls, threads: str = "") -> _Worker:
        for stream in (sys.stdout, sys.stderr):  # nothing buffered here is written twice
            with contextlib.suppress(Exception):
                stream.flush()
        path = json.dumps([entry or os.getcwd() for entry in sys.path])
        code = f"import sys; sys.path[:] = {path}; from knightcert.workers import serve; serve()"
        token, folder = os.urandom(8).hex(), tempfile.mkdtemp(prefix="knightcert-worker-")
        process = subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,
            env={**os.environ, _MARK: token, "TMPDIR": folder, THREADS_ENV: threads or thread_share(1)},
        )
        return cls(process, f"{_MARK}={token}".encode(), folder=folder)

    @property
    def pid(self) -> int:
        return self.process.pid

    def send(self, pending: collections.deque[Job], count: int) -> None:
        """Move up to ``count`` jobs from ``pending`` to the worker's queue in one write: a batch
        of at most :data:`AHEAD_BYTES` (a larger job alone, when none is queued). They start as
        the ones before them end; they go back to ``pending`` when the worker has ended."""
        assert self.process.stdin is not None
        batch, sent = b"", 0
        while pending and sent < count:
            job = pending[0]
            job.data = _dumps((job.function, job.args)) if job.data is None else job.data
            if (batch or self.queue) and len(batch) + len(job.data) > AHEAD_BYTES:
                break
            self.clean = job.clean = self.clean and job.trusted
            batch += _HEADER.pack(len(job.data) + 1) + (b"\x01" if job.clean else b"\x00") + job.data
            self.queue.append(pending.popleft())
            sent += 1
        if sent and len(self.queue) == sent:
            self.front()
        try:
            self.process.stdin.write(batch)
            self.process.stdin.flush()
        except OSError:  # it has ended: none was sent (its end is read from its output)
            pending.extendleft(self.queue.pop() for _ in range(sent))

    def front(self) -> None:
        """The first queued job begins: its clock, its memory peak and its /dev/shm baseline."""
        self.began = time.perf_counter()
        self.peak, self.shm_before, self.shm_seen = 0, _shm_names(), set()

    def kill(self, sweep: bool = True) -> None:
        """Kill the worker and what its methods left running: its tree while its pid is its own
        (not reaped), the processes a poll saw below it, and (``sweep``) those carrying its mark."""
        if self.process.returncode is None:  # reaped, its pid and group could be another's now
            _kill_tree(self.pid)
        for pid, began in self.members.items():  # seen below it at a poll: orphaned if it died first
            if _start_time(pid) == began:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        self.members = {}
        if sweep:
            _kill_marked({self.mark})
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        for name in self.shm_seen - self.shm_before:  # made during the task, held by it, ours
            with contextlib.suppress(OSError):
                if os.stat(name).st_uid == os.getuid():
                    os.unlink(name)
        shutil.rmtree(self.folder, ignore_errors=True)  # what a killed method left in its temp folder

    def memory(self) -> int:
        """Bytes the worker's processes hold (see the module docstring); its peak kept."""
        total, files = 0, set()
        for pid in _tree(self.pid):
            self.members.setdefault(pid, _start_time(pid))
            anonymous, shared = _resident(pid)
            total += anonymous
            files |= _shm_held(pid, mapped=shared > 0)
        self.shm_seen |= files
        for name in files:
            with contextlib.suppress(OSError):
                total += os.stat(name).st_blocks * 512
        self.peak = max(self.peak, total)
        return total


def _kill_marked(marks: set[bytes]) -> None:
    """Kill this user's processes whose environment holds one of ``marks``, pass after pass until a
    pass finds none it had not killed (what forked meanwhile is found by the next)."""
    killed: set[str] = set()
    while marks:
        found = set()
        with contextlib.suppress(OSError):
            for entry in set(os.listdir("/proc")) - killed:
                with contextlib.suppress(OSError, ValueError):
                    if os.stat(f"/proc/{entry}").st_uid != os.getuid():
                        continue
                    if marks & set(Path(f"/proc/{entry}/environ").read_bytes().split(b"\0")):
                        os.kill(int(entry), signal.SIGKILL)
                        found.add(entry)
        if not found:
            return
        killed |= found


def _start_time(pid: int) -> str | None:
    """When process ``pid`` started (``/proc/PID/stat``), None when it is gone: tells a pid reused."""
    with contextlib.suppress(OSError, IndexError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    return None


def _resident(pid: int | str, *keys: str) -> tuple[int, ...]:
    """Bytes of process ``pid`` (or ``"self"``) under ``keys`` of its ``/proc/PID/status``: by default
    its resident anonymous and shared memory (``RssAnon``, ``RssShmem``); zeros when unreadable."""
    keys = keys or ("RssAnon:", "RssShmem:")
    with contextlib.suppress(OSError, ValueError, IndexError):
        text = Path(f"/proc/{pid}/status").read_text()
        return tuple(int(text.split(key)[1].split()[0]) * 1024 for key in keys)
    return (0,) * len(keys)


def _kill_tree(root: int) -> None:
    """Kill ``root``, its process group and every process below it (the worker is a child
    subreaper: what its method left running, ``setsid`` daemons included, is below it)."""
    for pid in _tree(root)[:0:-1]:  # the descendants first: a worker may be killing itself
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(root, signal.SIGKILL)


def _tree(root: int) -> list[int]:
    """``root`` and its descendants now (``/proc/PID/task/TID/children``)."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{pid}/task"):
                with contextlib.suppress(OSError, ValueError):
                    todo += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    return found


def _shm_held(pid: int, mapped: bool = True) -> set[str]:
    """The ``/dev/shm`` files process ``pid`` holds open (or mapped: when ``mapped``)."""
    held = set()
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith(_SHM):
                    held.add(target)
    with contextlib.suppress(OSError), open(f"/proc/{pid}/maps" if mapped else os.devnull, "rb") as maps:
        for line in maps:
            if b" /dev/shm/" in line:
                held.add(line[line.index(b"/dev/shm/") :].rstrip(b"\n").decode(errors="replace"))
    return {name for name in held if not name.endswith(" (deleted)")}


def _shm_names() -> set[str]:
    with contextlib.suppress(OSError):
        return {_SHM + name for name in os.listdir(_SHM)}
    return set()


class Pool:
    """``size`` persistent workers (see the module docstring); use as a context manager."""

    def __init__(self, size: int = 1, limit: int | None = None) -> None:
        self.size, self.given_limit, self.limit = max(1, size), limit, limit
        self.idle: list[_Worker] = []
        self.mean = BATCH_SECONDS  # a job's mean time, as measured (seconds)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the idle workers (their channel closes: they exit; killed if they do not)."""
        for worker in self.idle:
            worker.kill(sweep=False)
        _kill_marked({worker.mark for worker in self.idle})  # one pass over /proc for them all
        self.idle = []

    def run(self, jobs: Iterable[Job]) -> Generator[tuple[Job, Outcome], None, None]:
        """Run ``jobs`` on ``size`` workers, sent in batches of :data:`BATCH_SECONDS` of work (and
        no more than a fair share of what is left); yield each with its outcome as it ends. The
        jobs queued behind one whose worker is killed go to another worker. Closing the iterator
        (or Ctrl-C) kills the workers still busy."""
        pending: collections.deque[Job] = collections.deque(jobs)
        self.limit = memory_limit() if self.given_limit is None else self.given_limit  # as set now
        active: list[_Worker] = []
        selector = selectors.DefaultSelector()
        try:
            while pending or any(worker.queue for worker in active):
                while pending and len(active) < self.size:
                    worker = self.idle.pop() if self.idle else _Worker.start(thread_share(self.size))
                    if worker.process.poll() is not None:  # ended while idle: replaced
                        worker.kill()
                        continue
                    active.append(worker)
                    selector.register(worker.process.stdout, selectors.EVENT_READ, worker)  # type: ignore[arg-type]
                for worker in active:
                    if pending and len(worker.queue) < 2:  # a batch, at most a fair share of what is left
                        share = min(BATCH_JOBS, -(-len(pending) // (2 * self.size)))
                        worker.send(pending, max(1, min(share, round(BATCH_SECONDS / max(self.mean, 1e-4)))))
                for key, _ in selector.select(POLL_SECONDS):
                    yield from self._settle(key.data, self._read(key.data), active, pending, selector)
                now = time.perf_counter()
                for worker in [worker for worker in active if worker.queue]:
                    yield from self._settle(worker, self._check(worker, now), active, pending, selector)
        finally:
            selector.close()
            for worker in active:
                if worker.queue:
                    worker.kill()
                else:
                    self.idle.append(worker)

    def _settle(
        self,
        worker: _Worker,
        outcomes: list[Outcome],
        active: list[_Worker],
        pending: collections.deque[Job],
        selector: selectors.BaseSelector,
    ) -> Iterator[tuple[Job, Outcome]]:
        """The worker's jobs that ended; one that failed takes the worker with it (killed, out
        of ``active``), and the jobs queued behind it go back to ``pending``."""
        for outcome in outcomes:
            if worker not in active:
                return
            if outcome.stopped is not None or not worker.queue:
                selector.unregister(worker.process.stdout)  # type: ignore[arg-type]
                active.remove(worker)
                pending.extendleft(reversed(list(worker.queue)[1:]))
            if not worker.queue:  # it ended with no job of ours running
                worker.kill()
                return
            yield self._finish(worker, outcome)

    def _read(self, worker: _Worker) -> list[Outcome]:
        """The replies the worker has finished; a crash when it ended without one."""
        assert worker.process.stdout is not None
        chunk = os.read(worker.process.stdout.fileno(), 1 << 20)
        if not chunk:
            code = worker.process.wait()
            how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
            return [Outcome(stopped=f"crash: the method's worker {how}")]
        worker.buffer += chunk
        done: list[Outcome] = []
        while len(worker.buffer) >= _HEADER.size and len(done) < len(worker.queue):
            size = _HEADER.unpack(worker.buffer[: _HEADER.size])[0]
            if size > MAX_REPLY_BYTES:
                return [*done, Outcome(stopped="crash: the worker's reply was garbled")]
            if len(worker.buffer) < _HEADER.size + size:
                break
            data = worker.buffer[_HEADER.size : _HEADER.size + size]
            worker.buffer = worker.buffer[_HEADER.size + size :]
            if data in (_BEGIN, _RETURNED):  # a timed call begins (the clock restarts), or returned
                if data == _BEGIN:
                    worker.began = time.perf_counter()
                worker.calling = data == _BEGIN
                continue
            worker.calling = False  # a reply: its job's call is over (a note after it is the next job's)
            try:
                reply = json.loads(data)
                stopped, peak = None if "value" in reply else str(reply["stopped"]), reply.get("peak")
                done.append(Outcome(reply.get("value"), stopped, peak / 2**20 if type(peak) is int else None))
            except (ValueError, KeyError, TypeError):
                return [*done, Outcome(stopped="crash: the worker's reply was garbled")]
        return done

    def _check(self, worker: _Worker, now: float) -> list[Outcome]:
        """The worker's running job stopped when it must be killed now (time or memory)."""
        job = worker.queue[0]
        late = job.deadline is not None and now > job.deadline  # its worker's start-up counted too
        limit = job.wall_limit
        if job.call_limit is not None and worker.calling:  # the timed call runs: its own budget holds
            limit = job.call_limit if limit is None else min(limit, job.call_limit)
        if late or (limit is not None and now - worker.began > limit):
            since = job.deadline - (job.wall_limit or 0.0) if late and job.deadline else worker.began
            how = "the method's call had not returned" if worker.calling and not late else "no answer"
            why = f"time limit: {how} after {now - since:.1f} s; its worker was killed"
            return [Outcome(stopped=why)]
        if now - worker.polled < POLL_SECONDS:
            return []
        worker.polled = now
        used, cap = worker.memory() / 2**20, (self.limit or 0) / 2**20
        why = f"memory limit: the method's processes used {used:.0f} MB (limit {cap:.0f} MB)"
        return [Outcome(stopped=why)] if self.limit is not None and used > cap else []

    def _finish(self, worker: _Worker, outcome: Outcome) -> tuple[Job, Outcome]:
        job, outcome.elapsed = worker.queue.popleft(), time.perf_counter() - worker.began
        # the job's own: the largest of the readings during it and of the worker's word (its own peak)
        outcome.peak_mb = round(max(worker.peak / 2**20, outcome.peak_mb or 0), 1) or None
        if outcome.stopped is None:
            self.mean += (outcome.elapsed - self.mean) / 8
            if worker.queue:
                worker.front()
        else:
            worker.queue.clear()  # its other jobs went back to the pending ones
            worker.kill()  # replaced by a fresh one for the next job
        return job, outcome


_SHARED: dict[int, tuple[tuple[str, ...], Pool]] = {}
_SHARED_LOCK = threading.Lock()


def shared_pool(size: int) -> Pool:
    """This process's pool of ``size`` workers, kept warm from one call to the next while the
    folder and ``sys.path`` stay the same (a worker imports methods from what they were when it
    started: another folder gets fresh workers); its workers end with this process."""
    where = (os.getcwd(), *sys.path)
    with _SHARED_LOCK:
        if not _SHARED:
            import atexit

            atexit.register(_close_shared)
        if size in _SHARED and _SHARED[size][0] != where:
            _SHARED.pop(size)[1].close()
        return _SHARED.setdefault(size, (where, Pool(size)))[1]


def _close_shared() -> None:
    for _, pool in _SHARED.values():
        pool.close()


_ALONE_LOCK = threading.Lock()


def _forget_in_child() -> None:
    """A forked child owns none of its parent's workers: it forgets them (never kills them) and
    takes fresh locks (a parent's thread may have held one at the fork)."""
    global _SHARED_LOCK, _ALONE_LOCK
    _SHARED.clear()
    _SHARED_LOCK, _ALONE_LOCK = threading.Lock(), threading.Lock()


os.register_at_fork(after_in_child=_forget_in_child)


def run_alone(function: Callable[..., Any], args: tuple[Any, ...], wall_limit: float | None) -> Outcome:
    """``function(*args)`` on this process's own worker (:func:`shared_pool` of one, kept warm;
    one call at a time, from any thread), under the memory limit; ``wall_limit`` counts from now
    (starting the worker and importing the method included)."""
    with _ALONE_LOCK:
        deadline = None if wall_limit is None else time.perf_counter() + wall_limit
        for _, outcome in shared_pool(1).run([Job(function, args, wall_limit, deadline=deadline)]):
            return outcome
    raise AssertionError("a pool yields one outcome per job")  # pragma: no cover
