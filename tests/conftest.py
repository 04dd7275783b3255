"""Shared fixtures: the ../shared data (skipped cleanly when absent) and random boards."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from hypothesis import settings

# a shell without job control starts background jobs with Ctrl-C ignored, and Python then keeps
# ignoring it: the Ctrl-C tests (in this process and in the commands they start) would wait forever
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# property tests draw the same examples on every run: CI results do not depend on luck
settings.register_profile("knightcert", derandomize=True, deadline=None, database=None)
settings.load_profile("knightcert")

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``data`` the tests whose outcome depends on ../shared: those that ask for its fixture
    and the demo's (it reads the data when present). CI runs them again in a clone without it."""
    for item in items:
        if "shared_data" in getattr(item, "fixturenames", ()) or "demo" in item.name:
            item.add_marker(pytest.mark.data)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` beside the checkout; skips the test when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present beside this checkout")
    return SHARED_DATA


@pytest.fixture(scope="session")
def lost_knight_expected(shared_data: Path) -> dict[str, int]:
    data = json.loads((shared_data / "lost-knight" / "expected.json").read_text())
    return {name: value for name, value in data.items() if not name.startswith("_")}


@pytest.fixture
def fake_method(monkeypatch):
    """``fake_method(function)``: every method name of every entry point runs ``function`` as if it
    were a built-in method (the one run path, ``knightcert.solving.run``, resolves it)."""
    from knightcert import solving
    from knightcert.registry import MethodRef

    def install(function):
        def resolve(problem, name):
            return MethodRef(problem, getattr(name, "name", name), False, "built-in", function)

        monkeypatch.setattr(solving, "resolve", resolve)

    return install
