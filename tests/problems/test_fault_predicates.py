"""The four hand-made checker faults of issue 37, each killed by a test of the predicate it breaks:

* a path checker certifying OPTIMAL 3 on a 7 x 5 torus where the shortest path has 2 moves
  (:func:`check_distance_labels` must see a growth of 2 along every one of the eight jumps, and
  the checker's own labelling must refuse a length its flood fill beats);
* a path checker certifying INFEASIBLE with a closed set holding every square
  (:func:`check_closed_set` must refuse a set containing S);
* a tour checker certifying "no closed tour" on a 1 x 3 torus, where one exists
  (:func:`argument_against`: the counting argument holds below 3 squares only);
* a jump checker certifying a lower bound of 4 where the winner arrives in round 3
  (the bound is compared with the best round of all players).
"""

from __future__ import annotations

import numpy as np
import pytest

from knightcert.problems.board import Board
from knightcert.problems.checkers import check
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.path import check_closed_set, check_distance_labels
from knightcert.problems.checkers.tour import argument_against
from knightcert.problems.jump_game import parse_jump
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.moves import KNIGHT_OFFSETS
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance

TORUS = Board(7, 5, torus=True)


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize(("dr", "dc"), KNIGHT_OFFSETS)
def test_a_labelling_growing_by_two_along_any_one_jump_is_refused(dr, dc, dtype):
    """C at 0, the square one jump (dr, dc) away at 2, every other neighbour of C at 1, the rest
    at 2: the one move that grows by more than 1 is C -> S, along (dr, dc) (a wrap on the torus
    for every jump, since C sits on the first row and column); int32 labels (the methods') too."""
    start = (0, 0)
    exit_ = (dr % 7, dc % 5)
    instance = LostKnightInstance(TORUS, start, exit_)
    labels = np.full((7, 5), 2, dtype=dtype)
    for er, ec in KNIGHT_OFFSETS:
        labels[er % 7, ec % 5] = 1
    labels[start], labels[exit_] = 0, 2
    with pytest.raises(CheckFailed, match="grows by more than 1"):
        check_distance_labels(instance, labels, 2)
    labels[exit_] = 1
    check_distance_labels(instance, labels, 1)  # the true distance, and a valid labelling


def test_optimal_three_is_refused_where_two_moves_suffice():
    """7 x 5 torus, C (0, 0), S (4, 2): (0, 0) -> (2, 1) -> (4, 2) takes 2 moves, so a legal
    3-move path claimed optimal is false, with the checker's own labelling and with one that
    puts C's neighbours at 1 and every other square at 3."""
    instance = LostKnightInstance(TORUS, (0, 0), (4, 2))
    two = [[0, 0], [2, 1], [4, 2]]
    assert check(instance, Result("path", "t", Status.OPTIMAL, 2, 2, two, 0.0)).certified
    three = [[0, 0], [1, 3], [3, 4], [4, 2]]
    claim = Result("path", "t", Status.OPTIMAL, 3, 3, three, 0.0)
    assert check(instance, claim.with_(status=Status.FEASIBLE, bound=None)).verified  # the path is legal
    with pytest.raises(CheckFailed, match="flood fill finds a path of 2 moves"):
        check(instance, claim)
    forged = np.full((7, 5), 3)
    forged[0, 0] = 0
    for er, ec in KNIGHT_OFFSETS:
        forged[er % 7, ec % 5] = 1
    forged[4, 2] = 3
    with pytest.raises(CheckFailed, match="grows by more than 1"):
        check(instance, claim.with_(certificate={"labels": forged}))
    with pytest.raises(CheckFailed, match="flood fill finds the shortest path of 2"):
        check(instance, Result("path", "t", Status.UNKNOWN, None, 3, None, 0.0))


def test_a_closed_set_holding_every_square_is_refused():
    """Every move from the set of all squares stays in it; only 'it contains S' refutes it."""
    instance = LostKnightInstance(TORUS, (0, 0), (4, 2))
    everything = np.ones((7, 5), dtype=bool)
    with pytest.raises(CheckFailed, match="contains S"):
        check_closed_set(instance, everything)
    claim = Result("path", "t", Status.INFEASIBLE, None, None, None, 0.0, certificate={"closed": everything})
    with pytest.raises(CheckFailed, match="contains S"):
        check(instance, claim)
    blocked = np.zeros((7, 5), dtype=bool)
    blocked[[2, 5, 1, 6, 2, 5, 1, 6], [1, 1, 2, 2, 4, 4, 3, 3]] = True  # C's eight neighbours
    walled = LostKnightInstance(Board(7, 5, blocked, torus=True), (0, 0), (4, 2))
    alone = np.zeros((7, 5), dtype=bool)
    alone[0, 0] = True
    check_closed_set(walled, alone)  # C alone is closed once its neighbours are removed
    with pytest.raises(CheckFailed, match="contains S"):
        check_closed_set(walled, walled.board.free)


@pytest.mark.parametrize("cols", [1, 2, 3, 4])
def test_the_counting_argument_holds_below_three_squares_only(cols):
    """A 1 x 3 torus has a closed tour (0,0) -> (0,2) -> (0,1) -> (0,0), every step a jump of
    (2, 1) or (0, 2) that wraps; the count argument refutes 1 and 2 squares only."""
    instance = TourInstance(Board(1, cols, torus=True), closed=True)
    reason = argument_against(instance)
    no = Result("tour", "t", Status.INFEASIBLE, None, None, None, 0.0)
    if cols < 3:
        assert reason is not None and reason[1].startswith("count")
        assert check(instance, no).certified
        return
    assert reason is None or not reason[1].startswith("count")
    if cols == 3:
        assert reason is None
        with pytest.raises(CheckFailed, match="found a tour"):
            check(instance, no)
        tour = [[0, 0], [0, 2], [0, 1]]
        assert check(instance, Result("tour", "t", Status.OPTIMAL, 3, 3, tour, 0.0)).certified


def test_a_bound_above_the_winning_round_is_refused():
    """EX1: C wins in round 3 (A needs 3 as well, with a longer previous jump; B 4): a lower
    bound of 3 holds, one of 4 does not, whatever the slower players need."""
    game = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")
    check(game, Result("jump", "t", Status.UNKNOWN, None, 3, None, 0.0))
    for bound in (4, 5):
        with pytest.raises(CheckFailed, match="exceeds the winning round 3"):
            check(game, Result("jump", "t", Status.UNKNOWN, None, bound, None, 0.0))
