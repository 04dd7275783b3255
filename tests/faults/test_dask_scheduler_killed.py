"""A real Dask scheduler killed mid-run (issue 28): the command exits non-zero with one line and no
traceback, the finished rows are kept, and a resume redoes the others: nothing lost, nothing
duplicated. The scheduler and its worker are real processes; the test waits on events (the
scheduler's file, the first finished row, the command's end), never on a fixed sleep."""

from __future__ import annotations

import signal
import sys

import pytest

from .conftest import report_runs as _runs
from .conftest import run_cli, start_cli, start_module, start_scheduler, wait_until

pytest.importorskip("distributed")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")

#: Answers at once on the 4 x 4 board; on the others waits for the file "release" (never written
#: while the scheduler lives), so that those runs are unfinished when it is killed.
GATE = """
import os, time

def gate(instance, time_limit=None, seed=None):
    if instance.board.rows != 4:
        for _ in range(1200):
            if os.path.exists("release"):
                break
            time.sleep(0.05)
    return {"status": "UNKNOWN"}
"""

COMPARE = ("compare", "knights", "--suite", "scaling", "--sizes", "4,5,6", "--methods", "gate:gate",
           "--out", "r.json", "--quiet")  # fmt: skip


@pytest.mark.heavy
def test_a_killed_dask_scheduler_is_one_line_and_a_resume_redoes_the_unfinished_rows(tmp_path):
    (tmp_path / "gate.py").write_text(GATE)
    scheduler, address = start_scheduler(tmp_path)
    started = [scheduler]
    try:
        started.append(start_module(tmp_path, "distributed.cli.dask_worker", "--scheduler-file", "s.json",
                                    "--nthreads", "1", "--no-nanny", "--no-dashboard"))  # fmt: skip
        command = start_cli(tmp_path, *COMPARE, "--dask", address)
        started.append(command)
        assert wait_until(lambda: len(_runs(tmp_path / "r.json")) >= 1 or command.poll() is not None, 120)
        assert command.poll() is None, command.communicate()
        scheduler.send_signal(signal.SIGKILL)
        _, err = command.communicate(timeout=120)
    finally:
        (tmp_path / "release").touch()  # the worker's waiting runs end
        for process in started:
            if process.poll() is None:
                process.kill()
            process.wait()
    assert command.returncode not in (0, None), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "executor was lost" in err and "run the same command again" in err, err
    kept = _runs(tmp_path / "r.json")
    assert [run["instance"] for run in kept] == ["4x4"]  # the finished row, no crash rows
    done = run_cli(tmp_path, *COMPARE)  # the same command again, here without Dask
    assert done.returncode == 0, done.stderr
    runs = _runs(tmp_path / "r.json")
    assert sorted(run["instance"] for run in runs) == ["4x4", "5x5", "6x6"]  # nothing lost or twice
    assert not any("crash" in run["error"] or "Cancelled" in run["error"] for run in runs)
