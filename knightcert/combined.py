"""Methods that combine a heuristic with an exact model, as the seeds describe them.

Models never import heuristics (the dependency rule), so the combinations
live here, one layer up, and the registry points at them:

``knights cpsat``
    CP-SAT started from seed 002's greedy placement (a solution hint).
``knights bnb``
    seed 002's branch and bound with the greedy value as first incumbent.

The greedy step's time is added to the reported time, and counts against
``time_limit``: the exact method gets what is left of it.
"""

from __future__ import annotations

from typing import Any

from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import check_arguments
from knightcert.problems.result import Result, Status

__all__ = ["knights_bnb", "knights_cpsat"]


def knights_cpsat(instance: KnightsInstance, **options: Any) -> Result:
    """``knightcert.models.knights_cpsat.cpsat`` with the greedy placement as hint."""
    from knightcert.heuristics.knights_greedy import greedy
    from knightcert.models.knights_cpsat import cpsat

    check_arguments("knights", instance, options.get("time_limit"), options.get("seed"))
    start = greedy(instance, check=False)
    result = cpsat(instance, hint=start.solution, hint_source="greedy", **_time_left(options, start.time))
    return _at_least_the_start(result, start)


def knights_bnb(instance: KnightsInstance, **options: Any) -> Result:
    """``knightcert.algorithms.knights_bnb.bnb`` starting from the greedy placement."""
    from knightcert.algorithms.knights_bnb import bnb
    from knightcert.heuristics.knights_greedy import greedy

    check_arguments("knights", instance, options.get("time_limit"), options.get("seed"))
    start = greedy(instance, check=False)
    result = bnb(instance, incumbent=start.solution, **_time_left(options, start.time))
    return _at_least_the_start(result, start)


def _time_left(options: dict[str, Any], spent: float) -> dict[str, Any]:
    """``options`` with ``time_limit`` reduced by the ``spent`` seconds (kept positive)."""
    if options.get("time_limit") is None:
        return options
    return {**options, "time_limit": max(options["time_limit"] - spent, 1e-3)}


def _at_least_the_start(result: Result, start: Result) -> Result:
    """The exact method's result with the greedy start's time added; when the exact method
    stopped without a placement (time limit, interruption), the greedy placement instead,
    as ``FEASIBLE`` with the exact method's bound if it proved one."""
    time_s = result.time + start.time
    if result.solution is not None or start.solution is None:
        return result.with_(time=time_s)
    why = result.info.get("stopped") or "no placement within the time limit"
    return result.with_(
        status=Status.FEASIBLE,
        objective=start.objective,
        solution=start.solution,
        time=time_s,
        info={**result.info, "stopped": f"{why}; the greedy start is the best placement found"},
    )
