"""Compiled kernels of the band bound (numba): the transfer matrix of a band, max-plus products.

A band is ``width`` consecutive lines of a torus, all the way around the other direction
(see :mod:`knightcert.problems.checkers.knights_band`). Going around, a column of the band
(``width`` squares, as a bit mask) meets the columns one and two steps on; the kernels
work on the *state* after a column: which squares of the next column and of the one after
it are attacked by the columns already placed.

Values are int32; :data:`NEG` stands for "no such walk" (minus infinity).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["NEG", "closed_walk", "maxplus_diagonal", "maxplus_product", "transfer_matrix"]

#: Minus infinity of the max-plus products: far below any count of knights (at most
#: 8 x 100 000), and twice it still fits an int32.
NEG = -(1 << 29)


@njit(cache=True, nogil=True)
def transfer_matrix(width, near, far, weight):  # pragma: no cover - numba
    """The band's transfer matrix over states: ``(matrix, states)``.

    Parameters
    ----------
    width : int
        Squares in a column of the band.
    near, far : int64 arrays of length ``2 ** width``
        ``near[x]``: the squares of the next column a column holding ``x`` attacks;
        ``far[x]``: those of the column after it.
    weight : int32 array of length ``2 ** width``
        Knights in ``x`` (its bits).

    Returns
    -------
    matrix : int32 array (S, S)
        ``matrix[s, t]``: the most knights a column can hold that leads from state ``s``
        to state ``t`` (``NEG`` when none does).
    states : int64 array (S,)
        Each state's key ``(attacked in the next column) << width | (attacked in the one after)``.

    Notes
    -----
    The state after columns ``a``, ``b`` is ``(near[b] | far[a], far[b])``: the next
    column ``x`` must avoid the first part, and the state after ``b``, ``x`` is
    ``(near[x] | far[b], far[x])``, a function of the state and ``x`` alone. So a closed
    walk of ``L`` steps is exactly a cyclic sequence of ``L`` columns in which no two
    columns one or two steps apart attack each other. The states are those of every
    pair ``a``, ``b`` with ``b`` not attacked by ``a``; the set is closed under the steps.
    O(4 ** width + S * 2 ** width) time.
    """
    patterns = 1 << width
    index = np.full(patterns * patterns, -1, dtype=np.int64)
    keys = np.empty(patterns * patterns, dtype=np.int64)
    count = 0
    for a in range(patterns):
        for b in range(patterns):
            if b & near[a]:
                continue
            key = ((near[b] | far[a]) << width) | far[b]
            if index[key] < 0:
                index[key] = count
                keys[count] = key
                count += 1
    matrix = np.full((count, count), NEG, dtype=np.int32)
    mask = patterns - 1
    for s in range(count):
        attacked = keys[s] >> width
        after = keys[s] & mask
        for x in range(patterns):
            if x & attacked:
                continue
            t = index[((near[x] | after) << width) | far[x]]
            if weight[x] > matrix[s, t]:
                matrix[s, t] = weight[x]
    return matrix, keys[:count].copy()


@njit(cache=True, nogil=True)
def maxplus_product(a, b):  # pragma: no cover - numba
    """``c[i, j] = max_k a[i, k] + b[k, j]`` (``NEG`` where no ``k`` has both finite)."""
    n, m = a.shape[0], b.shape[1]
    c = np.full((n, m), NEG, dtype=np.int32)
    for i in range(n):
        row = c[i]
        for k in range(a.shape[1]):
            value = a[i, k]
            if value <= NEG:
                continue
            other = b[k]
            for j in range(m):
                total = value + other[j]
                if total > row[j]:
                    row[j] = total
    half = NEG // 2
    for i in range(n):
        for j in range(m):
            if c[i, j] < half:
                c[i, j] = NEG
    return c


@njit(cache=True, nogil=True)
def maxplus_diagonal(a, b):  # pragma: no cover - numba
    """The diagonal of ``a ⊗ b``, ``max_k a[i, k] + b[k, i]``: the best closed walk from each
    state through both (``NEG`` where there is none)."""
    n = a.shape[0]
    out = np.full(n, NEG, dtype=np.int32)
    half = NEG // 2
    for i in range(n):
        for k in range(a.shape[1]):
            if a[i, k] <= half or b[k, i] <= half:
                continue
            total = a[i, k] + b[k, i]
            if total > out[i]:
                out[i] = total
    return out


@njit(cache=True, nogil=True)
def closed_walk(width, near, far, weight, keys, matrix, start, steps):  # pragma: no cover - numba
    """A best closed walk of ``steps`` steps from state ``start``: the column at each step.

    Forward over the matrix's finite entries with the best predecessor of every state at
    every step (``steps x S`` int16), then back from ``start``; each step's column is the
    pattern of most knights that makes that step (:func:`transfer_matrix`'s rule).

    Returns
    -------
    (value, columns)
        The walk's knights, and the ``steps`` column patterns in order (``value`` is ``NEG``
        when no closed walk exists).
    """
    count = matrix.shape[0]
    patterns = 1 << width
    mask = patterns - 1
    # the finite entries, row by row
    starts = np.zeros(count + 1, dtype=np.int64)
    for s in range(count):
        starts[s + 1] = starts[s]
        for t in range(count):
            if matrix[s, t] > NEG:
                starts[s + 1] += 1
    targets = np.empty(starts[count], dtype=np.int64)
    gains = np.empty(starts[count], dtype=np.int64)
    for s in range(count):
        at = starts[s]
        for t in range(count):
            if matrix[s, t] > NEG:
                targets[at] = t
                gains[at] = matrix[s, t]
                at += 1
    value = np.full(count, NEG, dtype=np.int64)
    value[start] = 0
    parent = np.zeros((steps, count), dtype=np.int16)
    for k in range(steps):
        following = np.full(count, NEG, dtype=np.int64)
        for s in range(count):
            if value[s] <= NEG:
                continue
            for e in range(starts[s], starts[s + 1]):
                total = value[s] + gains[e]
                t = targets[e]
                if total > following[t]:
                    following[t] = total
                    parent[k, t] = s
        value = following
    columns = np.zeros(steps, dtype=np.int64)
    if value[start] <= NEG:
        return NEG, columns
    state = start
    for k in range(steps - 1, -1, -1):
        before = np.int64(parent[k, state])
        attacked = keys[before] >> width
        after = keys[before] & mask
        for x in range(patterns):
            fits = (x & attacked) == 0 and weight[x] == matrix[before, state]
            if fits and ((near[x] | after) << width) | far[x] == keys[state]:
                columns[k] = x
                break
        state = before
    return value[start], columns
