from __future__ import annotations

import json

import pytest

from knightcert.cli.main import main


def test_default_is_the_exact_matching(capsys):
    assert main(["knights", "6"]) == 0
    assert capsys.readouterr().out == "6x6: 18 knights (optimal, certified: matching (Kőnig))\n"
    assert main(["knights", "1"]) == 0
    assert capsys.readouterr().out.startswith("1x1: 1 knight (")  # one knight, not "1 knights"


def test_greedy_with_show(capsys):
    assert main(["knights", "6", "--method", "greedy", "--show"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "6x6: 15 knights (greedy: FEASIBLE, not proven optimal)"
    assert len(lines) == 7 and sum(line.count("K") for line in lines[1:]) == 15


def test_odd_torus_defaults_to_cpsat(capsys):
    assert main(["knights", "5", "--torus", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["method"] == "cpsat" and record["status"] == "OPTIMAL" and record["verified"]


def test_board_file_with_removed_squares(tmp_path, capsys):
    board = tmp_path / "b.txt"
    board.write_text("..x\n...\nx..\n")
    assert main(["knights", "--board", str(board), "--show"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        out[0] == "b.txt: 5 knights (optimal, certified: matching (Kőnig))"
        and out[1][2] == "x"
        and out[3][0] == "x"
    )


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["knights", "0"], "expected a whole number >= 1"),
        (["knights", "3", "x"], "expected a whole number"),
        (["knights"], "give the board size"),
        (["knights", "7", "--torus", "--method", "matching"], "not bipartite"),
        (["knights", "7", "--method", "csp"], "csp handles up to 36"),
        (["knights", "--board", "missing.txt"], "cannot read file"),
        (["knights", "5", "--fixed", "-1,0"], "a value that starts with '-' is given as --fixed=VALUE"),
        (["knights", "5", "--fixed=-1,0"], "fixed[0] (-1, 0) is off the 5 x 5 board"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv, words, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1 and words in captured.err


def test_bad_board_file_names_line_and_column(tmp_path, capsys):
    board = tmp_path / "b.txt"
    board.write_text("...\n.#.\n")
    assert main(["knights", "--board", str(board)]) == 2
    assert "b.txt:2:2: unexpected character '#'" in capsys.readouterr().err


def test_side_constraints_given_in_another_order_are_the_same_instance(tmp_path, capsys):
    """A twelfth-session reviewer's finding: a correct answer was refused as "another instance" when
    the check named the same fixed knights, visits or moves in another order (they are sets)."""
    assert main(["knights", "6", "--fixed", "0,0", "--fixed", "2,2", "--save", str(tmp_path / "k.json")]) == 0
    assert main(["check", "6", str(tmp_path / "k.json"), "--fixed", "2,2", "--fixed", "0,0"]) == 0
    visits = ["--visit", "0,0@1", "--visit", "2,1@2"]
    assert main(["tour", "5", *visits, "--method", "cpsat", "--save", str(tmp_path / "t.json")]) == 0
    assert main(["check", "5", str(tmp_path / "t.json"), *visits[2:], *visits[:2]]) == 0
    assert "every claim certified" in capsys.readouterr().out
