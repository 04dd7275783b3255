"""Reports under corruption and concurrency: refused with one line, never overwritten, never mixed."""

from __future__ import annotations

import json
import threading
import time

import pytest

from knightcert.compare.report_file import report_lock, write_text_atomic
from knightcert.problems.errors import ReportInUse

from .conftest import assert_one_line, call_cli, leftovers, run_cli, start_cli

QUICK = ("compare", "knights", "--methods", "greedy,matching")


@pytest.fixture(scope="module")
def good_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("good")
    done = call_cli(*QUICK, "--out", folder / "good.json")
    assert done.returncode == 0, done.stderr
    return (folder / "good.json").read_bytes()


def corrupt(kind: str, good: bytes) -> bytes:
    return {
        "truncated": good[: len(good) // 2],
        "empty": b"",
        "binary": bytes(range(256)) * 4,
        "foreign": b'{"name": "my notes", "items": [1, 2, 3]}\n',
        "foreign rows": b'{"runs": [{"what": 1}]}\n',
        "not json": b"problem,instance\nthis is a csv\n",
    }[kind]


@pytest.mark.parametrize("kind", ["truncated", "empty", "binary", "foreign", "foreign rows", "not json"])
def test_a_corrupt_report_is_refused_and_kept(tmp_path, good_report, kind):
    report = tmp_path / "r.json"
    report.write_bytes(corrupt(kind, good_report))
    done = call_cli(*QUICK, "--out", report)
    assert_one_line(done, 2, "r.json", "report")
    assert report.read_bytes() == corrupt(kind, good_report) and done.stdout == ""
    assert leftovers(tmp_path) == []


def test_another_problems_report_is_refused_and_kept(tmp_path, good_report):
    report = tmp_path / "r.json"
    report.write_bytes(good_report)  # a knights report
    done = call_cli("compare", "tour", "--methods", "warnsdorff", "--out", report)
    assert_one_line(done, 2, "r.json", "different experiment", "knights", "tour")
    assert report.read_bytes() == good_report


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--out", "missing/r.json", ("missing", "does not exist")),
        ("--out", "folder", ("must end in",)),
        ("--out", "folder.json", ("not a regular file",)),
        ("--out", "r.txt", ("must end in",)),
        ("--plot", "missing/p.png", ("missing", "does not exist")),
        ("--plot", "p.gif", ("must end in",)),
    ],
)
def test_out_and_plot_are_checked_before_any_work(tmp_path, option, value, words):
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder.json").mkdir()
    began = time.monotonic()
    done = call_cli("compare", "knights", "--suite", "scaling", "--methods", "bnb", option, tmp_path / value)
    assert_one_line(done, 2, *words)
    assert time.monotonic() - began < 20  # refused up front, not after the runs
    assert done.stdout == "" and sorted(p.name for p in tmp_path.iterdir()) == ["folder", "folder.json"]


@pytest.mark.heavy
def test_two_writers_one_refuses_and_the_report_stays_whole(tmp_path):
    args = ("compare", "knights", "--suite", "scaling", "--sizes", "20..200", "--methods", "greedy,matching")
    first = start_cli(tmp_path, *args, "--out", "r.json")
    report = tmp_path / "r.json"
    seen, bad = [], []

    def read_all_the_time():
        while first.poll() is None:
            if report.exists():
                try:
                    seen.append(len(json.loads(report.read_text())["runs"]))
                except (ValueError, KeyError) as exc:
                    bad.append(repr(exc))
            time.sleep(0.01)

    reader = threading.Thread(target=read_all_the_time)
    reader.start()
    deadline = time.monotonic() + 60
    while not (tmp_path / "r.json.lock").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    second = run_cli(tmp_path, *args, "--out", "r.json")
    _, err = first.communicate(timeout=120)
    reader.join()
    assert first.returncode == 0, err
    if second.returncode != 0:  # refused while the first one held the report
        assert_one_line(second, 2, "r.json", "in use", f"pid {first.pid}")
    final = json.loads(report.read_text())["runs"]
    assert bad == [] and seen == sorted(seen)  # every read was whole JSON, rows only grew
    assert len(final) == 12 and len({(r["instance"], r["method"]) for r in final}) == 12
    assert leftovers(tmp_path) == []


def test_report_lock_names_the_holder_and_frees_on_exit(tmp_path):
    report = tmp_path / "r.json"
    with (
        report_lock(report),
        pytest.raises(ReportInUse, match=r"r.json: report in use .*pid \d+"),
        report_lock(report),
    ):
        pass
    assert leftovers(tmp_path) == []
    with report_lock(report):  # free again
        pass


def test_a_failed_atomic_write_leaves_the_old_report(tmp_path):
    report = tmp_path / "r.json"
    report.write_text("old\n")
    with pytest.raises(TypeError):
        write_text_atomic(report, object())  # type: ignore[arg-type]
    assert report.read_text() == "old\n" and leftovers(tmp_path) == []
