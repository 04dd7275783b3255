"""Tests that kill the survivors of the mutation run on the balanced lines (issue 42, s48-mutp:
cosmic-ray, core and quiet operators, on the checker lines changed since 40febe7 in
``knights_cnf.py``, ``clausal_proof.py``, ``knights.py`` and ``lrat_files.py``;
docs/certificates.md, "Mutation testing"): where the balanced formula is refused, and in what
words, and a proof's ``{bytes, xz}`` refused whole when it is not one."""

from __future__ import annotations

import numpy as np
import pytest

from knightcert.problems.board import Board
from knightcert.problems.checkers import CheckFailed
from knightcert.problems.checkers.clausal_proof import decode_proof, proof_entry
from knightcert.problems.checkers.knights_cnf import knights_cnf, line_scale

NEEDS = "needs 0, or 1 on a torus with no square removed or fixed"
PRIME = "balanced lines need an odd shorter side and lines prime to it, not"


@pytest.mark.parametrize(
    ("board", "named", "words"),
    [
        (Board(5, 5, torus=True), {"balanced": 2}, f"balanced 2 {NEEDS}"),
        (Board(5, 5, torus=True), {"balanced": -1}, f"balanced -1 {NEEDS}"),
        (Board(5, 5, torus=True), {"balanced": 1, "lines": 1, "fixed": ((0, 0),)}, f"balanced 1 {NEEDS}"),
        (Board(5, 5), {"balanced": 1, "lines": 1}, f"balanced 1 {NEEDS}"),
        (
            Board(5, 5, np.array([[r == c == 2 for c in range(5)] for r in range(5)]), torus=True),
            {"balanced": 1, "lines": 1},
            f"balanced 1 {NEEDS}",
        ),
        (Board(4, 4, torus=True), {"balanced": 1, "lines": 1}, f"{PRIME} 1"),
        (Board(4, 8, torus=True), {"balanced": 1, "lines": 3}, f"{PRIME} 3"),
        (Board(9, 9, torus=True), {"balanced": 1, "lines": 6}, f"{PRIME} 6"),
        (Board(5, 5, torus=True), {"balanced": 1, "lines": 0}, f"{PRIME} 0"),
        (
            Board(5, 7, torus=True),
            {"balanced": 1, "lines": 2, "lex": 3},
            "lex 3 needs translations along the lines, and 5 x 7 has none",
        ),
        (
            Board(7, 5, torus=True),
            {"balanced": 1, "lines": 2, "lex": 1},
            "lex 1 needs translations along the lines, and 7 x 5 has none",
        ),
    ],
)
def test_the_balanced_formula_is_refused_where_it_does_not_apply(board, named, words):
    with pytest.raises(ValueError, match=f"^{words}$"):
        knights_cnf(board, 3, **named)


def test_a_proof_without_bytes_and_xz_is_refused_when_decoded():
    for part in ({"bytes": 0}, {"xz": ""}, [0, ""], "xz"):
        with pytest.raises(CheckFailed, match="a proof must be an object with keys bytes, xz"):
            decode_proof(part)


@pytest.mark.parametrize("entry", [None, 7, "xz", "cases", ["format", "knights", "bytes", "xz"]])
def test_an_entry_that_is_not_an_object_is_refused_in_one_line(entry):
    """Not an object: refused as such, whatever it holds (keys as a list's items, "cases" as text)."""
    with pytest.raises(CheckFailed, match="expected an object with keys format, knights, bytes, xz"):
        proof_entry(entry)


def test_lex_leader_comparisons_longer_than_256_squares_end_where_they_should():
    """A comparison over 289 squares (17 x 17, every square; along the 16 translations of the
    balanced lines) is the specification's, clause for clause: its last letter too, past the
    integers CPython keeps one object of (a test of ``m is length - 1`` would miss the end)."""
    from tests.problems.test_knights_cnf_spec import spec_formula

    board, lines = Board(17, 17, torus=True), line_scale(Board(17, 17, torus=True))
    built = knights_cnf(board, 4, lex=289, lines=lines, balanced=1)
    assert built == spec_formula(17, 17, True, set(), 4, 289, lines, (), 1)
    assert built[0] == 289 + 4 * (289 - 4 + 1) + 16 * 288


def test_translate_false_leaves_out_the_translation_unit():
    """``translate=False``: no unit ``x_(0,0)`` on a full torus, with balanced lines or without;
    with it (the default), the unit where the lines allow one (5 divides 10, not 7)."""
    for board, named in [
        (Board(5, 5, torus=True), {}),
        (Board(5, 10, torus=True), {"lines": 2, "balanced": 1}),
    ]:
        assert [1] not in knights_cnf(board, 4, translate=False, **named)[1]
        assert [1] in knights_cnf(board, 4, **named)[1]
    assert [1] not in knights_cnf(Board(5, 7, torus=True), 4, lines=2, balanced=1)[1]
