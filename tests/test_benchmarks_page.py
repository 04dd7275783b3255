"""docs/benchmarks.md is bench/make_page.py's rendering of the bench records: it cannot drift."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_is_the_rendering_of_the_records():
    page = (ROOT / "docs" / "benchmarks.md").read_text()
    assert page == _load("make_page").render(), "run: python bench/make_page.py"
    assert page.count("\n") <= 250


def test_every_record_is_on_the_page_and_names_its_source():
    template = (ROOT / "bench" / "page.md").read_text()
    for path in sorted((ROOT / "bench" / "results").glob("*.json")):
        record = json.loads(path.read_text())
        assert "{{" + path.stem in template, f"{path.name} is on no line of bench/page.md"
        assert record["command"] and record["date"] and record["load_before"] and record["machine"]["cores"]
        assert "by_hand" in record or {"commit", "load_after", "wall_s"} <= record.keys(), path.name


def test_a_missing_record_is_refused(tmp_path, monkeypatch):
    make_page = _load("make_page")
    monkeypatch.setattr(make_page, "TEMPLATE", tmp_path / "page.md")
    (tmp_path / "page.md").write_text("# x\n{{no_such_record}}\n")
    with pytest.raises(SystemExit, match="no_such_record"):
        make_page.render()


def test_the_recorder_keeps_tables_and_notes():
    tables, notes = _load("record").parse(
        "load 1.0\n\n### Speed\n\n| a | b |\n|---|---:|\n| x | 2 |\nafter\n"
    )
    assert tables == [
        {"title": "Speed", "header": ["a", "b"], "align": ["---", "---:"], "rows": [["x", "2"]]}
    ]
    assert notes == ["load 1.0", "after"]
