"""Run several methods on several instances, check every answer, report gaps.

Every answer is re-checked by the problem's independent checker
(:func:`knightcert.problems.checkers.certify`) before it becomes a row,
whichever method produced it and whatever it says about itself.

The gap of an answer is ``|value - best| / best`` where ``best`` is the
reference value of the instance, in this order: a *certified* optimum in the
same comparison, or of its reference run (``certified_optima``); else an optimum
proven only by a solver, when the solvers agree; else the instance's published
optimum. Without a certified optimum an exact method's gap is its own distance to
its proven bound. A gap on an uncertified value says so in the row's ``reference``. A tour
heuristic that dead-ends has no answer, but its gap is ``1 - covered / best``
(``covered`` = squares its longest partial tour reached, ``best`` = usable
squares when a tour exists); a tour has gap 0.

Cross-check conflicts never stop a comparison; the rows that lack a
certificate are marked in ``error``: ``"conflicts with a certified optimum
of N"``, ``"two uncertified optima disagree"``, ``"a verified answer of V
(method) beats this optimum"``; a verified answer better than a published
optimum is marked ``"beats the published optimum of N"``.

A foreign method (:mod:`knightcert.registry`) is a suspect: its
optimality claims count only when the checker certified them; an uncertified
one never becomes the reference, and one that differs from the reference is
marked ``"claims optimal N (unproven); the certified optimum is M"`` (``the
reference value is M`` when the reference is not certified).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from knightcert.problems.checkers import certify
from knightcert.problems.checkers.common import MINIMISE
from knightcert.problems.result import Result, Status
from knightcert.registry import is_exact

__all__ = [
    "COLUMNS",
    "STOPPED_PREFIXES",
    "Row",
    "describe_evidence",
    "failed_row",
    "fill_gaps",
    "grouped",
    "median_of_repeats",
    "row_from_result",
]

COLUMNS = (
    "problem",
    "instance",
    "method",
    "kind",
    "origin",
    "status",
    "objective",
    "bound",
    "gap",
    "time_s",
    "check_s",
    "peak_mb",
    "nodes",
    "verified",
    "certified",
    "evidence",
    "error",
)


@dataclass
class Row:
    """One (instance, method) run as reported."""

    problem: str
    instance: str
    method: str
    status: str
    objective: float | int | None
    bound: float | int | None
    gap: float | None
    time_s: float
    peak_mb: float | None
    nodes: int | None
    verified: bool
    error: str = ""
    certified: bool = False
    evidence: str = ""
    size: int | None = None
    repeat: int = 0
    seed: int | None = None  # the run's derived seed
    instance_hash: str = ""  # SHA-256 of the instance's content
    known_optimum: float | int | None = field(default=None, repr=False)
    covered: int | None = None
    kind: str = ""  # "exact" or "heuristic", as declared
    origin: str = ""  # where the method comes from: "built-in", "registered", "plug-in", "python", "program"
    reference: str = ""  # where the gap's reference value came from, or why there is none
    cpu_s: float | None = None  # CPU seconds of the run (its process and children; None: not measured)
    load: float | None = None  # the machine's 1-minute load average when the run started
    check_s: float | None = None  # seconds the independent check took (beside time_s, never in it)
    warm_s: float | None = None  # seconds this run spent loading the method's code first (beside time_s)
    answer: str = ""  # the run's answer, FILE#LINE relative to the report's folder ("": none saved)

    @property
    def time(self) -> float:
        """``time_s`` under the name :class:`~knightcert.problems.result.Result` gives it."""
        return self.time_s

    @property
    def foreign(self) -> bool:
        """A method from outside the project: its uncertified claims never serve as a reference."""
        return self.origin not in ("", "built-in")

    @property
    def exact(self) -> bool:
        """A built-in exact method (whose own bound is a proven one)."""
        built_in = self.origin == "built-in" and self.kind == "exact"
        return built_in if self.origin else is_exact(self.problem, self.method)  # no origin: an older report

    def as_dict(self) -> dict[str, Any]:
        """The row's fields but ``known_optimum`` (all plain values: no copy needed)."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__ if name != "known_optimum"}

    @property
    def key(self) -> tuple[str, str, str, int]:
        """What identifies a run (for resuming)."""
        return (self.problem, self.instance, self.method, self.repeat)


def row_from_result(
    result: Result,
    known_optimum: float | int | None = None,
    peak_mb: float | None = None,
    *,
    instance: Any = None,
    checked: bool = False,
) -> Row:
    """The row of one run; with ``instance`` the answer is checked first by
    :func:`~knightcert.problems.checkers.certify`, unless ``checked`` (the run path has just
    certified it against ``instance``), and a tour's dead end is replayed for ``covered``."""
    if instance is not None and not checked:
        result = certify(instance, result)
    return Row(
        result.problem,
        result.instance,
        result.method,
        result.status.value,
        result.objective,
        result.bound,
        None,
        result.time,
        peak_mb,
        result.nodes,
        result.verified,
        result.info.get("check_error") or _no_answer_reason(result),
        certified=result.certified,
        evidence=describe_evidence(result.evidence),
        known_optimum=known_optimum,
        covered=_covered(result, instance),
        check_s=None if result.check_time is None else round(result.check_time, 6),
        warm_s=_seconds(result.record.warm_s),
    )


