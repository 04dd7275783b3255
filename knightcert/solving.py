"""The Python entry point: solve any instance with any registered method.

>>> from knightcert.solving import solve
>>> from knightcert.problems.lost_knight import parse_lost_knight
>>> result = solve(parse_lost_knight("C.....\\n......\\n....S.\\n......\\n......\\n......\\n"))
>>> (result.method, result.status.value, result.objective, result.verified)
('bfs', 'OPTIMAL', 2, True)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from typing import Any

from knightcert.memory import check_fits
from knightcert.problems.checkers import certify
from knightcert.problems.checkers.plain import sole_holder
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.instance_types import load, problem_of
from knightcert.problems.method import check_arguments
from knightcert.problems.result import Result, Status
from knightcert.problems.run_record import cpu_seconds
from knightcert.registry import MethodRef, default_method, resolve
from knightcert.variants import call
from knightcert.warming import ensure_warm

__all__ = ["model", "over_budget", "prepare", "problem_of", "run", "solve"]

#: problem -> the builder of its exact CP-SAT model (``knightcert.models``)
MODEL_BUILDERS = {
    "knights": "knightcert.models.knights_cpsat:KnightsModel",
    "tour": "knightcert.models.tour_cpsat:TourModel",
    "path": "knightcert.models.path_cpsat:PathModel",
}


def model(instance: Any, **options: Any) -> Any:
    """The exact CP-SAT model of ``instance`` as an object to extend with any OR-Tools constraint.

    Parameters
    ----------
    instance : KnightsInstance, TourInstance or LostKnightInstance
    **options
        The model's options (those of the problem's ``cpsat`` method: ``formulation``, ...).

    Returns
    -------
    KnightsModel, TourModel or PathModel
        ``.cp`` the ``CpModel``; the variables by square (``.knight[r, c]``; ``.step[r, c]`` and
        ``.move[(r1, c1), (r2, c2)]``; ``.dist[r, c]``); ``.solve(time_limit=None, check=None)``
        a checked :class:`Result`; ``.export(path)`` the model as CP-SAT text proto (docs/models.md).

    Raises
    ------
    InvalidArgument
        Not an instance of those problems, or an option the model does not take.

    Examples
    --------
    >>> import knightcert
    >>> m = knightcert.model(knightcert.tour_instance(5, 5, start=(0, 0)))
    >>> m.cp.add(m.step[0, 1] == 2)  # doctest: +ELLIPSIS
    <...>
    >>> result = m.solve()
    >>> result.status.value, [(e.claim, e.backing.value) for e in result.evidence]
    ('INFEASIBLE', [('infeasible', 'solver')])
    """
    import inspect

    problem = problem_of(instance)
    if problem not in MODEL_BUILDERS:
        raise InvalidArgument(
            f"instance: no CP-SAT model object for {problem}; models: {', '.join(MODEL_BUILDERS)}"
        )
    if problem == "path" and instance.via:  # the methods take them leg by leg (knightcert.variants)
        raise InvalidArgument("via squares: the path model has none; solve() takes them leg by leg")
    builder = load(MODEL_BUILDERS[problem])
    valid = [p for p in inspect.signature(builder).parameters if p not in ("instance", "clock")]
    for option in set(options) - set(valid):
        raise InvalidArgument(f"{option}: not an option of the {problem} model; options: {', '.join(valid)}")
    try:
        return builder(instance, **options)
    except ValueError as exc:
        raise InvalidArgument(str(exc)) from None
    except IndexError as exc:  # a square of a hint off the board
        raise InvalidArgument(f"hint: a square off the board ({exc})") from None


def solve(
    instance: Any,
    method: Any = None,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    **options: Any,
) -> Result:
    """Solve ``instance`` with ``method`` (the instance's default when None); the answer is checked.

    Parameters
    ----------
    instance : LostKnightInstance, JumpInstance, KnightsInstance or TourInstance
        What to solve; its type decides the problem.
    method : str or callable, optional
        A method of that problem in any form :func:`~knightcert.registry.resolve` takes (see
        ``knightcert.method_names``); None: the default for this instance
        (:func:`knightcert.specs.default_for`), the one the command line chooses.
    time_limit : float, optional
        Seconds for the whole call.
    seed : int, optional
        Random seed for methods that use one.
    **options
        Options of the method (:mod:`knightcert.specs`); one it does not take is refused.

    Returns
    -------
    Result
        The answer with ``verified``, ``evidence`` and ``certified`` set by the problem's
        independent checker (whatever the method itself said); ``check_time`` the check's seconds.

    Raises
    ------
    UnknownMethod
        ``method`` is not registered for the problem; the message lists the valid ones.
    InvalidArgument
        ``instance`` is not an instance type of the project; an option the method does not take
        or a value out of its bounds.
    InvalidInstance
        The method does not apply to the instance (``matching`` on a torus with an odd side).
    InstanceTooLarge
        The method's memory estimate for this board exceeds the memory available.
    """
    return run(problem_of(instance), method, instance, time_limit=time_limit, seed=seed, options=options)


def run(
    problem: str,
    method: Any,
    instance: Any,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    warm: bool = False,
    check: bool = True,
) -> Result:
    """The one run path of every entry point (:func:`solve`, each command, the harness, the
    reference runs): resolve the method, check its options, check the board fits, warm it,
    run it under the one time budget, certify its answer.

    Parameters
    ----------
    problem : str
    method : str, callable, MethodRef or None
        None: the instance's default (:func:`knightcert.specs.default_for`).
    instance : object
        An instance of ``problem``.
    time_limit, seed
        As for :func:`solve`.
    options : mapping, optional
        The method's options, checked against its specification.
    warm : bool, default False
        Warm the method first in this process (:mod:`knightcert.warming`): the harness does,
        so that a timed run never loads code.
    check : bool, default True
        Certify the answer (its seconds in ``Result.check_time``); False: returned unverified.

    Returns
    -------
    Result
        Named as the method was given and as the instance is named; ``time`` measured here,
        around the method's call (a foreign method's in its worker, a program's from its exec to
        its exit), ``cpu_time`` beside it; an answer that came after the time budget is
        ``UNKNOWN`` (:func:`over_budget`).

    Raises
    ------
    KnightcertError
        As :func:`solve`, before any work.
    """
    check_arguments(problem, instance, time_limit, seed)  # the instance's type first: the rest reads it
    ref, given = prepare(problem, method, instance, options)
    warm_began = time.perf_counter()
    if warm and not ref.foreign:
        ensure_warm(problem, ref)
    warm_s = time.perf_counter() - warm_began
    # a worker has knightcert.workers loaded (it runs the worker's loop): a process without it is
    # none, and a command does not load it (subprocess, selectors, ...: 10 ms) for nothing
    workers = sys.modules.get("knightcert.workers")
    if ref.foreign and not (workers and workers.in_worker()):  # a suspect: on a worker of its own
        result = _on_a_worker(ref, instance, time_limit, seed, given)
    else:
        if workers:  # in a worker: its caller's wall clock for this run starts here too
            workers.timed_call()
        cpu_began, began = cpu_seconds(), time.perf_counter()
        result = call(ref, instance, time_limit=time_limit, seed=seed, **given)  # via squares, fixed knights
        spent, cpu = time.perf_counter() - began, cpu_seconds() - cpu_began
        if workers:  # in a worker: its caller stops waiting for the call, and gives the check its time
            workers.timed_call(begins=False)
        # the one clock of every method (a foreign one's: around the call alone, in its worker, its
        # CPU in the same span; a program's: from its exec to its exit, its CPU its waited-for child's)
        cpu = result.cpu_time if ref.foreign and result.cpu_time is not None else cpu
        result = result.with_(time=result.time if ref.foreign else spent, cpu_time=cpu)
    result = over_budget(result, time_limit)
    if warm and not ref.foreign:  # what loading its code cost this run, beside its time, never in it
        result = result.with_record(warm_s=round(warm_s, 6))
    name = getattr(instance, "name", "") or ""
    if (result.problem, result.method, result.instance) != (problem, ref.name, name):
        # the result names what ran, never what the method says it is
        result = result.with_(problem=problem, method=ref.name, instance=name)
    if not check:
        return result
    # ``result`` was made here: when it alone holds the answer's array (the method kept no
    # reference to it), the checker checks that array instead of a copy
    return certify(instance, result, sole_holder=sole_holder(result))


def _on_a_worker(
    ref: MethodRef, instance: Any, time_limit: float | None, seed: int | None, given: dict[str, Any]
) -> Result:
    """Run a foreign method on a worker process of its own (:mod:`knightcert.workers`), stopped at
    the time budget or the memory limit; its answer read back strictly, or ``UNKNOWN`` saying why
    there is none. Its time and CPU time are measured there, around the call."""
    from knightcert.problems.answers import result_from_answer
    from knightcert.problems.errors import KnightcertError
    from knightcert.workers import run_alone, time_budget

    budget = time_budget(time_limit)
    outcome = run_alone(_run_there, (ref, instance, time_limit, seed, given), budget and budget + 0.25)
    try:
        if outcome.stopped is None:
            result = result_from_answer(outcome.value["answer"], problem=ref.problem)
            cpu = outcome.value["cpu"]
            result = result.with_(cpu_time=None if cpu is None else float(cpu))
            return result.with_record(peak_mb=outcome.peak_mb)
    except (KnightcertError, KeyError, TypeError, ValueError):
        outcome.stopped = "crash: the method's answer came back malformed"
    stopped = Result.empty(ref.problem, ref.name, outcome.elapsed, stopped=outcome.stopped)
    return stopped.with_record(peak_mb=outcome.peak_mb)


def _run_there(
    ref: MethodRef, instance: Any, time_limit: float | None, seed: int | None, given: dict[str, Any]
) -> dict[str, Any]:  # pragma: no cover - runs in a worker
    """In a worker: the run path unchecked, as plain data."""
    from knightcert.problems.answers import answer_fields

    result = run(ref.problem, ref, instance, time_limit=time_limit, seed=seed, options=given, check=False)
    return {"answer": answer_fields(result), "cpu": result.cpu_time}


def prepare(
    problem: str, method: Any, instance: Any, options: Mapping[str, Any] | None = None
) -> tuple[MethodRef, dict[str, Any]]:
    """The first steps of :func:`run`, before any work: the method resolved (the instance's
    default for None), its options checked against its specification, its fit to the
    instance (applicability and memory) checked. The command line does it for every file
    before solving any.

    Raises
    ------
    UnknownMethod, InvalidArgument, InvalidInstance, InstanceTooLarge
    """
    ref = resolve(problem, default_method(problem, instance) if method is None else method)
    given = ref.facts.check_options(options or {})
    ref.facts.check_applies(instance)
    check_fits(problem, ref.name, instance)
    return ref, given


def over_budget(result: Result, time_limit: float | None) -> Result:
    """``result`` as ``UNKNOWN`` "time limit" when it came after the time budget (the limit plus
    :func:`~knightcert.workers.grace`): an overrun is never a normal answer."""
    if time_limit is None:
        return result
    from knightcert.workers import grace

    budget = time_limit + grace(time_limit)
    # stopped: it says why; interrupted: a built-in stopped by the command's watchdog or Ctrl-C
    if result.time <= budget or result.record.stopped or result.record.interrupted:
        return result
    stopped = f"time limit: answered after {result.time:.1f} s, past the budget of {budget:.1f} s"
    late = result.with_(status=Status.UNKNOWN, objective=None, bound=None, solution=None)
    return late.with_record(stopped=stopped)
