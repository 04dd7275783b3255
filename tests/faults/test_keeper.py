"""A worker killed — by its own method or from outside — leaves no process of its method running
and holds no pipe; the command says the method was killed (exit code 4) (issue 38)."""

from __future__ import annotations

import collections
import contextlib
import os
import subprocess
import time
from pathlib import Path

import pytest

from knightcert.workers import Job, _Worker

from .conftest import alive, command, environment, wait_until

#: Starts two children (one in a session of its own), lets a poll see them, then kills its worker.
KILLER = """
import os, subprocess, time

def solve(instance, time_limit=None, seed=None):
    escaped = subprocess.Popen(["sleep", "60"], start_new_session=True)
    plain = subprocess.Popen(["sleep", "61"])
    with open("pids.tmp", "w") as handle:
        handle.write(f"{escaped.pid} {plain.pid} {os.getpid()}\\n")
    os.replace("pids.tmp", "pids")
    time.sleep(float(os.environ.get("KILL_AFTER", "1000")))
    os.kill(os.getpid(), 9)
"""


@pytest.mark.usefixtures("skip_unless_linux")
@pytest.mark.parametrize("by", ["itself", "outside"])
def test_a_killed_worker_leaves_no_orphan_and_no_held_pipe(tmp_path, by):
    (tmp_path / "killer.py").write_text(KILLER)
    env = {**environment(), **({"KILL_AFTER": "0.5"} if by == "itself" else {})}
    began = time.monotonic()
    process = subprocess.Popen(  # communicate waits for end of file: an orphan would hold the pipes
        command("knights", "4", "--method", "killer:solve"),
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (tmp_path / "pids").exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    if by == "outside":  # at once: the escaped child is found by its mark, whether a poll saw it or not
        os.kill(pids[-1], 9)
    out, err = process.communicate(timeout=40)
    assert not [p for p in pids if alive(p)], "orphans left running"
    assert process.returncode == 4, err  # killed (exit code 4)
    assert "killed by signal 9" in out + err and "Traceback" not in err
    assert time.monotonic() - began < 30


def _start_child_and_hang(folder: str, keep_mark: bool) -> None:  # runs in the worker
    environment = None if keep_mark else {"PATH": os.environ.get("PATH", "")}
    child = subprocess.Popen(["sleep", "63"], start_new_session=True, env=environment)
    (Path(folder) / "pid").write_text(str(child.pid))
    time.sleep(1000)


@pytest.mark.usefixtures("skip_unless_linux")
@pytest.mark.parametrize("keep_mark", [True, False])
def test_a_dead_worker_s_orphan_is_killed_by_its_mark_or_a_poll_that_saw_it(tmp_path, keep_mark):
    """No poll is needed for a process that kept the worker's mark in its environment; one that
    dropped it (its own environment) is killed when a poll saw it below the worker."""
    worker = _Worker.start()
    worker.send(collections.deque([Job(_start_child_and_hang, (str(tmp_path), keep_mark))]), 1)
    assert wait_until(lambda: (tmp_path / "pid").exists(), 60)
    child = int((tmp_path / "pid").read_text())
    try:
        if not keep_mark:
            worker.memory()  # a poll
        os.kill(worker.pid, 9)
        worker.process.wait()  # dead first: the child is no longer below it
        worker.kill()
        assert wait_until(lambda: not alive(child), 5)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, 9)


def _fork_forever(folder: str) -> None:  # runs in the worker
    subprocess.Popen(["sh", "-c", "while :; do sleep 100 & sleep 0.002; done"], start_new_session=True)
    (Path(folder) / "started").write_text("")
    time.sleep(1000)


def _marked(mark: bytes) -> list[int]:
    """The live processes whose environment holds ``mark``."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            if mark in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0") and alive(int(entry)):
                found.append(int(entry))
    return found


@pytest.mark.usefixtures("skip_unless_linux")
@pytest.mark.parametrize("dead_first", [True, False])
def test_a_method_that_keeps_forking_leaves_nothing_with_the_worker_s_mark(tmp_path, dead_first):
    """A process that forks while the worker is killed: pass after pass, until one finds nothing new,
    every process carrying the mark is killed, the worker dead first or killed alive."""
    worker = _Worker.start()
    worker.send(collections.deque([Job(_fork_forever, (str(tmp_path),))]), 1)
    try:
        assert wait_until(lambda: (tmp_path / "started").exists(), 60)
        time.sleep(0.2)  # forks under way
        if dead_first:
            os.kill(worker.pid, 9)
            worker.process.wait()
        worker.kill()
        assert wait_until(lambda: not _marked(worker.mark), 5), _marked(worker.mark)
    finally:
        for pid in _marked(worker.mark):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 9)
