"""Compiled kernels of the DRAT checker (numba): reading binary DRAT, and checking a proof.

Written from the format's definition (Wetzler, Heule, Hunt, "DRAT-trim: Efficient
Checking and Trimming Using Expressive Clausal Proofs", SAT 2014), independent of
any solver: see :mod:`knightcert.problems.checkers.drat` for what is checked.

Literals are coded ``2 * var + (lit < 0)``; the negation of ``code`` is ``code ^ 1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

__all__ = ["binary_fill", "binary_size", "check_refutation", "encode_binary", "parse_binary", "parse_text"]

#: Outcomes of :func:`check_refutation`.
REFUTED, LEMMA_FAILED, NO_EMPTY_CLAUSE = 0, 1, 2
#: Outcomes of the readers: the input is well formed, or not.
PARSED, MALFORMED = 0, 1


@njit(cache=True, nogil=True)
def _malformed(where):  # pragma: no cover - numba
    return MALFORMED, where, np.zeros(0, np.int8), np.zeros(1, np.int64), np.zeros(0, np.int32), 0


@njit(cache=True, nogil=True)
def binary_size(data, max_var):  # pragma: no cover - numba
    """Validate binary DRAT: ``(status, where, records, literals)``.

    Each record is ``a`` (0x61, an added lemma) or ``d`` (0x64, a deletion), then its
    literals as variable-length unsigned integers ``2 * var + sign`` (7 bits a byte, low
    first, the high bit set on all but the last byte), then a zero byte. A variable above
    ``max_var``, a zero variable, an over-long or non-canonical number, or a record cut
    short gives ``MALFORMED`` with the byte offset ``where``.
    """
    n = data.size
    records = 0
    literals = 0
    i = 0
    while i < n:
        b = data[i]
        if b != 0x61 and b != 0x64:
            return MALFORMED, i, 0, 0
        i += 1
        closed = False
        while i < n:
            u = 0
            shift = 0
            first = i
            while True:
                if i >= n or shift > 28:
                    return MALFORMED, first, 0, 0
                b = data[i]
                i += 1
                u |= (b & 127) << shift
                shift += 7
                if b < 128:
                    break
            if u == 0:
                if i - first != 1:
                    return MALFORMED, first, 0, 0
                closed = True
                break
            if (u >> 1) == 0 or (u >> 1) > max_var:
                return MALFORMED, first, 0, 0
            literals += 1
        if not closed:
            return MALFORMED, n, 0, 0
        records += 1
    return PARSED, 0, records, literals


@njit(cache=True, nogil=True)
def binary_fill(data, kinds, starts, codes, r, k):  # pragma: no cover - numba
    """Store the records of binary DRAT that :func:`binary_size` accepted from record ``r``
    and literal ``k`` on (``kinds[r]``, ``starts[r + 1]``, ``codes[k]``); returns the largest
    variable."""
    n = data.size
    top = 0
    i = 0
    while i < n:
        kinds[r] = 0 if data[i] == 0x61 else 1
        i += 1
        while True:
            u = 0
            shift = 0
            while True:
                b = data[i]
                i += 1
                u |= (b & 127) << shift
                shift += 7
                if b < 128:
                    break
            if u == 0:
                break
            codes[k] = u
            k += 1
            if (u >> 1) > top:
                top = u >> 1
        r += 1
        starts[r] = k
    return top


@njit(cache=True, nogil=True)
def parse_binary(data, max_var):  # pragma: no cover - numba
    """Records of a binary DRAT proof: ``(status, where, kinds, starts, codes, top_var)``
    (format: :func:`binary_size`). ``kinds`` is 0 for an addition and 1 for a deletion;
    the literals of record ``r`` are ``codes[starts[r]:starts[r + 1]]``; a malformed
    proof gives ``MALFORMED`` with the byte offset ``where``."""
    status, where, records, literals = binary_size(data, max_var)
    if status != PARSED:
        return _malformed(where)
    kinds = np.zeros(records, np.int8)
    starts = np.zeros(records + 1, np.int64)
    codes = np.zeros(literals, np.int32)
    top = binary_fill(data, kinds, starts, codes, 0, 0)
    return PARSED, 0, kinds, starts, codes, top


@njit(cache=True, nogil=True)
def _text_pass(data, max_var, kinds, starts, codes, fill):  # pragma: no cover - numba
    """One pass over textual DRAT: count records and literals, or (``fill``) store them."""
    n = data.size
    records = 0
    literals = 0
    top = 0
    i = 0
    while i < n:
        c = data[i]
        if c == 32 or c == 10 or c == 13 or c == 9:
            i += 1
            continue
        if c == 99:  # 'c': a comment line
            while i < n and data[i] != 10:
                i += 1
            continue
        kind = 0
        if c == 100:  # 'd'
            kind = 1
            i += 1
        closed = False
        while i < n:
            while i < n and (data[i] == 32 or data[i] == 9 or data[i] == 10 or data[i] == 13):
                i += 1
            if i >= n:
                break
            sign = 0
            if data[i] == 45:
                sign = 1
                i += 1
            value = 0
            digits = 0
            while i < n and 48 <= data[i] <= 57:
                value = value * 10 + (data[i] - 48)
                digits += 1
                i += 1
                if value > max_var:
                    return MALFORMED, i, 0, 0, 0
            if digits == 0 or (sign == 1 and value == 0):
                return MALFORMED, i, 0, 0, 0
            if value == 0:
                closed = True
                break
            if fill:
                codes[literals] = 2 * value + sign
            literals += 1
            if value > top:
                top = value
        if not closed:
            return MALFORMED, n, 0, 0, 0
        if fill:
            kinds[records] = kind
            starts[records + 1] = literals
        records += 1
    return PARSED, records, literals, top, 0


@njit(cache=True, nogil=True)
def parse_text(data, max_var):  # pragma: no cover - numba
    """Records of a textual DRAT proof (``1 -2 0`` lines, ``d 1 -2 0`` deletions), in the
    form :func:`parse_binary` returns; comment lines (``c ...``) are skipped."""
    kinds = np.zeros(0, np.int8)
    starts = np.zeros(1, np.int64)
    codes = np.zeros(0, np.int32)
    status, records, literals, top, _ = _text_pass(data, max_var, kinds, starts, codes, False)
    if status != PARSED:
        return MALFORMED, records, kinds, starts, codes, 0
    kinds = np.zeros(records, np.int8)
    starts = np.zeros(records + 1, np.int64)
    codes = np.zeros(literals, np.int32)
    _text_pass(data, max_var, kinds, starts, codes, True)
    return PARSED, 0, kinds, starts, codes, top


@njit(cache=True, nogil=True)
def encode_binary(kinds, starts, codes):  # pragma: no cover - numba
    """The binary DRAT bytes of records in :func:`parse_binary`'s form."""
    size = 0
    for r in range(kinds.size):
        size += 2
        for k in range(starts[r], starts[r + 1]):
            u = codes[k]
            while u >= 128:
                size += 1
                u >>= 7
            size += 1
    out = np.zeros(size, np.uint8)
    i = 0
    for r in range(kinds.size):
        out[i] = 0x61 if kinds[r] == 0 else 0x64
        i += 1
        for k in range(starts[r], starts[r + 1]):
            u = codes[k]
            while u >= 128:
                out[i] = (u & 127) | 128
                i += 1
                u >>= 7
            out[i] = u
            i += 1
        out[i] = 0
        i += 1
    return out


