"""A reviewer's attacks of 2026-11-28, each a test: a side constraint given twice is one
constraint, a certified answer changed afterwards is checked again, garbage is refused before
the formula is built, and odd objects in a Result's fields are rejections, never tracebacks."""

from __future__ import annotations

import numpy as np
import pytest

from knightcert.problems.board import Board
from knightcert.problems.checkers import certify
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.instance_files import random_instance
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance
from knightcert.registry import get_method

ONE_COLOUR = [[r, c] for r in range(4) for c in range(4) if (r + c) % 2 == 0]  # 8 knights on 4 x 4


def test_a_fixed_square_given_twice_is_one_fixed_knight():
    instance = KnightsInstance(Board(4, 4), fixed=[(0, 0), (0, 0)])
    assert instance.fixed == ((0, 0),)
    nine = certify(instance, Result("knights", "m", Status.OPTIMAL, 9, 9, ONE_COLOUR, 0.0))
    none = certify(instance, Result("knights", "m", Status.INFEASIBLE, None, None, None, 0.0))
    eight = certify(instance, Result("knights", "m", Status.OPTIMAL, 8, 8, ONE_COLOUR, 0.0))
    assert not nine.verified and not none.verified
    assert eight.verified and eight.certified


def test_a_required_move_given_three_times_is_one_required_move():
    move = ((0, 0), (1, 2))
    instance = TourInstance(Board(5, 5), required_moves=[move, move, move[::-1]])
    assert instance.required_moves == (move,)
    claim = certify(instance, Result("tour", "m", Status.INFEASIBLE, None, None, None, 0.0))
    assert not claim.verified
    assert "found a tour" in claim.info["check_error"]


def test_a_visit_or_a_forbidden_move_given_twice_is_kept_once():
    instance = TourInstance(
        Board(5, 5), visits=[(0, 0, 1), (0, 0, 1)], forbidden_moves=[((0, 0), (2, 1)), ((2, 1), (0, 0))]
    )
    assert instance.visits == ((0, 0, 1),)
    assert instance.forbidden_moves == (((0, 0), (2, 1)),)


@pytest.fixture
def certified_path():
    instance = random_instance("path", 8, seed=1)
    out = certify(instance, get_method("path", "bfs")(instance, check=False))
    assert out.verified and out.certified and len(out.solution) >= 3
    return instance, out


def test_a_certified_path_changed_in_place_is_checked_again(certified_path):
    instance, out = certified_path
    out.solution[1][:] = out.solution[0]  # the same square twice: no knight move
    again = certify(instance, out)
    assert not again.verified and "check_error" in again.info


def test_a_certified_result_given_another_objective_is_checked_again(certified_path):
    instance, out = certified_path
    vars(out)["objective"] = vars(out)["bound"] = out.objective - 1
    again = certify(instance, out)
    assert not again.verified and "check_error" in again.info


def test_a_proof_that_is_not_one_is_refused_before_the_formula_is_built(monkeypatch):
    import knightcert.problems.checkers.knights_cnf as cnf

    def never(*args, **kwargs):
        raise AssertionError("the formula was built for data that is not a proof")

    monkeypatch.setattr(cnf, "knights_cnf", never)
    entry = {"format": "lrat-binary", "knights": 12, "bytes": 0, "xz": ""}
    instance = knights_instance(5, 5, torus=True)
    claim = Result("knights", "m", Status.UNKNOWN, None, 11, None, 0.0, certificate={"drat": entry})
    out = certify(instance, claim)
    assert not out.verified and "does not inflate" in out.info["check_error"]


class _Float(float):
    def __float__(self):
        raise RuntimeError("the answer's own code")


class _Int(int):
    def __float__(self):
        raise RuntimeError("the answer's own code")


class _Name(str):
    __hash__ = str.__hash__

    def __eq__(self, other):
        raise ZeroDivisionError("the answer's own code")

    __ne__ = __eq__

    def __bool__(self):
        raise RuntimeError("the answer's own code")

    def __len__(self):
        raise RuntimeError("the answer's own code")


@pytest.mark.parametrize(
    ("time", "read"),
    [(10**400, 0.0), (_Float(1.0), 1.0), (_Int(2), 2.0), (True, 0.0), ("1.0", 0.0)],
    ids=["past-a-float", "float-subclass", "int-subclass", "bool", "text"],
)
def test_a_time_is_read_by_its_base_type(time, read):
    out = certify(knights_instance(4), Result("knights", "m", Status.OPTIMAL, 8, 8, ONE_COLOUR, time))
    assert out.verified and type(out.time) is float and out.time == read


def test_a_result_with_no_fields_set_is_rejected():
    out = certify(knights_instance(4), object.__new__(Result))
    assert not out.verified and "is not a Status" in out.info["check_error"]


@pytest.mark.parametrize("name", ["knights", "path"])
def test_a_problem_name_whose_comparisons_raise_is_read_as_text(name):
    answer = Result(_Name(name), "m", Status.OPTIMAL, 8, 8, ONE_COLOUR, 0.0)
    out = certify(knights_instance(4), answer)
    assert out.verified is (name == "knights")
    if name != "knights":
        assert "the answer is for problem 'path'" in out.info["check_error"]


def test_a_foreign_mark_whose_truth_raises_is_read_by_its_length():
    answer = Result("knights", "m", Status.OPTIMAL, 8, 8, ONE_COLOUR, 0.0, info={"foreign": _Name("x")})
    out = certify(knights_instance(4), answer)
    assert out.verified and out.certified  # the checker's own proofs: certified, whoever claimed


@pytest.mark.parametrize("flag", ["no", "false", 1.5, None, 0])
def test_a_torus_or_closed_flag_is_true_or_false_only(flag):
    """A str such as "no" is true to Python: taken as a flag, it solved and certified a torus."""
    from knightcert.problems.errors import InvalidInstance

    with pytest.raises(InvalidInstance, match="torus must be True or False"):
        knights_instance(5, torus=flag)
    with pytest.raises(InvalidInstance, match="closed must be True or False"):
        TourInstance(Board(5, 5), closed=flag)
    assert Board(5, 5, torus=np.bool_(True)).torus is True


def test_a_number_too_long_to_read_is_named():
    from knightcert.problems.errors import InvalidInstance
    from knightcert.problems.input_file import load_json

    with pytest.raises(InvalidInstance, match=r"a\.json: .*\(a number of more than \d+ digits\)"):
        load_json('{"objective": ' + "1" * 5000 + "}", "a.json", "JSON answer file")
