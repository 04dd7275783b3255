"""One method, one run: the method specifications and the one run path every entry point takes."""

from __future__ import annotations

import json

import pytest

import knightcert
from knightcert.cli.main import main
from knightcert.problems.errors import InvalidArgument, InvalidInstance
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.jump_game import format_jump, parse_jump
from knightcert.problems.lost_knight import format_lost_knight, parse_lost_knight
from knightcert.problems.moves import KNIGHT_OFFSETS
from knightcert.problems.tours import TourInstance, tour_instance
from knightcert.registry import REGISTRY, resolve
from knightcert.specs import FACTS, default_for

PATH = parse_lost_knight("C.....\n......\n....S.\n..x...\n......\n......\n", name="p6")
UNREACHABLE = parse_lost_knight("C.x\nxxx\nx.S\n", name="closed-in")
JUMP = parse_jump("3 3\n2\n1 2 1\n2 0 1\n1 1 2\n0 0\n2 2\n", name="j3")


def instance_classes():
    """(problem, instance, command line) of every instance class of every problem."""
    yield "path", PATH, None
    yield "path", UNREACHABLE, None
    yield "jump", JUMP, None
    yield "knights", knights_instance(6), ["knights", "6"]
    yield "knights", knights_instance(6, 9), ["knights", "6", "9"]
    yield "knights", knights_instance(8, torus=True), ["knights", "8", "--torus"]
    yield "knights", knights_instance(5, torus=True), ["knights", "5", "--torus"]  # odd torus: cpsat
    yield "tour", tour_instance(6, 6), ["tour", "6"]
    yield "tour", tour_instance(6, 6, closed=True), ["tour", "6", "--closed"]
    yield "tour", tour_instance(5, 5, closed=True), ["tour", "5", "--closed"]  # no closed tour: "No"
    yield "tour", tour_instance(5, 5, start=(0, 0)), ["tour", "5", "--start", "0,0"]
    yield (
        "tour",
        tour_instance(5, 6, start=(0, 0), end=(4, 5)),
        ["tour", "5", "6", "--start", "0,0", "--end", "4,5"],
    )


@pytest.mark.parametrize(
    "problem, instance, argv", list(instance_classes()), ids=lambda v: getattr(v, "name", None)
)
def test_the_api_and_the_command_line_choose_the_same_method_and_answer(
    problem, instance, argv, tmp_path, capsys
):
    if argv is None:  # a file problem: the instance written to a file
        path = tmp_path / f"{instance.name}.txt"
        path.write_text(format_lost_knight(instance) if problem == "path" else format_jump(instance))
        argv = [problem, str(path)]
    api = knightcert.solve(instance, time_limit=20)
    assert main([*argv, "--json", "--time-limit", "20"]) in (0, 1)
    cli = json.loads(capsys.readouterr().out)
    assert cli["method"] == api.method == default_for(problem, instance)
    assert (cli["status"], cli["objective"]) == (api.status.value, api.objective)


def test_the_default_method_of_an_odd_torus_is_cpsat_everywhere():
    torus = knights_instance(7, torus=True)  # 11 x 11 spent its 5 s: proven optimal within 1 s here
    assert knightcert.default_method("knights", torus) == "cpsat"
    assert knightcert.solve(torus, time_limit=5).method == "cpsat"  # was InvalidInstance (matching)


def test_an_option_the_method_does_not_take_is_refused_by_the_api_and_the_command_line(capsys):
    with pytest.raises(InvalidArgument, match="tour divide takes no option 'budget'"):
        knightcert.solve(tour_instance(8), method="divide", budget=5)
    with pytest.raises(InvalidArgument, match="tour cpsat takes no option 'budget'"):
        knightcert.solve(tour_instance(8), method="cpsat", budget=5)
    assert main(["tour", "8", "--method", "cpsat", "--budget", "5"]) == 2
    assert "tour cpsat takes no option 'budget'" in capsys.readouterr().err
    assert main(["tour", "8", "--method", "cenpl", "--no-backtracking"]) == 2
    assert "takes no option 'backtracking'" in capsys.readouterr().err


def test_option_values_are_checked_by_the_bounds_table():
    with pytest.raises(InvalidArgument, match="iterations"):
        knightcert.solve(knights_instance(6), method="greedy+", iterations=0)
    with pytest.raises(InvalidArgument, match="formulation"):
        knightcert.solve(PATH, method="cpsat", formulation="nonsense")
    with pytest.raises(InvalidArgument, match="workers"):
        knightcert.solve(PATH, method="cpsat", workers=True)
    assert knightcert.solve(tour_instance(8), method="roth", budget=10_000, backtracking=True).objective == 64
    with pytest.raises(InvalidArgument, match="roth option order: expected the 8 knight moves"):
        knightcert.solve(tour_instance(8), method="roth", order="1234567")
    with pytest.raises(InvalidArgument, match="cenpl option tie_break: expected one of centre, first"):
        knightcert.solve(tour_instance(8), method="cenpl", tie_break="nearest")
    reverse = KNIGHT_OFFSETS[::-1]
    rule = knightcert.solve(tour_instance(8), method="cenpl", order=reverse, tie_break="random", seed=2)
    assert rule.verified and (rule.info["order"], rule.info["tie_break"]) == ("87654321", "random")


