"""The public names of ``knightcert`` resolve, lazily."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import knightcert

PACKAGE = Path(knightcert.__file__).parent


def _public_modules() -> list[Path]:
    """Every module of the package (its linked layer folders included) not named with an underscore."""
    found = []
    for folder, _, files in os.walk(PACKAGE, followlinks=True):
        found += [Path(folder, name) for name in files if name.endswith(".py") and not name.startswith("_")]
    return sorted(found)


def _declared_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign
        ) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            assert isinstance(node.value, ast.List | ast.Tuple), "__all__ is a literal list"
            return [ast.literal_eval(e) for e in node.value.elts]
    return None


def _top_level_names(tree: ast.Module) -> set[str]:
    """Names a module binds at its top level (definitions, assignments, imports)."""
    names: set[str] = set()
    statements = list(tree.body)
    while statements:
        node = statements.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.If | ast.Try | ast.With):  # definitions under a condition
            statements += [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", [])]
            statements += [s for handler in getattr(node, "handlers", []) for s in handler.body]
        else:
            names.update(
                n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            )
    return names


def test_the_layer_folders_are_walked():
    """The check below reaches into the linked layers (a walk that stops at links checks nothing)."""
    folders = {p.relative_to(PACKAGE).parts[0] for p in _public_modules()}
    assert {"problems", "algorithms", "models", "heuristics", "compare", "cli"} <= folders


@pytest.mark.parametrize("path", _public_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_public_module_declares_its_public_names(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    declared = _declared_all(tree)
    assert declared is not None, f"{path.relative_to(PACKAGE)} has no __all__"
    assert len(set(declared)) == len(declared), "a name listed twice"
    missing = set(declared) - _top_level_names(tree)
    assert not missing, f"__all__ lists names the module does not define: {sorted(missing)}"


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
