"""Compiled maximum matching on a knight graph (push-relabel, then Hopcroft-Karp), and its
Koenig independent set.

Used by the ``matching`` method (``knightcert.algorithms.knights_matching``) and by the
independent-knights checker, which derives its own matching with it. Sharing the code
costs the checker no independence: any set of disjoint knight moves bounds the optimum
(Kőnig), and the checker validates every move of the matching it uses, so a fault here
can only make a claim go uncertified, never certify a wrong one.

Squares keep their board index: ``match[s]`` is the square matched to ``s``
(or -1) for squares of both colours, and ``nb`` is the padded neighbour table
of :func:`knightcert.problems.moves.knight_neighbours`. ``left`` lists the
usable squares of one colour; every knight move joins the two colours.

Why not a library: ``scipy.sparse.csgraph.maximum_bipartite_matching`` takes
exponential time on layered graphs (scipy issue #26147: its depth-first phase
never marks dead ends), and the polynomial alternatives measured on knight
boards (scipy's Dinic ``maximum_flow``, python-igraph, OR-Tools' push-relabel
``SimpleMaxFlow``) are 3-50x slower than the targets; see docs/benchmarks-archive.md.
A bug in :func:`push_relabel` cannot make the result wrong either: it only
moves a valid matching along edges, and Hopcroft-Karp finishes whatever it
leaves and proves the matching maximum.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np

from knightcert.problems.compiled import kernel_or_numba

__all__ = ["MatchingRun", "block_matching"]


#: The kernels :class:`MatchingRun` calls (in :mod:`knightcert.problems.knight_matching_kernels`).
KERNEL_NAMES = ("greedy_matching", "hopcroft_karp_phase", "push_relabel", "koenig_independent")


@cache
def kernels() -> dict[str, Any]:
    """The matching kernels compiled ahead of time, else numba's (compiled or loaded on first use)."""
    return {name: kernel_or_numba(name, f"{__package__}.knight_matching_kernels") for name in KERNEL_NAMES}


#: A perfect knight matching of a 2 x 4 block: (row, col) pairs inside the block.
_BLOCK_PAIRS = (((0, 0), (1, 2)), ((0, 1), (1, 3)), ((0, 2), (1, 0)), ((0, 3), (1, 1)))


def block_matching(board, match: np.ndarray) -> None:
    """Start from the perfect matching of 2 x 4 blocks (pairs whose two squares are usable).

    A full board whose sides are multiples of 2 and 4 is then matched at once;
    elsewhere the greedy step and Hopcroft-Karp only repair the edges and holes.
    """
    free = board.free
    top = np.arange(0, board.rows - 1, 2)[:, None]
    first = np.arange(0, board.cols - 3, 4)[None, :]
    for (ra, ca), (rb, cb) in _BLOCK_PAIRS:
        a_r, a_c = np.broadcast_arrays(top + ra, first + ca)
        b_r, b_c = np.broadcast_arrays(top + rb, first + cb)
        usable = free[a_r, a_c] & free[b_r, b_c]
        a = (a_r * board.cols + a_c)[usable]
        b = (b_r * board.cols + b_c)[usable]
        match[a] = b
        match[b] = a


