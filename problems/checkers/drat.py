"""The project's own DRAT proof checker: a clausal refutation, checked lemma by lemma.

A DRAT proof of a formula ``F`` is a sequence of lemmas (clauses added) and
deletions. The checker keeps the current clause set (``F``, plus the lemmas
checked so far, minus the deletions) and checks every lemma ``C`` against it, in
order (forward checking):

RUP (reverse unit propagation)
    Assigning every literal of ``C`` false and propagating units in the current
    set reaches a conflict: ``C`` is implied by the set.
RAT (resolution asymmetric tautology) on ``C``'s first literal ``l``
    For every clause ``D`` of the set that holds ``-l``, ``C | (D - {-l})`` is RUP:
    adding ``C`` keeps the set satisfiable if it was.

The proof is accepted when it adds the empty clause and the empty clause passes
the RUP check: then ``F`` is unsatisfiable. Deletions only ever weaken the set,
so they cannot make an accepted refutation wrong; a deletion of a clause that is
the reason of a top-level assignment, or of a clause not in the set, is ignored
(as DRAT-trim does). Unit propagation uses two watched literals per clause; the
kernels are compiled (:mod:`knightcert.problems.checkers.drat_kernel`).

Proofs are stored in answer files as binary DRAT, compressed with xz (LZMA) and
base64-encoded (:func:`encode_proof`); :func:`decode_proof` refuses a proof whose
declared size is over :data:`MAX_PROOF_BYTES` before inflating anything, and stops
inflating at the declared size.

Notes
-----
Written from the format's definition (Wetzler, Heule and Hunt, SAT 2014; the
binary encoding of DRAT-trim's documentation), not from a solver's code.
Forward checking checks every lemma, also the ones the refutation does not need;
its cost is about the solver's own propagation cost (see docs/certificates.md).
"""

from __future__ import annotations

import base64
import binascii
import lzma
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from knightcert.problems.checkers.failure import CheckFailed

__all__ = [
    "MAX_PROOF_BYTES",
    "MAX_PROOF_TEXT",
    "DratCheck",
    "check_drat",
    "decode_proof",
    "encode_proof",
    "proof_entry",
    "text_to_binary",
]

#: Largest binary DRAT proof (bytes, inflated) an answer may carry.
MAX_PROOF_BYTES = 1 << 30
#: Largest compressed proof text (base64 characters) an answer may carry.
MAX_PROOF_TEXT = 1 << 28
#: Largest variable a proof may name (extension variables included).
MAX_VARIABLES = 1 << 24
#: The one proof format stored.
FORMAT = "drat-binary"
#: xz preset the proofs are compressed with (higher: smaller and slower).
PRESET = 2
_KEYS = {"format", "knights", "bytes", "xz"}


@dataclass(frozen=True)
class DratCheck:
    """What checking a refutation found.

    Attributes
    ----------
    refuted : bool
        The empty clause was added and checked.
    reason : str
        Why the proof was refused (empty when refuted).
    lemmas, rat : int
        Lemmas checked, and how many of them by RAT.
    deletions, kept, unmatched : int
        Deletions applied, ignored (reason clauses), ignored (no such clause).
    seconds : float
        Time spent checking (reading included).
    """

    refuted: bool
    reason: str
    lemmas: int
    rat: int
    deletions: int
    kept: int
    unmatched: int
    seconds: float


