from __future__ import annotations

import json

import pytest

from knightcert.cli.main import main


@pytest.fixture
def ex1(tmp_path):
    path = tmp_path / "ex1.in"
    path.write_text("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")
    return path


def test_plain_output_is_the_official_format(ex1, capsys):
    assert main(["jump", str(ex1)]) == 0
    assert capsys.readouterr().out == "C\n3\n"


def test_official_examples_byte_compatible(shared_data, capsys):
    for case in range(1, 6):
        folder = shared_data / "jump-game"
        assert main(["jump", str(folder / f"EX{case}.in")]) == 0
        assert capsys.readouterr().out.split() == (folder / f"EX{case}.out").read_text().split()


def test_json_has_a_per_player_table(ex1, capsys):
    assert main(["jump", str(ex1), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "OPTIMAL" and record["objective"] == 3 and record["verified"]
    players = record["solution"]["players"]
    assert [p["player"] for p in players] == ["A", "B", "C"]
    assert [(p["rounds"], p["key"]) for p in players] == [(3, 2), (4, 1), (3, 1)]
    assert players[2]["path"][0] == [0, 2] and players[2]["path"][-1] == [0, 8]


def test_explain_shows_paths_and_the_final_order(ex1, capsys):
    assert main(["jump", str(ex1), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "C: 3 rounds, jump 1 in round 2: (0,2) -> (0,5) -> (0,6) -> (0,8)" in out
    assert "move order" in out and out.rstrip().endswith("C (jump 1), A (jump 2)")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("1 2\n1\n1 -1\n0 0\n", ":3:3: negative number -1"),
        ("1 2\n2\n1 0\n0 0\n", ":5: J = 2 announces 2 start lines, found 1"),
        ("1 2\n1\n1 0\n3 3\n", ":4: start (3, 3) of player A is off the 1 x 2 board"),
        ("1 2\n1\n1 0.5\n0 0\n", ":3:3: expected a non-negative integer, found '0.5'"),
        ("99999 99999\n1\n", ":1: board 99999 x 99999 has 9999800001 cells"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, ex1, capsys, content, words):
    bad = tmp_path / "bad.in"
    bad.write_text(content)
    assert main(["jump", str(ex1), str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1 and "bad.in" in captured.err and words in captured.err


@pytest.mark.parametrize("method", ["bfs-player", "cpsat", "csp"])
def test_every_method_from_the_cli(ex1, capsys, method):
    assert main(["jump", str(ex1), "--method", method]) == 0
    assert capsys.readouterr().out == "C\n3\n"
