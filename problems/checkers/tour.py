"""Certificates for knight's tours.

A tour is checked directly: every usable square exactly once, each step a
knight move, the closing move for a closed tour, the given start and end.

Non-existence (``INFEASIBLE``) is certified only by arguments the checker
verifies itself:

* counting: a closed tour needs 3 squares;
* colours: a knight move changes the colour of its square, so a closed tour
  needs as many squares of each colour, an open one a difference of at most
  one, and fixed ends must have the colours that parity forces (on a torus
  only when both sides are even: with an odd side a wrapping move keeps the
  colour);
* degrees: a square with no move, a square with one move on a closed tour,
  more squares with one move than free ends on an open one (moves counted
  without repeats, so these hold on tori too);
* theorems on full plain boards: Schwenk (1991) for closed tours (with or
  without a start: a cycle can start anywhere), Conrad et al. (1994) for open
  tours without fixed ends, and for fixed ends the colour and outer-rows
  arguments of :func:`knightcert.problems.tours.full_board_reason`; never on
  a torus or a board with holes;
* forced moves (closed tours, and open tours with both ends fixed): a tour
  takes both moves of a square that has exactly two (not an end of an open
  tour), and on a closed tour with both ends fixed the closing move; these
  *forced* moves are moves of the tour, so no square may have more than two
  of them (one at an end of an open tour), and they may close no cycle (a
  cycle of tour moves is the whole closed tour; a path has none);
* a *separator* (``knightcert.problems.checkers.tour_separator``): squares whose
  removal leaves more pieces than a tour allows, on any board, checked in linear
  time; the answer's own (``certificate["separator"]``, read strictly: a malformed
  entry refuses the claim, one that proves nothing is left aside), else one the
  checker finds itself (a board in pieces, cut squares);
* the checker's own exhaustive search (``knightcert.problems.checkers.tour_search``)
  on boards of at most ``EXHAUSTIVE_SQUARES`` usable squares, within
  ``EXHAUSTIVE_NODES`` nodes.

A claim the checker cannot decide (board too large, search budget spent) is
reported as resting on the method's own search, never as certified; a claim
the search refutes (it found a tour) is rejected.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from knightcert.problems.checkers.common import (
    CheckFailed,
    as_squares,
    certificate_of,
    certified,
    check_knight_path,
    knight_steps,
    on_usable,
    solver_evidence,
    usable_squares,
)
from knightcert.problems.checkers.sides import (
    forbidden_moves_fault,
    required_moves_fault,
    visits_argument,
    visits_fault,
)
from knightcert.problems.checkers.tour_separator import (
    own_separator,
    read_separator,
    separator_squares,
    separator_verdict,
)
from knightcert.problems.moves import is_knight_move, knight_neighbours
from knightcert.problems.result import Backing, Evidence, Result, Status
from knightcert.problems.side_constraints import sides_of
from knightcert.problems.stopping import run_stoppable
from knightcert.problems.tours import (
    TourInstance,
    closed_tour_exists,
    colour_count_reason,
    open_tour_exists,
    open_tour_reason,
    outer_rows_reason,
)

__all__ = [
    "EXHAUSTIVE_NODES",
    "EXHAUSTIVE_SQUARES",
    "argument_against",
    "certify_tour",
    "check_tour_moves",
    "count_tours_searched",
    "nonexistence_evidence",
    "nonexistence_reason",
    "partial_tour_length",
    "search_tour",
]

#: Usable squares up to which the checker searches all tours itself.
EXHAUSTIVE_SQUARES = 256
#: Node budget of that search.
EXHAUSTIVE_NODES = 5_000_000


def certify_tour(instance: TourInstance, result: Result) -> tuple[list[Evidence], dict | None]:
    """Check a tour, or a claim that none exists; return the evidence of each claim.

    Raises
    ------
    CheckFailed
        Naming the claim rejected and why.
    """
    n = instance.board.n_free
    if result.bound is not None and result.bound != n:
        raise CheckFailed(f"bound {result.bound}: a tour has {n} squares, the only possible bound", "bound")
    if result.status is Status.INFEASIBLE:
        separator = certificate_of(result, "infeasible").get("separator")
        attached = None if separator is None else read_separator(instance.board, separator)
        backing, removed = _nonexistence(instance, result.method, attached)
        checked = None if removed is None else {"separator": separator_squares(instance.board, removed)}
        return [backing], checked
    trivial = [certified("bound", "a tour has every usable square")]
    if result.status is Status.UNKNOWN and result.solution is None:  # at most the trivial bound
        return trivial, None
    check_tour_moves(instance, result.solution)
    if result.objective != len(result.solution):
        raise CheckFailed(f"objective {result.objective} but the tour has {len(result.solution)} squares")
    check_sides(instance, result.solution)
    evidence = [certified("answer", "tour replayed")]
    evidence += trivial if result.bound is not None and result.status is Status.FEASIBLE else []
    if result.status is Status.OPTIMAL:
        evidence.append(certified("optimal", "every usable square visited"))
    return evidence, None


def check_sides(instance: TourInstance, tour: Any) -> None:
    """CheckFailed naming the first side constraint (:data:`SIDE_CHECKS`) a replayed tour breaks."""
    if instance.visits or instance.forbidden_moves or instance.required_moves:
        squares = as_squares(tour)
        for fault in SIDE_CHECKS:
            why = fault(instance, squares)
            if why is not None:
                raise CheckFailed(why)


def nonexistence_evidence(
    instance: TourInstance, method: str = "", separator: np.ndarray | None = None
) -> Evidence:
    """The evidence that no tour exists; CheckFailed when the checker finds one or a theorem says one exists.

    Parameters
    ----------
    instance : TourInstance
    method : str
        The method whose claim this is (named when the claim rests on it).
    separator : numpy.ndarray, optional
        The answer's separator as :func:`~knightcert.problems.checkers.tour_separator.read_separator`
        reads it (distinct flat indices of usable squares).

    Returns
    -------
    Evidence
        ``infeasible`` backed by an argument or a separator (CERTIFICATE), a
        theorem (THEOREM), the checker's complete search (SEARCH), or, when the
        checker cannot decide, by the method alone (SOLVER, with what stopped
        the checker).
    """
    return _nonexistence(instance, method, separator)[0]


def _nonexistence(
    instance: TourInstance, method: str, attached: np.ndarray | None
) -> tuple[Evidence, np.ndarray | None]:
    """:func:`nonexistence_evidence`, with the separator that backs it (flat indices) or None.
    A "No" where a theorem says a tour exists (a full plain board, no ends, no side constraints) is
    refuted first, at any size: never taken on trust past the search, nor searched for."""
    board, exists = instance.board, closed_tour_exists if instance.closed else open_tour_exists
    free = _full(instance) and not (instance.start or instance.end or sides_of("tour", instance))
    if free and exists(board.rows, board.cols):
        name = "Schwenk (1991)" if instance.closed else "Conrad et al. (1994)"
        raise CheckFailed(f"{name}: a full {board.rows} x {board.cols} board has a tour", "infeasible")
    if (reason := argument_against(instance)) is not None:
        return Evidence("infeasible", reason[0], reason[1]), None
    aside = ""
    if attached is not None:
        verdict = separator_verdict(instance, attached)
        if verdict.proves:
            return Evidence("infeasible", Backing.CERTIFICATE, verdict.how), attached
        aside = f"; the answer's separator proves nothing ({verdict.how})"
    if (own := own_separator(instance)) is not None:
        return Evidence("infeasible", Backing.CERTIFICATE, own[1].how), own[0]
    return _searched(instance, method, aside), None


def _searched(instance: TourInstance, method: str, aside: str) -> Evidence:
    """The checker's exhaustive search on small boards; the method's word elsewhere."""
    board = instance.board
    if board.n_free > EXHAUSTIVE_SQUARES:
        why = (
            f"the board has {board.n_free} usable squares, beyond the checker's search ({EXHAUSTIVE_SQUARES})"
        )
        return solver_evidence("infeasible", method, why + aside)
    from knightcert.problems.checkers.tour_search import FOUND, NONE  # numba: only a "No" needs it

    outcome, nodes, tour = search_tour(instance)
    if outcome == FOUND:
        try:  # the search's own tour is replayed like any answer before it refutes a claim
            found = [list(board.square(i)) for i in tour]
            check_tour_moves(instance, found)
            check_sides(instance, found)
        except CheckFailed:
            why = "the checker's own search gave a tour that did not replay"
            return solver_evidence("infeasible", method, why + aside)
        first = ", ".join(str(board.square(i)) for i in tour[:3])
        raise CheckFailed(
            f"the checker's exhaustive search found a tour ({nodes} nodes; it starts {first}, ...)",
            "infeasible",
        )
    if outcome == NONE:
        return Evidence("infeasible", Backing.SEARCH, f"the checker's exhaustive search ({nodes} nodes)")
    why = f"the checker's search spent its budget of {EXHAUSTIVE_NODES} nodes without deciding"
    return solver_evidence("infeasible", method, why + aside)


def nonexistence_reason(instance: TourInstance) -> str | None:
    """Why no tour exists, if the checker can tell on its own (argument, theorem or search); else None."""
    try:
        evidence = nonexistence_evidence(instance)
    except CheckFailed:
        return None
    return evidence.how if evidence.certified else None


def argument_against(instance: TourInstance) -> tuple[Backing, str] | None:
    """The first argument of :data:`NO_TOUR` that holds: (what backs it, the argument), or None."""
    found = ((backing, argument(instance)) for backing, argument in NO_TOUR)
    return next(((backing, reason) for backing, reason in found if reason is not None), None)


def _count_argument(instance: TourInstance) -> str | None:
    if instance.closed and instance.board.n_free < 3:
        return "count: a closed tour needs at least 3 squares"
    return None


def _closing_argument(instance: TourInstance) -> str | None:
    start, end, board = instance.start, instance.end, instance.board
    if instance.closed and start is not None and end is not None and not is_knight_move(board, start, end):
        return "closing move: the fixed start and end are not a knight move apart"
    return None


def _full(instance: TourInstance) -> bool:
    return not instance.board.blocked.any() and not instance.board.torus


def _theorem_argument(instance: TourInstance) -> str | None:
    """Schwenk (closed), Conrad (open) and the outer lines of 4 x n, on full plain boards."""
    board = instance.board
    if not _full(instance):
        return None
    if instance.closed:
        if not closed_tour_exists(board.rows, board.cols):
            return f"Schwenk (1991): no closed tour on a full {board.rows} x {board.cols} board"
        return None
    if instance.start is None and instance.end is None:
        if not open_tour_exists(board.rows, board.cols):
            return f"Conrad et al. (1994): no open tour on a full {board.rows} x {board.cols} board"
        return None
    return open_tour_reason(board.rows, board.cols)


def _full_open(reason: Callable[..., str | None]) -> Callable[[TourInstance], str | None]:
    """An argument about open tours of a full board: ``reason(rows, cols, start, end)``."""

    def argument(instance: TourInstance) -> str | None:
        if not _full(instance) or instance.closed:
            return None
        return reason(instance.board.rows, instance.board.cols, instance.start, instance.end)

    return argument


def _colour_argument(instance: TourInstance) -> str | None:
    reason = colour_count_reason(instance)
    return None if reason is None else f"colours: {reason}"


def tour_graph(instance: TourInstance) -> np.ndarray:
    """The moves a tour of ``instance`` may take: :func:`~knightcert.problems.moves.knight_neighbours`
    without the forbidden moves (distinct moves first in each row, -1 padding last)."""
    board = instance.board
    nb = knight_neighbours(board)
    if not instance.forbidden_moves:
        return nb
    nb = nb.copy()
    for a, b in instance.forbidden_moves:
        i, j = board.index(*a), board.index(*b)
        nb[i][nb[i] == j] = -1
        nb[j][nb[j] == i] = -1
    return -np.sort(-nb, axis=1)


def _degree_argument(instance: TourInstance) -> str | None:
    board = instance.board
    n = board.n_free
    if n == 1:
        return None
    free = board.free.reshape(-1)
    degree = (tour_graph(instance) >= 0).sum(axis=1)
    if (degree[free] == 0).any():
        return (
            f"degrees: square {board.square(int(np.flatnonzero(free & (degree == 0))[0]))} has no knight move"
        )
    ones = np.flatnonzero(free & (degree == 1))
    if instance.closed and ones.size:
        return f"degrees: square {board.square(int(ones[0]))} has one move, a closed tour needs two"
    if not instance.closed and n > 2:
        fixed = {board.index(*sq) for sq in (instance.start, instance.end) if sq is not None}
        loose = [int(i) for i in ones if int(i) not in fixed]
        if len(loose) > 2 - len(fixed):
            return (
                f"degrees: {len(loose)} squares with one move must all be ends of the tour, "
                f"and only {2 - len(fixed)} end{'s' * (len(fixed) != 1)} are free"
            )
    return None


def _forced_moves(instance: TourInstance, nb: np.ndarray, ends: set[int]) -> set[tuple[int, int]]:
    """The moves every tour takes: the required ones; on a closed tour or one with both ends
    fixed, both moves of a square (not an end) that has exactly two, and a closed tour's
    closing move between fixed ends."""
    board = instance.board
    forced = {tuple(sorted((board.index(*a), board.index(*b)))) for a, b in instance.required_moves}
    both = instance.start is not None and instance.end is not None
    if instance.closed or both:
        degree = (nb >= 0).sum(axis=1)
        twos = [v for v in np.flatnonzero(board.free.reshape(-1) & (degree == 2)).tolist() if v not in ends]
        # the distinct moves of a square come first in its row of the table
        forced |= {(min(v, int(w)), max(v, int(w))) for v in twos for w in nb[v, :2]}
    if instance.closed and instance.start is not None and instance.end is not None:
        s, e = board.index(*instance.start), board.index(*instance.end)
        forced.add((min(s, e), max(s, e)))
    return forced  # type: ignore[return-value]


def _forced_argument(instance: TourInstance) -> str | None:
    """Forced moves (module docstring); O(n).

    Proof. A closed tour is a cycle through every square: at a square with exactly two moves
    its two steps are those two moves, and with both ends fixed the closing move is a step.
    So every forced move is a step, each square has two steps, and a cycle made of steps is
    the tour itself (a cycle contains no shorter cycle), all ``n`` squares. An open tour
    between fixed ends ``s`` and ``e`` is a path: a square other than ``s`` and ``e`` has two
    steps, so again both of its two moves are steps; ``s`` and ``e`` have one step each, and
    a path contains no cycle. A required move is a step of every tour, open or closed.
    """
    board = instance.board
    n = board.n_free
    if n < 3:
        return None
    ends: set[int] = set()
    if not instance.closed:
        ends = {board.index(*sq) for sq in (instance.start, instance.end) if sq is not None}
    forced = _forced_moves(instance, tour_graph(instance), ends)
    if not forced:
        return None
    steps = np.bincount(np.array(sorted(forced), dtype=np.int64).reshape(-1), minlength=board.size)
    limit = np.full(board.size, 2)
    limit[list(ends)] = 1
    over = np.flatnonzero(steps > limit)
    if over.size:
        square = int(over[0])
        where = "an end of the tour, has one" if square in ends else "a tour takes two at a square"
        return f"forced moves: {int(steps[square])} forced moves meet at {board.square(square)}; {where}"
    root = {v: v for edge in forced for v in edge}
    size = dict.fromkeys(root, 1)

    def find(v: int) -> int:
        while root[v] != v:
            root[v] = root[root[v]]
            v = root[v]
        return v

    for a, b in sorted(forced):
        ra, rb = find(a), find(b)
        if ra == rb:
            if size[ra] == n and instance.closed:  # the forced moves are a whole closed tour
                continue
            return f"forced moves: forced moves close a cycle of {size[ra]} of the {n} squares"
        root[rb] = ra
        size[ra] += size[rb]
    return None


#: Why no tour exists, in the order the checker tries the arguments: (what backs it, argument).
#: Each holds for every variant too: side constraints only take tours away, and the arguments
#: that read them (visits, degrees and forced moves on the moves left) say so in their proofs.
NO_TOUR: tuple[tuple[Backing, Callable[[TourInstance], str | None]], ...] = (
    (Backing.CERTIFICATE, _count_argument),
    (Backing.CERTIFICATE, _closing_argument),
    (Backing.CERTIFICATE, _colour_argument),
    (Backing.CERTIFICATE, visits_argument),
    (Backing.CERTIFICATE, _degree_argument),
    (Backing.THEOREM, _theorem_argument),
    (Backing.THEOREM, _full_open(outer_rows_reason)),
    (Backing.CERTIFICATE, _forced_argument),
)

#: The side constraints an answer's tour must meet, after it replays as a tour.
SIDE_CHECKS = (visits_fault, forbidden_moves_fault, required_moves_fault)


def search_tour(instance: TourInstance, budget: int | None = None) -> tuple[int, int, list[int]]:
    """The checker's exhaustive search: (FOUND / NONE / UNDECIDED, nodes, tour as flat board indices).

    ``budget`` defaults to ``EXHAUSTIVE_NODES``.
    """
    from knightcert.problems.checkers.tour_search import FOUND, find_tour

    budget = EXHAUSTIVE_NODES if budget is None else budget
    board = instance.board
    usable, compact, neighbours = _compact_graph(instance)
    if instance.visits or instance.required_moves:
        return _search_variant(instance, usable, compact, neighbours, budget)[:3]
    start = None if instance.start is None else int(compact[board.index(*instance.start)])
    end = -1 if instance.end is None else int(compact[board.index(*instance.end)])
    if instance.closed:
        if start is None and end >= 0:  # a cycle through the end, turned to finish there
            outcome, nodes, tour = _search_cycle(usable, neighbours, end, budget)
            return outcome, nodes, tour[1:] + tour[:1]
        return _search_cycle(usable, neighbours, start, budget, end=None if end < 0 else end)
    if start is None and end >= 0:
        start, end = end, -1  # search the path backwards from its fixed end
    starts = np.array([start]) if start is not None else np.arange(usable.size)
    outcome, nodes, path, _ = find_tour(neighbours, starts, end, instance.closed, budget)
    tour = [int(usable[i]) for i in path if i >= 0] if outcome == FOUND else []
    if outcome == FOUND and instance.start is None and instance.end is not None:
        tour.reverse()
    return outcome, nodes, tour


def count_tours_searched(instance: TourInstance, budget: int, deadline: float = float("inf")) -> int | None:
    """The checker's count of directed tours (a closed one from its first square, one way round
    each), by its exhaustive search going on past every tour; None past ``budget`` nodes or
    ``deadline`` (``time.perf_counter()``). The search runs in a helper thread, stopped at the
    deadline or on Ctrl-C (:func:`~knightcert.problems.stopping.run_stoppable`; then
    ``KeyboardInterrupt`` here)."""
    from knightcert.problems.checkers.tour_search import UNDECIDED

    stop, graph = np.zeros(1, dtype=np.int64), _compact_graph(instance)
    (outcome, _, _, tours), interrupted = run_stoppable(
        lambda: _search_variant(instance, *graph, budget, count=True, stop=stop),
        lambda: stop.fill(1),
        lambda: time.perf_counter() > deadline,
    )
    if interrupted:
        raise KeyboardInterrupt
    return None if outcome == UNDECIDED else tours


def _compact_graph(instance: TourInstance) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The usable squares, their numbers from 0 (-1 elsewhere), the neighbour table in those numbers."""
    board = instance.board
    usable = np.flatnonzero(board.free.reshape(-1))
    compact = np.full(board.size, -1, dtype=np.int64)
    compact[usable] = np.arange(usable.size)
    neighbours = tour_graph(instance)[usable]
    return usable, compact, np.where(neighbours >= 0, compact[np.maximum(neighbours, 0)], -1)


