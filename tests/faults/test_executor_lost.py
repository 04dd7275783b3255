"""Losing the executor (a Dask scheduler) mid-run: one error, the finished runs kept, the rest
redone on resume (issue 28)."""

from __future__ import annotations

import json
from concurrent.futures import Executor, Future, ThreadPoolExecutor

import pytest

from knightcert.compare.comparison import run_comparison
from knightcert.compare.runner import ExecutorLost, executor_lost
from knightcert.compare.suites import build_suite, resolve_suite


class LosesItsScheduler(Executor):
    """Runs the first ``good`` tasks, then every future is cancelled, as when a Dask scheduler dies."""

    def __init__(self, good: int) -> None:
        self.good = good
        self.pool = ThreadPoolExecutor(1)

    def submit(self, fn, /, *args, **kwargs):
        if self.good > 0:
            self.good -= 1
            return self.pool.submit(fn, *args, **kwargs)
        future: Future = Future()
        future.cancel()
        future.set_running_or_notify_cancel()  # cancelled, and said so to its waiters
        return future


@pytest.mark.heavy
def test_a_lost_scheduler_keeps_the_finished_runs_and_a_resume_redoes_the_rest(tmp_path):
    out = tmp_path / "r.json"
    spec = resolve_suite("knights", "scaling", sizes=[4, 5, 6])
    items = build_suite("knights", spec)
    with pytest.raises(ExecutorLost, match="run the same command again"):
        run_comparison("knights", items, ["greedy", "matching"], out=out, suites=[spec],
                       executor=LosesItsScheduler(2), reference=False)  # fmt: skip
    kept = json.loads(out.read_text())["runs"]
    assert len(kept) <= 2 and not any("CancelledError" in r["error"] for r in kept)  # no crash rows
    ran = []
    rows = run_comparison("knights", items, ["greedy", "matching"], out=out, suites=[spec],
                          on_row=ran.append, reference=False)  # fmt: skip
    assert len(ran) == 6 - len(kept) and len(rows) == 6
    assert not any("crash" in r.error for r in rows)


def test_what_counts_as_a_lost_executor():
    from concurrent.futures import CancelledError
    from concurrent.futures.process import BrokenProcessPool

    assert executor_lost(CancelledError()) and executor_lost(BrokenProcessPool())
    assert not executor_lost(RuntimeError("the method failed"))
