from __future__ import annotations

import numpy as np
import pytest

from knightcert.problems.result import Status
from knightcert.problems.tours import full_board_reason, tour_instance
from knightcert.registry import default_method
from knightcert.tour_auto import auto


def test_auto_is_the_default_tour_method():
    assert default_method("tour") == "auto"


@pytest.mark.heavy
def test_every_board_up_to_30x30_is_answered_and_verified():
    """Open from no start, open from (0, 0), closed: a verified tour exactly where the theorems
    allow one, else a verified "No" whose evidence is the theorem."""
    counts = {Status.FEASIBLE: 0, Status.INFEASIBLE: 0}
    for m in range(1, 31):
        for n in range(1, 31):
            for closed, start in ((False, None), (False, (0, 0)), (True, None)):
                result = auto(tour_instance(m, n, closed=closed, start=start))
                reason = full_board_reason(m, n, closed=closed, start=start)
                assert result.verified, (m, n, closed, start, result.info)
                if reason is None:
                    assert result.status is Status.FEASIBLE, (m, n, closed, start)
                else:
                    assert result.status is Status.INFEASIBLE, (m, n, closed, start)
                    # the checker's own evidence: a theorem, or a counting argument it verified
                    assert result.certified, (m, n, closed, start, result.evidence)
                counts[result.status] += 1
    assert counts[Status.FEASIBLE] > 0 and counts[Status.INFEASIBLE] > 0


@pytest.mark.parametrize(("n", "start"), [(5, (0, 1)), (7, (3, 4)), (21, (2, 5))])
def test_minority_colour_starts_on_odd_boards_are_a_no_by_colour(n, start):
    result = auto(tour_instance(n, start=start))
    assert result.status is Status.INFEASIBLE and result.certified
    assert result.evidence[0].how.startswith("colour")


@pytest.mark.parametrize(("m", "n", "start"), [(7, 9, (3, 3)), (25, 23, (12, 12)), (11, 11, (10, 0))])
def test_odd_boards_start_anywhere_on_the_majority_colour(m, n, start):
    result = auto(tour_instance(m, n, start=start))
    assert result.verified and result.status is Status.FEASIBLE and result.info["rule"] == "construction"
    assert result.solution[0].tolist() == list(start)


def test_narrow_board_start_goes_to_search_and_fixed_ends_too():
    result = auto(tour_instance(3, 9, start=(1, 1)))
    assert (
        result.verified
        and result.status is Status.FEASIBLE
        and result.info["rule"] in ("warnsdorff", "cpsat")
    )
    result = auto(tour_instance(6, 6, start=(0, 0), end=(5, 4)))
    assert result.verified and result.status is Status.FEASIBLE
    result = auto(tour_instance(6, 6, start=(0, 0), end=(5, 5)))
    assert result.status is Status.INFEASIBLE and result.certified
    assert result.evidence[0].how.startswith("colour")


def test_the_answer_is_a_compact_int32_array():
    result = auto(tour_instance(300, 301, closed=True))
    assert isinstance(result.solution, np.ndarray) and result.solution.dtype == np.int32
    assert result.solution.shape == (300 * 301, 2) and result.verified


@pytest.mark.parametrize(("m", "n"), [(3, 15), (13, 3), (4, 21), (22, 4)])
def test_narrow_boards_from_every_start_the_theorems_allow(m, n):
    """3 x n and 4 x n without closed tours: a start piece by CP-SAT, or search; never a false No."""
    from knightcert.problems.checkers.tour import check_tour_moves

    rules = set()
    for r in range(m):
        for c in range(n):
            if (r * n + c) % 3 and 4 in (m, n):
                continue  # a sample of the starts on the longer 4-row boards
            result = auto(tour_instance(m, n, start=(r, c)))
            assert result.verified, (r, c, result.info)
            if full_board_reason(m, n, closed=False, start=(r, c)) is None:
                assert result.status is Status.FEASIBLE, (r, c)
                check_tour_moves(tour_instance(m, n, start=(r, c)), result.solution)
                rules.add(result.info["rule"])
            else:
                assert result.status is Status.INFEASIBLE and result.certified
    assert "construction" in rules


def test_removed_squares_go_to_counting_then_search(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("x.....\n......\n......\n......\n......\n.....x\n")  # two squares of one colour gone
    result = auto(tour_instance(board_file=board, closed=True))
    assert result.status is Status.INFEASIBLE and result.verified and result.info["rule"] == "theorem"
    assert "alternates colours" in result.evidence[0].how
    board.write_text("x.....\n......\n......\n......\n......\nx.....\n")  # one of each colour
    result = auto(tour_instance(board_file=board, closed=True), time_limit=20)
    assert (
        result.verified
        and result.status is Status.FEASIBLE
        and result.info["rule"] in ("warnsdorff", "cpsat")
    )


def test_a_dead_end_reports_the_squares_covered():
    from knightcert.heuristics.tour_warnsdorff import greedy_path, roth

    result = roth(tour_instance(201, start=(0, 1)), backtracking=False, check=False)  # minority colour
    assert result.status is Status.UNKNOWN and result.info["covered"] == 201 * 201 - 1
    assert len(greedy_path(tour_instance(201, start=(0, 1)))) == result.info["covered"]
