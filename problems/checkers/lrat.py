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

Proofs are binary LRAT (:mod:`knightcert.problems.checkers.lrat_kernel`), stored in answers
as :mod:`knightcert.problems.checkers.clausal_proof` says; the same proof as text, with its
formula in DIMACS, is what :mod:`knightcert.problems.checkers.lrat_files` exports.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from knightcert.problems.checkers.clausal_proof import MAX_VARIABLES

__all__ = ["LratCheck", "LratRecords", "check_lrat", "read_lrat"]


@dataclass(frozen=True)
class LratCheck:
    """What checking a refutation found.

    Attributes
    ----------
    refuted : bool
        The empty clause was added and checked.
    reason : str
        Why the proof was refused (empty when refuted).
    lemmas : int
        Additions checked.
    deletions, unmatched : int
        Deletions applied, and ignored (no such active clause).
    seconds : float
        Time spent checking (reading included).
    """

    refuted: bool
    reason: str
    lemmas: int
    deletions: int
    unmatched: int
    seconds: float


@dataclass(frozen=True)
class LratRecords:
    """The formula's clauses then a proof's records, as
    :func:`~knightcert.problems.checkers.lrat_kernel.lrat_fill` fills them (record
    ``r < len(clauses)`` is clause ``r + 1`` of the formula); ``top`` the largest variable."""

    kinds: np.ndarray
    ids: np.ndarray
    lstart: np.ndarray
    lits: np.ndarray
    hstart: np.ndarray
    hints: np.ndarray
    top: int


def read_lrat(clauses: list[list[int]], proof: bytes) -> LratRecords | int:
    """The formula's clauses and the binary LRAT ``proof``'s records, or the byte offset of the
    proof's first fault."""
    import knightcert.problems.checkers.lrat_kernel as kernel

    data = np.frombuffer(proof, dtype=np.uint8)
    status, where, records, literals, nhints = kernel.lrat_size(data, MAX_VARIABLES)
    if status != kernel.PARSED:
        return int(where)
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
    return LratRecords(kinds, ids, lstart, lits, hstart, hints, max(top, int(ptop)))


def check_lrat(clauses: list[list[int]], proof: bytes) -> LratCheck:
    """Check that ``proof`` (binary LRAT) refutes the formula ``clauses`` (DIMACS literals;
    clause ``i`` of the list has identifier ``i + 1``).

    Returns
    -------
    LratCheck
        ``refuted`` is True only when the empty clause was added and checked.

    Examples
    --------
    >>> from knightcert.problems.checkers.lrat_files import lrat_text_to_binary
    >>> both = [[1, 2], [-1, 2], [1, -2], [-1, -2]]  # every clause over two variables
    >>> check_lrat(both, lrat_text_to_binary("5 2 0 1 2 0\\n6 0 5 3 4 0\\n")).refuted
    True
    """
    import knightcert.problems.checkers.lrat_kernel as kernel

    begin = time.perf_counter()
    read = read_lrat(clauses, proof)
    if isinstance(read, int):
        return LratCheck(False, f"the proof is malformed at byte {read}", 0, 0, 0, _since(begin))
    nformula = len(clauses)
    outcome, record, lemmas, deletions, unmatched = kernel.check_lrat(
        nformula, read.kinds, read.ids, read.lstart, read.lits, read.hstart, read.hints, read.top
    )
    line = record - nformula + 1
    if outcome == kernel.REFUTED:
        why = ""
    elif outcome == kernel.LEMMA_FAILED:
        why = f"proof line {line}: its hints do not derive a conflict by unit propagation"
    elif outcome == kernel.BAD_ID:
        why = f"proof line {line}: its identifier does not exceed every earlier one"
    else:
        why = "the proof never derives the empty clause"
    return LratCheck(outcome == kernel.REFUTED, why, lemmas, deletions, unmatched, _since(begin))


def _since(begin: float) -> float:
    return time.perf_counter() - begin
