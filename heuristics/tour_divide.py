"""Closed knight's tours of large boards by divide and conquer (Parberry 1997 style).

A board whose sides are both at least 12 is cut into four quadrants with
even sides of at least 6, each toured recursively; boards with a side of at
most 10 are base boards with a stored *structured* closed tour (see
:mod:`knightcert.models.structured_tours`). Four quadrant tours are joined into one at
the centre point: one move is cut in each quadrant's inner corner and four
moves across the cut lines reconnect the four paths into a single cycle.

The cut moves are ones every quadrant tour is known to contain: the two
moves of a corner square (in any closed tour) and the structured move
(0, 1)-(2, 0) of each corner (kept by every join, since joins touch only
the inner corners). Nothing is left to chance: the construction is O(n)
and always succeeds on the boards it accepts.
"""

from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path

import numpy as np
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.method import method
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance

DATA_FILE = Path(__file__).resolve().parent / "data" / "structured_tours.json"

# The join at centre point (cr, cc), in offsets from it. Quadrant A (top-left)
# cuts its corner-square move (-1,-1)-(-2,-3); B (top-right) its structured
# move (-1,1)-(-3,0); C (bottom-left) (0,-2)-(2,-1); D (bottom-right) its
# corner-square move (0,0)-(1,2). The four new moves A0-B1, B0-D1, C0-A1 and
# D0-C1 are knight moves and turn the four paths into one cycle (found by
# exhaustive search over the corner moves; the tests re-check every tour).
_A0, _A1 = (-1, -1), (-2, -3)
_B0, _B1 = (-1, 1), (-3, 0)
_C0, _C1 = (0, -2), (2, -1)
_D0, _D1 = (0, 0), (1, 2)
#: (square, neighbour it loses, neighbour it gains) for the eight squares of a join.
_REWIRING = (
    (_A0, _A1, _B1),
    (_A1, _A0, _C0),
    (_B0, _B1, _D1),
    (_B1, _B0, _A0),
    (_C0, _C1, _A1),
    (_C1, _C0, _D0),
    (_D0, _D1, _C1),
    (_D1, _D0, _B0),
)


@lru_cache(maxsize=1)
def base_tours() -> dict[tuple[int, int], np.ndarray]:
    """Stored structured tours by (rows, cols), as (n, 2) neighbour tables."""
    stored = json.loads(DATA_FILE.read_text())
    tables = {}
    for name, order in stored.items():
        rows, cols = (int(x) for x in name.split("x"))
        sequence = np.asarray(order, dtype=np.int64)
        table = np.empty((rows * cols, 2), dtype=np.int64)
        table[sequence, 0] = np.roll(sequence, 1)
        table[sequence, 1] = np.roll(sequence, -1)
        tables[rows, cols] = table
    return tables


def split(size: int) -> tuple[int, int]:
    """Cut an even side of at least 12 into two even sides of at least 6."""
    first = 2 * (size // 4)
    return first, size - first


def supported(rows: int, cols: int) -> bool:
    """Whether the construction covers a full ``rows x cols`` board."""
    if (rows, cols) in base_tours():
        return True
    if rows < 12 or cols < 12 or rows % 2 or cols % 2:
        return False
    return all(supported(r, c) for r in split(rows) for c in split(cols))


def closed_tour_table(rows: int, cols: int) -> np.ndarray:
    """Neighbour table (rows*cols, 2) of a closed tour of the full board (flat indices)."""
    blocks: dict[tuple[int, int], list[tuple[int, int]]] = {}
    centres: list[tuple[int, int]] = []
    stack = [(0, 0, rows, cols)]
    while stack:
        r0, c0, r, c = stack.pop()
        if (r, c) in base_tours():
            blocks.setdefault((r, c), []).append((r0, c0))
            continue
        r1, r2 = split(r)
        c1, c2 = split(c)
        centres.append((r0 + r1, c0 + c1))
        stack += [(r0, c0, r1, c1), (r0, c0 + c1, r1, c2), (r0 + r1, c0, r2, c1), (r0 + r1, c0 + c1, r2, c2)]
    table = np.empty((rows * cols, 2), dtype=np.int64)
    for (r, c), origins in blocks.items():
        local = base_tours()[r, c]
        lr, lc = np.divmod(np.arange(r * c), c)
        nr, nc = np.divmod(local, c)
        origin = np.asarray(origins, dtype=np.int64)
        squares = (origin[:, 0:1] + lr) * cols + (origin[:, 1:2] + lc)  # (k, r*c)
        partners = (origin[:, 0:1, None] + nr) * cols + (origin[:, 1:2, None] + nc)  # (k, r*c, 2)
        table[squares.reshape(-1)] = partners.reshape(-1, 2)
    if centres:
        centre = np.asarray(centres, dtype=np.int64)
        for (sr, sc), (lr_, lc_), (gr, gc) in _REWIRING:
            square = (centre[:, 0] + sr) * cols + centre[:, 1] + sc
            lost = (centre[:, 0] + lr_) * cols + centre[:, 1] + lc_
            gained = (centre[:, 0] + gr) * cols + centre[:, 1] + gc
            slot = np.where(table[square, 0] == lost, 0, 1)
            if not np.all(table[square, slot] == lost):  # pragma: no cover - guards the construction
                raise AssertionError("a join found a move missing from a quadrant tour")
            table[square, slot] = gained
    return table


@method("tour", "divide")
def divide(instance: TourInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """A closed tour of a large full board by divide and conquer.

    Parameters
    ----------
    instance : TourInstance
        A full board (no removed squares), both sides even; either a base
        board (6..10 x 6..12, sides differing by at most 2) or both sides at
        least 12 and cut recursively into such boards (for instance every
        ``n x n`` with even ``n >= 6``). ``--start`` rotates the tour; an
        open tour request gets a closed tour (which is also an open one),
        unless an end is fixed.

    Returns
    -------
    Result
        ``FEASIBLE`` with the tour.

    Raises
    ------
    InvalidInstance
        Boards the construction does not cover.

    Notes
    -----
    O(rows * cols) time and memory, vectorised; deterministic.
    """
    from knightcert.heuristics.tour_kernels import walk_cycle

    board = instance.board
    if board.blocked.any() or instance.end is not None or not supported(board.rows, board.cols):
        raise InvalidInstance(
            "divide builds closed tours of full boards with even sides, both >= 12 or a stored base size "
            "(6x6, 6x8, 8x8, 8x10, 10x10, 10x12 and transposes), without removed squares or a fixed end; "
            f"this is {board.rows} x {board.cols}" + (" with removed squares" if board.blocked.any() else "")
        )
    began = time.perf_counter()
    table = closed_tour_table(board.rows, board.cols)
    first = board.index(*instance.start) if instance.start is not None else 0
    order = walk_cycle(table, first)
    rows, cols = np.divmod(order, board.cols)
    tour = np.stack([rows, cols], axis=1).tolist()
    elapsed = time.perf_counter() - began
    return Result("tour", "divide", Status.FEASIBLE, len(tour), None, tour, elapsed)
