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
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_import_goes_up_a_layer(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    for path in files:
        wrong = imported_packages(path) & FORBIDDEN[package]
        assert not wrong, f"{path.relative_to(ROOT)} imports {sorted(wrong)}"