class MatchingRun:
    """A maximum matching of the knight graph of a bipartite board, phase by phase.

    Parameters
    ----------
    board : Board
        Plain board or torus with both sides even (bipartite by colour).
    nb : numpy.ndarray
        Its padded neighbour table (:func:`knightcert.problems.moves.knight_neighbours`).

    Notes
    -----
    Call :meth:`phase` until it returns 0. From the 2 x 4-block and greedy
    start, push-relabel (:func:`push_relabel`) moves the remaining excess
    across the board in chunks of ``len(left)`` pushes, at most
    ``8 L (sqrt(L) + 1)`` pushes in all (L left squares); Hopcroft-Karp phases
    then finish the matching and, with a phase that finds no augmenting path,
    prove it maximum (whatever push-relabel left). Each push is O(1) (at most 8
    neighbours), each global relabelling and each Hopcroft-Karp phase O(E)
    (dead ends marked), and Hopcroft-Karp from any matching needs O(sqrt(V))
    phases: O(E sqrt(V)) in all. On boards with holes push-relabel does
    nearly all the work: Hopcroft-Karp alone spent hundreds of phases there
    that augmented one or two long paths each (docs/benchmarks-archive.md).
    ``match``, ``left``, ``right`` and ``dist`` are then the matching and the
    last layered search, from which :meth:`independent` reads a maximum independent set.
    """

    def __init__(self, board, nb: np.ndarray) -> None:
        n = board.size
        self.nb = nb
        colour = (np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2).reshape(-1)
        free = board.free.reshape(-1)
        self.left = np.flatnonzero(free & (colour == 0))
        self.right = np.flatnonzero(free & (colour == 1))
        self.match = np.full(n, -1, dtype=np.int64)
        self.dist = np.empty(n, dtype=np.int64)
        self._queue = np.empty(max(self.left.size, 1), dtype=np.int64)
        self._stack = np.empty(max(self.left.size, 1), dtype=np.int64)
        self._cursor = np.zeros(n, dtype=np.int64)
        block_matching(board, self.match)
        self._kernels = kernels()
        self._kernels["greedy_matching"](nb, self.left, self.match)
        self.phases = 0  # Hopcroft-Karp phases
        self.size = int(np.count_nonzero(self.match[self.left] >= 0))
        self.pushes = 0
        # push-relabel first, within O(E sqrt(V)) pushes in all, a chunk per step
        self._push_budget = 8 * self.left.size * (math.isqrt(self.left.size) + 1)
        self._degree = (nb >= 0).sum(axis=1).astype(np.int64)
        self._label = np.empty(n, dtype=np.int64)
        self._active = np.empty(self.left.size + 1, dtype=np.int64)
        self._relabel_queue = np.empty(max(n, 1), dtype=np.int64)

    def phase(self) -> int:
        """One step: a chunk of push-relabel while it lasts, then one Hopcroft-Karp phase.

        Returns the number of augmentations the step made, at least 1 while
        push-relabel goes on; 0 only from a Hopcroft-Karp phase that found no
        augmenting path: the matching is maximum, and ``dist`` holds that
        phase's layered search.
        """
        if self._push_budget > 0:
            before = self.size
            self._push_step()
            return max(1, self.size - before)
        gained = self._kernels["hopcroft_karp_phase"](
            self.nb, self.left, self.match, self.dist, self._queue, self._stack, self._cursor
        )
        self.phases += 1
        self.size += gained
        return gained

    def _push_step(self) -> None:
        """A chunk of push-relabel: at most ``len(left)`` pushes (one global relabelling's worth)."""
        chunk = min(max(self.left.size, 1), self._push_budget - self.pushes)
        finished, pushes = self._kernels["push_relabel"](
            self.nb,
            self._degree,
            self.left,
            self.right,
            self.match,
            self._label,
            self._active,
            self._relabel_queue,
            np.int64(2 * self.nb.shape[0] + 2),
            np.int64(chunk),
        )
        self.pushes += int(pushes)
        self.size = int(np.count_nonzero(self.match[self.left] >= 0))
        if finished or self.pushes >= self._push_budget:
            self._push_budget = 0  # over: Hopcroft-Karp finishes and proves the matching

    def pairs(self) -> np.ndarray:
        """The matched moves as flat indices, shape (k, 2), left square first."""
        matched = self.left[self.match[self.left] >= 0]
        return np.stack([matched, self.match[matched]], axis=1)

    def independent(self) -> np.ndarray:
        """Kőnig's maximum independent set (bool over the squares), once :meth:`phase` returned 0."""
        chosen = self._kernels["koenig_independent"](self.nb, self.left, self.right, self.match, self.dist)
        return chosen.astype(bool)  # type: ignore[no-any-return]
