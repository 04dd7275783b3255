"""Bring your own method: registered names, callables, module paths, programs, plug-ins.

A foreign method is a suspect: every answer goes through the checker, its unproven claims
never serve as a reference, a crash, hang or garbage is one truthful row, and the
comparison always completes (locally and on a Dask LocalCluster).
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

import knightcert
from knightcert.cli.main import main
from knightcert.compare.comparison import run_comparison
from knightcert.compare.harness import Row, fill_gaps
from knightcert.compare.suites import SuiteItem
from knightcert.problems.errors import InvalidArgument, UnknownMethod
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.lost_knight import parse_lost_knight
from knightcert.problems.result import Result, Status
from knightcert.registry import MethodRef, register_method, resolve, unregister_method

SIX = knights_instance(6)  # optimum 18 (matching + Kőnig)
WHITES = [[r, c] for r in range(6) for c in range(6) if (r + c) % 2 == 0]
PYTHON = sys.executable


def program(tmp_path: Path, name: str, body: str) -> str:
    """``exec:python FILE``: a small program written into ``tmp_path``."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return f"exec:{PYTHON} {path}"


# --------------------------------------------------------------------------- python methods


def whites(instance, time_limit=None, seed=None):
    """A valid placement (one colour class) on 6x6: 18 knights, the optimum."""
    return {"status": "FEASIBLE", "objective": len(WHITES), "solution": WHITES}


def below_optimum(instance, time_limit=None, seed=None):
    """Claims OPTIMAL with 17 knights where 18 fit."""
    return {"status": "OPTIMAL", "objective": 17, "bound": 17, "solution": WHITES[:17]}


def attacking(instance, time_limit=None, seed=None):
    return {"status": "FEASIBLE", "objective": 2, "solution": [[0, 0], [1, 2]]}


def garbage(instance, time_limit=None, seed=None):
    return "eighteen knights, trust me"


def sleeper(instance, time_limit=None, seed=None):
    time.sleep(60)


def crash(instance, time_limit=None, seed=None):
    raise RuntimeError("my method broke")


def self_named(instance, time_limit=None, seed=None):
    """Returns a Result that names another method and instance, and says it is verified."""
    return Result(
        "knights", "matching", Status.FEASIBLE, 18, None, WHITES, 0.0, verified=True, instance="7x7"
    )


def test_register_method_and_solve():
    register_method("knights", "whites", whites)
    try:
        result = knightcert.solve(SIX, method="whites")
        assert (result.method, result.instance, result.objective) == ("whites", "6x6", 18)
        assert result.verified and result.certified  # a placement is certified by the checker
        assert resolve("knights", "whites").origin == "registered"
    finally:
        unregister_method("knights", "whites")
    with pytest.raises(UnknownMethod, match="choose one of matching"):
        knightcert.solve(SIX, method="whites")


def test_register_method_refuses_builtin_names_and_non_callables():
    with pytest.raises(InvalidArgument, match="built-in"):
        knightcert.register_method("knights", "greedy", whites)
    with pytest.raises(InvalidArgument, match="callable"):
        knightcert.register_method("knights", "x", 3)
    with pytest.raises(InvalidArgument, match="without ':'"):
        knightcert.register_method("knights", "a:b", whites)
    with pytest.raises(UnknownMethod, match="unknown problem"):
        knightcert.register_method("chess", "x", whites)


def test_callable_rows_are_named_by_the_task_never_by_the_method():
    rows = run_comparison("knights", [SuiteItem(SIX, 6)], [self_named, "matching"], workers=1)
    mine = next(r for r in rows if r.method == "self_named")
    assert (mine.instance, mine.kind, mine.origin) == ("6x6", "heuristic", "python")
    assert mine.verified and mine.gap == 0.0


def test_declared_exact_kind_but_claims_count_only_when_certified():
    register_method("knights", "proud", below_optimum, exact=True)
    try:
        rows = run_comparison("knights", [SuiteItem(SIX, 6)], ["proud", "matching"], workers=1)
    finally:
        unregister_method("knights", "proud")
    proud = next(r for r in rows if r.method == "proud")
    assert proud.kind == "exact" and not proud.verified
    assert "optimal claim rejected" in proud.error
    matching = next(r for r in rows if r.method == "matching")
    assert (
        matching.verified and matching.gap == 0.0 and not matching.error
    )  # the correct method is not blamed


