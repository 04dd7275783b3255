"""``auto``: the default tour method, a dispatcher over the tour methods.

Rules, in order (see docs/tours.md):

1. **Theorem says no**: on a full board Schwenk (1991) for closed tours,
   Conrad et al. (1994) for open ones, colour parity and the outer-rows
   argument for a fixed start or end; on any board the colour and move counts
   (:func:`~knightcert.problems.tours.counting_reason`). ``INFEASIBLE`` at
   once, the reason as evidence.
2. **Full board, no fixed end**: the linear-time construction
   (:mod:`knightcert.heuristics.tour_divide`): a closed tour wherever one
   exists (rotated to the start), an open tour elsewhere; with a start on a
   board without a closed tour (odd x odd, 3 and 4 rows) the one piece that
   holds the start is solved by CP-SAT (:func:`solve_piece`, milliseconds, cached).
3. **Everything else** (a fixed end, removed squares, or a start the
   construction could not place):
   a separator the checker would find itself (a board in pieces, a cut square),
   then Warnsdorff with Roth's tie-break and backtracking within a node budget,
   then a search for a separator (:mod:`knightcert.algorithms.tour_separator`:
   squares whose removal leaves more pieces than a tour allows; bounded work),
   then CP-SAT with a Warnsdorff hint for what is left of the time limit.
   ``INFEASIBLE`` only with a proof (a separator, the backtracking search
   exhausted, or CP-SAT's proof; the last two carry a separator too when one is
   found); ``UNKNOWN`` with the reason when time runs out.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from knightcert.problems.deadline import Deadline
from knightcert.problems.method import method
from knightcert.problems.result import Backing, Evidence, Result, Status
from knightcert.problems.tours import TourInstance, counting_reason, full_board_reason

__all__ = [
    "DEFAULT_SEARCH_SECONDS",
    "MAX_CPSAT_SQUARES",
    "PIECE_SECONDS",
    "SEARCH_BUDGET",
    "auto",
    "solve_piece",
]

#: Node budget of the Warnsdorff search in rule 3.
SEARCH_BUDGET = 200_000
#: Seconds CP-SAT may spend on one piece of the construction.
PIECE_SECONDS = 10.0
#: Usable squares above which rule 3 does not build a CP-SAT model (memory and time).
MAX_CPSAT_SQUARES = 100_000
#: Seconds for CP-SAT in rule 3 when no time limit is given.
DEFAULT_SEARCH_SECONDS = 20.0


@lru_cache(maxsize=1024)
def solve_piece(h: int, w: int, forced: tuple, lanes: tuple) -> list[list[int]] | None:
    """One piece from CP-SAT (see :func:`knightcert.models.structured_tours.solve_piece`), cached."""
    from knightcert.models.structured_tours import solve_piece as solve

    return solve(h, w, forced=forced, lanes=lanes, time_limit=PIECE_SECONDS)


@method("tour", "auto")
def auto(instance: TourInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """A tour wherever one exists, or a proven "No", on every full board; search elsewhere.

    Parameters
    ----------
    instance : TourInstance
    time_limit : float, optional
        Bounds the search of rule 3 (default 20 s there); rules 1 and 2 take
        milliseconds.

    Returns
    -------
    Result
        ``FEASIBLE`` with the tour (an (n, 2) int32 array) and ``info["rule"]``;
        ``INFEASIBLE`` with its reason in ``evidence``; ``UNKNOWN`` with
        ``record.stopped`` when the search of rule 3 ran out of time.

    Examples
    --------
    >>> from knightcert.problems.tours import tour_instance
    >>> auto(tour_instance(4, 4, closed=True)).evidence[0].how
    'Schwenk (1991): no closed tour on a full 4 x 4 board'
    >>> auto(tour_instance(99, 101)).objective
    9999

    Notes
    -----
    Rules 1 and 2 are O(rows * cols) and answer every full board without a
    fixed end (see docs/tours.md for the figures).
    """
    from knightcert.heuristics.tour_divide import construct

    clock = Deadline(time_limit)
    board = instance.board
    full = not board.blocked.any() and not board.torus  # the theorems are about plain boards
    reason = None
    if full:
        reason = full_board_reason(
            board.rows, board.cols, closed=instance.closed, start=instance.start, end=instance.end
        )
    if reason is None and (not full or instance.end is not None):
        reason = counting_reason(instance)
    if reason is not None:
        return _no(Evidence("infeasible", Backing.THEOREM, reason), {"rule": "theorem"})
    if full and instance.end is None:

        def solver(*piece):  # pieces cost milliseconds; none is started once the time limit is spent
            return None if clock.expired() else solve_piece(*piece)

        squares = construct(
            board.rows, board.cols, closed=instance.closed, start=instance.start, solver=solver
        )
        if squares is not None:
            return Result.answer(
                "tour",
                "auto",
                status=Status.FEASIBLE,
                objective=len(squares),
                solution=squares,
                info={"rule": "construction"},
            )
    return _search(instance, clock, seed)


def _search(instance: TourInstance, clock: Deadline, seed: int | None) -> Result:
    from knightcert.algorithms.tour_separator import find_separator
    from knightcert.heuristics.tour_warnsdorff import greedy_path, roth
    from knightcert.models.tour_cpsat import cpsat

    cheap = find_separator(instance, work=0)  # a board in pieces, or cut at a square: no search
    if cheap is not None:
        return _separated(cheap, {})
    quick = roth(instance, budget=SEARCH_BUDGET, check=False)
    if quick.status is Status.FEASIBLE or quick.status is Status.INFEASIBLE:
        return quick.with_(
            method="auto",
            evidence=(Evidence("infeasible", Backing.SOLVER, "Warnsdorff backtracking search exhausted"),)
            if quick.status is Status.INFEASIBLE
            else (),
            info={**quick.info, "rule": "warnsdorff"},
        )
    separator = find_separator(instance)
    if separator is not None:
        return _separated(separator, quick.info, quick.nodes)
    if instance.board.n_free > MAX_CPSAT_SQUARES:
        stopped = (
            f"undecided: Warnsdorff found no tour within {SEARCH_BUDGET} nodes, and the board has more "
            f"than {MAX_CPSAT_SQUARES} usable squares for CP-SAT"
        )
        return quick.with_(method="auto", info={**quick.info, "rule": "warnsdorff"}).with_record(
            stopped=stopped
        )
    limit = DEFAULT_SEARCH_SECONDS if clock.time_limit is None else clock.time_limit
    remaining = max(0.05, limit - clock.elapsed())
    exact = cpsat(
        instance,
        time_limit=remaining,
        seed=seed,
        check=False,
        hint=greedy_path(instance),
        hint_source="warnsdorff",
        separator=False,  # searched for above
    )
    info = {**exact.info, "rule": "cpsat", "covered": quick.info.get("covered")}
    evidence: tuple[Evidence, ...] = ()
    if exact.status is Status.INFEASIBLE:
        evidence = (Evidence("infeasible", Backing.SOLVER, "CP-SAT proof"),)
    exact = exact.with_(method="auto", evidence=evidence, info=info)
    if exact.status is not Status.UNKNOWN:
        return exact
    why = f"Warnsdorff found no tour within {SEARCH_BUDGET} nodes and CP-SAT none within {remaining:.1f} s"
    return exact.with_record(stopped=f"undecided: {why}")


def _separated(separator: Any, info: dict, nodes: int | None = None) -> Result:
    """``INFEASIBLE`` with the separator that shows it as the certificate."""
    evidence = Evidence("infeasible", Backing.CERTIFICATE, "separator")
    info = {**info, "rule": "separator", "stopped": None}
    return _no(evidence, info, nodes=nodes, certificate={"separator": separator})


def _no(evidence: Evidence, info: dict, *, nodes: int | None = None, certificate: Any = None) -> Result:
    """``INFEASIBLE``: no tour, the reason as the method's evidence (the checker re-derives it)."""
    return Result.empty(
        "tour",
        "auto",
        status=Status.INFEASIBLE,
        nodes=nodes,
        evidence=(evidence,),
        info=info,
        certificate=certificate,
    )
