from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightcert.heuristics.tour_divide import construct, divide, pieces
from knightcert.heuristics.tour_warnsdorff import cenpl, marginality, roth, warnsdorff
from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidArgument, InvalidInstance
from knightcert.problems.moves import move_order
from knightcert.problems.result import Status
from knightcert.problems.tour_pieces import LANE_KINDS, LANE_PORTS, join_moves
from knightcert.problems.tours import (
    TourInstance,
    closed_tour_exists,
    format_mostra,
    numbered,
    open_tour_exists,
    tour_instance,
)
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
    from knightcert.problems.checkers import check as check_tour

    result = cenpl(tour_instance(8))
    assert result.verified and result.objective == 64
    check_tour(tour_instance(8), result.with_(solution=as_tour(PUBLISHED_8)))
    assert numbered(tour_instance(8).board, result.solution) != PUBLISHED_8


def test_cenpl_budget_gives_unknown_not_a_false_no():
    result = cenpl(tour_instance(6, 6, closed=True), budget=10)
    assert result.status is Status.UNKNOWN and result.record.stopped == "node budget spent"


def test_cenpl_budget_is_shared_by_its_starts():
    """16 starts on 4 x 4, none with a tour: "no" takes every node of every start within the one
    budget (each start had the whole budget: INFEASIBLE after 29,976 nodes on a 5,000 budget)."""
    nodes = cenpl(tour_instance(4)).nodes
    assert cenpl(tour_instance(4), budget=nodes).status is Status.INFEASIBLE
    for budget in (nodes - 1, 5000, 1):
        result = cenpl(tour_instance(4), budget=budget)
        assert result.status is Status.UNKNOWN and result.nodes == budget + 1, (budget, result.nodes)


@pytest.mark.parametrize(("n", "start"), [(31, (0, 0)), (100, (2, 3))])
def test_seed_001_rule_finds_the_tours_seed_001_missed(n, start):
    """Seed 001's rule (marginality, a move order where move 9 - k undoes move k) finds both tours
    without backtracking; so does the plain rule with backtracking (docs/tours.md)."""
    for order in ("12345678", "21436587"):
        result = marginality(tour_instance(n, start=start), order=order, backtracking=False)
        assert result.verified and result.status is Status.FEASIBLE
        assert result.solution[0].tolist() == list(start)
    result = warnsdorff(tour_instance(n, start=start))
    assert result.verified and result.status is Status.FEASIBLE


def test_order_and_tie_break_change_the_walk_and_bad_ones_are_refused():
    inst = tour_instance(8, start=(0, 0))
    walks = [
        warnsdorff(inst, order=order, tie_break=tie, seed=1).solution.tobytes()
        for order in ("12345678", "87654321")
        for tie in ("first", "marginality", "roth", "centre", "random")
    ]
    assert len(set(walks)) > 5
    assert len({warnsdorff(inst, tie_break="random", seed=s).solution.tobytes() for s in range(4)}) > 1
    pairs = "2,1 2,-1 1,-2 1,2 -1,2 -1,-2 -2,-1 -2,1"  # the order "87564312" as pairs
    same = warnsdorff(inst, order=pairs, backtracking=False).solution
    assert same.tolist() == warnsdorff(inst, order="87564312", backtracking=False).solution.tolist()
    for bad in ({"order": "1234567"}, {"order": [(1, 2)] * 8}, {"tie_break": "nearest"}):
        with pytest.raises(InvalidArgument):
            warnsdorff(inst, **bad)


@pytest.mark.parametrize("method", [warnsdorff, marginality, roth])
def test_closed_tours_with_backtracking(method):
    for n in (6, 8):
        result = method(tour_instance(n, closed=True))
        assert result.verified and result.status is Status.FEASIBLE, (method.method_name, n)


def test_without_backtracking_a_dead_end_is_unknown():
    result = warnsdorff(tour_instance(1000), backtracking=False, check=False)
    assert result.status is Status.UNKNOWN and result.record.stopped == "dead end"


def test_fixed_end_is_respected():
    result = warnsdorff(tour_instance(5, start=(0, 0), end=(4, 4)))
    assert result.verified and result.solution[-1].tolist() == [4, 4]


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