@njit(cache=True, nogil=True)
def _mix(code):  # pragma: no cover - numba
    x = np.uint64(code) * np.uint64(0x9E3779B97F4A7C15)
    return x ^ (x >> np.uint64(29))


@njit(cache=True, nogil=True)
def _assign(code, why, val, reason, trail, tlen):  # pragma: no cover - numba
    val[code] = 1
    val[code ^ 1] = -1
    reason[code >> 1] = why
    trail[tlen] = code
    return tlen + 1


@njit(cache=True, nogil=True)
def _undo(mark, tlen, val, reason, trail):  # pragma: no cover - numba
    for t in range(mark, tlen):
        code = trail[t]
        val[code] = 0
        val[code ^ 1] = 0
        reason[code >> 1] = -1
    return mark


@njit(cache=True, nogil=True)
def _falsify(lo, hi, skip, lits, val, reason, trail, tlen):  # pragma: no cover - numba
    """Assign the literals ``lits[lo:hi]`` but ``skip`` false (no reason: assumptions of a
    check); returns ``(satisfied, tlen)``, ``satisfied`` when one of them is already true
    (the check holds at once). The RUP check and each RAT resolvent's check share it."""
    for j in range(lo, hi):
        q = lits[j]
        if q == skip:
            continue
        if val[q] == 1:
            return True, tlen
        if val[q] == 0:
            tlen = _assign(q ^ 1, -1, val, reason, trail, tlen)
    return False, tlen


