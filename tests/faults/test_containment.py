"""Foreign methods on workers (issues 20, 21 and 38): each runs on a worker process whose standard
output is not the command's, stopped with everything it started at the time budget (limit + grace)
or the memory limit, on Ctrl-C, SIGTERM and after ``kill -9`` of the command; exits inside a method
are crash rows. Every test waits on events (a pid file written, a process ended), never on sleeps."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from knightcert.workers import time_budget

from .conftest import alive, command, environment, run_cli, start_cli, wait_until

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")

METHODS = '''
import os, subprocess, sys, time

def printing(instance, time_limit=None, seed=None):
    print("hello from the method")
    return {"status": "UNKNOWN"}

def exiting(instance, time_limit=None, seed=None):
    sys.exit(0)

def hard_exit(instance, time_limit=None, seed=None):
    os._exit(0)

def interrupting(instance, time_limit=None, seed=None):
    raise KeyboardInterrupt

def crashing(instance, time_limit=None, seed=None):
    return 1 / 0

def refusing(instance, time_limit=None, seed=None):
    from knightcert.problems.errors import InvalidInstance
    raise InvalidInstance("this board is not one I like")

def killed(instance, time_limit=None, seed=None):
    import signal
    os.kill(os.getpid(), signal.SIGKILL)

def slow(instance, time_limit=None, seed=None):
    time.sleep(1000)

def eating(instance, time_limit=None, seed=None):
    hoard = []
    while True:
        hoard.append(bytearray(4 * 2**20))
        time.sleep(0.001)

def _spawn(tag):
    """A setsid child and a double-forked daemon, their pids written to tag-*.pid."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"], start_new_session=True)
    first = os.fork()
    if first == 0:
        if os.fork() == 0:
            os.setsid()
            with open(tag + "-daemon.pid.tmp", "w") as f:
                f.write(str(os.getpid()))
            os.replace(tag + "-daemon.pid.tmp", tag + "-daemon.pid")
            time.sleep(1000)
        os._exit(0)
    os.waitpid(first, 0)
    with open(tag + "-setsid.pid.tmp", "w") as f:
        f.write(str(child.pid))
    os.replace(tag + "-setsid.pid.tmp", tag + "-setsid.pid")

def daemons(instance, time_limit=None, seed=None):
    _spawn("done")
    return {"status": "UNKNOWN"}

def daemons_then_wait(instance, time_limit=None, seed=None):
    _spawn("wait")
    time.sleep(1000)
