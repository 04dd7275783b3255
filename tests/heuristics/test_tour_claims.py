"""Tour heuristics claim INFEASIBLE only after a complete search: the checker never refutes them."""

from __future__ import annotations

import numpy as np
import pytest

from knightcert.heuristics.tour_warnsdorff import cenpl, marginality, roth, warnsdorff
from knightcert.problems.board import Board
from knightcert.problems.result import Status
from knightcert.problems.tours import TourInstance, tour_instance


def holed_boards(count: int = 40, seed: int = 5):
    rng = np.random.default_rng(seed)
    for k in range(count):
        yield TourInstance(Board(4, 5, rng.random((4, 5)) < 0.15), name=f"holed-4x5-{k}")


CORNERLESS = TourInstance(Board(3, 4, np.array([[1, 0, 0, 0], [0] * 4, [0] * 4], bool)), name="3x4-corner")
CASES = [CORNERLESS, tour_instance(3, 7, end=(0, 0)), tour_instance(3, 8, end=(2, 7)), *holed_boards()]


@pytest.mark.parametrize("method", [warnsdorff, marginality, roth, cenpl], ids=lambda m: m.__name__)
def test_no_false_infeasible(method):
    for instance in CASES:
        result = method(instance, budget=200_000)
        if result.status is Status.INFEASIBLE:
            assert result.verified, (instance.name, result.info.get("check_error"))
        elif result.status is Status.UNKNOWN:
            assert result.record.stopped, instance.name  # says why it does not decide
        else:
            assert result.verified


def test_one_start_exhausted_is_unknown_with_the_reason():
    result = warnsdorff(CORNERLESS)
    assert result.status is Status.UNKNOWN
    assert "1 of the 11 allowed starts" in result.record.stopped


def test_a_tour_answer_with_the_only_possible_bound_is_certified():
    """A third reviewer's finding: once a bound needed evidence, a tour carrying the bound n (the
    only one the checker accepts) was no longer certified: the checker now says what backs it."""
    from knightcert.problems.checkers import certify

    instance = tour_instance(5, 6)
    found = warnsdorff(instance, check=False)
    checked = certify(instance, found.with_(bound=30))
    assert checked.certified and [e.claim for e in checked.evidence] == ["answer", "bound"]
