"""Wrong types and values through the library: InvalidArgument naming the parameter, before any work."""

from __future__ import annotations

import numpy as np
import pytest

from knightcert.compare.comparison import run_comparison
from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidArgument, InvalidInstance, KnightcertError
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.jump_game import JumpInstance, parse_jump, read_jump
from knightcert.problems.lost_knight import LostKnightInstance, parse_lost_knight, read_lost_knight
from knightcert.problems.tours import TourInstance, tour_instance
from knightcert.registry import REGISTRY, get_method
from knightcert.solving import solve

METHODS = [(problem, name) for problem, methods in REGISTRY.items() for name in methods]
WRONG = [None, "board.txt", np.zeros((3, 3)), 42, [[0, 1], [1, 0]]]
GOOD = {
    "path": lambda: parse_lost_knight("C..\n...\n..S\n"),
    "jump": lambda: JumpInstance(np.array([[1, 0]]), ((0, 0),)),
    "knights": lambda: knights_instance(4),
    "tour": lambda: tour_instance(5),
}


@pytest.mark.parametrize(("problem", "name"), METHODS)
@pytest.mark.parametrize("wrong", WRONG, ids=["None", "str", "array", "int", "list"])
def test_every_method_refuses_a_wrong_instance(problem, name, wrong):
    with pytest.raises(InvalidArgument, match=r"^instance: expected a"):
        get_method(problem, name)(wrong)


@pytest.mark.parametrize(("problem", "name"), METHODS)
@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"time_limit": "5"}, "time_limit"),
        ({"time_limit": -1}, "time_limit"),
        ({"time_limit": float("nan")}, "time_limit"),
        ({"time_limit": True}, "time_limit"),
        ({"seed": "1"}, "seed"),
        ({"seed": 2**40}, "seed"),
        ({"seed": 1.5}, "seed"),
    ],
)
def test_every_method_checks_time_limit_and_seed(problem, name, options, parameter):
    with pytest.raises(InvalidArgument, match=rf"^{parameter}"):
        get_method(problem, name)(GOOD[problem](), **options)


@pytest.mark.parametrize("wrong", WRONG[:3], ids=["None", "str", "array"])
def test_solve_refuses_a_wrong_instance(wrong):
    with pytest.raises(InvalidArgument, match=r"^instance"):
        solve(wrong)


@pytest.mark.parametrize(
    "build",
    [
        lambda: LostKnightInstance(Board(3, 3, torus=True), (5, 0), (0, 1)),  # C off the board
        lambda: LostKnightInstance(Board(3, 3, torus=True), (0, 0), (0, 0)),  # C on S
        lambda: LostKnightInstance(Board(3, 3, np.eye(3, dtype=bool), torus=True), (0, 0), (0, 1)),  # blocked
        lambda: LostKnightInstance("board", (0, 0), (0, 1)),
        lambda: LostKnightInstance(Board(3, 3), None, (0, 1)),
        lambda: KnightsInstance(None),
        lambda: TourInstance(Board(4, 4), start=(4, 0)),
        lambda: TourInstance(Board(4, 4), end=("a", 0)),
        lambda: JumpInstance(np.array([[1, -1]]), ((0, 0),)),
        lambda: JumpInstance(np.zeros((0, 3), dtype=np.int64), ()),
        lambda: JumpInstance(np.array([[1.5, 0.0]]), ((0, 0),)),
        lambda: JumpInstance(np.array([[1, 0]]), ((0, 2),)),
        lambda: JumpInstance(np.array([[1, 0]]), (None,)),
        lambda: Board(True, 3),
        lambda: Board(0, 3),
    ],
)
def test_constructors_validate_their_fields(build):
    with pytest.raises(InvalidInstance):
        build()


def test_a_hand_built_instance_off_the_board_never_reaches_a_method():
    # was: astar ran past its time limit and bfs hit an AssertionError
    for name in ("astar", "bfs"):
        with pytest.raises(KnightcertError):
            get_method("path", name)(LostKnightInstance(Board(4, 4, torus=True), (9, 9), (0, 1)))


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda: parse_lost_knight(None), "text"),
        (lambda: parse_lost_knight(np.zeros(3)), "text"),
        (lambda: parse_jump(None), "text"),
        (lambda: parse_jump(5), "text"),
        (lambda: read_lost_knight(None), "path"),
        (lambda: read_jump(3), "path"),
        (lambda: knights_instance("8"), "rows"),
        (lambda: knights_instance(8, 2.5), "cols"),
        (lambda: tour_instance("8"), "rows"),
        (lambda: tour_instance(8, start=5), "start"),
        (lambda: tour_instance(8, end=("a", 1)), "end"),
        (lambda: run_comparison("knights", None, ["greedy"]), "items"),
        (lambda: run_comparison("knights", [knights_instance(4)], ["greedy"]), "items"),
        (lambda: run_comparison("knights", [], "greedy"), "methods"),
        (lambda: run_comparison("knights", [], ["greedy"], repeat="2"), "repeat"),
        (lambda: run_comparison("knights", [], ["greedy"], workers=0), "workers"),
    ],
)
def test_public_functions_name_the_wrong_parameter(call, parameter):
    with pytest.raises(InvalidArgument, match=rf"^{parameter}"):
        call()
