"""The house rules: dependencies flow one way, and no module is part of an import circle.

Layers, top to bottom::

    cli  ->  compare  ->  knightcert (the front door)  ->  models, heuristics  ->  algorithms  ->  problems

A module imports only from its own layer or a lower one (models and heuristics
never import each other). Every import counts: top-level, inside a function
(lazy), under ``TYPE_CHECKING``, every ``"knightcert.module:attribute"``
string (the registry's and the front door's lazy tables, ``importlib`` calls),
and every name computed from a literal prefix (``import_module(f"knightcert.x.{name}")``
or ``"knightcert.x." + name``), which counts as an import of every module under that prefix.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: folder -> the import prefix its modules have
FOLDERS = {
    "problems": "knightcert.problems",
    "algorithms": "knightcert.algorithms",
    "models": "knightcert.models",
    "heuristics": "knightcert.heuristics",
    "compare": "knightcert.compare",
    "knightcert": "knightcert",
}

#: layer -> rank; a module may import only modules of a lower rank or its own layer
RANK = {"problems": 0, "algorithms": 1, "models": 2, "heuristics": 2, "front": 3, "compare": 4, "cli": 5}
#: the layers that are folders at the top of a checkout, linked into knightcert/
LAYER_FOLDERS = ("problems", "algorithms", "models", "heuristics", "compare")

#: a lazily imported module named in a string: "knightcert.x.y" or "knightcert.x.y:attribute"
MODULE_STRING = re.compile(r"^(knightcert(?:\.[A-Za-z_]\w*)*)(?::[A-Za-z_][\w.]*)?$")


def _python_files(folder: Path) -> list[Path]:
    """The ``.py`` files under ``folder``, not following the layer links inside ``knightcert/``."""
    found = []
    for path in folder.iterdir():
        if path.is_symlink():
            continue
        if path.is_dir():
            found += _python_files(path)
        elif path.suffix == ".py":
            found.append(path)
    return found


def module_files() -> dict[str, Path]:
    """Every module of the package: dotted name -> file."""
    found = {}
    for folder, prefix in FOLDERS.items():
        for path in sorted(_python_files(ROOT / folder)):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([prefix, *parts])] = path
    return found


MODULES = module_files()


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYER_FOLDERS:
        return parts[1]
    if module == "knightcert.__main__" or (len(parts) > 1 and parts[1] == "cli"):
        return "cli"
    return "front"


def _target(name: str) -> str | None:
    """The package module ``name`` refers to (the longest known prefix), or None outside the package."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _computed_prefix(node: ast.AST) -> str | None:
    """The literal start of a module name computed at run time (an f-string or ``"..." + x``)."""
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = node.left
        if isinstance(left, ast.Constant) and isinstance(left.value, str):
            return left.value
        return _computed_prefix(left)
    return None


def imports_of(module: str, source: str | None = None) -> set[str]:
    """Every package module ``module`` imports, lazily or not (see the module docstring)."""
    path = MODULES.get(module)
    tree = ast.parse(path.read_text() if source is None else source)
    if path is None:
        path = Path(module.replace(".", "/") + ".py")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module's package
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names |= {f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES}
        elif (prefix := _computed_prefix(node)) is not None and prefix.startswith("knightcert."):
            # a computed name: every module it could name counts
            names |= {name for name in MODULES if name.startswith(prefix) and name != "knightcert"}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = MODULE_STRING.match(node.value)
            # an exact module name below the top (the bare word "knightcert" is the distribution's name)
            if match and match.group(1) in MODULES and match.group(1) != "knightcert":
                names.add(match.group(1))
    targets = {_target(name) for name in names if name.startswith("knightcert")}
    return {t for t in targets if t is not None and t != module}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """Every package module -> the package modules it imports, read when a test first asks
    (not at collection, which every test worker does)."""
    return {module: imports_of(module) for module in MODULES}


def test_a_computed_upward_import_is_seen():
    """``import_module`` with an f-string (or a concatenation) is read, not missed."""
    for source in (
        'import importlib\nimportlib.import_module(f"knightcert.compare.{name}")\n',
        'import importlib\nimportlib.import_module("knightcert.compare." + name)\n',
        'import importlib\nimportlib.import_module("knightcert.comp" + "are." + name)\n',
    ):
        found = imports_of("knightcert.problems.planted", source)
        assert "knightcert.compare.runner" in found, source
        assert all(layer(t) == "compare" for t in found)


