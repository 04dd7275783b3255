from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from knightcert.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def boards(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("C.....\n......\n....S.\n......\n......\n......\n")
    boxed = tmp_path / "boxed.txt"
    boxed.write_text(".x.x.\nx...x\n..C..\nx...x\n.xSx.\n")
    return good, boxed


def test_plain_output_one_line_per_file(boards, capsys):
    good, boxed = boards
    assert main(["path", str(good), str(boxed)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "good.txt: 2 moves (optimal, certified: distance labelling)",
        "boxed.txt: unreachable (certified: closed set)",
    ]


def test_heuristic_output_says_it_is_not_proven(boards, capsys):
    assert main(["path", str(boards[0]), "--method", "greedy"]) == 0
    assert "FEASIBLE" in capsys.readouterr().out


def test_json_fields(boards, capsys):
    good, boxed = boards
    assert main(["path", str(good), "--json", "--method", "astar"]) == 0
    record = json.loads(capsys.readouterr().out)
    for key in (
        "problem",
        "instance",
        "method",
        "status",
        "objective",
        "bound",
        "solution",
        "time_s",
        "verified",
    ):
        assert key in record
    assert record["status"] == "OPTIMAL" and record["objective"] == 2 and record["verified"] is True
    assert record["solution"][0] == [0, 0] and record["solution"][-1] == [2, 4]
    assert main(["path", str(good), str(boxed), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert isinstance(records, list) and [r["status"] for r in records] == ["OPTIMAL", "INFEASIBLE"]


def test_show_numbers_the_path(boards, capsys):
    assert main(["path", str(boards[0]), "--show"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[0] == "0" and lines[3].split()[4] == "2"


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", "empty board"),
        ("C..\n..\n..S\n", ":2:3: row has 2 squares"),
        ("C.?\n..S\n", ":1:3: unexpected character '?'"),
        ("C..\n...\n", "no 'S'"),
        ("CC.\n..S\n", ":1:2: second 'C'"),
    ],
)
def test_bad_files_exit_2_with_one_line_and_no_output(tmp_path, boards, capsys, content, words):
    bad = tmp_path / "bad.txt"
    bad.write_text(content)
    assert main(["path", str(boards[0]), str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing partial: the good file before it is not reported
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("knightcert: error: ") and words in lines[0]
    assert "bad.txt" in lines[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["path"],
        ["path", "x.txt", "--method", "nope"],
        ["path", "x.txt", "--time-limit", "abc"],
        ["nope"],
        ["path", "missing.txt"],
    ],
)
def test_usage_errors_exit_2_with_one_line(argv, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1


def test_time_limit_must_be_positive(boards, capsys):
    assert main(["path", str(boards[0]), "--method", "cpsat", "--time-limit", "0"]) == 2
    assert "expected a positive number of seconds" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["knightcert", "knightcert.cli"])
def test_module_entry_point_reports_errors_without_traceback(tmp_path, module):
    bad = tmp_path / "bad.txt"
    bad.write_text("C.x\n.Z.\n")
    proc = subprocess.run(
        [sys.executable, "-m", module, "path", str(bad)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().endswith(
        "bad.txt:2:2: unexpected character 'Z': expected '.', 'x', 'C' or 'S'"
    )
    assert "Traceback" not in proc.stderr


def test_all_shared_instances_in_one_call(shared_data, lost_knight_expected, capsys):
    files = sorted((shared_data / "lost-knight").glob("caso*.txt"))
    assert main(["path", *map(str, files)]) == 0
    lines = capsys.readouterr().out.splitlines()
    expected = (
        f"{name}: {moves} moves (optimal, certified: distance labelling)"
        for name, moves in lost_knight_expected.items()
    )
    assert sorted(lines) == sorted(expected)
