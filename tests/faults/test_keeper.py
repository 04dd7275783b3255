"""Supervision that survives the keeper: a method that kills its keeper leaves nothing running
and holds no pipe; the command says crash and exits non-zero (issue 28)."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from .conftest import alive, command, environment

#: Kills its keeper after starting two children (one in a session of its own), then sleeps.
KILLER = """
import os, subprocess, time

def solve(instance, time_limit=None, seed=None):
    escaped = subprocess.Popen(["sleep", "60"], start_new_session=True)
    plain = subprocess.Popen(["sleep", "61"])
    with open("pids", "w") as handle:
        handle.write(f"{escaped.pid} {plain.pid} {os.getpid()}\\n")
    os.kill(os.getppid(), 9)
    time.sleep(60)
    return {"status": "UNKNOWN"}
"""


@pytest.mark.usefixtures("skip_unless_linux")
def test_a_method_that_kills_its_keeper_leaves_no_orphan_and_no_held_pipe(tmp_path):
    (tmp_path / "killer.py").write_text(KILLER)
    began = time.monotonic()
    done = subprocess.run(  # waits for end of file on stdout and stderr: an orphan would hold them
        command("knights", "4", "--method", "killer:solve"),
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=40,
    )
    took = time.monotonic() - began
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    assert not [p for p in pids if alive(p)], "orphans left running"
    assert done.returncode == 3, done.stderr  # a crash (exit code 3)
    assert "crash" in done.stdout + done.stderr and "keeper" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert took < 30, took


@pytest.mark.usefixtures("skip_unless_linux")
def test_a_keeper_killed_from_outside_leaves_no_orphan(tmp_path):
    (tmp_path / "sleeper.py").write_text(
        "import os, subprocess, time\n"
        "def solve(instance, time_limit=None, seed=None):\n"
        "    child = subprocess.Popen(['sleep', '60'], start_new_session=True)\n"
        "    open('pids.tmp', 'w').write(f'{child.pid} {os.getpid()} {os.getppid()}')\n"
        "    os.replace('pids.tmp', 'pids')\n"
        "    time.sleep(60)\n"
    )
    process = subprocess.Popen(
        command("knights", "4", "--method", "sleeper:solve"),
        cwd=tmp_path,
        env=environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not (tmp_path / "pids").exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    child, runner, keeper = (int(p) for p in (tmp_path / "pids").read_text().split())
    os.kill(keeper, 9)
    out, err = process.communicate(timeout=30)
    assert not alive(child) and not alive(runner)
    assert process.returncode == 3, err  # a crash (exit code 3)
    assert "keeper" in out + err
