"""A pytest plugin that runs a cosmic-ray session's mutants affordably: each mutant meets only
the tests that execute the lines it changes, in a child forked from one warm pytest session.

Two modes, chosen by the environment (``-p warm`` with ``bench/mutation`` on ``PYTHONPATH``):

``KC_MAP=map.json KC_TARGETS=/abs/a.py,/abs/b.py``
    record, per test, the lines of the targets it executes (``sys.settrace``, the targets
    only; lines run outside a test, at import, under ``"<import>"``), and its duration.
``KC_SESSION=session.sqlite KC_MAPS=map.json[,map2.json]`` (in a clone: mutants are written to disk)
    collect the tests once; for each pending mutant of the session, apply it on disk
    (cosmic-ray's ``use_mutation``), fork, and in the child run, ``-x`` style and fastest
    first, the collected tests the map says execute the mutated lines. A mutant inside a
    function body is installed in the child by swapping the function's code object; one in a
    module-level ``NAME = value`` by setting the new value wherever the old object is bound;
    any other runs in a fresh ``python -m pytest`` on the mutated file. ``KC_MAX_TEST_S``
    leaves out the tests slower than that (by the map): their mutants' survivors meet them
    later, with any new tests. A mutant no test
    executes survives ("no covering test"); one inside an annotation is skipped as equivalent
    (the targets postpone annotations: they are never evaluated). A time-out kills. The
    results go into the session (``cr-report session.sqlite``), one line per mutant into
    ``session.out``.

Sketch of a run (docs/certificates.md, "Mutation testing")::

    git clone -q . /tmp/mut/knightcert && ln -s "$PWD/../shared" /tmp/mut/shared && cd /tmp/mut/knightcert
    cosmic-ray init sides.toml /tmp/mut/sides.sqlite && cr-filter-operators /tmp/mut/sides.sqlite sides.toml
    KC_MAP=/tmp/mut/map.json KC_TARGETS=$PWD/problems/checkers/sides.py PYTHONPATH=$PWD:bench/mutation \\
        python -m pytest -p warm -p no:xdist -q TESTS
    KC_SESSION=/tmp/mut/sides.sqlite KC_MAPS=/tmp/mut/map.json PYTHONPATH=$PWD:bench/mutation \\
        nice -n 10 python -m pytest -p warm -p no:xdist -q TESTS
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import signal
import sys
import threading
import time
import types
from pathlib import Path

import pytest

os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # a mutant's bytecode must never be cached
sys.dont_write_bytecode = True

IMPORT = "<import>"

# ------------------------------------------------------------------------ recording the line map

_lines: dict[str, set[str]] = {}
_durations: dict[str, float] = {}
_current = [IMPORT]
_real: dict[str, str | None] = {}


def _target(name: str) -> str | None:
    if name not in _real:
        path = os.path.realpath(name)
        _real[name] = path if path in _TARGETS else None
    return _real[name]


def _local(frame, event, arg):
    if event == "line":
        _lines.setdefault(_current[0], set()).add(f"{_real[frame.f_code.co_filename]}:{frame.f_lineno}")
    return _local


def _global(frame, event, arg):
    if _target(frame.f_code.co_filename):
        _lines.setdefault(_current[0], set()).add(f"{_real[frame.f_code.co_filename]}:{frame.f_lineno}")
        return _local
    return None


_TARGETS = set(filter(None, os.environ.get("KC_TARGETS", "").split(",")))
if os.environ.get("KC_MAP"):
    sys.settrace(_global)
    threading.settrace(_global)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _current[0] = item.nodeid
    start = time.perf_counter()
    yield
    _durations[item.nodeid] = time.perf_counter() - start
    _current[0] = IMPORT


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("KC_MAP"):
        sys.settrace(None)
        data = {"lines": {k: sorted(v) for k, v in _lines.items()}, "durations": _durations}
        Path(os.environ["KC_MAP"]).write_text(json.dumps(data))


# ------------------------------------------------------------------------ running the mutants


def _load_maps(root: Path) -> tuple[dict[str, set[str]], dict[str, float], dict[str, set[str]]]:
    """``path:line`` -> tests (paths relative to the mapped checkout), durations, module -> tests."""
    cover: dict[str, set[str]] = {}
    durations: dict[str, float] = {}
    for name in os.environ["KC_MAPS"].split(","):
        data = json.loads(Path(name).read_text())
        durations.update(data["durations"])
        for test, lines in data["lines"].items():
            for entry in lines:
                path, line = entry.rsplit(":", 1)
                cover.setdefault(f"{_relative(path, root)}:{line}", set()).add(test)
    module_tests: dict[str, set[str]] = {}
    for key, tests in cover.items():
        module_tests.setdefault(key.rsplit(":", 1)[0], set()).update(tests - {IMPORT})
    return cover, durations, module_tests


def _relative(path: str, root: Path) -> str:
    """A mapped file's path inside its checkout (the map may come from another clone)."""
    for parent in Path(path).parents:
        if (parent / ".git").exists() or parent == root:
            return str(Path(path).relative_to(parent))
    return path


