"""Ctrl-C, SIGTERM and kill -9 at several moments of a run."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from .conftest import (
    alive,
    assert_one_line,
    children,
    hold_once_loaded,
    leftovers,
    start_cli,
    stop,
    wait_until,
)

pytestmark = pytest.mark.usefixtures("skip_unless_linux")

#: A comparison whose first rows come fast (greedy) and whose CP-SAT runs take long.
COMPARE = (
    "compare", "knights", "--suite", "scaling", "--sizes", "250..400",
    "--methods", "greedy,cpsat", "--time-limit", "60", "--out", "report.json", "--quiet",
)  # fmt: skip


def report_runs(folder):
    path = folder / "report.json"
    if not path.exists():
        return None
    return json.loads(path.read_text())["runs"]


def loaded(pid, library):
    try:
        return library in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def workers_started(process):
    return wait_until(lambda: len(children(process.pid)) > 0, 60)


@pytest.mark.parametrize(
    ("moment", "signum"),
    [
        ("starting", signal.SIGINT),
        ("workers running", signal.SIGINT),
        ("workers running", signal.SIGTERM),
        ("after a finished run", signal.SIGINT),
    ],
)
def test_compare_stops_every_worker_and_keeps_the_report(tmp_path, moment, signum):
    process = start_cli(tmp_path, *COMPARE)
    workers = []
    if moment == "starting":  # loading the solvers (numpy is mapped), before any worker
        assert wait_until(lambda: loaded(process.pid, "numpy"), 60)
    elif moment == "workers running":
        assert workers_started(process)
        workers = children(process.pid)
    else:
        assert wait_until(lambda: bool(report_runs(tmp_path)), 60)
        workers = children(process.pid)
    done = stop(process, signum)
    code = 143 if signum == signal.SIGTERM else 130
    assert_one_line(done, code, "interrupted")
    assert wait_until(lambda: not any(alive(pid) for pid in workers), 5), "a worker outlived the run"
    runs = report_runs(tmp_path)
    if moment == "after a finished run":
        assert runs and all(run["error"] == "" for run in runs if run["method"] == "greedy")
    assert leftovers(tmp_path) == []


def test_ctrl_c_during_a_cpsat_solve_prints_the_answer_so_far(tmp_path):
    process = start_cli(tmp_path, "knights", "300", "--method", "cpsat")
    # held once CP-SAT is loaded: building the model or inside the solve, both stop the same way
    hold_once_loaded(process, "libortools")
    done = stop(process, signal.SIGINT)
    assert_one_line(done, 130, "interrupted")
    assert done.stdout.startswith("300x300: ") or done.stdout == "", done.stdout


@pytest.mark.heavy
def test_sigterm_during_the_demo(tmp_path):
    """SIGTERM in the middle of the demo, with or without ../shared: the demo is held the moment
    it has loaded CP-SAT (its first exact model; knights and tours are still to come), signalled,
    then let go."""
    process = start_cli(tmp_path, "demo")
    hold_once_loaded(process, "libortools")
    done = stop(process, signal.SIGTERM)
    assert_one_line(done, 143, "interrupted")
    assert done.stdout == ""


@pytest.mark.heavy
def test_kill_9_of_the_parent_leaves_no_worker_and_a_whole_report(tmp_path):
    process = start_cli(tmp_path, *COMPARE)
    assert wait_until(lambda: bool(report_runs(tmp_path)) and bool(children(process.pid)), 60)
    workers = children(process.pid)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=10)
    assert workers and wait_until(lambda: not any(alive(pid) for pid in workers), 5), "orphaned workers"
    assert report_runs(tmp_path)  # the last atomic write is whole
    # a stale lock file may remain after kill -9, but it does not block the next run
    assert [name for name in leftovers(tmp_path) if not name.endswith(".lock")] == []
