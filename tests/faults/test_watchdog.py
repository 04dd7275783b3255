"""A built-in method that overruns ``--time-limit`` in the single command is stopped the way a
foreign one is (issue 28): at the command's budget (limit + grace, counted from the command's
start) the stop of Ctrl-C, not recorded as an interruption; a method that swallows it ends the
command with exit 4 and one line. The import of a method's code counts against the limit.

The stuck methods wait on an event that is never set (a wait a signal interrupts), not on a clock.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest

import knightcert.algorithms.path_search as path_search
from knightcert.cli import session
from knightcert.cli.main import main
from knightcert.cli.watched import COMMAND_GRACE
from knightcert.problems import stopping
from knightcert.problems.result import Status
from knightcert.registry import MethodRef
from knightcert.workers import grace

from .conftest import ROOT, environment

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux signals")

BOARD = "C.....\n......\n....S.\n......\n......\n......\n"
LIMIT = 0.05
REAL_BFS = path_search.bfs


@pytest.fixture
def board(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text(BOARD)
    return str(path)


def _json_of(capsys):
    out, err = capsys.readouterr()
    return json.loads(out), err


def test_a_built_in_that_never_looks_at_the_clock_is_stopped_unknown(monkeypatch, board, capsys):
    def stuck(instance, **kwargs):
        threading.Event().wait(30)  # never set: only the watchdog's stop ends this (30 s: a safety)

    monkeypatch.setattr(path_search, "bfs", stuck)
    began = time.perf_counter()
    code = main(["path", board, "--method", "bfs", "--time-limit", str(LIMIT), "--json"])
    took = time.perf_counter() - began
    row, err = _json_of(capsys)
    assert code == 0 and err == ""
    assert row["status"] == "UNKNOWN" and row["info"]["stopped"].startswith("time limit:"), row
    assert "interrupted" not in row["info"] and not session.stop_requested()
    stop = min(grace(LIMIT), COMMAND_GRACE)
    assert LIMIT + stop <= took < LIMIT + stop + 30  # not before the budget; stopped (stuck for ever)


def test_a_built_in_that_catches_the_stop_keeps_its_best_answer(monkeypatch, board, capsys):
    def stuck_with_an_answer(instance, **kwargs):
        found = REAL_BFS(instance)
        try:
            threading.Event().wait(30)
        except KeyboardInterrupt:  # as the CP-SAT and CSP methods do on Ctrl-C
            stopping.caught()
            return found.with_(status=Status.FEASIBLE, bound=None, info={"interrupted": True})

    monkeypatch.setattr(path_search, "bfs", stuck_with_an_answer)
    code = main(["path", board, "--method", "bfs", "--time-limit", str(LIMIT), "--json"])
    row, err = _json_of(capsys)
    assert code == 0 and err == ""
    assert row["status"] == "FEASIBLE" and row["objective"] == 2 and row["verified"], row
    assert row["info"]["stopped"].startswith("time limit:") and "interrupted" not in row["info"]
    assert not session.stop_requested()  # a time stop, not an interruption: exit 0, not 130


def test_a_built_in_that_returns_in_time_is_left_alone(board, capsys):
    code = main(["path", board, "--method", "bfs", "--time-limit", "30", "--json"])
    row, _ = _json_of(capsys)
    assert code == 0 and row["status"] == "OPTIMAL" and "stopped" not in row.get("info", {})


SWALLOWER = """
import sys, threading
import knightcert.algorithms.path_search as path_search
from knightcert.cli.main import main
from knightcert.cli.watched import COMMAND_GRACE

def swallowing(instance, **kwargs):
    while True:
        try:
            threading.Event().wait(30)
        except KeyboardInterrupt:
            pass  # a method that ignores the stop

path_search.bfs = swallowing
# 3 s from main() (its clock starts there): time for the run path to reach the method even on a
# loaded machine, so that the stop lands in the method and not before it (then the answer is
# an ordinary time-limit UNKNOWN, exit 0)
raise SystemExit(main(["path", sys.argv[1], "--method", "bfs", "--time-limit", "3"]))
"""


@pytest.mark.heavy
def test_a_built_in_that_swallows_the_stop_ends_the_command_killed(board):
    done = subprocess.run(
        [sys.executable, "-c", SWALLOWER, board],
        cwd=ROOT,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == session.EXIT_KILLED, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "did not stop at its time limit" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_loading_the_methods_code_counts_against_the_time_limit(monkeypatch, board, capsys):
    """The method's code is imported before the limit is read: an import that took 6 s (the
    command's clock moved back by 6 s while it ran) leaves the method 4 s of 10."""
    given = []
    loads = MethodRef.function

    def slow_load(self):
        if not given:
            given.append(None)
            monkeypatch.setattr(session, "_started", session.started_at() - 6.0)
        return loads(self)

    def recording(instance, *, time_limit=None, **kwargs):
        given.append(time_limit)
        return REAL_BFS(instance, time_limit=time_limit)

    monkeypatch.setattr(MethodRef, "function", slow_load)
    monkeypatch.setattr(path_search, "bfs", recording)
    assert main(["path", board, "--method", "bfs", "--time-limit", "10"]) == 0
    assert 3.0 < given[-1] <= 4.0, given
    capsys.readouterr()


def test_a_command_whose_limit_passed_before_the_method_started_never_loads_it(monkeypatch, board, capsys):
    """On a loaded machine the imports and the instance may use the whole limit: the answer is then
    UNKNOWN at once, the method's code never loaded (OR-Tools alone takes a second there)."""
    starts = session.start
    monkeypatch.setattr(session, "start", lambda started=None: starts(time.perf_counter() - 5.0))
    monkeypatch.setattr(MethodRef, "function", lambda self: pytest.fail("the method's code was loaded"))
    assert main(["path", board, "--method", "bfs", "--time-limit", "2", "--json"]) == 0
    row, err = _json_of(capsys)
    assert row["status"] == "UNKNOWN" and not row["verified"] and err == ""
    assert row["info"]["stopped"] == "time limit: 2 s + grace had passed before the method started"


CLOCK = """
import sys, time
seen = {}

class Watch:
    def find_spec(self, name, path=None, target=None):
        seen.setdefault(name, time.perf_counter())
        return None

sys.meta_path.insert(0, Watch())
import knightcert.__main__ as m
heavy = [name for name in ("knightcert.cli", "knightcert.cli.main", "numpy") if name in seen]
print(heavy != [] and all(m._STARTED < seen[name] for name in heavy))
"""


def test_the_command_clock_starts_before_the_command_line_is_imported():
    done = subprocess.run([sys.executable, "-c", CLOCK], cwd=ROOT, env=environment(),
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.stdout.split() == ["True"], done
