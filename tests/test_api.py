"""The public names of ``knightcert`` resolve, lazily."""

from __future__ import annotations

import subprocess
import sys

import knightcert


def test_every_public_name_resolves():
    assert set(knightcert.__all__) == set(knightcert._LAZY) | {"__version__"}
    for name in knightcert.__all__:
        assert getattr(knightcert, name) is not None


def test_the_namespace_holds_exactly_the_public_api():
    """``dir(knightcert)`` lists the documented API and nothing else (no ``Any``, no ``annotations``)."""
    assert dir(knightcert) == sorted(knightcert.__all__)
    public = ("Evidence", "Backing", "InstanceTooLarge", "AnswerFileError", "knights_instance", "read_jump")
    for name in public:
        assert name in knightcert.__all__
    for leaked in ("Any", "TYPE_CHECKING", "annotations", "os"):
        assert leaked not in dir(knightcert)


def test_version_on_the_command_line():
    run = subprocess.run(
        [sys.executable, "-m", "knightcert", "--version"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"knightcert {knightcert.__version__}"


def test_a_usage_error_names_the_program_once():
    run = subprocess.run(
        [sys.executable, "-m", "knightcert", "--no-such-flag"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2
    assert run.stderr.count("knightcert") == 1, run.stderr


def test_import_knightcert_loads_no_solver():
    heavy = "('numpy', 'ortools', 'numba')"
    code = f"import sys, knightcert; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_version_matches_the_distribution():
    from importlib.metadata import version

    assert knightcert.__version__ == version("knightcert")
