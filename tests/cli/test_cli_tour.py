from __future__ import annotations

import json

import pytest

from knightcert.cli.main import main


def test_cenpl_prints_seed_003_layout(capsys):
    assert main(["tour", "5", "--method", "cenpl"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "  1  10  15  20   3 "


def test_no_tour_prints_no(capsys):
    assert main(["tour", "2", "--method", "cenpl"]) == 0
    assert capsys.readouterr().out == "No\n"
    assert main(["tour", "4", "4", "--closed", "--method", "cpsat"]) == 0
    assert capsys.readouterr().out == "No\n"


def test_numbered_board_is_right_aligned(capsys):
    assert main(["tour", "5", "--start", "0,0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5 and all(len(line) == len(lines[0]) for line in lines)
    assert lines[0].split()[0] == "1"


def test_the_default_builds_closed_tours(capsys):
    assert main(["tour", "10", "--closed", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["method"] == "auto" and record["verified"] and record["objective"] == 100
    assert record["info"]["rule"] == "construction" and len(record["solution"]) == 100


def test_show_adds_a_summary_line(capsys):
    assert main(["tour", "6", "--closed", "--method", "warnsdorff", "--show"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("6x6 closed: warnsdorff FEASIBLE") and "backtracks" in first


def test_budget_spent_is_reported_not_a_no(capsys):
    assert main(["tour", "6", "--closed", "--method", "cenpl", "--budget", "5"]) == 0
    assert capsys.readouterr().out.startswith("no tour found (cenpl: UNKNOWN, node budget spent)")
    assert main(["tour", "6", "--method", "cenpl", "--budget", "5", "--show"]) == 0
    assert "verified: no answer" in capsys.readouterr().out  # not "no": nothing was rejected


@pytest.mark.parametrize(
    "flags",
    [["--option", "budget=10", "--budget", "20"], ["--option", "backtracking=true", "--no-backtracking"]],
)
def test_an_option_and_its_own_flag_are_not_both_taken(capsys, flags):
    """A twelfth-session reviewer's finding: one of the two won silently."""
    assert main(["tour", "6", "--method", "warnsdorff", *flags]) == 2
    assert "and its own flag both given" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["tour", "0"], "expected a whole number >= 1"),
        (["tour", "5", "--start", "9,9"], "start (9, 9) is off the 5 x 5 board"),
        (["tour", "5", "--start", "1"], "expected ROW,COL"),
        (["tour", "5", "--closed", "--end", "1,1"], "closed tour has no separate end"),
        (["tour", "6", "--method", "csp"], "csp handles up to 25"),
        (["tour", "7", "--start", "0,0", "--method", "divide"], "divide does not build"),
        (["tour", "--board", "nope.txt"], "cannot read file"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv, words, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1 and words in captured.err


def test_removed_start_square_from_a_board_file(tmp_path, capsys):
    board = tmp_path / "b.txt"
    board.write_text("x....\n.....\n.....\n.....\n.....\n")
    assert main(["tour", "--board", str(board), "--start", "0,0"]) == 2
    assert "start (0, 0) is a removed square" in capsys.readouterr().err


def test_npy_output_and_the_reason_of_a_no(tmp_path, capsys):
    import numpy as np

    from knightcert.problems.checkers.tour import check_tour_moves
    from knightcert.problems.tours import tour_instance

    target = tmp_path / "t.npy"
    assert main(["tour", "12", "9", "--closed", "--npy", str(target)]) == 0
    assert capsys.readouterr().out.startswith("12x9 closed: auto (construction) FEASIBLE")
    squares = np.load(target)
    assert squares.dtype == np.int32 and squares.shape == (108, 2)
    check_tour_moves(tour_instance(12, 9, closed=True), squares)
    assert main(["tour", "3", "6", "--show"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "INFEASIBLE" in first and "Conrad et al. (1994)" in first
    assert main(["tour", "5", "--npy", str(tmp_path / "none" / "t.npy")]) == 2
    assert "cannot write" in capsys.readouterr().err and not list(tmp_path.glob("*.part"))


def test_large_tour_as_json_and_as_a_board(capsys):
    assert main(["tour", "230", "231", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["verified"] and len(record["solution"]) == 230 * 231
    assert main(["tour", "230", "231"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 230 and len({len(line) for line in lines}) == 1
    assert sorted(int(x) for line in lines for x in line.split()) == list(range(1, 230 * 231 + 1))


def test_the_examples_in_docs_tours_run(capsys):
    import re
    import shlex
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "tours.md").read_text()
    examples = 0
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        commands = re.split(r"^\$ ", block, flags=re.M)[1:]
        for command in commands:
            line, *expected = command.splitlines()
            assert main(shlex.split(line)[1:]) == 0
            out = capsys.readouterr().out.splitlines()
            out = [re.sub(r"\d+\.\d{3} s", "T s", x) for x in out]
            assert out == [re.sub(r"\d+\.\d{3} s", "T s", x) for x in expected], line
            examples += 1
    assert examples >= 2
