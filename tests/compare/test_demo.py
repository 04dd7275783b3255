from __future__ import annotations

import json

from knightcert.cli.main import main
from knightcert.compare.demo import run_demo


def test_demo_on_a_small_data_folder(tmp_path, capsys):
    folder = tmp_path / "lost-knight"
    folder.mkdir()
    (folder / "caso1.txt").write_text("C.....\n......\n....S.\n......\n......\n......\n")
    (folder / "expected.json").write_text(json.dumps({"caso1.txt": 2}))
    assert main(["demo", "--data", str(tmp_path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["problem"] for row in rows} == {"path", "jump", "knights", "tour"}
    assert all(row["verified"] for row in rows)
    path_rows = [row for row in rows if row["problem"] == "path"]
    assert {row["method"] for row in path_rows} == {"bfs", "astar", "greedy", "cpsat"}
    assert all(row["gap"] == 0 and row["objective"] == 2 for row in path_rows)
    greedy_6x6 = next(
        r for r in rows if r["problem"] == "knights" and r["instance"] == "6x6" and r["method"] == "greedy"
    )
    assert greedy_6x6["objective"] == 15 and abs(greedy_6x6["gap"] - 3 / 18) < 1e-12


def test_demo_without_data_uses_a_generated_board():
    rows = run_demo(None)
    assert rows and all(row.verified for row in rows)
    assert any(row.instance.startswith("random-") for row in rows)


def test_demo_prints_one_summary_table_and_details_on_request(tmp_path, capsys):
    folder = tmp_path / "lost-knight"
    folder.mkdir()
    (folder / "caso1.txt").write_text("C.....\n......\n....S.\n......\n......\n......\n")
    assert main(["demo", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("knightcert demo:") == 1 and "heuristic" in out and "exact" in out
    assert "answers verified by the independent checkers" in out
    assert main(["demo", "--data", str(tmp_path), "--detail"]) == 0
    assert capsys.readouterr().out.count("every run") == 4
