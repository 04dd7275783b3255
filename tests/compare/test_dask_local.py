"""``--dask local:N``: a local cluster started and closed by the command."""

from __future__ import annotations

import json

import pytest

from knightcert.cli.main import main


@pytest.mark.parametrize("bad", ["local:0", "local:x", "local:", "local:100000"])
def test_local_n_is_checked(bad, capsys):
    assert main(["compare", "knights", "--dask", bad]) == 2
    error = capsys.readouterr().err
    assert "local:N with N in 1.." in error and error.count("\n") == 1


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
