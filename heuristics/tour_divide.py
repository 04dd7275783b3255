"""Knight's tours of every full board by divide and conquer, in linear time.

The board is cut into pieces whose tours are stored (generated and verified
with CP-SAT, see :mod:`knightcert.models.structured_tours`), and the pieces'
tours are joined into one:

Boards with both sides at least 5
    A grid of blocks with sides 5..11. For a closed tour the even side runs
    along the columns and every block has an even side, so every block has a
    stored *closed* tour; when both sides are odd (open tours only) the blocks
    of one block row and one block column have odd heights / widths and the
    single odd x odd block holds an *open* path. Every block tour contains the
    four join moves of :func:`~knightcert.models.structured_tours.join_moves`;
    the blocks of each block row are merged left to right, and the block rows
    top to bottom along the first block column, each merge exchanging two
    facing moves for two crossing moves (a cycle with a cycle gives a cycle,
    a path with a cycle gives a path with the same ends).
Boards with 3 or 4 rows (or columns)
    No two-move exchange fits in fewer than four rows, so these strips are
    chains of *lane* pieces whose ports meet across each cut: one lane for
    open 3-row strips, two lanes that turn round in the end pieces for closed
    3-row strips and for 4-row strips (which have no closed tour; their left
    end piece holds both ends of the open tour).

A closed tour answers an open-tour query too (drop any one move), and a
``start`` on a closed tour is a rotation. An odd x odd board with a ``start``
puts its odd block over the start, and a 3- or 4-row strip without a closed
tour puts a *start piece* there (two chains of lane pieces go out from it and
come back); the ``solver`` given by the caller (e.g. the CP-SAT model of
:mod:`knightcert.models.structured_tours`) gives that one piece.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from knightcert.problems.compiled import kernel_or_numba
from knightcert.problems.errors import InvalidInstance, SizeLimitExceeded
from knightcert.problems.method import method
from knightcert.problems.result import Backing, Evidence, Result, Status
from knightcert.problems.tour_pieces import JOIN_OFFSET, LANE_KINDS, LANE_WIDTHS, join_moves, port
from knightcert.problems.tours import TourInstance, closed_tour_reason, open_tour_reason

__all__ = [
    "DATA_FILE",
    "MAX_PLACEMENTS",
    "MAX_SQUARES",
    "PYTHON_WALK",
    "STAMP_SQUARES",
    "START_KINDS",
    "PieceSolver",
    "Plan",
    "block_plan",
    "build_table",
    "construct",
    "divide",
    "has",
    "lanes_table",
    "local_table",
    "odd_splits",
    "offsets",
    "pieces",
    "split",
    "squares_of",
    "strip_plan",
    "strip_start_plan",
    "walk",
    "walk_order",
]

DATA_FILE = Path(__file__).resolve().parent / "data" / "structured_tours.json"
#: Placements of a piece over a start tried before giving up (each asks the piece solver).
MAX_PLACEMENTS = 12
#: Largest board built: about 18 bytes per square at the peak, so 250 million squares take
#: about 4.5 GB (and the checker as much again); flat indices are int32 in any case.
MAX_SQUARES = 250_000_000
#: Squares stamped per batch of blocks (bounds the int64 temporaries of the stamping).
STAMP_SQUARES = 1 << 16
#: Boards up to this many squares are walked in Python (no compiled kernel to load).
PYTHON_WALK = 50_000
TOUR_KERNELS = "knightcert.heuristics.tour_kernels"  # compiled ahead of time, else numba's

#: A piece solver, e.g. ``knightcert.models.structured_tours.solve_piece``:
#: ``solver(h, w, forced, lanes)`` gives the lanes (flat local squares in order) of an
#: ``h x w`` piece that uses the ``forced`` moves, lane ``i`` running from one of
#: ``lanes[i][0]`` to one of ``lanes[i][1]`` (None: any square), or None.
PieceSolver = Callable[..., "list[list[int]] | None"]
#: Start pieces of 3- and 4-row strips (``"start"`` is the given square), by which
#: neighbours they have: (left part, right part).
#: ``ma_out``/``mb_in`` face a chain on the left: the mirror image of a right-hand chain.
START_KINDS = {
    (True, True): (("start", "a_out"), ("b_in", "ma_out"), ("mb_in", None)),
    (False, True): (("start", "a_out"), ("b_in", None)),
    (True, False): (("start", "ma_out"), ("mb_in", None)),
}


@lru_cache(maxsize=1)
def pieces() -> dict[str, list[list[int]]]:
    """The stored pieces, ``"kind:HxW" -> lanes`` (flat local squares in order)."""
    return json.loads(DATA_FILE.read_text())


def has(kind: str, h: int, w: int) -> bool:
    return f"{kind}:{h}x{w}" in pieces()


@cache
def local_table(key: str) -> np.ndarray:
    """Neighbour table (h*w, 2) of a piece, -1 at the free ends of its paths.

    ``"mirror|" + key`` is the piece reflected left to right.
    """
    mirrored = key.startswith("mirror|")
    key = key.removeprefix("mirror|")
    h, w = (int(x) for x in key.split(":")[1].split("x"))
    lanes = pieces()[key] if key in pieces() else _extra[key]
    if mirrored:
        lanes = [[(q // w) * w + (w - 1 - q % w) for q in lane] for lane in lanes]
    return lanes_table(h * w, lanes, closed=key.startswith("closed:"))


_extra: dict[str, list[list[int]]] = {}


def lanes_table(size: int, lanes: list[list[int]], closed: bool) -> np.ndarray:
    table = np.full((size, 2), -1, dtype=np.int64)
    for lane in lanes:
        seq = np.asarray(lane, dtype=np.int64)
        if closed:
            table[seq, 0] = np.roll(seq, 1)
            table[seq, 1] = np.roll(seq, -1)
        else:
            table[seq[1:], 0] = seq[:-1]
            table[seq[:-1], 1] = seq[1:]
    return table


# ----------------------------------------------------------------------------- splitting sides


def split(total: int, parts: tuple[int, ...], prefer: int) -> list[int] | None:
    """``total`` as a sum of ``parts`` (mostly ``prefer``), or None."""
    best: dict[int, list[int]] = {0: []}
    bulk = 0
    if total > 60:
        bulk = (total - 40) // prefer
        total -= bulk * prefer
    for t in range(1, total + 1):
        options = [best[t - p] + [p] for p in parts if t - p in best]
        if options:
            best[t] = min(options, key=len)
    return None if total not in best else [prefer] * bulk + sorted(best[total], reverse=True)


def odd_splits(
    total: int, odd: tuple[int, ...], even: tuple[int, ...], at: int | None
) -> Iterator[list[int]]:
    """``total`` (odd) as even parts and exactly one odd part, the odd part covering index ``at``
    (last when ``at`` is None); every such split, smallest odd part first."""
    for p in odd:
        rest = total - p
        if rest < 0:
            continue
        if at is None:
            right = split(rest, even, 8) if rest else []
            if right is not None:
                yield [*right, p]
            continue
        for before in range(max(0, at - p + 1), at + 1):
            after = rest - before
            if after < 0:
                break
            left = split(before, even, 8) if before else []
            right = split(after, even, 8) if after else []
            if left is not None and right is not None:
                yield [*left, p, *right]


def offsets(parts: list[int]) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(parts)[:-1]]).astype(np.int64)


# ----------------------------------------------------------------------------- plans


class Plan:
    """Blocks (origin, piece key) and the moves that join them, for one board."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        # piece key -> arrays of block origins (r0, c0), shape (k, 2)
        self.blocks: dict[str, list[np.ndarray]] = {}
        # 2-exchanges: (a, b, c, d) flat squares: moves a-b and c-d become a-c and b-d
        self.joins: list[np.ndarray] = []
        # links between free path ends: (u, v)
        self.links: list[tuple[int, int]] = []

    def add(self, key: str, r0: int, c0: int) -> None:
        self.add_many(key, np.array([[r0, c0]], dtype=np.int64))

    def add_many(self, key: str, origins: np.ndarray) -> None:
        if len(origins):
            self.blocks.setdefault(key, []).append(origins)

    def origins(self, key: str) -> np.ndarray:
        """All origins of ``key`` as a (k, 2) array."""
        return np.concatenate(self.blocks[key])


