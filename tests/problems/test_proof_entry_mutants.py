"""Tests that kill the survivors of the mutation run on the proof entry and its files
(``problems/checkers/clausal_proof.py``, ``problems/checkers/lrat_files.py``; cosmic-ray, core and
quiet operators; docs/certificates.md, "Mutation testing"): the entry's limits exactly where
docs/certificates.md puts them (under 2 GiB declared, 3 Gi characters of base64, variables up to
2^24, every count from 1), and decoding as the inverse of encoding, the empty proof included."""

from __future__ import annotations

import pytest

from knightcert.problems.checkers import CheckFailed
from knightcert.problems.checkers.clausal_proof import decode_proof, encode_proof, proof_entry

GIB, TEXT, VARIABLES = (1 << 31) - 1, 3 << 30, 1 << 24


class _Long(str):
    """Text that says it is ``n`` characters long (a real one would take 256 MB)."""

    n = 0

    def __len__(self) -> int:
        return self.n


def _entry(**fields) -> dict:
    return {**encode_proof(b"", 1), **fields}


@pytest.mark.parametrize(
    ("fields", "accepted"),
    [
        ({"bytes": GIB}, True),
        ({"bytes": GIB + 1}, False),
        ({"bytes": 0}, True),
        ({"bytes": -1}, False),
        ({"knights": 1}, True),
        ({"knights": 0}, False),
        ({"knights": VARIABLES}, True),
        ({"knights": VARIABLES + 1}, False),
        ({"lex": 1, "lines": 1}, True),
        ({"lex": 0}, False),
        ({"lines": 0}, False),
        ({"lex": VARIABLES, "lines": VARIABLES}, True),
        ({"lex": VARIABLES + 1}, False),
        ({"lines": VARIABLES + 1}, False),
        ({"lex": True}, False),
        ({"lines": 2.0}, False),
        ({"lex": "1"}, False),
    ],
)
def test_the_entry_s_limits_are_the_documented_ones(fields, accepted):
    entry = _entry(**fields)
    if accepted:
        assert proof_entry(entry) == entry
    else:
        with pytest.raises(CheckFailed, match="certificate 'drat': "):
            proof_entry(entry)


@pytest.mark.parametrize(("length", "accepted"), [(TEXT, True), (TEXT + 1, False)])
def test_the_entry_s_text_is_at_most_3_gi_characters(length, accepted):
    text = _Long(encode_proof(b"", 1)["xz"])
    text.n = length
    if accepted:
        assert proof_entry(_entry(xz=text))["xz"] == str(text)
    else:
        with pytest.raises(CheckFailed, match="xz must be text of at most 3221225472 characters"):
            proof_entry(_entry(xz=text))


@pytest.mark.parametrize("binary", [b"", b"a", bytes(range(256)) * 3])
def test_decoding_inverts_encoding(binary):
    assert decode_proof(encode_proof(binary, 2, lex=3, lines=4)) == binary


@pytest.mark.parametrize(
    ("blocked", "knights", "options", "where"),
    [
        (None, 3, {}, "the 1 x 2 board (lex 0, lines 0, balanced 0)"),
        (
            [[True, False], [False, False]],
            4,
            {},
            "the 2 x 2 torus board with 1 squares removed (lex 0, lines 0, balanced 0)",
        ),
        (
            [[True, True], [False, False]],
            3,
            {},
            "the 2 x 2 torus board with 2 squares removed (lex 0, lines 0, balanced 0)",
        ),
        (
            [[False, False], [False, False]],
            5,
            {"lex": 1, "lines": 1},
            "the 2 x 2 torus board (lex 1, lines 1, balanced 0)",
        ),
    ],
)
def test_the_exported_files_are_the_formula_the_proof_and_what_they_refute(
    tmp_path, blocked, knights, options, where
):
    import numpy as np

    from knightcert.problems.board import Board
    from knightcert.problems.checkers.knights_cnf import knights_cnf
    from knightcert.problems.checkers.lrat_files import export_proof, lrat_text_to_binary

    board = Board(1, 2) if blocked is None else Board(2, 2, np.array(blocked), torus=True)
    proof = "3 -1 0 1 2 0\n4 2 -2 3 0 3 0\n4 d 1 2 0\n5 0 3 4 0\n"  # copied as it is: not checked here
    said = export_proof(board, encode_proof(lrat_text_to_binary(proof), knights, **options), str(tmp_path))
    variables, clauses = knights_cnf(board, knights, **options)
    header, *lines = (tmp_path / "formula.cnf").read_text().splitlines()
    assert header == f"p cnf {variables} {len(clauses)}"
    assert [[int(w) for w in line.split()] for line in lines] == [[*clause, 0] for clause in clauses]
    assert (tmp_path / "proof.lrat").read_text() == proof
    readme = (tmp_path / "README").read_text()
    assert readme.startswith(
        f"A refutation of 'at least {knights} independent knights' on {where}: no placement holds "
        f"{knights} knights, so at most {knights - 1} fit.\n"
    )
    assert f"DIMACS: {variables} variables, {len(clauses)} clauses" in readme
    assert "text LRAT: 3 additions, the last the empty clause" in readme
    assert said == (
        f"proof exported to {tmp_path}: formula.cnf ({variables} variables, {len(clauses)} clauses), "
        "proof.lrat (3 additions), README"
    )


