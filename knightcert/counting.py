"""Counting and enumeration: :func:`count` runs three independent counters and says which agreed.

The first counter is exact and specialised (:mod:`knightcert.algorithms.counting`: a pruned
bitmask search for tours, breadth-first layers for shortest paths, a row-by-row programme for
independent knights); the second is CP-SAT's enumeration of every solution
(:mod:`knightcert.models.count_cpsat`), built from the problem's definition alone; the third
the checker's own plain enumeration (:mod:`knightcert.problems.checkers.enumeration`), on
small instances. All three honour the side constraints. A count is reported when every
counter that finished gives it; each solution handed back is checked by the problem's
checker like any answer, side constraints included. Published counts are test references only.

Examples
--------
>>> from knightcert.problems.tours import tour_instance
>>> tally = count(tour_instance(3, 4))
>>> (tally.count, tally.directed, tally.undirected, tally.agreed)
(16, 16, 8, ('search', 'cpsat', 'checker'))
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from dataclasses import dataclass
from typing import Any

from knightcert.algorithms import counting
from knightcert.algorithms.counting import CountStopped
from knightcert.models import count_cpsat
from knightcert.models.count_cpsat import Enumeration
from knightcert.problems.argument_checks import bounded, bounded_seconds
from knightcert.problems.checkers import check
from knightcert.problems.checkers.enumeration import NODES, TOUR_NODES, enumerate_solutions
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.instance_types import instance_type
from knightcert.problems.result import Result, Status
from knightcert.problems.side_constraints import SIDE_FIELDS, sides_of
from knightcert.problems.tours import TourInstance

__all__ = ["BASE_FIELDS", "CONVENTIONS", "PATH_MODEL_CELLS", "Count", "Counter", "count"]

#: Largest path model enumerated (a Boolean per square and step, and per via square and step).
PATH_MODEL_CELLS = 200_000

#: What is counted, tours aside (:func:`_tour_convention`), and what the side constraints add.
CONVENTIONS = {
    "path": ("shortest paths: sequences of squares from C to S", " through the via squares in order"),
    "knights": ("placements of the maximum number of knights", " with the fixed knights"),
}
#: The fields of the instances the counters know, side constraints aside (any other set field is refused).
BASE_FIELDS = frozenset({"board", "closed", "start", "end", "exit", "name"})
#: The problems counted and the name of their counters (``count_tours``, ...).
COUNTED = {"tour": "tours", "path": "paths", "knights": "knights"}


@dataclass(frozen=True)
class Counter:
    """One counter's run: its count (None when it stopped or cannot take the instance), its
    seconds, why it gave no count, and the solutions it found before it stopped when they
    bound the count from below (``at_least``; never a count)."""

    name: str
    count: int | None
    seconds: float
    note: str = ""
    at_least: int | None = None


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
    def at_least(self) -> int | None:
        """With no count, the most solutions a stopped counter found (a lower bound), else None."""
        bounds = [c.at_least for c in self.counters if c.at_least is not None]
        return max(bounds) if bounds and self.count is None and not self.disagree else None

    @property
    def disagree(self) -> bool:
        """True when two counters gave different counts (or optima)."""
        return _disagree(self.counters)


def _disagree(counters: tuple[Counter, ...] | list[Counter]) -> bool:
    counts = {c.count for c in counters if c.count is not None}
    return len(counts) > 1 or any(c.note.startswith("disagrees") for c in counters)


def count(instance: Any, *, keep: int = 0, time_limit: float | None = 10.0, second: bool = True) -> Count:
    """Count the solutions of a tour, lost-knight or knights instance (with its side
    constraints) with three counters.

    Parameters
    ----------
    instance : TourInstance, LostKnightInstance or KnightsInstance
    keep : int
        Solutions to hand back (each checked): up to ``keep``.
    time_limit : float, optional
        Seconds for all counters: the search first, CP-SAT half of what it left (all of it
        when only solutions are asked for), the checker the rest. A counter stopped by it, or by
        Ctrl-C (the counters after it are then not run), gives no count, only a lower bound
        where its solutions so far make one (:attr:`Count.at_least`).
    second : bool
        Run CP-SAT's enumeration and the checker's as well (default True).

    Raises
    ------
    InvalidInstance
        Not an instance of a problem with a count (the jump game has one winner), or one with
        a field the counters do not know.
    InvalidArgument
        A time limit that is not a positive number of seconds; a ``keep`` that is not a whole
        number >= 0.
    """
    problem, plural, keep = (*_problem(instance), bounded(keep, "solutions kept", "keep"))
    deadline = None if time_limit is None else time.perf_counter() + bounded_seconds(time_limit, "time limit")
    # with solutions only (no count asked for) the tour search stops at once: CP-SAT gets the time
    pair, searched = _search(plural, instance, deadline if second or problem != "tour" else -1.0)
    optimum = None if pair is None or problem == "tour" else pair[0]
    counters, stopped = [searched], searched.note.startswith("interrupted")
    found = None if stopped else _enumeration(problem, plural, instance, optimum, (keep, deadline, second))
    if second and not stopped:
        counters.append(_cpsat_counter(found, optimum))
        if not counters[-1].note.startswith("interrupted"):
            counters.append(_checker_counter(instance, optimum, deadline))
    tally = Count(
        problem, _agreed(counters), "", tuple(counters), solutions=_checked(problem, instance, keep, found)
    )
    return _described(tally, instance, pair, optimum, found)


def _agreed(counters: list[Counter]) -> int | None:
    """The count every counter that finished gave (None when none did or two disagree)."""
    finished = {c.count for c in counters if c.count is not None}
    return None if _disagree(counters) or not finished else finished.pop()


def _described(tally: Count, instance: Any, pair: tuple | None, optimum: int | None, found: Any) -> Count:
    """The count with its convention, a tour's both counts, a path's or knights' optimum."""
    problem, number = tally.problem, tally.count
    if problem == "tour":  # the undirected count is the search's (none counted means none either way)
        undirected = pair[1] if pair is not None and pair[0] == number else None if number else number
        return dataclasses.replace(
            tally, convention=_tour_convention(instance), directed=number, undirected=undirected
        )
    text, sides = CONVENTIONS[problem]
    optimum = optimum if optimum is not None or not isinstance(found, Enumeration) else found.optimum
    return dataclasses.replace(
        tally, convention=text + sides * bool(sides_of(problem, instance)), optimum=optimum
    )


