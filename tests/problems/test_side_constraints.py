"""Side constraints (issue 37, item 1): instance data, the checker's predicates and arguments,
the exhaustive search with the constraints applied, and forged answers refused by ``check``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from knightcert.cli.main import main
from knightcert.problems.answers import answer_to_dict, check_answer
from knightcert.problems.board import Board
from knightcert.problems.checkers import CheckFailed, certify
from knightcert.problems.checkers.sides import (
    fixed_fault,
    forbidden_moves_fault,
    required_moves_fault,
    via_fault,
    visits_argument,
    visits_fault,
)
from knightcert.problems.checkers.tour import argument_against, nonexistence_evidence, search_tour
from knightcert.problems.checkers.tour_search import FOUND, NONE
from knightcert.problems.errors import InvalidArgument, InvalidInstance
from knightcert.problems.independent_knights import knights_instance, rest_of
from knightcert.problems.lost_knight import LostKnightInstance, parse_lost_knight
from knightcert.problems.result import Backing, Result, Status
from knightcert.problems.tours import TourInstance, tour_instance
from knightcert.solving import solve

# a 5 x 5 open tour from (0, 0), found by the checker's own search on the base instance
BASE = tour_instance(5, start=(0, 0))


def base_tour() -> list[list[int]]:
    outcome, _, tour = search_tour(BASE)
    assert outcome == FOUND
    return [list(BASE.board.square(i)) for i in tour]


def claim(problem: str, status: Status, solution, objective=None) -> Result:
    objective = len(solution) if objective is None and solution is not None else objective
    return Result.answer(problem, "mine", status=status, objective=objective, solution=solution, time=0.0)


# ------------------------------------------------------------------------ instance data


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"visits": [(5, 0, 1)]}, "visits[0] (5, 0) is off"),
        ({"visits": [(0, 0, 26)]}, "visits[0]: step 26 is not between 1 and 25"),
        ({"visits": [(0, 0)]}, "visits[0] must be (row, col, step)"),
        ({"forbidden_moves": [((0, 0), (1, 1))]}, "forbidden_moves[0]"),
        ({"required_moves": [((0, 0), (0, 0))]}, "required_moves[0]"),
    ],
)
def test_a_malformed_side_constraint_names_its_field(fields, words):
    with pytest.raises(
        InvalidInstance, match=words.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")
    ):
        TourInstance(Board(5, 5), **fields)


def test_knights_and_path_side_fields_are_validated():
    with pytest.raises(InvalidInstance, match=r"fixed\[1\]"):
        knights_instance(4, fixed=[(0, 0), (4, 4)])
    board = Board(3, 3, np.eye(3, dtype=bool), torus=True)
    with pytest.raises(InvalidInstance, match=r"via\[0\] \(1, 1\) is a blocked square"):
        LostKnightInstance(board, (0, 1), (1, 0), via=[(1, 1)])


def test_a_side_constraint_of_another_problem_is_an_invalid_argument():
    with pytest.raises(InvalidArgument, match=r"a tour has no side constraint 'fixed' \(it has visits, "):
        tour_instance(5, 5, fixed=[(0, 0)])


def test_moves_are_unordered_pairs():
    instance = tour_instance(5, required_moves=[((2, 1), (0, 0))])
    assert instance.required_moves == (((0, 0), (2, 1)),)


# ------------------------------------------------------------------------ predicates


def test_each_tour_predicate_names_the_constraint_broken():
    tour = np.array(base_tour())
    second = tuple(tour[1].tolist())
    first_move = ((0, 0), second) if second > (0, 0) else (second, (0, 0))
    other = next(sq for sq in [(1, 2), (2, 1)] if sq != second)
    assert visits_fault(tour_instance(5, visits=[(*second, 2)]), tour) is None
    assert "visits" in visits_fault(tour_instance(5, visits=[(*other, 2)]), tour)
    assert "forbidden_moves" in forbidden_moves_fault(tour_instance(5, forbidden_moves=[first_move]), tour)
    assert forbidden_moves_fault(tour_instance(5, forbidden_moves=[((0, 0), other)]), tour) is None
    assert required_moves_fault(tour_instance(5, required_moves=[first_move]), tour) is None
    assert "required_moves" in required_moves_fault(tour_instance(5, required_moves=[((0, 0), other)]), tour)


def test_a_closed_tour_takes_its_closing_move():
    from knightcert.problems.checkers.sides import tour_moves

    square = np.array([[0, 0], [1, 2], [2, 0]])
    assert ((0, 0), (2, 0)) not in tour_moves(square, closed=False)
    assert ((0, 0), (2, 0)) in tour_moves(square, closed=True)


def test_fixed_and_via_predicates():
    placement = np.array([[0, 0], [0, 2]])
    assert fixed_fault(knights_instance(4, fixed=[(0, 2)]), placement) is None
    assert fixed_fault(knights_instance(4, fixed=[(1, 1)]), placement) == "fixed: no knight on (1, 1)"
    base = parse_lost_knight("C....\n.....\n.....\n.....\n....S\n")
    path = np.array([[0, 0], [1, 2], [2, 4], [4, 3], [3, 1], [4, 4]])
    in_order = LostKnightInstance(base.board, base.start, base.exit, via=[(1, 2), (4, 3)])
    reversed_ = LostKnightInstance(base.board, base.start, base.exit, via=[(4, 3), (1, 2)])
    assert via_fault(in_order, path) is None
    assert "via[1]" in via_fault(reversed_, path)


# ------------------------------------------------------------------------ arguments


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"start": (0, 0), "visits": [(0, 1, 2)]}, "not a knight move apart"),
        ({"start": (0, 0), "visits": [(2, 2, 12)]}, "colours: places 1 and 12"),
        ({"visits": [(2, 2, 3), (2, 2, 5)]}, "is at places 3 and 5"),
        ({"visits": [(2, 2, 3), (0, 0, 3)]}, "place 3 holds both"),
        ({"start": (0, 0), "visits": [(1, 2, 2)], "forbidden_moves": [((0, 0), (1, 2))]}, "a forbidden move"),
        ({"required_moves": [((0, 0), (1, 2))], "forbidden_moves": [((0, 0), (1, 2))]}, "both required"),
        ({"visits": [(0, 0, 1), (1, 2, 5)], "required_moves": [((0, 0), (1, 2))]}, "joined by a required"),
    ],
)
def test_visits_arguments(fields, words):
    instance = tour_instance(5, **fields)
    assert words in visits_argument(instance)
    assert argument_against(instance) == (Backing.CERTIFICATE, visits_argument(instance))


def test_the_moves_left_feed_the_degree_and_forced_arguments():
    # the corner keeps one move: a closed tour needs two
    corner = tour_instance(6, closed=True, forbidden_moves=[((0, 0), (1, 2))])
    assert "degrees: square (0, 0) has one move" in argument_against(corner)[1]
    # three required moves at one square
    three = tour_instance(6, required_moves=[((2, 2), (0, 1)), ((2, 2), (0, 3)), ((2, 2), (1, 0))])
    assert "forced moves: 3 forced moves meet at (2, 2)" in argument_against(three)[1]
    # required moves closing a short cycle (a 4-cycle of knight moves)
    square = [(0, 1), (2, 0), (4, 1), (2, 2)]
    ring = [(square[i], square[(i + 1) % 4]) for i in range(4)]
    four = tour_instance(6, closed=True, required_moves=[(min(m), max(m)) for m in ring])
    assert "close a cycle of 4 of the 36 squares" in argument_against(four)[1]


def test_a_base_argument_still_holds_for_a_variant():
    assert "Schwenk" in argument_against(tour_instance(4, closed=True, visits=[(0, 0, 1)]))[1]


# ------------------------------------------------------------------------ the search with constraints


def test_the_search_honours_visits_and_required_moves():
    instance = tour_instance(5, start=(0, 0), visits=[(2, 2, 13)], required_moves=[((4, 4), (3, 2))])
    outcome, _, tour = search_tour(instance)
    assert outcome == FOUND
    squares = np.array([list(instance.board.square(i)) for i in tour])
    assert tuple(squares[12]) == (2, 2) and required_moves_fault(instance, squares) is None


def test_the_search_turns_a_closed_tour_to_its_visits():
    instance = tour_instance(6, closed=True, visits=[(0, 0, 7), (2, 1, 8)])
    outcome, _, tour = search_tour(instance)
    assert outcome == FOUND and instance.board.square(tour[6]) == (0, 0)
    assert instance.board.square(tour[7]) == (2, 1)


def test_the_search_runs_backwards_from_a_fixed_end():
    instance = tour_instance(5, end=(4, 4), visits=[(2, 2, 3)])
    outcome, _, tour = search_tour(instance)
    assert outcome == FOUND and instance.board.square(tour[-1]) == (4, 4)
    assert instance.board.square(tour[2]) == (2, 2)


def test_a_variant_without_a_tour_is_certified_by_the_search():
    instance = tour_instance(6, closed=True, visits=[(0, 0, 5), (2, 2, 7)])
    assert argument_against(instance) is None
    assert search_tour(instance)[0] == NONE
    evidence = nonexistence_evidence(instance, "mine")
    assert evidence.backing is Backing.SEARCH


def test_a_correct_no_of_a_variant_is_never_rejected_and_a_false_one_is():
    no = Result.empty("tour", "mine", status=Status.INFEASIBLE)
    assert certify(tour_instance(6, closed=True, visits=[(0, 0, 5), (2, 2, 7)]), no).certified
    refuted = certify(tour_instance(5, start=(0, 0), visits=[(2, 2, 13)]), no)
    assert not refuted.verified and "found a tour" in refuted.info["check_error"]


# ------------------------------------------------------------------------ forged answers


@pytest.mark.parametrize("field", ["visits", "forbidden_moves", "required_moves"])
def test_check_rejects_a_tour_that_breaks_a_side_constraint(field):
    from knightcert.problems.checkers.sides import tour_moves
    from knightcert.problems.moves import is_knight_move

    tour = base_tour()
    taken = tour_moves(np.array(tour), closed=False)
    squares = [(r, c) for r in range(5) for c in range(5)]
    untaken = next(
        (a, b)
        for a in squares
        for b in squares
        if a < b and is_knight_move(BASE.board, a, b) and (a, b) not in taken
    )
    value = {
        "visits": [(*tour[4], 3)],  # place 5's square, said to be at place 3 (same colour)
        "forbidden_moves": [tuple(sorted((tuple(tour[0]), tuple(tour[1]))))],
        "required_moves": [untaken],
    }[field]
    instance = tour_instance(5, start=(0, 0), **{field: value})
    data = answer_to_dict(claim("tour", Status.FEASIBLE, tour), instance)
    with pytest.raises(CheckFailed, match=field):
        check_answer(None, data)


def test_check_rejects_a_placement_without_a_fixed_knight():
    instance = knights_instance(4, fixed=[(0, 1)])
    placement = [[r, c] for r in range(4) for c in range(4) if (r + c) % 2 == 0]
    data = answer_to_dict(claim("knights", Status.FEASIBLE, placement), instance)
    with pytest.raises(CheckFailed, match="fixed: no knight on"):
        check_answer(None, data)


def test_check_rejects_a_path_that_skips_a_via_square():
    base = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")
    instance = LostKnightInstance(base.board, base.start, base.exit, "p", via=((3, 3),))
    direct = solve(base, "bfs")
    data = answer_to_dict(claim("path", Status.FEASIBLE, direct.solution, direct.objective), instance)
    with pytest.raises(CheckFailed, match="via"):
        check_answer(None, data)


# ------------------------------------------------------------------------ the other problems' claims


def test_fixed_knights_certified_on_the_rest_of_the_board():
    instance = knights_instance(6, fixed=[(0, 0), (3, 3)])
    result = solve(instance, "greedy")  # a heuristic honours fixed knights through the rest
    assert result.verified and fixed_fault(instance, np.array(result.solution)) is None
    best = solve(instance, "matching")
    rest = solve(rest_of(instance), "matching")
    assert best.certified and best.objective == rest.objective + 2
    false = claim("knights", Status.OPTIMAL, best.solution).with_(bound=best.objective)
    assert certify(instance, false).certified
    short = false.with_(solution=best.solution[:-1], objective=best.objective - 1, bound=best.objective - 1)
    assert not certify(instance, short).verified  # a placement of more knights refutes it


def test_fixed_knights_that_attack_each_other_have_no_placement():
    no = Result.empty("knights", "mine", status=Status.INFEASIBLE)
    assert certify(knights_instance(5, fixed=[(0, 0), (1, 2)]), no).certified
    assert not certify(knights_instance(5, fixed=[(0, 0), (1, 1)]), no).verified


def test_a_path_through_via_squares_is_the_sum_of_its_legs():
    base = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")
    instance = LostKnightInstance(base.board, base.start, base.exit, "p", via=((3, 3), (0, 5)))
    result = solve(instance, "bfs")
    legs = [solve(LostKnightInstance(base.board, a, b), "bfs").objective for a, b in instance.legs()]
    assert result.certified and result.objective == sum(legs)
    longer = claim("path", Status.OPTIMAL, result.solution).with_(objective=result.objective + 1)
    assert not certify(instance, longer).verified


def test_a_via_square_cut_off_makes_the_path_impossible():
    cut = np.zeros((5, 5), dtype=bool)
    for dr, dc in ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)):
        cut[(2 + dr) % 5, (2 + dc) % 5] = True  # (2, 2) has no move left
    board = Board(5, 5, cut, torus=True)
    instance = LostKnightInstance(board, (0, 0), (4, 4), "cut", via=((2, 2),))
    assert solve(LostKnightInstance(board, (0, 0), (4, 4)), "bfs").status is Status.OPTIMAL
    result = solve(instance, "bfs")
    assert result.status is Status.INFEASIBLE and result.certified
    assert "the leg (0, 0) -> (2, 2)" in result.evidence[0].how


# ------------------------------------------------------------------------ command line


def test_a_variants_no_is_certified_with_its_argument_named(capsys):
    assert main(["tour", "5", "--start", "0,0", "--visit", "0,1@2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("No\n") and "certified: visits: places 1 and 2" in out


def test_a_method_that_cannot_honour_a_constraint_is_refused(capsys):
    assert main(["tour", "5", "--start", "0,0", "--visit", "1,2@2", "--method", "warnsdorff"]) == 2
    err = capsys.readouterr().err
    assert "tour warnsdorff does not honour the side constraint 'visits'" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "check"),
    [
        (["tour", "5", "--start", "0,0", "--visit", "2,2@13", "--json"], lambda s: s[12] == [2, 2]),
        (["tour", "6", "--closed", "--require-move", "0,0:2,1", "--forbid-move", "0,0:1,2", "--json"], None),
        (
            ["knights", "6", "--fixed", "0,1", "--fixed", "3,3", "--json"],
            lambda s: [0, 1] in s and [3, 3] in s,
        ),
    ],
)
def test_side_constraints_from_the_command_line(capsys, argv, check):
    assert main(argv) == 0
    record = json.loads(capsys.readouterr().out)
    if argv[0] == "tour" and "--closed" in argv:
        assert record["status"] == "INFEASIBLE" and record["certified"]  # (0, 0) keeps one move: degrees
    else:
        assert record["verified"] and check(record["solution"])


def test_via_from_the_command_line(tmp_path, capsys):
    board = tmp_path / "p.txt"
    board.write_text("C.....\n......\n....S.\n......\n......\n......\n")
    assert main(["path", str(board), "--via", "3,3", "--via", "0,5"]) == 0
    assert capsys.readouterr().out.startswith(
        "p.txt: 6 moves (optimal, certified: distance labelling of each"
    )


def test_check_compares_the_side_constraints(tmp_path, capsys):
    answer = tmp_path / "a.json"
    assert main(["knights", "6", "--fixed", "0,1", "--save", str(answer)]) == 0
    capsys.readouterr()
    assert main(["check", "6", str(answer), "--fixed", "0,1"]) == 0
    assert main(["check", "6", str(answer)]) == 2
    assert "instance 'fixed'" in capsys.readouterr().err


def test_check_compares_a_tours_side_constraints(tmp_path, capsys):
    answer = tmp_path / "t.json"
    assert main(["tour", "5", "--start", "0,0", "--visit", "2,2@13", "--save", str(answer)]) == 0
    capsys.readouterr()
    assert main(["check", "5", str(answer), "--start", "0,0", "--visit", "2,2@13"]) == 0
    assert main(["check", "5", str(answer), "--start", "0,0", "--visit", "2,2@11"]) == 2
    assert "instance 'visits'" in capsys.readouterr().err


def test_a_foreign_method_declares_the_side_constraints_it_honours():
    from knightcert.specs import foreign_facts

    def mine(instance, **options):  # pragma: no cover - never called
        raise AssertionError

    mine.honours = ("visits",)  # type: ignore[attr-defined]
    facts = foreign_facts("tour", "mine", "test", mine)
    assert facts.why_not(tour_instance(5, visits=[(0, 0, 1)])) is None
    why = facts.why_not(tour_instance(5, forbidden_moves=[((0, 0), (1, 2))]))
    assert why == "tour mine does not honour the side constraint 'forbidden_moves' (methods that do: cpsat)"
