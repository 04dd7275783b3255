"""The project's own DRAT proof checker: a clausal refutation, checked lemma by lemma.

A DRAT proof of a formula ``F`` is a sequence of lemmas (clauses added) and
deletions. Each lemma ``C`` must hold against the clause set current at its point
(``F``, plus the earlier lemmas, minus the earlier deletions). By default only the
lemmas the refutation rests on are checked, walking the proof backward
(:mod:`knightcert.problems.checkers.drat_backward`); ``backward=False`` checks
every lemma in order (forward). A lemma holds by:

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
its cost is about the solver's own propagation cost; backward checking skips the
unneeded ones (see docs/certificates.md). LRAT proofs, which name each lemma's
reasons, are checked by :mod:`knightcert.problems.checkers.lrat`.
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
    "FORMATS",
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
#: The proof format written by default, and every format an answer may carry: binary DRAT
#: (checked here) and binary LRAT (:mod:`knightcert.problems.checkers.lrat`).
FORMAT = "drat-binary"
FORMATS = ("drat-binary", "lrat-binary")
#: xz preset the proofs are compressed with (higher: smaller and slower). 0: a 13 x 15 proof's
#: 67 MB of LRAT packed in 4.6 s to 22.3 MB, against 13.1 s and 20.8 MB at preset 2.
PRESET = 0
_KEYS = {"format", "knights", "bytes", "xz"}
#: The optional key: the length of the lex-leader comparisons the refuted formula carries
#: (:func:`knightcert.problems.checkers.knights_cnf.knights_cnf`'s ``lex``).
_LEX = "lex"
#: The optional key naming the counter's order
#: (:func:`~knightcert.problems.checkers.knights_cnf.counter_order`).
_LINES = "lines"
#: The optional keys, each a positive integer that says which formula the proof refutes.
_OPTIONAL = (_LEX, _LINES)


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
    checked : int
        Lemmas checked: all of them forward, the refutation's core backward.
    """

    refuted: bool
    reason: str
    lemmas: int
    rat: int
    deletions: int
    kept: int
    unmatched: int
    seconds: float
    checked: int = 0


def _formula_size(clauses: list[list[int]]) -> tuple[int, int]:
    """How many literals the formula has, and its largest variable; ValueError on a literal 0."""
    count = 0
    top = 0
    for clause in clauses:
        count += len(clause)
        for v in clause:
            if v == 0:
                raise ValueError("a clause holds the literal 0")
            top = max(top, abs(v))
    return count, top


def _records(clauses: list[list[int]], data: np.ndarray, binary: bool):
    """The formula's clauses then the proof's records, in one arena: ``(status, where, lits,
    start, kinds, top)``; literal codes ``2 * var + (lit < 0)`` (int32), record ``r``'s are
    ``lits[start[r]:start[r + 1]]``. Binary proofs are read straight into the arena (one
    copy of the literals, never two)."""
    import knightcert.problems.checkers.drat_kernel as kernel

    nformula = len(clauses)
    count, top = _formula_size(clauses)
    if binary:
        status, where, records, literals = kernel.binary_size(data, MAX_VARIABLES)
        if status != kernel.PARSED:
            return status, where, None, None, None, 0
    else:
        status, where, pkinds, pstarts, pcodes, _ = kernel.parse_text(data, MAX_VARIABLES)
        if status != kernel.PARSED:
            return status, where, None, None, None, 0
        records, literals = pkinds.size, pcodes.size
    lits = np.empty(count + literals, np.int32)
    start = np.zeros(nformula + records + 1, np.int64)
    kinds = np.zeros(nformula + records, np.int8)
    k = 0
    for r, clause in enumerate(clauses):
        for v in clause:
            lits[k] = 2 * v if v > 0 else -2 * v + 1
            k += 1
        start[r + 1] = k
    if binary:
        ptop = kernel.binary_fill(data, kinds, start, lits, nformula, count)
    else:
        lits[count:] = pcodes
        start[nformula + 1 :] = pstarts[1:] + count
        kinds[nformula:] = pkinds
        ptop = max((int(pcodes.max()) >> 1) if pcodes.size else 0, 0)
    return kernel.PARSED, 0, lits, start, kinds, max(top, int(ptop), 1)