def _search(plural: str, instance: Any, deadline: float | None) -> tuple[tuple | None, Counter]:
    """The exact counter's pair (tours: directed, undirected; paths: moves, paths; knights:
    knights, placements; None when it cannot take the instance or stopped) and its run."""
    began = time.perf_counter()
    try:
        pair = getattr(counting, f"count_{plural}")(instance, *[deadline][: plural == "tours"])
    except (InvalidInstance, CountStopped) as error:
        note, *bound = error.args if isinstance(error, CountStopped) else (str(error),)
        return None, Counter("search", None, time.perf_counter() - began, note, *bound)
    return pair, Counter("search", pair[plural != "tours"], time.perf_counter() - began)


def _problem(instance: Any) -> tuple[str, str]:
    """The problem's name and plural, once its fields are known to the counters."""
    problem = next(((p, COUNTED[p]) for p in COUNTED if isinstance(instance, instance_type(p))), None)
    if problem is None:
        raise InvalidInstance(
            f"nothing to count on a {type(instance).__name__}: tours, paths and knights only"
        )
    known = BASE_FIELDS | set(SIDE_FIELDS[problem[0]])
    extra = [
        f.name for f in dataclasses.fields(instance) if f.name not in known and getattr(instance, f.name)
    ]
    if extra:  # a field the counters would ignore: refused, never counted as the base problem
        raise InvalidInstance(f"counting does not know the field {extra[0]!r} of the instance")
    return problem


