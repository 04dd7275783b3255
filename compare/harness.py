"""Run several methods on several instances, check every answer, report gaps.

The gap of a heuristic answer is ``|value - best| / best`` where ``best`` is
the best proven value of the instance (an ``OPTIMAL`` answer of an exact
method in the same comparison, or the instance's known optimum). The gap of
an exact method is its own relative distance to its proven bound.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from knightcert.compare.registry import is_exact
from knightcert.problems.errors import KnightcertError
from knightcert.problems.result import Result, Status

COLUMNS = (
    "problem",
    "instance",
    "method",
    "status",
    "objective",
    "bound",
    "gap",
    "time_s",
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

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("known_optimum")
        return data

    @property
    def key(self) -> tuple[str, str, str, int]:
        """What identifies a run (for resuming)."""
        return (self.problem, self.instance, self.method, self.repeat)


def row_from_result(
    result: Result, known_optimum: float | int | None = None, peak_mb: float | None = None
) -> Row:
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
    )


def describe_evidence(evidence) -> str:
    """``optimal: certificate (matching (Kőnig)); ...``: one readable cell for reports."""
    return "; ".join(f"{e.claim}: {e.backing.value}" + (f" ({e.how})" if e.how else "") for e in evidence)


def _no_answer_reason(result: Result) -> str:
    if result.status is not Status.UNKNOWN or result.solution is not None:
        return ""
    return "no answer: " + str(result.info.get("stopped") or "time limit reached without a solution")


def failed_row(problem: str, instance: str, method: str, error: str, elapsed: float) -> Row:
    return Row(
        problem, instance, method, Status.UNKNOWN.value, None, None, None, elapsed, None, None, False, error
    )


def fill_gaps(rows: Iterable[Row], known_optima: dict[str, float | int] | None = None) -> None:
    """Set ``gap`` on every row from the best proven value of its instance.

    Raises
    ------
    KnightcertError
        When two verified proofs of optimality disagree (a bug somewhere).
    """
    rows = list(rows)
    best: dict[str, float | int] = dict(known_optima or {})
    for row in rows:
        if row.status == Status.OPTIMAL.value and row.verified and row.objective is not None:
            if row.instance in best and best[row.instance] != row.objective:
                raise KnightcertError(
                    f"{row.instance}: proven optima disagree ({best[row.instance]} vs "
                    f"{row.objective} from {row.method})"
                )
            best[row.instance] = row.objective
    infeasible = {row.instance for row in rows if row.status == Status.INFEASIBLE.value and row.verified}
    for row in rows:
        row.gap = _gap(row, best.get(row.instance), row.instance in infeasible)


def _gap(row: Row, best: float | int | None, infeasible: bool) -> float | None:
    if row.status == Status.INFEASIBLE.value:
        return 0.0 if row.verified else None
    if row.objective is None or not row.verified:
        return None
    if is_exact(row.problem, row.method) and row.bound is not None:
        best = row.bound  # an exact method: its own distance to its proven bound
    if best is None:
        return None
    if best == 0:
        return 0.0 if row.objective == 0 else math.inf
    return abs(row.objective - best) / abs(best)


def median_of_repeats(rows: Sequence[Row]) -> list[Row]:
    """One row per (problem, instance, method): the first repeat's answer, the median
    time and the largest peak memory over its repeats; ``verified`` only if all are."""
    import statistics
    from dataclasses import replace

    groups: dict[tuple[str, str, str], list[Row]] = {}
    for row in rows:
        groups.setdefault((row.problem, row.instance, row.method), []).append(row)
    merged = []
    for runs in groups.values():
        first = min(runs, key=lambda r: r.repeat)
        peaks = [r.peak_mb for r in runs if r.peak_mb is not None]
        merged.append(
            replace(
                first,
                time_s=statistics.median(r.time_s for r in runs),
                peak_mb=max(peaks) if peaks else None,
                verified=all(r.verified for r in runs),
            )
        )
    return merged