def test_corrupt_data_is_named_by_the_first_60_characters_of_its_error():
    import base64
    import binascii

    with pytest.raises(binascii.Error) as raised:
        base64.b64decode(b"AAAAA", validate=True)
    error = str(raised.value)
    assert len(error) > 60
    with pytest.raises(CheckFailed) as refused:
        decode_proof(_entry(xz="AAAAA"))
    assert f"certificate 'drat': corrupt data ({error[:60]})" in str(refused.value)


def test_data_that_is_not_xz_is_corrupt_data():
    import base64

    with pytest.raises(CheckFailed, match=r"certificate 'drat': corrupt data \("):
        decode_proof(_entry(xz=base64.b64encode(b"not xz data at all").decode(), bytes=3))


@pytest.mark.parametrize("form", ["abc", "zzz", 5, "x" * 50])
def test_a_format_other_than_lrat_binary_is_refused_naming_it(form):
    with pytest.raises(CheckFailed) as refused:
        proof_entry(_entry(format=form))
    assert f"certificate 'drat': format {str(form)[:40]!r} is not 'lrat-binary'" in str(refused.value)


@pytest.mark.parametrize("key", ["format", "knights", "bytes", "xz"])
def test_an_entry_without_one_of_its_keys_is_refused(key):
    entry = _entry()
    del entry[key]
    with pytest.raises(CheckFailed, match="expected an object with keys format, knights, bytes, xz"):
        proof_entry(entry)


def test_text_that_is_not_strict_base64_is_corrupt_data():
    entry = encode_proof(b"a proof", 2)
    assert decode_proof(entry) == b"a proof"
    with pytest.raises(CheckFailed, match="corrupt data"):
        decode_proof({**entry, "xz": entry["xz"][:8] + "*" + entry["xz"][8:]})


def test_lex_and_lines_are_given_by_name():
    with pytest.raises(TypeError):
        encode_proof(b"", 2, 3)  # type: ignore[misc]


@pytest.mark.parametrize(
    "line", ["5 0 1 0 2", "5 0 1 0 -2", "5 1 0 2", "0 1 0 2 0", "-5 1 0 2 0", "5 1 0 2 0 0", "5"]
)
def test_a_text_lrat_addition_is_two_zero_ended_lists_after_a_positive_id(line):
    from knightcert.problems.checkers.lrat_files import lrat_text_to_binary

    with pytest.raises(ValueError, match="malformed LRAT addition"):
        lrat_text_to_binary(line + "\n")


def test_binary_lrat_that_does_not_read_is_refused_naming_the_byte():
    import io

    from knightcert.problems.checkers.lrat_files import lrat_binary_to_text

    with pytest.raises(ValueError, match="the proof is malformed at byte"):
        lrat_binary_to_text(b"x\x02\x00", io.BytesIO())


def test_a_text_lrat_deletion_ends_with_zero():
    from knightcert.problems.checkers.lrat_files import lrat_text_to_binary

    with pytest.raises(ValueError, match="malformed LRAT deletion"):
        lrat_text_to_binary("5 d\n")
    with pytest.raises(ValueError, match="malformed LRAT deletion"):
        lrat_text_to_binary("5 d 1 -1\n")


def test_a_deletion_before_any_addition_is_numbered_0():
    import io

    from knightcert.problems.checkers.lrat_files import lrat_binary_to_text, lrat_text_to_binary

    out = io.BytesIO()
    assert lrat_binary_to_text(lrat_text_to_binary("9 d 1 0\n3 0 1 2 0\n"), out) == 1
    assert out.getvalue() == b"0 d 1 0\n3 0 1 2 0\n"


def test_text_lrat_reads_identifier_1_and_only_c_starts_a_comment():
    from knightcert.problems.checkers.lrat_files import lrat_text_to_binary

    assert lrat_text_to_binary("c a comment\n1 2 0 0\n") == b"a\x02\x04\x00\x00"  # a, id 2*1, literal 2*2
    with pytest.raises(ValueError):
        lrat_text_to_binary("x 1 0 0\n")