def test_a_method_that_does_not_apply_is_refused_before_any_work():
    with pytest.raises(InvalidInstance, match="not bipartite"):
        knightcert.solve(knights_instance(5, torus=True), method="matching")
    with pytest.raises(InvalidInstance, match="full boards"):
        knightcert.solve(tour_instance(5, 6, start=(0, 0), end=(4, 5)), method="divide")


def small_instances():
    yield "path", parse_lost_knight("C....\n.....\n...S.\n.....\n.....\n", name="p5")
    yield "jump", JUMP
    yield "knights", knights_instance(4)
    yield "tour", tour_instance(5, 5, start=(0, 0))


@pytest.mark.parametrize(
    "problem, method", [(problem, name) for problem, methods in REGISTRY.items() for name in methods]
)
def test_every_result_of_every_built_in_method_is_plain_json(problem, method):
    instance = dict(small_instances())[problem]
    if method == "divide":  # full boards from a corner start need a closed tour: 6 x 6
        instance = tour_instance(6, 6)
    result = knightcert.solve(instance, method=method, time_limit=10)
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data  # plain JSON: the same after a round trip
    assert data["objective"] is None or type(data["objective"]) is int
    assert data["check_s"] is not None and data["time_s"] >= 0


def test_the_specifications_know_where_each_method_turns_compiled():
    from knightcert.algorithms.knights_matching import PLAIN_MATCHING_SQUARES
    from knightcert.algorithms.path_search import PLAIN_BFS_SQUARES
    from knightcert.heuristics.tour_divide import PYTHON_WALK

    assert FACTS["path"]["bfs"].compiled_from == PLAIN_BFS_SQUARES
    assert FACTS["jump"]["bfs"].compiled_from == 0  # compiled at every size
    assert FACTS["knights"]["matching"].compiled_from == PLAIN_MATCHING_SQUARES
    assert FACTS["tour"]["divide"].compiled_from == FACTS["tour"]["auto"].compiled_from == PYTHON_WALK


def test_the_warm_up_board_takes_the_compiled_path():
    from knightcert.warming import warm_instance

    for problem, method in (("path", "bfs"), ("jump", "bfs"), ("knights", "matching"), ("tour", "auto")):
        facts = FACTS[problem][method]
        instance = warm_instance(problem, facts.warm_squares())
        size = instance.values.size if problem == "jump" else instance.board.size
        assert size > facts.compiled_from
        assert knightcert.solve(instance, method=method, time_limit=10).verified


def test_foreign_methods_get_safe_defaults_and_their_declared_options():
    def mine(instance, time_limit=None, seed=None, depth=1):
        return {"status": "FEASIBLE", "objective": 1, "solution": [[0, 0]]}

    facts = resolve("knights", mine).facts
    assert (facts.exact, facts.proves, facts.options, facts.origin) == (False, (), None, "python")
    mine.options = ("depth",)  # type: ignore[attr-defined]
    assert resolve("knights", mine).facts.check_options({"depth": 3}) == {"depth": 3}
    with pytest.raises(InvalidArgument, match="takes no option 'width'"):
        knightcert.solve(knights_instance(4), method=mine, width=2)


def test_a_tour_instance_built_directly_is_checked_like_one_from_tour_instance():
    import numpy as np

    from knightcert.problems.board import Board

    with pytest.raises(InvalidInstance, match="no usable square"):
        TourInstance(Board(2, 2, np.ones((2, 2), dtype=bool)))
    with pytest.raises(InvalidInstance, match="off the 5 x 5 board"):
        TourInstance(Board(5, 5), closed=True, start=(5, 0))
    with pytest.raises(InvalidInstance, match="the same square"):
        TourInstance(Board(5, 5), start=(0, 0), end=(0, 0))


def test_a_comparison_refuses_an_option_its_method_does_not_take_before_any_run():
    from knightcert.compare.comparison import run_comparison
    from knightcert.compare.experiment import MethodSpec
    from knightcert.compare.suites import SuiteItem

    seen = []
    with pytest.raises(InvalidArgument, match="knights matching takes no option 'budget'"):
        run_comparison(
            "knights",
            [SuiteItem(knights_instance(4), 4)],
            [MethodSpec("matching", (("budget", 5),))],
            on_row=seen.append,
        )
    assert seen == []


def test_the_readme_method_table_follows_the_specifications():
    """Each built-in method is in the README's exact or heuristic column as its specification says."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for problem, methods in FACTS.items():
        line = next(line for line in readme.splitlines() if f"| `knightcert {problem}` |" in line)
        exact_cell, heuristic_cell = line.split("|")[3:5]
        names = set(methods)
        exact = set(re.findall(r"`([^`]+)`", exact_cell)) & names
        heuristic = set(re.findall(r"`([^`]+)`", heuristic_cell)) & names
        assert exact == {name for name, facts in methods.items() if facts.exact}, problem
        assert heuristic == {name for name, facts in methods.items() if not facts.exact}, problem
        assert f"`{default_for(problem)}` (default" in line, problem
