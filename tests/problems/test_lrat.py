"""The project's LRAT checker (issue 30): hint-driven refutations accepted, every broken one refused."""

from __future__ import annotations

import pytest

from knightcert.models.knights_sat import prove_upper_bound
from knightcert.problems.board import Board
from knightcert.problems.checkers.clausal_proof import decode_proof, encode_proof, proof_entry
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.knights import check_bound_proof
from knightcert.problems.checkers.knights_cnf import knights_cnf
from knightcert.problems.checkers.lrat import check_lrat
from knightcert.problems.checkers.lrat_files import lrat_text_to_binary
from knightcert.problems.independent_knights import knights_instance

#: Every clause over two variables, numbered 1 .. 4: unsatisfiable, no unit propagates.
FULL = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
#: (2) from clauses 1 and 2; the empty clause from 5, 3, 4.
GOOD = "5 2 0 1 2 0\n6 0 5 3 4 0\n"


def lrat(text: str):
    return check_lrat(FULL, lrat_text_to_binary(text))


def test_a_refutation_is_accepted():
    checked = lrat(GOOD)
    assert checked.refuted and checked.lemmas == 2
    # deletions of clauses no later step names are fine
    assert lrat("5 2 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n").refuted


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("5 2 0 1 0\n6 0 5 3 4 0\n", "line 1: its hints"),  # hints run out before a conflict
        ("5 2 0 3 1 2 0\n6 0 5 3 4 0\n", "line 1: its hints"),  # hint 3 is satisfied, not unit
        ("5 0 1 2 0\n", "line 1: its hints"),  # hint 1 has two free literals
        ("5 2 0 1 2 0\n6 0 5 4 0\n", "line 2: its hints"),  # (-1 -2) is not yet falsified
        ("5 2 0 1 9 0\n6 0 5 3 4 0\n", "line 1: its hints"),  # no clause 9
        ("5 2 0 1 2 0\n6 0 -5 3 4 0\n", "line 2: its hints"),  # a RAT hint: not accepted
        ("5 2 0 1 2 0\n5 d 5 0\n6 0 5 3 4 0\n", "line 3: its hints"),  # (2) deleted, then used
        ("5 2 0 1 2 0\n5 d 3 0\n6 0 5 3 4 0\n", "line 3: its hints"),  # a needed formula clause deleted
        ("4 2 0 1 2 0\n6 0 4 3 4 0\n", "line 1: its identifier"),  # an identifier of the formula
        ("5 2 0 1 2 0\n5 0 5 3 4 0\n", "line 2: its identifier"),  # an identifier used twice
        ("5 2 0 1 2 0\n", "never derives the empty clause"),
        ("", "never derives the empty clause"),
        ("5 1 0 1 2 0\n6 0 5 3 4 0\n", "line 1: its hints"),  # (1) is not what 1 and 2 give
    ],
)
def test_broken_proofs_are_refused(text, words):
    checked = lrat(text)
    assert not checked.refuted and words in checked.reason


def test_tautologies_and_the_empty_formula_clause():
    assert lrat("5 1 -1 0 0\n" + GOOD.replace("5 ", "6 ").replace("6 0 6", "7 0 6")).refuted
    # a formula with the empty clause: the empty lemma names it
    assert check_lrat([[1], []], lrat_text_to_binary("3 0 2 0\n")).refuted


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"a\x0a\x04", "byte 3"),  # cut short
        (b"x\x0a\x00\x00", "byte 0"),  # not a record kind
        (b"a\x0b\x00\x00", "byte 1"),  # a negative identifier
        (b"a\x00\x00\x00", "byte 1"),  # identifier 0
        (b"a\x0a\x01\x00\x00", "byte 2"),  # variable 0
        (b"a\x0a\x80\x00\x00\x00", "byte 2"),  # a number with a superfluous zero byte
        (b"d\x03\x00", "byte 1"),  # a negative deleted identifier
        (b"a\x80\x80\x80\x80\x08\x00\x00", "byte 1"),  # identifier 2^30: past the int32 arrays
    ],
)
def test_malformed_binary_is_refused(data, words):
    checked = check_lrat(FULL, data)
    assert not checked.refuted and "malformed" in checked.reason and words in checked.reason
    with pytest.raises(ValueError):
        lrat_text_to_binary("5 2 0 1 2\n")


