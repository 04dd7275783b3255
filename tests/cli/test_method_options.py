"""``--option NAME=VALUE`` on every solve command and on compare, checked against the method's
specification; a list of values in an experiment is a sweep, one labelled variant per combination."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knightcert.cli.main import main
from knightcert.compare.experiment import experiment_from_dict
from knightcert.problems.errors import KnightcertError


def lost_knight_file(tmp_path: Path) -> str:
    path = tmp_path / "case.txt"
    path.write_text("C.....\n......\n....S.\n......\n......\n......\n")
    return str(path)


def test_every_solve_command_takes_and_checks_options(tmp_path, capsys):
    jump = tmp_path / "game.in"
    jump.write_text("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")
    commands = {
        "knights": ["knights", "6", "--method", "cpsat"],
        "tour": ["tour", "5", "--method", "cpsat"],
        "path": ["path", lost_knight_file(tmp_path), "--method", "cpsat"],
        "jump": ["jump", str(jump), "--method", "cpsat"],
    }
    for problem, command in commands.items():
        assert main([*command, "--option", "workers=1", "--json"]) == 0, problem
        answer = json.loads(capsys.readouterr().out)
        assert (answer[0] if isinstance(answer, list) else answer)["verified"], problem
        assert main([*command, "--option", "wrokers=1"]) == 2
        assert f"{problem} cpsat takes no option 'wrokers' (it takes: workers" in capsys.readouterr().err
        assert main([*command, "--option", "workers=-3"]) == 2
        assert "cpsat option workers" in capsys.readouterr().err
    assert main(["knights", "6", "--option", "workers"]) == 2
    assert "expected NAME=VALUE" in capsys.readouterr().err
    assert main(["knights", "6", "--method", "cpsat", "--option", "workers=1", "--option", "workers=2"]) == 2


def test_a_list_of_values_is_a_sweep_of_labelled_variants():
    record = {
        "problem": "knights",
        "methods": [{"name": "cpsat", "options": {"workers": [1, 2], "formulation": ["star", "pairwise"]}}],
    }
    experiment = experiment_from_dict(record)
    assert experiment.method_names == [
        "cpsat formulation=star workers=1",
        "cpsat formulation=star workers=2",
        "cpsat formulation=pairwise workers=1",
        "cpsat formulation=pairwise workers=2",
    ]
    assert experiment_from_dict(experiment.to_dict()) == experiment  # the record reads back as run
    hinted = experiment_from_dict(
        {"problem": "tour", "methods": [{"name": "cpsat", "options": {"hint": [[0, 0]]}}]}
    )
    assert hinted.method_names == ["cpsat"]  # one hint is one value, not a sweep of squares
    with pytest.raises(KnightcertError, match=r"methods\[0\]: cpsat option formulation: expected one of"):
        experiment_from_dict(
            {"problem": "knights", "methods": [{"name": "cpsat", "options": {"formulation": ["x"]}}]}
        )


def test_compare_passes_options_to_every_method_and_refuses_one_that_does_not_take_them(capsys):
    argv = ["compare", "knights", "--sizes", "8", "--methods", "greedy+", "--quiet", "--json"]
    assert main([*argv, "--option", "iterations=[5,50]"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["method"] for r in rows] == ["greedy+ iterations=5", "greedy+ iterations=50"]
    assert main([*argv, "--methods", "greedy", "--option", "iterations=5"]) == 2
    assert "knights greedy takes no option 'iterations'" in capsys.readouterr().err


def test_a_move_order_given_as_digits_reads_as_the_order(capsys):
    """``--option order=75312468`` reads as a number: the digits still name the moves."""
    from knightcert.cli.main import main

    assert main(["tour", "6", "--method", "warnsdorff", "--option", "order=75312468", "--json"]) == 0
    assert '"order"' in capsys.readouterr().out
    assert main(["tour", "6", "--method", "warnsdorff", "--option", "order=1234"]) == 2
    assert "expected the 8 knight moves" in capsys.readouterr().err
