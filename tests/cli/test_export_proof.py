"""``--export-proof DIR`` (issue 42): the proof of a knights bound as DIMACS + text LRAT that a
reviewer checks without knightcert; re-read here by the test's own DIMACS reader and checked by
the project's LRAT checker (drat-trim's lrat-check on the same files: bench/check_exported_proofs.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knightcert.cli.main import main
from knightcert.models.knights_sat import prove_upper_bound
from knightcert.problems.answers import answer_to_dict
from knightcert.problems.checkers.knights_cnf import knights_cnf
from knightcert.problems.checkers.lrat import check_lrat
from knightcert.problems.checkers.lrat_files import lrat_text_to_binary
from knightcert.problems.independent_knights import knights_instance
from knightcert.solving import solve

SEVEN = knights_instance(7, 7, torus=True)


def read_dimacs(text: str) -> tuple[int, list[list[int]]]:
    """The test's own DIMACS reader: the header's variable count and the clauses, checked
    against the header's clause count; every literal within the variables."""
    lines = [line for line in text.splitlines() if line and not line.startswith("c")]
    kind, form, variables, count = lines[0].split()
    assert (kind, form) == ("p", "cnf")
    clauses = []
    for line in lines[1:]:
        numbers = [int(word) for word in line.split()]
        assert numbers[-1] == 0 and 0 not in numbers[:-1]
        assert all(abs(v) <= int(variables) for v in numbers[:-1])
        clauses.append(numbers[:-1])
    assert len(clauses) == int(count)
    return int(variables), clauses


@pytest.fixture(scope="module")
def seven_answer(tmp_path_factory) -> str:
    """An answer file for the 7 x 7 torus (optimum 14) carrying the producer's proof of "no 15"
    (lex-leader clauses, counter by knight lines: the formula the command line proves)."""
    entry, _ = prove_upper_bound(SEVEN, 14)
    assert entry is not None and entry["lex"] and entry["lines"]
    result = solve(SEVEN, method="bnb")
    path = tmp_path_factory.mktemp("answer") / "seven.json"
    path.write_text(json.dumps(answer_to_dict(result.with_(certificate={"drat": entry}), SEVEN)))
    return str(path)


def named(entry: dict) -> dict:
    """The numbers of an entry that say which formula it refutes."""
    return {key: entry.get(key, 0) for key in ("lex", "lines", "balanced")}


