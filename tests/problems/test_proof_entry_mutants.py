"""Tests that kill the survivors of the mutation run on the proof entry and its files
(``problems/checkers/clausal_proof.py``, ``problems/checkers/lrat_files.py``; cosmic-ray, core and
quiet operators; docs/certificates.md, "Mutation testing"): the entry's limits exactly where
docs/certificates.md puts them (1 GiB declared, 256 Mi characters of base64, variables up to
2^24, every count from 1), and decoding as the inverse of encoding, the empty proof included."""

from __future__ import annotations

import pytest

from knightcert.problems.checkers import CheckFailed
from knightcert.problems.checkers.clausal_proof import decode_proof, encode_proof, proof_entry

GIB, TEXT, VARIABLES = 1 << 30, 1 << 28, 1 << 24


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
def test_the_entry_s_text_is_at_most_256_mi_characters(length, accepted):
    text = _Long(encode_proof(b"", 1)["xz"])
    text.n = length
    if accepted:
        assert proof_entry(_entry(xz=text))["xz"] == str(text)
    else:
        with pytest.raises(CheckFailed, match="xz must be text of at most 268435456 characters"):
            proof_entry(_entry(xz=text))


@pytest.mark.parametrize("binary", [b"", b"a", bytes(range(256)) * 3])
def test_decoding_inverts_encoding(binary):
    assert decode_proof(encode_proof(binary, 2, lex=3, lines=4)) == binary
