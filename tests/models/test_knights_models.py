from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightcert.algorithms.knights_bnb import bnb
from knightcert.algorithms.knights_matching import matching
from knightcert.heuristics.knights_greedy import greedy, greedy_plus
from knightcert.models.knights_cpsat import cpsat
from knightcert.models.knights_csp import MAX_CSP_SQUARES, csp
from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidInstance, SizeLimitExceeded
from knightcert.problems.independent_knights import KnightsInstance, closed_form, knights_instance
from knightcert.problems.result import Status

SIZES = [(m, n) for m in range(1, 11) for n in range(m, 11)]


@pytest.mark.parametrize(("m", "n"), SIZES)
def test_proven_optima_match_the_closed_form(m, n):
    inst = knights_instance(m, n)
    exact = [matching(inst), cpsat(inst, seed=0, workers=1)]
    if m * n <= 42:
        exact.append(bnb(inst, time_limit=30))
    if m * n <= MAX_CSP_SQUARES:
        exact.append(csp(inst))
    for result in exact:
        assert result.status is Status.OPTIMAL, result.method
        assert result.verified, (result.method, result.info)
        assert result.objective == result.bound == closed_form(m, n), result.method
    for heuristic in (greedy(inst), greedy_plus(inst)):
        assert heuristic.verified and heuristic.objective <= closed_form(m, n)


def test_seed_boards_with_the_seed_rule():
    # seed 002: heuristic 5 (3x3), 8 (4x4), 15 (6x6); optimum 5, 8, 18
    assert [greedy(knights_instance(n)).objective for n in (3, 4, 6)] == [5, 8, 15]
    assert greedy_plus(knights_instance(6)).objective == 18


@pytest.mark.parametrize("seed", range(8))
def test_boards_with_random_holes(seed):
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(2, 13)), int(rng.integers(2, 13))
    inst = KnightsInstance(Board(rows, cols, rng.random((rows, cols)) < 0.25), f"holes{seed}")
    a, b = matching(inst), cpsat(inst, seed=0, workers=1)
    assert a.verified and b.verified and a.status is b.status is Status.OPTIMAL
    assert a.objective == b.objective
    for heuristic in (greedy(inst), greedy_plus(inst)):
        assert heuristic.verified and heuristic.objective <= a.objective


@pytest.mark.parametrize("n", [2, 4, 6, 8, 10])
def test_even_tori_hold_half_the_squares(n):
    inst = knights_instance(n, torus=True)
    for result in (matching(inst), cpsat(inst, seed=0, workers=1)):
        assert result.verified and result.status is Status.OPTIMAL and result.objective == n * n // 2


def test_odd_tori_need_cpsat():
    inst = knights_instance(5, torus=True)
    with pytest.raises(InvalidInstance, match="not bipartite"):
        matching(inst)
    result = cpsat(inst, seed=0, workers=1)
    assert result.verified and result.status is Status.OPTIMAL and result.objective == 5  # recorded in docs


def test_cpsat_time_limit_reports_a_bound():
    result = cpsat(knights_instance(15, torus=True), time_limit=1.0, seed=0, workers=1)
    assert result.verified and result.bound >= result.objective


def test_bnb_honours_its_time_limit_and_starts_from_the_greedy_value():
    from knightcert.combined import knights_bnb

    plain = bnb(knights_instance(12), time_limit=0.05)
    assert plain.status is Status.FEASIBLE and plain.verified and plain.bound is None
    assert plain.info["incumbent"] == 0
    seeded = knights_bnb(knights_instance(12), time_limit=0.05)
    greedy_value = greedy(knights_instance(12)).objective
    assert seeded.info["incumbent"] == greedy_value and seeded.objective >= greedy_value and seeded.verified


def test_cpsat_with_the_greedy_hint():
    from knightcert.combined import knights_cpsat

    result = knights_cpsat(knights_instance(30), seed=0)
    assert result.status is Status.OPTIMAL and result.verified and result.objective == 450


def test_csp_size_limit():
    with pytest.raises(SizeLimitExceeded, match="csp handles up to"):
        csp(knights_instance(7))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 20), st.integers(1, 20), st.booleans(), st.floats(0, 0.5), st.integers(0, 2**32 - 1))
def test_heuristics_are_valid_and_greedy_plus_never_loses(rows, cols, torus, density, seed):
    blocked = np.random.default_rng(seed).random((rows, cols)) < density
    inst = KnightsInstance(Board(rows, cols, blocked, torus=torus), "h")
    plain, plus = greedy(inst), greedy_plus(inst, seed=seed % 1000)
    assert plain.verified and plus.verified
    assert plus.objective >= plain.objective


@pytest.mark.parametrize("seed", range(4))
def test_cpsat_on_bipartite_boards_reaches_koenigs_bound(seed):
    from knightcert.combined import knights_cpsat

    rng = np.random.default_rng(100 + seed)
    rows, cols = int(rng.integers(3, 40)), int(rng.integers(3, 40))
    inst = KnightsInstance(Board(rows, cols, rng.random((rows, cols)) < 0.2), f"holes{seed}")
    result = knights_cpsat(inst, seed=0)
    assert result.status is Status.OPTIMAL and result.verified
    assert result.objective == matching(inst).objective == result.info["upper_bound"]
    assert result.info["bound_source"] == "matching (Kőnig)" and len(result.certificate["matching"]) > 0


def test_a_wrong_upper_bound_is_not_certified():
    inst = knights_instance(8)
    result = cpsat(inst, seed=0, workers=1, upper_bound=31)
    assert result.objective == 31 and not result.verified