def test_check_exports_the_formula_and_proof_the_checker_accepts(tmp_path, capsys, seven_answer):
    folder = tmp_path / "p"
    assert main(["check", "7", "--torus", seven_answer, "--export-proof", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "certified: LRAT proof (" in out and f"proof exported to {folder}" in out
    entry = json.loads(Path(seven_answer).read_text())["certificate"]["drat"]
    variables, clauses = read_dimacs((folder / "formula.cnf").read_text())
    # exactly the checker's formula, clause for clause, and the proof refutes it as text too
    assert (variables, clauses) == knights_cnf(SEVEN.board, 15, **named(entry))
    text = (folder / "proof.lrat").read_text()
    checked = check_lrat(clauses, lrat_text_to_binary(text))
    assert checked.refuted and checked.lemmas == len(text.splitlines())
    fits = knights_cnf(SEVEN.board, 14, **named(entry))[1]
    assert not check_lrat(fits, lrat_text_to_binary(text)).refuted
    readme = (folder / "README").read_text()
    assert "lrat-check formula.cnf proof.lrat" in readme and "cake_lpr formula.cnf proof.lrat" in readme
    assert "'at least 15 independent knights' on the 7 x 7 torus" in readme


def test_json_output_stays_json_and_the_embedded_instance_serves(tmp_path, capsys, seven_answer):
    folder = tmp_path / "q"
    assert main(["check", "-", seven_answer, "--json", "--export-proof", str(folder)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["certified"] and "proof exported" in captured.err
    assert (folder / "formula.cnf").is_file() and (folder / "proof.lrat").is_file()


def test_knights_exports_its_own_proof(tmp_path, capsys, monkeypatch):
    """``knightcert knights`` writes the proof its answer rests on (the 7 x 7 torus made to
    need one by lowering the checker's own search to 40 squares)."""
    import knightcert.problems.checkers.knights as checker

    monkeypatch.setattr(checker, "SEARCH_SQUARES", 40)
    folder = tmp_path / "k"
    assert main(["knights", "7", "--torus", "--export-proof", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "LRAT proof (" in out and "proof exported" in out
    _, clauses = read_dimacs((folder / "formula.cnf").read_text())
    assert check_lrat(clauses, lrat_text_to_binary((folder / "proof.lrat").read_text())).refuted


def test_fixed_knights_export_the_instances_formula_with_their_units(tmp_path, capsys, monkeypatch):
    """Issue 37: fixed knights (the 7 x 7 torus's optimum drops to 13) are units of the exported
    formula, the instance's own board (before: the rest's proof was written beside the formula of
    the whole torus without them, which 14 knights satisfy); ``check`` re-exports the same files."""
    import knightcert.problems.checkers.knights as checker

    monkeypatch.setattr(checker, "SEARCH_SQUARES", 10)
    fixed = ["--fixed", "0,0", "--fixed", "0,1", "--fixed", "1,1"]
    answer, folder, again = tmp_path / "a.json", tmp_path / "k", tmp_path / "c"
    assert (
        main(["knights", "7", "--torus", *fixed, "--save", str(answer), "--export-proof", str(folder)]) == 0
    )
    assert main(["check", "7", "--torus", *fixed, str(answer), "--export-proof", str(again)]) == 0
    assert "the 3 fixed knights as units" in capsys.readouterr().out
    formula = read_dimacs((folder / "formula.cnf").read_text())
    entry = json.loads(answer.read_text())["certificate"]["drat"]
    units = ((0, 0), (0, 1), (1, 1))
    assert (
        formula == knights_cnf(SEVEN.board, 14, lines=entry["lines"], fixed=units) and entry["knights"] == 14
    )
    proof = lrat_text_to_binary((folder / "proof.lrat").read_text())
    assert check_lrat(formula[1], proof).refuted
    assert (again / "formula.cnf").read_text() == (folder / "formula.cnf").read_text()
    assert "knights fixed on [(0, 0), (0, 1), (1, 1)]" in (folder / "README").read_text()


def test_nothing_is_written_without_a_proof(tmp_path, capsys):
    folder = tmp_path / "none"
    assert main(["knights", "4", "--export-proof", str(folder)]) == 0
    assert "nothing written" in capsys.readouterr().out and not folder.exists()


@pytest.mark.parametrize("where", ["a file", "no parent"])
@pytest.mark.parametrize("command", [["knights", "11", "--torus"], ["check", "7", "--torus", "x.json"]])
def test_a_bad_folder_is_one_line_and_exit_2_before_any_work(tmp_path, capsys, monkeypatch, where, command):
    import knightcert.cli.watched as watched

    monkeypatch.setattr(watched, "run_watched", lambda *args, **kw: pytest.fail("solved"))
    target = tmp_path / "file"
    target.write_text("")
    bad = target if where == "a file" else tmp_path / "missing" / "p"
    assert main([*command, "--export-proof", str(bad)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--export-proof" in err


@pytest.mark.slow  # builds drat-trim's lrat-check (cc) from LRAT_CHECK_SOURCE; skipped without it
def test_drat_trims_lrat_check_verifies_the_exported_files(tmp_path, capsys, seven_answer):
    """A checker that shares no code with knightcert accepts the exported 7 x 7 proof and
    refuses it against the formula of "at least 14" (which 14 knights satisfy). Set
    ``LRAT_CHECK_SOURCE`` to a folder holding drat-trim's ``lrat-check.c``
    (``git clone https://github.com/marijnheule/drat-trim``); bench/check_exported_proofs.py
    does the same for 5 x 5, 7 x 7 and 11 x 11 tori through the command line."""
    import os
    import shutil
    import subprocess

    source = Path(os.environ.get("LRAT_CHECK_SOURCE", "")) / "lrat-check.c"
    compiler = shutil.which("cc")
    if not os.environ.get("LRAT_CHECK_SOURCE") or not source.is_file() or compiler is None:
        pytest.skip("LRAT_CHECK_SOURCE names no folder with lrat-check.c, or no cc")
    checker = tmp_path / "lrat-check"
    subprocess.run([compiler, "-O2", "-o", str(checker), str(source)], check=True)
    folder = tmp_path / "p"
    assert main(["check", "7", "--torus", seven_answer, "--export-proof", str(folder)]) == 0
    capsys.readouterr()
    cnf, proof = str(folder / "formula.cnf"), str(folder / "proof.lrat")
    verdict = subprocess.run([str(checker), cnf, proof], capture_output=True, text=True)
    assert "c VERIFIED" in verdict.stdout.splitlines() and verdict.returncode == 0
    entry = json.loads(Path(seven_answer).read_text())["certificate"]["drat"]
    variables, fits = knights_cnf(SEVEN.board, 14, **named(entry))
    lines = [f"p cnf {variables} {len(fits)}", *(" ".join(map(str, [*clause, 0])) for clause in fits)]
    (tmp_path / "fits.cnf").write_text("\n".join(lines) + "\n")
    verdict = subprocess.run([str(checker), str(tmp_path / "fits.cnf"), proof], capture_output=True)
    assert b"c VERIFIED" not in verdict.stdout.splitlines()


def test_a_proof_is_never_written_over_a_users_file_nor_through_a_link(tmp_path, capsys):
    """An eleventh-session reviewer's finding: ``--export-proof .`` replaced a user's README, and a
    link named ``proof.lrat`` (or the ``--export-model`` file) wrote the proof into its target."""
    (tmp_path / "README").write_text("mine\n")
    assert main(["knights", "11", "--torus", "--export-proof", str(tmp_path)]) == 2
    assert (tmp_path / "README").read_text() == "mine\n" and not (tmp_path / "proof.lrat").exists()
    said = capsys.readouterr()
    assert "README exists" in said.err and said.out == ""  # refused before solving: no answer printed
    target = tmp_path / "target.txt"
    target.write_text("victim\n")
    (tmp_path / "m.pbtxt").symlink_to(target)
    assert main(["knights", "6", "--export-model", str(tmp_path / "m.pbtxt")]) == 0
    assert target.read_text() == "victim\n" and not (tmp_path / "m.pbtxt").is_symlink()
