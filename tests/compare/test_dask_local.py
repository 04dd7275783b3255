"""``--dask local:N``: a local cluster started and closed by the command."""

from __future__ import annotations

import json
import os

import pytest

from knightcert.cli.main import main
from knightcert.compare.runner import run_isolated
from knightcert.problems.cores import thread_share


@pytest.mark.parametrize("bad", ["local:0", "local:x", "local:", "local:100000"])
def test_local_n_is_checked(bad, capsys):
    assert main(["compare", "knights", "--dask", bad]) == 2
    error = capsys.readouterr().err
    assert "local:N with N in 1.." in error and error.count("\n") == 1


def test_parallel_runs_share_the_cpus_this_process_may_run_on(monkeypatch):
    monkeypatch.setenv("KNIGHTCERT_THREADS", "8")
    monkeypatch.delenv("KNIGHTCERT_THREADS")
    monkeypatch.setattr(os, "cpu_count", lambda: 64)  # the machine's; the process may use 4 of them
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert list(run_isolated([], workers=2)) == [] and "KNIGHTCERT_THREADS" not in os.environ
    assert thread_share(2) == "2"  # the workers': runs x threads within the 4 usable cores
    assert main(["compare", "knights", "--dask", "local:5"]) == 2  # more workers than usable cores


@pytest.mark.slow  # a cluster's start-up: seconds idle, about a minute on a loaded machine
def test_a_local_cluster_runs_the_comparison_and_is_closed(tmp_path, capsys):
    pytest.importorskip("distributed")
    out = tmp_path / "d.json"
    argv = ["compare", "knights", "--suite", "scaling", "--sizes", "6,8", "--methods", "greedy,matching"]
    assert main([*argv, "--dask", "local:1", "--out", str(out), "--quiet"]) == 0
    runs = json.loads(out.read_text())["runs"]
    assert len(runs) == 4 and all(r["verified"] for r in runs)
    assert "4 of 4 answers verified" in capsys.readouterr().out
    import multiprocessing

    assert not [p for p in multiprocessing.active_children() if p.is_alive()]  # the workers are gone


@pytest.mark.slow  # a cluster's start-up
def test_a_local_clusters_workers_get_their_thread_share_and_the_callers_environment_is_kept(monkeypatch):
    """The share goes into the Dask workers' environment, never into the caller's (an
    eleventh-session reviewer found ``KNIGHTCERT_THREADS`` left set after a comparison)."""
    pytest.importorskip("distributed")
    from knightcert.cli.compare import local_cluster

    monkeypatch.delenv("KNIGHTCERT_THREADS", raising=False)
    client = local_cluster("local:1")
    try:
        seen = set(client.run(lambda: os.getenv("KNIGHTCERT_THREADS")).values())
    finally:
        client.close()
    assert seen == {thread_share(1)} and "KNIGHTCERT_THREADS" not in os.environ
