"""Band bounds: a polynomial upper bound on independent knights on a full torus.

Every translation of a full ``R x C`` torus (no square removed) maps its knight graph
to itself. Let ``S`` be a *band*: ``r`` consecutive rows, all ``C`` columns (cyclic).
Each square lies in exactly ``r`` of the ``R`` row-translates of ``S``, so for any
independent set ``I``

    ``r * |I| = sum_t |I ∩ (S + t)| <= R * alpha(G[S])``,

hence ``alpha(torus) <= floor(R * alpha(G[S]) / r)``, where ``G[S]`` is the subgraph the
torus's knight moves induce on the band (moves that cross the row wrap inside the band
included; with ``r = R`` the band is the whole torus and the bound is exact). The same
holds with rows and columns swapped (a band of ``r`` columns, ``C`` translates).

The checker computes ``alpha(G[S])`` itself, exactly, by dynamic programming around the
band (:func:`band_knights`): a column of the band holds ``r`` squares and no move inside
it, and a knight reaches the columns one and two steps away, so what a column may hold
depends on the two columns before it. The count is the best closed walk of ``C`` steps
in the band's transfer matrix (:mod:`~knightcert.problems.checkers.knights_band_kernel`),
found by max-plus matrix powers: nothing numeric is read from an answer. An answer may
name its band (``certificate["band"] = {"axis": "rows" | "cols", "width": r}``,
:func:`band_entry`); without one the checker tries a band of ``BAND_WIDTH`` lines (or the
whole torus, when a side is shorter) along each axis itself (:func:`best_band`).

On tori with an even side ``R`` and an odd side ``C >= 7`` a 6-row band holds ``3(C - 2)``
knights and the bound ``R(C - 2)/2`` is reached by :func:`strip_placement` (one colour of
every column but two), so there the bound is the optimum; on tori with both sides odd it
is a valid bound above the optimum.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from knightcert.problems.checkers.failure import CheckFailed
from knightcert.problems.checkers.fields import describe_value, integer
from knightcert.problems.moves import KNIGHT_OFFSETS

__all__ = [
    "AXES",
    "BAND_WIDTH",
    "MAX_BAND_WIDTH",
    "MIN_AROUND",
    "BandBound",
    "band_bound",
    "band_columns",
    "band_entry",
    "band_knights",
    "best_band",
    "check_band",
    "full_torus",
    "strip_placement",
]

#: The axes a band may run along: ``rows`` (a band of rows, all columns) or ``cols``.
AXES = ("rows", "cols")
#: Width of the bands the checker tries itself.
BAND_WIDTH = 6
#: Widest band the checker counts (a 6-line band has 305 states, an 8-line band 1 340).
MAX_BAND_WIDTH = 8
#: Fewest lines a band must go around (below that a move can stay inside a column).
MIN_AROUND = 3
#: Largest table (steps x states) :func:`band_columns` fills (an int16 each).
WITNESS_CELLS = 50_000_000
_KEYS = {"axis", "width"}


@dataclass(frozen=True)
class BandBound:
    """A band bound the checker derived.

    Attributes
    ----------
    axis : {"rows", "cols"}
        The band's lines: rows (it goes around the columns) or columns.
    width : int
        Lines in the band.
    holds : int
        The most independent knights the band holds (the checker's own count).
    translates : int
        The band's translates (lines of the torus across the band).
    bound : int
        ``floor(translates * holds / width)``: no placement on the torus has more knights.
    seconds : float
        Time the count took.
    """

    axis: str
    width: int
    holds: int
    translates: int
    bound: int
    seconds: float = 0.0

    @property
    def whole(self) -> bool:
        """Whether the band is the whole torus (then the bound is the optimum itself)."""
        return self.width == self.translates

    def how(self) -> str:
        """The evidence text.

        Examples
        --------
        >>> print(BandBound("rows", 6, 33, 8, 44).how())
        band bound: a 6-row band holds at most 33 knights (the checker's own count), 8 translates: at most 44
        """
        line = "row" if self.axis == "rows" else "column"
        whole = " (the whole torus)" if self.whole else ""
        return (
            f"band bound: a {self.width}-{line} band{whole} holds at most {self.holds} knights "
            f"(the checker's own count), {self.translates} translates: at most {self.bound}"
        )

    def entry(self) -> dict[str, Any]:
        """The certificate entry naming this band (``{"axis": ..., "width": ...}``)."""
        return {"axis": self.axis, "width": self.width}


def full_torus(board: Any) -> bool:
    """Whether every translation maps ``board`` to itself: a torus with no square removed."""
    return bool(board.torus) and not board.blocked.any()


def band_entry(entry: Any, claim: str = "optimal") -> dict[str, Any]:
    """Check the shape of a certificate's band entry; return a plain copy.

    Examples
    --------
    >>> band_entry({"axis": "rows", "width": 6})
    {'axis': 'rows', 'width': 6}
    >>> band_entry({"axis": "rows", "width": 6.0})
    Traceback (most recent call last):
    ...
    knightcert.problems.checkers.failure.CheckFailed: certificate 'band' width: 6.0 is not an integer

    Raises
    ------
    CheckFailed
        Not an object with exactly the keys ``axis`` (``"rows"`` or ``"cols"``) and
        ``width`` (an integer from 1 to ``MAX_BAND_WIDTH``); the message names the field.
    """
    if not isinstance(entry, dict) or set(entry) != _KEYS:
        raise CheckFailed("certificate 'band': expected an object with keys axis, width", claim)
    axis = entry["axis"]
    if not isinstance(axis, str) or axis not in AXES:
        raise CheckFailed(
            f"certificate 'band' axis: {describe_value(axis)} is not one of {', '.join(AXES)}", claim
        )
    width = integer(entry["width"], "certificate 'band' width", minimum=1, claim=claim)
    if width > MAX_BAND_WIDTH:
        raise CheckFailed(
            f"certificate 'band' width: {width} is above the checker's limit {MAX_BAND_WIDTH}", claim
        )
    return {"axis": str(axis), "width": width}


def check_band(board: Any, entry: Any, claim: str = "optimal") -> dict[str, Any]:
    """A named band checked against ``board`` (nothing counted yet); return a plain copy.

    Raises
    ------
    CheckFailed
        A malformed entry (:func:`band_entry`); a board that is not a full torus (a removed
        square breaks the translations the bound rests on); a band wider than the torus; a
        band that goes around fewer than ``MIN_AROUND`` lines.
    """
    band = band_entry(entry, claim)
    if not full_torus(board):
        why = "a torus" if not board.torus else "a torus with no square removed"
        raise CheckFailed(
            f"certificate 'band': a band bound needs {why} (every translation must map the board to itself)",
            claim,
        )
    rows = band["axis"] == "rows"
    across, around = (board.rows, board.cols) if rows else (board.cols, board.rows)
    lines, other = ("rows", "columns") if rows else ("columns", "rows")
    if band["width"] > across:
        raise CheckFailed(
            f"certificate 'band' width: {band['width']} is above the torus's {across} {lines}", claim
        )
    if around < MIN_AROUND:
        raise CheckFailed(
            f"certificate 'band': a band of {lines} must go around at least {MIN_AROUND} {other}; "
            f"this torus has {around}",
            claim,
        )
    return band


def band_bound(board: Any, entry: Any, claim: str = "optimal") -> BandBound:
    """The bound a named band proves on ``board``, counted by the checker.

    Parameters
    ----------
    board : Board
    entry : dict
        ``{"axis": "rows" | "cols", "width": r}`` (checked by :func:`check_band`).
    claim : str
        The claim a refusal names.

    Raises
    ------
    CheckFailed
        As :func:`check_band`.

    Examples
    --------
    >>> from knightcert.problems.board import Board
    >>> band_bound(Board(8, 13, torus=True), {"axis": "rows", "width": 6}).bound
    44
    """
    band = check_band(board, entry, claim)
    across, around = (board.rows, board.cols) if band["axis"] == "rows" else (board.cols, board.rows)
    began = time.perf_counter()
    holds = band_knights(across, band["width"], around)
    bound = across * holds // band["width"]
    return BandBound(band["axis"], band["width"], holds, across, bound, time.perf_counter() - began)


def best_band(board: Any) -> BandBound | None:
    """The checker's own band: ``BAND_WIDTH`` lines (the whole torus along a shorter side)
    along each axis that allows one; the smaller bound, the whole torus first (None off full
    tori, or when no axis goes around ``MIN_AROUND`` lines).

    Examples
    --------
    >>> from knightcert.problems.board import Board
    >>> band = best_band(Board(12, 5, torus=True))  # 5 columns: the whole torus, exact
    >>> band.axis, band.width, band.holds, band.bound, band.whole
    ('cols', 5, 20, 20, True)
    """
    if not full_torus(board):
        return None
    r, c = board.rows, board.cols  # (axis, lines across, lines around) of each side:
    sides = [(a, min(BAND_WIDTH, w)) for a, w, n in (("rows", r, c), ("cols", c, r)) if n >= MIN_AROUND]
    found = [band_bound(board, {"axis": axis, "width": width}) for axis, width in sides]
    return min(found, key=lambda b: (b.bound, not b.whole), default=None)  # the first of the least


def band_knights(across: int, width: int, around: int) -> int:
    """The most independent knights on a band: ``width`` consecutive lines of a torus
    ``across`` lines high, going ``around`` lines (the band's own count, exact).

    Parameters
    ----------
    across : int
        The torus's lines across the band (its rows, for a band of rows): moves between
        the band's lines are taken modulo ``across``.
    width : int
        The band's lines, ``1 <= width <= min(across, MAX_BAND_WIDTH)``.
    around : int
        The cyclic length of the band, at least ``MIN_AROUND``.

    Returns
    -------
    int
        ``alpha(G[S])``: the best closed walk of ``around`` steps of the transfer matrix,
        ``trace`` of its ``around``-th max-plus power.

    Raises
    ------
    ValueError
        Sizes out of range.

    Notes
    -----
    A column ``j`` and the column ``j + k`` (``k`` = 1, 2, modulo ``around``) are joined by
    the moves ``(dr, dc)`` with ``dc = k`` modulo ``around``; every move's ``dc`` is one of
    ``±1, ±2``, so checking the pairs ``(j, j + 1)`` and ``(j, j + 2)`` for every ``j`` checks
    every move (on 3 or 4 lines around some pairs coincide; the offsets are then merged).
    O(S^3 log(around)) time for S states (305 for a 6-line band, 1 340 for 8 lines):
    a 6-row band around 1 001 columns takes about 0.1 s, once compiled.

    Examples
    --------
    >>> band_knights(100, 6, 13), band_knights(100, 6, 1001)
    (33, 2997)
    """
    return int(np.max(_band(across, width, around)[1]))


def band_columns(across: int, width: int, around: int) -> np.ndarray | None:
    """A placement on the band with :func:`band_knights` knights: the bit mask of each of its
    ``around`` columns (bit ``i``: a knight on line ``i``); None when the walk's table would
    exceed ``WITNESS_CELLS``.

    For producers (a band that is the whole torus gives an optimal placement); the checker
    never uses it, and checks any placement built from it like every other.

    Raises
    ------
    ValueError
        Sizes out of range.

    Examples
    --------
    >>> band_columns(4, 4, 7).tolist()  # the whole 4 x 7 torus: 10 knights
    [5, 10, 5, 10, 5, 0, 0]
    """
    from knightcert.problems.checkers.knights_band_kernel import closed_walk

    parts, diagonal = _band(across, width, around)
    matrix, keys, near, far, weight = parts
    if around * len(keys) > WITNESS_CELLS:
        return None
    start = int(np.argmax(diagonal))
    value, columns = closed_walk(width, near, far, weight, keys, matrix, start, around)
    if value != diagonal[start]:  # pragma: no cover - the walk's value is the trace's by construction
        raise AssertionError("the band's closed walk lost its value")
    return columns


@functools.lru_cache(maxsize=16)
def _band(across: int, width: int, around: int) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """The band's transfer matrix with its keys and pattern tables, and the diagonal of its
    ``around``-th max-plus power (the best closed walk from each state)."""
    if not (1 <= width <= min(across, MAX_BAND_WIDTH) and around >= MIN_AROUND):
        raise ValueError(f"band of {width} lines of {across}, around {around}: out of range")
    from knightcert.problems.checkers.knights_band_kernel import (
        maxplus_diagonal,
        maxplus_product,
        transfer_matrix,
    )

    near_row, far_row = _attacked_rows(across, width, around)
    patterns = np.arange(1 << width)
    bits = (patterns[:, None] >> np.arange(width)) & 1  # (2^width, width)
    near = np.bitwise_or.reduce(np.where(bits == 1, near_row, 0), axis=1).astype(np.int64)
    far = np.bitwise_or.reduce(np.where(bits == 1, far_row, 0), axis=1).astype(np.int64)
    weight = bits.sum(axis=1).astype(np.int32)
    matrix, keys = transfer_matrix(width, near, far, weight)
    # matrix^around by squaring: the product of the powers taken so far, times what is left
    taken, power, steps = None, matrix, around
    while steps > 1:
        if steps & 1:
            taken = power if taken is None else maxplus_product(taken, power)
        power = maxplus_product(power, power)
        steps >>= 1
    diagonal = np.diagonal(power).copy() if taken is None else maxplus_diagonal(taken, power)
    return (matrix, keys, near, far, weight), diagonal


def _attacked_rows(across: int, width: int, around: int) -> tuple[np.ndarray, np.ndarray]:
    """For each line ``i`` of the band, the mask of lines a knight on it attacks in the
    column one step on (``near``) and two steps on (``far``)."""
    offsets: dict[int, set[int]] = {1: set(), 2: set()}
    for dr, dc in KNIGHT_OFFSETS:
        step = dc % around
        if step in offsets:
            offsets[step].add(dr % across)
    near, far = (
        np.array([sum(1 << j for j in range(width) if (j - i) % across in moves) for i in range(width)])
        for moves in (offsets[1], offsets[2])
    )
    return near.astype(np.int64), far.astype(np.int64)


def strip_placement(rows: int, cols: int) -> np.ndarray | None:
    """Knights on one colour of every line but two: ``R(C - 2)/2`` knights on an ``R x C``
    torus with ``R`` even and ``C`` odd (the squares ``(r, c)``, ``1 <= c <= C - 2``,
    ``r + c`` even), transposed when ``R`` is the odd side; None unless exactly one side is
    odd and the odd side is at least 3.

    No two attack: inside the strip a move changes the colour (the even side wraps
    evenly), and the two empty lines keep the strip's ends three steps apart.

    Returns
    -------
    numpy.ndarray of int64, shape (k, 2), or None

    Examples
    --------
    >>> len(strip_placement(8, 13)), len(strip_placement(13, 8)), strip_placement(7, 7)
    (44, 44, None)
    """
    if rows % 2 == cols % 2:
        return None
    even, odd = (rows, cols) if rows % 2 == 0 else (cols, rows)
    if odd < MIN_AROUND:
        return None
    line, other = np.meshgrid(np.arange(even), np.arange(1, odd - 1), indexing="ij")
    keep = (line + other) % 2 == 0
    squares = np.stack([line[keep], other[keep]], axis=1).astype(np.int64)
    return squares if rows % 2 == 0 else squares[:, ::-1].copy()