def _enumeration(problem: str, plural: str, instance: Any, optimum: int | None, asked: tuple) -> Any:
    """CP-SAT's enumeration (None when not run): every solution, or the first ``keep`` when
    only solutions are asked for; paths need the search's length, within the model's size
    (else the size, an int). ``asked``: solutions to keep, the deadline, whether to count."""
    keep, deadline, second = asked
    time_limit = None if deadline is None else max(deadline - time.perf_counter(), 0.0) / (1 + second)
    if problem == "path":
        if not second or optimum is None:
            return None
        cells = (optimum + 1) * instance.board.n_free * (len(instance.via) + 1)
        return (
            cells
            if cells > PATH_MODEL_CELLS
            else count_cpsat.enumerate_paths(instance, optimum, 0, time_limit)
        )
    if not (second or keep):
        return None
    return getattr(count_cpsat, f"enumerate_{plural}")(instance, keep, time_limit, not second)


def _cpsat_counter(found: Any, optimum: int | None) -> Counter:
    if isinstance(found, int):  # a path model too large to build
        return Counter("cpsat", None, 0.0, f"{found} step variables, over {PATH_MODEL_CELLS}")
    if found is None:
        return Counter("cpsat", None, 0.0, "not run")
    stopped = "interrupted" if found.interrupted else "stopped at the time limit"
    note = "" if found.complete else f"{stopped}: at least {found.count}"
    if found.shorter:
        note = f"disagrees: a walk reaches S in fewer than {optimum} moves"
    elif found.optimum is not None and optimum is not None and found.optimum != optimum:
        note = f"disagrees: its maximum is {found.optimum}, not {optimum}"
    bound = None if found.complete or note.startswith("disagrees") else found.count
    return Counter("cpsat", found.count if found.complete and not note else None, found.seconds, note, bound)


def _checker_counter(instance: Any, optimum: int | None, deadline: float | None) -> Counter:
    began = time.perf_counter()
    try:
        got = enumerate_solutions(instance, NODES, TOUR_NODES, deadline)
    except KeyboardInterrupt:
        return Counter("checker", None, time.perf_counter() - began, "interrupted")
    seconds, over = time.perf_counter() - began, f"{TOUR_NODES:,} tour nodes, {NODES:,} steps else"
    if got is None:
        return Counter("checker", None, seconds, f"over its budget ({over}), the time limit or board size")
    if optimum is not None and got[0] not in (None, optimum):
        return Counter("checker", None, seconds, f"disagrees: its optimum is {got[0]}, not {optimum}")
    return Counter("checker", got[1], seconds)


def _checked(problem: str, instance: Any, keep: int, found: Any) -> tuple[Any, ...]:
    """The solutions asked for, each checked as any answer (side constraints included)."""
    if problem == "path":
        solutions = list(itertools.islice(counting.shortest_paths(instance), keep))
    else:
        solutions = [] if found is None else found.solutions
    for solution in solutions:
        size = len(solution) - (problem == "path")
        check(instance, Result(problem, "count", Status.FEASIBLE, size, None, solution, 0.0))
    return tuple(solutions)


def _tour_convention(instance: TourInstance) -> str:
    ends = " ".join(f"{k} {v}" for k, v in (("from", instance.start), ("ending at", instance.end)) if v)
    sides = " under " + ", ".join(sides_of("tour", instance)) if sides_of("tour", instance) else ""
    kind = f"{'closed' if instance.closed else 'open'} tours{' ' + ends if ends else ''}{sides}"
    if instance.closed and (instance.start is None or instance.end is None):
        return (
            f"{kind}: directed = cycles with a direction, undirected = cycles (where they start not counted)"
        )
    if instance.start is None and instance.end is None:
        return f"{kind}: directed = sequences from every start (a path from both ends), undirected = paths"
    return f"{kind}: sequences of squares (directed = undirected)"
