"""Exact counters: knight's tours, shortest lost-knight paths, maximum independent knights.

* tours: a depth-first search on bitmasks pruned by links (``count_kernels``), boards of at
  most 64 usable squares;
* shortest paths: the number of paths into each square of a breadth-first layer is the sum
  over its predecessors in the layer before (exact, polynomial, Python integers);
* independent knights: a dynamic programme over rows whose state is the last two rows
  (plain boards of at most ``MAX_WIDTH`` columns on the narrow side, holes allowed).

The tour counter stops at a deadline or on Ctrl-C (:class:`CountStopped`, with the tours
found so far when they bound the count from below). Each honours the instance's side
constraints (tours: visits at their places in the search,
forbidden moves cut from the masks, required moves by inclusion and exclusion; paths: a leg
between via squares at a time; knights: the board the fixed knights leave) and returns plain
integers; :func:`knightcert.count` compares them with two other counters.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import numpy as np

from knightcert.algorithms.count_kernels import count_hamiltonian_paths, count_max_rows
from knightcert.problems import stopping
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.independent_knights import KnightsInstance, fixed_conflict, rest_of
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.tours import TourInstance

__all__ = ["MAX_TOUR_SQUARES", "MAX_WIDTH", "CountStopped", "count_knights", "count_paths", "count_tours"]
__all__ += ["shortest_paths"]

#: Usable squares up to which tours are counted (one bit each in a 64-bit mask).
MAX_TOUR_SQUARES = 64
#: Columns (of the narrow side) up to which maximum placements are counted.
MAX_WIDTH = 8


class CountStopped(Exception):
    """The tour count stopped: ``args`` are the note (at the time limit, or ``interrupted`` by
    Ctrl-C, with the tours found) and the directed tours found, None when they bound nothing
    (required moves are counted by inclusion and exclusion, a sum with signs)."""


class _Watched:
    """The tour kernel run (:func:`~knightcert.problems.stopping.run_stoppable`) until it ends,
    the deadline (``time.perf_counter()``) passes or Ctrl-C arrives; ``found`` adds up its paths."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline, self.found = deadline or float("inf"), 0

    def __call__(self, nbr, free, start, last, place, reserved) -> int:
        stop = np.zeros(1, dtype=np.int64)
        (paths, finished), interrupted = stopping.run_stoppable(
            lambda: count_hamiltonian_paths(nbr, free, start, last, place, reserved, stop),
            lambda: stop.fill(1),
            lambda: time.perf_counter() > self.deadline,
        )
        self.found += paths
        if not finished:
            raise CountStopped("interrupted" if interrupted else "stopped at the time limit", self.found)
        return paths


def _masks(instance: TourInstance) -> tuple[np.ndarray, np.uint64, dict[int, int]]:
    """Neighbour bitmasks over the usable squares numbered 0..n-1 (no forbidden move), their
    full mask, the numbering."""
    board = instance.board
    if board.n_free > MAX_TOUR_SQUARES:
        raise InvalidInstance(
            f"tour counting: {board.n_free} usable squares, the counter takes at most {MAX_TOUR_SQUARES}"
        )
    squares = np.flatnonzero(board.free.reshape(-1))
    bit = {int(s): k for k, s in enumerate(squares)}
    nbr = np.zeros(len(squares), dtype=np.uint64)
    for s, row in zip(squares, knight_neighbours(board)[squares], strict=True):
        for t in row[row >= 0]:
            nbr[bit[int(s)]] |= np.uint64(1) << np.uint64(bit[int(t)])
    return _cut(nbr, _bits(instance, bit, instance.forbidden_moves)), np.uint64((1 << len(squares)) - 1), bit


def _bits(instance: TourInstance, bit: dict[int, int], moves) -> list[tuple[int, int]]:
    return [(bit[instance.board.index(*a)], bit[instance.board.index(*b)]) for a, b in moves]


def _cut(nbr: np.ndarray, moves) -> np.ndarray:
    """The masks without the moves ``(a, b)`` (numbered squares), both ways."""
    nbr = nbr.copy()
    for a, b in moves:
        nbr[a] &= ~(np.uint64(1) << np.uint64(b))
        nbr[b] &= ~(np.uint64(1) << np.uint64(a))
    return nbr