def _search_variant(
    instance: TourInstance,
    usable: np.ndarray,
    compact: np.ndarray,
    neighbours: np.ndarray,
    budget: int,
    count: bool = False,
    stop: np.ndarray | None = None,
) -> tuple[int, int, list[int], int]:
    """:func:`search_tour` with visits and required moves applied as the search goes
    (:mod:`~knightcert.problems.checkers.tour_search`). The search runs from an anchor, a
    square of known place ``a`` (the start, the end, or a visit), its places renumbered
    from it: place ``p`` is depth ``p - a`` (mod ``n``) of a closed tour, ``n - p`` of an open
    one searched backwards from its end; the tour found is put back in place order."""
    from knightcert.problems.checkers.tour_search import FOUND, NONE, find_tour

    board, n = instance.board, len(usable)
    if visits_argument(instance) is not None:  # a square at two places (kept once below): no tour
        return NONE, 0, [], 0
    places = {board.index(r, c): k for r, c, k in instance.visits}
    for fixed_end, k in ((instance.start, 1), (instance.end, n)):
        if fixed_end is not None:
            places[board.index(*fixed_end)] = k
    shift = min(places.values(), default=1) - 1 if instance.closed else 0
    backwards = not instance.closed and 1 not in places.values() and n in places.values()
    depth_of = np.full(n, -1, dtype=np.int64)
    at_depth = np.full(n, -1, dtype=np.int64)
    for square, k in places.items():
        depth = (n - k) if backwards else (k - 1 - shift) % n
        depth_of[compact[square]] = depth
        at_depth[depth] = compact[square]
    req = np.full((n, 2), -1, dtype=np.int64)
    for a, b in instance.required_moves:
        for u, v in ((a, b), (b, a)):
            row = req[compact[board.index(*u)]]
            if (row >= 0).all():
                return NONE, 0, [], 0  # three required moves at a square (the forced-moves argument)
            row[np.argmax(row < 0)] = compact[board.index(*v)]
    if at_depth[0] >= 0:
        starts = at_depth[:1]
    else:
        starts = np.flatnonzero(depth_of < 0)  # any square of unknown place
        if instance.closed:
            starts = starts[:1]  # a cycle passes through every square: one start is enough
    end = -1 if backwards or instance.closed else int(at_depth[n - 1])
    outcome, nodes, path, tours = find_tour(
        neighbours, starts, end, instance.closed, budget, (at_depth, depth_of, req), count, stop
    )
    if outcome != FOUND or count:
        return outcome, nodes, [], tours
    tour = [int(usable[i]) for i in path]
    if backwards:
        tour.reverse()
    return outcome, nodes, tour[n - shift :] + tour[: n - shift] if shift else tour, tours


