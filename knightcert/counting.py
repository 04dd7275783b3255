"""Counting and enumeration: :func:`count` runs two independent counters and says which agreed.

The first counter is exact and specialised (:mod:`knightcert.algorithms.counting`: a pruned
bitmask search for tours, breadth-first layers for shortest paths, a row-by-row programme for
independent knights); the second is CP-SAT's enumeration of every solution
(:mod:`knightcert.models.count_cpsat`), built from the problem's definition alone. A count is
reported when every counter that finished gives it; each solution handed back is checked by
the problem's checker like any answer. Published counts are test references only.

Examples
--------
>>> from knightcert.problems.tours import tour_instance
>>> tally = count(tour_instance(3, 4))
>>> (tally.count, tally.directed, tally.undirected, tally.agreed)
(16, 16, 8, ('search', 'cpsat'))
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from knightcert.algorithms import counting as exact
from knightcert.models import count_cpsat
from knightcert.problems.checkers import check
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance

__all__ = ["COUNTERS", "PATH_MODEL_CELLS", "Count", "Counter", "count"]

#: Largest path model enumerated (a Boolean per square and step).
PATH_MODEL_CELLS = 200_000

#: What each counter is, as the output names it.
COUNTERS = {
    "search": "exact search (tours: bitmask depth-first search pruned by links; paths: "
    "breadth-first layers; knights: row-by-row programme)",
    "cpsat": "CP-SAT's enumeration of every solution",
}


@dataclass(frozen=True)
class Counter:
    """One counter's run: its count (None when it stopped or cannot take the instance), its
    seconds, and why it gave no count."""

    name: str
    count: int | None
    seconds: float
    note: str = ""


@dataclass(frozen=True)
class Count:
    """The count of an instance's solutions and what backs it.

    ``count`` is the number under ``convention`` that every finished counter gave (None when
    none finished or two disagree); tours give ``directed`` and ``undirected`` as well, knights
    and paths the ``optimum`` counted (number of knights, moves). ``solutions`` holds the
    solutions asked for, each checked.
    """

    problem: str
    count: int | None
    convention: str
    counters: tuple[Counter, ...]
    directed: int | None = None
    undirected: int | None = None
    optimum: int | None = None
    solutions: tuple[Any, ...] = ()

    @property
    def agreed(self) -> tuple[str, ...]:
        """The counters that gave the reported count."""
        return tuple(c.name for c in self.counters if c.count is not None and c.count == self.count)

    @property
    def disagree(self) -> bool:
        """True when two counters gave different counts."""
        return len({c.count for c in self.counters if c.count is not None}) > 1


def count(instance: Any, *, keep: int = 0, time_limit: float | None = 10.0, second: bool = True) -> Count:
    """Count the solutions of a tour, lost-knight or knights instance with two counters.

    Parameters
    ----------
    instance : TourInstance, LostKnightInstance or KnightsInstance
    keep : int
        Solutions to hand back (each checked): up to ``keep``.
    time_limit : float, optional
        Seconds for the CP-SAT enumeration (the exact counters run to the end).
    second : bool
        Run CP-SAT's enumeration as well (default True).

    Raises
    ------
    InvalidInstance
        Not an instance of a problem with a count (the jump game has one winner).
    """
    if isinstance(instance, TourInstance):
        return _tours(instance, keep, time_limit, second)
    if isinstance(instance, LostKnightInstance):
        return _paths(instance, keep, time_limit, second)
    if isinstance(instance, KnightsInstance):
        return _knights(instance, keep, time_limit, second)
    raise InvalidInstance(f"nothing to count on a {type(instance).__name__}: tours, paths and knights only")


def _timed(run, *args) -> tuple[Any, Counter | None]:
    began = time.perf_counter()
    try:
        return run(*args), None
    except InvalidInstance as error:
        return None, Counter("search", None, time.perf_counter() - began, str(error))


def _second(found: count_cpsat.Enumeration) -> Counter:
    note = "" if found.complete else f"stopped after {found.count} solutions (time limit)"
    return Counter("cpsat", found.count if found.complete else None, found.seconds, note)


def _checked(problem: str, instance: Any, solutions: list, objective) -> tuple:
    for solution in solutions:
        check(instance, Result(problem, "count", Status.FEASIBLE, objective(solution), None, solution, 0.0))
    return tuple(solutions)


def _tours(instance: TourInstance, keep: int, time_limit: float | None, second: bool) -> Count:
    began = time.perf_counter()
    pair, refused = _timed(exact.count_tours, instance)
    counters = [refused or Counter("search", pair[0], time.perf_counter() - began)]
    found = count_cpsat.enumerate_tours(instance, keep, time_limit, not second) if second or keep else None
    if second and found is not None:
        counters.append(_second(found))
    directed = pair[0] if pair else (found.count if found and found.complete else None)
    tally = Count("tour", directed, _tour_convention(instance), tuple(counters), directed)
    undirected = pair[1] if pair else _undirected(instance, directed)
    solutions = _checked("tour", instance, found.solutions, len) if found else ()
    return Count(
        "tour",
        None if tally.disagree else directed,
        tally.convention,
        tally.counters,
        directed,
        undirected,
        solutions=solutions,
    )


def _undirected(instance: TourInstance, directed: int | None) -> int | None:
    """Undirected tours (sets of moves) from directed ones: each counted twice, once per
    direction, unless an end of the sequence is fixed (an open tour's, or a closed one's end)."""
    if directed is None or instance.board.n_free == 1:
        return directed
    halved = instance.end is None if instance.closed else instance.start is None and instance.end is None
    return directed // 2 if halved else directed


def _tour_convention(instance: TourInstance) -> str:
    ends = " ".join(f"{k} {v}" for k, v in (("from", instance.start), ("ending at", instance.end)) if v)
    kind = f"{'closed' if instance.closed else 'open'} tours{' ' + ends if ends else ''}"
    if instance.closed and instance.end is None:
        return (
            f"{kind}: directed = cycles with a direction, undirected = cycles (where they start not counted)"
        )
    if instance.start is None and instance.end is None:
        return f"{kind}: directed = sequences from every start (a path from both ends), undirected = paths"
    return f"{kind}: sequences of squares (directed = undirected)"


def _paths(instance: LostKnightInstance, keep: int, time_limit: float | None, second: bool) -> Count:
    began = time.perf_counter()
    length, number = exact.count_paths(instance)
    counters = [Counter("search", number, time.perf_counter() - began)]
    squares = (0 if length is None else length + 1) * instance.board.n_free
    if second and squares > PATH_MODEL_CELLS:
        counters.append(Counter("cpsat", None, 0.0, f"{squares} step variables, over {PATH_MODEL_CELLS}"))
    elif second and length is not None:
        found = count_cpsat.enumerate_paths(instance, length, 0, time_limit)
        counters.append(_second(found))
        if found.shorter:
            counters[-1] = Counter("cpsat", None, found.seconds, f"a walk reaches S before {length} moves")
    solutions: list = []
    for path in exact.shortest_paths(instance):
        if len(solutions) >= keep:
            break
        solutions.append(path)
    tally = Count("path", number, "shortest paths: sequences of squares from C to S", tuple(counters))
    bad = tally.disagree or any(c.note.startswith("a walk") for c in counters)
    return Count(
        "path",
        None if bad else number,
        tally.convention,
        tally.counters,
        optimum=length,
        solutions=_checked("path", instance, solutions, lambda s: len(s) - 1),
    )


def _knights(instance: KnightsInstance, keep: int, time_limit: float | None, second: bool) -> Count:
    began = time.perf_counter()
    pair, refused = _timed(exact.count_knights, instance)
    counters = [refused or Counter("search", pair[1], time.perf_counter() - began)]
    found = count_cpsat.enumerate_knights(instance, keep, time_limit, not second) if second or keep else None
    if second and found is not None:
        counters.append(_second(found))
    optimum = pair[0] if pair else (found.optimum if found else None)
    number = pair[1] if pair else (found.count if found and found.complete else None)
    if pair and found and found.optimum is not None and found.optimum != pair[0]:
        counters[-1] = Counter("cpsat", None, found.seconds, f"its maximum is {found.optimum}, not {pair[0]}")
        number = None
    tally = Count("knights", number, "placements of the maximum number of knights", tuple(counters))
    solutions = _checked("knights", instance, found.solutions, len) if found else ()
    return Count(
        "knights",
        None if tally.disagree else number,
        tally.convention,
        tally.counters,
        optimum=optimum,
        solutions=solutions,
    )
