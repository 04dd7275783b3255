"""A clausal proof as an answer carries it: the certificate entry, its limits, its decoding.

An upper bound on independent knights is certified by a refutation of "at least ``K``
knights" (:mod:`knightcert.problems.checkers.knights_cnf`) in binary LRAT, checked by
:mod:`knightcert.problems.checkers.lrat`. Answers carry it as ``certificate["drat"]``
(the key is kept from the earlier DRAT proofs, so that saved answers still read):
``{format: "lrat-binary", knights, bytes, xz}`` with the binary LRAT compressed by xz
(LZMA) and base64-encoded (:func:`encode_proof`), plus ``lex``, ``lines`` and ``balanced``
naming the formula. :func:`decode_proof` refuses a proof whose declared size is over
:data:`MAX_PROOF_BYTES` before inflating anything, and stops inflating at the declared size.
An entry of format ``"drat-binary"`` (written by knightcert before issue 42), or a proof in
cases (``cases``: written for a day before the balanced lines made one proof enough), is
refused with one line saying what to do.
"""

from __future__ import annotations

import base64
import binascii
import lzma
from typing import Any

from knightcert.problems.checkers.failure import CheckFailed

__all__ = [
    "FORMAT",
    "MAX_PROOF_BYTES",
    "MAX_PROOF_TEXT",
    "MAX_VARIABLES",
    "decode_proof",
    "encode_proof",
    "pack_proof",
    "proof_entry",
]

#: Largest binary proof (bytes, inflated) an answer may carry.
MAX_PROOF_BYTES = (1 << 31) - 1
#: Largest compressed proof text (base64 characters) an answer may carry: room for the largest
#: binary proof even where xz does not shrink it (base64 writes 4 characters for 3 bytes).
MAX_PROOF_TEXT = 3 << 30
#: Largest variable a proof may name (extension variables included).
MAX_VARIABLES = 1 << 24
#: The one proof format an answer may carry: binary LRAT.
FORMAT = "lrat-binary"
#: The format earlier versions wrote, refused with advice.
_DRAT = "drat-binary"
#: xz preset the proofs are compressed with (higher: smaller and slower). 0: a 13 x 15 proof's
#: 67 MB of LRAT packed in 4.6 s to 22.3 MB, against 13.1 s and 20.8 MB at preset 2.
PRESET = 0
_KEYS = {"format", "knights", "bytes", "xz"}
#: The optional keys, each a positive integer that says which formula the proof refutes: the
#: length of the lex-leader comparisons (:func:`knightcert.problems.checkers.knights_cnf.knights_cnf`'s
#: ``lex``), the counter's order (:func:`~knightcert.problems.checkers.knights_cnf.counter_order`)
#: and the balanced lines.
_OPTIONAL = ("lex", "lines", "balanced")


def encode_proof(
    binary: Any, knights: int, *, lex: int = 0, lines: int = 0, balanced: int = 0
) -> dict[str, Any]:
    """A binary LRAT proof that "at least ``knights`` knights" is unsatisfiable, as an
    answer's certificate entry: ``{format, knights, bytes, xz}``, ``lex`` when the refuted
    formula carries lex-leader comparisons of that length, ``lines`` when its counter
    takes the squares by knight lines in that order, and ``balanced`` when the lines are
    balanced. A proof may come packed already (:func:`pack_proof`)."""
    named = {key: int(v) for key, v in zip(_OPTIONAL, (lex, lines, balanced), strict=True) if v}
    return {"format": FORMAT, "knights": int(knights), **pack_proof(binary), **named}


def pack_proof(binary: bytes | dict[str, Any]) -> dict[str, Any]:
    """``{bytes, xz}``: the proof's size, and the proof compressed by xz and base64-encoded
    (a dict: packed already, kept)."""
    if isinstance(binary, dict):
        return binary
    packed = lzma.compress(binary, preset=PRESET)
    return {"bytes": len(binary), "xz": base64.b64encode(packed).decode("ascii")}


