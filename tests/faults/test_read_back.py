"""What is read back is checked: duplicate keys, wrong types in sidecars, forged flags (issue 28)."""

from __future__ import annotations

import json
import shutil

import pytest

from knightcert.problems.errors import InvalidInstance
from knightcert.problems.input_file import load_json

from .conftest import assert_one_line, call_cli

QUICK = ("compare", "knights", "--methods", "greedy,matching")


@pytest.mark.parametrize(
    "text",
    ['{"a": 1, "a": 2}', '{"runs": [{"verified": false, "verified": true}]}', '[{"x": {"k": 1, "k": 1}}]'],
)
def test_json_with_a_key_twice_is_refused(text):
    with pytest.raises(InvalidInstance, match="appears twice"):
        load_json(text, "f.json", "report")


def test_an_answer_file_with_a_duplicated_key_is_one_line(tmp_path):
    done = call_cli("knights", "4", "--save", tmp_path / "ans.json")
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "ans.json").read_text()
    forged = text.replace('{"schema"', '{"problem":"path","schema"', 1)
    assert forged != text
    (tmp_path / "ans.json").write_text(forged)
    done = call_cli("check", "-", tmp_path / "ans.json")
    assert_one_line(done, 2, "ans.json", "appears twice")


@pytest.fixture(scope="module")
def csv_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("csv")
    done = call_cli(*QUICK, "--out", folder / "r.csv")
    assert done.returncode == 0, done.stderr
    return folder


@pytest.mark.parametrize(
    ("field", "value"),
    [("experiment", []), ("experiment", "knights"), ("instances", {"a": 1}), ("instances", [1, 2])],
)
def test_a_csv_sidecar_with_wrong_types_is_one_line(tmp_path, csv_report, field, value):
    (tmp_path / "r.csv").write_bytes((csv_report / "r.csv").read_bytes())
    header = json.loads((csv_report / "r.csv.meta.json").read_text())
    header[field] = value
    (tmp_path / "r.csv.meta.json").write_text(json.dumps(header))
    done = call_cli(*QUICK, "--out", tmp_path / "r.csv")
    assert_one_line(done, 2, "r.csv.meta.json")
    done = call_cli("report", tmp_path / "r.csv")
    assert done.returncode == 2 and "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_a_csv_sidecar_that_is_not_an_object_is_refused(tmp_path, csv_report):
    (tmp_path / "r.csv").write_bytes((csv_report / "r.csv").read_bytes())
    (tmp_path / "r.csv.meta.json").write_text("[1, 2, 3]\n")
    done = call_cli(*QUICK, "--out", tmp_path / "r.csv")
    assert_one_line(done, 2, "r.csv.meta.json", "not a JSON object")


@pytest.fixture(scope="module")
def json_report(tmp_path_factory):
    """The QUICK comparison's report (data) and its answers folder."""
    path = tmp_path_factory.mktemp("json") / "r.json"
    done = call_cli(*QUICK, "--out", path)
    assert done.returncode == 0, done.stderr
    return json.loads(path.read_text()), path.parent / "r.answers"


@pytest.mark.parametrize("value", ['"yes"', "1", '"true"'])
def test_a_verified_flag_that_is_not_a_bool_is_refused_naming_the_field(tmp_path, json_report, value):
    data = json.loads(json.dumps(json_report[0]))
    assert data["runs"][0]["verified"] is True
    data["runs"][0]["verified"] = json.loads(value)
    _placed(tmp_path, (data, json_report[1]))
    done = call_cli(*QUICK, "--out", tmp_path / "r.json")
    assert_one_line(done, 2, "r.json", "verified")
    done = call_cli("report", tmp_path / "r.json")
    assert_one_line(done, 2, "r.json", "verified")


@pytest.mark.parametrize(
    "expected",
    ["[1, 2]", '{"caso1.txt": "ten"}', '{"caso1.txt": 1, "caso1.txt": 2}', "not json", '{"a": 1.5}'],
)
def test_demo_data_with_a_bad_expected_json_is_one_line(tmp_path, expected):
    folder = tmp_path / "data" / "lost-knight"
    folder.mkdir(parents=True)
    made = call_cli("instance", "path", "8", "--seed", "1")
    assert made.returncode == 0, made.stderr
    (folder / "caso1.txt").write_text(made.stdout)
    (folder / "expected.json").write_text(expected)
    done = call_cli("demo", "--data", tmp_path / "data")
    assert done.returncode == 2, done.stderr[-2000:]
    assert "expected.json" in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def _runs(path):
    return json.loads(path.read_text())["runs"]