def _annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every annotation's (start, end), when the module postpones annotations (else none)."""
    tree = ast.parse(source)
    postponed = any(
        isinstance(n, ast.ImportFrom)
        and n.module == "__future__"
        and any(a.name == "annotations" for a in n.names)
        for n in tree.body
    )
    spans = []
    for node in ast.walk(tree) if postponed else ():
        found: list[ast.expr | None] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            found += [node.returns, *(x.annotation for x in [*a.posonlyargs, *a.args, *a.kwonlyargs])]
            found += [x.annotation for x in (a.vararg, a.kwarg) if x]
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        spans += [((n.lineno, n.col_offset), (n.end_lineno, n.end_col_offset)) for n in found if n]
    return spans  # type: ignore[return-value]


def _mode(source: str, first: int, last: int) -> str:
    """``warm`` in a function body, ``constant`` in a module-level assignment, else ``fresh``."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.body
        if function and node.body[0].lineno <= first and last <= (node.end_lineno or 0):
            return "warm"
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.lineno <= first and last <= (node.end_lineno or 0):
            return "constant"
    return "fresh"


def _modules(rel: str) -> list[types.ModuleType]:
    target = os.path.realpath(rel)
    return [
        m
        for m in list(sys.modules.values())
        if getattr(m, "__file__", None) and os.path.realpath(m.__file__ or "") == target
    ]


def _mutant_namespace(module: types.ModuleType, mutated: str) -> dict:
    space = {"__name__": module.__name__, "__file__": module.__file__, "__package__": module.__package__}
    exec(compile(mutated, module.__file__ or "", "exec"), space)
    return space


def _swap_code(old: dict, new: dict, module: str, changed: list[str]) -> None:
    """Give each function of ``old`` (classes' methods too) the code of its namesake in ``new``.

    A numba kernel cannot be swapped that way: its dispatcher keeps the machine code it
    compiled or loaded from numba's cache (keyed by the source file's stamp when it was
    imported, the unmutated one). So the mutated kernel, and every kernel that calls it, is
    rebound wherever it is bound under its name to the mutant's fresh dispatcher (its cache
    keyed by the mutated file), which compiles the mutant; the others keep their cached code.
    The project's cached kernel lookups are cleared."""
    kernels = {n: f for n, f in new.items() if hasattr(f, "py_func") and hasattr(old.get(n), "py_func")}
    mutated = {n for n, f in kernels.items() if f.py_func.__code__ != old[n].py_func.__code__}
    if mutated:
        changed += sorted(mutated)
        while True:  # the kernels that call a mutated one are compiled afresh too (the rest: cached)
            calling = {n for n, f in kernels.items() if mutated & set(f.py_func.__code__.co_names)}
            if calling <= mutated:
                break
            mutated |= calling
        for name in mutated:
            fresh, stale = kernels[name], old[name]
            for other in list(sys.modules.values()):
                space = getattr(other, "__dict__", None)
                if space is not None and space.get(name) is stale:
                    space[name] = fresh
        lookup = getattr(sys.modules.get("knightcert.problems.compiled"), "kernel_or_numba", None)
        getattr(lookup, "cache_clear", lambda: None)()
    for name, fresh in new.items():
        if name in kernels:
            continue
        stale = old.get(name)
        if stale is None or stale is fresh:
            continue
        for attr in ("__func__", "__wrapped__", "fget"):
            if not isinstance(fresh, type) and hasattr(fresh, attr) and hasattr(stale, attr):
                fresh, stale = getattr(fresh, attr), getattr(stale, attr)
        if isinstance(fresh, types.FunctionType) and isinstance(stale, types.FunctionType):
            if stale.__code__ != fresh.__code__:
                changed.append(name)
            stale.__code__ = fresh.__code__
            stale.__defaults__, stale.__kwdefaults__ = fresh.__defaults__, fresh.__kwdefaults__
        elif isinstance(fresh, type) and isinstance(stale, type) and fresh.__module__ == module:
            _swap_code(dict(vars(stale)), dict(vars(fresh)), module, changed)


