"""``--time-limit`` bounds the whole command, and an exact knights method stopped by it still
hands over the greedy start it began from."""

from __future__ import annotations

import time

from knightcert.cli import session as cli
from knightcert.combined import knights_bnb, knights_cpsat
from knightcert.problems.checkers import certify
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.result import Status


def test_time_left_counts_from_the_start_of_the_command(monkeypatch):
    monkeypatch.setattr(cli, "_started", time.perf_counter() - 2.0)
    assert 2.9 < cli.time_left(5.0) <= 3.0
    assert cli.time_left(1.0) == 1e-3  # spent: a sliver, the method answers with what it has
    assert cli.time_left(None) is None


def test_an_exact_method_out_of_time_returns_the_greedy_start():
    instance = knights_instance(150)
    for solve in (knights_cpsat, knights_bnb):
        result = certify(instance, solve(instance, time_limit=0.01))
        assert result.status is Status.FEASIBLE and result.verified, result.info
        if solve is knights_cpsat:  # bnb starts from the greedy incumbent and keeps it itself
            assert "greedy start" in result.record.stopped
        assert result.objective > 0
