"""Tests that kill the survivors of the mutation run on the tour, path, jump and knights
checkers' policy tables and predicates, and on the checker's own counter (cosmic-ray, core and
quiet operators; docs/certificates.md, "Mutation testing"): each pins the predicate or the row
a surviving mutant broke."""

from __future__ import annotations

import numpy as np
import pytest

from knightcert.problems.board import Board
from knightcert.problems.checkers import certify
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.enumeration import SQUARES, enumerate_solutions
from knightcert.problems.checkers.jump import certify_jump
from knightcert.problems.checkers.path import certify_path
from knightcert.problems.checkers.tour import (
    EXHAUSTIVE_SQUARES,
    _closing_argument,
    _count_argument,
    _full_open,
    _theorem_argument,
    argument_against,
)
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.jump_game import parse_jump
from knightcert.problems.lost_knight import LostKnightInstance, parse_lost_knight
from knightcert.problems.result import Backing, Result, Status
from knightcert.problems.tours import TourInstance
from knightcert.solving import solve


def test_the_closing_argument_needs_both_ends_and_no_move_between_them():
    board = Board(5, 6)
    assert _closing_argument(TourInstance(board, True, None, (0, 0))) is None  # an end alone: nothing
    assert _closing_argument(TourInstance(board, True, (0, 0), None)) is None
    assert _closing_argument(TourInstance(board, True, (0, 0), (1, 2))) is None  # a knight move apart
    assert _closing_argument(TourInstance(board, False, (0, 0), (0, 1))) is None  # open: no closing move
    why = "closing move: the fixed start and end are not a knight move apart"
    assert _closing_argument(TourInstance(board, True, (0, 0), (0, 1))) == why
    assert argument_against(TourInstance(Board(6, 6), True, (0, 0), (0, 1))) == (Backing.CERTIFICATE, why)


def test_the_count_argument_is_about_closed_tours_only():
    assert _count_argument(TourInstance(Board(1, 2), False)) is None
    assert _count_argument(TourInstance(Board(1, 2), True)) == "count: a closed tour needs at least 3 squares"


def test_a_fixed_end_names_the_open_tour_reason_and_free_ends_conrad():
    """With no fixed end the argument cites the table of boards with an open tour; with a
    start or an end (either), the reason for the board's sides."""
    board = Board(3, 3)
    assert (
        _theorem_argument(TourInstance(board)) == "Conrad et al. (1994): no open tour on a full 3 x 3 board"
    )
    sides = "Conrad et al. (1994) / Cull and De Curtins (1978): no open tour on 3 x 3, 3 x 5 or 3 x 6 (3 x 3)"
    for start, end in (((0, 0), None), (None, (0, 0)), ((0, 0), (1, 2))):
        assert _theorem_argument(TourInstance(board, False, start, end)) == sides


def test_a_full_board_argument_is_asked_for_open_tours_of_full_plain_boards_only():
    calls: list[tuple] = []
    argument = _full_open(lambda *given: calls.append(given) or "why")
    assert argument(TourInstance(Board(5, 5), False, (0, 0))) == "why" and calls == [(5, 5, (0, 0), None)]
    holed = Board(5, 5, np.eye(5, dtype=bool)[:, ::-1] & np.eye(5, dtype=bool))  # the centre removed
    for other in (Board(5, 5, torus=True), holed):
        assert argument(TourInstance(other, False, (0, 0))) is None
    assert argument(TourInstance(Board(5, 5), True)) is None and len(calls) == 1


# ------------------------------------------------------------------------ path: certify_path, _no_path


def _path_answer(status, path=None, objective=None, bound=None, certificate=None):
    return Result("path", "test", status, objective, bound, path, 0.0, certificate=certificate)


BASE = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")  # 6x6 torus: 2 moves
VIA = LostKnightInstance(BASE.board, BASE.start, BASE.exit, "v", via=((3, 3),))


def test_the_checked_labels_are_handed_back_for_an_optimal_claim_of_one_leg_only():
    path = [[0, 0], [1, 2], [2, 4]]
    evidence, certificate = certify_path(BASE, _path_answer(Status.OPTIMAL, path, 2, 2))
    assert evidence[-1].how == "distance labelling" and set(certificate) == {"labels"}
    evidence, certificate = certify_path(BASE, _path_answer(Status.FEASIBLE, path, 2, 2, {"labels": "x"}))
    assert evidence[-1].claim == "bound" and certificate is None  # a bound's labels are the checker's own
    through = solve(VIA, "bfs")
    junk = _path_answer(
        Status.OPTIMAL, through.solution, through.objective, through.objective, {"labels": "x"}
    )
    evidence, certificate = certify_path(VIA, junk)  # labels attached to a via path are not read
    assert evidence[-1].how == "distance labelling of each of 2 legs" and certificate is None


def test_the_closed_set_of_a_later_leg_is_found():
    cut = np.zeros((5, 5), dtype=bool)
    for dr, dc in ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)):
        cut[(2 + dr) % 5, (2 + dc) % 5] = True  # (2, 2) has no move left
    instance = LostKnightInstance(Board(5, 5, cut, torus=True), (0, 0), (2, 2), "cut", via=((4, 4),))
    evidence, certificate = certify_path(instance, _path_answer(Status.INFEASIBLE))
    assert evidence[0].how == "closed set (the leg (4, 4) -> (2, 2))" and set(certificate) == {"closed"}


