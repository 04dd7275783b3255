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

import dataclasses
import itertools
import time
from dataclasses import dataclass
from typing import Any

from knightcert.algorithms import counting
from knightcert.models import count_cpsat
from knightcert.problems.checkers import check
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance

__all__ = ["BASE_FIELDS", "CONVENTIONS", "COUNTERS", "PATH_MODEL_CELLS", "Count", "Counter", "count"]

#: Largest path model enumerated (a Boolean per square and step).
PATH_MODEL_CELLS = 200_000

#: What is counted, tours aside (:func:`_tour_convention`).
CONVENTIONS = {
    "path": "shortest paths: sequences of squares from C to S",
    "knights": "placements of the maximum number of knights",
}
#: The fields of the instances the counters know (any other set field is refused).
BASE_FIELDS = frozenset({"board", "closed", "start", "end", "exit", "name"})
#: The name of each problem's counters (``count_tours``, ``enumerate_tours``, ...).
PLURAL = {"tour": "tours", "path": "paths", "knights": "knights"}
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
        """True when two counters gave different counts (or optima)."""
        return _disagree(self.counters)


def _disagree(counters: tuple[Counter, ...] | list[Counter]) -> bool:
    counts = {c.count for c in counters if c.count is not None}
    return len(counts) > 1 or any(c.note.startswith("disagrees") for c in counters)


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
    kinds = {TourInstance: "tour", LostKnightInstance: "path", KnightsInstance: "knights"}
    problem = next((name for kind, name in kinds.items() if isinstance(instance, kind)), None)
    if problem is None:
        raise InvalidInstance(
            f"nothing to count on a {type(instance).__name__}: tours, paths and knights only"
        )
    extra = [
        f.name
        for f in dataclasses.fields(instance)
        if f.name not in BASE_FIELDS and getattr(instance, f.name)
    ]
    if extra:  # a side constraint the counters would ignore: refused, never counted as the base problem
        raise InvalidInstance(f"counting takes no side constraint yet: the instance has {extra[0]!r}")
    began = time.perf_counter()
    try:  # tours: (directed, undirected); paths: (moves, paths); knights: (knights, placements)
        exact_pair = getattr(counting, f"count_{PLURAL[problem]}")(instance)
        counters = [Counter("search", exact_pair[problem != "tour"], time.perf_counter() - began)]
    except InvalidInstance as error:
        exact_pair, counters = None, [Counter("search", None, time.perf_counter() - began, str(error))]
    optimum = None if exact_pair is None or problem == "tour" else exact_pair[0]
    found = None
    if problem == "path" and second and optimum is not None:
        cells = (optimum + 1) * instance.board.n_free
        if cells > PATH_MODEL_CELLS:
            counters.append(Counter("cpsat", None, 0.0, f"{cells} step variables, over {PATH_MODEL_CELLS}"))
        else:
            found = count_cpsat.enumerate_paths(instance, optimum, 0, time_limit)
    elif problem != "path" and (second or keep):
        found = getattr(count_cpsat, f"enumerate_{PLURAL[problem]}")(instance, keep, time_limit, not second)
    if second and found is not None:
        note = "" if found.complete else f"stopped after {found.count} solutions (time limit)"
        if found.shorter:
            note = f"disagrees: a walk reaches S in fewer than {optimum} moves"
        elif found.optimum is not None and optimum is not None and found.optimum != optimum:
            note = f"disagrees: its maximum is {found.optimum}, not {optimum}"
        counters.append(
            Counter("cpsat", found.count if found.complete and not note else None, found.seconds, note)
        )
    finished = {c.count for c in counters if c.count is not None}
    number = None if _disagree(counters) or not finished else finished.pop()
    if problem == "path":
        solutions = list(itertools.islice(counting.shortest_paths(instance), keep))
    else:
        solutions = [] if found is None else found.solutions
        optimum = optimum if optimum is not None or found is None else found.optimum
    for solution in solutions:  # each checked as any answer
        size = len(solution) - (problem == "path")
        check(instance, Result(problem, "count", Status.FEASIBLE, size, None, solution, 0.0))
    return Count(
        problem,
        number,
        _tour_convention(instance) if problem == "tour" else CONVENTIONS[problem],
        tuple(counters),
        number if problem == "tour" else None,
        _undirected(instance, number) if problem == "tour" else None,
        optimum,
        tuple(solutions),
    )


def _undirected(instance: TourInstance, directed: int | None) -> int | None:
    """Undirected tours (sets of moves) from directed ones: each counted twice, once per
    direction, unless the direction is fixed (an open tour's start or end, a closed one's both)."""
    if directed is None or instance.board.n_free == 1:
        return directed
    fixed = (instance.start is not None, instance.end is not None)
    halved = not all(fixed) if instance.closed else not any(fixed)
    return directed // 2 if halved else directed


def _tour_convention(instance: TourInstance) -> str:
    ends = " ".join(f"{k} {v}" for k, v in (("from", instance.start), ("ending at", instance.end)) if v)
    kind = f"{'closed' if instance.closed else 'open'} tours{' ' + ends if ends else ''}"
    if instance.closed and (instance.start is None or instance.end is None):
        return (
            f"{kind}: directed = cycles with a direction, undirected = cycles (where they start not counted)"
        )
    if instance.start is None and instance.end is None:
        return f"{kind}: directed = sequences from every start (a path from both ends), undirected = paths"
    return f"{kind}: sequences of squares (directed = undirected)"
