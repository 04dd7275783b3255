"""Compiled backward DRAT checking (numba): only the lemmas the refutation needs are checked.

Written from the format's definition (Wetzler, Heule, Hunt, SAT 2014) and the
backward, core-first method that paper describes; no solver's or checker's code was
used. :mod:`knightcert.problems.checkers.drat` says what a DRAT refutation is; this
module checks one in two passes.

Forward pass (nothing checked yet)
    The records are applied in order: formula clauses and lemmas are added (two watched
    literals each), deletions remove the active clause with the same literals, and
    unit propagation runs at the top level after every addition, until it reaches a
    conflict. The clauses that conflict, and the reasons of every top-level literal it
    rests on (recursively), are *marked*. A proof whose lemmas never make unit
    propagation conflict is refused; so is one that never adds the empty clause.
Backward pass
    From the record that made the conflict back to the first lemma, every record is
    undone: a lemma is removed (the top-level assignment goes back to what it was
    before the lemma, exactly), a deletion puts its clause back. A *marked* lemma is
    then checked against the clauses active just before it (the formula, the earlier
    lemmas, less the earlier deletions): RUP, else RAT on its first literal against
    every active clause holding the pivot's negation (marked or not). Every clause the
    successful check used (the conflict's clause and the reasons of its literals,
    recursively, top-level reasons included) is marked in turn. Unmarked lemmas are
    never checked: nothing marked rests on them.
Why that is sound
    The marked lemmas alone, in their order, with the same deletions, form a DRAT
    refutation of the formula: each RUP check used only marked clauses and formula
    clauses, which are all still there; a RAT check was made against *every* active
    clause holding the pivot's negation, a superset of those the marked-only proof
    keeps; and the final conflict uses marked clauses only.
Deletions
    A deletion of a clause that is the reason of a top-level assignment at that point
    is ignored (``kept``), as DRAT-trim does by default: ignoring a deletion checks a
    proof with fewer deletions, a stronger clause set, which is sound (deletions only
    ever weaken the set). A deletion of a clause that is not active is ignored
    (``unmatched``). With those ignored, every top-level assignment of the forward
    pass keeps its reason while it stands, and the backward pass restores it exactly.
Core-first propagation
    Marked clauses are watched in lists of their own; propagation exhausts them before
    it looks at one unmarked clause's watches, so that a check's conflict rests on
    marked clauses where it can (smaller cores, fewer lemmas to check).

Literals are coded ``2 * var + (lit < 0)``; the negation of ``code`` is ``code ^ 1``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["check_backward"]

#: Outcomes (the same as :mod:`knightcert.problems.checkers.drat_kernel`'s).
REFUTED, LEMMA_FAILED, NO_EMPTY_CLAUSE = 0, 1, 2


@njit(cache=True, nogil=True)
def _mix(code):  # pragma: no cover - numba
    x = np.uint64(code) * np.uint64(0x9E3779B97F4A7C15)
    return x ^ (x >> np.uint64(29))


@njit(cache=True, nogil=True)
def _hash(lits, s, n):  # pragma: no cover - numba
    """The order-free hash of the literals ``lits[s:s+n]``."""
    h = np.uint64(n)
    for j in range(s, s + n):
        h += _mix(lits[j])
    return h


@njit(cache=True, nogil=True)
def _link(w, lits, start, core, heads, nxt, prv):  # pragma: no cover - numba
    """Put watch ``w`` (clause ``w >> 1``'s literal ``w & 1``) at the head of its list (its
    blocker is set by the caller)."""
    c = w >> 1
    q = lits[start[c] + (w & 1)]
    h = 1 if core[c] else 0
    first = heads[h, q]
    nxt[w] = first
    prv[w] = -1
    if first != -1:
        prv[first] = w
    heads[h, q] = w


@njit(cache=True, nogil=True)
def _unlink(w, lits, start, core, heads, nxt, prv):  # pragma: no cover - numba
    """Take watch ``w`` out of its list (before its literal or its clause's mark changes)."""
    c = w >> 1
    q = lits[start[c] + (w & 1)]
    h = 1 if core[c] else 0
    p = prv[w]
    n = nxt[w]
    if p == -1:
        heads[h, q] = n
    else:
        nxt[p] = n
    if n != -1:
        prv[n] = p


@njit(cache=True, nogil=True)
def _assign(code, why, val, reason, pos, trail, tlen):  # pragma: no cover - numba
    val[code] = 1
    val[code ^ 1] = -1
    reason[code >> 1] = why
    pos[code >> 1] = tlen
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
def _visit(  # pragma: no cover - numba
    w, first_unit, lits, start, length, core, heads, nxt, prv, blk, val, reason, pos, trail, tlen
):
    """The watches from ``w`` on, in the list of a literal now false: move each watch to a
    literal that is not false, or assign the clause's last literal, or report the clause as
    the conflict. ``first_unit``: stop after the first assignment.

    Each watch keeps a *blocker*, a literal of its clause: while it is true the clause is
    satisfied and is passed without being read.

    Returns ``(conflict clause or -1, tlen, where to go on: the next watch, or -1 at the
    list's end)``."""
    while w != -1:
        following = nxt[w]
        if val[blk[w]] == 1:
            w = following
            continue
        c = w >> 1
        k = w & 1
        s = start[c]
        other = lits[s + 1 - k]
        if val[other] == 1:
            blk[w] = other
            w = following
            continue
        moved = False
        for j in range(s + 2, s + length[c]):
            q = lits[j]
            if val[q] != -1:
                _unlink(w, lits, start, core, heads, nxt, prv)
                lits[j] = lits[s + k]
                lits[s + k] = q
                _link(w, lits, start, core, heads, nxt, prv)
                blk[w] = other
                moved = True
                break
        if not moved:
            if val[other] == -1:
                return c, tlen, following
            tlen = _assign(other, c, val, reason, pos, trail, tlen)
            if first_unit:
                return -1, tlen, following
        w = following
    return -1, tlen, -1


@njit(cache=True, nogil=True)
def _propagate(  # pragma: no cover - numba
    head, tlen, lits, start, length, core, heads, nxt, prv, blk, val, reason, pos, trail
):
    """Unit propagation of ``trail[head:tlen]``, marked clauses first (core-first): the
    marked watches of every literal are visited to a fixpoint before the unmarked watches
    are looked at, and those only until they give one assignment (the visit resumes where
    it stopped). Returns ``(conflict clause or -1, tlen)``."""
    qc = head
    qa = head
    wa = -2  # where the unmarked visit of trail[qa] resumes (-2: at its start)
    while True:
        while qc < tlen:
            conflict, tlen, _ = _visit(
                heads[1, trail[qc] ^ 1],
                False,
                lits,
                start,
                length,
                core,
                heads,
                nxt,
                prv,
                blk,
                val,
                reason,
                pos,
                trail,
                tlen,
            )
            qc += 1
            if conflict != -1:
                return conflict, tlen
        if qa >= tlen:
            return -1, tlen
        if wa == -2:
            wa = heads[0, trail[qa] ^ 1]
        conflict, tlen, wa = _visit(
            wa, True, lits, start, length, core, heads, nxt, prv, blk, val, reason, pos, trail, tlen
        )
        if conflict != -1:
            return conflict, tlen
        if wa == -1:
            qa += 1
            wa = -2


@njit(cache=True, nogil=True)
def _choose_watches(c, lits, start, length, val, pos):  # pragma: no cover - numba
    """Move clause ``c``'s watches to its front: literals that are not false first, then
    the false ones assigned last. Returns how many literals are not false (up to 2).

    A clause satisfied by one literal with every other literal false then watches a
    false literal assigned no earlier than any other: undoing the top level past that
    literal undoes the satisfying one too (the top level is at a fixpoint at every
    record), so no watch is ever left false beside an unassigned one."""
    s = start[c]
    n = length[c]
    found = 0
    for j in range(s, s + n):
        q = lits[j]
        if val[q] != -1:
            lits[j] = lits[s + found]
            lits[s + found] = q
            found += 1
            if found == 2:
                return found
    for slot in range(found, min(2, n)):
        best = slot
        latest = -1
        for j in range(s + slot, s + n):
            p = pos[lits[j] >> 1]
            if p > latest:
                latest = p
                best = j
        q = lits[best]
        lits[best] = lits[s + slot]
        lits[s + slot] = q
    return found


@njit(cache=True, nogil=True)
def _falsify(c, skip, lits, start, length, val, reason, pos, trail, tlen):  # pragma: no cover - numba
    """Assign every literal of clause ``c`` but ``skip`` false (reason: none, an assumption).
    Returns ``(var, tlen)``: ``var`` a variable whose literal in ``c`` is already true (the
    check holds at once), else -1."""
    s = start[c]
    for j in range(s, s + length[c]):
        q = lits[j]
        if q == skip:
            continue
        if val[q] == 1:
            return q >> 1, tlen
        if val[q] == 0:
            tlen = _assign(q ^ 1, -1, val, reason, pos, trail, tlen)
    return -1, tlen


@njit(cache=True, nogil=True)
def _make_core(c, lits, start, core, linked, heads, nxt, prv):  # pragma: no cover - numba
    """Mark clause ``c``; its watches move to the marked lists."""
    if core[c]:
        return
    if linked[c]:
        _unlink(2 * c, lits, start, core, heads, nxt, prv)
        _unlink(2 * c + 1, lits, start, core, heads, nxt, prv)
        core[c] = True
        _link(2 * c, lits, start, core, heads, nxt, prv)
        _link(2 * c + 1, lits, start, core, heads, nxt, prv)
    else:
        core[c] = True


@njit(cache=True, nogil=True)
def _explain(  # pragma: no cover - numba
    conflict,
    var,
    top,
    lits,
    start,
    length,
    core,
    linked,
    heads,
    nxt,
    prv,
    val,
    reason,
    pos,
    seen,
    stamp,
    stack,
):
    """Mark what a conflict rests on: the clause ``conflict`` (or the variable ``var``
    whose literal was already true), and the reasons of every false literal involved,
    recursively. A top-level literal whose reason is already marked is not followed
    further: its reason's own antecedents were marked when it was (the top level is
    a prefix of every later top level, with the same reasons)."""
    depth = 0
    if conflict >= 0:
        _make_core(conflict, lits, start, core, linked, heads, nxt, prv)
        for j in range(start[conflict], start[conflict] + length[conflict]):
            v = lits[j] >> 1
            if seen[v] != stamp:
                seen[v] = stamp
                stack[depth] = v
                depth += 1
    if var >= 0 and seen[var] != stamp:
        seen[var] = stamp
        stack[depth] = var
        depth += 1
    while depth > 0:
        depth -= 1
        v = stack[depth]
        why = reason[v]
        if why < 0:  # an assumption of the check
            continue
        if pos[v] < top and core[why]:
            continue
        _make_core(why, lits, start, core, linked, heads, nxt, prv)
        for j in range(start[why], start[why] + length[why]):
            u = lits[j] >> 1
            if seen[u] != stamp:
                seen[u] = stamp
                stack[depth] = u
                depth += 1


@njit(cache=True, nogil=True)
def check_backward(nformula, lits, start, kinds, max_var):  # pragma: no cover - numba
    """Backward check of a DRAT refutation (module docstring).

    Parameters
    ----------
    nformula : int
        Records ``0 .. nformula - 1`` are the formula's clauses; the proof's follow, in order.
    lits, start : arrays
        Record ``r``'s literal codes are ``lits[start[r]:start[r + 1]]`` (int32, reordered
        in place).
    kinds : int8 array
        Per record: 0 added (formula clauses are added), 1 deleted.
    max_var : int
        Largest variable any record names.

    Returns
    -------
    (outcome, record, lemmas, checked, rat, deletions, kept, unmatched)
        ``outcome`` is ``REFUTED``, ``LEMMA_FAILED`` (``record`` is a marked lemma that is
        neither RUP nor RAT) or ``NO_EMPTY_CLAUSE`` (the lemmas never make unit propagation
        conflict, or the proof adds no empty clause); ``lemmas`` added up to the empty clause,
        ``checked`` of them (the marked ones), ``rat`` of those by RAT; ``deletions``
        applied, ``kept`` (deletions of a top-level reason) and ``unmatched`` (of no
        active clause) ignored.
    """
    nrec = kinds.size
    nlit = 2 * max_var + 2
    length = np.zeros(nrec, np.int32)
    taut = np.zeros(nrec, np.bool_)
    stamp_lit = np.zeros(nlit, np.int32)
    empty = False
    lemmas = 0  # up to the (first) empty clause
    for r in range(nrec):  # duplicate literals dropped (first occurrence kept), tautologies marked
        s = start[r]
        n = 0
        for j in range(s, start[r + 1]):
            q = lits[j]
            if stamp_lit[q] == r + 1:
                continue
            if stamp_lit[q ^ 1] == r + 1:
                taut[r] = True
            stamp_lit[q] = r + 1
            lits[s + n] = q
            n += 1
        length[r] = n
        if r >= nformula and kinds[r] == 0 and not empty:
            lemmas += 1
            empty = n == 0
    if not empty:
        return NO_EMPTY_CLAUSE, nrec, lemmas, 0, 0, 0, 0, 0
    val = np.zeros(nlit, np.int8)
    reason = np.full(max_var + 1, -1, np.int32)
    pos = np.zeros(max_var + 1, np.int32)
    trail = np.zeros(max_var + 1, np.int32)
    seen = np.zeros(max_var + 1, np.int32)
    stack = np.zeros(max_var + 1, np.int32)
    heads = np.full((2, nlit), -1, np.int32)
    nxt = np.full(2 * nrec, -1, np.int32)
    prv = np.full(2 * nrec, -1, np.int32)
    blk = np.zeros(2 * nrec, np.int32)  # each watch's blocker: the other watch when linked
    core = np.zeros(nrec, np.bool_)
    linked = np.zeros(nrec, np.bool_)
    active = np.zeros(nrec, np.bool_)
    before = np.zeros(nrec, np.int32)  # an addition: the top-level trail's length before it
    target = np.full(nrec, -1, np.int32)  # a deletion: the clause it removed
    size = 1
    while size < 2 * nrec:
        size *= 2
    bucket = np.full(size, -1, np.int32)
    chain = np.full(nrec, -1, np.int32)
    mask = np.uint64(size - 1)
    tlen = 0
    deletions = 0
    kept = 0
    unmatched = 0
    conflict = -1
    end = -1
    for r in range(nrec):  # the forward pass: apply every record, check nothing
        s = start[r]
        n = length[r]
        if kinds[r] == 1:  # a deletion: the active clause with these literals
            for j in range(s, s + n):
                stamp_lit[lits[j]] = r + 1
            c = bucket[np.int64(_hash(lits, s, n) & mask)]
            while c != -1:
                if active[c] and length[c] == n:
                    match = True
                    for j in range(start[c], start[c] + n):
                        if stamp_lit[lits[j]] != r + 1:
                            match = False
                            break
                    if match:
                        break
                c = chain[c]
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
            active[c] = False
            if linked[c]:
                _unlink(2 * c, lits, start, core, heads, nxt, prv)
                _unlink(2 * c + 1, lits, start, core, heads, nxt, prv)
                linked[c] = False
            target[r] = c
            deletions += 1
            continue
        before[r] = tlen
        b = np.int64(_hash(lits, s, n) & mask)
        chain[r] = bucket[b]
        bucket[b] = r
        active[r] = True
        if taut[r]:
            continue
        found = _choose_watches(r, lits, start, length, val, pos)
        if n >= 2:
            _link(2 * r, lits, start, core, heads, nxt, prv)
            _link(2 * r + 1, lits, start, core, heads, nxt, prv)
            blk[2 * r] = lits[s + 1]
            blk[2 * r + 1] = lits[s]
            linked[r] = True
        if found == 0:
            conflict = r
        elif found == 1 and val[lits[s]] == 0:
            mark = tlen
            tlen = _assign(lits[s], r, val, reason, pos, trail, tlen)
            conflict, tlen = _propagate(
                mark, tlen, lits, start, length, core, heads, nxt, prv, blk, val, reason, pos, trail
            )
        if conflict != -1:
            end = r
            break
    if end == -1:
        return NO_EMPTY_CLAUSE, nrec, lemmas, 0, 0, deletions, kept, unmatched
    stamp = 1
    _explain(
        conflict,
        -1,
        tlen,
        lits,
        start,
        length,
        core,
        linked,
        heads,
        nxt,
        prv,
        val,
        reason,
        pos,
        seen,
        stamp,
        stack,
    )
    checked = 0
    rat = 0
    for r in range(end, nformula - 1, -1):  # the backward pass
        if kinds[r] == 1:  # a deletion undone: its clause is back, watched as at that point
            c = target[r]
            if c == -1:
                continue
            active[c] = True
            if length[c] >= 2 and not taut[c]:
                _choose_watches(c, lits, start, length, val, pos)
                _link(2 * c, lits, start, core, heads, nxt, prv)
                _link(2 * c + 1, lits, start, core, heads, nxt, prv)
                blk[2 * c] = lits[start[c] + 1]
                blk[2 * c + 1] = lits[start[c]]
                linked[c] = True
            continue
        tlen = _undo(before[r], tlen, val, reason, trail)  # the top level before this lemma
        active[r] = False
        if linked[r]:
            _unlink(2 * r, lits, start, core, heads, nxt, prv)
            _unlink(2 * r + 1, lits, start, core, heads, nxt, prv)
            linked[r] = False
        if not core[r] or r < nformula:
            continue
        checked += 1
        top = tlen
        stamp += 1
        var, tlen = _falsify(r, -1, lits, start, length, val, reason, pos, trail, tlen)
        found = -1
        if var < 0:
            found, tlen = _propagate(
                top, tlen, lits, start, length, core, heads, nxt, prv, blk, val, reason, pos, trail
            )
        if var >= 0 or found != -1:  # RUP
            _explain(
                found,
                var,
                top,
                lits,
                start,
                length,
                core,
                linked,
                heads,
                nxt,
                prv,
                val,
                reason,
                pos,
                seen,
                stamp,
                stack,
            )
            tlen = _undo(top, tlen, val, reason, trail)
            continue
        if length[r] == 0:
            tlen = _undo(top, tlen, val, reason, trail)
            return LEMMA_FAILED, r, lemmas, checked, rat, deletions, kept, unmatched
        pivot = lits[start[r]] ^ 1  # RAT on the first literal: every active clause holding -l
        assumed = tlen
        for d in range(r):
            if kinds[d] == 1 or not active[d] or taut[d]:
                continue
            holds = False
            for j in range(start[d], start[d] + length[d]):
                if lits[j] == pivot:
                    holds = True
                    break
            if not holds:
                continue
            stamp += 1
            var, tlen = _falsify(d, pivot, lits, start, length, val, reason, pos, trail, tlen)
            found = -1
            if var < 0:
                found, tlen = _propagate(
                    assumed, tlen, lits, start, length, core, heads, nxt, prv, blk, val, reason, pos, trail
                )
            if var < 0 and found == -1:
                tlen = _undo(top, tlen, val, reason, trail)
                return LEMMA_FAILED, r, lemmas, checked, rat, deletions, kept, unmatched
            _explain(
                found,
                var,
                top,
                lits,
                start,
                length,
                core,
                linked,
                heads,
                nxt,
                prv,
                val,
                reason,
                pos,
                seen,
                stamp,
                stack,
            )
            tlen = _undo(assumed, tlen, val, reason, trail)
        rat += 1
        tlen = _undo(top, tlen, val, reason, trail)
    return REFUTED, end, lemmas, checked, rat, deletions, kept, unmatched
