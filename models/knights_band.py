"""Independent knights on full tori with one odd side: the optimum without search.

The checker's band bound (:mod:`knightcert.problems.checkers.knights_band`) is the optimum on
every full torus with exactly one odd side; :func:`band_optimum` pairs it with a placement
that meets it and answers ``OPTIMAL`` with the band as certificate. The registered ``cpsat``
method (:mod:`knightcert.combined`, the default on tori with an odd side) calls it first, and
falls back to the CP-SAT model (:mod:`knightcert.models.knights_cpsat`) where it does not
apply. No solver is loaded here: the command line answers 100 x 1001 in about a second.
"""

from __future__ import annotations

import numpy as np

from knightcert.problems.checkers.knights_band import (
    BandBound,
    band_columns,
    best_band,
    full_torus,
    strip_placement,
)
from knightcert.problems.deadline import Deadline
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.result import Result, Status

__all__ = ["band_optimum"]


def band_optimum(instance: KnightsInstance) -> tuple[Result | None, BandBound | None]:
    """The optimum of a full torus with exactly one odd side without search, where a band proves it.

    The checker's band bound (:func:`~knightcert.problems.checkers.knights_band.best_band`)
    and a placement that meets it: the strip
    (:func:`~knightcert.problems.checkers.knights_band.strip_placement`, ``R(C - 2)/2``
    knights, found from CP-SAT's optima: 6 x 7, 8 x 13, 10 x 11, ...), or, where the band
    is the whole torus (a side of at most 6), the band count's own best placement
    (:func:`~knightcert.problems.checkers.knights_band.band_columns`). A placement that
    reaches the bound is optimal; the band goes with it as its certificate (the checker
    counts the band again itself, and checks the placement as any other).

    Returns
    -------
    (result, band)
        ``result``: ``OPTIMAL`` (method ``cpsat``; ``info["construction"]`` is ``"strip"`` or
        ``"band"``) when a placement meets the bound, else None. ``band``: the band whose
        bound is the optimum (met by the placement, or the whole torus, whose count is exact,
        when its placement is too long to build), else None; both None off full tori with
        one odd side.

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> result, band = band_optimum(knights_instance(8, 13, torus=True))
    >>> result.status.value, result.objective, result.certificate, result.info["construction"]
    ('OPTIMAL', 44, {'band': {'axis': 'rows', 'width': 6}}, 'strip')
    >>> result, band = band_optimum(knights_instance(12, 5, torus=True))  # the strip: 18
    >>> result.objective, result.info["construction"], band.whole
    (20, 'band', True)
    """
    clock = Deadline(None)
    board = instance.board
    if not full_torus(board) or board.rows % 2 == board.cols % 2:
        return None, None
    band = best_band(board)
    if band is None:
        return None, None
    placement, construction = strip_placement(board.rows, board.cols), "strip"
    if (placement is None or len(placement) != band.bound) and band.whole:
        placement, construction = _band_placement(board, band), "band"
    if placement is None or len(placement) != band.bound:
        return None, band if band.whole else None
    info = {"construction": construction, "upper_bound": band.bound, "bound_source": band.how()}
    result = Result.answer(
        "knights",
        "cpsat",
        status=Status.OPTIMAL,
        objective=len(placement),
        bound=band.bound,
        solution=placement,
        time=clock.elapsed(),
        info={**info, "band_s": round(band.seconds, 6)},
        certificate={"band": band.entry()},
    )
    return result, band


def _band_placement(board, band: BandBound) -> np.ndarray | None:
    """The squares of the band count's best placement on a band that is the whole torus."""
    rows = band.axis == "rows"
    across, around = (board.rows, board.cols) if rows else (board.cols, board.rows)
    columns = band_columns(across, band.width, around)
    if columns is None:
        return None
    lines = (columns[:, None] >> np.arange(band.width)) & 1  # (around, width)
    step, line = np.nonzero(lines)
    return np.stack([line, step] if rows else [step, line], axis=1).astype(np.int64)
