from __future__ import annotations

import pytest

from knightcert.problems.checkers import check
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.tour import nonexistence_reason
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import (
    closed_tour_exists,
    format_mostra,
    numbered,
    open_tour_exists,
    tour_instance,
)

# seed 003's published 5 x 5 board
PUBLISHED_5 = [
    [1, 10, 15, 20, 3],
    [16, 21, 2, 9, 14],
    [11, 8, 23, 4, 19],
    [22, 17, 6, 13, 24],
    [7, 12, 25, 18, 5],
]


def as_tour(grid):
    cells = {value: [r, c] for r, row in enumerate(grid) for c, value in enumerate(row)}
    return [cells[k] for k in sorted(cells)]


def answer(tour, status=Status.FEASIBLE):
    return Result("tour", "t", status, None if tour is None else len(tour), None, tour, 0.0)


def test_accepts_the_published_5x5_and_reprints_it_in_seed_layout():
    inst = tour_instance(5)
    tour = as_tour(PUBLISHED_5)
    check(inst, answer(tour))
    assert format_mostra(numbered(inst.board, tour)).splitlines()[0] == "  1  10  15  20   3 "


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t[:-1], "visits 24 of 25"),
        (lambda t: [*t[:-1], t[0]], "visited twice"),
        (lambda t: [t[1], t[0], *t[2:]], "not a knight move"),
        (lambda t: [*t[:-1], [5, 5]], "off the board"),
        (lambda t: [*t[:-1], "x"], "not a \\[row, col\\] pair"),
    ],
)
def test_rejects_broken_tours(change, words):
    with pytest.raises(CheckFailed, match=words):
        check(tour_instance(5), answer(change(as_tour(PUBLISHED_5))))


def test_rejects_wrong_ends_and_open_tours_claimed_closed():
    tour = as_tour(PUBLISHED_5)
    with pytest.raises(CheckFailed, match="not closed"):
        check(tour_instance(5, closed=True), answer(tour))
    with pytest.raises(CheckFailed, match="starts at"):
        check(tour_instance(5, start=(4, 4)), answer(tour))
    with pytest.raises(CheckFailed, match="ends at"):
        check(tour_instance(5, end=(0, 0)), answer(tour))


def test_nonexistence_is_confirmed_only_with_a_reason():
    assert "Schwenk" in nonexistence_reason(tour_instance(4, 6, closed=True))
    assert "colours" in nonexistence_reason(tour_instance(5, closed=True))
    assert "majority colour" in nonexistence_reason(tour_instance(5, start=(0, 1)))
    assert "Conrad" in nonexistence_reason(tour_instance(4))
    assert "Conrad" in nonexistence_reason(tour_instance(3, 5, start=(0, 0)))
    assert "outer lines" in nonexistence_reason(tour_instance(4, 7, start=(1, 2)))
    assert "exhaustive search" in nonexistence_reason(tour_instance(3, 7, start=(1, 3)))
    assert nonexistence_reason(tour_instance(5)) is None
    with pytest.raises(CheckFailed, match="search found a tour"):
        check(tour_instance(5, start=(0, 0)), answer(None, Status.INFEASIBLE))
    check(tour_instance(4), answer(None, Status.INFEASIBLE))


@pytest.mark.parametrize(
    ("n", "closed", "who"), [(8, False, "Conrad"), (18, False, "Conrad"), (18, True, "Schwenk")]
)
def test_a_no_on_a_board_a_theorem_gives_a_tour_is_refuted(n, closed, who):
    """A twelfth-session reviewer's finding: past the checker's search (256 squares) a "No" on a
    full board was taken as the method's word, though the existence theorems refute it."""
    with pytest.raises(CheckFailed, match=f"{who}.*: a full {n} x {n} board has a tour"):
        check(tour_instance(n, closed=closed), answer(None, Status.INFEASIBLE))


def test_existence_theorems_small_values():
    assert [n for n in range(1, 11) if closed_tour_exists(3, n)] == [10]
    assert [n for n in range(1, 9) if open_tour_exists(3, n)] == [4, 7, 8]
    assert not closed_tour_exists(4, 100) and closed_tour_exists(6, 6) and not closed_tour_exists(5, 5)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"rows": 0}, "at least 1 x 1"),
        ({"rows": 5, "start": (5, 0)}, "off the 5 x 5 board"),
        ({"rows": 5, "end": (0, -1)}, "off the"),
        ({"rows": 5, "closed": True, "end": (0, 0)}, "closed tour has no separate end"),
        ({"rows": 5, "start": (1, 1), "end": (1, 1)}, "the same square"),
        ({}, "give the board size"),
    ],
)
def test_bad_instances(kwargs, words):
    with pytest.raises(InvalidInstance, match=words):
        tour_instance(**kwargs)