def proof_entry(entry: Any, claim: str = "optimal") -> dict[str, Any]:
    """Check the shape of a certificate's proof entry (nothing inflated); return a plain copy.

    Raises
    ------
    CheckFailed
        Not ``{format: "lrat-binary", knights: int, bytes: int, xz: str}`` (optionally
        ``lex``, ``lines``, ``balanced``: integers), or over the size limits; a DRAT proof, or
        a proof in cases (both written by earlier versions).
    """
    if isinstance(entry, dict) and ("cases" in entry or entry.get("format") == _DRAT):
        what = "a proof in cases" if "cases" in entry else "a DRAT proof"
        raise CheckFailed(
            f"certificate 'drat': {what}, which knightcert no longer checks: re-solve to get one LRAT "
            "proof, or check this one with drat-trim",
            claim,
        )
    if not isinstance(entry, dict) or not _KEYS <= set(entry) <= _KEYS | set(_OPTIONAL):
        raise CheckFailed(
            "certificate 'drat': expected an object with keys format, knights, bytes, xz "
            "(and lex, lines, balanced)",
            claim,
        )
    if entry["format"] != FORMAT:
        raise CheckFailed(
            f"certificate 'drat': format {str(entry['format'])[:40]!r} is not {FORMAT!r}", claim
        )
    copy = {"format": FORMAT, "knights": _count(entry, "knights", claim)}
    for key in _OPTIONAL:
        if key in entry:
            copy[key] = _count(entry, key, claim)
    return {**copy, **_part(entry, claim)}


def _count(entry: dict, key: str, claim: str) -> int:
    """``entry[key]``, an integer from 1 to :data:`MAX_VARIABLES`."""
    value = entry[key]
    if type(value) is not int or not 1 <= value <= MAX_VARIABLES:
        raise CheckFailed(f"certificate 'drat': {key} must be an integer from 1 to {MAX_VARIABLES}", claim)
    return value


def _part(entry: Any, claim: str) -> dict[str, Any]:
    """The ``bytes`` and ``xz`` of a proof, checked for shape and size."""
    if not isinstance(entry, dict) or not {"bytes", "xz"} <= set(entry):
        raise CheckFailed("certificate 'drat': a proof must be an object with keys bytes, xz", claim)
    size, text = entry["bytes"], entry["xz"]
    if type(size) is not int or not 0 <= size <= MAX_PROOF_BYTES:
        raise CheckFailed(f"certificate 'drat': bytes must be an integer from 0 to {MAX_PROOF_BYTES}", claim)
    if not isinstance(text, str) or len(text) > MAX_PROOF_TEXT:
        raise CheckFailed(
            f"certificate 'drat': xz must be text of at most {MAX_PROOF_TEXT} characters", claim
        )
    return {"bytes": size, "xz": str(text)}


def decode_proof(entry: Any, claim: str = "optimal") -> bytes:
    """The binary LRAT proof of a certificate entry (or its ``{bytes, xz}``);
    inflated at most to its declared size.

    Raises
    ------
    CheckFailed
        A malformed entry, corrupt data, or data that does not inflate to exactly the
        declared number of bytes.
    """
    entry = _part(entry, claim)
    try:
        packed = base64.b64decode(entry["xz"].encode("ascii"), validate=True)
        inflater = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
        raw = inflater.decompress(packed, entry["bytes"] + 1)
        complete = inflater.eof and not inflater.unused_data
    except (ValueError, UnicodeEncodeError, binascii.Error, lzma.LZMAError) as exc:
        raise CheckFailed(f"certificate 'drat': corrupt data ({str(exc)[:60]})", claim) from None
    if len(raw) != entry["bytes"] or not complete:
        raise CheckFailed(
            f"certificate 'drat': the data does not inflate to the declared {entry['bytes']} bytes", claim
        )
    return raw
