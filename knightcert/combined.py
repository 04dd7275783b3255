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
    exact count); the band goes with the answer as its certificate. On other odd tori
    CP-SAT starts from seed 002's greedy placement (a solution hint). Where the checker
    has no certificate of its own for the bound (past its search), CaDiCaL refutes "one
    knight more than the best placement" with a proof (:mod:`knightcert.models.knights_sat`;
    LRAT, translations broken by lex-leader clauses on full tori), attached as
    ``certificate["drat"]``, while CP-SAT searches alongside on the other core; the best
    placement is the anti-diagonal construction on square tori of odd side
    (:mod:`knightcert.heuristics.knights_diagonals`), else the greedy one, and any placement
    CaDiCaL or CP-SAT finds with more knights replaces it. The answer is optimal on the
    proof, which the checker verifies; without one in the time, CP-SAT's word stands.
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

from collections.abc import Callable
from dataclasses import dataclass, field
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
    certificate; elsewhere CP-SAT from the greedy placement, or, where the checker needs a
    proof, :func:`_placed_and_proved`."""
    from knightcert.models.knights_band import band_optimum
    from knightcert.problems.checkers import certify

    known, band = band_optimum(instance)
    if known is not None:
        return certify(instance, known) if options.get("check", True) else known
    from knightcert.heuristics.knights_greedy import greedy
    from knightcert.models.knights_cpsat import cpsat

    start = greedy(instance, check=False)
    if band is None:
        if _needs_proof(instance.board):  # CaDiCaL proves (or improves) the best placement
            return _placed_and_proved(instance, start, options)
        result = cpsat(instance, hint=start.solution, hint_source="greedy", **_time_left(options, start.time))
        return _at_least_the_start(result, start)
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


#: With one thread, CP-SAT searches before CaDiCaL proves: these seconds, at most this share
#: of what is left of the time limit.
INCUMBENT_SECONDS = 10.0
INCUMBENT_SHARE = 0.25


def _diagonal_start(instance: KnightsInstance, start: Result) -> Result | None:
    """The anti-diagonal construction (:mod:`knightcert.heuristics.knights_diagonals`) as a
    ``FEASIBLE`` answer of ``cpsat``, on full square tori of odd side where it places at least
    as many knights as the greedy ``start``; None elsewhere. Its time includes the greedy start's."""
    import time

    from knightcert.heuristics.knights_diagonals import diagonal_placement
    from knightcert.problems.checkers.knights import check_placement
    from knightcert.problems.checkers.knights_cnf import translation_applies

    began = time.perf_counter()
    board = instance.board
    placement = diagonal_placement(board.rows, board.cols) if translation_applies(board) else None
    if placement is None:
        return None
    count = check_placement(instance, placement)  # checked before it is used
    if start.objective is not None and count < start.objective:
        return None
    spent = start.time + time.perf_counter() - began
    info = {"start": "anti-diagonal construction", "construction_s": round(spent, 6)}
    return start.with_(
        method="cpsat",
        status=Status.FEASIBLE,
        objective=count,
        solution=placement,
        bound=None,
        time=spent,
        info=info,
    )


def _needs_proof(board: Any) -> bool:
    """Whether the checker has no certificate of its own for a bound on ``board``: not
    bipartite, and past the checker's own search."""
    from knightcert.problems.checkers.knights import SEARCH_SQUARES, bipartite

    return not bipartite(board) and board.n_free > SEARCH_SQUARES