def _search_cycle(
    usable: np.ndarray, neighbours: np.ndarray, start: int | None, budget: int, end: int | None = None
) -> tuple[int, int, list[int]]:
    """A closed tour through square ``s`` (the given start, else one of fewest moves) uses two of
    its moves, ``a - s - b``: it exists iff some pair has a path ``a -> b`` through all other squares.
    With a fixed ``end`` as well (compact indices), the tour ``s ... end`` closes with the move
    ``end - s``: ``end`` must be a move from ``s`` and one of the pair."""
    from knightcert.problems.checkers.tour_search import FOUND, NONE, find_tour

    degree = (neighbours >= 0).sum(axis=1)
    s = int(np.argmin(degree)) if start is None else start
    ends = [int(x) for x in neighbours[s] if x >= 0]
    if end is not None:
        if end not in ends:
            return NONE, 0, []
        ends = [x for x in ends if x != end] + [end]  # every pair below then ends at ``end``
    keep = np.ones(len(usable), dtype=bool)
    keep[s] = False
    compact = np.cumsum(keep) - 1
    rest = neighbours[keep]
    rest = np.where((rest >= 0) & (rest != s), compact[np.maximum(rest, 0)], -1)
    rest = -np.sort(-rest, axis=1)
    total, outcome = 0, NONE
    for i, a in enumerate(ends):
        for b in ends[i + 1 :]:
            if end is not None and b != end:
                continue
            outcome, nodes, path, _ = find_tour(
                rest, np.array([compact[a]]), int(compact[b]), False, budget - total
            )
            total += nodes
            if outcome == FOUND:
                others = np.flatnonzero(keep)
                return FOUND, total, [int(usable[s])] + [int(usable[others[i]]) for i in path]
            if outcome != NONE:
                return outcome, total, []
    return outcome if ends else NONE, total, []


