"""Renumbering a binary LRAT proof's formula clauses (producer side, untrusted).

CaDiCaL numbers the formula's clauses in the order they were added to it, and its
derived clauses from the same counter: once a unit is added, clauses it derives while
the rest of the formula is added take identifiers between the formula's. The checker
numbers the formula ``1 .. m`` and wants derived clauses after it, so the producer
maps every identifier: a derived one (an addition in the proof) to ``m + 1 + its
rank``, any other to its rank among those (the formula clause added at that point).
The producer then checks the result itself and falls back to DRAT if it does not check. Nothing here is
trusted: the checker verifies the proof it gets.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["renumber"]


@njit(cache=True, nogil=True)
def _read(data, i):  # pragma: no cover - numba
    u = 0
    shift = 0
    while True:
        b = data[i]
        i += 1
        u |= (b & 127) << shift
        shift += 7
        if b < 128:
            return u, i


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
def _derived(data):  # pragma: no cover - numba
    """The identifiers of the proof's additions, in order (CaDiCaL's increase)."""
    n = data.size
    count = 0
    i = 0
    for _ in range(2):
        out = np.zeros(count, np.int64)
        count = 0
        i = 0
        while i < n:
            b = data[i]
            i += 1
            if b == 0x61:
                u, i = _read(data, i)
                if out.size:
                    out[count] = u >> 1
                count += 1
                while True:  # literals
                    u, i = _read(data, i)
                    if u == 0:
                        break
            while True:
                u, i = _read(data, i)
                if u == 0:
                    break
    return out


@njit(cache=True, nogil=True)
def _map(ident, derived, m):  # pragma: no cover - numba
    """The checker's identifier of CaDiCaL's ``ident``: derived clauses after the formula,
    in order; the others are the formula's, in the order added; -1 past the formula."""
    k = np.searchsorted(derived, ident)
    if k < derived.size and derived[k] == ident:
        return m + 1 + k
    original = ident - k  # the formula clauses numbered up to ident
    if original < 1 or original > m:
        return -1
    return original


@njit(cache=True, nogil=True)
def _pass(data, derived, m, out, fill):  # pragma: no cover - numba
    """One pass: the output's size (``fill`` False) or the output itself; -1 when an
    identifier maps past the formula (the numbering is not CaDiCaL's plain one)."""
    n = data.size
    i = 0
    o = 0
    for k in range(1, derived.size):
        if derived[k] <= derived[k - 1]:
            return -1
    while i < n:
        b = data[i]
        i += 1
        if fill:
            out[o] = b
        o += 1
        if b == 0x61:
            u, i = _read(data, i)
            u = 2 * _map(u >> 1, derived, m)
            o = _write(out, o, u) if fill else o + _width(u)
            while True:
                u, i = _read(data, i)
                o = _write(out, o, u) if fill else o + _width(u)
                if u == 0:
                    break
        while True:  # hints, or deleted identifiers
            u, i = _read(data, i)
            if u != 0:
                ident = _map(u >> 1, derived, m)
                if ident < 0:
                    return -1
                u = 2 * ident + (u & 1)
            o = _write(out, o, u) if fill else o + _width(u)
            if u == 0:
                break
    return o


def renumber(binary: bytes, m: int) -> bytes | None:
    """``binary`` (CaDiCaL's binary LRAT of a formula of ``m`` clauses, added in the checker's
    order) with the checker's numbering: formula clause ``i`` is ``i + 1`` and the derived
    clauses follow, ``m + 1, m + 2, ...``; None when an identifier cannot be mapped."""
    data = np.frombuffer(binary, dtype=np.uint8)
    derived = _derived(data)
    size = _pass(data, derived, m, np.zeros(0, np.uint8), False)
    if size < 0:
        return None
    out = np.zeros(size, np.uint8)
    _pass(data, derived, m, out, True)
    return out.tobytes()
