"""A foreign method talks through one channel the runner owns; its words stay marked as its own
(issue 28)."""

from __future__ import annotations

import json
import sys

import pytest

import knightcert
from knightcert.problems.answers import seal as answer_seal
from knightcert.problems.independent_knights import knights_instance

from .conftest import call_cli, run_cli

#: A method that writes junk into every descriptor it inherited, then answers nothing.
SCRIBBLER = """
import os

def solve(instance, time_limit=None, seed=None):
    for fd in range(3, 4096):
        try:
            os.write(fd, b'{"value": {"status": "OPTIMAL", "objective": 999}, "stopped": "forged"}\\n' * 50)
        except OSError:
            pass
    return {"status": "UNKNOWN", "info": {"stopped": "forged stop", "gap": 0, "interrupted": True}}
"""


def test_a_foreign_methods_info_is_kept_apart(tmp_path, monkeypatch):
    (tmp_path / "chatty.py").write_text(
        "def solve(instance, time_limit=None, seed=None):\n"
        "    return {'status': 'UNKNOWN', 'info': {'stopped': 'forged', 'gap': 0, 'interrupted': True}}\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    result = knightcert.solve(knights_instance(4), method="chatty:solve", time_limit=5)
    assert "gap" not in result.info and "interrupted" not in result.info
    assert result.info.get("stopped") != "forged"
    assert result.info["method_info"] == {"stopped": "forged", "gap": 0, "interrupted": True}


def test_a_programs_info_is_kept_apart(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text('print(\'{"status": "UNKNOWN", "info": {"gap": 0, "interrupted": true}}\')\n')
    result = knightcert.solve(knights_instance(4), method=f"exec:{sys.executable} {script}", time_limit=5)
    assert "gap" not in result.info and "interrupted" not in result.info
    assert result.info["method_info"] == {"gap": 0, "interrupted": True}


def test_json_output_keeps_the_methods_info_under_its_own_key(tmp_path):
    (tmp_path / "chatty.py").write_text(
        "def solve(instance, time_limit=None, seed=None):\n"
        "    from knightcert.algorithms.knights_matching import matching\n"
        "    r = matching(instance)\n"
        "    return {'status': 'OPTIMAL', 'objective': r.objective,\n"
        "            'solution': [list(p) for p in r.solution], 'info': {'stopped': 'forged', 'gap': 0.5}}\n"
    )
    done = run_cli(tmp_path, "knights", "4", "--method", "chatty:solve", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    info = data.get("info", {})
    assert "gap" not in info and info.get("stopped") != "forged"


@pytest.mark.heavy
def test_a_method_scribbling_on_inherited_descriptors_cannot_forge_rows(tmp_path):
    (tmp_path / "scribbler.py").write_text(SCRIBBLER)
    done = run_cli(tmp_path, "compare", "knights", "--suite", "scaling", "--sizes", "4,5",
                   "--methods", "scribbler:solve,greedy", "--workers", "2", "--out", "r.json")  # fmt: skip
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    runs = json.loads((tmp_path / "r.json").read_text())["runs"]
    assert len(runs) == 4
    for run in runs:
        if run["method"].startswith("scribbler"):
            assert run["status"] == "UNKNOWN" and run["objective"] is None and "forged" not in run["error"]
        else:
            assert run["verified"]


def test_a_method_name_cannot_open_the_check_verdict(tmp_path):
    done = call_cli("knights", "4", "--save", tmp_path / "a.json")
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "a.json").read_text())
    data["method"] = "x: every claim certified"
    data["sha256"] = answer_seal(data)
    (tmp_path / "a.json").write_text(json.dumps(data))
    done = call_cli("check", "4", tmp_path / "a.json")
    line = done.stdout.splitlines()[0]
    verdict = line.split(": ", 2)[1]
    assert verdict in ("every claim certified",) and "method 'x: every claim certified'" in line
    assert line.index("method '") > line.index(verdict)


def test_rich_markup_in_instance_and_method_names_is_shown_as_written(tmp_path):
    made = call_cli("instance", "path", "8", "--seed", "1")
    assert made.returncode == 0, made.stderr
    (tmp_path / "[red]x.txt").write_text(made.stdout)
    script = tmp_path / "x.sh"
    script.write_text('#!/bin/sh\necho \'{"status": "UNKNOWN"}\'\n')
    script.chmod(0o755)
    done = run_cli(tmp_path, "compare", "path", "--instances", "[red]x.txt",
                   "--methods", "bfs,exec:./x.sh [/bold]", "--out", "r.json")  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert "[red]x.txt" in done.stdout and "[/bold]" in done.stdout


def test_mathtext_in_names_does_not_break_a_plot(tmp_path):
    pytest.importorskip("matplotlib")
    from knightcert.compare.harness import failed_row
    from knightcert.compare.plots import plot_rows

    rows = [failed_row("path", "a", "$\\frac{$", "crash", 0.1)]
    rows[0].size = 4
    plot_rows(rows, tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
