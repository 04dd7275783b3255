"""Tests that kill the survivors of the mutation runs on the clausal-proof checker code: the
fixed-knights claim backed by a proof (issue 37, ``knights.py`` ``_certify_with_fixed``) and
the proofs in cases (issue 42: ``knights_cnf.case_clauses``, the cases in
``clausal_proof.proof_entry``, ``knights.check_bound_proof`` and ``lrat_files.export_proof``);
cosmic-ray, core and quiet operators (docs/certificates.md, "Mutation testing")."""

from __future__ import annotations

import dataclasses
import itertools
import re

import pytest

import knightcert.models.knights_sat as producer
import knightcert.problems.checkers.lrat as lrat
from knightcert.models.knights_sat import prove_upper_bound
from knightcert.problems.checkers import CheckFailed, certify
from knightcert.problems.checkers.clausal_proof import encode_proof, proof_entry
from knightcert.problems.checkers.knights import check_bound_proof
from knightcert.problems.checkers.knights_cnf import case_clauses, knights_cnf
from knightcert.problems.checkers.lrat import check_lrat
from knightcert.problems.checkers.lrat_files import export_proof, lrat_text_to_binary
from knightcert.problems.independent_knights import knights_instance, rest_of
from knightcert.problems.result import Backing
from knightcert.solving import solve

FIXED = knights_instance(4, 4, torus=True, fixed=((0, 0),))
TORUS = knights_instance(4, 4, torus=True)


@pytest.fixture(scope="module")
def fixed_proof() -> dict:
    """CaDiCaL's proof that the 4 x 4 torus with a knight fixed on (0, 0) holds no 9 knights
    (the rest's optimum is 7): the entry the solver attaches for a fixed-knights bound."""
    entry, info = prove_upper_bound(rest_of(FIXED), 7)
    assert entry is not None, info
    return entry


def test_a_fixed_knights_bound_backed_by_a_proof_gets_no_rest_aside(fixed_proof):
    """The proof refutes the whole instance's formula (the fixed knight as a unit), not the
    rest's: its evidence names the fixed knight once, without the "board without the fixed
    knights" aside the rest's certificates get."""
    best = solve(FIXED, "matching")
    assert best.objective == 8
    evidence = certify(FIXED, best.with_(certificate={"drat": fixed_proof})).evidence
    assert [(e.claim, e.backing) for e in evidence] == [
        ("answer", Backing.CERTIFICATE),
        ("optimal", Backing.PROOF),
    ]
    how = r"LRAT proof \(\d+ lemmas, the 1 fixed knight as units, checked in \d+\.\d s\)"
    assert re.fullmatch(how, evidence[1].how), evidence[1].how


# ------------------------------------------------------------------------ proofs in cases


@pytest.fixture(scope="module")
def split_proof() -> dict:
    """The producer's proof that the 4 x 4 torus holds no 9 knights (optimum 8), split as on
    the large tori: level 8, thresholds 3, 5, 7 (the size from which it splits lowered)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(producer, "SPLIT_SQUARES", 1)
        entry, info = producer.prove_upper_bound(TORUS, 8)
    assert entry is not None and info["proof"].endswith("in 4 cases"), info
    assert (entry["level"], entry["thresholds"]) == (8, [3, 5, 7])
    return entry


def test_a_proof_in_cases_adds_up_every_case_s_lemmas_and_seconds(split_proof, monkeypatch):
    """Each case checked once, in order; the evidence sums their lemmas and seconds (each
    case's check said to take 0.25 s more than the one before and to add 3 lemmas)."""
    real, checks = lrat.check_lrat, []

    def counted(clauses, proof):
        checks.append(real(clauses, proof))
        return dataclasses.replace(checks[-1], lemmas=3, seconds=0.25 * len(checks))

    monkeypatch.setattr(lrat, "check_lrat", counted)
    how = check_bound_proof(TORUS.board, split_proof)
    assert [c.refuted for c in checks] == [True] * 4
    assert how == (
        "LRAT proof (12 lemmas in 4 cases split at counter level 8, "
        "translations broken by lex-leader clauses, checked in 2.5 s)"
    )


def test_a_proof_in_cases_exports_one_pair_per_case_and_says_so(split_proof, tmp_path):
    """Each case's formula (re-read by the test) is the formula with the case's clauses after
    it and its proof refutes it; the line sums the cases' additions; the README gives case 0's
    sizes, the bound and the split. Exported again into the same folders: the same."""
    from tests.cli.test_export_proof import read_dimacs

    _, base = knights_cnf(TORUS.board, 9, lex=16)
    assert [split_proof[key] for key in ("knights", "lex")] == [9, 16] and "lines" not in split_proof
    for _ in range(2):
        line = export_proof(TORUS.board, split_proof, str(tmp_path))
        sizes, added = [], []
        for a in range(4):
            variables, clauses = read_dimacs((tmp_path / f"case-{a}" / "formula.cnf").read_text())
            assert clauses == base + case_clauses(16, 9, 8, [3, 5, 7], a)
            proof = lrat_text_to_binary((tmp_path / f"case-{a}" / "proof.lrat").read_text())
            checked = check_lrat(clauses, proof)
            assert checked.refuted
            sizes.append(len(clauses))
            added.append(checked.lemmas)
        assert line == (
            f"proof exported to {tmp_path}: 4 cases case-*/formula.cnf and proof.lrat "
            f"({sum(added)} additions), README"
        )
        readme = (tmp_path / "README").read_text()
        assert f"DIMACS: {variables} variables, {sizes[0]} clauses" in readme
        assert f"text LRAT: {added[0]} additions" in readme
        assert "holds 9 knights, so at most 8 fit." in readme
        assert "The proof is in 4 cases" in readme and "i = 8 and thresholds J_1 .. J_m = 3 5 7," in readme


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cases": "ab"}, "thresholds and cases must be lists"),  # as long as two cases
        ({"thresholds": "x"}, "thresholds and cases must be lists"),  # as long as one threshold
        ({"cases": [["bytes", "xz"], {"bytes": 0, "xz": ""}]}, "a case must be an object"),  # its keys
        ({"cases": [{"bytes": 0, "xz": ""}] * 3}, "one case more"),  # a case too many
    ],
)
def test_cases_and_thresholds_must_be_lists_and_each_case_an_object(fields, message):
    """Text and lists of the right length, or with the right keys, are still refused."""
    entry = encode_proof([b"", b""], 9, level=8, thresholds=[5], lex=16)
    assert proof_entry(entry) == entry
    with pytest.raises(CheckFailed, match=message):
        proof_entry({**entry, **fields})