def _merged(pairs) -> dict[int, int] | None:
    """``{position: square}`` from ``(square, position)`` pairs; None when two disagree."""
    at: dict[int, int] = {}
    where: dict[int, int] = {}
    for square, k in pairs:
        if at.setdefault(k, square) != square or where.setdefault(square, k) != k:
            return None
    return at


def _places(instance: TourInstance, bit: dict[int, int], n: int) -> dict[int, int] | None:
    """The squares with a place (start, end, visits) as ``{position from 0: square}``, None when
    they contradict each other. A closed tour is turned so that one of them is its first square
    (a cycle's places count from anywhere); an open tour with an end only is read backwards."""
    given = [(instance.start, 1), (instance.end, n)] + [((r, c), k) for r, c, k in instance.visits]
    pairs = [(bit[instance.board.index(*sq)], k - 1) for sq, k in given if sq is not None]
    if pairs and all(k for _, k in pairs):
        turn = (lambda k: (k - pairs[0][1]) % n) if instance.closed else (lambda k: n - 1 - k)
        if instance.closed or instance.end is not None:
            pairs = [(sq, turn(k)) for sq, k in pairs]
    return _merged(pairs)


def _sequences(
    closed: bool, nbr: np.ndarray, free: np.uint64, places: dict[int, int], paths: _Watched
) -> int:
    """Directed tours (a closed one from its first square) with the squares at their places."""
    n, one = len(nbr), np.uint64(1)
    place = np.full(n + 1, -1, dtype=np.int64)
    for k, square in places.items():
        place[k] = square
    reserved = np.uint64(sum(1 << s for s in places.values()))
    last = free if n - 1 not in places else one << np.uint64(places[n - 1])
    if closed:
        first = places.get(0, int(np.argmin([bin(int(m)).count("1") for m in nbr])))
        return 0 if n < 3 else paths(nbr, free, first, last & nbr[first], place, reserved)
    starts = [places[0]] if 0 in places else [s for s in range(n) if s not in places.values()]
    return sum(paths(nbr, free, s, last, place, reserved) for s in starts)


def _directed(
    instance: TourInstance, nbr: np.ndarray, free: np.uint64, places: dict[int, int], bit, paths
) -> int:
    """Tours that take every required move: by inclusion and exclusion over those left out."""
    required = _bits(instance, bit, instance.required_moves)
    return sum(
        (-1) ** size * _sequences(instance.closed, _cut(nbr, left), free, places, paths)
        for size in range(len(required) + 1)
        for left in itertools.combinations(required, size)
    )


def count_tours(instance: TourInstance, deadline: float | None = None) -> tuple[int, int]:
    """(directed, undirected) tours of the instance, with its side constraints; past ``deadline``
    (``time.perf_counter()``) or on Ctrl-C, :class:`CountStopped`.

    Directed tours are sequences of squares (an open tour without fixed ends counted from
    both of its ends; a closed tour counted in both directions, wherever it starts);
    undirected ones are sets of moves (paths, or cycles for closed tours): a set counted in
    both directions (its reverse has the start, end and visits in their places too) is
    one undirected tour, so with a fixed start or end of an open tour both counts are equal.

    Examples
    --------
    >>> from knightcert.problems.tours import tour_instance
    >>> count_tours(tour_instance(3, 4))
    (16, 8)
    """
    nbr, free, bit = _masks(instance)
    n, paths, directed = len(nbr), _Watched(deadline), None
    places = _places(instance, bit, n)
    if places is None:
        return 0, 0
    mirror = (lambda k: -k % n) if instance.closed else (lambda k: n - 1 - k)
    both = _merged([(sq, k) for k, sq in places.items()] + [(sq, mirror(k)) for k, sq in places.items()])
    try:
        directed = _directed(instance, nbr, free, places, bit, paths)
        if n == 1 or both == places:  # every tour counted in both directions (or its own reverse)
            return directed, directed // (1 + (n > 1))
        mirrored = 0 if both is None else _directed(instance, nbr, free, both, bit, paths)
        return directed, directed - mirrored // 2
    except CountStopped as stopped:  # the tours found bound the count when all of them are counted
        bound = directed if directed is not None or instance.required_moves else stopped.args[1]
        raise CountStopped(stopped.args[0] + f": at least {bound}" * (bound is not None), bound) from None


