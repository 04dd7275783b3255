"""Solving a CP-SAT model with the project's conventions.

Every native status is mapped explicitly; ``MODEL_INVALID`` raises.

Portfolio. The workers come from the machine: ``$KNIGHTCERT_THREADS`` (the harness sets it
to the usable CPUs // parallel runs) or else the CPUs this process may run on
(:mod:`knightcert.problems.cores`); from ``MIN_PORTFOLIO`` (4) threads on CP-SAT
runs its full portfolio with that many workers (its LP-based workers ``default_lp``,
``max_lp`` and the LNS workers among them), below it one worker, the ``default_lp``
search with the model's LP (``linearization_level`` 2): on 2 cores CP-SAT's own 2-worker
portfolio drops the full-LP worker, and measured weaker than one worker on every model
(docs/benchmarks-archive.md, "CP-SAT workers" and ``bench/bench_cpsat.py``). ``workers=`` overrides.

Parameters per model (``parameters=`` of :func:`solve_cpsat`):

- knights: ``DEFAULT_PARAMETERS`` (every constraint in the LP from the start) with the
  model's colour-class decision strategy;
- tours: ``TOUR_PARAMETERS`` in ``tour_cpsat`` (``linearization_level`` 0: the LP of the
  circuit slows the search to the first tour 10-50x);
- lost knight ``distance`` and jump ``layers``: no LP, no presolve and ``FIXED_SEARCH``
  (bound propagation proves the labelling; the largest-label-first strategy finds it).

Ctrl-C (or any signal handler that raises ``KeyboardInterrupt``) stops the
search and returns the best solution found so far, marked ``interrupted``; the
process's signal handlers are the same after a solve as before it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ortools.sat.python import cp_model

from knightcert.problems import stopping
from knightcert.problems.cores import THREADS_ENV, available_threads
from knightcert.problems.errors import SolverError
from knightcert.problems.result import Status

__all__ = [
    "DEFAULT_PARAMETERS",
    "FREE_SHARE",
    "MIN_PORTFOLIO",
    "STOP_RESERVE",
    "THREADS_ENV",
    "CpSatRun",
    "available_threads",
    "default_workers",
    "solve_cpsat",
]

#: Fewest threads at which CP-SAT's parallel portfolio beats one worker: with 2 (or 3)
#: workers it runs no full LP worker, and on 2 cores it proved 10 x 10 knights in 5.6 s and
#: left 100 x 100 unproven in 10 s, where 1 worker took 0.01 s and 1.6 s (docs/benchmarks-archive.md).
MIN_PORTFOLIO = 4


def default_workers() -> int:
    """CP-SAT workers for a solve whose caller names none.

    The threads it may use (:func:`~knightcert.problems.cores.available_threads`); below
    ``MIN_PORTFOLIO`` threads one worker is used, which measured stronger than a small portfolio.
    """
    threads = available_threads()
    return threads if threads >= MIN_PORTFOLIO else 1


#: Put every constraint into the LP from the start (pure clauses included).
DEFAULT_PARAMETERS: dict[str, object] = {"linearization_level": 2, "add_lp_constraints_lazily": False}

#: Seconds at most kept back from the search for CP-SAT to stop (a quarter of what is left when less).
STOP_RESERVE = 1.0
#: Share of the build time kept back as well, for freeing the model after the solve.
FREE_SHARE = 0.2

#: ``native_status`` of a model whose building used the whole time limit.
_NOT_SOLVED = "NOT_SOLVED (time limit spent building the model)"

_STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
}


@dataclass(frozen=True)
class CpSatRun:
    """What a CP-SAT solve gave: the solver (for values), status, timings."""

    solver: cp_model.CpSolver
    status: Status
    native_status: str
    build_time: float
    solve_time: float
    interrupted: bool = False

    @property
    def time(self) -> float:
        return self.build_time + self.solve_time

    @property
    def has_solution(self) -> bool:
        return self.status in (Status.OPTIMAL, Status.FEASIBLE)

    def info(self) -> dict[str, object]:
        if self.native_status == _NOT_SOLVED:
            return {
                "native_status": self.native_status,
                "build_time_s": round(self.build_time, 6),
                "stopped": "time limit reached while building the model",
            }
        info: dict[str, object] = {
            "native_status": self.native_status,
            "build_time_s": round(self.build_time, 6),
            "solver_wall_time_s": round(self.solve_time, 6),
            "branches": self.solver.num_branches,
            "conflicts": self.solver.num_conflicts,
        }
        if self.interrupted:
            info["interrupted"] = True
            info["stopped"] = "interrupted"
        return info


def solve_cpsat(
    model: cp_model.CpModel,
    *,
    began: float,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    parameters: dict[str, object] | None = None,
    stop_at: float | None = None,
    stop_when: Callable[[], bool] | None = None,
) -> CpSatRun:
    """Solve ``model``; ``began`` is the ``perf_counter`` time model building began.

    Parameters
    ----------
    model : CpModel
    began : float
        ``time.perf_counter()`` taken before the model was built, so that the
        reported time covers building as well as solving.
    time_limit : float, optional
        Seconds for the whole method call, building included: the search gets
        what is left after building (``max_time_in_seconds``). When building
        used it all, nothing is solved and the status is ``UNKNOWN`` with
        ``native_status`` "NOT_SOLVED" (time limit spent building the model).
    seed : int, optional
        ``random_seed`` of the search.
    workers : int, optional
        ``num_workers``; default :func:`default_workers`.
    parameters : dict, optional
        ``SatParameters`` fields set by name; default ``DEFAULT_PARAMETERS``.
    stop_at : float, optional
        An objective value (as reported, i.e. scaled) known to be the best possible: the
        search stops at the first solution that reaches it (a solution callback), since
        the caller holds the proof that nothing better exists (e.g. Kőnig's bound).
    stop_when : callable, optional
        Asked every 0.05 s during the search; the search stops (as at a time limit, with
        its best solution) once it returns True — e.g. when a proof running alongside ends.

    Raises
    ------
    SolverError
        When CP-SAT answers ``MODEL_INVALID`` (a bug in the model, never the user's input).
    """
    build_time = time.perf_counter() - began
    solver = cp_model.CpSolver()
    if time_limit is not None:
        left = float(time_limit) - build_time
        if left <= 0:
            return CpSatRun(solver, Status.UNKNOWN, _NOT_SOLVED, build_time, 0.0)
        # keep back a little for CP-SAT to stop and hand over its answer (it overran by 0.5 s
        # after the search on 400 x 400 knights), so that the call ends within the limit
        # and for freeing the model afterwards (0.5 s after a 3 s build, measured)
        reserve = min(STOP_RESERVE, 0.25 * left) + FREE_SHARE * build_time
        solver.parameters.max_time_in_seconds = max(left - reserve, 1e-3)
    if seed is not None:
        solver.parameters.random_seed = int(seed)
    solver.parameters.num_workers = default_workers() if workers is None else int(workers)
    for name, value in (DEFAULT_PARAMETERS if parameters is None else parameters).items():
        setattr(solver.parameters, name, value)
    # CP-SAT's own Ctrl-C handling leaves SIGINT at the system default afterwards (the next Ctrl-C
    # kills the process): off; the search runs in a helper thread (it releases the GIL) instead
    solver.parameters.catch_sigint_signal = False
    callback = None if stop_at is None else _StopAt(stop_at)
    native, interrupted = stopping.run_stoppable(
        lambda: solver.solve(model, callback), solver.stop_search, stop_when
    )
    if native == cp_model.MODEL_INVALID:
        raise SolverError(f"CP-SAT rejected the model: {model.validate()}")
    if native not in _STATUS:  # pragma: no cover - every documented status is mapped above
        raise SolverError(f"unexpected CP-SAT status {solver.status_name(native)}")
    return CpSatRun(
        solver, _STATUS[native], solver.status_name(native), build_time, solver.wall_time, interrupted
    )


class _StopAt(cp_model.CpSolverSolutionCallback):
    """Stops the search at the first solution whose objective is ``target`` (an optimum
    proven elsewhere, so no solution goes past it)."""

    def __init__(self, target: float) -> None:
        super().__init__()
        self.target = target

    def on_solution_callback(self) -> None:
        if abs(self.objective_value - self.target) < 1e-6:
            self.stop_search()