def block_plan(
    rows: int, cols: int, start: tuple[int, int] | None, solver: PieceSolver | None
) -> Plan | None:
    """Plan of a board with both sides >= 5 (``cols`` even when ``rows * cols`` is)."""
    evens = (6, 8, 10)
    if rows * cols % 2 == 0:
        heights, widths = split(rows, tuple(range(5, 12)), 8), split(cols, evens, 8)
        return None if heights is None or widths is None else _grid(rows, cols, heights, widths, {})
    odd = (5, 7, 9, 11)
    at_r, at_c = (None, None) if start is None else start
    tries = 0
    for heights in odd_splits(rows, odd, evens, at_r):
        for widths in odd_splits(cols, odd, evens, at_c):
            tries += 1
            if tries > MAX_PLACEMENTS:
                return None
            i = next(k for k, h in enumerate(heights) if h % 2)
            j = next(k for k, w in enumerate(widths) if w % 2)
            h, w = heights[i], widths[j]
            if start is None:
                return _grid(rows, cols, heights, widths, {(i, j): f"open:{h}x{w}"})
            if solver is None:
                return None
            # force only the join moves this block takes part in
            joined = (j > 0, j + 1 < len(widths), j == 0 and i > 0, j == 0 and i + 1 < len(heights))
            sides = [s for s, yes in zip(("left", "right", "top", "bottom"), joined, strict=True) if yes]
            local = (start[0] - sum(heights[:i]), start[1] - sum(widths[:j]))
            moves = join_moves(h, w)
            found = solver(h, w, tuple(moves[s] for s in sides), (((local,), None),))
            if found is not None:
                key = f"open:{h}x{w}:from{local[0]},{local[1]}:{','.join(sides)}"
                _extra[key] = found
                return _grid(rows, cols, heights, widths, {(i, j): key})
    return None