def _set_constants(old: dict, new: dict, changed: list[str]) -> None:
    """Bind each changed plain value of ``new`` wherever its old object is bound under its name."""
    for name, fresh in new.items():
        stale = old.get(name, fresh)
        plain = isinstance(fresh, int | str | float | tuple | frozenset)
        if plain and type(fresh) is type(stale) and fresh != stale:
            changed.append(name)
            for other in list(sys.modules.values()):
                space = getattr(other, "__dict__", None)
                if space is not None and space.get(name) is stale:
                    space[name] = fresh


def _child(mode: str, rel: str, mutated: str, items: list, ids: list[str], log: Path) -> None:
    """The forked child: install the mutant, run the items, exit 1 on a failure (never returns)."""
    code = 97
    try:
        os.setpgid(0, 0)
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        if mode == "fresh":
            command = ["-m", "pytest", "-x", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", *ids]
            os.execv(sys.executable, [sys.executable, *command])
        changed: list[str] = []
        for module in _modules(rel):
            space = _mutant_namespace(module, mutated)
            if mode == "constant":
                _set_constants(module.__dict__, space, changed)
            else:
                _swap_code(module.__dict__, space, module.__name__, changed)
        print("installed", changed, flush=True)
        code = _run_items(items) if changed else 98
    except BaseException:  # reported as the tool's error, never as a kill
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        os._exit(code)


def _run_items(items: list) -> int:
    from _pytest.runner import runtestprotocol

    for k, item in enumerate(items):
        reports = runtestprotocol(item, nextitem=items[k + 1] if k + 1 < len(items) else None, log=False)
        if any(report.failed for report in reports):
            return 1
    return 0


def _wait(pid: int, timeout: float) -> tuple[int | None, float]:
    """The child's exit code (None: killed at the time-out) and its seconds."""
    start = time.monotonic()
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), time.monotonic() - start
        if time.monotonic() - start > timeout:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None, time.monotonic() - start
        time.sleep(0.01)


def _run(mode: str, rel: str, mutated: str, items: list, ids: list[str], log: Path, budget: float):
    pid = os.fork()
    if pid == 0:
        _child(mode, rel, mutated, items, ids, log)
    return _wait(pid, budget)


