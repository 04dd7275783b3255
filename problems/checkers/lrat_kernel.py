"""Compiled kernels of the LRAT checker (numba): reading binary LRAT, and checking a proof.

Written from the format's definition (Cruz-Filipe, Heule, Hunt, Kaufmann, Schneider-Kamp,
"Efficient certified RAT verification", CADE 2017; the binary encoding that of
binary DRAT), independent of any solver: see :mod:`knightcert.problems.checkers.lrat`.

Literals are coded ``2 * var + (lit < 0)``; clause identifiers and hints ``2 * |id| +
(id < 0)``, as in the binary format.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["check_lrat", "lrat_fill", "lrat_size"]

#: Outcomes of :func:`check_lrat`.
REFUTED, LEMMA_FAILED, NO_EMPTY_CLAUSE, BAD_ID = 0, 1, 2, 3
#: Outcomes of the reader.
PARSED, MALFORMED = 0, 1


@njit(cache=True, nogil=True)
def _number(data, i):  # pragma: no cover - numba
    """The variable-length number at ``data[i]``: ``(value, next index)``, value -1 when
    cut short, 2^31 or more, or written with a superfluous zero byte."""
    n = data.size
    u = 0
    shift = 0
    first = i
    while True:
        if i >= n or shift > 28:
            return -1, first
        b = data[i]
        i += 1
        u |= (b & 127) << shift
        shift += 7
        if b < 128:
            break
    if b == 0 and i - first != 1:
        return -1, first
    if u > 0x7FFFFFFF:  # identifiers below 2^30: they fit the int32 arrays
        return -1, first
    return u, i


@njit(cache=True, nogil=True)
def lrat_size(data, max_var):  # pragma: no cover - numba
    """Validate binary LRAT: ``(status, where, records, literals, hints)``.

    An addition is ``a`` (0x61), its identifier, its literals, a zero, its hints (clause
    identifiers, negative ones for RAT), a zero; a deletion is ``d`` (0x64), the
    identifiers it deletes, a zero. Numbers are variable-length unsigned integers (7 bits
    a byte, low first, the high bit set on all but the last byte): ``2 * var + sign`` for
    a literal, ``2 * |id| + (id < 0)`` for an identifier or a hint. ``where`` is the byte
    offset of the first fault: a zero identifier, a negative identifier, a variable 0 or
    above ``max_var``, a number over 31 bits or not canonical, a record cut short.
    """
    n = data.size
    records = 0
    literals = 0
    hints = 0
    i = 0
    while i < n:
        b = data[i]
        if b != 0x61 and b != 0x64:
            return MALFORMED, i, 0, 0, 0
        i += 1
        if b == 0x61:
            at = i
            u, i = _number(data, i)
            if u < 2 or (u & 1) == 1:
                return MALFORMED, at, 0, 0, 0
            while True:  # literals
                at = i
                u, i = _number(data, i)
                if u < 0:
                    return MALFORMED, at, 0, 0, 0
                if u == 0:
                    break
                if (u >> 1) == 0 or (u >> 1) > max_var:
                    return MALFORMED, at, 0, 0, 0
                literals += 1
        while True:  # hints, or the deleted identifiers
            at = i
            u, i = _number(data, i)
            if u < 0:
                return MALFORMED, at, 0, 0, 0
            if u == 0:
                break
            if u < 2 or (b == 0x64 and (u & 1) == 1):
                return MALFORMED, at, 0, 0, 0
            hints += 1
        records += 1
    return PARSED, 0, records, literals, hints


@njit(cache=True, nogil=True)
def lrat_fill(data, kinds, ids, lstart, lits, hstart, hints, r, k):  # pragma: no cover - numba
    """Store the records :func:`lrat_size` accepted, from record ``r`` and literal ``k`` on:
    ``kinds[r]`` (0 addition, 1 deletion), ``ids[r]``, literals ``lits[lstart[r]:lstart[r + 1]]``
    (codes), hints ``hints[hstart[r]:hstart[r + 1]]`` (signed identifiers; a deletion's
    identifiers). Returns the largest variable."""
    n = data.size
    top = 0
    h = hstart[r]
    i = 0
    while i < n:
        b = data[i]
        i += 1
        kinds[r] = 0 if b == 0x61 else 1
        if b == 0x61:
            u, i = _number(data, i)
            ids[r] = u >> 1
            while True:
                u, i = _number(data, i)
                if u == 0:
                    break
                lits[k] = u
                k += 1
                if (u >> 1) > top:
                    top = u >> 1
        lstart[r + 1] = k
        while True:
            u, i = _number(data, i)
            if u == 0:
                break
            hints[h] = -(u >> 1) if (u & 1) == 1 else (u >> 1)
            h += 1
        hstart[r + 1] = h
        r += 1
    return top


@njit(cache=True, nogil=True)
def _find(ident, nformula, aid, arec, na):  # pragma: no cover - numba
    """The record of clause ``ident``: formula clause ``ident - 1``, or the proof's addition
    with that identifier (``aid[:na]``, increasing: checked on every addition), or -1."""
    if ident <= 0:
        return -1
    if ident <= nformula:
        return ident - 1
    i = np.searchsorted(aid[:na], ident)
    if i < na and aid[i] == ident:
        return arec[i]
    return -1


@njit(cache=True, nogil=True)
def check_lrat(nformula, kinds, ids, lstart, lits, hstart, hints, max_var):  # pragma: no cover - numba
    """Check an LRAT refutation (see :mod:`knightcert.problems.checkers.lrat`).

    Records ``0 .. nformula - 1`` are the formula's clauses (identifiers ``1 ..
    nformula``, their ``ids`` entries 0), the proof's follow.

    Returns
    -------
    (outcome, record, lemmas, deletions, unmatched)
        ``outcome`` is ``REFUTED`` (the empty clause was added and checked),
        ``LEMMA_FAILED`` (the hints of ``record`` do not derive a conflict by unit
        propagation), ``BAD_ID`` (``record``'s identifier does not exceed every
        identifier before it) or ``NO_EMPTY_CLAUSE``; ``lemmas`` checked,
        ``deletions`` applied, ``unmatched`` deletions of no active clause (ignored).
    """
    nrec = kinds.size
    val = np.zeros(2 * max_var + 2, np.int8)
    trail = np.zeros(max_var + 1, np.int32)
    active = np.zeros(nrec, np.bool_)
    active[:nformula] = True
    last = nformula
    aid = np.zeros(nrec - nformula, np.int32)  # the additions' identifiers, increasing
    arec = np.zeros(nrec - nformula, np.int32)  # and their records
    na = 0
    lemmas = 0
    deletions = 0
    unmatched = 0
    for r in range(nformula, nrec):
        if kinds[r] == 1:
            for j in range(hstart[r], hstart[r + 1]):
                c = _find(hints[j], nformula, aid, arec, na)
                if c == -1 or not active[c]:
                    unmatched += 1
                else:
                    active[c] = False
                    deletions += 1
            continue
        if ids[r] <= last:
            return BAD_ID, r, lemmas, deletions, unmatched
        last = ids[r]
        lemmas += 1
        tlen = 0
        derived = False
        for j in range(lstart[r], lstart[r + 1]):  # assume the lemma false
            q = lits[j]
            if val[q] == 1:  # q and its negation both in the lemma: a tautology
                derived = True
                break
            if val[q] == 0:
                val[q] = -1
                val[q ^ 1] = 1
                trail[tlen] = q ^ 1
                tlen += 1
        if not derived:
            for j in range(hstart[r], hstart[r + 1]):  # each hint: unit, or the conflict
                c = _find(hints[j], nformula, aid, arec, na)
                if c == -1 or not active[c]:
                    break  # a RAT hint (negative), an unknown or deleted clause: refused
                unit = -1
                free = 0
                for i in range(lstart[c], lstart[c + 1]):
                    q = lits[i]
                    v = val[q]
                    if v == 1:
                        free = 2  # satisfied: not a unit clause
                        break
                    if v == 0 and q != unit:
                        free += 1
                        unit = q
                        if free > 1:
                            break
                if free == 0:
                    derived = True
                    break
                if free > 1:
                    break
                val[unit] = 1
                val[unit ^ 1] = -1
                trail[tlen] = unit
                tlen += 1
        for t in range(tlen):
            q = trail[t]
            val[q] = 0
            val[q ^ 1] = 0
        if not derived:
            return LEMMA_FAILED, r, lemmas, deletions, unmatched
        active[r] = True
        aid[na] = ids[r]
        arec[na] = r
        na += 1
        if lstart[r + 1] == lstart[r]:
            return REFUTED, r, lemmas, deletions, unmatched
    return NO_EMPTY_CLAUSE, nrec, lemmas, deletions, unmatched
