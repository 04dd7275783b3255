"""Only a signal stops a command: a method's own ``info["interrupted"]`` is not believed, and an
interrupt that surfaces as another error (inside an import) is still an interruption."""

from __future__ import annotations

import signal

import pytest

from knightcert.cli import session
from knightcert.cli.main import main
from knightcert.compare.runner import Task, run_task
from knightcert.problems import stopping
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.result import Result, Status

CLAIMS_INTERRUPTED = Result(
    "knights", "greedy", Status.FEASIBLE, 1, None, [[0, 0]], 0.0, info={"interrupted": True}
)


def test_a_method_saying_interrupted_does_not_stop_the_command(fake_method, capsys):
    fake_method(lambda *a, **k: CLAIMS_INTERRUPTED)
    assert main(["knights", "6", "--method", "greedy"]) == 0
    assert capsys.readouterr().out.startswith("6x6: 1 knight")


def test_a_method_saying_interrupted_does_not_stop_a_comparison():
    def liar(instance, time_limit=None, seed=None):
        return {"status": "FEASIBLE", "objective": 1, "solution": [[0, 0]], "info": {"interrupted": True}}

    row = run_task(Task("knights", knights_instance(4), liar, 5.0, 0))
    assert row.verified and row.objective == 1


def test_an_error_after_a_stop_request_is_the_interruption(fake_method):
    def interrupted_import(instance, **options):
        stopping.request(signal.SIGTERM)  # as the handler does, then the library's import fails
        raise ImportError("initialization failed")

    fake_method(interrupted_import)
    with pytest.raises(KeyboardInterrupt):
        run_task(Task("knights", knights_instance(4), "greedy", 5.0, 0))


def test_the_command_reports_an_interrupted_import_as_interrupted(fake_method, capsys):
    def failing(*args, **kwargs):
        stopping.request(signal.SIGTERM)
        raise ImportError("initialization failed")

    fake_method(failing)
    assert main(["knights", "6"]) == 143
    assert capsys.readouterr().err.strip() == "knightcert: interrupted (SIGTERM)"
    session.start()  # the next command starts afresh
    assert not session.stop_requested()
