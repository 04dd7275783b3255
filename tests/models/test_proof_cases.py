"""Proofs in cases (issue 42, item 5): the refutation split at a counter level by thresholds,
one LRAT proof per case; the checker verifies each against the formula with its case's clauses
and builds the cases itself, so that they cover every assignment."""

from __future__ import annotations

import copy
import itertools
import random
from pathlib import Path

import pytest

import knightcert.models.knights_sat as producer
from knightcert.problems.checkers import CheckFailed
from knightcert.problems.checkers.clausal_proof import MAX_CASES, proof_entry
from knightcert.problems.checkers.knights import check_bound_proof
from knightcert.problems.checkers.knights_cnf import case_clauses, knights_cnf
from knightcert.problems.checkers.lrat import check_lrat
from knightcert.problems.checkers.lrat_files import export_proof, lrat_text_to_binary
from knightcert.problems.independent_knights import knights_instance

SEVEN = knights_instance(7, 7, torus=True)


@pytest.fixture(scope="module")
def split_entry() -> dict:
    """The producer's proof of "no 15 knights" on the 7 x 7 torus (optimum 14), split as on
    the large tori (the size from which it splits lowered to every board)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(producer, "SPLIT_SQUARES", 1)
        entry, info = producer.prove_upper_bound(SEVEN, 14)
    assert entry is not None and info["proof"].endswith("in 4 cases")
    return entry


def _holds(clauses: list[list[int]], true: set[int]) -> bool:
    return all(any((v > 0) == (abs(v) in true) for v in clause) for clause in clauses)


@pytest.mark.parametrize("seed", range(6))
def test_every_assignment_falls_in_exactly_one_case(seed):
    """The cover, read by the test from the specification: case ``a`` holds exactly when the
    largest ``j`` with ``s(i, j)`` true lies in ``[J_a, J_(a+1))``; every assignment of the
    level's variables (exhaustively, on small counters) satisfies one case's clauses."""
    rng = random.Random(seed)
    squares = rng.randint(4, 9)
    k = rng.randint(1, squares)
    level = rng.randint(1, squares)
    low, high = max(1, k - squares + level), min(level, k)
    cuts = sorted(rng.sample(range(low, high + 1), rng.randint(0, high - low + 1)))
    width = squares - k + 1
    variable = {t: squares + (t - 1) * width + level - t + 1 for t in range(low, high + 1)}
    cases = [case_clauses(squares, k, level, cuts, a) for a in range(len(cuts) + 1)]
    assert all(abs(v) in variable.values() for case in cases for clause in case for v in clause)
    for signs in itertools.product((False, True), repeat=len(variable)):
        true = {v for (t, v), on in zip(variable.items(), signs, strict=True) if on}
        top = max([t for t, v in variable.items() if v in true], default=low - 1)
        holding = [a for a, case in enumerate(cases) if _holds(case, true)]
        expected = sum(top >= t for t in cuts)
        assert holding == [expected]


@pytest.mark.parametrize(
    ("level", "cuts", "case"),
    [
        (0, [3], 0),
        (25, [3], 0),
        (12, [3, 3], 0),
        (12, [4, 3], 0),
        (12, [0], 0),
        (12, [7], 0),
        (12, [3], 2),
        (12, [3], -1),
    ],
)
def test_a_split_that_does_not_fit_the_counter_is_refused(level, cuts, case):
    with pytest.raises(ValueError, match="does not fit"):
        case_clauses(24, 6, level, cuts, case)


def test_each_case_s_proof_is_checked_and_refutes_its_case_only(split_entry):
    assert split_entry["level"] == 24 and len(split_entry["cases"]) == len(split_entry["thresholds"]) + 1
    assert "in 4 cases split at counter level 24" in check_bound_proof(SEVEN.board, split_entry)
    _, clauses = knights_cnf(SEVEN.board, 15, lex=split_entry["lex"], lines=split_entry["lines"])
    from knightcert.problems.checkers.clausal_proof import decode_proof

    proofs = [decode_proof(part) for part in split_entry["cases"]]
    for a, proof in enumerate(proofs):
        own = case_clauses(49, 15, 24, split_entry["thresholds"], a)
        assert check_lrat(clauses + own, proof).refuted
        assert not check_lrat(clauses, proof).refuted  # not without its case's clauses
        other = case_clauses(49, 15, 24, split_entry["thresholds"], (a + 1) % len(proofs))
        assert not check_lrat(clauses + other, proof).refuted


@pytest.mark.parametrize(
    "forge",
    [
        lambda e: e.update(cases=e["cases"][:-1], thresholds=e["thresholds"][:-1]),  # a case missing
        lambda e: e.update(cases=e["cases"][1:], thresholds=e["thresholds"][1:]),
        lambda e: e.update(cases=e["cases"][::-1]),  # each proof on another case
        lambda e: e["thresholds"].__setitem__(0, e["thresholds"][0] - 1),  # another cover
        lambda e: e.update(level=23),
        lambda e: e.update(level=50),
        lambda e: e.update(thresholds=e["thresholds"][::-1]),
        lambda e: e.update(knights=16),
    ],
)
def test_a_missing_or_wrong_case_is_refused(split_entry, forge):
    forged = copy.deepcopy(split_entry)
    forge(forged)
    with pytest.raises(CheckFailed, match=r"LRAT proof refused|certificate .drat."):
        check_bound_proof(SEVEN.board, forged)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cases": "x"}, "thresholds and cases must be lists"),
        ({"thresholds": [1, 2]}, "thresholds and cases must be lists, one case more"),
        ({"thresholds": [1] * MAX_CASES, "cases": [{"bytes": 0, "xz": ""}] * (MAX_CASES + 1)}, "at most 64"),
        ({"thresholds": [0]}, "threshold must be an integer"),
        ({"thresholds": [True]}, "threshold must be an integer"),
        ({"level": 1.0}, "level must be an integer"),
        ({"cases": [{"bytes": 0}, {"bytes": 0, "xz": ""}]}, "a case must be an object"),
        ({"cases": [[], {"bytes": 0, "xz": ""}]}, "a case must be an object"),
        ({"cases": [{"bytes": -1, "xz": ""}, {"bytes": 0, "xz": ""}]}, "bytes must be an integer"),
        ({"bytes": 0}, "expected an object with keys"),
    ],
)
def test_the_entry_of_a_proof_in_cases_is_read_strictly(fields, message):
    from knightcert.problems.checkers.clausal_proof import encode_proof

    entry = encode_proof([b"", b""], 15, level=24, thresholds=[3], lex=30, lines=2)
    assert proof_entry(entry) == entry
    with pytest.raises(CheckFailed, match=message):
        proof_entry({**entry, **fields})


def test_the_export_writes_a_formula_and_proof_per_case(split_entry, tmp_path: Path):
    """Each case's pair, re-read by the test (DIMACS, text LRAT), refutes that case: the
    formula with exactly the case's clauses after it; the README says how the cases cover."""
    from tests.cli.test_export_proof import read_dimacs

    line = export_proof(SEVEN.board, split_entry, str(tmp_path))
    assert "4 cases" in line
    _, base = knights_cnf(SEVEN.board, 15, lex=split_entry["lex"], lines=split_entry["lines"])
    for a in range(4):
        _, clauses = read_dimacs((tmp_path / f"case-{a}" / "formula.cnf").read_text())
        assert clauses == base + case_clauses(49, 15, 24, split_entry["thresholds"], a)
        proof = lrat_text_to_binary((tmp_path / f"case-{a}" / "proof.lrat").read_text())
        assert check_lrat(clauses, proof).refuted
    readme = (tmp_path / "README").read_text()
    assert "The proof is in 4 cases" in readme and "J_A <= M < J_(A+1)" in readme


def test_the_producer_splits_full_tori_of_400_squares_and_more():
    """Level ``n / 2``, thresholds around half the knights, kept within the level's ``j``; no
    split below 400 squares, with fixed knights, or on a plain board."""
    big = knights_instance(21, 21, torus=True).board
    assert producer.split_of(big, 190) == (220, [93, 95, 97])
    assert producer.split_of(knights_instance(23, 23, torus=True).board, 231) == (264, [114, 116, 118])
    assert producer.split_of(big, 3) == (220, [1, 2, 3])
    assert producer.split_of(big, 190, ((0, 0),)) == (0, [])
    assert producer.split_of(knights_instance(19, 19, torus=True).board, 153) == (0, [])
    assert producer.split_of(knights_instance(21, 21).board, 100) == (0, [])
