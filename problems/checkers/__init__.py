"""Independent checkers (certificates) for every problem's answers.

A checker never calls a solving method: it re-derives what it needs with its
own small code, so a bug in a method cannot hide itself. :func:`certify` is
the one entry point: the method decorator, the harness, the command line and
``knightcert check`` all call it, on any result from any method.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from knightcert.problems.checkers.common import CheckFailed, check_status_fields
from knightcert.problems.checkers.plain import COPIED_PAIRS, exact_result
from knightcert.problems.instance_types import load, problem_of
from knightcert.problems.result import Backing, Evidence, Result, Status

__all__ = ["CheckFailed", "certify", "check", "checker"]


Checker = Callable[[Any, Result], tuple[list[Evidence], Any]]
#: problem -> its checker (imported when first asked for: each pulls in its problem's types)
CHECKERS = {
    "path": "knightcert.problems.checkers.path:certify_path",
    "jump": "knightcert.problems.checkers.jump:certify_jump",
    "knights": "knightcert.problems.checkers.knights:certify_knights",
    "tour": "knightcert.problems.checkers.tour:certify_tour",
}


@cache  # loaded once a process (the import machinery's lookup costs some 3 us a call)
def checker(problem: str) -> Checker:
    """The problem's checker: ``(instance, result) -> (evidence, certificate)``; raises CheckFailed.
    Looked up once a process (a test that replaces a checker function patches this one instead)."""
    if problem not in CHECKERS:
        raise ValueError(f"no checker for problem {problem!r}")
    return load(CHECKERS[problem])  # type: ignore[no-any-return]


def certify(instance: Any, result: Result, *, sole_holder: bool = False) -> Result:
    """Check every claim of ``result`` independently and say what backs each one.

    Parameters
    ----------
    instance : LostKnightInstance, JumpInstance, KnightsInstance or TourInstance
        The instance the answer claims to solve.
    result : Result
        Any method's answer. Its ``verified``, ``evidence`` and any
        ``check_error`` are ignored and recomputed: nothing a method says
        about itself is trusted.
    sole_holder : bool, default False
        ``result`` is the only holder of its solution array
        (:func:`~knightcert.problems.checkers.plain.sole_holder`, checked by the caller
        that made ``result``): the array is checked and kept as it is, not copied.

    Returns
    -------
    Result
        The same answer with ``verified`` (the checker found nothing wrong),
        ``evidence`` (one :class:`Evidence` per claim: ``answer``, ``optimal``,
        ``infeasible``, ``bound``) and ``certificate`` (the one that was
        checked: the method's own, or the checker's when it derived one). ``check_time``: the
        check's seconds.
        A rejected answer has ``verified=False``, no evidence and the
        reason in ``info["check_error"]`` (``"optimal claim rejected: ..."``).
        An ``UNKNOWN`` result that claims nothing is returned unverified.

    Notes
    -----
    Polynomial wherever a certificate can be derived (path, jump, knights on
    bipartite boards: O(board) to O(board^1.5)); the tour checker's own
    exhaustive search is bounded by a node budget. Every call checks anew, a result
    ``certify`` returned included (its holder may have changed it since).

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> from knightcert.problems.result import Result, Status
    >>> claim = Result("knights", "mine", Status.OPTIMAL, 4, 4, [[0, 0], [0, 1], [1, 0], [1, 1]], 0.0)
    >>> certify(knights_instance(4), claim).info["check_error"]
    "optimal claim rejected: the checker's maximum matching proves 8 knights fit (Kőnig)"
    """
    COPIED_PAIRS.clear()  # only this check's own copies are known while it runs
    try:  # the copies are let go however the check ends (an error no check catches, Ctrl-C)
        began, problem = time.perf_counter(), problem_of(instance)
        try:  # the method's objects are copied; its own check's words dropped
            clean = _copied(result, sole_holder, problem)
        except CheckFailed as exc:
            return _rejected(result, problem, exc, began)
        nothing = clean.solution is None and clean.bound is None and clean.objective is None
        if clean.status is Status.UNKNOWN and nothing:
            return _timed(clean, began)  # nothing was claimed, nothing to check
        try:
            claimed = vars(result).get("problem", "")  # a name that is not a str: named in the copy (_text)
            claimed = str.__add__(claimed, "") if isinstance(claimed, str) else problem  # str's own text
            if claimed not in ("", problem):
                raise CheckFailed(f"the answer is for problem {claimed!r}, the instance for {problem!r}")
            clean = check_status_fields(clean, no_winner_solution=problem == "jump")
            evidence, certificate = checker(problem)(instance, clean)
        except CheckFailed as exc:
            changes: dict = {
                "info": {**clean.info, "check_error": exc.describe(), "rejected_claim": exc.claim}
            }
        except (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError) as exc:
            # a shape of answer no check anticipated: rejected, never accepted
            reason = f"answer rejected: malformed answer ({type(exc).__name__}: {exc})"
            changes = {"info": {**clean.info, "check_error": reason, "rejected_claim": "answer"}}
        else:  # an UNKNOWN result has no answer to verify, only (at most) a bound with its evidence
            foreign = clean.info.get("foreign")  # clean.record.foreign; str's own length (never __bool__)
            if isinstance(foreign, str) and str.__len__(foreign):
                evidence = [_unproven(e, clean.method) for e in evidence]
            answered = clean.status is not Status.UNKNOWN
            changes = {"verified": answered, "evidence": tuple(evidence), "certificate": certificate}
        return _timed(clean, began, **changes)
    finally:
        COPIED_PAIRS.clear()


def _copied(result: Any, sole_holder: bool, problem: str) -> Result:
    """:func:`exact_result`, the cycle collector held off while it copies (restored as found): the
    copies make no cycles, and a path of 20,000 squares is 20,000 lists whose collector passes cost
    as much as the copy. The answer's own code may run meanwhile (a ``str()`` of a name that is not
    a str, a ``float()`` of a time, a dict subclass's ``keys``): what it does to the collector is
    undone."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return exact_result(result, sole_holder=sole_holder, problem=problem)
    finally:
        if collecting:
            gc.enable()


def _rejected(result: Any, problem: str, exc: CheckFailed, began: float) -> Result:
    """An answer whose very form is refused: an exact, unverified Result that says why."""
    method = getattr(result, "method", "")
    method = method if type(method) is str else ""
    info = {"check_error": exc.describe(), "rejected_claim": exc.claim}
    out = Result(problem, method, Status.UNKNOWN, None, None, None, 0.0, info=info)
    return _timed(out, began)


def _unproven(evidence: Evidence, method: str) -> Evidence:
    """A foreign method's claim the checker could not certify: its own word only, *unproven*
    (never reported as a solver's proof)."""
    said = Evidence(evidence.claim, Backing.NONE, f"claimed by {method}; not certified by the checker")
    return evidence if evidence.certified else said


def check(instance: Any, result: Result) -> Result:
    """:func:`certify`, raising instead of returning a rejected answer.

    Raises
    ------
    CheckFailed
        A claim is rejected; ``claim`` says which, the message why.
    """
    out = certify(instance, result)
    if not out.verified and "check_error" in out.info:
        raise CheckFailed(out.info["check_error"].split(": ", 1)[1], out.info["rejected_claim"])
    return out


def _timed(result: Result, began: float, **changes: Any) -> Result:
    """``result`` with ``changes`` and the check's seconds since ``began`` (``check_time``).
    ``result`` is the check's own copy, not handed out yet: its fields are set in place (no
    count among them to normalise)."""
    vars(result).update(changes, check_time=time.perf_counter() - began)
    return result
