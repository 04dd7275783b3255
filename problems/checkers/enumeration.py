"""The checker's own count: an exhaustive enumeration of every solution, small instances only.

It shares nothing with the counters of :mod:`knightcert.algorithms.counting` and
:mod:`knightcert.models.count_cpsat`. Each search stops after a number of steps (then it has
counted nothing), or at a deadline:

* tours: the checker's exhaustive search (:func:`~knightcert.problems.checkers.tour.count_tours_searched`,
  side constraints applied as it goes) going on past every tour, ``tour_nodes`` nodes, on
  boards of at most ``EXHAUSTIVE_SQUARES`` usable squares (the checker's search's own limit);
* in plain Python over the checker's move table, ``nodes`` steps:
  shortest paths: every walk from C that can still reach S through the via squares left in
  the moves left (breadth-first distances from S and each via square), each whole path
  checked by :func:`~knightcert.problems.checkers.sides.via_fault`;
  knights: every independent set, square by square (a fixed square always taken), cut when the
  squares left unattacked cannot reach the best placement found.

Examples
--------
>>> from knightcert.problems.tours import tour_instance
>>> enumerate_solutions(tour_instance(3, 4))
(None, 16)
"""

from __future__ import annotations

import itertools
import time
from typing import Any

import numpy as np

from knightcert.problems.checkers.sides import via_fault, via_passed
from knightcert.problems.checkers.tour import EXHAUSTIVE_SQUARES, count_tours_searched
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.tours import TourInstance

__all__ = ["NODES", "SQUARES", "TOUR_NODES", "enumerate_solutions"]

#: Steps after which the enumeration gives up (about 10 s of plain Python, measured).
NODES = 2_000_000
#: Squares of the largest board enumerated in plain Python (a frame per square of a knights search).
SQUARES = 900
#: Nodes of the checker's tour search (compiled; 6 x 6 closed tours take 3.3 million, 3 to 9 s).
TOUR_NODES = 5_000_000


class _Spent(Exception):
    pass


def enumerate_solutions(
    instance: Any, nodes: int = NODES, tour_nodes: int = TOUR_NODES, deadline: float | None = None
) -> tuple[int | None, int] | None:
    """(optimum, count): tours ``(None, directed tours)``, paths ``(moves, shortest paths)``,
    knights ``(most knights, placements of that many)``; ``(None, 0)`` when none exists; None
    when the search took more than ``nodes`` steps or ran past ``deadline``
    (``time.perf_counter()``)."""
    last = float("inf") if deadline is None else deadline
    if time.perf_counter() > last:
        return None
    if isinstance(instance, TourInstance):  # the search's tables are n x n: no more than its own squares
        big = instance.board.n_free > EXHAUSTIVE_SQUARES
        tours = None if big else count_tours_searched(instance, tour_nodes, last)
        return None if tours is None else (None, tours)
    board = instance.board
    if board.size > SQUARES:
        return None
    table = [[int(v) for v in row if v >= 0] for row in knight_neighbours(board)]
    budget = itertools.count(-nodes)

    def step() -> None:
        if next(budget) >= 0 or time.perf_counter() > last:
            raise _Spent

    try:
        if isinstance(instance, KnightsInstance):
            return _knights(instance, table, step)
        return _paths(instance, table, step)
    except _Spent:
        return None


def _paths(instance: LostKnightInstance, table: list[list[int]], step) -> tuple[int | None, int]:
    board = instance.board
    via = [board.index(*square) for square in instance.via]
    targets = [*via, instance.exit_index]
    far = [_distances(table, target) for target in targets]  # from a target = to it: moves go both ways
    legs = [far[j + 1].get(targets[j], -1) for j in range(len(via))]
    if -1 in legs or instance.start_index not in far[0]:
        return None, 0
    after = [sum(legs[j:]) for j in range(len(targets))]  # moves from target j to S through the rest

    def least(square: int, passed: int) -> int:  # the fewest moves left from here
        return far[passed].get(square, board.size * len(targets)) + after[passed]

    path = [instance.start_index]
    found = 0

    def walk(passed: int, left: int) -> None:
        nonlocal found
        step()
        if left == 0:
            found += via_fault(instance, np.array([board.square(s) for s in path])) is None
        for v in table[path[-1]] if left else ():
            ahead = via_passed(via, passed, v)
            if least(v, ahead) < left:
                path.append(v)
                walk(ahead, left - 1)
                path.pop()

    begun = via_passed(via, 0, instance.start_index)
    walk(begun, least(instance.start_index, begun))
    return least(instance.start_index, begun), found


def _distances(table: list[list[int]], source: int) -> dict[int, int]:
    """Moves from ``source`` to every square it reaches (breadth-first)."""
    far, frontier = {source: 0}, [source]
    while frontier:
        reached = [v for u in frontier for v in table[u] if v not in far]
        far.update((v, far[frontier[0]] + 1) for v in reached)
        frontier = list(dict.fromkeys(reached))
    return far


def _knights(instance: KnightsInstance, table: list[list[int]], step) -> tuple[int | None, int]:
    board = instance.board
    squares = [int(s) for s in np.flatnonzero(board.free.reshape(-1))]
    fixed = {board.index(*square) for square in instance.fixed}
    attacked = [0] * board.size
    best, found = -1, 0

    def walk(k: int, placed: int) -> None:
        nonlocal best, found
        step()
        if placed + sum(not attacked[s] for s in squares[k:]) < best:
            return
        if k == len(squares):
            best, found = placed, (found + 1 if placed == best else 1)
            return
        square = squares[k]
        if not attacked[square]:
            for v in table[square]:
                attacked[v] += 1
            walk(k + 1, placed + 1)
            for v in table[square]:
                attacked[v] -= 1
        if square not in fixed:
            walk(k + 1, placed)

    walk(0, 0)
    return (None, 0) if best < 0 else (best, found)
