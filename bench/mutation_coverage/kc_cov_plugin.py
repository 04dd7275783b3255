"""pytest plugin of ``bench/mutation.py --collect``: each test's lines under its node id.

coverage's own ``dynamic_context = test_function`` names a test by its function, so the
cases of a parametrised test share one label; this plugin switches coverage's context to
the node id for a test's setup, call and teardown (and leaves the id in ``KC_COV_TEST`` for
child processes, see ``sitecustomize.py``), so a mutant can be run against exactly the test
cases that execute its line.
"""

from __future__ import annotations

import os

import coverage
import pytest


def pytest_configure(config):
    """Children measure themselves (``sitecustomize.py``) from the run's rc file, not this process."""
    if os.environ.get("KC_COV_RC"):
        os.environ["COVERAGE_PROCESS_START"] = os.environ["KC_COV_RC"]


def _switch(label: str) -> None:
    current = coverage.Coverage.current()
    if current is not None:
        current.switch_context(label)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    os.environ["KC_COV_TEST"] = item.nodeid
    _switch(item.nodeid)
    try:
        yield
    finally:
        os.environ.pop("KC_COV_TEST", None)
        _switch("")