def _grid(rows: int, cols: int, heights: list[int], widths: list[int], special: dict) -> Plan:
    """Blocks of the given heights and widths, closed pieces except ``special[(i, j)]``, and their joins."""
    plan = Plan(rows, cols)
    r_off, c_off = offsets(heights), offsets(widths)
    hs, ws = np.asarray(heights), np.asarray(widths)
    for h in sorted(set(heights)):
        for w in sorted(set(widths)):
            grid_i, grid_j = np.meshgrid(np.flatnonzero(hs == h), np.flatnonzero(ws == w), indexing="ij")
            ii, jj = grid_i.reshape(-1), grid_j.reshape(-1)
            keep = np.ones(len(ii), dtype=bool)
            for i, j in special:
                keep &= (ii != i) | (jj != j)
            plan.add_many(f"closed:{h}x{w}", np.stack([r_off[ii[keep]], c_off[jj[keep]]], axis=1))
    for (i, j), key in special.items():
        plan.add(key, int(r_off[i]), int(c_off[j]))
    o = JOIN_OFFSET
    C = cols
    # horizontal joins along every block row
    rr, cc = np.meshgrid(r_off, c_off[1:], indexing="ij")
    rr, cc = rr.reshape(-1) + o, cc.reshape(-1)
    if rr.size:
        plan.joins.append(
            np.stack([rr * C + cc - 2, (rr + 2) * C + cc - 1, (rr + 1) * C + cc, (rr + 3) * C + cc + 1], 1)
        )
    # vertical joins along the first block column
    yy = r_off[1:]
    if yy.size:
        plan.joins.append(
            np.stack([(yy - 2) * C + o, (yy - 1) * C + o + 2, yy * C + o + 1, (yy + 1) * C + o + 3], 1)
        )
    return plan


def strip_plan(h: int, n: int, closed: bool) -> Plan | None:
    """Plan of a ``h x n`` strip (h = 3 or 4) as a chain of lane pieces, or a single stored piece."""
    plan = Plan(h, n)
    kind = "closed" if closed else "open"
    if has(kind, h, n):
        plan.add(f"{kind}:{h}x{n}", 0, 0)
        return plan
    if closed or h == 4:
        first, middle, last = ("left", "middle2", "right") if closed else ("ends", "middle2", "right")
    else:
        first, middle, last = "head", "middle", "tail"
    for a in _widths(h, first):
        for b in _widths(h, last):
            inner = _inner(h, n - a - b, middle)
            if inner is not None:
                return _chain(plan, h, [a, *inner, b], [first] + [middle] * len(inner) + [last])
    return None


def _widths(h: int, kind: str) -> list[int]:
    return [w for w in LANE_WIDTHS if has(kind, h, w)]


def _inner(h: int, total: int, middle: str) -> list[int] | None:
    if total < 0:
        return None
    mids = tuple(_widths(h, middle))
    return [] if total == 0 else split(total, mids, max(mids))


