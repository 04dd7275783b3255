"""Side constraints every method honours, by solving a plain instance in their place.

* path ``via``: the legs (:meth:`~knightcert.problems.lost_knight.LostKnightInstance.legs`),
  each solved by the method, joined: a shortest path through the via squares in order is a
  shortest path of each leg;
* knights ``fixed``: the rest of the board (:func:`~knightcert.problems.independent_knights.rest_of`)
  solved by the method, plus the fixed knights (none when two attack each other).

The checker certifies the joined answer against the instance with its side constraints
(:mod:`knightcert.problems.checkers`), never the method's pieces on their own.
"""

from __future__ import annotations

from typing import Any

from knightcert.problems.instance_types import problem_of  # the instances' modules: imported when used
from knightcert.problems.result import Result, Status

__all__ = ["BY_REDUCTION", "call"]

#: problem -> the side constraints honoured here for every method.
BY_REDUCTION: dict[str, tuple[str, ...]] = {"path": ("via",), "knights": ("fixed",)}


def call(ref: Any, instance: Any, *, time_limit: float | None, seed: int | None, **given: Any) -> Result:
    """``ref(instance, ...)`` unchecked, with the instance's via squares or fixed knights honoured."""
    problem = problem_of(instance)
    if problem == "path" and instance.via:
        return _by_legs(ref, instance, time_limit, seed, given)
    if problem == "knights" and instance.fixed:
        return _with_fixed(ref, instance, time_limit, seed, given)
    return ref(instance, time_limit=time_limit, seed=seed, check=False, **given)


def _squares(solution: Any) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in solution]


def _by_legs(ref: Any, instance: Any, time_limit, seed, given) -> Result:
    from knightcert.problems.deadline import Deadline
    from knightcert.problems.lost_knight import LostKnightInstance

    clock = Deadline(time_limit)
    path = [list(instance.start)]
    optimal = True
    for a, b in instance.legs():
        if a == b:
            continue
        left = clock.remaining()
        left = None if left is None else max(left, 1e-3)
        leg = LostKnightInstance(instance.board, a, b, instance.name)
        result = ref(leg, time_limit=left, seed=seed, check=False, **given)
        if result.solution is None:  # no path on this leg (its certificate goes with it), or none found
            return result.with_(objective=None, bound=None, info={**result.info, "leg": f"{a} -> {b}"})
        path += _squares(result.solution)[1:]
        optimal &= result.status is Status.OPTIMAL
    status = Status.OPTIMAL if optimal else Status.FEASIBLE
    return Result.answer(
        "path", ref.name, status=status, objective=len(path) - 1, solution=path,
        bound=len(path) - 1 if optimal else None,
        info={"legs": len(instance.legs())},
    )  # fmt: skip


def _with_fixed(ref: Any, instance: Any, time_limit, seed, given) -> Result:
    from knightcert.problems.independent_knights import fixed_conflict, rest_of

    if (conflict := fixed_conflict(instance)) is not None:
        return Result.empty("knights", ref.name, status=Status.INFEASIBLE, info={"fixed": conflict})
    result = ref(rest_of(instance), time_limit=time_limit, seed=seed, check=False, **given)
    fixed = len(instance.fixed)
    shifted = {k: v + fixed for k in ("objective", "bound") if (v := getattr(result, k)) is not None}
    if result.solution is not None:
        shifted["solution"] = [list(sq) for sq in instance.fixed] + _squares(result.solution)
    return result.with_(**shifted)