def _greedy_walk(inst, order, tie):
    """Warnsdorff's rule without backtracking, written plainly: the squares it visits and whether
    they make the tour asked for (each jump counted, as the engine counts them on small tori)."""
    board, start, end = inst.board, inst.start, inst.end
    jumps = move_order(order)

    def targets(r, c):
        steps = [(r + dr, c + dc) for dr, dc in jumps]
        steps = [(a % board.rows, b % board.cols) for a, b in steps] if board.torus else steps
        return [s for s in steps if board.is_free(*s)]

    def key(r, c):
        y, x = abs(2 * r - (board.rows - 1)), abs(2 * c - (board.cols - 1))
        return {"first": 0, "marginality": -(y + x), "roth": -(y * y + x * x), "centre": y * y + x * x}[tie]

    total, walk = board.n_free, [start]
    while len(walk) < total:
        onward = [s for s in targets(*walk[-1]) if s not in walk and (s != end or len(walk) == total - 1)]
        if inst.closed and all(s in walk for s in targets(*start)):
            onward = []  # the tour can no longer close
        degree = {s: sum(t not in walk for t in targets(*s)) for s in onward}
        if not onward:
            return walk, False
        walk.append(min(onward, key=lambda s: (degree[s], key(*s))))  # min keeps the first of equals
    last = walk[-1]
    return walk, (total > 2 and start in targets(*last)) if inst.closed else end in (None, last)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.floats(0, 0.3),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["first", "marginality", "roth", "centre"]),
    st.booleans(),
    st.booleans(),
)
def test_the_walk_without_backtracking_follows_the_rule_run_after_run(
    rows, cols, density, seed, tie, closed, torus
):
    """The engine's walk (its tables kept between runs on a board of the same size) is the rule's,
    on boards with holes, plain and toroidal, every order, open (to a fixed end) and closed."""
    rng = np.random.default_rng(seed)
    blocked = rng.random((rows, cols)) < density
    free = np.flatnonzero(~blocked.reshape(-1))
    if len(free) == 0:
        return
    start, end = (divmod(int(s), cols) for s in rng.choice(free, 2))
    end = None if closed or end == start else end
    order = "".join(str(k) for k in rng.permutation(8) + 1)
    for holes in (np.zeros_like(blocked), blocked):  # the same settings on another board: its own tables
        board = Board(rows, cols, holes, torus=torus)
        inst = TourInstance(board, closed=closed, start=start, end=end, name="w")
        walk, found = _greedy_walk(inst, order, tie)
        for _ in range(2):
            result = warnsdorff(inst, order=order, tie_break=tie, backtracking=False, check=False)
            assert (result.status is Status.FEASIBLE) == found
            squares = result.solution if found else result.certificate["partial"]
            assert squares.tolist() == [list(s) for s in walk]


def test_a_first_closed_walk_builds_only_the_tiles_it_nears_and_later_runs_reuse_them():
    """A closed walk without backtracking builds its tables by tiles as it goes, also on a board
    whose tables are kept for the next run (marked by tile), which builds only those missing:
    every run, lazy or not, is as on new tables."""
    from knightcert.heuristics import tour_warnsdorff

    board = Board(80, 80)

    def run(closed, start, backtracking, new):
        if new:
            tour_warnsdorff._WARM.clear()
        inst = TourInstance(board, closed=closed, start=start, name="w")
        result = roth(inst, backtracking=backtracking, budget=3000, check=False)
        squares = (
            result.solution if result.solution is not None else (result.certificate or {}).get("partial")
        )
        return (
            result.status,
            result.nodes,
            result.info["covered"],
            None if squares is None else squares.tolist(),
        )

    runs = [(True, (79, 40), False), (True, (0, 0), False), (False, (5, 5), True)] * 2
    new = [run(*settings, True) for settings in runs]
    run(True, (0, 0), False, True)
    ((_, kept),) = tour_warnsdorff._WARM
    assert 0 < np.count_nonzero(kept[-1]) < kept[-1].size  # the tiles built, not the whole board
    assert [run(*settings, False) for settings in runs] == new  # on partly, then fully built tables


def _lanes_cover(key, lanes):
    kind, size = key.split(":")
    h, w = (int(x) for x in size.split("x"))
    flat = [sq for lane in lanes for sq in lane]
    assert sorted(flat) == list(range(h * w)), key
    for lane in lanes:
        r, c = np.divmod(np.asarray(lane), w)
        dr, dc = np.abs(np.diff(r)), np.abs(np.diff(c))
        assert np.all((dr * dc) == 2), key
    return kind, h, w