@njit(cache=True, nogil=True)
def _propagate(qhead, tlen, lits, start, length, deleted, head, nxt, val, reason, trail):  # pragma: no cover
    """Unit propagation from ``trail[qhead:tlen]``; returns ``(conflict, tlen)``."""
    while qhead < tlen:
        false_lit = trail[qhead] ^ 1
        qhead += 1
        prev = -1
        w = head[false_lit]
        while w != -1:
            following = nxt[w]
            c = w >> 1
            k = w & 1
            if deleted[c]:  # lazily dropped from the watch list
                if prev == -1:
                    head[false_lit] = following
                else:
                    nxt[prev] = following
                w = following
                continue
            s = start[c]
            other = lits[s + 1 - k]
            if val[other] == 1:
                prev = w
                w = following
                continue
            moved = False
            for j in range(s + 2, s + length[c]):
                q = lits[j]
                if val[q] != -1:
                    lits[j] = lits[s + k]
                    lits[s + k] = q
                    if prev == -1:
                        head[false_lit] = following
                    else:
                        nxt[prev] = following
                    nxt[w] = head[q]
                    head[q] = w
                    moved = True
                    break
            if moved:
                w = following
                continue
            if val[other] == -1:
                return True, tlen
            tlen = _assign(other, c, val, reason, trail, tlen)
            prev = w
            w = following
    return False, tlen


@njit(cache=True, nogil=True)
def _attach(c, lits, start, length, head, nxt, val, reason, trail, tlen):  # pragma: no cover - numba
    """Add clause ``c`` at the top level: watch two literals, assign it if it is unit.

    Returns ``(conflict, tlen)``: ``conflict`` when every literal is false."""
    s = start[c]
    n = length[c]
    if n == 0:
        return True, tlen
    found = 0  # move up to two literals that are not false to the front
    for j in range(s, s + n):
        if val[lits[j]] != -1:
            q = lits[j]
            lits[j] = lits[s + found]
            lits[s + found] = q
            found += 1
            if found == 2:
                break
    if found == 0:
        return True, tlen
    if found == 1 and val[lits[s]] == 0:
        tlen = _assign(lits[s], c, val, reason, trail, tlen)
    if n >= 2:
        for k in range(2):
            w = 2 * c + k
            q = lits[s + k]
            nxt[w] = head[q]
            head[q] = w
    return False, tlen