#: Squares of a tour checked per slice by the fast pass of :func:`check_tour_moves`.
CHUNK = 1 << 18


def check_tour_moves(instance: TourInstance, tour: Any) -> None:
    """Check that ``tour`` is a tour of ``instance`` (see module docstring); vectorised.

    A tour given as an integer array of shape (n, 2) is checked a slice of ``CHUNK`` squares
    at a time (the squares, each step, each square once: a visited mask of one byte per
    square), never widened to int64 as a whole: at 4000 x 4000 the whole-array pass made
    several 16-million-entry temporaries and took most of ``knightcert.solve``'s time. Any
    fault found sends the tour to the whole-array pass, which names the first one.
    """
    if not (_looks_valid(instance, tour)):
        _check_whole(instance, tour)


def _looks_valid(instance: TourInstance, tour: Any) -> bool:
    """The fast pass: True when ``tour`` is an integer (n, 2) array that is a valid tour;
    False for any other input or any fault (the whole-array pass then decides and explains)."""
    board = instance.board
    if not (
        isinstance(tour, np.ndarray) and tour.dtype.kind in "iu" and tour.ndim == 2 and tour.shape[1] == 2
    ):
        return False
    n = len(tour)
    if n != board.n_free or n < 2:
        return False
    # removed squares count as visited from the start: the n squares of the tour (n = the
    # usable squares) leave none unvisited only when every one is usable and none comes twice
    seen = ~board.free.reshape(-1)
    # int32 arithmetic where nothing can overflow it: entries that int32 holds (or a uint32's,
    # which wrap to negatives and fail the range test), flat indices below 2**31 and, for the
    # plain board's step test dr*dr + dc*dc == 5 (a knight move, nothing else), sides below 2**15
    narrow = tour.dtype.itemsize <= 4 and board.size < 2**31 and max(board.rows, board.cols) < 2**15
    kind = np.int32 if narrow else np.int64
    for start in range(0, n, CHUNK):
        # one more square: the step into the next slice
        piece: Any = tour[start : start + CHUNK + 1].astype(kind, copy=True)
        own = piece[:CHUNK] if len(piece) > CHUNK else piece
        r, c = own[:, 0], own[:, 1]
        unsigned = np.uint32 if narrow else np.uint64  # negatives become too large
        if not ((r.view(unsigned) < board.rows) & (c.view(unsigned) < board.cols)).all():
            return False
        seen[r * board.cols + c] = True
        if len(piece) < 2:
            continue
        if board.torus:
            if not knight_steps(board, piece[:-1], piece[1:]).all():
                return False
        else:
            dr = np.diff(piece[:, 0])  # within the board: |dr| < 2**15, dr*dr fits int32
            dc = np.diff(piece[:, 1])
            dr *= dr
            dc *= dc
            dr += dc
            if not (dr == 5).all():
                return False
    if np.count_nonzero(seen) != board.size:  # a removed square, or a square twice
        return False
    ends = tour[[0, -1]].astype(np.int64)
    if instance.closed and (n < 3 or not knight_steps(board, ends[1:], ends[:1])[0]):
        return False
    if instance.start is not None and tuple(ends[0].tolist()) != tuple(instance.start):
        return False
    return instance.end is None or tuple(ends[1].tolist()) == tuple(instance.end)