def test_a_proof_may_have_64_cases_and_must_name_its_level():
    """At most :data:`MAX_CASES` cases, 64 included; a list of proofs encoded without its level
    is refused, never read as a split; an entry that is no object is refused (not a crash)."""
    most = encode_proof([b""] * 64, 9, level=8, thresholds=[1] * 63)
    assert proof_entry(most) == most
    with pytest.raises(CheckFailed, match="level must be an integer"):
        proof_entry(encode_proof([b""], 9))
    for entry in (None, 5, 2.5):
        with pytest.raises(CheckFailed, match="expected an object"):
            proof_entry(entry)


def _counter_ids(n: int, k: int) -> dict[tuple[int, int], int]:
    """The counter's variables s(i, j), numbered from ``n + 1`` column by column, ``j`` from 1 to
    ``k`` and ``i`` from ``j`` to ``n - k + j`` (docs/certificates.md, "The knights formula, clause
    by clause")."""
    cells = [(i, j) for j in range(1, k + 1) for i in range(j, n - k + j + 1)]
    return {cell: n + 1 + number for number, cell in enumerate(cells)}


def _spec_case(n: int, k: int, level: int, cuts: list[int], case: int) -> list[list[int]] | None:
    """Case ``case``'s clauses as the module notes define them, None where the split does not
    fit: the thresholds strictly increasing among the ``j`` of the level's variables."""
    ids = _counter_ids(n, k) if 1 <= k <= n else {}
    js = [j for (i, j) in ids if i == level]
    if not (js and 0 <= case <= len(cuts) and all(t in js for t in cuts) and cuts == sorted(set(cuts))):
        return None
    above = [ids[level, t] for t in js if case and t >= cuts[case - 1]]
    below = [[-ids[level, t]] for t in js if case < len(cuts) and t >= cuts[case]]
    return [above] * bool(case) + below


def test_case_clauses_are_the_notes_cases_and_refuse_every_split_that_does_not_fit():
    """Every small counter (up to 4 squares, k and the level one past each end), every set of
    thresholds from 0 to one past the level, and every pair in any order, every case from -1 to
    one past the last: the clauses are the notes' (the variables numbered as the counter numbers
    them), and a split that does not fit is refused."""
    for n in range(1, 5):
        for k, level in itertools.product(range(n + 2), range(n + 2)):
            values = range(level + 2)
            subsets = [list(c) for r in range(len(values) + 1) for c in itertools.combinations(values, r)]
            for cuts in subsets + [list(p) for p in itertools.product(values, repeat=2)]:
                for case in range(-1, len(cuts) + 2):
                    expected = _spec_case(n, k, level, cuts, case)
                    if expected is None:
                        with pytest.raises(ValueError, match="does not fit"):
                            case_clauses(n, k, level, cuts, case)
                    else:
                        assert case_clauses(n, k, level, cuts, case) == expected, (n, k, level, cuts, case)


def test_case_clauses_take_hundreds_of_thresholds_and_name_the_first_eight_refused():
    """Numbers past CPython's small-integer cache (the last of 300 cases), and the refusal's
    message, which names at most 8 thresholds."""
    cuts = list(range(2, 302))
    ids = _counter_ids(620, 310)
    assert case_clauses(620, 310, 310, cuts, 300) == [[ids[310, t] for t in range(301, 311)]]
    with pytest.raises(ValueError, match=r"by \[1, 1, 1, 1, 1, 1, 1, 1\] \(case 0\)"):
        case_clauses(620, 310, 310, [1] * 9, 0)