@pytest.mark.parametrize("ending", [".json", ".csv", ".parquet"])
def test_an_untouched_report_resumes_without_running_anything_again(tmp_path, ending):
    if ending == ".parquet":
        pytest.importorskip("pyarrow")
    outs = ("--out", tmp_path / f"r{ending}", "--out", tmp_path / "copy.json")
    done = call_cli(*QUICK, *outs)
    assert done.returncode == 0, done.stderr
    before = _runs(tmp_path / "copy.json")
    done = call_cli(*QUICK, *outs)
    assert done.returncode == 0 and "again" not in done.stderr, done.stderr
    assert [r["time_s"] for r in _runs(tmp_path / "copy.json")] == [r["time_s"] for r in before]


def test_a_forged_resumed_row_is_run_again_not_trusted(tmp_path, json_report):
    data = json.loads(json.dumps(json_report[0]))
    greedy = next(r for r in data["runs"] if r["method"] == "greedy")
    truth = greedy["objective"]
    greedy.update(objective=truth + 1000, verified=True, certified=True, status="OPTIMAL")
    _placed(tmp_path, (data, json_report[1]))
    done = call_cli(*QUICK, "--out", tmp_path / "r.json")
    assert done.returncode == 0, done.stderr
    assert "1 run(s) without an answer file that re-checks" in done.stderr
    again = next(r for r in _runs(tmp_path / "r.json") if r["method"] == "greedy")
    assert again["objective"] == truth and again["status"] != "OPTIMAL"


def test_a_forged_cached_reference_is_run_again_not_trusted(tmp_path):
    args = ("compare", "path", "--suite", "random", "--sizes", "12", "--methods", "greedy")
    args = (*args, "--out", tmp_path / "r.json")
    done = call_cli(*args)
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    truth = {digest: record["value"] for digest, record in data["references"].items()}
    gaps = [r["gap"] for r in data["runs"]]
    assert truth and all(value is not None and value > 1 for value in truth.values())
    for record in data["references"].values():
        record["value"] -= 1  # a forged optimum: the greedy answers look worse than they are
    (tmp_path / "r.json").write_text(json.dumps(data))
    done = call_cli(*args)
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    assert {d: r["value"] for d, r in data["references"].items()} == truth
    assert [r["gap"] for r in data["runs"]] == gaps


@pytest.fixture(scope="module")
def checked_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("checked")
    args = (
        "compare",
        "path",
        "--suite",
        "random",
        "--sizes",
        "12",
        "--methods",
        "greedy,bfs",
        "--out",
        folder / "r.json",
    )
    done = call_cli(*args)
    assert done.returncode == 0, done.stderr
    return json.loads((folder / "r.json").read_text()), folder / "r.answers"


def _placed(folder, report, name="r.json"):
    """The report written into ``folder`` with its answer files beside it, as received whole."""
    data, answers = report
    (folder / name).write_text(json.dumps(data))
    if not (folder / "r.answers").exists():
        shutil.copytree(answers, folder / "r.answers")


def test_report_of_an_untouched_report_says_nothing_more(tmp_path, checked_report):
    _placed(tmp_path, checked_report)
    done = call_cli("report", tmp_path / "r.json")
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_every_row_links_an_answer_anyone_can_check(tmp_path, checked_report):
    data, _ = checked_report
    _placed(tmp_path, checked_report)
    claimed = [r for r in data["runs"] if r["status"] != "UNKNOWN"]
    assert claimed and all(r["answer"].startswith("r.answers/") for r in claimed)
    done = call_cli("check", "-", tmp_path / claimed[0]["answer"])
    assert done.returncode == 0, done.stderr
    (tmp_path / "alone").mkdir()  # the report received without its answers: said, not trusted
    (tmp_path / "alone" / "r.json").write_text(json.dumps(data))
    done = call_cli("report", tmp_path / "alone" / "r.json")
    assert f"{len(claimed)} of {len(data['runs'])} runs have no answer file that re-checks" in done.stderr


