"""time_limit bounds the whole call of an exact method, model building included."""

from __future__ import annotations

import os
import time

import pytest

from knightcert.models import cpsat_solve
from knightcert.models.knights_cpsat import cpsat as knights_cpsat
from knightcert.models.tour_cpsat import cpsat as tour_cpsat
from knightcert.problems.deadline import Deadline
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.result import Status
from knightcert.problems.tours import tour_instance


@pytest.mark.parametrize(
    "solve",
    [
        lambda limit: knights_cpsat(knights_instance(40), time_limit=limit, check=False),
        lambda limit: tour_cpsat(tour_instance(30, closed=True), time_limit=limit, check=False),
    ],
)
def test_building_past_the_limit_answers_unknown_with_the_reason(solve):
    began = time.perf_counter()
    result = solve(1e-6)
    assert result.status is Status.UNKNOWN and result.solution is None
    assert "time limit" in result.record.stopped
    assert result.time <= time.perf_counter() - began  # the wall time of the call, nothing more


def test_result_time_is_the_wall_time_of_the_call_and_build_time_is_in_info():
    began = time.perf_counter()
    result = knights_cpsat(knights_instance(12), time_limit=20, workers=1, check=False)
    wall = time.perf_counter() - began
    assert result.status is Status.OPTIMAL
    assert result.info["build_time_s"] <= result.time <= wall
    assert result.info["build_time_s"] + result.info["solver_wall_time_s"] <= result.time + 1e-3


def test_default_workers_follow_the_threads_the_harness_allows(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)  # 8: 4 a CPU
    monkeypatch.setenv(cpsat_solve.THREADS_ENV, "8")
    assert cpsat_solve.default_workers() == 8
    monkeypatch.setenv(cpsat_solve.THREADS_ENV, "2")  # a 2-worker portfolio runs no LP worker
    assert cpsat_solve.default_workers() == 1
    monkeypatch.setenv(cpsat_solve.THREADS_ENV, "many")
    with pytest.raises(InvalidArgument, match="KNIGHTCERT_THREADS"):  # tests/problems/test_cores.py
        cpsat_solve.default_workers()


def test_threads_default_to_the_cpus_this_process_may_run_on(monkeypatch):
    monkeypatch.setenv(cpsat_solve.THREADS_ENV, "8")
    monkeypatch.delenv(cpsat_solve.THREADS_ENV)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)  # the machine's; the process may use 2 of them
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 5}, raising=False)
    assert cpsat_solve.available_threads() == 2


def test_deadline_without_a_limit_never_expires():
    clock = Deadline(None)
    assert not clock.expired() and clock.remaining() is None
    assert 0 < Deadline(100).remaining() <= 100