def _placed_and_proved(instance: KnightsInstance, start: Result, options: dict[str, Any]) -> Result:
    """The best placement proven optimal by CaDiCaL, with CP-SAT searching alongside.

    From the best placement known (the anti-diagonal construction, else the greedy
    ``start``), CaDiCaL refutes "one knight more" in a child process
    (:class:`knightcert.models.knights_sat.BoundProof`) while CP-SAT, on the other core,
    searches from it with the rest of the time (one worker; both run only where two threads
    may: ``$KNIGHTCERT_THREADS`` or the cores; with one, CP-SAT first, for
    ``INCUMBENT_SECONDS`` or ``INCUMBENT_SHARE`` of the time left). When CaDiCaL ends:

    - refuted: the answer is ``OPTIMAL`` on that proof, attached as ``certificate["drat"]``
      (the checker verifies it);
    - it placed one knight more (checked), or CP-SAT did: that is the new best, and the next
      knight is tried;
    - out of time: CP-SAT's answer stands (its bound, or its optimality, on its word only),
      with ``info["proof"]`` saying why no proof came.

    The time counts the greedy start, the construction, CP-SAT and CaDiCaL (``info["proof_s"]``:
    CaDiCaL's rounds, in all).
    """
    import time

    from knightcert.models.knights_sat import BoundProof
    from knightcert.problems import progress
    from knightcert.problems.cores import available_threads

    began = time.perf_counter()
    limit = options.get("time_limit")

    def left() -> float | None:
        return None if limit is None else max(limit - start.time - (time.perf_counter() - began), 1e-3)

    best = _diagonal_start(instance, start) or start.with_(method="cpsat")
    race = _Race(instance, options, best, best.info.get("start", "greedy"))
    alongside = available_threads() >= 2  # CaDiCaL's thread and CP-SAT's, never more than the cores
    if not alongside:  # one thread: CP-SAT first, for a share of the time, then CaDiCaL
        share = left()
        race.search(INCUMBENT_SECONDS if share is None else min(INCUMBENT_SHARE * share, INCUMBENT_SECONDS))
    while True:
        target = _count(race.best) + 1
        progress.note(
            f"{target - 1} knights placed ({race.source}); CaDiCaL is proving that {target} do not fit"
        )
        if race.round(BoundProof(instance, target, time_limit=left()), target, alongside, left):
            info = {**(race.solver.info if race.solver else {}), **race.found, "stopped": "interrupted"}
            return _solver_word(instance, race.best, race.solver, began, start, info)
        if race.entry is not None or _count(race.best) < target:
            break  # else one knight more was placed: try the next
    info = {
        **({} if race.solver is None else race.solver.info),
        **race.best.info,
        **race.found,
        "proof_s": round(race.proof_s, 3),
        "proof_start_s": round(race.proof_start_s, 3),  # the proof children's start, within proof_s
        "placed_by_proof_solver": race.placed,
    }
    best = race.best
    if race.entry is None or _count(best) != target - 1:
        return _solver_word(instance, best, race.solver, began, start, info)
    certificate = dict(best.certificate) if isinstance(best.certificate, dict) else {}
    info.pop("stopped", None)
    return best.with_(
        status=Status.OPTIMAL,
        bound=best.objective,
        certificate={**certificate, "drat": race.entry},
        time=start.time + time.perf_counter() - began,
        info=info,
    )


@dataclass
class _Race:
    """What :func:`_placed_and_proved` knows between its rounds: the best placement and who
    placed it, CP-SAT's last answer (its bound and status are its word), CaDiCaL's seconds, its
    placements and, after a round, its proof entry (``None``: no proof) and facts."""

    instance: KnightsInstance
    options: dict[str, Any]
    best: Result
    source: str
    solver: Result | None = None
    proof_s: float = 0.0
    proof_start_s: float = 0.0
    placed: int = 0
    entry: dict[str, Any] | None = None
    found: dict[str, Any] = field(default_factory=dict)

    def search(self, time_limit: float | None, **extra: Any) -> Result:
        """CP-SAT from the best placement; its placement becomes the best when it has more knights."""
        from knightcert.models.knights_cpsat import cpsat

        hint_source = self.best.info.get("start", "greedy")
        side = {**self.options, "time_limit": time_limit, "check": False, **extra}
        self.solver = solver = cpsat(self.instance, hint=self.best.solution, hint_source=hint_source, **side)
        self._take_solver()
        return solver

    def _take_solver(self) -> None:
        if self.solver is not None and _count(self.solver) > _count(self.best):
            self.best, self.source = self.solver.with_(info={**self.best.info, **self.solver.info}), "CP-SAT"

    def round(self, proof: Any, target: int, alongside: bool, left: Callable[[], float | None]) -> bool:
        """CaDiCaL refutes ``target`` knights (``proof``) while CP-SAT searches alongside on the
        threads but CaDiCaL's; True when Ctrl-C stopped the round."""
        from knightcert.models.cpsat_solve import MIN_PORTFOLIO, available_threads
        from knightcert.problems import stopping

        interrupted = False
        try:
            if alongside and (self.solver is None or self.solver.status is not Status.OPTIMAL):
                given, spare = self.options.get("workers"), available_threads() - 1  # CaDiCaL has one
                workers = (spare if spare >= MIN_PORTFOLIO else 1) if given is None else min(given, spare)
                solver = self.search(left(), stop_when=proof.done, workers=workers)
                interrupted = bool(solver.info.get("interrupted"))  # Ctrl-C, caught by CP-SAT's solve
            if not interrupted and (self.solver is None or _count(self.solver) < target):
                proof.wait()  # CP-SAT stopped short of the target (or proved the best optimal)
        except KeyboardInterrupt:  # Ctrl-C while waiting for the proof
            stopping.caught()
            interrupted = True
        except BaseException:  # CP-SAT failed: the proof's child ended, its folder removed
            proof.finish()
            raise
        self.entry, placement, self.found = proof.finish()
        self.proof_s += self.found.get("proof_s", self.found["proof_solve_s"])
        self.proof_start_s += self.found.get("proof_start_s", 0.0)
        self._take_solver()
        if interrupted or placement is None or len(placement) <= _count(self.best):
            return interrupted
        if _valid(self.instance, placement):  # CaDiCaL placed one knight more: checked first
            self.best = self.best.with_(objective=len(placement), solution=placement, status=Status.FEASIBLE)
            self.placed, self.source = self.placed + 1, "CaDiCaL"
        return interrupted