def test_the_graph_is_read(graph):
    assert {"knightcert.cli.main", "knightcert.registry", "knightcert.compare.runner"} <= set(graph)
    assert "knightcert.registry" in graph["knightcert.solving"]
    # the methods' lazy "module:function" strings count as imports
    assert "knightcert.algorithms.knights_matching" in graph["knightcert.specs"]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_goes_up_a_layer(module, graph):
    own = layer(module)
    wrong = []
    for target in sorted(graph[module]):
        other = layer(target)
        if RANK[other] > RANK[own] or (RANK[other] == RANK[own] and other != own):
            wrong.append(f"{target} ({other})")
    assert not wrong, f"{module} ({own}) imports {wrong}"


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def test_no_import_circle_anywhere(graph):
    circles = [c for c in strongly_connected(graph) if len(c) > 1]
    assert not circles, f"import circles: {circles}"


def test_the_circle_check_can_fail():
    circle = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert [c for c in strongly_connected(circle) if len(c) > 1] == [["a", "b", "c"]]


def test_compare_holds_no_command_line_module():
    names = sorted(p.stem for p in (ROOT / "compare").glob("*.py"))
    assert not [n for n in names if n.startswith("cli") or n in ("arguments", "output", "render", "__main__")]
    for module in MODULES:
        if layer(module) == "compare":
            assert "argparse" not in MODULES[module].read_text(), module


def test_no_name_is_both_a_function_and_a_subpackage():
    import importlib
    import pkgutil

    import knightcert

    submodules = {info.name for info in pkgutil.iter_modules(knightcert.__path__)}
    clashes = [
        name
        for name in dir(knightcert)
        if name in submodules and not isinstance(getattr(knightcert, name), type(knightcert))
    ]
    assert not clashes
    # in every import order, knightcert.problems is the subpackage
    assert importlib.import_module("knightcert.problems") is knightcert.problems
    from knightcert import problems

    assert problems.__name__ == "knightcert.problems"


def test_every_layer_is_imported_through_knightcert():
    """The four layers are subpackages of ``knightcert``; a bare ``import compare`` would pick up
    whatever other ``compare`` package is installed or sits in the working directory."""
    layers = {*LAYER_FOLDERS, "cli"}
    # only a file with a statement naming a layer without a dot before it is parsed (joined lines
    # joined first): a bare import has one; the parse then decides
    maybe_bare = re.compile(
        rf"(?m)(?:^|[;:])[ \t]*(?:from|import)[ \t][^\n]*?(?<![.\w])(?:{'|'.join(layers)})\b"
    )
    for statement in (
        "import compare",
        "x = 1; import os, problems.x",
        "if y: from cli import a",
        "import os, \\\n m, models",
    ):
        assert maybe_bare.search(statement.replace("\\\n", " ")), statement
    for package in (*LAYER_FOLDERS, "tests", "bench", "knightcert"):
        for path in sorted(_python_files(ROOT / package)):
            text = path.read_text()
            if not maybe_bare.search(text.replace("\\\n", " ")):
                continue
            tree = ast.parse(text)
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    modules = [node.module]
                else:
                    continue
                bare = [m for m in modules if m.split(".")[0] in layers]
                assert not bare, f"{path.relative_to(ROOT)} imports {bare} without the knightcert prefix"


def test_the_layers_are_linked_into_the_package():
    """Each layer folder is a relative link in knightcert/, so every tool resolves the imports."""
    for folder in LAYER_FOLDERS:
        link = ROOT / "knightcert" / folder
        assert link.is_symlink(), link
        assert link.readlink() == Path("..") / folder
        assert link.resolve() == (ROOT / folder).resolve()


@pytest.mark.parametrize(
    "name", ["knightcert.knightcert", "knightcert.tests", "knightcert.bench", "knightcert.conftest"]
)
def test_nothing_else_imports_under_knightcert(name, tmp_path):
    """Only knightcert's own modules import as ``knightcert.*`` (from the checkout and from elsewhere)."""
    import subprocess
    import sys

    for where in (ROOT, tmp_path):
        code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); import {name}"
        run = subprocess.run([sys.executable, "-c", code], cwd=where, capture_output=True, text=True)
        assert run.returncode != 0 and "ModuleNotFoundError" in run.stderr, (name, where, run.stderr)


@pytest.mark.parametrize("folder", LAYER_FOLDERS)
def test_a_layer_folder_is_not_a_package_of_its_own(folder):
    """``import problems`` from the checkout would load a second copy of the layer: refused."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", f"import {folder}"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode != 0 and f"import knightcert.{folder}" in run.stderr, run.stderr
