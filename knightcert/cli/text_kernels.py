"""Compiled (numba) text writers for answers of millions of squares: JSON pairs and numbered grids.

Used by :mod:`knightcert.cli.tour_output` from ``COMPILED_FROM`` squares on;
each writes ASCII bytes into a buffer the caller sized and returns the length.
"""

from __future__ import annotations

from numba import njit

__all__ = ["format_grid", "format_pairs"]


@njit(cache=True, nogil=True)
def _put_int(buffer, pos, value, width):  # pragma: no cover - compiled
    """Write ``value`` (>= 0) right-aligned in ``width`` characters (0: no padding) at ``pos``."""
    digits = 1
    x = value
    while x >= 10:
        x //= 10
        digits += 1
    for _ in range(width - digits):
        buffer[pos] = 32  # space
        pos += 1
    x = value
    for k in range(digits - 1, -1, -1):
        buffer[pos + k] = 48 + x % 10
        x //= 10
    return pos + digits


@njit(cache=True, nogil=True)
def format_pairs(squares, buffer):  # pragma: no cover - compiled
    """``[r,c],[r,c],...`` (no outer brackets) of non-negative (n, 2) integers into ``buffer``; its length."""
    pos = 0
    for i in range(squares.shape[0]):
        if i:
            buffer[pos] = 44  # ,
            pos += 1
        buffer[pos] = 91  # [
        pos = _put_int(buffer, pos + 1, squares[i, 0], 0)
        buffer[pos] = 44
        pos = _put_int(buffer, pos + 1, squares[i, 1], 0)
        buffer[pos] = 93  # ]
        pos += 1
    return pos


@njit(cache=True, nogil=True)
def format_grid(grid, width, buffer):  # pragma: no cover - compiled
    """Rows of non-negative integers right-aligned to ``width``, one space apart, newline-ended."""
    pos = 0
    for r in range(grid.shape[0]):
        for c in range(grid.shape[1]):
            if c:
                buffer[pos] = 32
                pos += 1
            pos = _put_int(buffer, pos, grid[r, c], width)
        buffer[pos] = 10
        pos += 1
    return pos
