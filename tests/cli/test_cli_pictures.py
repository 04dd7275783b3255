"""``--svg`` and ``--png`` on every command that shows an answer: the picture drawn is the answer's."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from knightcert.cli.main import main

JUMP = "3 4\n2\n1 2 1 1\n2 1 3 1\n1 1 2 0\n0 0\n2 1\n"


def count(svg: str, kind: str) -> int:
    return len(re.findall(rf'class="{kind}[" ]', svg))


def moves(svg: str) -> int:
    """Knight moves drawn: a move across a torus edge is two strokes (leaving, re-entering)."""
    found = re.search(r'class="moves" d="([^"]*)"', svg)
    return 0 if found is None else found[1].count("L") - found[1].count("M") + 1


def test_tour_svg_numbers_every_square_and_joins_a_closed_tour(tmp_path, capsys):
    out = tmp_path / "t.svg"
    assert main(["tour", "6", "--closed", "--svg", str(out)]) == 0
    svg = out.read_text()
    assert count(svg, "sq") == 36 and moves(svg) == 36 and svg.count("<text") == 36
    assert count(svg, "start") == count(svg, "end") == 1
    numbered = capsys.readouterr().out.split()
    first = svg.index(">1</text>")
    assert numbered[0] == "1" and svg[:first].endswith('x="20.0" y="20.0"')  # move 1 drawn on (0, 0)


def test_knights_svg_shows_holes_attacks_and_the_matching(tmp_path, capsys):
    board = tmp_path / "holes.txt"
    board.write_text("....\n.x..\n..x.\n....\n")
    out = tmp_path / "k.svg"
    assert main(["knights", "--board", str(board), "--svg", str(out), "--draw-certificate"]) == 0
    svg = out.read_text()
    knights = int(capsys.readouterr().out.split(": ")[1].split()[0])
    assert count(svg, "sq") == 16 and count(svg, "sq hole") == 2 and count(svg, "kn") == knights
    assert count(svg, "cert") == 14 - knights  # Kőnig: a matching as large as the usable squares left
    assert 'class="attacked"' in svg


def test_path_svg_draws_a_wrap_as_leaving_and_reentering(tmp_path):
    board = tmp_path / "p.txt"
    board.write_text("C.....\n......\n......\n......\n......\n.....S\n")
    out = tmp_path / "p.svg"
    assert main(["path", str(board), "--svg", str(out)]) == 0
    svg = out.read_text()
    assert moves(svg) == 2 and svg.count(" M") >= 1 and "stroke-dasharray" in svg  # wraps, torus edge


def test_jump_and_check_svg(tmp_path, capsys):
    game = tmp_path / "g.txt"
    game.write_text(JUMP)
    out = tmp_path / "j.svg"
    assert main(["jump", str(game), "--svg", str(out)]) == 0
    assert count(out.read_text(), "sq") == 12 and count(out.read_text(), "start") == 2
    answer = tmp_path / "a.json"
    assert main(["tour", "5", "--save", str(answer)]) == 0
    assert main(["check", "5", str(answer), "--svg", str(tmp_path / "c.svg")]) == 0
    assert moves((tmp_path / "c.svg").read_text()) == 24


@pytest.mark.skipif(
    importlib.util.find_spec("cairosvg") is None, reason="--png needs cairosvg (picture extra)"
)
def test_png_is_a_png(tmp_path):
    out = tmp_path / "t.png"
    assert main(["tour", "5", "--png", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["tour", "5", "--svg", "/no/such/folder/t.svg"], "does not exist"),
        (["knights", "5", "--svg", "k.png"], "must end in .svg"),
        (["path", "a.txt", "b.txt", "--svg", "p.svg"], "give one FILE"),
    ],
)
def test_bad_picture_path_is_one_line_exit_2_before_solving(argv, words, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("C.\n.S\n")
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and words in captured.err and captured.err.count("\n") == 1
    assert captured.err.count("--svg") <= 1  # argparse names the option; the message does not again


def test_report_html_is_one_page_with_a_collapsed_group_per_instance(tmp_path, capsys):
    study = str(Path(__file__).resolve().parents[2] / "docs" / "data" / "study-2s.json")
    page = tmp_path / "r.html"
    assert main(["report", study, "--html", str(page)]) == 0
    text = page.read_text()
    instances = {run["instance"] for run in json.loads(Path(study).read_text())["runs"]}
    assert text.count("<details") == len(instances) and "<h2>Provenance</h2>" in text
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing fetched
    assert main(["report", study, "--html", str(tmp_path / "r.htm")]) == 2
    assert main(["report", study, "--html", str(page), "--answers", str(tmp_path / "none")]) == 2
    assert "none: no such folder" in capsys.readouterr().err
