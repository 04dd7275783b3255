"""Knight-move generation, vectorised with numpy, for plain and toroidal boards."""

from __future__ import annotations

import numpy as np

from knightcert.problems.argument_checks import describe
from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidArgument

__all__ = [
    "KNIGHT_OFFSETS",
    "TIE_BREAKS",
    "is_knight_move",
    "knight_arcs",
    "knight_edges",
    "knight_neighbours",
    "knight_targets",
    "move_order",
]

#: The eight knight displacements ``(drow, dcol)`` in the library's fixed order.
KNIGHT_OFFSETS = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))


#: How a move-by-move search breaks ties between onward moves (Warnsdorff's rule and its
#: refinements), in the engine's numbering (``heuristics.tour_kernels.tie_key``).
TIE_BREAKS = ("first", "marginality", "roth", "centre", "random")


def move_order(value: object, where: str = "order") -> tuple[tuple[int, int], ...]:
    """A move-priority order: the eight knight moves as ``(drow, dcol)`` pairs, each once.

    ``value`` is a sequence of eight pairs, a text of eight ``drow,dcol`` pairs (separated by
    spaces), or the digits ``1``..``8`` naming :data:`KNIGHT_OFFSETS` by place
    (``"12345678"`` is that order, numbered from 1 as in seed 001; as text or as the integer
    ``--option order=12345678`` reads).

    Raises
    ------
    InvalidArgument
        Anything else; the message names ``where`` and the fault.

    Examples
    --------
    >>> move_order("87654321")[0]
    (2, 1)
    >>> move_order("1,2 2,1 2,-1 1,-2 -1,-2 -2,-1 -2,1 -1,2")[:2]
    ((1, 2), (2, 1))
    >>> move_order("11", "order")
    Traceback (most recent call last):
    knightcert.problems.errors.InvalidArgument: order: expected the 8 knight moves in some order, got str '11'
    """
    pairs: object = value
    if type(value) is int:  # the digits, read as a number (--option order=75312468)
        value = str(value)
    if isinstance(value, str) and value.isdigit() and set(value) <= set("12345678"):
        pairs = [KNIGHT_OFFSETS[int(d) - 1] for d in value]
    elif isinstance(value, str):
        pairs = [m.split(",") for m in value.split()]
    try:
        order = tuple((int(str(dr)), int(str(dc))) for dr, dc in pairs)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        order = ()
    if sorted(order) != sorted(KNIGHT_OFFSETS):
        raise InvalidArgument(f"{where}: expected the 8 knight moves in some order, got {describe(value)}")
    return order


def is_knight_move(board: Board, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True when one knight jump takes square ``a`` to square ``b`` on ``board``.

    On a torus the displacement is taken modulo the board size, so on boards
    with one or two rows (or columns) several jumps may land on the same square,
    and a jump may even land where it started.
    """
    dr, dc = b[0] - a[0], b[1] - a[1]
    if board.torus:
        return any(
            (dr - odr) % board.rows == 0 and (dc - odc) % board.cols == 0 for odr, odc in KNIGHT_OFFSETS
        )
    return (abs(dr), abs(dc)) in ((1, 2), (2, 1))


def knight_targets(
    board: Board, *, only_free: bool = True, offsets: tuple[tuple[int, int], ...] = KNIGHT_OFFSETS
) -> np.ndarray:
    """Target square of every knight jump from every square.

    Parameters
    ----------
    board : Board
    only_free : bool
        When True (default) a jump that lands on a blocked square, or that
        starts on one, is reported as ``-1``.
    offsets : tuple of (int, int)
        The eight jumps, in the column order wanted (default ``KNIGHT_OFFSETS``).

    Returns
    -------
    numpy.ndarray of int32 (int64 on boards of 2**31 squares or more), shape (rows * cols, 8)
        ``targets[i, k]`` is the flat index reached from square ``i`` with
        ``KNIGHT_OFFSETS[k]``, or ``-1`` when the jump leaves a plain board
        (or touches a blocked square, with ``only_free``).

    Notes
    -----
    O(8 * rows * cols) time and memory.
    """
    dtype = np.int32 if board.size < 2**31 - 16 else np.int64
    dr = np.array([d[0] for d in offsets], dtype=dtype)
    dc = np.array([d[1] for d in offsets], dtype=dtype)
    r: np.ndarray = np.arange(board.rows, dtype=dtype)[:, None, None]
    c: np.ndarray = np.arange(board.cols, dtype=dtype)[None, :, None]
    nr = r + dr[None, None, :]
    nc = c + dc[None, None, :]
    if board.torus:
        nr %= board.rows
        nc %= board.cols
        targets = nr * board.cols + nc
    else:
        inside = (nr >= 0) & (nr < board.rows) & (nc >= 0) & (nc < board.cols)
        targets = np.where(inside, nr * board.cols + nc, dtype(-1))
    targets = targets.reshape(board.size, len(offsets))
    if only_free:
        free = board.free.ravel()
        valid = targets >= 0
        valid[valid] = free[targets[valid]]
        valid &= free[:, None]
        targets = np.where(valid, targets, -1)
    return targets


def knight_arcs(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Distinct directed jumps between distinct free squares.

    Returns
    -------
    tails, heads : numpy.ndarray of int64
        Arc ``k`` goes from square ``tails[k]`` to square ``heads[k]``; the list
        is sorted, contains each ordered pair once and no self-loop.
    """
    targets = knight_targets(board)
    tails = np.repeat(np.arange(board.size, dtype=np.int64), 8)
    heads = targets.ravel()
    keep = (heads >= 0) & (heads != tails)
    # one sorted key per arc, duplicates dropped after a sort (numpy 2's hash-based np.unique
    # took 5 s on the 1.6 million arcs of a 450 x 450 board; a sort takes a tenth of that)
    keys = np.sort(tails[keep] * np.int64(board.size) + heads[keep].astype(np.int64))
    if len(keys):
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
    return keys // board.size, keys % board.size


def knight_edges(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Distinct undirected knight edges ``u < v`` between free squares."""
    tails, heads = knight_arcs(board)
    keep = tails < heads
    return tails[keep], heads[keep]


def knight_neighbours(board: Board) -> np.ndarray:
    """Distinct squares a knight on each free square attacks, as a padded table.

    Returns
    -------
    numpy.ndarray of int32, shape (rows * cols, 8)
        Row ``i`` lists the distinct free squares other than ``i`` one jump
        from ``i`` (none for a blocked ``i``), padded with ``-1`` at the end.
        On small tori several jumps may reach the same square or ``i`` itself;
        those are listed once or not at all.
    """
    targets = knight_targets(board)
    if board.torus and min(board.rows, board.cols) < 5:
        targets[targets == np.arange(board.size)[:, None]] = -1
        targets.sort(axis=1)
        targets[:, 1:][targets[:, 1:] == targets[:, :-1]] = -1
        targets = -np.sort(-targets, axis=1)  # distinct entries first, -1 padding last
        return targets.astype(np.int32)
    # plain boards and tori of sides >= 5: the eight jumps of a square reach eight distinct
    # squares other than itself (two jumps differ by at most 4 on an axis), so only the
    # padding moves to the end: one sort, in place, largest first (was three passes)
    targets.sort(axis=1)
    return np.ascontiguousarray(targets[:, ::-1], dtype=np.int32)
