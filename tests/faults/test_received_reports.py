"""A received report runs nothing unasked, and never code changed since it was written (issue 28)."""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from knightcert.compare.received import UntrustedMethod, check_received_methods, foreign_names

from .conftest import assert_one_line, call_cli, run_cli

#: A foreign program that leaves a mark each time it runs, then gives no answer.
PROGRAM = 'import pathlib\npathlib.Path("ran").open("a").write("x")\nprint(\'{"status": "UNKNOWN"}\')\n'
#: A foreign module that leaves a mark when imported.
MODULE = (
    'import pathlib\npathlib.Path("imported").open("a").write("x")\n'
    "def solve(instance, time_limit=None, seed=None):\n"
    "    return {'status': 'UNKNOWN'}\n"
)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """A folder with a report whose experiment names a foreign program and a foreign module."""
    folder = tmp_path_factory.mktemp("written")
    (folder / "prog.py").write_text(PROGRAM)
    (folder / "recvmod.py").write_text(MODULE)
    methods = f"greedy,exec:{sys.executable} prog.py,recvmod:solve"
    done = run_cli(folder, "compare", "knights", "--suite", "scaling", "--sizes", "4", "--methods", methods,
                   "--out", "r.json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (folder / "ran").exists() and (folder / "imported").exists()
    (folder / "ran").unlink()
    (folder / "imported").unlink()
    return folder


@pytest.fixture
def received(written):
    """That folder (the report records where its method files are: it cannot be copied), put
    back as it was after each test: its files' contents, and nothing more."""
    kept = {path: path.read_bytes() for path in written.iterdir() if path.is_file()}
    names = {path.name for path in written.iterdir()}
    yield written
    for path in written.iterdir():
        if path.name not in names:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    for path, data in kept.items():
        if path.read_bytes() != data:
            path.write_bytes(data)


def refused_rerun(received, monkeypatch, *flags: str):
    """``compare --rerun r.json FLAGS --out again.json`` in the report's folder, in process: a
    refusal starts no worker (what runs after a refusal would still leave its marks there)."""
    monkeypatch.chdir(received)
    return call_cli("compare", "--rerun", "r.json", *flags, "--out", "again.json")


def test_rerun_refuses_foreign_methods_without_the_flag_and_runs_nothing(received, monkeypatch):
    done = refused_rerun(received, monkeypatch)
    assert_one_line(done, 2, "r.json", "foreign methods", "--trust-methods", "prog.py")
    assert not (received / "ran").exists() and not (received / "imported").exists()
    assert not (received / "again.json").exists()


def test_rerun_with_the_flag_runs_the_unchanged_methods(received):
    done = run_cli(received, "compare", "--rerun", "r.json", "--trust-methods", "--out", "again.json")
    assert done.returncode == 0, done.stderr
    assert (received / "ran").exists() and (received / "imported").exists()


@pytest.mark.parametrize("edited", ["prog.py", "recvmod.py"])
def test_rerun_refuses_a_method_file_changed_since_the_report(received, monkeypatch, edited):
    path = received / edited
    path.write_text(path.read_text() + "\n# edited after the run\n")
    done = refused_rerun(received, monkeypatch, "--trust-methods")
    assert_one_line(done, 2, edited, "changed since the report was written")
    assert not (received / "ran").exists() and not (received / "imported").exists()


def test_rerun_refuses_a_forged_hash(received, monkeypatch):
    data = json.loads((received / "r.json").read_text())
    for files in data["method_files"].values():
        for record in files:
            record["sha256"] = "0" * 64
    (received / "r.json").write_text(json.dumps(data))
    done = refused_rerun(received, monkeypatch, "--trust-methods")
    assert_one_line(done, 2, "changed since the report was written")
    assert not (received / "ran").exists()


def test_a_method_with_no_recorded_hashes_is_refused_even_when_trusted():
    header = {"experiment": {"methods": ["exec:./solver"]}, "method_files": {}}
    with pytest.raises(UntrustedMethod, match="no recorded file hashes"):
        check_received_methods("r.json", header, trusted=True)


def test_a_report_of_built_in_methods_reruns_without_the_flag():
    header = {"experiment": {"methods": ["greedy", {"name": "cpsat", "options": {}}]}}
    assert foreign_names(header["experiment"]) == []
    check_received_methods("r.json", header, trusted=False)