def _check_whole(instance: TourInstance, tour: Any) -> None:
    """The whole-array check, naming the first fault."""
    board = instance.board
    squares, index = usable_squares(board, tour, "step {}: {} is off the board or removed")
    counts = np.bincount(index, minlength=board.size)
    if (counts > 1).any():
        square = board.square(int(np.flatnonzero(counts > 1)[0]))
        raise CheckFailed(f"square {square} is visited twice")
    if len(squares) != board.n_free:
        raise CheckFailed(f"the tour visits {len(squares)} of {board.n_free} usable squares")
    check_knight_path(board, squares)
    if instance.closed and len(squares) < 3:
        raise CheckFailed("a closed tour needs at least 3 squares")
    if instance.closed and not knight_steps(board, squares[-1:], squares[:1])[0]:
        a, b = tuple(squares[-1].tolist()), tuple(squares[0].tolist())
        raise CheckFailed(f"the tour is not closed: {a} -> {b} is not a knight move")
    if instance.start is not None and tuple(squares[0].tolist()) != tuple(instance.start):
        raise CheckFailed(f"the tour starts at {tuple(squares[0].tolist())}, not at {tuple(instance.start)}")
    if instance.end is not None and tuple(squares[-1].tolist()) != tuple(instance.end):
        raise CheckFailed(f"the tour ends at {tuple(squares[-1].tolist())}, not at {tuple(instance.end)}")


def partial_tour_length(instance: TourInstance, partial: Any) -> int | None:
    """How many squares a partial tour (a dead end's path) covers, when it is one; else None.

    The squares must be usable and distinct, each a knight move from the previous one, and
    the first the instance's start when it has one. This is how a comparison measures a
    dead end's gap (``1 - covered / usable``): from a path the checker replayed, never from
    what the method says it covered.
    """
    if partial is None:
        return None
    try:
        squares = as_squares(partial, "certificate 'partial'")
    except CheckFailed:
        return None
    board = instance.board
    if len(squares) == 0 or len(squares) > board.n_free:
        return None
    index, usable = on_usable(board, squares)
    if not usable.all() or (np.bincount(index, minlength=board.size) > 1).any():
        return None
    if len(squares) > 1 and not knight_steps(board, squares[:-1], squares[1:]).all():
        return None
    if instance.start is not None and tuple(squares[0].tolist()) != tuple(instance.start):
        return None
    return len(squares)
