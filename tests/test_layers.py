"""The dependency rule: compare -> models, heuristics -> problems, never the other way."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "problems": {"models", "heuristics", "compare"},
    "models": {"heuristics", "compare"},
    "heuristics": {"models", "compare"},
}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules = [node.module]
        else:
            continue
        names |= {module.split(".")[1] for module in modules if module.startswith("knightcert.")}
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_import_goes_up_a_layer(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    for path in files:
        wrong = imported_packages(path) & FORBIDDEN[package]
        assert not wrong, f"{path.relative_to(ROOT)} imports {sorted(wrong)}"


def test_every_layer_is_imported_through_knightcert():
    """The four layers are subpackages of ``knightcert``; a bare ``import compare`` would pick up
    whatever other ``compare`` package is installed or sits in the working directory."""
    for package in ("problems", "models", "heuristics", "compare", "tests", "bench", "knightcert"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    modules = [node.module]
                else:
                    continue
                bare = [m for m in modules if m.split(".")[0] in FORBIDDEN or m.split(".")[0] == "compare"]
                assert not bare, f"{path.relative_to(ROOT)} imports {bare} without the knightcert prefix"
