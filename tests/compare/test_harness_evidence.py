"""The harness re-checks every answer and marks cross-check conflicts instead of aborting."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from knightcert.cli.main import main
from knightcert.compare import runner
from knightcert.compare.harness import Row, fill_gaps, row_from_result
from knightcert.compare.runner import Task, run_task
from knightcert.compare.summary import row_certified
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.result import Result, Status

SIX = knights_instance(6)
WHITES = [[r, c] for r in range(6) for c in range(6) if (r + c) % 2 == 0]


def row(
    method, status, objective, *, certified=False, verified=True, problem="knights", instance="i", bound=None
):
    return Row(
        problem,
        instance,
        method,
        status,
        objective,
        bound,
        None,
        0.1,
        None,
        None,
        verified,
        "",
        certified,
        "",
    )


def test_a_method_that_claims_verified_is_checked_anyway(fake_method):
    lie = Result("knights", "liar", Status.OPTIMAL, 15, 15, WHITES[:15], 0.0, verified=True)
    fake_method(lambda *a, **k: lie)
    result_row = run_task(Task("knights", SIX, "liar"))
    assert not result_row.verified and "optimal claim rejected" in result_row.error
    honest = row_from_result(lie.with_(objective=18, bound=18, solution=WHITES), instance=SIX)
    assert honest.verified and honest.certified and "matching" in honest.evidence


def test_uncertified_optimum_conflicting_with_a_certified_one_is_marked():
    rows = [
        row("matching", "OPTIMAL", 18, certified=True),
        row("cpsat", "OPTIMAL", 17),
        row("greedy", "FEASIBLE", 15),
    ]
    fill_gaps(rows)
    assert rows[1].error == "conflicts with a certified optimum of 18"
    assert rows[0].error == "" and rows[0].gap == 0.0
    assert rows[2].gap == pytest.approx(3 / 18)  # from the certified value


def test_two_uncertified_optima_disagree_and_the_run_goes_on():
    rows = [row("cpsat", "OPTIMAL", 5), row("bnb", "OPTIMAL", 4), row("greedy", "FEASIBLE", 4)]
    fill_gaps(rows, {"i": 5})
    assert rows[0].error == rows[1].error == "two uncertified optima disagree"
    assert rows[2].gap == pytest.approx(1 / 5)  # falls back on the published value


def test_a_heuristic_beating_a_proven_optimum_is_flagged():
    rows = [row("cpsat", "OPTIMAL", 4), row("greedy", "FEASIBLE", 5)]
    fill_gaps(rows)
    assert rows[0].error == "a verified answer of 5 (greedy) beats this optimum"
    published = [row("greedy", "FEASIBLE", 6)]
    fill_gaps(published, {"i": 5})
    assert published[0].error == "beats the published optimum of 5"
    paths = [row("cpsat", "OPTIMAL", 10, problem="path"), row("greedy", "FEASIBLE", 8, problem="path")]
    fill_gaps(paths)
    assert "beats this optimum" in paths[0].error  # fewer moves is better for paths


def test_an_infeasibility_claim_refuted_by_an_answer_is_marked():
    rows = [
        row("cpsat", "INFEASIBLE", None, problem="tour"),
        row("warnsdorff", "FEASIBLE", 12, problem="tour"),
    ]
    fill_gaps(rows)
    assert rows[0].error == "conflicts with a verified answer by warnsdorff" and rows[0].gap is None


def test_certified_column_says_what_backs_the_answer():
    good = row_from_result(Result("knights", "m", Status.OPTIMAL, 18, 18, WHITES, 0.0), instance=SIX)
    assert row_certified(good) == "yes: matching (Kőnig)"
    odd = knights_instance(11, torus=True)
    placement = [[r, c] for r in range(0, 9, 2) for c in range(0, 9, 2)]  # 25 knights, none attacked
    # a bound of 48: true (optimum 44), below the band bound's 49, so the solver's word only
    claim = row_from_result(Result("knights", "cpsat", Status.FEASIBLE, 25, 48, placement, 0.0), instance=odd)
    assert claim.verified and row_certified(claim) == "solver: CP-SAT"
    banded = row_from_result(
        Result("knights", "cpsat", Status.FEASIBLE, 25, 49, placement, 0.0), instance=odd
    )
    assert row_certified(banded).startswith("yes: band bound: a 6-row band holds at most 27 knights")


def test_compare_saves_one_answer_per_run(tmp_path, capsys):
    folder = tmp_path / "answers"
    argv = ["compare", "knights", "--suite", "seed", "--methods", "greedy,matching", "--answers", str(folder)]
    assert main([*argv, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    links = {row["answer"] for row in rows}  # a line of a worker's answers file each (FILE#N)
    assert len(links) == len(rows) > 0 and all(os.path.isabs(link) and "#" in link for link in links)
    lines = sum(len(path.read_text().splitlines()) for path in folder.glob("runs-*.jsonl"))
    assert lines == len(rows) and len(list(folder.glob("runs-*.jsonl"))) <= 2  # a file per worker
    for answer in links:
        assert main(["check", "-", answer]) == 0
    assert main(["check", "-", answer.split("#")[0] + "#99"]) == 2  # no such line: one line, exit 2
    capsys.readouterr()


def test_tour_nonexistence_beyond_the_checker_is_reported_as_solver_only(monkeypatch, capsys):
    from knightcert.problems.checkers import tour as tour_checker

    monkeypatch.setattr(tour_checker, "EXHAUSTIVE_SQUARES", 0)  # as if 3x7 were beyond the search
    # no theorem rules out an open 3 x 7 tour from the middle square; only a search does
    assert main(["tour", "3", "7", "--start", "1,3", "--method", "warnsdorff"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "No"
    assert out[1] == (
        "# by warnsdorff's own search; not independently certified "
        "(the board has 21 usable squares, beyond the checker's search (0))"
    )
    monkeypatch.setattr(tour_checker, "EXHAUSTIVE_NODES", 3)
    monkeypatch.setattr(tour_checker, "EXHAUSTIVE_SQUARES", 256)
    assert main(["tour", "3", "7", "--start", "1,3", "--method", "warnsdorff", "--show"]) == 0
    out = capsys.readouterr().out
    assert "the checker's search spent its budget of 3 nodes without deciding" in out


def test_the_command_line_checks_an_undecorated_method(fake_method, capsys):
    lie = Result("knights", "liar", Status.OPTIMAL, 15, 15, WHITES[:15], 0.0, verified=True)
    fake_method(lambda *a, **k: lie)
    assert main(["knights", "6", "--method", "greedy"]) == 1
    out = capsys.readouterr().out
    assert "NOT VERIFIED: optimal claim rejected: the checker's maximum matching proves 18 knights fit" in out


def test_tour_gaps_without_a_known_optimum():
    """On a board with holes nobody publishes an optimum: a verified tour is one (every tour
    covers all usable squares), so it has gap 0 and a dead end has 1 - covered / usable."""
    tour = row("auto", "FEASIBLE", 19, certified=True, problem="tour")
    dead = row("warnsdorff", "UNKNOWN", None, verified=False, problem="tour")
    dead.covered = 15
    fill_gaps([tour, dead])
    assert tour.gap == 0.0 and dead.gap == pytest.approx(1 - 15 / 19)


def test_a_resume_with_nothing_left_keeps_the_recorded_warmups(tmp_path):
    from knightcert.compare.comparison import run_comparison
    from knightcert.compare.suites import SuiteItem

    out = tmp_path / "r.json"
    run_comparison("knights", [SuiteItem(SIX, 6)], ["greedy"], out=out, workers=1)
    first = json.loads(out.read_text())["warmup_s"]
    runner.WARMED.clear()  # as in a new process: nothing warmed, nothing left to run
    run_comparison("knights", [SuiteItem(SIX, 6)], ["greedy"], out=out, workers=1)
    assert first and json.loads(out.read_text())["warmup_s"] == first


def test_a_process_keeps_few_answers_files_open_whatever_the_folders(tmp_path):
    """A persistent worker saves runs of comparison after comparison, each into its own
    folder (often deleted since): the files it keeps open stay few, not one per folder ever used."""

    def held() -> list[str]:
        links = [f"/proc/self/fd/{fd}" for fd in os.listdir("/proc/self/fd")]
        names = [os.readlink(link) for link in links if os.path.islink(link)]  # listdir's own is gone
        return [name for name in names if str(tmp_path) in name and "runs-" in name]

    for k in range(8):
        row = run_task(Task("knights", SIX, "greedy", answers=str(tmp_path / f"study-{k}")))
        assert row.verified and row.answer == next((tmp_path / f"study-{k}").glob("runs-*")).name + "#1"
    assert 1 <= len(held()) <= 4


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
def test_a_process_forked_while_another_thread_saves_can_save(tmp_path):
    """A fork while another thread holds the answers' lock (saving a run) gives the child a lock
    of its own and no open files of its parent: its first save does not wait forever."""
    with runner._ANSWERS_LOCK:  # as another thread in the middle of a save
        pid = os.fork()
        if pid == 0:  # the child: save a run, then say how it went by the exit code
            row = run_task(Task("knights", SIX, "greedy", answers=str(tmp_path / "child")))
            os._exit(0 if row.verified and not runner._ANSWERS_LOCK.locked() else 1)
    for _ in range(600):  # a minute at most: a child stuck on the lock is killed, and fails
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        done, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_no_reference_run_when_a_run_certified_the_optimum():
    """An exact method stopped short (bnb, FEASIBLE, gap > 0) needs a reference run only when no
    run of the instance certified the optimum (on an odd torus the reference method refuses)."""
    from knightcert.compare.comparison import needs_reference

    rows = [row("cpsat", "OPTIMAL", 52, certified=True), row("bnb", "FEASIBLE", 48)]
    fill_gaps(rows)
    assert rows[1].gap > 0 and not needs_reference(rows)
    alone = [row("bnb", "FEASIBLE", 48, bound=52)]
    fill_gaps(alone)
    assert alone[0].gap > 0 and needs_reference(alone)


LIAR = """
def solve(instance, time_limit=None, seed=None):
    with open("calls.txt", "a") as stream:
        stream.write("call\\n")
    return {"status": "OPTIMAL", "objective": 1, "solution": [[0, 0]]}
