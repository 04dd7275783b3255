from __future__ import annotations

import pytest

from knightcert.problems.board import Board
from knightcert.problems.checkers import check
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.independent_knights import KnightsInstance, closed_form, knights_instance
from knightcert.problems.result import Result, Status

THREE = knights_instance(3)
CORNERS_AND_CENTRE = [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]]


def answer(solution, status=Status.FEASIBLE, objective=None, bound=None, certificate=None):
    objective = len(solution) if objective is None else objective
    return Result("knights", "t", status, objective, bound, solution, 0.0, certificate=certificate)


def test_accepts_a_valid_placement_and_matching():
    matching = [[[0, 0], [1, 2]], [[0, 2], [2, 1]], [[2, 2], [1, 0]], [[2, 0], [0, 1]]]
    check(THREE, answer(CORNERS_AND_CENTRE, Status.OPTIMAL, 5, 5, {"matching": matching}))


@pytest.mark.parametrize(
    ("solution", "objective", "words"),
    [
        ([[0, 0], [1, 2]], 2, "attacked"),
        ([[0, 0], [0, 0]], 2, "two knights"),
        ([[0, 0], [3, 3]], 2, "off the board"),
        ([[0, 0]], 2, "objective 2"),
        ([[0, 0], "x"], 2, "not a \\[row, col\\]"),
    ],
)
def test_rejects_bad_placements(solution, objective, words):
    with pytest.raises(CheckFailed, match=words):
        check(THREE, answer(solution, objective=objective))


def test_rejects_knights_on_removed_squares():
    holed = KnightsInstance(Board(3, 3, [[True, False, False], [False] * 3, [False] * 3]))
    with pytest.raises(CheckFailed, match="removed"):
        check(holed, answer([[0, 0]]))


def test_rejects_forged_matchings_and_false_optimality():
    with pytest.raises(CheckFailed, match="not a knight move"):
        check(THREE, answer(CORNERS_AND_CENTRE, certificate={"matching": [[[0, 0], [0, 1]]]}))
    with pytest.raises(CheckFailed, match="matched twice"):
        check(
            THREE, answer(CORNERS_AND_CENTRE, certificate={"matching": [[[0, 0], [1, 2]], [[0, 0], [2, 1]]]})
        )
    # a weak (valid) matching proves nothing: the checker's own maximum matching decides
    weak = check(THREE, answer(CORNERS_AND_CENTRE, Status.OPTIMAL, 5, 5, {"matching": [[[0, 0], [1, 2]]]}))
    assert weak.certified and len(weak.certificate["matching"]) == 4
    with pytest.raises(CheckFailed, match="proves 5 knights fit"):
        check(THREE, answer(CORNERS_AND_CENTRE[:4], Status.OPTIMAL, 4, 4, {"matching": [[[0, 0], [1, 2]]]}))
    with pytest.raises(CheckFailed, match="bound 4 is below"):
        check(THREE, answer(CORNERS_AND_CENTRE, Status.FEASIBLE, 5, 4))


def test_toroidal_attacks_wrap():
    torus = knights_instance(4, torus=True)
    with pytest.raises(CheckFailed, match="attacked"):
        check(torus, answer([[0, 0], [3, 2]]))  # (-1, +2) wraps from row 0 to row 3


def test_closed_form_small_values():
    assert [closed_form(1, n) for n in (1, 5)] == [1, 5]
    assert [closed_form(2, n) for n in range(1, 9)] == [2, 4, 4, 4, 6, 8, 8, 8]
    assert closed_form(3, 3) == 5 and closed_form(5, 4) == 10


@pytest.mark.parametrize("seed", range(40))
def test_dense_placements_agree_with_every_pair_of_knights(seed):
    """The dense placements' grid pass against the definition: no two knights a jump apart."""
    import numpy as np

    from knightcert.problems.checkers.knights import check_placement

    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(1, 9)), int(rng.integers(1, 9))
    free = [(r, c) for r in range(rows) for c in range(cols)]
    density = rng.uniform(0.25, 0.6)
    chosen = [sq for sq in free if rng.random() < density] or [free[0]]
    if rng.random() < 0.5:  # often a colour class, which no jump joins
        chosen = [sq for sq in free if (sq[0] + sq[1]) % 2 == seed % 2] or [free[0]]
    attacked = any(
        {abs(a[0] - b[0]), abs(a[1] - b[1])} == {1, 2} for i, a in enumerate(chosen) for b in chosen[i + 1 :]
    )
    instance = knights_instance(rows, cols)
    placement = np.array(chosen, dtype=np.int64)
    if attacked:
        with pytest.raises(CheckFailed, match="is attacked"):
            check_placement(instance, placement)
    else:
        assert check_placement(instance, placement) == len(chosen)
