"""The public names of ``knightcert`` resolve, lazily."""

from __future__ import annotations

import subprocess
import sys

import knightcert


def test_every_public_name_resolves():
    assert set(knightcert.__all__) == set(knightcert._LAZY)
    for name in knightcert.__all__:
        assert getattr(knightcert, name) is not None


def test_import_knightcert_loads_no_solver():
    heavy = "('numpy', 'ortools', 'numba')"
    code = f"import sys, knightcert; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_version_matches_the_distribution():
    from importlib.metadata import version

    assert knightcert.__version__ == version("knightcert")