def check_drat(
    clauses: list[list[int]], proof: bytes, *, binary: bool = True, backward: bool = True
) -> DratCheck:
    """Check that ``proof`` (DRAT) refutes the formula ``clauses`` (DIMACS literals).

    Parameters
    ----------
    clauses : list of list of int
        The formula, built by the caller (never read from the proof's source).
    proof : bytes
        Binary DRAT (``binary=True``) or textual DRAT.
    backward : bool
        Check backward (the default: only the lemmas the refutation rests on,
        :mod:`knightcert.problems.checkers.drat_backward`), or forward (every lemma, in order).

    Returns
    -------
    DratCheck
        ``refuted`` is True only when the empty clause was derived and checked.
    """
    import knightcert.problems.checkers.drat_kernel as kernel

    begin = time.perf_counter()
    nformula = len(clauses)
    data = np.frombuffer(proof, dtype=np.uint8)
    status, where, lits, start, kinds, top = _records(clauses, data, binary)
    if status != kernel.PARSED:
        return DratCheck(False, f"the proof is malformed at byte {where}", 0, 0, 0, 0, 0, _since(begin))
    if backward:
        from knightcert.problems.checkers.drat_backward import check_backward

        outcome, record, lemmas, checked, rat, deletions, kept, unmatched = check_backward(
            nformula, lits, start, kinds, top
        )
    else:
        outcome, record, lemmas, rat, deletions, kept, unmatched = kernel.check_refutation(
            nformula, lits, start, kinds, top
        )
        checked = lemmas
    del lits, start, kinds
    seconds = _since(begin)
    if outcome == kernel.REFUTED:
        return DratCheck(True, "", lemmas, rat, deletions, kept, unmatched, seconds, checked)
    if outcome == kernel.LEMMA_FAILED:
        why = f"proof line {record - nformula + 1} is neither RUP nor RAT"
    elif backward:
        why = "the proof never derives the empty clause (its lemmas never make unit propagation conflict)"
    else:
        why = "the proof never derives the empty clause"
    return DratCheck(False, why, lemmas, rat, deletions, kept, unmatched, seconds, checked)


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


def encode_proof(
    binary: bytes, knights: int, proof_format: str = FORMAT, *, lex: int = 0, lines: int = 0
) -> dict[str, Any]:
    """A binary DRAT (or LRAT: ``proof_format``) proof that "at least ``knights`` knights" is
    unsatisfiable, as an answer's certificate entry: ``{format, knights, bytes, xz}``,
    ``lex`` when the refuted formula carries lex-leader comparisons of that length, and
    ``lines`` when its counter takes the squares by knight lines in that order."""
    if proof_format not in FORMATS:
        raise ValueError(f"unknown proof format {proof_format!r}")
    packed = lzma.compress(binary, preset=PRESET)
    entry: dict[str, Any] = {
        "format": proof_format,
        "knights": int(knights),
        "bytes": len(binary),
        "xz": base64.b64encode(packed).decode("ascii"),
    }
    if lex:
        entry[_LEX] = int(lex)
    if lines:
        entry[_LINES] = int(lines)
    return entry


def proof_entry(entry: Any, claim: str = "optimal") -> dict[str, Any]:
    """Check the shape of a certificate's proof entry (nothing inflated); return a plain copy.

    Raises
    ------
    CheckFailed
        Not ``{format: "drat-binary" or "lrat-binary", knights: int, bytes: int, xz: str}``
        (and optionally ``lex: int``, ``lines: int``), or over the size limits.
    """
    if not isinstance(entry, dict) or not _KEYS <= set(entry) <= _KEYS | set(_OPTIONAL):
        raise CheckFailed(
            "certificate 'drat': expected an object with keys format, knights, bytes, xz (and lex, lines)",
            claim,
        )
    if entry["format"] not in FORMATS:
        raise CheckFailed(
            f"certificate 'drat': format {str(entry['format'])[:40]!r} is not one of {', '.join(FORMATS)}",
            claim,
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
    copy = {"format": str(entry["format"]), "knights": knights, "bytes": size, "xz": str(text)}
    for key in _OPTIONAL:
        if key in entry:
            value = entry[key]
            if type(value) is not int or not 1 <= value <= MAX_VARIABLES:
                raise CheckFailed(
                    f"certificate 'drat': {key} must be an integer from 1 to {MAX_VARIABLES}", claim
                )
            copy[key] = value
    return copy


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
