"""The CP-SAT wrapper leaves the process's signal handling as it found it."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from ortools.sat.python import cp_model

from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.result import Status


@pytest.fixture(autouse=True)
def python_ctrl_c():
    """Python's own Ctrl-C handler while each test runs, whatever the run started with (a
    process started in the background with ``&`` or ``nohup`` inherits SIGINT ignored, and
    then no Ctrl-C reaches a solve); the previous handler after it."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _tiny_model() -> cp_model.CpModel:
    model = cp_model.CpModel()
    x = model.new_int_var(0, 10, "x")
    model.maximize(x)
    return model


def _hard_model() -> cp_model.CpModel:
    """Most independent knights on a 31 x 31 torus: the LP bound is far off, no quick proof."""
    n = 31
    model = cp_model.CpModel()
    cell = [[model.new_bool_var(f"k{r}_{c}") for c in range(n)] for r in range(n)]
    for r in range(n):
        for c in range(n):
            for dr, dc in ((1, 2), (2, 1), (1, -2), (2, -1)):
                model.add_bool_or([cell[r][c].Not(), cell[(r + dr) % n][(c + dc) % n].Not()])
    model.maximize(sum(v for row in cell for v in row))
    return model


def test_sigint_handler_is_the_same_after_a_solve():
    before = signal.getsignal(signal.SIGINT)
    run = solve_cpsat(_tiny_model(), began=time.perf_counter(), time_limit=5)
    assert run.status is Status.OPTIMAL and not run.interrupted
    assert signal.getsignal(signal.SIGINT) is before
    # and Ctrl-C still raises here, as before the solve (CP-SAT's own handler would leave SIG_DFL)
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
        time.sleep(0.1)


def test_sigint_during_a_solve_returns_the_best_so_far_marked_interrupted():
    before = signal.getsignal(signal.SIGINT)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    began = time.perf_counter()
    run = solve_cpsat(_hard_model(), began=began, time_limit=30, workers=2)
    elapsed = time.perf_counter() - began
    timer.cancel()
    assert run.interrupted and run.info()["interrupted"] is True
    assert run.status in (Status.FEASIBLE, Status.UNKNOWN, Status.OPTIMAL)
    assert elapsed < 10
    assert signal.getsignal(signal.SIGINT) is before


def test_a_solve_off_the_main_thread_does_not_touch_signals():
    before = signal.getsignal(signal.SIGINT)
    runs = []
    worker = threading.Thread(
        target=lambda: runs.append(solve_cpsat(_tiny_model(), began=time.perf_counter(), time_limit=5))
    )
    worker.start()
    worker.join()
    assert runs[0].status is Status.OPTIMAL
    assert signal.getsignal(signal.SIGINT) is before