@njit(cache=True, nogil=True)
def check_refutation(nformula, lits, start, kinds, max_var):  # pragma: no cover - numba
    """Forward check of a DRAT refutation.

    Parameters
    ----------
    nformula : int
        Clauses ``0 .. nformula - 1`` are the formula's; the following records are the
        proof's, in order.
    lits, start : arrays
        Record ``r``'s literal codes are ``lits[start[r]:start[r + 1]]`` (this array is
        reordered in place).
    kinds : int8 array
        Per record: 0 added (formula clauses are added), 1 deleted.
    max_var : int
        Largest variable any record names.

    Returns
    -------
    (outcome, record, added, rat, deletions, kept, unmatched)
        ``outcome`` is ``REFUTED`` (the empty clause was added and checked),
        ``LEMMA_FAILED`` (``record`` is neither RUP nor RAT) or ``NO_EMPTY_CLAUSE``;
        ``added`` lemmas checked, ``rat`` of them by RAT; ``deletions`` applied,
        ``kept`` deletions of a clause that is the reason of a top-level assignment
        (ignored, as DRAT-trim does: ignoring a deletion never makes a refutation
        unsound), ``unmatched`` deletions of a clause not in the formula (ignored).
    """
    nrec = kinds.size
    length = np.zeros(nrec, np.int64)
    tautology = np.zeros(nrec, np.bool_)
    stamp = np.zeros(2 * max_var + 2, np.int64)
    for r in range(nrec):  # duplicate literals dropped (first occurrence kept), tautologies marked
        s = start[r]
        n = 0
        for j in range(s, start[r + 1]):
            q = lits[j]
            if stamp[q] == r + 1:
                continue
            if stamp[q ^ 1] == r + 1:
                tautology[r] = True
            stamp[q] = r + 1
            lits[s + n] = q
            n += 1
        length[r] = n
    stamp[:] = 0
    val = np.zeros(2 * max_var + 2, np.int8)
    reason = np.full(max_var + 1, -1, np.int64)
    trail = np.zeros(max_var + 1, np.int32)
    head = np.full(2 * max_var + 2, -1, np.int64)
    nxt = np.full(2 * nrec, -1, np.int64)
    deleted = np.zeros(nrec, np.bool_)
    same = np.full(nrec, -1, np.int64)
    last = Dict.empty(key_type=types.int64, value_type=types.int64)
    tlen = 0
    qhead = 0
    inconsistent = False
    added = 0
    rat = 0
    deletions = 0
    kept = 0
    unmatched = 0
    for r in range(nrec):
        s = start[r]
        n = length[r]
        if kinds[r] == 1:  # a deletion: find the active clause with these literals
            h = np.uint64(n)
            for j in range(s, s + n):
                stamp[lits[j]] = r + 1
                h += _mix(lits[j])
            key = np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF))
            c = last[key] if key in last else -1  # noqa: SIM401 - numba's get is Optional
            while c != -1:
                if not deleted[c] and length[c] == n:
                    match = True
                    for j in range(start[c], start[c] + n):
                        if stamp[lits[j]] != r + 1:
                            match = False
                            break
                    if match:
                        break
                c = same[c]
            if c == -1:
                unmatched += 1
                continue
            protected = False
            for j in range(start[c], start[c] + length[c]):
                q = lits[j]
                if val[q] == 1 and reason[q >> 1] == c:
                    protected = True
                    break
            if protected:
                kept += 1
                continue
            deleted[c] = True
            deletions += 1
            continue
        if r >= nformula and not inconsistent:  # a lemma: RUP, else RAT on its first literal
            added += 1
            mark = tlen
            conflict, tlen = _falsify(s, s + n, -1, lits, val, reason, trail, tlen)
            if not conflict:
                conflict, tlen = _propagate(
                    mark, tlen, lits, start, length, deleted, head, nxt, val, reason, trail
                )
            if not conflict:
                if n == 0:
                    return LEMMA_FAILED, r, added, rat, deletions, kept, unmatched
                pivot = lits[s] ^ 1
                for d in range(r):  # every active clause holding the pivot's negation
                    if kinds[d] == 1 or deleted[d] or tautology[d]:
                        continue
                    holds = False
                    for j in range(start[d], start[d] + length[d]):
                        if lits[j] == pivot:
                            holds = True
                            break
                    if not holds:
                        continue
                    inner = tlen
                    lo, hi = start[d], start[d] + length[d]
                    blocked, tlen = _falsify(lo, hi, pivot, lits, val, reason, trail, tlen)
                    if not blocked:
                        blocked, tlen = _propagate(
                            inner, tlen, lits, start, length, deleted, head, nxt, val, reason, trail
                        )
                    tlen = _undo(inner, tlen, val, reason, trail)
                    if not blocked:
                        tlen = _undo(mark, tlen, val, reason, trail)
                        return LEMMA_FAILED, r, added, rat, deletions, kept, unmatched
                rat += 1
            tlen = _undo(mark, tlen, val, reason, trail)
            qhead = tlen
        elif r >= nformula:
            added += 1
        if r >= nformula and n == 0:  # the empty clause, checked: the formula is refuted
            return REFUTED, r, added, rat, deletions, kept, unmatched
        # the clause joins the formula (hashed, so that a deletion can find it)
        h = np.uint64(n)
        for j in range(s, s + n):
            h += _mix(lits[j])
        key = np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF))
        same[r] = last[key] if key in last else -1  # noqa: SIM401
        last[key] = r
        if tautology[r] or inconsistent:
            continue
        conflict, tlen = _attach(r, lits, start, length, head, nxt, val, reason, trail, tlen)
        if not conflict:
            conflict, tlen = _propagate(
                qhead, tlen, lits, start, length, deleted, head, nxt, val, reason, trail
            )
        qhead = tlen
        if conflict:
            inconsistent = True
    return NO_EMPTY_CLAUSE, nrec, added, rat, deletions, kept, unmatched