def test_every_stored_piece_is_what_the_construction_relies_on():
    assert len(pieces()) > 100
    for key, lanes in pieces().items():
        kind, h, w = _lanes_cover(key, lanes)
        moves = {frozenset((lanes[0][i], lanes[0][(i + 1) % len(lanes[0])])) for i in range(len(lanes[0]))}
        if kind == "closed":
            a, b = divmod(lanes[0][0], w), divmod(lanes[0][-1], w)
            assert abs(a[0] - b[0]) * abs(a[1] - b[1]) == 2, key  # the closing move
        else:
            moves = {frozenset(p) for lane in lanes for p in itertools.pairwise(lane)}
        if h >= 5:  # block pieces carry the four join moves
            for a, b in join_moves(h, w).values():
                assert frozenset((a[0] * w + a[1], b[0] * w + b[1])) in moves, (key, a, b)
        elif kind in LANE_KINDS:
            assert len(lanes) == len(LANE_KINDS[kind])
            for lane, (entry, exit_) in zip(lanes, LANE_KINDS[kind], strict=True):
                for port, square in ((entry, lane[0]), (exit_, lane[-1])):
                    if port is not None:
                        r, c = LANE_PORTS[h][port]
                        assert square == r * w + (c % w), (key, port)


def _sweep(limit):
    """Every m x n <= limit: open from no start, open from (0, 0), closed; against the theorems."""
    from knightcert.problems.checkers.tour import check_tour_moves

    outcomes = {"tour": 0, "none": 0}
    for m in range(1, limit + 1):
        for n in range(1, limit + 1):
            for closed, start in ((False, None), (False, (0, 0)), (True, None)):
                exists = (closed_tour_exists if closed else open_tour_exists)(m, n)
                squares = construct(m, n, closed=closed, start=start)
                if squares is None:
                    # no tour, or a start the construction leaves to search (3/4 rows, odd x odd)
                    assert not exists or (start is not None and not closed_tour_exists(m, n)), (m, n, closed)
                    outcomes["none"] += 1
                    continue
                assert exists, (m, n, closed, start)
                assert squares.dtype == np.int32 and squares.shape == (m * n, 2)
                check_tour_moves(tour_instance(m, n, closed=closed, start=start), squares)
                outcomes["tour"] += 1
    return outcomes


@pytest.mark.heavy
def test_construction_sweeps_every_board_up_to_30x30():
    outcomes = _sweep(30)
    assert outcomes["tour"] > 0 and outcomes["none"] > 0


@pytest.mark.parametrize(
    ("m", "n", "closed"),
    [(3, 1000, True), (3, 1001, False), (4, 999, False), (5, 1001, False), (101, 103, False), (62, 99, True)],
)
def test_construction_on_long_and_odd_boards(m, n, closed):
    result = divide(tour_instance(m, n, closed=closed))
    assert result.verified and result.objective == m * n


def test_divide_says_no_with_the_theorem():
    result = divide(tour_instance(4, 9, closed=True))
    assert result.status is Status.INFEASIBLE and result.verified
    assert "Schwenk" in result.evidence[0].how


@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (3, 9), (4, 7)])
def test_divide_refuses_a_start_it_cannot_construct(rows, cols):
    with pytest.raises(InvalidInstance, match="divide does not build"):
        divide(tour_instance(rows, cols, start=(0, 0)))


def test_divide_rotates_closed_tours_to_the_start():
    result = divide(tour_instance(14, 12, closed=True, start=(1, 2)))
    assert result.verified and result.solution[0].tolist() == [1, 2]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 70), st.integers(1, 70), st.booleans(), st.floats(0, 1), st.floats(0, 1), st.booleans())
def test_construction_on_random_boards_and_starts(m, n, closed, fr, fc, with_start):
    """A tour only where the theorems allow one; with no start, always there; with a start, the
    construction may leave only narrow boards to search."""
    from knightcert.problems.checkers.tour import check_tour_moves
    from knightcert.problems.tours import full_board_reason
    from knightcert.tour_auto import solve_piece

    start = (min(m - 1, int(fr * m)), min(n - 1, int(fc * n))) if with_start else None
    squares = construct(m, n, closed=closed, start=start, solver=solve_piece)
    allowed = full_board_reason(m, n, closed=closed, start=start) is None
    if squares is None:
        assert not allowed or (start is not None and min(m, n) <= 4), (m, n, closed, start)
    else:
        assert allowed
        check_tour_moves(tour_instance(m, n, closed=closed, start=start), squares)