"""


def test_a_resume_keeps_a_rejected_run_rejected(tmp_path, monkeypatch):
    """A twelfth-session reviewer's finding: a resume ran every rejected run again (its answer file
    was read back as "not backed"), so a method's rejections shrank resume after resume."""
    (tmp_path / "liar.py").write_text(LIAR)
    monkeypatch.chdir(tmp_path)
    argv = ["compare", "knights", "--suite", "seed", "--methods", "liar:solve", "--out", "r.json", "--quiet"]
    calls = []
    for _ in range(2):
        assert main(argv) == 1
        calls.append((tmp_path / "calls.txt").read_text().count("call"))
    runs = json.loads((tmp_path / "r.json").read_text())["runs"]
    assert len(runs) == 3 and not any(run["verified"] for run in runs)
    assert calls[1] == calls[0], calls  # nothing run again


def test_a_resume_refuses_when_a_methods_file_changed(tmp_path, monkeypatch):
    """A twelfth-session reviewer's finding: a report resumed after its method's file changed held
    the runs of two programs and named only the second one's SHA-256."""
    (tmp_path / "changing.py").write_text(LIAR)  # a name of its own: other tests import theirs
    monkeypatch.chdir(tmp_path)
    argv = ["compare", "knights", "--suite", "seed", "--methods", "changing:solve", "--out", "r.json"]
    assert main([*argv, "--quiet"]) == 1
    report = json.loads((tmp_path / "r.json").read_text())
    report["runs"] = report["runs"][:1]  # as if interrupted
    (tmp_path / "r.json").write_text(json.dumps(report))
    (tmp_path / "changing.py").write_text(LIAR.replace('"objective": 1', '"objective": 2'))
    assert main([*argv, "--quiet"]) == 2
    assert json.loads((tmp_path / "r.json").read_text()) == report  # untouched


def test_a_gap_on_an_uncertified_value_says_so():
    """A twelfth-session reviewer's finding: gaps on a published optimum, or on CP-SAT's own bound,
    read as gaps to a certified optimum. The reference run's certified value comes first."""
    greedy, cpsat = row("greedy", "FEASIBLE", 8), row("cpsat", "FEASIBLE", 9, bound=11)
    cpsat.kind = "exact"
    fill_gaps([greedy, cpsat], {"i": 10})
    assert greedy.gap == pytest.approx(0.2) and greedy.reference == "gap on 10, uncertified"
    assert cpsat.gap == pytest.approx(2 / 11) and cpsat.reference == "gap on its own bound, uncertified"
    greedy.reference = cpsat.reference = ""
    fill_gaps([greedy, cpsat], {"i": 10}, {"i": 12})
    assert greedy.gap == pytest.approx(1 / 3) and cpsat.gap == pytest.approx(0.25)
    assert greedy.reference == cpsat.reference == ""