SEVEN = knights_instance(7, 7, torus=True)


@pytest.fixture(scope="module")
def seven_proof():
    """CaDiCaL's proof that 15 knights do not fit on the 7 x 7 torus (one child for the tests)."""
    return prove_upper_bound(SEVEN, 14)


def test_cadical_lrat_is_checked_and_forgeries_refused(seven_proof):
    entry, info = seven_proof
    assert entry is not None and entry["format"] == "lrat-binary" and info["proof"].startswith("LRAT")
    assert proof_entry(entry)["format"] == "lrat-binary"
    assert check_bound_proof(SEVEN.board, entry).startswith("LRAT proof (")
    binary = decode_proof(entry)
    # cut short (at a record or inside one), another board, another bound
    cut = binary[: binary.rfind(b"a", 0, len(binary) // 2)]
    for broken in (cut, binary[: len(binary) // 2]):
        with pytest.raises(CheckFailed, match="LRAT proof refused"):
            check_bound_proof(SEVEN.board, encode_proof(broken, 15))
    with pytest.raises(CheckFailed, match="LRAT proof refused"):
        check_bound_proof(Board(7, 14, torus=True), entry)
    with pytest.raises(CheckFailed, match="LRAT proof refused"):
        check_bound_proof(SEVEN.board, {**entry, "knights": 14})
    # a DRAT proof is no longer read (one line with advice); any other format is refused too
    with pytest.raises(CheckFailed, match="a DRAT proof, which knightcert no longer checks: re-solve"):
        check_bound_proof(SEVEN.board, {**entry, "format": "drat-binary"})
    with pytest.raises(CheckFailed, match="format 'frat' is not 'lrat-binary'"):
        check_bound_proof(SEVEN.board, {**entry, "format": "frat"})


def test_no_perturbation_refutes_a_satisfiable_formula(seven_proof):
    """The 7 x 7 torus fits 14 knights: whatever is done to the proof of "no 15" (bits
    flipped, records dropped or cut, hints shifted), it must not refute "at least 14"."""
    import random

    entry, _ = seven_proof
    assert entry is not None
    binary = decode_proof(entry)
    named = {key: entry.get(key, 0) for key in ("lex", "lines", "balanced")}
    satisfiable = knights_cnf(SEVEN.board, 14, **named)[1]
    assert check_lrat(knights_cnf(SEVEN.board, 15, **named)[1], binary).refuted
    assert not check_lrat(satisfiable, binary).refuted
    rng = random.Random(30)
    records = binary.split(b"\x00a")
    for _ in range(60):
        forged = bytearray(binary)
        kind = rng.randrange(3)
        if kind == 0:
            for _ in range(rng.randint(1, 4)):
                forged[rng.randrange(len(forged))] ^= 1 << rng.randrange(8)
        elif kind == 1:
            i = rng.randrange(len(records))
            forged = bytearray(b"\x00a".join(records[:i] + records[i + rng.randint(1, 3) :]))
        else:
            forged = forged[: rng.randrange(len(forged))]
        assert not check_lrat(satisfiable, bytes(forged)).refuted


def test_the_producer_trims_to_the_core():
    """The producer's trimming (untrusted) keeps the additions the empty clause rests on."""
    from knightcert.models.lrat_numbering import trim

    padded = lrat_text_to_binary("5 1 0 1 3 0\n6 2 0 1 2 0\n6 d 5 0\n7 0 6 3 4 0\n")
    assert check_lrat(FULL, padded).refuted
    trimmed = trim(padded, 4)
    assert trimmed == lrat_text_to_binary("6 2 0 1 2 0\n7 0 6 3 4 0\n")
    assert check_lrat(FULL, trimmed).lemmas == 2
    assert trim(lrat_text_to_binary("5 2 0 1 2 0\n"), 4) is None  # no empty clause