def _codes(clauses: list[list[int]]) -> tuple[np.ndarray, np.ndarray, int]:
    """Flat literal codes ``2 * var + (lit < 0)`` and record starts of DIMACS clauses."""
    sizes = np.fromiter((len(c) for c in clauses), dtype=np.int64, count=len(clauses))
    starts = np.zeros(len(clauses) + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    flat = np.fromiter((v for c in clauses for v in c), dtype=np.int64, count=int(starts[-1]))
    if flat.size and (flat == 0).any():
        raise ValueError("a clause holds the literal 0")
    codes = (2 * np.abs(flat) + (flat < 0)).astype(np.int32)
    top = int(np.abs(flat).max()) if flat.size else 0
    return codes, starts, top


def check_drat(clauses: list[list[int]], proof: bytes, *, binary: bool = True) -> DratCheck:
    """Check that ``proof`` (DRAT) refutes the formula ``clauses`` (DIMACS literals).

    Parameters
    ----------
    clauses : list of list of int
        The formula, built by the caller (never read from the proof's source).
    proof : bytes
        Binary DRAT (``binary=True``) or textual DRAT.

    Returns
    -------
    DratCheck
        ``refuted`` is True only when the empty clause was derived and checked.
    """
    import knightcert.problems.checkers.drat_kernel as kernel

    begin = time.perf_counter()
    codes, starts, top = _codes(clauses)
    data = np.frombuffer(proof, dtype=np.uint8)
    parse = kernel.parse_binary if binary else kernel.parse_text
    status, where, kinds, pstarts, pcodes, ptop = parse(data, MAX_VARIABLES)
    if status != kernel.PARSED:
        return DratCheck(False, f"the proof is malformed at byte {where}", 0, 0, 0, 0, 0, _since(begin))
    nformula = len(clauses)
    lits = np.concatenate([codes, pcodes]).astype(np.int32)
    start = np.concatenate([starts, pstarts[1:] + starts[-1]]).astype(np.int64)
    all_kinds = np.concatenate([np.zeros(nformula, np.int8), kinds.astype(np.int8)])
    outcome, record, lemmas, rat, deletions, kept, unmatched = kernel.check_refutation(
        nformula, lits, start, all_kinds, max(top, int(ptop), 1)
    )
    seconds = _since(begin)
    if outcome == kernel.REFUTED:
        return DratCheck(True, "", lemmas, rat, deletions, kept, unmatched, seconds)
    if outcome == kernel.LEMMA_FAILED:
        why = f"proof line {record - nformula + 1} is neither RUP nor RAT"
    else:
        why = "the proof never derives the empty clause"
    return DratCheck(False, why, lemmas, rat, deletions, kept, unmatched, seconds)


def _since(begin: float) -> float:
    return time.perf_counter() - begin


def text_to_binary(text: bytes) -> bytes:
    """Textual DRAT (``1 -2 0`` / ``d 1 -2 0`` lines) as binary DRAT; ValueError if malformed."""
    import knightcert.problems.checkers.drat_kernel as kernel

    status, where, kinds, starts, codes, _ = kernel.parse_text(
        np.frombuffer(text, dtype=np.uint8), MAX_VARIABLES
    )
    if status != kernel.PARSED:
        raise ValueError(f"malformed DRAT text at byte {where}")
    return kernel.encode_binary(kinds, starts, codes).tobytes()


def encode_proof(binary: bytes, knights: int) -> dict[str, Any]:
    """A binary DRAT proof that "at least ``knights`` knights" is unsatisfiable, as an answer's
    certificate entry: ``{format, knights, bytes, xz}``."""
    packed = lzma.compress(binary, preset=PRESET)
    return {
        "format": FORMAT,
        "knights": int(knights),
        "bytes": len(binary),
        "xz": base64.b64encode(packed).decode("ascii"),
    }


def proof_entry(entry: Any, claim: str = "optimal") -> dict[str, Any]:
    """Check the shape of a certificate's proof entry (nothing inflated); return a plain copy.

    Raises
    ------
    CheckFailed
        Not ``{format: "drat-binary", knights: int, bytes: int, xz: str}``, or over the size limits.
    """
    if not isinstance(entry, dict) or set(entry) != _KEYS:
        raise CheckFailed(
            "certificate 'drat': expected an object with keys format, knights, bytes, xz", claim
        )
    if entry["format"] != FORMAT:
        raise CheckFailed(
            f"certificate 'drat': format {str(entry['format'])[:40]!r} is not {FORMAT!r}", claim
        )
    size, text, knights = entry["bytes"], entry["xz"], entry["knights"]
    if type(knights) is not int or not 1 <= knights <= MAX_VARIABLES:
        raise CheckFailed(f"certificate 'drat': knights must be an integer from 1 to {MAX_VARIABLES}", claim)
    if type(size) is not int or not 0 <= size <= MAX_PROOF_BYTES:
        raise CheckFailed(f"certificate 'drat': bytes must be an integer from 0 to {MAX_PROOF_BYTES}", claim)
    if not isinstance(text, str) or len(text) > MAX_PROOF_TEXT:
        raise CheckFailed(
            f"certificate 'drat': xz must be text of at most {MAX_PROOF_TEXT} characters", claim
        )
    return {"format": FORMAT, "knights": knights, "bytes": size, "xz": str(text)}


def decode_proof(entry: Any, claim: str = "optimal") -> bytes:
    """The binary DRAT proof of a certificate entry; inflated at most to its declared size.

    Raises
    ------
    CheckFailed
        A malformed entry, corrupt data, or data that does not inflate to exactly the
        declared number of bytes.
    """
    entry = proof_entry(entry, claim)
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