def _seconds(value: Any) -> float | None:
    """A runner-owned time of ``Result.info`` as a row's figure: a finite number of seconds >= 0,
    else None (never a foreign method's value: its own ``info`` is kept under ``method_info``)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    value = float(value)
    return round(value, 6) if math.isfinite(value) and value >= 0 else None


def _covered(result: Result, instance: Any) -> int | None:
    """Squares a tour method's dead end covered, from the partial tour it hands over
    (``certificate["partial"]``) replayed by the checker; never the method's own count."""
    if result.problem != "tour" or result.objective is not None or instance is None:
        return None
    from knightcert.problems.checkers.tour import partial_tour_length

    certificate = result.certificate if isinstance(result.certificate, dict) else {}
    return partial_tour_length(instance, certificate.get("partial"))


def describe_evidence(evidence) -> str:
    """``answer: certificate (placement checked); optimal: solver (CP-SAT)``: one readable cell."""
    return "; ".join(f"{e.claim}: {e.backing.value}" + (f" ({e.how})" if e.how else "") for e in evidence)


def _no_answer_reason(result: Result) -> str:
    """Why a run has no answer: the method's own reason (``record.stopped``), else what
    happened, without guessing at a cause (a method may give up long before its time limit).

    Examples
    --------
    >>> from knightcert.problems.result import Result, Status
    >>> _no_answer_reason(Result("tour", "roth", Status.UNKNOWN, None, None, None, 0.0012))
    'no answer: the method returned no solution (UNKNOWN after 0.0012 s)'
    """
    if result.status is not Status.UNKNOWN or result.solution is not None:
        return ""
    stopped = result.record.stopped or ""
    if stopped.startswith(STOPPED_PREFIXES):  # said by the containment: what happened, as is
        return stopped
    return "no answer: " + (stopped or f"the method returned no solution (UNKNOWN after {result.time:.2g} s)")


#: Reasons a contained method's run ended that are a row's whole error text.
STOPPED_PREFIXES = ("crash:", "time limit:", "memory limit:")


def failed_row(problem: str, instance: str, method: str, error: str, elapsed: float) -> Row:
    return Row(
        problem, instance, method, Status.UNKNOWN.value, None, None, None, elapsed, None, None, False, error
    )


