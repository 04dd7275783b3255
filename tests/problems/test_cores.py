"""``$KNIGHTCERT_THREADS``: checked, and shared by the harness without overriding the user's."""

from __future__ import annotations

import os

import pytest

from knightcert.cli.main import main
from knightcert.compare.runner import run_isolated
from knightcert.problems import cores
from knightcert.problems.errors import InvalidArgument


def test_the_harness_shares_the_cpus_again_for_each_comparison_but_keeps_the_users_value(monkeypatch):
    monkeypatch.setenv(cores.THREADS_ENV, "8")
    monkeypatch.delenv(cores.THREADS_ENV)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    for workers, threads in [(1, "8"), (4, "2"), (3, "2"), (8, "1")]:  # runs x threads within 8 CPUs
        assert cores.thread_share(workers) == threads  # the workers' (the caller's own left alone)
        assert list(run_isolated([], workers=workers)) == [] and cores.THREADS_ENV not in os.environ
    monkeypatch.setenv(cores.THREADS_ENV, "3")  # the user's, from now on
    assert cores.thread_share(4) == "3" and cores.available_threads() == 3


@pytest.mark.parametrize("value", ["²", "99999999999", "100000", "33", "0", "many", "-1", "1" * 5000])
def test_a_bad_thread_count_is_one_line_naming_the_variable_and_exit_2(monkeypatch, capsys, value):
    monkeypatch.setenv(cores.THREADS_ENV, value)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    with pytest.raises(
        InvalidArgument, match=r"^\$KNIGHTCERT_THREADS: expected 1 to 32 threads \(4 a usable CPU\)"
    ):
        cores.available_threads()
    assert main(["knights", "6", "--method", "cpsat"]) == 2
    error = capsys.readouterr().err
    assert "$KNIGHTCERT_THREADS" in error and error.count("\n") == 1


@pytest.mark.parametrize(("value", "threads"), [(" 7 ", 7), ("32", 32), ("", None)])
def test_a_good_thread_count_is_taken(monkeypatch, value, threads):
    monkeypatch.setenv(cores.THREADS_ENV, value)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert cores.available_threads() == (threads or cores.usable_cores())


def test_a_pools_workers_get_their_share_of_the_threads_in_their_own_environment(monkeypatch):
    """The share reaches the workers, not the caller's environment (an eleventh-session reviewer
    found ``KNIGHTCERT_THREADS`` left set in a program that had run a comparison)."""
    from knightcert.workers import Job, Pool

    monkeypatch.delenv(cores.THREADS_ENV, raising=False)
    with Pool(2) as pool:
        seen = [
            outcome.value for _, outcome in pool.run([Job(os.getenv, (cores.THREADS_ENV,), trusted=True)])
        ]
    assert seen == [str(max(1, cores.usable_cores() // 2))] and cores.THREADS_ENV not in os.environ
