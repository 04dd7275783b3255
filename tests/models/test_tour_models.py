from __future__ import annotations

import functools

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


def fixed_ends():
    """Every (start, end) pair of a few small boards, closed, and open with only the end fixed."""
    from knightcert.problems.board import Board
    from knightcert.problems.tours import TourInstance

    for rows, cols, torus in ((3, 4, False), (4, 4, True), (4, 5, False)):
        squares = [(r, c) for r in range(rows) for c in range(cols)]
        for end in squares[::3]:
            yield TourInstance(Board(rows, cols, torus=torus), False, None, end, f"{rows}x{cols}")
            for start in [None, *squares[:3]]:
                if end != start:
                    yield TourInstance(Board(rows, cols, torus=torus), True, start, end, f"{rows}x{cols}")


@functools.cache
def tour_exists(rows: int, cols: int, torus: bool, closed: bool, start, end) -> bool:
    """The oracle's word on a full board's tour, asked once for all the methods (its brute
    force is most of their time)."""
    from tests import oracle

    data = {
        "rows": rows, "cols": cols, "torus": torus, "blocked": set(),
        "closed": closed, "start": start, "end": end,
    }  # fmt: skip
    return oracle.tour_exists(data)


@pytest.mark.parametrize("method", ["cpsat", "csp", "auto", "roth", "warnsdorff"])
def test_fixed_ends_agree_with_the_oracle(method):
    """A tour that must end at E (closed: from S, so E is a knight move from S) finishes there;
    the exact methods decide every case, the heuristics never claim a wrong "No"."""
    from knightcert import solve

    exact = method in ("cpsat", "csp", "auto")
    for instance in fixed_ends():
        board = instance.board
        if method == "csp" and board.n_free > 16:  # its search of a 4 x 5 board's "No" takes seconds
            continue
        result = solve(instance, method=method, time_limit=20, seed=0)
        ends = (instance.closed, instance.start, instance.end)
        exists = tour_exists(board.rows, board.cols, board.torus, *ends)
        where = (instance.name, instance.closed, instance.start, instance.end, method)
        expected = {Status.FEASIBLE if exists else Status.INFEASIBLE} | (set() if exact else {Status.UNKNOWN})
        assert result.status in expected, where
        assert result.verified or result.status is Status.UNKNOWN, (where, result.info)
        if result.status is Status.FEASIBLE:
            assert tuple(result.solution[-1]) == instance.end, where
            assert instance.start is None or tuple(result.solution[0]) == instance.start, where


@pytest.mark.parametrize("closed", [True, False])
def test_a_complete_tour_hint_is_given_whole_and_returned_by_the_solver(closed):
    from knightcert.heuristics.tour_divide import construct

    inst = tour_instance(12, 12, closed=closed)
    tour = construct(12, 12, closed=closed)
    result = cpsat(inst, seed=0, hint=tour.tolist(), hint_source="divide")
    assert result.status is Status.FEASIBLE and result.verified
    assert result.info["hint"] == "divide (a complete tour)"
    assert result.info["branches"] == 0  # CP-SAT took the complete assignment as its solution


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t[:-1],  # a square missing
        lambda t: [*t[:-1], t[0]],  # a square twice
        lambda t: [*t[:5], *t[6:], t[5]],  # a step that is no knight move
        lambda t: [*t[:-1], [99, 99]],  # a square off the board
    ],
)
def test_a_hint_that_is_not_a_tour_stays_partial(change):
    from knightcert.heuristics.tour_divide import construct

    inst = tour_instance(8, 8, closed=True)
    hint = change(construct(8, 8, closed=True).tolist())
    result = cpsat(inst, seed=0, hint=hint, hint_source="edited")
    assert result.status is Status.FEASIBLE and result.verified
    assert result.info["hint"] == "edited"


def test_the_registered_cpsat_hints_the_construction_or_warnsdorff(tmp_path):
    from knightcert.combined import tour_cpsat

    full = tour_cpsat(tour_instance(20, 20, closed=True), seed=0)
    assert full.verified and full.info["hint"] == "divide (a complete tour)"
    board = tmp_path / "b.txt"
    board.write_text("x.....\n......\n......\n......\n......\nx.....\n")
    holed = tour_cpsat(tour_instance(board_file=board, closed=True), seed=0)
    assert holed.verified and holed.status is Status.FEASIBLE and holed.info["hint"].startswith("warnsdorff")
    given = tour_cpsat(tour_instance(5, 6, start=(0, 0), end=(4, 5)), seed=0, hint=[[0, 0], [1, 2]])
    assert given.verified and given.info["hint"] == "given"


@pytest.mark.parametrize(("m", "n"), [(1, 1), (1, 2), (2, 2)])
def test_the_registered_cpsat_on_boards_without_a_move(m, n):
    """A twelfth-session reviewer's finding: ``tour 1 --closed --method cpsat`` crashed while
    hinting (a hint's closing move looked up among no moves at all)."""
    from knightcert.combined import tour_cpsat

    for closed, exists in ((False, open_tour_exists(m, n)), (True, closed_tour_exists(m, n))):
        result = tour_cpsat(tour_instance(m, n, closed=closed), seed=0)
        assert result.verified and result.status is (Status.FEASIBLE if exists else Status.INFEASIBLE)
