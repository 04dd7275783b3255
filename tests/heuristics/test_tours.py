from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from knightcert.heuristics.tour_divide import base_tours, divide, supported
from knightcert.heuristics.tour_warnsdorff import cenpl, marginality, roth, warnsdorff
from knightcert.models.structured_tours import BASE_SIZES, corner_moves
from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.result import Status
from knightcert.problems.tours import TourInstance, format_mostra, numbered, tour_instance

from tests.problems.test_tour_checker import PUBLISHED_5, as_tour

PUBLISHED_8 = [
    [1, 42, 37, 44, 25, 4, 15, 18],
    [38, 55, 40, 3, 14, 17, 24, 5],
    [41, 2, 43, 36, 45, 26, 19, 16],
    [56, 39, 54, 13, 48, 35, 6, 23],
    [63, 12, 57, 46, 61, 22, 27, 20],
    [58, 53, 62, 49, 34, 47, 30, 7],
    [11, 64, 51, 60, 9, 32, 21, 28],
    [52, 59, 10, 33, 50, 29, 8, 31],
]


def test_cenpl_reproduces_the_published_5x5_byte_for_byte():
    result = cenpl(tour_instance(5))
    assert result.verified and result.status is Status.FEASIBLE
    expected = "".join("".join(f"{x:>3} " for x in row) + "\n" for row in PUBLISHED_5)
    assert format_mostra(numbered(tour_instance(5).board, result.solution)) == expected


@pytest.mark.parametrize("n", [2, 3, 4])
def test_cenpl_says_no_where_no_tour_exists(n):
    result = cenpl(tour_instance(n))
    assert result.status is Status.INFEASIBLE and result.verified
    assert result.info["starts_tried"] == n * n


def test_cenpl_8x8_is_a_valid_tour_and_the_published_one_is_valid_too():
    from knightcert.problems.checkers.tour import check_tour

    result = cenpl(tour_instance(8))
    assert result.verified and result.objective == 64
    check_tour(tour_instance(8), result.with_(solution=as_tour(PUBLISHED_8)))
    assert numbered(tour_instance(8).board, result.solution) != PUBLISHED_8


def test_cenpl_budget_gives_unknown_not_a_false_no():
    result = cenpl(tour_instance(6, 6, closed=True), budget=10)
    assert result.status is Status.UNKNOWN and result.info["stopped"] == "node budget spent"


@pytest.mark.parametrize(("n", "start"), [(31, (0, 0)), (100, (2, 3))])
def test_default_method_finds_the_tours_seed_001_missed(n, start):
    result = warnsdorff(tour_instance(n, start=start))
    assert result.verified and result.status is Status.FEASIBLE and result.solution[0] == list(start)


@pytest.mark.parametrize("method", [warnsdorff, marginality, roth])
def test_closed_tours_with_backtracking(method):
    for n in (6, 8):
        result = method(tour_instance(n, closed=True))
        assert result.verified and result.status is Status.FEASIBLE, (method.method_name, n)


def test_without_backtracking_a_dead_end_is_unknown():
    result = warnsdorff(tour_instance(1000), backtracking=False, check=False)
    assert result.status is Status.UNKNOWN and result.info["stopped"] == "dead end"


def test_fixed_end_is_respected():
    result = warnsdorff(tour_instance(5, start=(0, 0), end=(4, 4)))
    assert result.verified and result.solution[-1] == [4, 4]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.floats(0, 0.2),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["warnsdorff", "marginality", "roth"]),
    st.booleans(),
)
def test_every_heuristic_answer_passes_the_checker(rows, cols, density, seed, name, closed):
    rng = np.random.default_rng(seed)
    blocked = rng.random((rows, cols)) < density
    if blocked.all():
        return
    free = np.flatnonzero(~blocked.reshape(-1))
    start = divmod(int(rng.choice(free)), cols)
    inst = TourInstance(Board(rows, cols, blocked), closed=closed, start=start, name="h")
    method = {"warnsdorff": warnsdorff, "marginality": marginality, "roth": roth}[name]
    result = method(inst, budget=20_000)
    if result.status is Status.FEASIBLE:
        assert result.verified, result.info
    elif result.status is Status.INFEASIBLE:
        # a complete search from the start: the checker must agree when it can decide
        assert result.verified or "could not be confirmed" in result.info["check_error"]
    else:
        assert result.status is Status.UNKNOWN and result.solution is None


def test_base_tours_are_structured():
    assert set(base_tours()) == set(BASE_SIZES)
    for (rows, cols), table in base_tours().items():
        for a, b in corner_moves(rows, cols):
            assert b[0] * cols + b[1] in table[a[0] * cols + a[1]], (rows, cols, a, b)


def test_structured_tour_generator_still_works():
    from knightcert.models.structured_tours import structured_tour
    from knightcert.problems.checkers.tour import check_tour_moves

    order = structured_tour(6, 8, seed=1)
    tour = [list(divmod(i, 8)) for i in order]
    check_tour_moves(tour_instance(6, 8, closed=True), tour)
    pairs = {frozenset((order[i], order[(i + 1) % len(order)])) for i in range(len(order))}
    for a, b in corner_moves(6, 8):
        assert frozenset((a[0] * 8 + a[1], b[0] * 8 + b[1])) in pairs


@pytest.mark.parametrize("n", list(range(6, 122, 2)))
def test_divide_closes_every_even_square_board(n):
    result = divide(tour_instance(n, closed=True))
    assert result.verified and result.objective == n * n


@pytest.mark.parametrize(
    ("rows", "cols"), [(12, 14), (14, 12), (16, 18), (22, 24), (26, 24), (10, 12), (12, 10)]
)
def test_divide_on_rectangles(rows, cols):
    assert supported(rows, cols)
    result = divide(tour_instance(rows, cols, closed=True, start=(1, 2)))
    assert result.verified and result.solution[0] == [1, 2]


@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (6, 20), (7, 8), (4, 4)])
def test_divide_refuses_boards_it_does_not_cover(rows, cols):
    with pytest.raises(InvalidInstance, match="divide builds closed tours"):
        divide(tour_instance(rows, cols, closed=True))
