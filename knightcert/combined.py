"""Methods that combine a heuristic with an exact model, as the seeds describe them.

Models never import heuristics (the dependency rule), so the combinations
live here, one layer up, and the registry points at them:

``knights cpsat``
    on bipartite boards (plain boards, tori with even sides) CP-SAT bounded by Kőnig's
    theorem: a maximum matching's size gives the exact optimum (usable squares less the
    matching), added to the model as ``sum <= bound``, and the matching's independent set
    is the hint, so that the search only has to reach the bound; the matching goes with
    the answer as its certificate (the checker validates it). On a full torus with one odd
    side a band bound (:mod:`knightcert.problems.checkers.knights_band`) proves the optimum:
    the strip placement when it meets the bound, else the band count's own placement when the
    band is the whole torus (no search; past the size of its table, CP-SAT bounded by that
    exact count); the band goes with the answer as its certificate.
    On other boards (odd tori) CP-SAT started from seed 002's greedy placement (a solution
    hint); where the checker
    has no certificate of its own for the bound (past its search), CaDiCaL then writes a
    DRAT proof of it (:mod:`knightcert.models.knights_sat`), attached as ``certificate["drat"]``.
``knights bnb``
    seed 002's branch and bound with the greedy value as first incumbent.
``tour cpsat``
    CP-SAT's circuit model with a hint, unless the caller gives one: on a full plain
    board without a fixed end the linear-time construction's tour
    (:mod:`knightcert.heuristics.tour_divide`), a complete assignment that CP-SAT checks
    and returns without presolve or search (0.1 s of solving for a closed 60 x 60 tour,
    12.7 s of search without it); elsewhere the squares Warnsdorff's rule visits before
    its first dead end. The tour returned is CP-SAT's, and it is checked as any other.

The greedy step's time is added to the reported time, and counts against
``time_limit``: the exact method gets what is left of it.
"""

from __future__ import annotations

from typing import Any

from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import check_arguments
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance

__all__ = ["knights_bnb", "knights_cpsat", "tour_cpsat"]


def knights_cpsat(instance: KnightsInstance, **options: Any) -> Result:
    """``knightcert.models.knights_cpsat.cpsat``: on bipartite boards bounded by Kőnig's theorem,
    with the matching's independent set as hint and the matching as certificate (checked once,
    at the end); on full tori with one odd side the band bound's optimum; on other odd tori
    with the greedy placement as hint (module docstring)."""
    check_arguments("knights", instance, options.get("time_limit"), options.get("seed"))
    board = instance.board
    if board.torus and (board.rows % 2 or board.cols % 2):
        return _odd_torus(instance, options)
    from knightcert.algorithms.knights_matching import matching
    from knightcert.heuristics.knights_greedy import greedy
    from knightcert.models.knights_cpsat import cpsat
    from knightcert.problems.checkers import certify

    check = options.pop("check", True)  # checked once, at the end, with the matching attached
    start = matching(instance, time_limit=options.get("time_limit"), check=False)
    if start.status is not Status.OPTIMAL:  # the time limit stopped the matching: the greedy placement
        result = _at_least_the_start(start.with_(method="cpsat"), greedy(instance, check=False))
        return certify(instance, result) if check else result
    result = cpsat(
        instance,
        hint=start.solution,
        hint_source="matching (Kőnig independent set)",
        upper_bound=start.objective,
        bound_source="matching (Kőnig)",
        check=False,
        **_time_left(options, start.time),
    )
    result = _at_least_the_start(result, start)
    info = {**result.info, "matching_s": round(start.time, 6)}
    result = result.with_(certificate=start.certificate, info=info)
    return certify(instance, result) if check else result


