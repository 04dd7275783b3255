"""Fault injection: the command line run as a user would, then hurt.

A test about a process (signals, exit codes of the process, its output descriptors, limits set
on it, a working folder of its own) runs ``python -m knightcert`` from this checkout (PYTHONPATH
is the worktree root) in a temporary folder, with short timeouts (:func:`run_cli`); a test about
what the command reads and writes calls it in this process (:func:`call_cli`). Both check the
contract of the command line: the documented exit code, exactly one line on stderr, no
traceback, no internal error, nothing partial on disk.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("KNIGHTCERT_DEBUG", None)
    env["COLUMNS"] = "120"
    return env


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "knightcert", *args]


def run_cli(cwd: Path, *args: str, timeout: float = 60, stdin: bytes | None = None):
    """Run the command line to the end; the CompletedProcess (text)."""
    done = subprocess.run(
        command(*args),
        cwd=cwd,
        env=environment(),
        capture_output=True,
        timeout=timeout,
        input=stdin,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
    )


def call_cli(*args: str | Path):
    """The command line called in this process, its output captured (a CompletedProcess, text).

    For tests of what the command reads and writes, not of a process of its own: this process's
    worker pool stays warm from one call to the next (a change of working folder starts it
    again, so paths are given whole)."""
    from knightcert.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(arg) for arg in args])
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def start_cli(cwd: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        command(*args), cwd=cwd, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def assert_one_line(done, code: int, *words: str) -> str:
    """Exit ``code``, one stderr line with every word, no traceback, no internal error."""
    err = done.stderr
    assert done.returncode == code, (done.returncode, err[-2000:])
    assert len(err.splitlines()) == 1, err[-2000:]
    assert "Traceback" not in err and "internal error" not in err, err
    for word in words:
        assert word in err, (word, err)
    return err


def children(pid: int) -> list[int]:
    """Direct children of ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def hold_once_loaded(process: subprocess.Popen, library: str, timeout: float = 60) -> None:
    """Stop ``process`` (SIGSTOP) as soon as it has mapped ``library``: it is then caught in the
    middle of its work, however fast that work is, and a signal sent before :func:`release` is
    handled the moment it runs again. An event, never a guess of how long the work takes."""

    def mapped() -> bool:
        try:
            return library in Path(f"/proc/{process.pid}/maps").read_text()
        except OSError:
            return False

    assert wait_until(lambda: mapped() or process.poll() is not None, timeout, step=0.005)
    assert process.poll() is None, f"the command ended (exit {process.returncode}) before loading {library}"
    process.send_signal(signal.SIGSTOP)
    assert wait_until(lambda: _state(process.pid) in ("T", "t"), 10), "the command did not stop"


def release(process: subprocess.Popen) -> None:
    """Let a process stopped by :func:`hold_once_loaded` run again."""
    process.send_signal(signal.SIGCONT)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def wait_until(condition, timeout: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def stop(process: subprocess.Popen, signum: int = signal.SIGINT, timeout: float = 30):
    """Send ``signum`` (and SIGCONT, for a process held by :func:`hold_once_loaded`) and collect the
    process's output (text CompletedProcess)."""
    process.send_signal(signum)
    release(process)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"no exit within {timeout} s of signal {signum}: {err[-2000:]}")
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def leftovers(folder: Path) -> list[str]:
    """Temporary and lock files left in ``folder`` (there must be none)."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".tmp", ".lock", ".part")))


@pytest.fixture
def skip_unless_linux():
    if not sys.platform.startswith("linux"):
        pytest.skip("uses /proc and Linux process semantics")


def report_runs(path: Path) -> list[dict]:
    """The runs of the JSON report at ``path`` ([] while it is not there or not whole)."""
    import json

    try:
        return json.loads(path.read_text())["runs"]
    except (OSError, ValueError, KeyError):
        return []


def start_module(folder: Path, module: str, *args: str) -> subprocess.Popen:
    """``python -m module args`` in ``folder``, in a session of its own (its process group ends
    with it: :func:`end_group`), output discarded."""
    return subprocess.Popen(
        [sys.executable, "-m", module, *args],
        cwd=folder,
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def end_group(process: subprocess.Popen, timeout: float = 15) -> None:
    """SIGTERM to the process's group (a Dask worker's nanny and its worker), SIGKILL if it lingers."""
    for signum in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, signum)
            process.wait(timeout=timeout)
            break
        except ProcessLookupError:
            break
        except subprocess.TimeoutExpired:
            continue
    process.wait()


def scheduler_address(folder: Path) -> str | None:
    """The address a Dask scheduler wrote to its scheduler file ``folder/s.json`` (None before)."""
    import json

    try:
        return json.loads((folder / "s.json").read_text())["address"]
    except (OSError, ValueError, KeyError):
        return None


def start_scheduler(folder: Path) -> tuple[subprocess.Popen, str]:
    """A Dask scheduler on 127.0.0.1 and a free port (``--port 0``: never one another test took
    meanwhile), its scheduler file ``folder/s.json``: the process, once it listens, and its address."""
    scheduler = start_module(folder, "distributed.cli.dask_scheduler", "--scheduler-file", "s.json",
                             "--host", "127.0.0.1", "--port", "0", "--no-dashboard")  # fmt: skip
    address = scheduler_address(folder) if wait_until(lambda: scheduler_address(folder), 60) else None
    if address is None:
        end_group(scheduler)
        pytest.fail("the Dask scheduler did not start")
    return scheduler, address