def test_unproven_foreign_optimum_is_never_a_reference():
    """On a board the checker cannot certify (odd torus above 100 squares) a foreign OPTIMAL is
    shown as unproven; it neither sets the reference nor escapes a mark when it differs."""
    rows = [
        Row("knights", "t", "mine", "OPTIMAL", 40, 40, None, 0.1, None, None, True, "", False,
            "answer: certificate; optimal: none (claimed by mine)", origin="python", kind="exact"),
        Row("knights", "t", "cpsat", "OPTIMAL", 44, 44, None, 0.1, None, None, True, "", False,
            "answer: certificate; optimal: solver (CP-SAT)", origin="built-in", kind="exact"),
        Row("knights", "t", "greedy", "FEASIBLE", 42, None, None, 0.1, None, None, True, "", True,
            "answer: certificate", origin="built-in", kind="heuristic"),
    ]  # fmt: skip
    fill_gaps(rows)
    mine, cpsat, greedy = rows
    assert "claims optimal 40 (unproven); the reference value is 44" in mine.error
    assert mine.gap == pytest.approx(4 / 44) and greedy.gap == pytest.approx(2 / 44)
    assert not cpsat.error


def test_foreign_claims_the_checker_cannot_certify_read_unproven():
    def torus_liar(instance, time_limit=None, seed=None):
        board = instance.board
        spots = [[r, c] for r in range(0, board.rows - 1, 2) for c in range(0, board.cols - 1, 2)]
        spots = [s for s in spots if (s[0] // 2 + s[1] // 2) % 2 == 0]
        return {"status": "OPTIMAL", "objective": len(spots), "solution": spots}

    torus = knights_instance(11, torus=True)  # 121 squares: beyond the checker's own search
    result = knightcert.solve(torus, method=torus_liar)
    assert result.verified and not result.certified
    optimal = next(e for e in result.evidence if e.claim == "optimal")
    assert optimal.backing.value == "none" and "claimed by" in optimal.how


# ------------------------------------------------------------------------------ programs

LIARS = {
    "garbage": "print('my answer is 42')\n",
    "exit3": "import sys\nprint('cannot solve this one', file=sys.stderr)\nsys.exit(3)\n",
    "flood": "import sys\nchunk = 'x' * (1 << 20)\nfor _ in range(100):\n    sys.stdout.write(chunk)\n",
    "sleeps": "import time\ntime.sleep(60)\n",
    "below": "import json\nprint(json.dumps({'status': 'OPTIMAL', 'objective': 17, 'solution': "
    + repr(WHITES[:17])
    + "}))\n",
    "attacks": "import json\n"
    "print(json.dumps({'status': 'FEASIBLE', 'objective': 2, 'solution': [[0, 0], [1, 2]]}))\n",
    "nan": 'print(\'{"status": "FEASIBLE", "objective": NaN, "solution": [[0, 0]]}\')\n',
}
#: What each liar's row says.
EXPECTED = {
    "garbage": "unreadable answer",
    "exit3": "exited with code 3: cannot solve this one",
    "flood": "printed more than 64 MB",
    "sleeps": "time limit",
    "below": "optimal claim rejected",
    "attacks": "answer rejected",
    "nan": "objective",
}


def liar_methods(tmp_path: Path) -> dict[str, str]:
    return {name: program(tmp_path, name, body) for name, body in LIARS.items()}


def check_liar_rows(rows: list[Row], methods: dict[str, str]) -> None:
    by_method = {row.method: row for row in rows}
    assert set(by_method) >= set(methods.values()) | {"matching"}
    for name, method in methods.items():
        row = by_method[method]
        assert not row.verified, name
        assert EXPECTED[name] in row.error, (name, row.error)
        assert row.origin == "program" and row.instance == "6x6"
    matching = by_method["matching"]
    assert matching.verified and matching.certified and not matching.error and matching.gap == 0.0


@pytest.mark.heavy
def test_lying_programs_get_one_truthful_row_each(tmp_path):
    methods = liar_methods(tmp_path)
    began = time.perf_counter()
    rows = run_comparison(
        "knights", [SuiteItem(SIX, 6)], ["matching", *methods.values()], time_limit=1, workers=2
    )
    assert len(rows) == len(methods) + 1
    check_liar_rows(rows, methods)
    assert time.perf_counter() - began < 30  # the sleeper was killed near its limit, not at 60 s


def test_a_foreign_methods_warm_up_saves_no_answer(tmp_path):
    """The untimed first run of a foreign Python method on its worker is no run: no answer line."""
    answers = tmp_path / "answers"
    rows = run_comparison("knights", [SuiteItem(SIX, 6)], ["matching", whites], workers=1, answers=answers)
    lines = [line for path in answers.glob("runs-*.jsonl") for line in path.read_text().splitlines()]
    assert sorted(row.method for row in rows) == ["matching", "whites"] and all(row.verified for row in rows)
    assert len(lines) == 2 and all(row.answer for row in rows)


BIG = knights_instance(400)
WHITE_400 = [[r, c] for r in range(400) for c in range(400) if (r + c) % 2 == 0]  # 80,000 knights


def prebuilt(instance, time_limit=None, seed=None):
    """Hands over a prebuilt answer: its call costs next to nothing."""
    return {"status": "FEASIBLE", "objective": len(WHITE_400), "solution": WHITE_400}


def test_a_foreign_methods_cpu_is_its_call_alone_as_its_time():
    """``cpu_s`` of a Python method spans what ``time_s`` spans: not the copy of the instance, nor
    reading its 80,000 knights (tens of milliseconds), which its call does not do."""
    [row] = run_comparison("knights", [SuiteItem(BIG, 400)], [prebuilt], workers=1)
    assert row.verified and row.time_s < 0.01 and row.cpu_s < 0.01


@pytest.mark.heavy
def test_lying_python_methods_get_one_truthful_row_each():
    rows = run_comparison(
        "knights",
        [SuiteItem(SIX, 6)],
        ["matching", below_optimum, attacking, garbage, crash, sleeper],
        time_limit=1,
        workers=2,
    )
    by_method = {row.method: row for row in rows}
    assert "optimal claim rejected" in by_method["below_optimum"].error
    assert "answer rejected" in by_method["attacking"].error
    assert "must return a Result or an answer dict" in by_method["garbage"].error
    assert "my method broke" in by_method["crash"].error
    assert "time limit: the method's call had not returned" in by_method["sleeper"].error  # at its budget
    assert all(
        not by_method[m].verified for m in ("below_optimum", "attacking", "garbage", "crash", "sleeper")
    )
    assert by_method["matching"].verified and by_method["matching"].gap == 0.0


def test_program_contract(tmp_path):
    """The program gets the instance file, the time limit, the seed and the flags."""
    method = program(
        tmp_path,
        "echo",
        """
        import json, os, sys
        text = open(sys.argv[-1]).read()
        data = json.load(open(os.environ["KNIGHTCERT_INSTANCE_JSON"]))
        print(json.dumps({"status": "UNKNOWN", "info": {
            "text": text, "rows": data["rows"], "torus": os.environ["KNIGHTCERT_TORUS"],
            "limit": os.environ["KNIGHTCERT_TIME_LIMIT"], "seed": os.environ["KNIGHTCERT_SEED"],
            "problem": os.environ["KNIGHTCERT_PROBLEM"],
            "same": sys.argv[-1] == os.environ["KNIGHTCERT_INSTANCE"]}}))
        """,
    )
    result = knightcert.solve(knights_instance(2, 3, torus=True), method=method, time_limit=7, seed=5)
    info = result.info["method_info"]  # the program's own info, kept apart from knightcert's
    assert info["text"] == "...\n...\n" and info["rows"] == 2 and info["torus"] == "1"
    assert (info["limit"], info["seed"], info["problem"], info["same"]) == ("7.0", "5", "knights", True)
    assert result.status is Status.UNKNOWN and result.method == method


def test_deliberately_longer_path_program_has_the_right_gap():
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "longer_path.py"
    instance = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n", name="tiny")
    rows = run_comparison("path", [SuiteItem(instance, 6)], ["bfs", f"exec:{PYTHON} {example}"], workers=1)
    bfs, mine = rows
    assert bfs.certified and bfs.objective == 2
    assert mine.verified and mine.certified and mine.objective == 4 and mine.gap == pytest.approx(1.0)


def test_cli_method_forms(tmp_path, monkeypatch, capsys):
    (tmp_path / "mymod.py").write_text(
        "WHITES = " + repr(WHITES) + "\n"
        "def solve(instance, time_limit=None, seed=None):\n"
        "    return {'status': 'FEASIBLE', 'objective': 18, 'solution': WHITES}\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    assert main(["knights", "6", "--method", "mymod:solve"]) == 0
    assert "18 knights (mymod:solve: FEASIBLE" in capsys.readouterr().out
    assert (
        main(
            [
                "compare",
                "knights",
                "--suite",
                "scaling",
                "--sizes",
                "6",
                "--methods",
                "greedy,mymod:solve",
                "--json",
            ]
        )
        == 0
    )
    rows = json.loads(capsys.readouterr().out)
    assert {r["method"] for r in rows} == {"greedy", "mymod:solve"}
    for argv, words in [
        (["knights", "6", "--method", "mymod:nothing"], "has no function 'nothing'"),
        (["knights", "6", "--method", "nomod:solve"], "cannot import 'nomod'"),
        (["knights", "6", "--method", "exec:./missing-solver"], "not found"),
        (["knights", "6", "--method", "exec:"], "no command"),
        (["knights", "6", "--method", "nosuch"], "or give package.module:function or exec:COMMAND"),
        (["compare", "knights", "--methods", "greedy", "--upload", "mymod.py"], "use it with --dask"),
    ]:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err


def test_split_methods_keeps_a_command_whole():
    from knightcert.cli.options import split_methods

    assert split_methods(["greedy,matching", "exec:./s --a,b"]) == ["greedy", "matching", "exec:./s --a,b"]


def test_plugin_entry_point(tmp_path, monkeypatch):
    (tmp_path / "myplug.py").write_text(
        "WHITES = " + repr(WHITES) + "\n"
        "def solve(instance, time_limit=None, seed=None):\n"
        "    return {'status': 'FEASIBLE', 'objective': 18, 'solution': WHITES}\n"
        "solve.exact = False\n"
    )
    info = tmp_path / "myplug-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: myplug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[knightcert.methods]\nknights.whites = myplug:solve\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    ref = resolve("knights", "whites")
    assert isinstance(ref, MethodRef) and ref.origin == "plug-in"
    result = knightcert.solve(SIX, method="whites")
    assert result.verified and result.objective == 18 and result.method == "whites"
    assert "whites" in knightcert.registry.available("knights")


def test_instance_command_writes_the_suite_instance(capsys):
    from knightcert.compare.suites import SuiteSpec, build_suite
    from knightcert.problems.instance_files import format_instance

    assert main(["instance", "knights", "20", "--holes", "0.1", "--seed", "3"]) == 0
    written = capsys.readouterr().out
    suite = build_suite("knights", SuiteSpec("random", sizes=(20,), seeds=(3,), holes=0.1))
    assert written == format_instance(suite[0].instance)
    assert main(["instance", "path", "8", "--seed", "2"]) == 0
    board = parse_lost_knight(capsys.readouterr().out)
    assert board.board.rows == 8
    assert main(["instance", "knights", "5", "--holes", "1.5"]) == 2
    assert "holes must be in [0, 1)" in capsys.readouterr().err


# ---------------------------------------------------------------------------------- Dask


@pytest.mark.heavy
def test_lying_methods_on_a_dask_local_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    methods = liar_methods(tmp_path)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        rows = run_comparison(
            "knights",
            [SuiteItem(SIX, 6)],
            ["matching", *methods.values()],
            time_limit=1,
            executor=client.get_executor(),
        )
        check_liar_rows(rows, methods)
        python_rows = run_comparison(
            "knights",
            [SuiteItem(SIX, 6)],
            ["matching", below_optimum, sleeper],
            time_limit=1,
            executor=client.get_executor(),
        )
        by_method = {row.method: row for row in python_rows}
        assert "optimal claim rejected" in by_method["below_optimum"].error
        assert "time limit" in by_method["sleeper"].error
        assert by_method["matching"].verified
        # a program missing on the workers, or a module they cannot import: one clear error
        for method, words in [
            ("exec:./not-on-the-workers", "not found"),
            ("nomodule_anywhere:solve", "cannot import"),
        ]:
            from knightcert.cli.compare import check_methods_on_workers

            with pytest.raises(knightcert.KnightcertError, match=words):
                check_methods_on_workers(client, "knights", [method])


# ------------------------------------------------------------------- the document's examples

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "your-own-method.md").read_text()


def test_doc_python_example_prints_what_the_doc_shows(tmp_path):
    """Run as a script, as a reader runs it: its function is ``__main__``'s (a twelfth-session
    reviewer's finding: pickle sent it by a name the workers' own ``__main__`` did not hold)."""
    import re
    import subprocess

    block, shown = re.search(r"```python\n(.*?)```\n\nprints.*?```text\n(.*?)```", DOC, flags=re.S).groups()
    (tmp_path / "example.py").write_text(block)
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    script = [sys.executable, "example.py"]
    done = subprocess.run(script, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.stdout == shown, done.stderr


def doc_commands() -> list[list[str]]:
    import re
    import shlex

    commands = []
    for block in re.findall(r"```console\n(.*?)```", DOC, flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ knightcert "):
                commands.append(shlex.split(line[2:])[1:])
    return commands


@pytest.mark.parametrize("argv", doc_commands(), ids=lambda argv: " ".join(argv)[:50])
def test_doc_commands_give_verified_rows_and_true_gaps(argv, capsys, monkeypatch, shared_data):
    """The doc's commands run from docs/examples; every row verified, and each foreign row's gap
    is its distance to the optimum the certified exact row of the same instance proves."""
    monkeypatch.chdir(ROOT / "docs" / "examples")
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".")])
    assert main([*argv, "--json", "--quiet"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and all(row["verified"] for row in rows)
    foreign = [row for row in rows if row["origin"] not in ("built-in",)]
    assert foreign
    for row in foreign:
        proven = next(r for r in rows if r["instance"] == row["instance"] and r["certified"]
                      and r["status"] == "OPTIMAL")  # fmt: skip
        expected = abs(row["objective"] - proven["objective"]) / proven["objective"]
        assert row["gap"] == pytest.approx(expected) and row["certified"]