def _odd_torus(instance: KnightsInstance, options: dict[str, Any]) -> Result:
    """A torus with an odd side: where a band proves the optimum (a full torus with one odd side,
    ``band_optimum``) a placement that meets it at once, or, when the whole torus's band is too
    long to build its placement, CP-SAT bounded by the band's exact count, with the band as
    certificate; elsewhere CP-SAT from the greedy placement, then a proof of its bound where
    the checker needs one."""
    from knightcert.models.knights_band import band_optimum
    from knightcert.problems.checkers import certify

    known, band = band_optimum(instance)
    if known is not None:
        return certify(instance, known) if options.get("check", True) else known
    from knightcert.heuristics.knights_greedy import greedy
    from knightcert.models.knights_cpsat import cpsat

    start = greedy(instance, check=False)
    if band is None:
        result = cpsat(instance, hint=start.solution, hint_source="greedy", **_time_left(options, start.time))
        return _with_proof(instance, _at_least_the_start(result, start), options)
    check = options.pop("check", True)  # checked once, at the end, with the band attached
    result = cpsat(
        instance,
        hint=start.solution,
        hint_source="greedy",
        upper_bound=band.bound,
        bound_source=band.how(),
        check=False,
        **_time_left(options, start.time),
    )
    info = {**result.info, "band_s": round(band.seconds, 6)}
    result = _at_least_the_start(result, start).with_(certificate={"band": band.entry()}, info=info)
    return certify(instance, result) if check else result


def _with_proof(instance: KnightsInstance, result: Result, options: dict[str, Any]) -> Result:
    """``result`` with a DRAT proof of its upper bound attached, where the checker needs one:
    a board that is not bipartite and past the checker's own search. The proof's time is
    added to the result's time (and ``info["proof_s"]``); without a proof (time out) the
    result is unchanged but for ``info["proof"]``."""
    from knightcert.models.knights_sat import prove_upper_bound
    from knightcert.problems.checkers.knights import SEARCH_SQUARES, bipartite

    upper = result.objective if result.status is Status.OPTIMAL else result.bound
    board = instance.board
    if upper is None or bipartite(board) or board.n_free <= SEARCH_SQUARES:
        return result
    limit = options.get("time_limit")
    left = None if limit is None else max(limit - result.time, 1e-3)
    entry, info = prove_upper_bound(instance, int(upper), time_limit=left)
    info = {**result.info, **info}
    if entry is None:
        return result.with_(info=info)
    certificate = dict(result.certificate) if isinstance(result.certificate, dict) else {}
    return result.with_(
        certificate={**certificate, "drat": entry}, info=info, time=result.time + info["proof_s"]
    )


def knights_bnb(instance: KnightsInstance, **options: Any) -> Result:
    """``knightcert.algorithms.knights_bnb.bnb`` starting from the greedy placement."""
    from knightcert.algorithms.knights_bnb import bnb
    from knightcert.heuristics.knights_greedy import greedy

    check_arguments("knights", instance, options.get("time_limit"), options.get("seed"))
    start = greedy(instance, check=False)
    result = bnb(instance, incumbent=start.solution, **_time_left(options, start.time))
    return _at_least_the_start(result, start)


def tour_cpsat(instance: TourInstance, **options: Any) -> Result:
    """``knightcert.models.tour_cpsat.cpsat`` with the construction's tour (full boards) or
    Warnsdorff's path (elsewhere) as hint when the caller gives none (module docstring); the
    hint's time is added to the reported time and counts against ``time_limit``."""
    import time

    from knightcert.models.tour_cpsat import cpsat

    check_arguments("tour", instance, options.get("time_limit"), options.get("seed"))
    if options.get("hint") is not None:
        return cpsat(instance, **options)
    began = time.perf_counter()
    hint, source = _tour_hint(instance)
    spent = time.perf_counter() - began
    result = cpsat(instance, hint=hint, hint_source=source, **_time_left(options, spent))
    return result.with_(time=result.time + spent, info={**result.info, "hint_s": round(spent, 6)})


def _tour_hint(instance: TourInstance) -> tuple[list[list[int]] | Any, str]:
    """The construction's tour where it applies (a full plain board, no fixed end, a tour by
    the theorems, a start it can place), else the squares of Warnsdorff's path."""
    from knightcert.heuristics.tour_warnsdorff import greedy_path
    from knightcert.problems.tours import full_board_reason

    board = instance.board
    full = not board.blocked.any() and not board.torus and instance.end is None
    closed, start = instance.closed, instance.start
    if full and full_board_reason(board.rows, board.cols, closed=closed, start=start) is None:
        from knightcert.heuristics.tour_divide import construct

        squares = construct(board.rows, board.cols, closed=closed, start=start)
        if squares is not None:
            return squares, "divide"
    return greedy_path(instance), "warnsdorff"


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