def test_start_on_a_removed_square(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("x....\n.....\n.....\n")
    with pytest.raises(InvalidInstance, match="removed square"):
        tour_instance(board_file=board, start=(0, 0))


def test_schwenk_holds_with_a_start_and_no_theorem_on_a_torus():
    from knightcert.problems.board import Board
    from knightcert.problems.checkers.tour import argument_against
    from knightcert.problems.tours import TourInstance

    assert "Schwenk" in nonexistence_reason(tour_instance(4, closed=True, start=(1, 1)))
    assert "Schwenk" in nonexistence_reason(tour_instance(3, 8, closed=True, start=(0, 0)))
    assert argument_against(TourInstance(Board(4, 4, torus=True), closed=True)) is None
    assert (
        argument_against(TourInstance(Board(5, 5, torus=True), closed=True)) is None
    )  # colours fail on odd tori
    assert argument_against(TourInstance(Board(3, 4, torus=True))) is None  # Conrad is for plain boards
    assert "colours" in nonexistence_reason(TourInstance(Board(4, 6, torus=True), start=(0, 0), end=(1, 1)))


def test_the_sliced_pass_agrees_with_the_whole_array_pass(monkeypatch):
    import numpy as np

    from knightcert.problems.checkers import tour as tour_checker
    from knightcert.registry import get_method

    monkeypatch.setattr(tour_checker, "CHUNK", 7)  # many slices, faults across their borders
    instance = tour_instance(8, closed=True)
    good = np.asarray(get_method("tour", "auto")(instance, check=False).solution, dtype=np.int32)
    assert tour_checker._looks_valid(instance, good)
    tour_checker.check_tour_moves(instance, good)
    swapped = good.copy()
    swapped[[6, 7]] = swapped[[7, 6]]  # a step broken at a slice border
    twice = good.copy()
    twice[10] = twice[3]  # a square twice, in two slices
    near = good.copy()
    near[12] = near[11]  # a square twice in one slice
    outside = good.copy()
    outside[20] = (8, 0)
    for bad in (swapped, twice, near, outside, good[::-1][1:], good[:-1]):
        assert not tour_checker._looks_valid(instance, bad)
        with pytest.raises(CheckFailed) as fast:
            tour_checker.check_tour_moves(instance, bad)
        with pytest.raises(CheckFailed) as whole:
            tour_checker._check_whole(instance, bad)
        assert str(fast.value) == str(whole.value)


@pytest.mark.parametrize(
    ("dtype", "edit"),
    [
        ("int64", lambda t: t.__setitem__((5, 0), t[5, 0] + 2**32)),  # wraps to a valid row in int32
        ("int64", lambda t: t.__setitem__((5, 1), t[5, 1] - 2**32)),
        ("uint32", lambda t: t.__setitem__((5, 0), 2**32 - 1)),
        ("int32", lambda t: t.__setitem__(3, t[7])),  # a square twice
        ("int32", lambda t: t.__setitem__((9, 0), -1)),
        ("int16", lambda t: t.__setitem__(slice(4, 6), t[5:3:-1])),  # two squares swapped: not a move
    ],
)
def test_the_fast_pass_refuses_what_a_narrower_type_would_hide(dtype, edit):
    import numpy as np

    from knightcert.heuristics.tour_divide import construct
    from knightcert.problems.checkers.tour import check_tour_moves

    tour = construct(8, 8, closed=True).astype(dtype)
    check_tour_moves(tour_instance(8, 8, closed=True), tour)  # the tour itself passes
    edit(tour)
    with pytest.raises(CheckFailed):
        check_tour_moves(tour_instance(8, 8, closed=True), np.asarray(tour))


def test_a_tour_over_a_removed_square_is_refused(tmp_path):
    from knightcert.heuristics.tour_divide import construct
    from knightcert.problems.checkers.tour import check_tour_moves

    board = tmp_path / "b.txt"
    board.write_text("x.......\n" + "........\n" * 7)
    tour = construct(8, 8, closed=True)
    with pytest.raises(CheckFailed):
        check_tour_moves(tour_instance(board_file=board, closed=True), tour[1:])
    with pytest.raises(CheckFailed):  # the right length, one square on the removed one
        check_tour_moves(tour_instance(board_file=board), tour[:-1])
