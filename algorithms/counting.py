"""Exact counters: knight's tours, shortest lost-knight paths, maximum independent knights.

* tours: a depth-first search on bitmasks pruned by links (``count_kernels``), boards of at
  most 64 usable squares;
* shortest paths: the number of paths into each square of a breadth-first layer is the sum
  over its predecessors in the layer before (exact, polynomial, Python integers);
* independent knights: a dynamic programme over rows whose state is the last two rows
  (plain boards of at most ``MAX_WIDTH`` columns on the narrow side, holes allowed).

Each returns plain integers; :func:`knightcert.count` compares them with a second counter.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from knightcert.algorithms.count_kernels import count_hamiltonian_paths, count_max_rows
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.tours import TourInstance

__all__ = ["MAX_TOUR_SQUARES", "MAX_WIDTH", "count_knights", "count_paths", "count_tours", "shortest_paths"]

#: Usable squares up to which tours are counted (one bit each in a 64-bit mask).
MAX_TOUR_SQUARES = 64
#: Columns (of the narrow side) up to which maximum placements are counted.
MAX_WIDTH = 8


def _masks(instance: TourInstance) -> tuple[np.ndarray, np.uint64, dict[int, int]]:
    """Neighbour bitmasks over the usable squares numbered 0..n-1, their full mask, the numbering."""
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
    return nbr, np.uint64((1 << len(squares)) - 1), bit


def count_tours(instance: TourInstance) -> tuple[int, int]:
    """(directed, undirected) tours of the instance.

    Directed tours are sequences of squares (an open tour without fixed ends counted from
    both of its ends; a closed tour counted in both directions, wherever it starts);
    undirected ones are sets of moves (paths, or cycles for closed tours). With a fixed start
    or end, both counts are the sequences from the fixed start (or into the fixed end).

    Examples
    --------
    >>> from knightcert.problems.tours import tour_instance
    >>> count_tours(tour_instance(3, 4))
    (16, 8)
    """
    nbr, free, bit = _masks(instance)
    n = len(nbr)
    board = instance.board
    start = None if instance.start is None else bit[board.index(*instance.start)]
    end = None if instance.end is None else bit[board.index(*instance.end)]
    if start is None and end is not None:  # a path into the end, read backwards
        start, end = end, None
    if instance.closed:
        if n < 3:
            return 0, 0
        first = start if start is not None else int(np.argmin([bin(int(m)).count("1") for m in nbr]))
        last = nbr[first] if end is None else np.uint64(1) << np.uint64(end)
        directed = count_hamiltonian_paths(nbr, free, first, last)
        return (directed, directed) if end is not None else (directed, directed // 2)
    last = free if end is None else np.uint64(1) << np.uint64(end)
    if start is not None:
        paths = count_hamiltonian_paths(nbr, free, start, last)
        return paths, paths
    directed = sum(count_hamiltonian_paths(nbr, free, s, last) for s in range(n))
    return directed, (directed if n == 1 else directed // 2)


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


def count_paths(instance: LostKnightInstance) -> tuple[int | None, int]:
    """(shortest length, number of shortest paths) from C to S; (None, 0) when S is unreachable.

    Paths are sequences of squares (two jumps between the same squares of a small torus are
    one path).

    Examples
    --------
    >>> from knightcert.problems.lost_knight import parse_lost_knight
    >>> count_paths(parse_lost_knight("C.........\\n..........\\n..........\\n.........S\\n"))
    (2, 2)
    """
    dist, _, ways = _layers(instance)
    length = int(dist[instance.exit_index])
    return (None, 0) if length < 0 else (length, ways[instance.exit_index])


def shortest_paths(instance: LostKnightInstance) -> Iterator[list[list[int]]]:
    """Every shortest path from C to S, as lists of ``[row, col]`` (walked back over the layers)."""
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


def count_knights(instance: KnightsInstance) -> tuple[int, int]:
    """(maximum number of independent knights, number of placements of that many).

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> count_knights(knights_instance(8, 8))
    (32, 2)
    """
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
