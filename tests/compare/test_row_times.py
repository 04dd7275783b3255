"""The times a row reports beside the method's own (``warm_s``): measured
where they happen, never inside ``time_s``, and never taken from a method's own claims."""

from __future__ import annotations

import math

import pytest

from knightcert import warming
from knightcert.compare.harness import row_from_result
from knightcert.compare.report import read_rows, write_rows
from knightcert.compare.runner import Task, run_task
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.result import Result, Status
from knightcert.solving import run


def test_the_first_run_reports_its_warm_up_beside_its_time(monkeypatch):
    monkeypatch.setattr(warming, "WARMED", {})  # as in a fresh worker process
    instance = knights_instance(6)
    first = run("knights", "bnb", instance, warm=True)
    again = run("knights", "bnb", instance, warm=True)
    assert first.info["warm_s"] > 0 and math.isfinite(first.info["warm_s"])
    assert again.info["warm_s"] < first.info["warm_s"]  # warmed once per process
    assert "warm_s" not in run("knights", "bnb", instance).info  # no warm-up asked, none reported
    row = row_from_result(first, instance=instance)
    assert row.warm_s == pytest.approx(first.info["warm_s"], abs=1e-6) and row.time_s == first.time


def test_a_run_in_a_process_shared_by_runs_claims_no_peak_memory_of_its_own():
    """Outside a worker of knightcert's (in this process, on a Dask worker) a process runs one run
    after another: its lifetime peak is no one run's, so the row has none."""
    big = run_task(Task("knights", knights_instance(60), "matching"))
    small = run_task(Task("knights", knights_instance(4), "greedy"))
    assert big.verified and small.verified and big.peak_mb is None and small.peak_mb is None


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0, "0.5", True, None, [1]])
def test_a_time_that_is_not_finite_seconds_is_left_empty(value):
    result = Result.answer(
        "knights",
        "greedy",
        status=Status.FEASIBLE,
        objective=None,
        solution=None,
        time=0.1,
        info={"warm_s": value},
    )
    assert row_from_result(result).warm_s is None


@pytest.mark.parametrize("suffix", [".csv", ".json", ".parquet"])
def test_the_times_beside_survive_a_report(tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    result = Result.answer(
        "knights",
        "greedy",
        status=Status.FEASIBLE,
        objective=None,
        solution=None,
        time=0.1,
        info={"warm_s": 0.25},
    )
    row = row_from_result(result)
    path = tmp_path / f"r{suffix}"
    write_rows([row], path)
    (back,) = read_rows(path)
    assert back.warm_s == 0.25
