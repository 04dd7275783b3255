"""Renumbering and trimming CaDiCaL's binary LRAT proof (producer side, untrusted).

CaDiCaL numbers the formula's clauses in the order they were added to it, and its
derived clauses from the same counter: once a unit is added, clauses it derives while
the rest of the formula is added take identifiers between the formula's. The checker
numbers the formula ``1 .. m`` and wants derived clauses after it, so the producer
maps every identifier: a derived one (an addition in the proof) to ``m + 1 + its
rank``, any other to its rank among those (the formula clause added at that point).
The producer does not check the result: nothing here is trusted, and the checker verifies the
proof where the answer leaves the method (a wrong renumbering is a refused claim, and the
answer then says so).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["trim"]


@njit(cache=True, nogil=True)
def _width(u):  # pragma: no cover - numba
    w = 1
    while u >= 128:
        u >>= 7
        w += 1
    return w


@njit(cache=True, nogil=True)
def _write(out, o, u):  # pragma: no cover - numba
    while u >= 128:
        out[o] = (u & 127) | 128
        o += 1
        u >>= 7
    out[o] = u
    return o + 1


@njit(cache=True, nogil=True)
def _table(derived, m):  # pragma: no cover - numba
    """The checker's identifier of each of CaDiCaL's identifiers ``0 .. top`` (a table):
    derived clauses after the formula, in order; the others are the formula's, in the
    order added; -1 past the formula (or 0, never an identifier)."""
    top = max(m + derived.size, derived[-1] if derived.size else 0) + 1
    table = np.full(top + 1, -1, np.int64)
    k = 0
    for ident in range(1, top + 1):
        if k < derived.size and derived[k] == ident:
            table[ident] = m + 1 + k
            k += 1
        elif 1 <= ident - k <= m:  # the formula clauses numbered up to ident
            table[ident] = ident - k
    return table


@njit(cache=True, nogil=True)
def _renamed(hints, table):  # pragma: no cover - numba
    """The ``hints`` through the ``table``, signs kept, in place (int32: 4 bytes a hint, where
    numpy's temporaries took 36 on a 23 x 23 case's trace); None when one has no new name."""
    for j in range(hints.size):
        h = abs(hints[j])
        if h >= table.size or table[h] < 0:
            return None
        hints[j] = table[h] if hints[j] > 0 else -table[h]
    return hints


@njit(cache=True, nogil=True)
def _needed(hstart, hints, added, m, empty):  # pragma: no cover - numba
    """The additions the empty clause of record ``empty`` rests on, through the hints (the
    additions are the records ``added``; addition ``k`` has identifier ``m + 1 + k``)."""
    keep = np.zeros(hstart.size - 1, np.bool_)
    keep[empty] = True
    for r in range(empty, -1, -1):
        if keep[r]:
            for j in range(hstart[r], hstart[r + 1]):
                k = abs(hints[j]) - m - 1
                if 0 <= k < added.size and added[k] < r:
                    keep[added[k]] = True
    return keep


@njit(cache=True, nogil=True)
def _encode(kinds, ids, lstart, lits, hstart, hints, keep, out, fill):  # pragma: no cover - numba
    """Binary LRAT of the kept additions (no deletions); the size when not ``fill``."""
    o = 0
    for r in range(kinds.size):
        if not keep[r]:
            continue
        if fill:
            out[o] = 0x61
        o += 1
        u = 2 * ids[r]
        o = _write(out, o, u) if fill else o + _width(u)
        for j in range(lstart[r], lstart[r + 1]):
            o = _write(out, o, lits[j]) if fill else o + _width(lits[j])
        if fill:
            out[o] = 0
        o += 1
        for j in range(hstart[r], hstart[r + 1]):
            h = hints[j]
            u = 2 * h if h > 0 else -2 * h + 1
            o = _write(out, o, u) if fill else o + _width(u)
        if fill:
            out[o] = 0
        o += 1
    return o


def trim(binary: bytes, m: int) -> bytes | None:
    """``binary`` (CaDiCaL's binary LRAT of a formula of ``m`` clauses, added in the checker's
    order) with the checker's numbering (formula clause ``i`` is ``i + 1``, the derived clauses
    follow, ``m + 1, m + 2, ...``) and only the additions the empty clause rests on (following
    the hints back), without deletions: the checker's work and the answer's size drop to the
    refutation's core. None when the proof cannot be read, an identifier cannot be mapped, or
    it adds no empty clause."""
    from knightcert.problems.checkers.lrat import read_lrat

    read = read_lrat([], binary)
    if isinstance(read, int):
        return None
    added = np.flatnonzero(read.kinds == 0)
    derived = read.ids[added].astype(np.int64)
    if (np.diff(derived) <= 0).any():  # CaDiCaL's identifiers increase
        return None
    hints = _renamed(read.hints, _table(derived, m))  # the hints, and the identifiers deletions name
    if hints is None:
        return None
    ids = read.ids.copy()
    ids[added] = m + 1 + np.arange(derived.size)
    records = (read.kinds, ids, read.lstart, read.lits, read.hstart, hints)
    empty = added[read.lstart[added + 1] == read.lstart[added]]  # the additions of the empty clause
    if not empty.size:
        return None
    keep = _needed(read.hstart, hints, added, m, empty[0])
    out = np.zeros(_encode(*records, keep, np.zeros(0, np.uint8), False), np.uint8)
    _encode(*records, keep, out, True)
    return out.tobytes()
