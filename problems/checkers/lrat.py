"""The project's own LRAT proof checker: a refutation whose every lemma names its reasons.

An LRAT proof of a formula ``F`` (clauses numbered ``1 .. m`` in the formula's order)
is a sequence of additions ``id C hints`` and deletions ``d ids``. An addition is
checked against the clauses active at that point (the formula's, the checked
additions, less the deletions):

hints (RUP with its propagation written out)
    Assign every literal of ``C`` false; then every hint in turn must name an active
    clause that is *unit* (all its literals false but one, unassigned, which is then
    assigned true) or *falsified* (every literal false: the check succeeds, the hints
    after it are not read). A hint naming a clause that is satisfied, has two free
    literals, is deleted or unknown, or hints that run out before a falsified clause,
    refuse the proof. A tautology is accepted as it is (it is true everywhere).
identifiers
    Every addition's identifier exceeds the formula's and every earlier addition's: a
    hint can name only one clause.
RAT steps (negative hints) are not accepted (CaDiCaL writes none): refusing a step is
always sound. Deletions of a clause that is not active are ignored.

The proof is accepted when it adds the empty clause and that addition checks: then
every lemma is implied by ``F`` (each is derived by unit resolution from active
clauses), so ``F`` is unsatisfiable. Checking is linear in the size of the proof: no
search, only the propagation the hints spell out — the solver did the search.

Proofs are binary LRAT (:mod:`knightcert.problems.checkers.lrat_kernel`), stored like
DRAT proofs (:func:`knightcert.problems.checkers.drat.encode_proof`, format
``"lrat-binary"``).
"""

from __future__ import annotations

import time

import numpy as np

from knightcert.problems.checkers.drat import MAX_VARIABLES, DratCheck

__all__ = ["check_lrat", "lrat_text_to_binary"]


def check_lrat(clauses: list[list[int]], proof: bytes) -> DratCheck:
    """Check that ``proof`` (binary LRAT) refutes the formula ``clauses`` (DIMACS literals;
    clause ``i`` of the list has identifier ``i + 1``).

    Returns
    -------
    DratCheck
        ``refuted`` is True only when the empty clause was added and checked;
        ``lemmas`` (= ``checked``) the additions checked.
    """
    import knightcert.problems.checkers.lrat_kernel as kernel

    begin = time.perf_counter()
    data = np.frombuffer(proof, dtype=np.uint8)
    status, where, records, literals, nhints = kernel.lrat_size(data, MAX_VARIABLES)
    if status != kernel.PARSED:
        return DratCheck(False, f"the proof is malformed at byte {where}", 0, 0, 0, 0, 0, _since(begin))
    nformula = len(clauses)
    count = sum(len(c) for c in clauses)
    kinds = np.zeros(nformula + records, np.int8)
    ids = np.zeros(nformula + records, np.int32)
    lstart = np.zeros(nformula + records + 1, np.int64)
    lits = np.empty(count + literals, np.int32)
    hstart = np.zeros(nformula + records + 1, np.int64)
    hints = np.empty(nhints, np.int32)  # identifiers stay below 2^31 (the reader refuses more)
    k = 0
    top = 1
    for r, clause in enumerate(clauses):
        for v in clause:
            if v == 0:
                raise ValueError("a clause holds the literal 0")
            lits[k] = 2 * v if v > 0 else -2 * v + 1
            top = max(top, abs(v))
            k += 1
        lstart[r + 1] = k
    ptop = kernel.lrat_fill(data, kinds, ids, lstart, lits, hstart, hints, nformula, count)
    outcome, record, lemmas, deletions, unmatched = kernel.check_lrat(
        nformula, kinds, ids, lstart, lits, hstart, hints, max(top, int(ptop))
    )
    seconds = _since(begin)
    if outcome == kernel.REFUTED:
        return DratCheck(True, "", lemmas, 0, deletions, 0, unmatched, seconds, lemmas)
    line = record - nformula + 1
    if outcome == kernel.LEMMA_FAILED:
        why = f"proof line {line}: its hints do not derive a conflict by unit propagation"
    elif outcome == kernel.BAD_ID:
        why = f"proof line {line}: its identifier does not exceed every earlier one"
    else:
        why = "the proof never derives the empty clause"
    return DratCheck(False, why, lemmas, 0, deletions, 0, unmatched, seconds, lemmas)


def _since(begin: float) -> float:
    return time.perf_counter() - begin


def _number(u: int) -> bytes:
    out = bytearray()
    while u >= 128:
        out.append((u & 127) | 128)
        u >>= 7
    out.append(u)
    return bytes(out)


def lrat_text_to_binary(text: str) -> bytes:
    """Textual LRAT (``4 1 -2 0 1 3 0`` additions, ``4 d 1 2 0`` deletions) as binary LRAT;
    ValueError if malformed (tests and tools; the checker reads binary only)."""
    out = bytearray()
    for raw in text.splitlines():
        words = raw.split()
        if not words or words[0] == "c":
            continue
        if len(words) >= 2 and words[1] == "d":
            if words[-1] != "0":
                raise ValueError(f"malformed LRAT deletion: {raw!r}")
            out += b"d" + b"".join(_number(2 * int(w)) for w in words[2:-1]) + b"\x00"
            continue
        numbers = [int(w) for w in words]
        if numbers.count(0) != 2 or numbers[-1] != 0 or numbers[0] <= 0:
            raise ValueError(f"malformed LRAT addition: {raw!r}")
        cut = numbers.index(0, 1)
        clause, hints = numbers[1:cut], numbers[cut + 1 : -1]
        out += b"a" + _number(2 * numbers[0])
        out += b"".join(_number(2 * abs(v) + (v < 0)) for v in clause) + b"\x00"
        out += b"".join(_number(2 * abs(h) + (h < 0)) for h in hints) + b"\x00"
    return bytes(out)