def strip_start_plan(h: int, n: int, start: tuple[int, int], solver: PieceSolver | None) -> Plan | None:
    """Plan of an open tour of a ``h x n`` strip (h = 3 or 4) from ``start``.

    A start piece (asked of ``solver``) holds the start and the free end. To
    its right a chain ``middle2..., right`` carries lane A out and lane B
    back; to its left the mirror image of such a chain does the same.
    """
    if solver is None:
        return None
    r, c = start
    tries = 0
    for w in range(4, 13):
        placements = sorted(range(max(0, c - w + 1), min(c, n - w) + 1), key=lambda x: abs(c - x - w // 2))
        for x0 in placements:
            left, right = _side(h, x0), _side(h, n - x0 - w)
            if left is None or right is None or not (left or right):
                continue
            tries += 1
            if tries > MAX_PLACEMENTS:
                return None
            flags = (bool(left), bool(right))
            local = (r, c - x0)
            lanes = tuple(
                tuple(
                    None if p is None else (local,) if p == "start" else (_start_port(h, w, p),) for p in lane
                )
                for lane in START_KINDS[flags]
            )
            found = solver(h, w, (), lanes)
            if found is None:
                continue
            key = f"start:{h}x{w}:from{local[0]},{local[1]}:{int(flags[0])}{int(flags[1])}"
            _extra[key] = found
            plan = Plan(h, n)
            if right:
                _chain(plan, h, [w, *right], [key] + ["middle2"] * (len(right) - 1) + ["right"], x0)
            else:
                plan.add(key, 0, x0)
            if left:  # the mirror image of a right-hand chain of width x0, linked to the start piece
                mirror = _chain(Plan(h, x0), h, left, ["middle2"] * (len(left) - 1) + ["right"])
                for k in mirror.blocks:
                    kw = int(k.split(":")[1].split("x")[1])
                    flipped = mirror.origins(k) * np.array([1, -1]) + np.array([0, x0 - kw])
                    plan.add_many("mirror|" + k, flipped)
                plan.links += [
                    ((u // x0) * n + (x0 - 1 - u % x0), (v // x0) * n + (x0 - 1 - v % x0))
                    for u, v in mirror.links
                ]
                ar, _ = port(h, left[0], "a_in")
                br, _ = port(h, left[0], "b_out")
                sr, sc = _start_port(h, w, "ma_out")
                plan.links.append((sr * n + x0 + sc, ar * n + x0 - 1))
                sr, sc = _start_port(h, w, "mb_in")
                plan.links.append((br * n + x0 - 1, sr * n + x0 + sc))
            return plan
    return None


def _start_port(h: int, w: int, name: str) -> tuple[int, int]:
    """Ports of a start piece: the usual ones, and ``ma_out``/``mb_in`` mirrored onto its left side."""
    if name.startswith("m"):
        r, c = port(h, 1, name[1:])  # column -1 of the piece to the left: local column 0 mirrored
        return (r, 0 - c)
    return port(h, w, name)


def _side(h: int, total: int) -> list[int] | None:
    """Widths of a chain ``middle2..., right`` of width ``total`` ([] for 0)."""
    if total == 0:
        return []
    for a in _widths(h, "right"):
        inner = _inner(h, total - a, "middle2")
        if inner is not None:
            return [*inner, a]
    return None


def _ports(kind: str) -> set[str]:
    """The ports a lane kind (or a start piece key) uses."""
    if kind.startswith("start:"):
        flags = kind.rsplit(":", 1)[1]
        lanes: tuple[tuple[str | None, str | None], ...] = START_KINDS[flags[0] == "1", flags[1] == "1"]
    else:
        lanes = LANE_KINDS[kind]
    return {p for lane in lanes for p in lane if p is not None}


def _chain(plan: Plan, h: int, parts: list[int], kinds: list[str], x: int = 0) -> Plan:
    """Place lane pieces left to right from column ``x`` and link their ports across each cut."""
    C = plan.cols

    def at(name: str, x0: int, w: int) -> int:
        r, c = port(h, w, name)
        return r * C + x0 + c

    for k, (w, kind) in enumerate(zip(parts, kinds, strict=True)):
        plan.add(kind if kind.startswith("start:") else f"{kind}:{h}x{w}", 0, x)
        if k + 1 < len(parts):
            nxt = x + w
            ports = _ports(kind)
            if "a_out" in ports:
                plan.links.append((at("a_out", x, w), at("a_in", nxt, parts[k + 1])))
            if "b_in" in ports:
                plan.links.append((at("b_out", nxt, parts[k + 1]), at("b_in", x, w)))
        x += w
    return plan


# ----------------------------------------------------------------------------- building


def build_table(plan: Plan) -> np.ndarray:
    """The (rows*cols, 2) int32 neighbour table of the planned tour (-1 at the ends of a path)."""
    C = plan.cols
    table = np.empty((plan.rows * C, 2), dtype=np.int32)
    flat = table.view(np.int64)[:, 0]  # the same memory, one int64 per square
    for key in plan.blocks:
        h, w = (int(x) for x in key.split(":")[1].split("x"))
        local = local_table(key)
        lr, lc = np.divmod(np.arange(h * w, dtype=np.int64), w)
        square_offset = (lr * C + lc).astype(np.int32)  # flat offsets from the block origin
        nr, nc = np.divmod(local, w)
        partner_offset = (nr * C + nc).astype(np.int32)
        end = local < 0
        base = plan.origins(key) @ np.array([C, 1], dtype=np.int64)
        base = base.astype(np.int32)
        chunk = max(1, STAMP_SQUARES // (h * w))
        for s in range(0, len(base), chunk):
            b = base[s : s + chunk]
            squares = b[:, None] + square_offset
            partners = b[:, None, None] + partner_offset
            if end.any():
                partners[:, end] = -1
            # a square's two partners as one 8-byte element: a 1-d scatter, faster than rows
            flat[squares.reshape(-1)] = partners.reshape(-1, 2).view(np.int64)[:, 0]
    for join in plan.joins:
        a, b, c, d = join.T
        for square, lost, gained in ((a, b, c), (b, a, d), (c, d, a), (d, c, b)):
            _replace(table, square, lost, gained)
    if plan.links:
        u, v = np.asarray(plan.links, dtype=np.int64).T
        _replace(table, u, -1, v)
        _replace(table, v, -1, u)
    return table


def _replace(table: np.ndarray, square: np.ndarray, lost, gained) -> None:
    slot = np.where(table[square, 0] == lost, 0, 1)
    if not np.all(table[square, slot] == lost):  # pragma: no cover - guards the construction
        raise AssertionError("a join found a move missing from a piece's tour")
    table[square, slot] = gained


def walk(table: np.ndarray, first: int, cols: int) -> np.ndarray:
    """The (n, 2) int32 squares of the tour read from ``first`` (a path end for an open tour)."""
    return squares_of(walk_order(table, first), cols)


def walk_order(table: np.ndarray, first: int) -> np.ndarray:
    """The flat squares of the tour in order, read from ``first`` (int32 from the compiled
    walk, past :data:`PYTHON_WALK` squares)."""
    n = table.shape[0]
    if n > PYTHON_WALK:
        return kernel_or_numba("walk_order", TOUR_KERNELS)(np.ascontiguousarray(table, dtype=np.int32), first)
    order = np.empty(n, dtype=np.int64)
    t = table.tolist()
    previous, current = -1, first
    for i in range(n):
        order[i] = current
        a, b = t[current]
        following = b if a == previous else a
        previous, current = current, following
    return order


def squares_of(order: np.ndarray, cols: int) -> np.ndarray:
    """The (n, 2) int32 [row, col] squares of flat squares ``order`` (compiled past
    :data:`PYTHON_WALK` squares, else a slice at a time: no whole-array temporaries)."""
    out = np.empty((len(order), 2), dtype=np.int32)
    if len(order) > PYTHON_WALK:
        kernel_or_numba("order_squares", TOUR_KERNELS)(np.ascontiguousarray(order, dtype=np.int32), cols, out)
        return out
    step = 1 << 18
    for s in range(0, len(order), step):
        out[s : s + step, 0], out[s : s + step, 1] = np.divmod(order[s : s + step], cols)
    return out


def construct(
    rows: int,
    cols: int,
    *,
    closed: bool,
    start: tuple[int, int] | None = None,
    solver: PieceSolver | None = None,
) -> np.ndarray | None:
    """A tour of the full ``rows x cols`` board as an (n, 2) int32 array of squares, or None.

    Parameters
    ----------
    closed : bool
        Build a closed tour (only where Schwenk's theorem allows one).
    start : (int, int), optional
        First square. On a board with a closed tour the closed tour is rotated;
        on an odd x odd board the odd block is placed over the start and
        on 3- and 4-row boards without a closed tour a start piece is placed
        over it; ``solver`` gives that piece (None without a solver).

    Returns
    -------
    numpy.ndarray of int32, shape (rows*cols, 2), or None
        None when the construction does not cover the query (including boards
        with no tour at all: ask :func:`~knightcert.problems.tours.closed_tour_reason`).

    Notes
    -----
    O(rows * cols) time; about 12 bytes per square at the peak (the int32 neighbour
    table and the int32 order of the walk, then that order and the int32 answer).
    """
    if rows * cols > MAX_SQUARES:
        raise SizeLimitExceeded(
            f"tours are built on boards up to {MAX_SQUARES:,} squares (about 18 bytes each); "
            f"{rows} x {cols} has {rows * cols:,}"
        )
    if closed and closed_tour_reason(rows, cols) is not None:
        return None
    if not closed and open_tour_reason(rows, cols) is not None:
        return None
    if rows * cols == 1:
        return np.zeros((1, 2), dtype=np.int32)
    cycle = closed or closed_tour_reason(rows, cols) is None
    # blocks: the even side runs along the columns; strips: the short side is the rows
    m = min(rows, cols)
    transpose = (cols % 2 == 1 and rows % 2 == 0) if m >= 5 else cols == m
    r, c = (cols, rows) if transpose else (rows, cols)
    s = None if start is None else ((start[1], start[0]) if transpose else start)
    if min(r, c) >= 5:
        plan = block_plan(r, c, None if cycle else s, solver)
    elif s is not None and not cycle:
        plan = strip_start_plan(r, c, s, solver)
    else:
        plan = strip_plan(r, c, cycle)
    if plan is None:
        return None
    table = build_table(plan)
    if s is not None:
        first = s[0] * c + s[1]
    elif cycle:
        first = 0
    else:
        first = int(np.flatnonzero((table == -1).any(axis=1))[0])
    order = walk_order(table, first)
    del table  # the table (8 bytes per square) goes before the squares (8) come: 12 at the peak
    squares = squares_of(order, c)
    del order
    return squares[:, ::-1] if transpose else squares


@method("tour", "divide")
def divide(instance: TourInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """A tour of a full board by divide and conquer (closed where one exists or is asked for).

    Parameters
    ----------
    instance : TourInstance
        A full board (no removed squares) without a fixed end. ``--start``
        rotates a closed tour; on boards without a closed tour a start is not
        constructed (use the default method, which adds a CP-SAT block).

    Returns
    -------
    Result
        ``FEASIBLE`` with the tour as an (n, 2) int32 array; ``INFEASIBLE``
        with the theorem as evidence where no tour exists.

    Raises
    ------
    InvalidInstance
        Removed squares, a fixed end, or a start on a board without a closed tour.

    Examples
    --------
    >>> from knightcert.problems.tours import tour_instance
    >>> divide(tour_instance(3, 10, closed=True)).objective
    30

    Notes
    -----
    O(rows * cols) time and memory, deterministic; see docs/tours.md.
    """
    board = instance.board
    if board.blocked.any() or instance.end is not None:
        raise InvalidInstance("divide builds tours of full boards without a fixed end")
    reason = (closed_tour_reason if instance.closed else open_tour_reason)(board.rows, board.cols)
    if reason is not None and board.torus:  # the theorems are about plain boards
        raise InvalidInstance(
            f"divide builds plain-board tours, and a {board.rows} x {board.cols} board has none; "
            "it proves nothing about the torus (use the default method)"
        )
    if reason is not None:
        evidence = (Evidence("infeasible", Backing.THEOREM, reason),)
        return Result.empty("tour", "divide", status=Status.INFEASIBLE, evidence=evidence)
    squares = construct(board.rows, board.cols, closed=instance.closed, start=instance.start)
    if squares is None:
        raise InvalidInstance(
            f"divide does not build a tour from a given start on a {board.rows} x {board.cols} board "
            "without a closed tour (use the default method)"
        )
    return Result.answer("tour", "divide", status=Status.FEASIBLE, objective=len(squares), solution=squares)
