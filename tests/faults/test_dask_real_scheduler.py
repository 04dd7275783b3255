"""Dask with a real scheduler (issue 38), as docs/experiments.md tells it step by step: ``dask
scheduler`` on 127.0.0.1, two ``dask worker`` processes of one process and one thread each,
``knightcert compare ... --dask tcp://HOST:PORT``; every row comes back with its answer checked by
the command, and everything started is ended. The test waits on events (the scheduler's file, two
workers registered), never on a fixed sleep."""

from __future__ import annotations

import os
import sys

import pytest

from .conftest import end_group, report_runs, run_cli, start_module, start_scheduler, wait_until

pytest.importorskip("distributed")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux process semantics")

COMPARE = ("compare", "knights", "--suite", "random", "--sizes", "6", "--seeds", "2",
           "--methods", "greedy,matching", "--out", "r.json", "--quiet")  # fmt: skip


def _workers(address: str) -> int:
    from distributed import Client

    with Client(address, timeout=30) as client:
        return len(client.scheduler_info(n_workers=-1)["workers"])


@pytest.mark.heavy
def test_compare_runs_on_a_dask_scheduler_and_two_workers_and_checks_every_answer(tmp_path):
    scheduler, address = start_scheduler(tmp_path)
    started = [scheduler]
    try:
        assert address.startswith("tcp://127.0.0.1:")
        for _ in range(2):
            started.append(start_module(tmp_path, "distributed.cli.dask_worker", address, "--nworkers", "1",
                                        "--nthreads", "1", "--no-dashboard"))  # fmt: skip
        assert wait_until(lambda: _workers(address) == 2, 60, step=0.2), "the two workers did not register"
        done = run_cli(tmp_path, *COMPARE, "--dask", address, timeout=120)
        assert _workers(address) == 2  # both still there: nothing the runs did took one down
    finally:
        for process in reversed(started):
            end_group(process)
    assert done.returncode == 0, done.stderr
    runs = report_runs(tmp_path / "r.json")
    assert sorted((run["instance"], run["method"]) for run in runs) == [
        (f"knights-6x6-h0.2-s{seed}", method) for seed in (0, 1) for method in ("greedy", "matching")
    ]
    assert all(run["verified"] and run["certified"] and run["evidence"] and not run["error"] for run in runs)
    assert all(run["gap"] is not None for run in runs)  # against the matching's certified optimum
    assert wait_until(lambda: not any(_group_alive(process.pid) for process in started), 10)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True