def test_an_answer_backs_one_run_of_its_own_method_seed_and_repeat(tmp_path, checked_report):
    """A run that links another method's answer, or one another run links already, is not backed."""
    from knightcert.compare.rechecked import backed_rows
    from knightcert.compare.report import read_rows

    data = json.loads(json.dumps(checked_report[0]))
    greedy = next(r for r in data["runs"] if r["method"] == "greedy")
    bfs = next(r for r in data["runs"] if r["method"] == "bfs" and r["instance"] == greedy["instance"])
    greedy.update({k: bfs[k] for k in ("status", "objective", "bound", "verified", "certified", "answer")})
    data["runs"].append(dict(bfs, repeat=0))
    _placed(tmp_path, (data, checked_report[1]))
    good, bad = backed_rows(read_rows(tmp_path / "r.json"), tmp_path)
    assert [(r.method, r.instance) for r in bad] == [("greedy", greedy["instance"]), ("bfs", bfs["instance"])]
    assert len(good) == len(data["runs"]) - 2


def _edited(report, **changes):
    data = json.loads(json.dumps(report[0]))
    greedy = [r for r in data["runs"] if r["method"] == "greedy"]
    for key, value in changes.items():
        greedy[0][key] = value
    return data, greedy[0]["instance"]


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"gap": -0.5}, ("gaps as written differ", "-0.5 -> 0")),
        ({"certified": True, "verified": False}, ("inconsistent runs", "certified but not verified")),
        ({"status": "UNKNOWN", "objective": None, "verified": True}, ("verified without an answer",)),
        ({"status": "PROVEN"}, ("unknown status",)),
        ({"seed": 1}, ("inconsistent runs", "is not the one the experiment derives")),
        ({"method": "bfs"}, ("inconsistent runs", "the same run given twice")),
    ],
)
def test_report_recomputes_and_names_edited_runs(tmp_path, checked_report, changes, words):
    data, instance = _edited(checked_report, **changes)
    _placed(tmp_path, (data, checked_report[1]))
    done = call_cli("report", tmp_path / "r.json", "--by", "method", "--format", "csv")
    assert done.returncode == 0, done.stderr
    assert instance in done.stderr
    assert ("re-checks to them" in done.stderr) == (set(changes) != {"gap"})  # a gap is recomputed
    for word in words:
        assert word in done.stderr
    assert "Traceback" not in done.stderr


def test_report_counts_follow_the_runs_not_the_flags(tmp_path, checked_report):
    data, _ = _edited(checked_report, status="UNKNOWN", objective=None, verified=False, certified=True)
    _placed(tmp_path, (data, checked_report[1]))
    done = call_cli("report", tmp_path / "r.json", "--by", "method", "--format", "csv")
    assert done.returncode == 0, done.stderr
    import csv
    import io

    rows = {r["method"]: r for r in csv.DictReader(io.StringIO(done.stdout))}
    assert int(rows["greedy"]["certified"]) <= int(rows["greedy"]["answered"])


def test_paired_report_names_edited_runs_in_either_file(tmp_path, checked_report):
    _placed(tmp_path, checked_report, "a.json")
    data, _ = _edited(checked_report, gap=-0.5)
    _placed(tmp_path, (data, checked_report[1]), "b.json")
    done = call_cli("report", tmp_path / "a.json", tmp_path / "b.json")
    assert "b.json" in done.stderr and "gaps as written differ" in done.stderr
    assert "a.json" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("link", ["-", "-#1"])
def test_a_report_s_answer_link_never_reads_standard_input(link, monkeypatch):
    """A received report's row linking ``-`` (or ``-#1``), read from the current folder, names a
    file there: standard input is never read (knightcert report would wait on the terminal)."""
    import io
    import sys
    from pathlib import Path

    from knightcert.compare.rechecked import rechecked_row

    class Watched(io.BytesIO):
        def read(self, *args):
            raise AssertionError("standard input read")

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Watched()))
    assert rechecked_row(link, Path("r.json").parent) is None
