from __future__ import annotations

import pytest
from knightcert.models.tour_cpsat import cpsat
from knightcert.models.tour_csp import MAX_CSP_SQUARES, csp
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.result import Status
from knightcert.problems.tours import closed_tour_exists, open_tour_exists, tour_instance

BOARDS = [(m, n) for m in range(1, 7) for n in range(m, 8)]


@pytest.mark.parametrize(("m", "n"), BOARDS)
def test_cpsat_matches_the_existence_theorems(m, n):
    for closed, exists in ((False, open_tour_exists(m, n)), (True, closed_tour_exists(m, n))):
        result = cpsat(tour_instance(m, n, closed=closed), seed=0)
        assert result.status is (Status.FEASIBLE if exists else Status.INFEASIBLE), (m, n, closed)
        assert result.verified, result.info


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rows": 3, "cols": 4},
        {"rows": 3, "cols": 4, "start": (0, 0)},
        {"rows": 3, "cols": 4, "start": (1, 1)},
        {"rows": 4, "cols": 4},
        {"rows": 3, "cols": 5},
        {"rows": 2, "cols": 3},
        {"rows": 1, "cols": 1},
        {"rows": 3, "cols": 4, "start": (0, 0), "end": (2, 3)},
        {"rows": 3, "cols": 4, "closed": True},
        {"rows": 4, "cols": 4, "closed": True},
    ],
)
def test_csp_agrees_with_cpsat(kwargs):
    inst = tour_instance(**kwargs)
    a, b = csp(inst), cpsat(inst, seed=0)
    assert a.status is b.status, kwargs
    assert a.verified and b.verified


def test_cpsat_respects_start_and_end():
    result = cpsat(tour_instance(5, 6, start=(0, 0), end=(4, 5)), seed=0)
    assert result.verified and result.solution[0] == [0, 0] and result.solution[-1] == [4, 5]


def test_cpsat_with_removed_squares_and_a_tiny_time_limit(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("x.....\n......\n......\n......\n......\n.....x\n")  # two squares of one colour gone
    result = cpsat(tour_instance(board_file=board, closed=True), seed=0)
    assert result.status is Status.INFEASIBLE and result.verified  # 16 and 18 squares per colour
    board.write_text("x.....\n......\n......\n......\n......\nx.....\n")  # one of each colour
    result = cpsat(tour_instance(board_file=board, closed=True), seed=0)
    assert result.verified and result.status is Status.FEASIBLE and len(result.solution) == 34
    quick = cpsat(tour_instance(40, closed=True), time_limit=0.01, seed=0)
    assert quick.status in (Status.UNKNOWN, Status.FEASIBLE)


def test_csp_size_limit():
    assert MAX_CSP_SQUARES == 25
    with pytest.raises(SizeLimitExceeded):
        csp(tour_instance(6))


@pytest.mark.parametrize(("m", "n"), [(4, 5), (4, 6), (5, 4), (3, 7), (5, 5)])
def test_cpsat_agrees_with_the_start_square_reasons(m, n):
    """Colour parity and the outer-rows argument say exactly which starts have a tour."""
    from knightcert.problems.tours import full_board_reason

    for r in range(m):
        for c in range(n):
            result = cpsat(tour_instance(m, n, start=(r, c)), seed=0)
            allowed = full_board_reason(m, n, closed=False, start=(r, c)) is None
            if not allowed:
                assert result.status is Status.INFEASIBLE, (m, n, r, c)
            elif (m, n) != (3, 7) and (m, n) != (5, 5):
                assert result.status is Status.FEASIBLE, (m, n, r, c)
