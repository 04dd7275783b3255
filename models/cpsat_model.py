"""A CP-SAT model of an instance as an object a user extends: what the three builders share.

A builder (:class:`~knightcert.models.knights_cpsat.KnightsModel`,
:class:`~knightcert.models.tour_cpsat.TourModel`, :class:`~knightcert.models.path_cpsat.PathModel`)
writes the exact model of an instance into ``.cp`` (an OR-Tools ``CpModel``) and gives its
decision variables by square. A user adds any OR-Tools constraint to ``.cp`` and calls
:meth:`CpsatModel.solve`, which solves it (:func:`~knightcert.models.cpsat_solve.solve_cpsat`),
reads the answer back and checks it with the project's checker against the instance.

What backs the answer of a model the user changed: the solution is still checked against
the instance (every constraint added only narrows the answers), but the checker knows only
the instance, so a claim of optimality or of non-existence rests on CP-SAT and says so
(:class:`~knightcert.problems.result.Evidence` with ``Backing.SOLVER``). A change is seen by
the count of variables and constraints and the objective's shape; the builder's own lazily
made variables (a tour's ``step``) are not a change.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from knightcert.models.cpsat_solve import FREE_SHARE, CpSatRun, solve_cpsat
from knightcert.problems.argument_checks import bounded, bounded_seconds
from knightcert.problems.checkers import certify
from knightcert.problems.deadline import Deadline
from knightcert.problems.errors import UnknownKey
from knightcert.problems.output_file import write_atomic
from knightcert.problems.result import Backing, Evidence, Result, Status

__all__ = ["BuildStopped", "CpsatModel", "VariableMap", "check_choice", "square_index"]


class BuildStopped(Exception):
    """The time limit of a method call ran out while its model was being built."""


class VariableMap(Mapping[Any, cp_model.IntVar]):
    """A model's decision variables by key (a square ``(r, c)``, or a move ``((r1, c1), (r2, c2))``).

    The variable objects are made on lookup from the proto index, so that a model of a
    huge board holds no Python object per variable until one is asked for.
    """

    def __init__(self, cp: cp_model.CpModel, index: Mapping[Any, int]) -> None:
        self._cp = cp
        self._index = index

    def __getitem__(self, key: Any) -> cp_model.IntVar:
        try:
            return self._cp.get_int_var_from_proto_index(self._index[tuple(map(_plain_key, key))])
        except (KeyError, TypeError, ValueError):  # UnknownKey is a KeyError: ``in`` and ``get`` work
            raise UnknownKey(
                f"the model has no variable {key!r:.60} (not a usable square, or move, of its board)"
            ) from None

    def __iter__(self) -> Iterator[Any]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


def check_choice(name: str, value: str, valid: tuple[str, ...]) -> None:
    """A ValueError naming ``name`` and the valid values when ``value`` is not one of them."""
    if value not in valid:
        raise ValueError(f"unknown {name} {value!r}; valid: {', '.join(valid)}")


def square_index(squares: Any, cols: int) -> dict[tuple[int, int], int]:
    """``{(r, c): k}`` for the k-th of ``squares`` (flat indices on a board of ``cols`` columns)."""
    rows, columns = divmod(squares, cols)
    return {(int(r), int(c)): k for k, (r, c) in enumerate(zip(rows.tolist(), columns.tolist(), strict=True))}


def _plain_key(part: Any) -> Any:
    return tuple(int(v) for v in part) if isinstance(part, (tuple, list)) else int(part)


class CpsatModel(abc.ABC):
    """The exact CP-SAT model of one instance; a builder fills ``cp`` and says how to read
    a solution back (``_extract``).

    Attributes
    ----------
    instance : object
        The instance the model is of.
    cp : cp_model.CpModel
        The model: add any OR-Tools constraint or objective to it.
    build_time : float
        Seconds the builder took.
    """

    problem = ""
    #: ``SatParameters`` fields of the solve (None: ``cpsat_solve.DEFAULT_PARAMETERS``).
    parameters: dict[str, object] | None = None
    #: An objective value that no solution goes past (a bound proven outside the model).
    stop_at: float | None = None

    def __init__(self, instance: Any, clock: Deadline | None = None) -> None:
        self.instance = instance
        self.cp = cp_model.CpModel()
        self.clock = clock or Deadline(None)
        self.info: dict[str, Any] = {}
        self.build_time = 0.0
        self._base: tuple[Any, ...] = ()
        self.objective_bound: float | None = None  # CP-SAT's, in the model's objective, of the last run

    def _built(self) -> None:
        """Mark the end of building: what the model holds now is the instance's model."""
        self.build_time = self.clock.elapsed()
        self._base = self._shape()

    def _shape(self) -> tuple[Any, ...]:
        proto = self.cp.proto
        objective = proto.objective
        return (
            len(proto.variables),
            len(proto.constraints),
            proto.has_objective(),  # [2:9]: the objective (_certify_changed)
            proto.has_floating_point_objective(),
            list(objective.vars),  # a weighted objective is a change too (its terms, one by one)
            list(objective.coeffs),
            objective.offset,
            objective.scaling_factor,
            list(objective.domain),
            len(proto.assumptions),
        )

    @property
    def changed(self) -> bool:
        """True once a variable, constraint or objective was added after building."""
        return self._shape() != self._base

    def _stop_building(self, step: str = "model building") -> None:
        """Raise :class:`BuildStopped` when the call's budget is spent, or what is left would
        not even pay for freeing the model built so far (``FREE_SHARE`` of the build)."""
        left = self.clock.remaining()
        if left is not None and left <= FREE_SHARE * self.clock.elapsed():
            raise BuildStopped(step)

    def export(self, path: str | Path) -> None:
        """Write the model as CP-SAT's text proto (``text_format.Parse`` into ``CpModelProto``)."""
        write_atomic(path, str(self.cp.proto))  # all or nothing; a link at ``path`` replaced, never followed

    def solve(
        self,
        time_limit: float | None = None,
        check: Callable[[Any], bool] | None = None,
        *,
        seed: int | None = None,
        workers: int | None = None,
    ) -> Result:
        """Solve the model and check the answer.

        Parameters
        ----------
        time_limit : float, optional
            Seconds for the search.
        check : callable, optional
            The user's predicate ``check(solution) -> bool`` for constraints the checker does not
            know; an answer it refuses is returned unverified, the reason in ``info["check_error"]``.
        seed, workers : int, optional
            CP-SAT ``random_seed`` and ``num_workers``.

        Returns
        -------
        Result
            Checked by the project's checker against the instance; on a changed model the
            claim of optimality or of non-existence is backed by CP-SAT alone (module docstring).
        """
        limit = None if time_limit is None else bounded_seconds(time_limit, "time limit")
        seed, workers = (
            None if v is None else bounded(v, name) for v, name in ((seed, "seed"), (workers, "workers"))
        )
        changed, own = self.changed, self._shape()[2:9] == self._base[2:9]  # [2:9]: the objective
        self.stop_at = self.stop_at if own else None  # a target in the builder's objective, not the user's
        result = self.run(began=time.perf_counter(), time_limit=limit, seed=seed, workers=workers)
        result = result.with_(instance=getattr(self.instance, "name", "") or "")
        checked = certify(self.instance, result) if not changed else self._certify_changed(result, own)
        if check is not None and checked.solution is not None and not check(checked.solution):
            info = {**checked.info, "check_error": "answer rejected by the user's check"}
            return checked.with_(verified=False, evidence=(), info=info)
        return checked

    def _certify_changed(self, result: Result, own: bool = True) -> Result:
        """The answer of a changed model: its solution checked against the instance, its claim
        of optimality or non-existence CP-SAT's. Without the builder's own objective (``own``),
        optimal only in CP-SAT's own status, and CP-SAT's bound on the user's objective in ``info``."""
        how = "CP-SAT, on the model as the user changed it (the checker knows only the instance)"
        bound = result.bound if own else None  # else in the builder's units from the user's objective
        if not own and result.status is Status.OPTIMAL and result.info.get("native_status") != "OPTIMAL":
            result = result.with_(status=Status.FEASIBLE)  # _extract read the user's bound as knights
        claims = {Status.OPTIMAL: "optimal", Status.INFEASIBLE: "infeasible"}  # a bound: CP-SAT's word too
        claim = claims.get(result.status, None if bound is None else "bound")
        solver = () if claim is None else (Evidence(claim, Backing.SOLVER, how),)
        mine = {} if own else {"model_bound": self.objective_bound}  # CP-SAT's, on the user's objective
        info = {**result.info, "changed_model": True, **mine}
        if result.solution is None:
            return result.with_(verified=False, evidence=solver, info=info)
        answer = certify(self.instance, result.with_(status=Status.FEASIBLE, bound=None))
        if not answer.verified:
            return answer.with_(status=result.status, info={**answer.info, "changed_model": True})
        return answer.with_(status=result.status, bound=bound, evidence=answer.evidence + solver, info=info)

    def run(
        self,
        *,
        began: float,
        time_limit: float | None = None,
        seed: int | None = None,
        workers: int | None = None,
        stop_when: Callable[[], bool] | None = None,
    ) -> Result:
        """Solve the model and read the answer back, unchecked (a method's call)."""
        solved = solve_cpsat(
            self.cp,
            began=began,
            time_limit=time_limit,
            seed=seed,
            workers=workers,
            parameters=self.parameters,
            stop_at=self.stop_at,
            stop_when=stop_when,
        )
        info = {**solved.info(), **self.info}
        self.objective_bound = solved.solver.best_objective_bound if solved.has_solution else None
        if not solved.has_solution:
            return Result.empty(
                self.problem, "cpsat", time.perf_counter() - began, status=solved.status, info=info
            )
        return self._extract(solved).with_(time=time.perf_counter() - began, info=info)

    @abc.abstractmethod
    def _extract(self, solved: CpSatRun) -> Result:
        """The answer read back from a solve that found a solution (every builder has its own)."""

    def values(self, solved: CpSatRun) -> np.ndarray:
        """The solution's values of every variable, as a numpy array."""
        solution = solved.solver.response_proto.solution
        return np.fromiter(solution, dtype=np.int64, count=len(solution))