def grouped(rows: Iterable[Row], key: Callable[[Row], Any]) -> dict[Any, list[Row]]:
    """``rows`` by ``key``: groups in order of first appearance, each in the order of ``rows``."""
    groups: dict[Any, list[Row]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    return groups


def fill_gaps(
    rows: Iterable[Row], known_optima: dict[str, float | int] | None = None, certified_optima: Any = None
) -> None:
    """Set ``gap`` on every row and mark cross-check conflicts in ``error`` (never raises);
    ``known_optima`` published, ``certified_optima`` the reference runs' (by instance name).

    See the module docstring for the reference value and the conflict texts.
    """
    for instance, group in grouped(rows, lambda row: row.instance).items():
        known = [(certified_optima or {}).get(instance), (known_optima or {}).get(instance)]
        best, certified = _reference(group, *known)
        _infeasible_conflicts(group)  # marks infeasibility claims an answer refutes
        for row in group:
            row.gap = _gap(row, best, certified)
            basis = "its own bound" if not certified and row.exact and row.bound is not None else best
            if row.gap is not None and not certified and f"on {basis}, uncertified" not in row.reference:
                row.reference = "; ".join(filter(None, (row.reference, f"gap on {basis}, uncertified")))


def _mark(row: Row, text: str) -> None:
    if text not in row.error:
        row.error = f"{row.error}; {text}" if row.error else text


def _better(problem: str, a: float | int | None, b: float | int | None) -> bool:
    # no value beats nothing, and nothing is beaten
    return False if a is None or b is None else a < b if MINIMISE.get(problem, True) else a > b


def _reference(
    group: list[Row], proven: float | int | None, known: float | int | None
) -> tuple[float | int | None, bool]:
    """The instance's reference value and whether it is certified; marks conflicting rows.

    The gap policy, in order (each step only when the ones before gave no value):

    1. a *certified* optimum of a run (certified optima that disagree: a checker bug, none), else
       ``proven``, the reference run's;
    2. an optimum proven only by a built-in solver, when those solvers agree;
    3. ... unless a verified answer beats it: then it is no reference;
    4. on a tour problem, any verified tour (a tour covers every usable square);
    5. the instance's published optimum.

    A foreign method's unproven optimum never serves (:func:`_mark_unproven`).
    """
    optimal = [
        r for r in group if r.status == Status.OPTIMAL.value and r.verified and r.objective is not None
    ]
    answers = [r for r in group if r.verified and r.objective is not None and r.status != "INFEASIBLE"]
    best, certified = _certified_optimum([r for r in optimal if r.certified], optimal, answers)
    if best is None and proven is not None:
        best, certified = _published(answers, proven, "certified"), True
    if best is None:
        best = _solver_optimum([r for r in optimal if not r.certified and not r.foreign], answers)
    if best is None:
        best, certified = _any_tour(answers)
    if best is None and known is not None:
        best, certified = _published(answers, known), False
    _mark_unproven([r for r in optimal if not r.certified and r.foreign], best, certified)
    return best, certified


def _certified_optimum(
    certified: list[Row], optimal: list[Row], answers: list[Row]
) -> tuple[float | int | None, bool]:
    """Step 1: the certified optimum (None when certified optima disagree: a checker bug); every
    uncertified optimum that differs from it and every answer that beats it is marked."""
    if len({r.objective for r in certified}) > 1:
        for row in certified:
            _mark(row, "two certified optima disagree (a checker bug)")
        return None, False
    if not certified:
        return None, False
    best = certified[0].objective
    for row in optimal:
        if not row.certified and not row.foreign and row.objective != best:
            _mark(row, f"conflicts with a certified optimum of {best}")
    for row in answers:
        if _better(row.problem, row.objective, best):
            _mark(row, f"beats the certified optimum of {best} (a checker bug)")
    return best, True


def _solver_optimum(uncertified: list[Row], answers: list[Row]) -> float | int | None:
    """Steps 2 and 3: the optimum the built-in solvers agree on, unless a verified answer beats it
    (then every such claim is marked and there is none)."""
    if len({r.objective for r in uncertified}) > 1:
        for row in uncertified:
            _mark(row, "two uncertified optima disagree")
        return None
    if not uncertified:
        return None
    best = uncertified[0].objective
    beaten = [r for r in answers if _better(r.problem, r.objective, best)]
    if not beaten:
        return best
    for row in uncertified:
        _mark(row, f"a verified answer of {beaten[0].objective} ({beaten[0].method}) beats this optimum")
    return None


def _any_tour(answers: list[Row]) -> tuple[float | int | None, bool]:
    """Step 4: every tour of a board covers all its usable squares: a verified one is the optimum."""
    tours = [r for r in answers if r.problem == "tour"]
    return (tours[0].objective, all(r.certified for r in tours)) if tours else (None, False)


def _published(answers: list[Row], known: float | int, what: str = "published") -> float | int:
    """Step 5 (and 1, the reference run's): the published optimum; an answer better than it is marked."""
    for row in answers:
        if _better(row.problem, row.objective, known):
            _mark(row, f"beats the {what} optimum of {known}")
    return known


def _mark_unproven(unproven: list[Row], best: float | int | None, certified: bool) -> None:
    """A foreign method's unproven optimum that differs from the reference is marked."""
    if best is None:
        return
    where = "certified optimum" if certified else "reference value"
    for row in unproven:
        if row.objective != best:
            _mark(row, f"claims optimal {row.objective} (unproven); the {where} is {best}")


def _infeasible_conflicts(group: list[Row]) -> bool:
    """Whether the instance is (consistently) infeasible; marks infeasibility claims an answer refutes."""
    claims = [r for r in group if r.status == Status.INFEASIBLE.value and r.verified]
    answered = [r for r in group if r.verified and r.status in ("OPTIMAL", "FEASIBLE")]
    if claims and answered:
        for row in claims:
            _mark(row, f"conflicts with a verified answer by {answered[0].method}")
        return False
    return bool(claims)


def _gap(row: Row, best: float | int | None, certified: bool) -> float | None:
    if row.status == Status.INFEASIBLE.value:
        return None  # no solution: a gap means nothing (a 0 % would read as one); the claim's
        # correctness shows in verified/certified and, for conflicts, in error
    if row.problem == "tour" and row.objective is None and row.covered is not None and best:
        return 1 - row.covered / best  # a dead end: the share of usable squares left out
    if row.objective is None or not row.verified:
        return None
    if not certified and row.exact and row.bound is not None:
        best = row.bound  # an exact method: its own distance to its proven bound
    if best is None:
        return None
    return (0.0 if row.objective == 0 else math.inf) if best == 0 else abs(row.objective - best) / abs(best)


def median_of_repeats(rows: Sequence[Row]) -> list[Row]:
    """One row per (problem, instance, method): the first repeat's answer, the median
    time and the largest peak memory over its repeats; ``verified`` only if all are."""
    import statistics
    from dataclasses import replace

    merged = []
    for runs in grouped(rows, lambda row: (row.problem, row.instance, row.method)).values():
        first = min(runs, key=lambda r: r.repeat)
        peaks = [r.peak_mb for r in runs if r.peak_mb is not None]
        merged.append(
            replace(
                first,
                time_s=statistics.median(r.time_s for r in runs),
                peak_mb=max(peaks) if peaks else None,
                verified=all(r.verified for r in runs),
                certified=all(r.certified for r in runs),
            )
        )
    return merged
