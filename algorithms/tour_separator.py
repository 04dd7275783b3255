"""Separators that prove no knight's tour exists: the producer (untrusted).

A method that answers "no tour" attaches, when it finds one, a set of squares whose removal
leaves more pieces than a tour allows, as ``certificate["separator"]``: the checker then
certifies the claim in linear time on any board
(:mod:`knightcert.problems.checkers.tour_separator` states and proves the rules it applies).
Nothing here is trusted: a candidate is kept only when the checker's own verdict
(:func:`~knightcert.problems.checkers.tour_separator.separator_verdict`) says that it proves
no tour exists.

Candidates, cheapest first (``S`` a *cut*, the pieces of the board without it its *regions*):

1. the checker's own: nothing (a board in pieces), a cut square, every cut square at once
   (:func:`~knightcert.problems.checkers.tour_separator.own_separator`);
2. each cut square ``u``, ``S = {u}``, with its regions' colours;
3. pairs ``S = {u, v}``: ``v`` a cut square of the board without ``u``, for squares ``u``
   taken fewest moves first (squares by holes and edges, where small cuts are), found by one
   depth-first search (Tarjan) of the board without ``u`` each.

For each cut ``S`` the candidates are ``S`` itself and, on boards where a move changes the
colour of its square (plain boards, tori with even sides), the colour argument taken inside
a region: for ``W`` a region with some squares of ``S`` added, ``X = (S - W) + (the squares
of W of its smaller colour)``. The squares of ``W`` of the larger colour then touch only
removed squares, so each is a piece of its own: a region (with its gate) holding two more
squares of one colour than of the other is cut off in more pieces than a tour allows. Also
``S`` with the smaller colour of every region that has two or more squares of one colour in
excess.

Only candidates that may leave more pieces than a tour allows are checked (the larger colour
of ``W`` and the other regions bound the pieces). Work is bounded: at most ``WORK`` visits of a
move-table entry after the checker's own candidates (a depth-first search or a verdict reads
the whole table once, 8 entries a square; at least two passes), so on large boards only the
first candidates are tried: about 780 passes on a 40 x 40 board (0.1 s), two on a board of a
million squares. The bound is on work, not on time, so the answer does not depend on the
machine's speed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from itertools import combinations

import numpy as np

from knightcert.problems.checkers.tour import argument_against
from knightcert.problems.checkers.tour_separator import own_separator, separator_squares, separator_verdict
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance

__all__ = ["PAIRS_PER_SQUARE", "WORK", "find_separator", "with_separator"]

#: Most move-table entries the search reads in all (a few tenths of a second).
WORK = 10_000_000
#: Cut squares ``v`` of the board without ``u`` tried with each ``u``.
PAIRS_PER_SQUARE = 4


class _Budget:
    """Passes over the move table left (each reads ``size * 8`` entries)."""

    def __init__(self, work: int, per_pass: int) -> None:
        self.left = max(work // max(per_pass, 1), 2)

    def take(self) -> bool:
        """Spend one pass; False when none is left."""
        if self.left <= 0:
            return False
        self.left -= 1
        return True


def find_separator(instance: TourInstance, work: int = WORK) -> np.ndarray | None:
    """A separator that proves no tour of ``instance`` exists, or None (module docstring).

    Parameters
    ----------
    instance : TourInstance
    work : int
        The most move-table entries read after the checker's own candidates (``WORK``);
        0 tries only those (one linear pass).

    Returns
    -------
    numpy.ndarray of int64, shape (k, 2), or None
        The squares to remove, as ``certificate["separator"]`` holds them; None when the
        checker's counting, colour, degree or theorem arguments already decide (it needs no
        separator), or when none was found within ``work``.

    Examples
    --------
    >>> from knightcert.problems.board import Board
    >>> blocked = np.zeros((8, 18), dtype=bool)
    >>> blocked[:, 8:10] = True          # two 8 x 8 boards, two columns apart ...
    >>> blocked[3, 8] = False            # ... joined through (3, 8)
    >>> blocked[0, 0] = blocked[0, 11] = True   # a square of each colour less
    >>> find_separator(TourInstance(Board(8, 18, blocked))).shape
    (31, 2)
    """
    from knightcert.problems.checkers.tour_cuts import cut_pieces  # numba: only a "No" needs it

    board = instance.board
    if board.n_free < (3 if instance.closed else 2) or argument_against(instance) is not None:
        return None
    nb = knight_neighbours(board)
    own = own_separator(instance, nb)
    if own is not None:
        return separator_squares(board, own[0])
    if work <= 0:
        return None
    budget = _Budget(work, board.size * nb.shape[1])
    usable = board.free.reshape(-1)
    colours_hold = not board.torus or (board.rows % 2 == 0 and board.cols % 2 == 0)
    colour: np.ndarray | None = None
    if colours_hold:
        colour = (np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2).reshape(-1).astype(np.int8)
    if not budget.take():
        return None
    pieces, _, _ = cut_pieces(nb, usable)
    for u in np.flatnonzero(pieces >= 2).tolist():
        found = _around(instance, nb, [u], colour, budget)
        if found is not None or budget.left <= 0:
            return None if found is None else separator_squares(board, found)
    degree = (nb >= 0).sum(axis=1)
    others = np.flatnonzero(usable & (pieces < 2))
    tried: set[int] = set()
    for u in others[np.argsort(degree[others], kind="stable")].tolist():
        if not budget.take():
            return None
        tried.add(u)
        keep = usable.copy()
        keep[u] = False
        pieces_u, _, _ = cut_pieces(nb, keep)
        partners = [v for v in np.flatnonzero(pieces_u >= 2).tolist() if v not in tried]
        for v in partners[:PAIRS_PER_SQUARE]:
            found = _around(instance, nb, [u, v], colour, budget)
            if found is not None:
                return separator_squares(board, found)
            if budget.left <= 0:
                return None
    return None


def _around(
    instance: TourInstance, nb: np.ndarray, cut: list[int], colour: np.ndarray | None, budget: _Budget
) -> np.ndarray | None:
    """The first candidate built on the cut ``S = cut`` that proves no tour exists, or None."""
    from knightcert.problems.checkers.tour_cuts import label_pieces

    board = instance.board
    keep = board.free.reshape(-1).copy()
    keep[cut] = False
    label = np.full(board.size, -1, dtype=np.int32)
    if not budget.take():
        return None
    regions = int(label_pieces(nb, keep, label))
    # the fewest pieces the rules of the verdict allow k removed squares (both fixed ends among them)
    ends = sum(sq is not None for sq in (instance.start, instance.end))
    fewest = (lambda k: k - (ends == 2)) if instance.closed else (lambda k: k + 1 - ends)
    for removed in _candidates(np.asarray(cut, dtype=np.int64), label, regions, colour, fewest):
        if not budget.take():
            return None
        if separator_verdict(instance, removed, nb).proves:
            return removed
    return None


def _candidates(
    cut: np.ndarray, label: np.ndarray, regions: int, colour: np.ndarray | None, fewest: Callable[[int], int]
) -> Iterator[np.ndarray]:
    """``S``, then the colour candidates of the module docstring, most promising first: only
    those that may leave more pieces (at most the larger colour of ``W`` and the other
    regions) than ``fewest(k)``, the fewest a tour allows for ``k`` squares removed."""
    yield cut
    if colour is None or regions == 0:
        return
    inside = label >= 0
    counts = np.zeros((regions, 2), dtype=np.int64)
    np.add.at(counts, (label[inside], colour[inside]), 1)
    excess = np.abs(counts[:, 0] - counts[:, 1])
    unbalanced = np.flatnonzero(excess >= 2)
    if unbalanced.size:
        smaller = np.argmin(counts, axis=1)
        chosen = np.zeros(regions, dtype=bool)
        chosen[unbalanced] = True
        pick = inside & chosen[np.maximum(label, 0)] & (colour == smaller[np.maximum(label, 0)])
        yield np.union1d(cut, np.flatnonzero(pick))
    cut_colours = colour[cut]
    options = []
    for region in np.argsort(-excess, kind="stable").tolist():
        for size in range(len(cut) + 1):
            for added in combinations(range(len(cut)), size):
                gate = cut[list(added)]
                have = counts[region] + np.bincount(cut_colours[list(added)], minlength=2)
                for small in (0, 1):
                    if have[small] > have[1 - small]:
                        continue
                    rest = np.setdiff1d(cut, gate)
                    if have[1 - small] + regions - 1 <= fewest(int(rest.size + have[small])):
                        continue
                    options.append((have[small] - have[1 - small], region, gate, rest, small))
    options.sort(key=lambda option: option[0])
    for _, region, gate, rest, small in options:
        squares = np.flatnonzero((label == region) & (colour == small))
        yield np.union1d(rest, np.concatenate([squares, gate[colour[gate] == small]]))


def with_separator(instance: TourInstance, result: Result) -> Result:
    """``result`` with a separator attached when it says no tour exists and one is found.

    The search's seconds are recorded as ``info["separator_s"]`` (within the method's time,
    which the run path measures); any other answer is returned as it is.
    """
    if result.status is not Status.INFEASIBLE:
        return result
    began = time.perf_counter()
    found = find_separator(instance)
    info = {**result.info, "separator_s": round(time.perf_counter() - began, 6)}
    if found is None:
        return result.with_(info=info)
    certificate = dict(result.certificate) if isinstance(result.certificate, dict) else {}
    return result.with_(certificate={**certificate, "separator": found}, info=info)