def _count(result: Result) -> int:
    """The knights a result places (-1 without a placement)."""
    return -1 if result.objective is None or result.solution is None else int(result.objective)


def _valid(instance: KnightsInstance, placement: list[list[int]]) -> bool:
    """Whether the proof solver's placement is one (checked before it is used)."""
    from knightcert.problems.checkers.common import CheckFailed
    from knightcert.problems.checkers.knights import check_placement

    try:
        return check_placement(instance, placement) == len(placement)
    except CheckFailed:
        return False


def _solver_word(
    instance: KnightsInstance, best: Result, solver: Result | None, began: float, start: Result, info: dict
) -> Result:
    """``best`` without a proof: ``OPTIMAL`` on CP-SAT's word where it proved that very count,
    else ``FEASIBLE``; the bound is the smaller of CP-SAT's (its word) and the checker's own
    band bound (:func:`~knightcert.problems.checkers.knights_band.best_band`, certified; its
    band goes with the answer, and makes the answer ``OPTIMAL`` where it meets the placement)."""
    import time

    from knightcert.problems.checkers.knights_band import best_band

    count = _count(best)
    bound = None if solver is None or solver.bound is None else int(solver.bound)
    status = Status.FEASIBLE
    if solver is not None and solver.status is Status.OPTIMAL and _count(solver) == count:
        status = Status.OPTIMAL
    if bound is not None and bound < count:  # never below a placement in hand
        bound = None
    certificate = best.certificate
    band = None if status is Status.OPTIMAL else best_band(instance.board)
    if band is not None and band.bound >= count and (bound is None or band.bound <= bound):
        bound = band.bound
        certificate = {**(certificate if isinstance(certificate, dict) else {}), "band": band.entry()}
        info = {**info, "band_s": round(band.seconds, 6)}
        if band.bound == count:  # the band proves the placement optimal
            status = Status.OPTIMAL
    return best.with_(
        status=status,
        bound=bound,
        certificate=certificate,
        time=start.time + time.perf_counter() - began,
        info={**best.info, **info},
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
    from knightcert.problems.side_constraints import sides_of

    check_arguments("tour", instance, options.get("time_limit"), options.get("seed"))
    if options.get("hint") is not None or sides_of("tour", instance):  # a variant: no base tour hints it
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
    limit = options.get("time_limit")
    return options if limit is None else {**options, "time_limit": max(limit - spent, 1e-3)}


def _at_least_the_start(result: Result, start: Result) -> Result:
    """The exact method's result with the greedy start's time added; when the exact method
    stopped without a placement (time limit, interruption), the greedy placement instead,
    as ``FEASIBLE`` with the exact method's bound if it proved one."""
    time_s = result.time + start.time
    if result.solution is not None or start.solution is None:
        return result.with_(time=time_s)
    why = result.record.stopped or "no placement within the time limit"
    found = result.with_(status=Status.FEASIBLE, objective=start.objective, solution=start.solution)
    return found.with_(time=time_s).with_record(
        stopped=f"{why}; the greedy start is the best placement found"
    )