def _layers(instance: LostKnightInstance) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Distances from C (-1: unreached), the distinct-neighbour table, paths into each square."""
    board = instance.board
    nbr = knight_neighbours(board)
    dist = np.full(board.size, -1, dtype=np.int64)
    ways = [0] * board.size
    dist[instance.start_index], ways[instance.start_index] = 0, 1
    frontier = [instance.start_index]
    while frontier and dist[instance.exit_index] < 0:
        layer: set[int] = set()
        for u in frontier:
            for v in nbr[u][nbr[u] >= 0].tolist():
                if dist[v] < 0 or dist[v] == dist[u] + 1:
                    dist[v] = dist[u] + 1
                    ways[v] += ways[u]
                    layer.add(v)
        frontier = sorted(layer)
    return dist, nbr, ways


def _legs(instance: LostKnightInstance) -> list[LostKnightInstance]:
    """The path's legs between distinct squares, each a lost-knight instance of its own."""
    return [LostKnightInstance(instance.board, a, b) for a, b in instance.legs() if a != b]


def count_paths(instance: LostKnightInstance) -> tuple[int | None, int]:
    """(shortest length, number of shortest paths) from C to S; (None, 0) when S is unreachable.

    Paths are sequences of squares (two jumps between the same squares of a small torus are
    one path). With via squares a shortest path is one of each leg, joined (each leg of it
    is as short as can be, or the whole would be longer): the lengths add up, the counts
    multiply.

    Examples
    --------
    >>> from knightcert.problems.lost_knight import parse_lost_knight
    >>> count_paths(parse_lost_knight("C.........\\n..........\\n..........\\n.........S\\n"))
    (2, 2)
    """
    length, ways = 0, 1
    for leg in _legs(instance):
        dist, _, into = _layers(leg)
        if dist[leg.exit_index] < 0:
            return None, 0
        length, ways = length + int(dist[leg.exit_index]), ways * into[leg.exit_index]
    return length, ways


def shortest_paths(instance: LostKnightInstance) -> Iterator[list[list[int]]]:
    """Every shortest path from C to S (through the via squares), as lists of ``[row, col]``."""
    yield from _joined(_legs(instance))


def _joined(legs: list[LostKnightInstance]) -> Iterator[list[list[int]]]:
    if not legs:
        yield []
        return
    for head in _leg_paths(legs[0]):
        for tail in _joined(legs[1:]):
            yield head + tail[1:]


def _leg_paths(instance: LostKnightInstance) -> Iterator[list[list[int]]]:
    """Every shortest path of one leg (walked back over the layers)."""
    dist, nbr, _ = _layers(instance)
    board = instance.board
    if dist[instance.exit_index] < 0:
        return

    def back(v: int, tail: list[int]) -> Iterator[list[list[int]]]:
        if v == instance.start_index:
            yield [list(board.square(s)) for s in [v, *tail]]
            return
        for u in nbr[v][nbr[v] >= 0].tolist():
            if dist[u] == dist[v] - 1 and dist[u] >= 0:
                yield from back(u, [v, *tail])

    yield from back(instance.exit_index, [])


def count_knights(instance: KnightsInstance) -> tuple[int | None, int]:
    """(maximum number of independent knights, number of placements of that many); with fixed
    knights, those of the rest of the board (:func:`~knightcert.problems.independent_knights.rest_of`)
    with them, (None, 0) when two attack each other.

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> count_knights(knights_instance(8, 8))
    (32, 2)
    """
    if instance.fixed:
        top, ways = (None, 0) if fixed_conflict(instance) else count_knights(rest_of(instance))
        return None if top is None else top + len(instance.fixed), ways
    board = instance.board
    if board.torus:
        raise InvalidInstance("knights counting: the row-by-row counter takes plain boards only")
    free = board.free if board.cols <= board.rows else board.free.T
    width = free.shape[1]
    if width > MAX_WIDTH:
        raise InvalidInstance(f"knights counting: {width} columns on the narrow side, at most {MAX_WIDTH}")
    rows = (free.astype(np.int64) << np.arange(width, dtype=np.int64)).sum(axis=1)
    top, count = count_max_rows(rows, width)
    return int(top), int(count)
