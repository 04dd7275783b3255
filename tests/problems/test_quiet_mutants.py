"""Tests that kill the survivors of issue 30's sampled quiet mutants (``bench/mutation.py
--operators quiet --select coverage``, docs/certificates.md): each checks a corpus of wrong
answers, or the checker against an independent oracle, where a quietly broken checker (one
condition dropped, one bound moved, one loop iteration skipped) let the whole suite pass."""

from __future__ import annotations

import pytest

from knightcert.problems.board import Board
from knightcert.problems.checkers import CheckFailed, check
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance


def no_tour_on_3x3() -> tuple[TourInstance, Result]:
    instance = TourInstance(Board(3, 3), False, None, None, "3x3")
    claim = Result("tour", "t", Status.INFEASIBLE, None, None, None, 0.0)
    assert check(instance, claim).certified  # the true claim: the centre is unreachable
    return instance, claim


@pytest.mark.parametrize(("objective", "bound"), [(5, None), (None, 5), (0, None), (None, 0), (9, 9)])
def test_an_infeasible_claim_carries_no_objective_and_no_bound(objective, bound):
    """Either field alone makes an INFEASIBLE answer malformed (a check that looked at one
    of the two only passed the other)."""
    instance, claim = no_tour_on_3x3()
    with pytest.raises(CheckFailed, match="INFEASIBLE carries no objective and no bound"):
        check(instance, claim.with_(objective=objective, bound=bound))