'''

#: A program that leaves a setsid child holding its standard output, answers and exits.
HOLDER = """#!/bin/sh
setsid sleep 1000 &
echo $! > holder.pid.tmp && mv holder.pid.tmp holder.pid
echo '{"status": "UNKNOWN"}'
"""


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "mymod.py").write_text(METHODS)
    holder = tmp_path / "holder.sh"
    holder.write_text(HOLDER)
    holder.chmod(0o755)
    return tmp_path


def pids(folder: Path, pattern: str) -> list[int]:
    return [int(p.read_text()) for p in folder.glob(pattern)]


def all_gone(found: list[int]) -> bool:
    return not any(alive(pid) for pid in found)


def kill_all(found: list[int]) -> None:
    """Clean up after a failed test: no process is ever left behind."""
    for pid in found:
        if alive(pid):
            import os

            os.kill(pid, signal.SIGKILL)


def rows_of(path: Path) -> dict[str, dict]:
    return {row["method"]: row for row in json.loads(path.read_text())["runs"]}


#: compare on one 5x5 board (the methods follow).
ON_5X5 = ("compare", "knights", "--suite", "scaling", "--sizes", "5")


def test_printing_exiting_and_interrupting_methods_are_rows(folder):
    methods = "mymod:printing,mymod:exiting,mymod:hard_exit,mymod:interrupting,mymod:crashing,greedy"
    done = run_cli(
        folder,
        *ON_5X5,
        "--methods",
        methods,
        "--out",
        "r.json",
    )
    assert done.returncode == 0, done.stderr
    assert "hello from the method" not in done.stdout and "interrupted" not in done.stderr
    rows = rows_of(folder / "r.json")
    assert rows["mymod:printing"]["status"] == "UNKNOWN" and "hello" not in rows["mymod:printing"]["error"]
    assert rows["mymod:exiting"]["error"].startswith("crash: SystemExit: 0 (mymod.py:")
    assert rows["mymod:hard_exit"]["error"] == "crash: the method's worker exited with code 0"
    assert rows["mymod:interrupting"]["error"].startswith("crash: KeyboardInterrupt")
    assert rows["mymod:crashing"]["error"].startswith("crash: ZeroDivisionError: division by zero (mymod.py:")
    assert rows["greedy"]["verified"] is True


@pytest.mark.parametrize("method", ["printing", "exiting", "hard_exit", "interrupting", "crashing"])
def test_the_single_command_keeps_its_output_and_exit_code(folder, method):
    done = run_cli(folder, "knights", "6", "--method", f"mymod:{method}", "--json")
    assert done.returncode == (0 if method == "printing" else 3), done.stderr  # 3: the method crashed
    answer = json.loads(done.stdout)  # a print inside the method never lands here
    assert answer["status"] == "UNKNOWN"
    if method != "printing":
        assert answer["info"]["stopped"].startswith("crash: ")


@pytest.mark.heavy
def test_one_time_budget_stops_a_python_method_in_the_single_command(folder):
    began = time.monotonic()
    done = run_cli(folder, "knights", "6", "--method", "mymod:slow", "--time-limit", "1", "--json")
    elapsed = time.monotonic() - began
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and answer["status"] == "UNKNOWN", done.stderr
    # the budget counts from the process's start: on a loaded machine it can pass before the
    # method starts (the interpreter's start and imports), and then the method is not run at all
    assert answer["info"]["stopped"].startswith(
        ("time limit: no answer after", "time limit: 1 s + grace had passed before the method started")
    ), answer["info"]["stopped"]
    assert answer["time_s"] < time_budget(1.0) + 0.5  # the command's limit counts from its start
    assert elapsed < 60  # stopped: the method sleeps 1000 s (a bound far from any machine's speed)


def test_the_memory_limit_stops_gradual_allocation(folder):
    """Read by the caller from the worker's /proc (workers stay dumpable): a Python method that
    allocates step by step is stopped at the limit, root or not (.ci/run runs this folder as an
    unprivileged user too), and its peak is reported."""
    done = run_cli(folder, "knights", "6", "--method", "mymod:eating", "--memory-limit", "150", "--json")
    answer = json.loads(done.stdout)
    assert answer["status"] == "UNKNOWN" and answer["info"]["stopped"].startswith("memory limit:"), (
        done.stderr
    )
    assert 150 <= answer["info"]["peak_mb"] < 400
    assert done.returncode == 5  # the method ran out of memory: its own exit code


def test_a_kill_and_a_crash_have_their_own_exit_codes(folder):
    done = run_cli(folder, "knights", "6", "--method", "mymod:killed", "--json")
    assert done.returncode == 4 and "killed by signal 9" in json.loads(done.stdout)["info"]["stopped"]
    # the project's own input error raised by a method: its crash, never "your input is bad" (2)
    done = run_cli(folder, "knights", "6", "--method", "mymod:refusing", "--json")
    stopped = json.loads(done.stdout)["info"]["stopped"]
    assert done.returncode == 3 and stopped.startswith("crash: InvalidInstance: this board"), done.stderr


@pytest.mark.parametrize(("body", "code"), [("echo garbage", 3), ("exit 3", 3), ("kill -9 $$", 4)])
def test_a_failing_program_has_the_exit_code_of_a_failing_method(folder, body, code):
    """A twelfth-session reviewer's finding: an ``exec:`` program that printed no answer, exited
    non-zero or was killed gave exit 0 (its row did not say "crash:" as a method's does)."""
    (folder / "failing.sh").write_text(f"#!/bin/sh\n{body}\n")
    (folder / "failing.sh").chmod(0o755)
    done = run_cli(folder, "knights", "6", "--method", "exec:./failing.sh")
    assert done.returncode == code and "crash: " in done.stdout, done.stdout + done.stderr


def test_daemons_and_an_output_holding_child_are_reaped_at_the_end(folder):
    began = time.monotonic()
    done = run_cli(
        folder,
        *ON_5X5,
        "--methods",
        "mymod:daemons",
        "--methods",
        "exec:./holder.sh",
        "--time-limit",
        "30",
        "--out",
        "r.json",
    )
    found = pids(folder, "*.pid")
    try:
        assert done.returncode == 0, done.stderr
        assert time.monotonic() - began < 20  # the held output did not stall the run to its limit
        assert len(found) == 3 and wait_until(lambda: all_gone(found), 10), found
        rows = rows_of(folder / "r.json")
        assert "time limit" not in rows["exec:./holder.sh"]["error"]
        peak = rows["exec:./holder.sh"]["peak_mb"]
        assert peak is None or peak < 120  # the worker's own memory (~65 MB) and the program's
    finally:
        kill_all(found)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_a_methods_processes_die_with_the_command(folder, signum):
    process = start_cli(
        folder,
        *ON_5X5,
        "--methods",
        "mymod:daemons_then_wait",
        "--time-limit",
        "100",
    )
    found: list[int] = []
    try:
        assert wait_until(lambda: len(pids(folder, "wait-*.pid")) == 2, 60), process.stderr
        found = pids(folder, "wait-*.pid")
        assert not all_gone(found)
        process.send_signal(signum)
        process.communicate(timeout=30)
        assert wait_until(lambda: all_gone(found), 10), [pid for pid in found if alive(pid)]
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        kill_all(found)


def test_a_quick_unknown_is_not_told_time_limit():
    """The reason says what happened: an UNKNOWN after 1 ms did not reach a 10 s limit."""
    from knightcert.cli.tour import render
    from knightcert.problems.result import Result, Status
    from knightcert.problems.tours import tour_instance

    quick = Result("tour", "mine", Status.UNKNOWN, None, None, None, 0.001)
    assert "time limit" not in render(tour_instance(5), quick, time_limit=10)
    slow = Result("tour", "mine", Status.UNKNOWN, None, None, None, 9.9)
    assert "time limit of 10 s" in render(tour_instance(5), slow, time_limit=10)


FORKED = """
import os, sys
from knightcert.workers import run_alone
before = run_alone(os.getpid, (), None).value
child = os.fork()
if child == 0:
    sys.exit(0)  # its exit runs the atexit hooks inherited from the parent
os.waitpid(child, 0)
print(before == run_alone(os.getpid, (), None).value)
"""


def test_a_forked_child_leaves_its_parents_worker_alone():
    """An eleventh-session reviewer's finding: a caller's forked child, at its exit, killed the
    parent's warm worker (the pool and its atexit hook came with the fork)."""
    import subprocess

    done = subprocess.run([sys.executable, "-c", FORKED], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "True", done.stderr


def test_a_killed_worker_leaves_no_temporary_folder(tmp_path):
    """An eleventh-session reviewer's finding: a worker killed at the time limit (on a large board,
    while the instance files were still being written for an ``exec:`` program) left its
    ``knightcert-*`` folder behind. A worker's temporary files live in a folder of its own, which
    the parent removes however the worker ends."""
    import os
    import subprocess

    (tmp_path / "sleeper.sh").write_text("#!/bin/sh\nsleep 1000\n")
    (tmp_path / "sleeper.sh").chmod(0o755)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    args = command("knights", "1500", "--method", "exec:./sleeper.sh", "--time-limit", "1")
    env = {**environment(), "TMPDIR": str(temporary)}
    done = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert "no answer" in done.stdout, done.stderr
    assert os.listdir(temporary) == []


SLOW_START = """
import os, time
if "KNIGHTCERT_WORKER" in os.environ:  # long to import on the worker (as heavy imports are)
    time.sleep(3)
def solve(instance, time_limit=None, seed=None):
    time.sleep(1000)
"""


def test_a_methods_start_up_counts_in_the_time_limit_of_one_call(tmp_path):
    """An eleventh-session reviewer's finding: the worker's start-up (the interpreter, the method's
    import) had a budget of its own before the timed call had another, so ``--time-limit 2`` (a
    budget of 3.45 s) ran 6.5 s with a method that takes 3 s to import. Now the budget counts
    from the call."""
    (tmp_path / "slowstart.py").write_text(SLOW_START)
    began = time.perf_counter()
    done = run_cli(tmp_path, "knights", "6", "--method", "slowstart:solve", "--time-limit", "2")
    assert "time limit" in done.stdout, done.stderr
    assert time.perf_counter() - began < 3 + time_budget(2.0)  # before: at least 3 s + the budget


def test_cpsat_beside_cadical_never_takes_more_threads_than_there_are(monkeypatch):
    """An eleventh-session reviewer's finding: with ``workers=2`` on two threads, CP-SAT's two
    workers ran beside CaDiCaL's proof (three busy threads on two cores). CaDiCaL has one."""
    from knightcert import combined, solve
    from knightcert.problems.independent_knights import knights_instance

    asked: list[object] = []
    search = combined._Race.search

    def recorded(self, time_limit, **extra):
        asked.append(extra.get("workers", self.options.get("workers")))
        return search(self, time_limit, **extra)

    monkeypatch.setattr(combined._Race, "search", recorded)
    monkeypatch.setenv("KNIGHTCERT_THREADS", "2")
    result = solve(knights_instance(11, torus=True), method="cpsat", workers=2)
    assert result.certified and asked and max(asked) == 1  # type: ignore[type-var]


def test_a_comparison_never_runs_more_workers_than_cores_nor_leaves_its_variables(tmp_path, monkeypatch):
    """Two more of its findings: ``--workers 4`` on two cores ran four busy workers, and a program
    calling ``main`` found ``KNIGHTCERT_THREADS`` and ``KNIGHTCERT_MEMORY_LIMIT`` set afterwards."""
    from knightcert import workers
    from knightcert.cli.main import main
    from knightcert.problems.cores import usable_cores

    for name in ("KNIGHTCERT_THREADS", "KNIGHTCERT_MEMORY_LIMIT"):
        monkeypatch.delenv(name, raising=False)
    many = usable_cores() + 3
    args = ["compare", "knights", "--suite", "random", "--sizes", "6", "--seeds", "2", "--methods", "greedy"]
    args += ["--workers", str(many), "--memory-limit", "900", "--out", str(tmp_path / "r.json")]
    assert main(args) == 0
    assert many not in workers._SHARED and usable_cores() in workers._SHARED
    assert "KNIGHTCERT_THREADS" not in os.environ and "KNIGHTCERT_MEMORY_LIMIT" not in os.environ


def test_a_users_file_named_like_the_reports_lock_is_left_alone(tmp_path):
    """An eleventh-session reviewer's finding: ``compare --out r.json`` took a user's own
    ``r.json.lock`` for its lock file, truncated it, and deleted it at the end."""
    from knightcert.cli.main import main

    (tmp_path / "r.json.lock").write_text("my notes\n")
    args = ["compare", "knights", "--suite", "random", "--sizes", "6", "--seeds", "1", "--methods", "greedy"]
    assert main([*args, "--out", str(tmp_path / "r.json")]) == 2
    assert (tmp_path / "r.json.lock").read_text() == "my notes\n" and not (tmp_path / "r.json").exists()


def test_a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path):
    """An eleventh-session reviewer's finding: a private (0600) answer file became world-readable
    (0644) when ``--save`` or ``--out`` replaced it, whatever the umask."""
    from knightcert.problems.output_file import write_atomic

    private = tmp_path / "a.json"
    private.write_text("{}")
    private.chmod(0o600)
    write_atomic(private, "[]")
    assert private.read_text() == "[]" and private.stat().st_mode & 0o777 == 0o600
    old = os.umask(0o077)
    try:
        write_atomic(tmp_path / "new.json", "[]")
    finally:
        os.umask(old)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o600


ORPHANED = """
import sys
from knightcert.models.knights_sat import BoundProof
from knightcert.problems.independent_knights import knights_instance
proof = BoundProof(knights_instance(17, 17, torus=True), 144, time_limit=1)
print(proof.child.pid, flush=True)
sys.stdin.read()  # killed here, the proof's child at work
"""


def test_a_proof_child_whose_parent_is_killed_leaves_nothing_and_ends(tmp_path):
    """A limit named in the eleventh session: ``kill -9`` of a command left CaDiCaL's folder in
    the temporary folder, and its child ran on with no limit of its own. Now the child's files have
    no name and its CPU time is bounded by the proof's time limit."""
    import subprocess

    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**environment(), "TMPDIR": str(temporary)}
    pipe = subprocess.PIPE
    parent = subprocess.Popen([sys.executable, "-c", ORPHANED], env=env, stdin=pipe, stdout=pipe, text=True)
    child = int(parent.stdout.readline() if parent.stdout else "")
    parent.kill()
    parent.communicate()
    assert wait_until(lambda: not alive(child), timeout=60)
    assert os.listdir(temporary) == []