def _import_targets(session) -> None:
    """Import the session's mutated modules that the collected tests import only when they run
    (a kernel loaded on first use), so that their mutants are installed warm; and when numba
    is loaded, compile one function, so that each child does not start numba's compiler again."""
    import importlib
    import sqlite3

    with sqlite3.connect(os.environ["KC_SESSION"]) as db:
        paths = {row[0] for row in db.execute("select distinct module_path from mutation_specs")}
    for rel in sorted(paths):
        if not _modules(rel):
            with contextlib.suppress(ImportError):
                importlib.import_module("knightcert." + rel.removesuffix(".py").replace("/", "."))
    if "numba" in sys.modules:
        sys.modules["numba"].njit(lambda x: x + 1)(1)


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    if not os.environ.get("KC_SESSION"):
        return None
    from cosmic_ray.mutating import _make_diff, mutate_code, use_mutation
    from cosmic_ray.plugins import get_operator
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    cover, durations, module_tests = _load_maps(Path.cwd())
    _import_targets(session)
    by_id = {item.nodeid: item for item in session.items}
    cap = float(os.environ.get("KC_MAX_TEST_S", "inf"))  # slower tests (by the map) left to a second pass
    database = Path(os.environ["KC_SESSION"])
    logs = database.with_suffix(".logs")
    logs.mkdir(exist_ok=True)
    with use_db(str(database), WorkDB.Mode.open) as db, open(database.with_suffix(".out"), "a") as out:
        for work in list(db.pending_work_items):
            (mutation,) = work.mutations
            rel = str(mutation.module_path)
            first, last = mutation.start_pos[0], mutation.end_pos[0]
            where = f"{rel}:{first} {mutation.operator_name}#{mutation.occurrence}"
            source = Path(rel).read_text()
            inside = [
                a <= tuple(mutation.start_pos) and tuple(mutation.end_pos) <= b
                for a, b in _annotation_spans(source)
            ]
            if any(inside):
                why = "equivalent: inside an annotation, never evaluated (from __future__ import annotations)"
                db.set_result(work.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=why))
                print(where, "annotation (equivalent)", file=out, flush=True)
                continue
            found = set().union(*(cover.get(f"{rel}:{line}", set()) for line in range(first, last + 1)))
            if IMPORT in found:
                found = (found - {IMPORT}) | module_tests.get(rel, set())
            ids = sorted(
                (t for t in found if t in by_id and durations.get(t, 0) <= cap),
                key=lambda t: durations.get(t, 0.0),
            )
            operator = get_operator(mutation.operator_name)()
            try:
                mutate_code(source, operator, mutation.occurrence)
            except Exception as error:  # the operator's own fault (cosmic-ray 8.7: a dotted exception name)
                db.set_result(
                    work.job_id, WorkResult(worker_outcome=WorkerOutcome.EXCEPTION, output=repr(error))
                )
                print(where, "the operator failed:", repr(error), file=out, flush=True)
                continue
            with use_mutation(Path(rel), operator, mutation.occurrence) as (original, mutated):
                if mutated is None:
                    db.set_result(work.job_id, WorkResult(worker_outcome=WorkerOutcome.NO_TEST))
                    continue
                diff = "\n".join(_make_diff(original, mutated, rel))
                mode = _mode(original, first, last)
                code, took, text = 0, 0.0, "no covering test"
                if ids:
                    log = logs / f"{work.job_id}.log"
                    budget = 60 + 5 * sum(durations.get(t, 5) for t in ids)
                    items = [by_id[t] for t in ids]
                    code, took = _run(mode, rel, mutated, items, ids, log, budget)
                    if code == 98:  # nothing installed: run it fresh
                        mode = "fresh"
                        code, took = _run(mode, rel, mutated, items, ids, log, budget)
                    text = f"{mode}; {len(ids)} tests; exit {code}; {took:.1f} s\n" + log.read_text()[-3000:]
            # 5: no test ran; 97: the tool's error; 4 (usage) kills only when the mutant broke collection
            broken = code == 4 and "SyntaxError" in text
            killed = code is None or code not in (0, 4, 5, 97) or broken
            db.set_result(
                work.job_id,
                WorkResult(
                    worker_outcome=WorkerOutcome.EXCEPTION if code == 97 else WorkerOutcome.NORMAL,
                    test_outcome=TestOutcome.KILLED if killed else TestOutcome.SURVIVED,
                    output=text,
                    diff=diff,
                ),
            )
            fate = "killed" if killed else "survived"
            print(f"{where} {mode} {fate} exit={code} tests={len(ids)} {took:.1f}s", file=out, flush=True)
    return True
