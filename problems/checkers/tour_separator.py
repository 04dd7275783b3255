"""Separators: certificates that no knight's tour exists, checked in linear time.

A *separator* is a set ``X`` of usable squares. Removing it from the knight graph ``G``
of the usable squares (moves between distinct usable squares, wrapping on a torus: the
table :func:`knightcert.problems.moves.knight_neighbours`) leaves some pieces (connected
components). A tour, seen as a path or a cycle through every square, falls into at most
as many pieces as ``X`` cuts it into, and every piece of ``G - X`` holds at least one of
them; so too many pieces prove that no tour exists. This is the toughness argument; the
colour argument is the case ``X`` = the minority colour, the degree argument ``X`` = the
one neighbour of a square with one move, and a disconnected board ``X`` = nothing.

What the checker applies (``k = |X|``, ``m`` the pieces of ``G - X``, ``n`` the usable
squares; ``F`` the fixed ends the instance gives: its start and end)

Open tours (``n >= 2``):

(A) ``m <= k + 1 - |F ∩ X|``.
(B) every piece joined to ``X`` through at most one square of ``X`` holds an end of the
    tour; so at most ``2 - |F|`` such pieces hold no square of ``F``.

Closed tours (``n >= 3``):

(C) ``m <= 1`` when ``k = 0``; ``m <= k - 1`` when the instance fixes both the start and
    the end and both are in ``X``; ``m <= k`` otherwise.
(D) when ``k >= 2``, every piece is joined to ``X`` through at least two squares of ``X``.

A separator *proves* that no tour exists when it breaks (A) or (B), (C) or (D).

Proof. Let ``P = v_1 ... v_n`` be a tour (a Hamiltonian path of ``G``; for a closed tour
also ``v_n v_1`` is a move), ``v_1`` the start and ``v_n`` the end when the instance fixes
them. A *segment* is a maximal run of consecutive squares of ``P`` outside ``X``
(cyclically for a closed tour). Consecutive squares of a segment are a move apart and
outside ``X``, so each segment lies inside one piece, and as every square is on ``P``,
every piece holds at least one segment: ``m <= number of segments``.

(A) The ``k`` squares of ``X`` cut the path into ``k + 1`` runs of positions (before the
first, between consecutive ones, after the last). The run before the first is empty when
``v_1`` is in ``X``, the one after the last when ``v_n`` is; the segments are the
nonempty runs, so there are at most ``k + 1 - |{v_1, v_n} ∩ X|`` of them, and
``F ⊆ {v_1, v_n}``. (For ``k = 0`` there is one run: ``G`` is connected.)

(B) Let ``v_i ... v_j`` be a segment in a piece ``D`` that holds neither ``v_1`` nor
``v_n`` (so ``1 < i <= j < n``). By maximality ``v_(i-1)`` and ``v_(j+1)`` are in ``X``;
they are a move from ``v_i`` and ``v_j``, squares of ``D``, so both are among the squares
of ``X`` joined to ``D``, and they are two distinct squares (two positions of a path).
Hence a piece joined to ``X`` through at most one square holds ``v_1`` or ``v_n``. The two
ends are distinct squares (``n >= 2``) and pieces are disjoint, so besides the pieces
holding a fixed end at most ``2 - |F|`` such pieces exist.

(C) For ``k = 0`` the cycle is one segment. For ``1 <= k < n`` the squares of ``X`` cut the
cycle into ``k`` runs of positions, one between each square of ``X`` and the next along
the cycle; the run between two squares of ``X`` that follow each other on the cycle is
empty. When the instance fixes both ends, the closing move ``v_n v_1`` is a step of the
cycle, so with both in ``X`` one run is empty: at most ``k - 1`` segments. For ``k = n``
there is no piece. (A start alone, or an end alone, constrains nothing: a cycle can be
turned to start anywhere.)

(D) Let ``v_i ... v_j`` be a segment of a piece ``D`` (indices modulo ``n``); as ``k >= 1``
it is not the whole cycle, and ``v_(i-1)``, ``v_(j+1)`` are squares of ``X`` joined to
``D``. They are the same square only when the segment holds ``n - 1`` squares, that is
when ``k = 1``. So for ``k >= 2`` every piece is joined to two squares of ``X``.

The checker never trusts how a separator was found: it reads it strictly
(:func:`read_separator`), counts the pieces itself (:func:`separator_verdict`, a
breadth-first labelling over the move table in
:mod:`~knightcert.problems.checkers.tour_cuts`: ``O(8 n)`` time, 8 bytes a square besides
the table) and applies exactly (A)-(D). It also looks for separators of its own
(:func:`own_separator`): the board itself when it falls apart, a cut square (a square
whose removal disconnects its piece; Tarjan's depth-first search, one linear pass) for a
closed tour, and for an open tour a fixed end that is a cut square, or every cut square at
once (the pieces then left are the blocks of the board; more than two of them joined
through one cut square each, the leaves of its block tree, break (B)). The search for cut
squares is not trusted either: what it finds goes through the same verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from knightcert.problems.checkers.failure import CheckFailed
from knightcert.problems.checkers.fields import squares as read_squares
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.tours import TourInstance

__all__ = [
    "FIELD",
    "SeparatorVerdict",
    "own_separator",
    "read_separator",
    "separator_squares",
    "separator_verdict",
]

#: How a separator is named in messages about the answer.
FIELD = "certificate 'separator'"


@dataclass(frozen=True)
class SeparatorVerdict:
    """What a separator shows (module docstring, rules (A)-(D)).

    Attributes
    ----------
    removed : int
        ``k``, the squares removed.
    pieces : int
        ``m``, the pieces of the usable squares without them.
    most : int
        The most pieces a tour allows ((A) or (C)).
    lonely : int
        The pieces joined to the removed squares through at most one square that count
        against (B) (those without a fixed end) or (D) (all of them, when ``k >= 2``).
    lonely_most : int or None
        How many such pieces a tour allows: ``2 - |F|`` for an open tour, 0 for a closed one
        with ``k >= 2``, None where (D) says nothing (a closed tour with ``k <= 1``).
    how : str
        The verdict in words.
    """

    removed: int
    pieces: int
    most: int
    lonely: int
    lonely_most: int | None
    how: str

    @property
    def proves(self) -> bool:
        """True when no tour can exist: too many pieces, or too many joined through one square."""
        too_lonely = self.lonely_most is not None and self.lonely > self.lonely_most
        return self.pieces > self.most or too_lonely


def read_separator(board: Any, value: Any, claim: str = "infeasible") -> np.ndarray:
    """A separator from an answer, read strictly, as distinct flat indices of usable squares.

    Parameters
    ----------
    board : Board
    value : list of [row, col] pairs, or an integer array of shape (k, 2)
        An empty list (or empty array) is the empty separator.
    claim : str
        The claim a refusal names.

    Returns
    -------
    numpy.ndarray of int64, shape (k,)

    Raises
    ------
    CheckFailed
        An entry that is not a pair of finite integers, a square off the board or removed, a
        square given twice; the message names the entry.

    Examples
    --------
    >>> from knightcert.problems.board import Board
    >>> read_separator(Board(3, 4), [[0, 1], [2, 3]]).tolist()
    [1, 11]
    >>> read_separator(Board(3, 4), [[0, 1], [0, 1]])
    Traceback (most recent call last):
    ...
    knightcert.problems.checkers.failure.CheckFailed: certificate 'separator'[1]: (0, 1) is given twice
    """
    if isinstance(value, np.ndarray) and value.size == 0 and value.dtype.kind in "iu":
        return np.zeros(0, dtype=np.int64)
    if not isinstance(value, list | tuple | np.ndarray):
        raise CheckFailed(f"{FIELD}: expected a list of [row, col] squares", claim=claim)
    given = read_squares(value, FIELD, claim=claim)
    r, c = given[:, 0], given[:, 1]
    inside = (r >= 0) & (r < board.rows) & (c >= 0) & (c < board.cols)
    if not inside.all():
        i = int(np.flatnonzero(~inside)[0])
        raise CheckFailed(
            f"{FIELD}[{i}]: {tuple(given[i].tolist())} is off the {board.rows} x {board.cols} board",
            claim=claim,
        )
    flat = r * board.cols + c
    usable = board.free.reshape(-1)[flat]
    if not usable.all():
        i = int(np.flatnonzero(~usable)[0])
        raise CheckFailed(f"{FIELD}[{i}]: {tuple(given[i].tolist())} is a removed square", claim=claim)
    order = np.argsort(flat, kind="stable")
    twice = np.flatnonzero(flat[order][1:] == flat[order][:-1])
    if twice.size:
        i = int(order[1:][twice].min())  # the first entry that repeats an earlier one
        raise CheckFailed(f"{FIELD}[{i}]: {tuple(given[i].tolist())} is given twice", claim=claim)
    return flat.astype(np.int64)


def separator_squares(board: Any, removed: np.ndarray) -> np.ndarray:
    """Flat indices as the ``(k, 2)`` int64 array of ``[row, col]`` squares a certificate holds."""
    rows, cols = np.divmod(np.asarray(removed, dtype=np.int64), board.cols)
    return np.stack([rows, cols], axis=1)


def separator_verdict(
    instance: TourInstance, removed: np.ndarray, neighbours: np.ndarray | None = None
) -> SeparatorVerdict:
    """Count the pieces the usable squares fall into without ``removed``; apply (A)-(D).

    Parameters
    ----------
    instance : TourInstance
    removed : numpy.ndarray of int
        Distinct flat indices of usable squares (as :func:`read_separator` returns them).
    neighbours : numpy.ndarray, optional
        ``knight_neighbours(instance.board)``, when the caller has it.

    Returns
    -------
    SeparatorVerdict
        Its ``proves`` is True when no tour can exist; ``how`` says why, or why not.

    Examples
    --------
    >>> from knightcert.problems.board import Board
    >>> from knightcert.problems.tours import TourInstance
    >>> blocked = np.zeros((4, 10), dtype=bool)
    >>> blocked[:, 4:6] = True                   # two 4 x 4 boards, two columns apart ...
    >>> blocked[1, 4] = False                    # ... joined through the square (1, 4)
    >>> board = Board(4, 10, blocked)
    >>> verdict = separator_verdict(TourInstance(board, closed=True), np.array([board.index(1, 4)]))
    >>> verdict.proves, verdict.how
    (True, 'separator: removing 1 square leaves 2 pieces, a closed tour leaves at most 1')

    Notes
    -----
    O(8 n) time on the board's ``n`` squares: one breadth-first labelling, then the squares
    of ``X`` joined to each piece from the move table rows of ``X``.
    """
    board = instance.board
    n = board.n_free
    removed = np.asarray(removed, dtype=np.int64)
    k = int(removed.size)
    if n < (3 if instance.closed else 2):
        return SeparatorVerdict(k, 0, 0, 0, None, f"a board of {n} usable squares: no separator argument")
    from knightcert.problems.checkers.tour_cuts import label_pieces  # numba: only a "No" needs it

    nb = knight_neighbours(board) if neighbours is None else neighbours
    keep = board.free.reshape(-1).copy()
    keep[removed] = False
    label = np.full(board.size, -1, dtype=np.int32)
    m = int(label_pieces(nb, keep, label))
    # the distinct squares of X joined to each piece: each row of X's moves, labels deduplicated
    rows = np.sort(np.where(nb[removed] >= 0, label[np.maximum(nb[removed], 0)], -1), axis=1)
    first = np.ones(rows.shape, dtype=bool)
    first[:, 1:] = rows[:, 1:] != rows[:, :-1]
    joined = np.bincount(rows[first & (rows >= 0)], minlength=m)
    lonely_pieces = np.flatnonzero(joined <= 1)
    fixed = {board.index(*sq) for sq in (instance.start, instance.end) if sq is not None}
    fixed_removed = len(fixed & set(removed.tolist()))
    if instance.closed:
        both_out = len(fixed) == 2 and fixed_removed == 2
        most = 1 if k == 0 else k - int(both_out)
        lonely, lonely_most = int(lonely_pieces.size), (0 if k >= 2 else None)
    else:
        most = k + 1 - fixed_removed
        holding = {int(label[f]) for f in fixed if label[f] >= 0}
        lonely = sum(1 for p in lonely_pieces.tolist() if p not in holding)
        lonely_most = 2 - len(fixed)
    how = _describe(instance, k, m, most, lonely, lonely_most, fixed_removed)
    return SeparatorVerdict(k, m, most, lonely, lonely_most, how)


def _describe(
    instance: TourInstance, k: int, m: int, most: int, lonely: int, lonely_most: int | None, fixed: int
) -> str:
    """The verdict in words (``fixed``: how many fixed ends are among the squares removed)."""
    tour = "a closed tour" if instance.closed else "a tour"
    squares = f"{k} square{'s' * (k != 1)}"
    if m > most:
        if k == 0:
            return f"separator: the usable squares fall into {m} pieces, {tour} needs them in one"
        why = ""
        if fixed and instance.closed:
            why = " (its fixed start and end, a move of the tour, among them)"
        elif fixed:
            why = f" ({'both its fixed ends' if fixed == 2 else 'a fixed end'} among them)"
        return f"separator: removing {squares}{why} leaves {m} pieces, {tour} leaves at most {most}"
    if lonely_most is not None and lonely > lonely_most:
        pieces = f"{lonely} piece{'s' * (lonely != 1)}"
        if instance.closed:
            return (
                f"separator: removing {squares} leaves {pieces} joined to them through a single square, "
                "which a closed tour cannot enter and leave"
            )
        other = "" if lonely_most == 2 else " other than its fixed ones"
        return (
            f"separator: removing {squares} leaves {pieces} joined to them through at most one square "
            f"each; each holds an end of the tour{other}, and {lonely_most} "
            f"{'is' if lonely_most == 1 else 'are'} left"
        )
    return f"removing {squares} leaves {m} piece{'s' * (m != 1)}, which {tour} allows (at most {most})"


def own_separator(
    instance: TourInstance, neighbours: np.ndarray | None = None
) -> tuple[np.ndarray, SeparatorVerdict] | None:
    """The checker's own cheap separators; the first that proves no tour exists, or None.

    Tried in order, each through :func:`separator_verdict`: nothing (a board in several
    pieces); for a closed tour a cut square; for an open tour each fixed end that is a cut
    square, then every cut square at once.

    Examples
    --------
    >>> from knightcert.problems.board import Board
    >>> from knightcert.problems.tours import TourInstance
    >>> blocked = np.zeros((4, 10), dtype=bool)
    >>> blocked[:, 4:6] = True                   # two 4 x 4 boards, two columns apart
    >>> found = own_separator(TourInstance(Board(4, 10, blocked)))
    >>> found[0].tolist(), found[1].how
    ([], 'separator: the usable squares fall into 2 pieces, a tour needs them in one')
    >>> blocked[1, 4] = False                    # joined through (1, 4): a closed tour
    >>> found = own_separator(TourInstance(Board(4, 10, blocked), closed=True))
    >>> found[0].tolist()
    [14]

    Notes
    -----
    O(8 n): one depth-first search for the cut squares, at most three verdicts.
    """
    board = instance.board
    if board.n_free < (3 if instance.closed else 2):
        return None
    from knightcert.problems.checkers.tour_cuts import cut_pieces

    nb = knight_neighbours(board) if neighbours is None else neighbours
    usable = board.free.reshape(-1)
    pieces, _, count = cut_pieces(nb, usable)
    cuts = np.flatnonzero(pieces >= 2).astype(np.int64)
    candidates = [np.zeros(0, dtype=np.int64)] if count >= 2 else []
    if instance.closed:
        candidates += [cuts[:1]] if cuts.size else []
    else:
        fixed = [board.index(*sq) for sq in (instance.start, instance.end) if sq is not None]
        candidates += [np.array([f], dtype=np.int64) for f in fixed if pieces[f] >= 2]
        candidates += [cuts] if cuts.size else []
    for removed in candidates:
        verdict = separator_verdict(instance, removed, nb)
        if verdict.proves:
            return removed, verdict
    return None