def test_a_via_square_on_the_start_adds_no_leg():
    instance = LostKnightInstance(BASE.board, BASE.start, BASE.exit, "v", via=(BASE.start,))
    evidence, _ = certify_path(instance, _path_answer(Status.OPTIMAL, [[0, 0], [1, 2], [2, 4]], 2, 2))
    assert evidence[-1].how == "distance labelling"


# ------------------------------------------------------------------------ jump: the policy's rows


GAME = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")  # EX1: C wins in round 3
STUCK = parse_jump("1 3\n1\n1 0 0\n0 0\n")  # nobody arrives
NOBODY = {"winner": None, "round": None, "key": None, "path": None}


def _jump_answer(status, solution=None, bound=None):
    return Result("jump", "test", status, None, bound, solution, 0.0)


def test_no_winner_is_certified_when_nobody_arrives_and_the_answer_names_nobody():
    for solution in (None, NOBODY):  # without a solution, or one that names nobody
        evidence, _ = certify_jump(STUCK, _jump_answer(Status.INFEASIBLE, solution))
        assert [(e.claim, e.how) for e in evidence] == [("infeasible", "round labels")]
    for field, value in (("winner", "A"), ("round", 2)):
        with pytest.raises(CheckFailed, match="an answer without a winner names one, or its round"):
            certify_jump(STUCK, _jump_answer(Status.INFEASIBLE, {**NOBODY, field: value}))
    with pytest.raises(CheckFailed, match=r"^player A can reach the goal$"):
        certify_jump(GAME, _jump_answer(Status.INFEASIBLE))


def test_a_lower_bound_up_to_the_winning_round_is_certified():
    for bound in (2, 3):
        evidence, _ = certify_jump(GAME, _jump_answer(Status.UNKNOWN, bound=bound))
        assert [(e.claim, e.how) for e in evidence] == [("bound", "round labels")]
    with pytest.raises(CheckFailed, match="bound 4 exceeds the winning round 3 the labels prove"):
        certify_jump(GAME, _jump_answer(Status.UNKNOWN, bound=4))


# ------------------------------------------------------------------------ the checker's own counter


def test_the_checkers_count_takes_exactly_its_step_budget():
    """7 steps count the 3 shortest paths of 2 moves, 66 the 2 placements of 5 knights on 3 x 3:
    one step fewer counts nothing."""
    path = LostKnightInstance(Board(5, 7, torus=True), (0, 0), (3, 4))
    knights = KnightsInstance(Board(3, 3))
    for instance, steps, counted in ((path, 7, (2, 3)), (knights, 66, (5, 2))):
        assert enumerate_solutions(instance, nodes=steps) == counted
        assert enumerate_solutions(instance, nodes=steps - 1) is None


def test_the_checkers_tour_count_takes_boards_of_up_to_its_search_squares():
    assert EXHAUSTIVE_SQUARES == 256
    assert enumerate_solutions(TourInstance(Board(1, 256))) == (None, 0)  # no move: no tour, counted
    assert enumerate_solutions(TourInstance(Board(1, 257))) is None


# ------------------------------------------------------------------------ knights: fixed knights


def test_fixed_knights_claims_are_the_rests_and_the_answer_is_the_whole_placement():
    instance = knights_instance(6, fixed=[(0, 0), (3, 3)])
    aside = " (the board without the 2 fixed knights and the squares they attack)"
    best = solve(instance, "matching")
    evidence = certify(instance, best).evidence
    assert [(e.claim, e.how) for e in evidence] == [
        ("answer", "placement checked"),
        ("optimal", "matching (Kőnig)" + aside),
    ]
    bound = Result.empty("knights", "mine", status=Status.UNKNOWN)
    assert [(e.claim, e.how) for e in certify(instance, bound.with_(bound=18)).evidence] == [
        ("bound", "matching (Kőnig)" + aside)
    ]
    assert not certify(instance, bound.with_(bound=17)).evidence  # below the optimum: refused


def test_the_checkers_plain_count_takes_boards_of_up_to_its_squares():
    near = ((0, 0), (1, 2))  # one move apart: one shortest path, found at once
    assert SQUARES == 900
    assert enumerate_solutions(LostKnightInstance(Board(30, 30, torus=True), *near)) == (1, 1)
    assert enumerate_solutions(LostKnightInstance(Board(30, 31, torus=True), *near)) is None


def test_fixed_knights_that_attack_each_other_back_any_bound_and_nothing_else():
    instance = knights_instance(5, fixed=[(0, 0), (1, 2)])
    unknown = Result.empty("knights", "mine", status=Status.UNKNOWN)
    assert [(e.claim, e.how) for e in certify(instance, unknown.with_(bound=3)).evidence] == [
        ("bound", "fixed: the knights on (0, 0) and (1, 2) attack each other")
    ]
    assert not certify(instance, unknown).evidence


def test_one_fixed_knight_is_named_in_the_singular():
    instance = knights_instance(5, fixed=[(0, 0)])
    evidence = certify(instance, solve(instance, "matching")).evidence
    assert (
        evidence[-1].how
        == "matching (Kőnig) (the board without the 1 fixed knight and the squares they attack)"
    )
