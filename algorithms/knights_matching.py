"""Maximum independent knights from a maximum bipartite matching (exact, Kőnig's theorem).

``matching`` is exact on bipartite boards: every plain board, and tori with
even sides.
"""

from __future__ import annotations

import numpy as np

from knightcert.problems.deadline import Deadline
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.result import Result, Status

__all__ = ["matching"]


def _squares(board, mask: np.ndarray) -> np.ndarray:
    """The ``[row, col]`` of every square of ``mask``, as an (k, 2) int64 array: the checker,
    the output and answer files take it as it is (as a list of lists, half a million knights
    cost 1.1 s to build and 3 s more to check)."""
    return np.stack(np.divmod(np.flatnonzero(mask), board.cols), axis=1).astype(np.int64)


@method("knights", "matching")
def matching(
    instance: KnightsInstance, *, time_limit: float | None = None, seed: int | None = None
) -> Result:
    """Maximum independent knights from a maximum matching (exact on bipartite boards).

    A knight move joins squares of opposite colours on a plain board (and on
    a torus with even sides), so the knight graph is bipartite and, by
    Koenig's theorem, its largest independent set has ``usable squares -
    maximum matching`` squares. The set is read off the matching with
    alternating paths (the complement of a minimum vertex cover).

    Parameters
    ----------
    time_limit : float, optional
        Seconds for the whole call, checked between steps of the matching (a chunk of
        push-relabel or a Hopcroft-Karp phase, each O(E)).

    Returns
    -------
    Result
        ``OPTIMAL`` with the placement and the matching as certificate;
        ``UNKNOWN`` (reason in ``record.stopped``) when ``time_limit`` runs out first.

    Raises
    ------
    InvalidInstance
        A torus with an odd side (its knight graph is not bipartite).

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> result = matching(knights_instance(8))
    >>> result.objective, result.bound, len(result.certificate["matching"])
    (32, 32, 32)

    Notes
    -----
    A full board that 2 x 4 or 4 x 2 blocks tile has a perfect matching inside the blocks:
    maximum without any search, taken as it is (O(n), no neighbour table). Otherwise
    push-relabel from a 2 x 4-block and greedy start, finished and proven
    maximum by Hopcroft-Karp with dead-end marking
    (``knightcert.problems.knight_matching``): O(E sqrt(V)) worst case, E <= 4V. It replaces
    ``scipy.sparse.csgraph.maximum_bipartite_matching``, exponential on
    layered graphs (scipy issue #26147; 946 s on a 200 x 200 board with holes).
    """
    board = instance.board
    if board.torus and (board.rows % 2 or board.cols % 2):
        raise InvalidInstance(
            f"matching needs a bipartite knight graph; a {board.rows} x {board.cols} torus with an odd "
            "side is not bipartite (use cpsat)"
        )
    clock = Deadline(time_limit)
    tiled = _tiled_matching(board)
    if tiled is not None and clock.expired():
        stopped = clock.stopped("the matching")
        return Result.empty(
            "knights", "matching", clock.elapsed(), info={"matching_size": 0}, stopped=stopped
        )
    if tiled is not None:  # perfect: maximum with no search, and Kőnig's set is one colour class
        colour = (np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2).reshape(-1)
        info = {"matching_size": len(tiled), "tiled": True}
        return _matching_result(board, colour == 1, tiled, clock, info)
    if board.size <= PLAIN_MATCHING_SQUARES:  # loading the compiled kernels costs more than the search
        pairs, independent = _plain_matching(board)
        info = {"matching_size": len(pairs), "plain": True}
        return _matching_result(board, independent, pairs, clock, info)
    from knightcert.problems.knight_matching import MatchingRun

    run = MatchingRun(board, knight_neighbours(board))
    while True:
        if clock.expired():
            info, stopped = {"matching_size": run.size}, clock.stopped("the matching")
            return Result.empty("knights", "matching", clock.elapsed(), info=info, stopped=stopped)
        if run.phase() == 0:
            break
    independent = run.independent()
    info = {"matching_size": run.size, "phases": run.phases, "pushes": run.pushes}
    return _matching_result(board, independent, run.pairs(), clock, info)


def _matching_result(
    board, independent: np.ndarray, pairs: np.ndarray, clock: Deadline, info: dict
) -> Result:
    """The ``matching`` method's answer: the Kőnig independent set, optimal, with its matching
    (pairs of flat square indices) as the certificate."""
    count = int(independent.sum())
    return Result.answer(
        "knights",
        "matching",
        status=Status.OPTIMAL,
        objective=count,
        bound=count,
        solution=_squares(board, independent),
        time=clock.elapsed(),
        certificate={"matching": _square_pairs(board, pairs)},
        info=info,
    )


