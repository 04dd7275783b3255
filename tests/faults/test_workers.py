"""Isolation without harm (issue 38): a foreign method that crashes, hangs or grows costs its worker
only, and nothing of the caller's — its ``/dev/shm`` segments, its child processes, its signal
handlers, its reaping — or of another program's is touched. Each containment case of the issue is a
test here; ``.ci/run`` runs this folder as root and as an unprivileged user."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from knightcert.workers import Job, Pool

from .conftest import environment, run_cli

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.path.isdir("/dev/shm"), reason="Linux /proc and /dev/shm"
)

METHODS = '''
import os, time

def quiet(instance, time_limit=None, seed=None):
    return {"status": "UNKNOWN"}

def who(instance, time_limit=None, seed=None):
    return {"status": "UNKNOWN", "info": {"uid": os.getuid(), "mnt": os.readlink("/proc/self/ns/mnt"),
            "user": os.readlink("/proc/self/ns/user")}}

def suicide(instance, time_limit=None, seed=None):
    os.kill(os.getpid(), 9)

def hang(instance, time_limit=None, seed=None):
    time.sleep(1000)

def filling(instance, time_limit=None, seed=None):
    """Write to a /dev/shm file of its own, held open, 4 MB at a time, until stopped."""
    with open("/dev/shm/" + os.environ["FILL_NAME"], "wb") as out:
        while True:
            out.write(b"x" * 4 * 2**20)
            out.flush()
            time.sleep(0.001)
'''

#: A program calling the API, holding its own /dev/shm segment and child processes (one started
#: from another thread during the runs), its own SIGCHLD handler; it prints what survived.
CALLER = """
import json, os, signal, subprocess, sys, threading, ctypes
from multiprocessing import shared_memory
import knightcert
from knightcert.problems.independent_knights import knights_instance