def _tiled_matching(board) -> np.ndarray | None:
    """The perfect matching of a full board that 2 x 4 (or 4 x 2) blocks tile, or None.

    Each block's eight squares pair up by four knight moves, inside the block (no wrap, so
    on a torus too). A matching that covers every square is maximum (no matching has more
    pairs than half the squares), so nothing is left to search or prove; the independent
    set of Kőnig's construction is then the colour class the matching's left side is not.
    Returns the (k, 2) pairs of flat indices, square of colour 0 first.
    """
    if board.blocked.any() or board.size == 0:
        return None
    if board.rows % 2 == 0 and board.cols % 4 == 0:
        rows, cols, swap = board.rows, board.cols, False
    elif board.rows % 4 == 0 and board.cols % 2 == 0:
        rows, cols, swap = board.cols, board.rows, True  # tile the transposed board
    else:
        return None
    top = np.arange(0, rows, 2)[:, None]
    first = np.arange(0, cols, 4)[None, :]
    pairs = []
    for (ra, ca), (rb, cb) in (((0, 0), (1, 2)), ((0, 1), (1, 3)), ((0, 2), (1, 0)), ((0, 3), (1, 1))):
        a_r, a_c = (top + ra + 0 * first).ravel(), (first + ca + 0 * top).ravel()
        b_r, b_c = (top + rb + 0 * first).ravel(), (first + cb + 0 * top).ravel()
        if swap:
            a_r, a_c, b_r, b_c = a_c, a_r, b_c, b_r
        a, b = a_r * board.cols + a_c, b_r * board.cols + b_c
        white = (a_r + a_c) % 2 == 0
        pairs.append(np.stack((np.where(white, a, b), np.where(white, b, a)), axis=1))
    return np.concatenate(pairs).astype(np.int64)


#: Boards up to this many squares are matched in plain Python (no compiled kernel to load).
PLAIN_MATCHING_SQUARES = 1024


def _plain_matching(board) -> tuple[np.ndarray, np.ndarray]:
    """Hopcroft-Karp in plain Python for small boards: the (k, 2) pairs of flat indices (white
    square first) and Koenig's independent set as a boolean mask over the squares."""
    neighbours = knight_neighbours(board)
    free = board.free.reshape(-1)
    colour = (np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2).reshape(-1)
    left = [int(u) for u in np.flatnonzero(free & (colour == 0))]
    adjacent = {u: [int(v) for v in neighbours[u] if v >= 0] for u in left}
    mate: dict[int, int] = {}
    while (layer := _layers(left, adjacent, mate)) is not None:
        for root in [u for u in left if u not in mate]:
            _augment_from(root, adjacent, mate, layer)
    pairs = np.array([[u, mate[u]] for u in left if u in mate], dtype=np.int64).reshape(-1, 2)
    return pairs, _koenig_set(left, adjacent, mate, free & (colour == 1))


def _layers(left: list[int], adjacent: dict[int, list[int]], mate: dict[int, int]) -> dict[int, int] | None:
    """Breadth-first layers of left squares from the unmatched ones along alternating paths;
    None when no augmenting path is left (the matching is maximum)."""
    layer = {u: 0 for u in left if u not in mate}
    queue, found = list(layer), False
    for u in queue:
        for v in adjacent[u]:
            w = mate.get(v)
            if w is None:
                found = True
            elif w not in layer:
                layer[w] = layer[u] + 1
                queue.append(w)
    return layer if found else None


def _augment_from(
    root: int, adjacent: dict[int, list[int]], mate: dict[int, int], layer: dict[int, int]
) -> None:
    """One augmenting path from ``root`` along the layers, depth first and iteratively, if any;
    squares found to be dead ends leave ``layer`` for the rest of the phase."""
    stack = [(root, iter(adjacent[root]))]
    v: int | None  # a right square; None when a square's choices run out
    while stack:
        u, choices = stack[-1]
        v = next(choices, None)
        if v is None:
            layer.pop(u, None)  # a dead end in this phase
            stack.pop()
            continue
        w = mate.get(v)
        if w is None:
            for x, _ in reversed(stack):  # augment along the stack
                mate[v], mate[x], v = x, v, mate.get(x, -1)
            return
        if layer.get(w) == layer.get(u, -2) + 1:
            stack.append((w, iter(adjacent[w])))


def _koenig_set(
    left: list[int], adjacent: dict[int, list[int]], mate: dict[int, int], right: np.ndarray
) -> np.ndarray:
    """Koenig's independent set: the left squares reached by alternating paths from unmatched
    left squares, plus the ``right`` squares none of them attacks."""
    reached = {u for u in left if u not in mate}
    queue = list(reached)
    for u in queue:
        for v in adjacent[u]:
            w = mate.get(v)
            if w is not None and w not in reached:
                reached.add(w)
                queue.append(w)
    independent = right.copy()
    for u in reached:
        independent[adjacent[u]] = False
    independent[list(reached)] = True
    return independent


def _square_pairs(board, pairs: np.ndarray) -> np.ndarray:
    """``[[[r, c], [r2, c2]], ...]`` of pairs of flat indices, as an (k, 2, 2) int64 array: the
    checker and answer files take it as it is (a list of half a million pairs costs 0.6 s)."""
    rows, cols = np.divmod(pairs, board.cols)
    return np.stack([rows, cols], axis=2).astype(np.int64)