segment = shared_memory.SharedMemory(create=True, size=200 * 2**20)
segment.buf[: 200 * 2**20 : 4096] = b"\\x01" * (200 * 2**20 // 4096)
handler = lambda *a: None
signal.signal(signal.SIGCHLD, handler)
before = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
during = []
def start():
    during.append(subprocess.Popen([sys.executable, "-c", "import sys, time; time.sleep(2); sys.exit(7)"]))
threading.Timer(0.3, start).start()
stopped = {}
for name in sys.argv[1:]:
    result = knightcert.solve(knights_instance(6), "mymod:" + name, time_limit=3)
    stopped[name] = result.info.get("stopped", "")
prctl = ctypes.CDLL(None).prctl
flag = ctypes.c_int(-1)
prctl(37, ctypes.byref(flag), 0, 0, 0)  # PR_GET_CHILD_SUBREAPER
print(json.dumps({
    "stopped": stopped,
    "segment": bytes(segment.buf[:8192:4096]).hex(),
    "segment_file": os.path.exists("/dev/shm/" + segment.name),
    "before_alive": before.poll() is None,
    "during_code": during[0].wait(timeout=30) if during else None,
    "handler_kept": signal.getsignal(signal.SIGCHLD) is handler,
    "subreaper": flag.value,
}))
before.kill(); before.wait()
segment.close(); segment.unlink()
"""


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "mymod.py").write_text(METHODS)
    return tmp_path


@pytest.mark.heavy
def test_the_caller_s_segment_children_and_handlers_survive_every_failure(folder):
    """The issue's API cases: a 200 MB segment of the caller under a 150 MB limit does not count
    as the method's (it answers) and is neither deleted nor changed; the caller's children, one
    started from another thread while the worker of a method that killed itself was replaced,
    are neither killed nor reaped (the caller waits for its exit code 7); its SIGCHLD handler is
    kept; it is never made a subreaper."""
    env = {**environment(), "KNIGHTCERT_MEMORY_LIMIT": "150", "FILL_NAME": f"kc-fill-{os.getpid()}"}
    done = subprocess.run(
        [sys.executable, "-c", CALLER, "quiet", "suicide", "hang", "filling"],
        cwd=folder, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["stopped"]["quiet"] == ""
    assert seen["stopped"]["suicide"] == "crash: the method's worker was killed by signal 9"
    assert seen["stopped"]["hang"].startswith("time limit: no answer after")
    assert seen["stopped"]["filling"].startswith("memory limit:")
    assert not os.path.exists("/dev/shm/" + env["FILL_NAME"])  # the method's own file: removed
    assert seen["segment"] == "0101" and seen["segment_file"]
    assert seen["before_alive"] and seen["during_code"] == 7
    assert seen["handler_kept"] and seen["subreaper"] == 0


def test_a_method_runs_as_the_caller_in_the_caller_s_namespaces(folder):
    """No namespace is made: the method sees the caller's uid, mount and user namespaces."""
    done = run_cli(folder, "knights", "6", "--method", "mymod:who", "--json")
    info = json.loads(done.stdout)["info"]["method_info"]
    assert info["uid"] == os.getuid()
    assert info["mnt"] == os.readlink("/proc/self/ns/mnt")
    assert info["user"] == os.readlink("/proc/self/ns/user")


def test_another_program_s_dev_shm_file_made_during_a_run_is_left_alone(folder):
    """A worker killed at the memory limit takes with it only the /dev/shm files its processes
    held that it made: a file another program (here this test's own process, which is no
    process of the worker's) makes meanwhile stays."""
    import threading

    other, began = f"/dev/shm/kc-other-{os.getpid()}", folder / "began"
    os.environ["FILL_NAME"] = f"kc-fill-{os.getpid()}"
    sys.path.insert(0, str(folder))

    def another_program() -> None:  # once the run has begun, the file, written and closed
        for _ in range(3000):
            if began.exists():
                with open(other, "wb") as out:
                    out.write(b"y" * 2**20)
                return
            time.sleep(0.01)

    try:
        import mymod  # type: ignore[import-not-found]

        def wait_for_other_then_fill():
            began.touch()
            for _ in range(3000):
                if os.path.exists(other):
                    break
                time.sleep(0.01)
            return mymod.filling(None)

        writer = threading.Thread(target=another_program)
        writer.start()
        with Pool(1, limit=100 * 2**20) as pool:
            (_, outcome), *_ = list(pool.run([Job(wait_for_other_then_fill, (), 60.0)]))
        writer.join()
        assert outcome.stopped is not None and outcome.stopped.startswith("memory limit:"), outcome
        assert os.path.exists(other) and not os.path.exists("/dev/shm/" + os.environ["FILL_NAME"])
    finally:
        sys.path.remove(str(folder))
        sys.modules.pop("mymod", None)  # another test's mymod is another module
        os.environ.pop("FILL_NAME")
        if os.path.exists(other):
            os.unlink(other)


def test_a_failed_run_costs_its_worker_only():
    """Crashes, hangs and growth each cost one worker, replaced; the others keep their state."""

    def pid_and_count() -> list[int]:
        import builtins

        builtins.kc_count = getattr(builtins, "kc_count", 0) + 1  # type: ignore[attr-defined]
        return [os.getpid(), builtins.kc_count]  # type: ignore[attr-defined]

    def die() -> None:
        os._exit(9)

    jobs = [Job(pid_and_count, (), 30.0), Job(die, (), 30.0), Job(time.sleep, (100,), 0.5)]
    jobs += [Job(pid_and_count, (), 30.0) for _ in range(3)]
    with Pool(1) as pool:
        outcomes = [outcome for _, outcome in pool.run(jobs)]
    assert outcomes[1].stopped == "crash: the method's worker exited with code 9"
    assert outcomes[2].stopped is not None and outcomes[2].stopped.startswith("time limit:")
    first, *later = [outcome.value for outcome in outcomes if outcome.stopped is None]
    assert first[1] == 1 and [count for _, count in later] == [1, 2, 3]  # a new worker, then warm
    assert first[0] != later[0][0] and len({pid for pid, _ in later}) == 1


def test_a_call_past_its_budget_is_stopped_then_and_an_answer_keeps_the_time_of_its_check():
    """Until its timed call returns, a job is stopped at its call limit (its method's budget), not at
    its wall limit (the budget and the check's time); once the call has returned, the wall limit holds."""

    def call(seconds_in: float, seconds_after: float) -> str:
        from knightcert import workers

        workers.timed_call()
        time.sleep(seconds_in)  # the method
        workers.timed_call(begins=False)
        time.sleep(seconds_after)  # its answer checked
        return "checked"

    jobs = [Job(call, (0, 1.0), 60.0, 0.5, tag="returns"), Job(call, (1000, 0), 60.0, 0.5, tag="hangs")]
    with Pool(1) as pool:
        pool.mean = 1e-4  # one batch: the hung call's note may come in the same read as the reply before it
        done = {job.tag: outcome for job, outcome in pool.run(jobs)}
    assert str(done["hangs"].stopped).startswith("time limit: the method's call had not returned after")
    assert 0.5 <= done["hangs"].elapsed < 60
    assert done["returns"].stopped is None and done["returns"].value == "checked"


def test_a_batch_loses_and_mislabels_nothing_when_one_of_its_runs_fails():
    """Jobs go to a worker in batches: a crash or a hang past its limit costs that job and its worker;
    the jobs of its batch before it keep their own values, those after it run on a fresh worker."""

    def index(i: int) -> list[int]:
        return [i, os.getpid()]

    def die() -> None:
        os._exit(9)

    jobs = [Job(index, (i,), 30.0, tag=i) for i in range(12)]
    jobs[3], jobs[8] = Job(die, (), 30.0, tag=3), Job(time.sleep, (100,), 0.5, tag=8)
    with Pool(1) as pool:
        pool.mean = 1e-4  # as after many short jobs: each batch is a fair share of what is left
        done = {job.tag: outcome for job, outcome in pool.run(jobs)}
    assert sorted(done) == list(range(12))
    assert done[3].stopped == "crash: the method's worker exited with code 9"
    assert str(done[8].stopped).startswith("time limit:")
    values = {tag: outcome.value for tag, outcome in done.items() if tag not in (3, 8)}
    assert all(value[0] == tag for tag, value in values.items())
    assert len({pid for _, pid in values.values()}) == 3  # the first worker, then one after each failure


FORGER = '''
import knightcert.compare.runner as runner
from knightcert.compare.harness import Row

def forger(instance, time_limit=None, seed=None):
    """Patch its worker: every later row claims 999 knights, optimal and certified, without an answer."""
    def forged(task):
        return Row("knights", task.name, task.method, "OPTIMAL", 999, 999, None, 0.0, None, None, True,
                   certified=True), None
    runner.run_task_answer, runner.checked_again = forged, lambda: False
    return {"status": "UNKNOWN"}
'''


def test_a_row_without_its_answer_after_foreign_code_is_never_trusted(tmp_path, monkeypatch):
    """The worker sends a built-in row as it is only while it has run the project's code alone;
    after a foreign method, a row whatever it claims counts only through its answer, checked here."""
    from knightcert.compare.runner import Task, pool_rows
    from knightcert.problems.independent_knights import knights_instance

    (tmp_path / "forger.py").write_text(FORGER)
    monkeypatch.syspath_prepend(str(tmp_path))
    tasks = [Task("knights", knights_instance(4), method) for method in ("greedy", "forger:forger", "greedy")]
    with Pool(1) as pool:
        before, _, after = pool_rows(pool, tasks)
    assert (before.status, before.verified, before.objective) == ("FEASIBLE", True, 8)
    assert (after.status, after.verified, after.certified, after.objective) == ("UNKNOWN", False, False, None)
    assert "without its answer" in after.error


TEXTER = '''
from knightcert.compare.harness import Row

def texter(instance, time_limit=None, seed=None):
    """Patch its worker: every later row carries text where the measurements go."""
    plain = Row.as_dict
    Row.as_dict = lambda row: {**plain(row), "warm_s": "x", "cpu_s": "y", "load": "z", "check_s": "w"}
    return {"status": "UNKNOWN"}
'''


def test_a_row_with_text_for_its_measurements_after_foreign_code_is_a_crash_row(tmp_path, monkeypatch):
    """After a foreign method, a row's measurements are read as strictly as a report's (text
    where a number goes: a garbled row); they once reached the report and the warm-up table,
    whose rounding ended the comparison (TypeError)."""
    from knightcert.compare.runner import WARMED, Task, pool_rows
    from knightcert.problems.independent_knights import knights_instance

    (tmp_path / "texter.py").write_text(TEXTER)
    monkeypatch.syspath_prepend(str(tmp_path))
    tasks = [Task("knights", knights_instance(4), method) for method in ("texter:texter", "greedy")]
    with Pool(1) as pool:
        rows = list(pool_rows(pool, tasks))
    assert all(type(v) is not str for r in rows for v in (r.warm_s, r.cpu_s, r.load, r.check_s))
    assert "x" not in WARMED.values() and "garbled" in rows[1].error


INFINITE = TEXTER.replace('"warm_s": "x", "cpu_s": "y", "load": "z", "check_s": "w"', '"nodes": float("inf")')


def test_a_row_with_an_infinite_count_after_foreign_code_is_a_crash_row(tmp_path, monkeypatch):
    """An infinite count (JSON's Infinity) where an integer goes is a garbled row too: it once
    ended the comparison (OverflowError from int(inf))."""
    from knightcert.compare.runner import Task, pool_rows
    from knightcert.problems.independent_knights import knights_instance

    (tmp_path / "texter.py").write_text(INFINITE)
    monkeypatch.syspath_prepend(str(tmp_path))
    tasks = [Task("knights", knights_instance(4), method) for method in ("texter:texter", "greedy")]
    with Pool(1) as pool:
        rows = list(pool_rows(pool, tasks))
    assert "garbled" in rows[1].error and rows[1].nodes is None


@pytest.mark.parametrize("link", [5, None, ["runs-a.jsonl#1"], "runs-a.jsonl#1/../x", "../runs-a.jsonl#1"])
def test_a_worker_s_answer_link_that_is_not_a_line_of_its_folder_links_nothing(link, tmp_path):
    """A row's ``answer`` comes from its worker, where a foreign method may have patched
    ``save_run_answer``: anything but ``runs-*.jsonl#N`` links nothing (was a TypeError that
    ended the comparison, for a number)."""
    from knightcert.compare.rechecked import answer_link

    assert answer_link(tmp_path, link, tmp_path / "r.json") == ""
    assert answer_link(tmp_path, "runs-a.jsonl#1", tmp_path / "r.json") == "runs-a.jsonl#1"


def test_a_run_s_peak_leaves_out_the_libraries_pages_as_the_memory_limit_does():
    """``peak_mb`` counts what the memory limit counts: not the worker's file-backed pages
    (libraries), which its high-water mark holds (was the whole mark: 95.9 MB for a job that only
    loads numba, under a 70 MB limit)."""
    from knightcert.workers import _resident

    def loaded() -> tuple[int, ...]:
        import numpy  # noqa: F401  file-backed pages

        return _resident("self", "VmHWM:", "RssFile:")

    with Pool(1) as pool:
        ((_, outcome),) = pool.run([Job(loaded, (), 30.0)])
    mark, files = outcome.value
    assert files > 2**20 and outcome.peak_mb is not None and outcome.peak_mb < (mark - files / 2) / 2**20


def test_a_run_shorter_than_a_reading_reports_its_own_peak_memory():
    """Each job's ``peak_mb`` is its own: a job ending before the caller's first reading reports the
    worker's own peak over that job (its high-water mark restarted at the job's start), never the
    reading of the job before it, nor only what a reading before its allocation saw, nor the
    caller's own peak (which a spawned process's ``ru_maxrss`` keeps)."""

    def hold(megabytes: int, seconds: float) -> int:
        block = bytearray(megabytes * 2**20)  # zeroed: every page touched
        time.sleep(seconds)  # 0.5 s: several readings see it
        return len(block)

    ballast = bytearray(400 * 2**20)  # the caller's own memory when it starts its worker
    with Pool(1) as pool:
        burst = next(outcome for _, outcome in pool.run([Job(hold, (100, 0.0), 30.0)]))
        jobs = [Job(hold, (300, 0.5), 30.0), Job(hold, (0, 0.0), 30.0)]
        held, after = (outcome.peak_mb for _, outcome in pool.run(jobs))
    assert burst.peak_mb is not None and burst.peak_mb >= 100  # allocated between two readings
    assert held is not None and held >= 300
    assert after is not None and after < held - 200 and len(ballast)  # its own, not the job's before
