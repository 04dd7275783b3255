"""Mutation testing of the checkers: do the tests fail when a checker is broken?

``python bench/mutation.py [--sample N] [--seed S] [--jobs J] [--operators quiet] [--select coverage]``

Each mutant is the source of one checker module with one small change made on its
syntax tree — a comparison flipped (``<`` to ``<=``, ``==`` to ``!=``, ``in`` to
``not in``, ``is`` to ``is not``), ``and`` swapped with ``or``, a ``not`` dropped,
a ``raise`` replaced by ``pass`` (a dropped validation), a small integer constant
moved by one, a ``%`` dropped (a skipped torus wrap), a returned ``True``/``False``
flipped. Quieter operators (issue 30, ``--operators quiet``): one condition of an
``and``/``or`` dropped (``a and b`` -> ``a``, -> ``b``), one entry of a table of
pairs deleted (a move or direction table such as ``KNIGHT_OFFSETS``), an integer
constant of a comparison moved down by one (the existing ``constant`` moves
constants up), a returned check negated (``return x < y`` -> ``return not (...)``),
and a loop's first iteration skipped (``for x in xs`` -> ``for x in list(xs)[1:]``).
A mutant is *killed* when the tests fail on it (or run past their time
limit); a *survivor* is one they pass. The tests run are the checker tests of the
default test command (``CHECKER_TESTS``); a survivor is then run against the whole
default command before it is counted as surviving.

``--select coverage`` replaces the checker test files by the tests of the whole default suite
that execute the mutated lines (it needs coverage.py: ``pip install coverage``, a bench-only
tool, not a dependency of the package): ``--collect`` runs the whole suite once under coverage
(each test's lines labelled with its node id, the Python processes it starts included) and
writes a map; each mutant then meets its module's first test files, then the other tests that
execute its lines (code run at import: every test that runs the module; numba kernels: every
test that runs the module or its caller, ``x.py`` for ``x_kernel.py``), then the whole suite. A
test that never runs a mutated line sees the original code, so the selection decides as the
whole suite would. ``--survivors defer`` records a survivor of its tests instead of running the
whole suite at once (a survivor is then killed by a new test, or classified); ``--verify`` runs
each kill's witness (its first failing test) on the unmutated checkout, and a kill whose
witness fails there is not counted; ``--resume`` keeps what a stopped run decided; ``--only``
re-runs named mutants, and ``--tests whole`` runs them against the whole default command only
(a survivor of a subset of it).

Every mutant runs in a copy of the checkout (one per job, ``../shared`` linked beside it as
beside the checkout), so the checkout itself is never touched. The mutants are listed in a
fixed order and ``--sample`` draws a deterministic sample of them (``--seed``), so a run is
repeatable. Results go to ``bench/mutation-results.json`` (every mutant, its place and its
fate); the score and the survivors are recorded in docs/certificates.md.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = [
    "problems/checkers/__init__.py",
    "problems/checkers/common.py",
    "problems/checkers/fields.py",
    "problems/checkers/plain.py",
    "problems/checkers/path.py",
    "problems/checkers/jump.py",
    "problems/checkers/knights.py",
    "problems/checkers/tour.py",
    "problems/answers.py",
]
#: The quiet operators' targets (issue 30): the checkers, the proof checker, answers, moves.
QUIET_TARGETS = [
    *TARGETS,
    "problems/checkers/clausal_proof.py",
    "problems/checkers/knights_cnf.py",
    "problems/checkers/lrat.py",
    "problems/checkers/lrat_kernel.py",
    "problems/checkers/lrat_files.py",
    "problems/moves.py",
    "problems/checkers/knights_band.py",
    "problems/checkers/knights_band_kernel.py",
    "problems/checkers/tour_separator.py",
    "problems/checkers/tour_cuts.py",
    "problems/checkers/jump_kernel.py",
]
#: Operators of each set.
OPERATORS = {
    "loud": ("compare", "boolop", "not", "raise", "modulo", "constant", "return"),
    "quiet": ("dropcond", "table", "bound", "negate", "skipfirst"),
}
#: Test files a target's mutants meet first (with -x most die there).
FIRST_TESTS = {
    "problems/checkers/clausal_proof.py": ["tests/problems/test_knights_proofs.py"],
    "problems/checkers/knights_cnf.py": [
        "tests/problems/test_knights_cnf_spec.py",
        "tests/problems/test_knights_proofs.py",
    ],
    "problems/checkers/lrat.py": ["tests/problems/test_lrat.py", "tests/problems/test_knights_proofs.py"],
    "problems/checkers/lrat_kernel.py": [
        "tests/problems/test_lrat.py",
        "tests/problems/test_knights_proofs.py",
    ],
    "problems/checkers/lrat_files.py": ["tests/cli/test_export_proof.py"],
    "problems/checkers/knights.py": [
        "tests/problems/test_knights_checker.py",
        "tests/problems/test_knights_proofs.py",
    ],
    "problems/checkers/tour.py": [
        "tests/problems/test_tour_checker.py",
        "tests/problems/test_checker_mutants.py",
    ],
    "problems/checkers/path.py": [
        "tests/problems/test_path_checker.py",
        "tests/problems/test_checker_mutants.py",
    ],
    "problems/checkers/jump.py": [
        "tests/problems/test_jump_checker.py",
        "tests/problems/test_checker_mutants.py",
    ],
    "problems/moves.py": ["tests/problems/test_moves.py", "tests/problems/test_checker_mutants.py"],
    "problems/checkers/knights_band.py": ["tests/problems/test_knights_band.py"],
    "problems/checkers/knights_band_kernel.py": ["tests/problems/test_knights_band.py"],
    "problems/checkers/tour_separator.py": ["tests/problems/test_tour_separator.py"],
    "problems/checkers/tour_cuts.py": ["tests/problems/test_tour_separator.py"],
    "problems/checkers/jump_kernel.py": [
        "tests/problems/test_jump_checker.py",
        "tests/problems/test_checker_mutants.py",
    ],
}
#: Tests written to kill the survivors of a sampled run: not in the coverage map collected
#: before them, so every mutant meets them first (``--select coverage``).
SURVIVOR_TESTS = ["tests/problems/test_quiet_mutants.py"]
CHECKER_TESTS = [  # fastest first: with -x a mutant usually dies in the first file
    "tests/problems/test_forged_answers.py",
    "tests/problems/test_checker_fuzz.py",
    "tests/problems",
    "tests/compare/test_answer_files.py",
    "tests/compare/test_certificates_corpus.py",
    "tests/compare/test_harness_evidence.py",
    "tests/heuristics/test_tour_claims.py",
]
FLIP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


@dataclass
class Mutant:
    path: str
    line: int
    kind: str
    index: int  # the n-th mutation site of its kind in the file
    outcome: str = ""
    seconds: float = 0.0
    selection: str = ""  # --select coverage: how its tests were chosen
    selected: int = 0  # ... and how many
    killed_by: str = ""  # the first failing test (checked to pass on the unmutated code, --verify)
    fast_passed: bool = False  # --select coverage: passed the fast checker files (waits for the map)


def docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of the docstring constants (never mutated)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _is_pair(node: ast.AST) -> bool:
    return isinstance(node, ast.Tuple | ast.List) and len(node.elts) == 2


def quiet_sites(tree: ast.AST) -> list[tuple[str, ast.AST, int]]:
    """(kind, node, position) of the quiet operators' sites, in a fixed order."""
    skip = docstring_nodes(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BoolOp):
            out += [("dropcond", node, i) for i in range(len(node.values))]
        elif isinstance(node, ast.Tuple | ast.List) and len(node.elts) >= 3 and all(map(_is_pair, node.elts)):
            out += [("table", node, i) for i in range(len(node.elts))]
        elif isinstance(node, ast.Compare):
            for i, operand in enumerate([node.left, *node.comparators]):
                if (
                    isinstance(operand, ast.Constant)
                    and type(operand.value) is int
                    and id(operand) not in skip
                ):
                    out.append(("bound", node, i))
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Compare | ast.BoolOp):
            out.append(("negate", node, 0))
        elif isinstance(node, ast.For):
            out.append(("skipfirst", node, 0))
    return out


def sites(tree: ast.AST, operators: tuple[str, ...] = OPERATORS["loud"]) -> list[tuple[str, ast.AST, int]]:
    """(kind, node, position) of every place a mutation of ``operators`` applies, in a fixed order."""
    if set(operators) <= set(OPERATORS["quiet"]):
        return [site for site in quiet_sites(tree) if site[0] in operators]
    skip = docstring_nodes(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            out += [("compare", node, i) for i, op in enumerate(node.ops) if type(op) in FLIP]
        elif isinstance(node, ast.BoolOp):
            out.append(("boolop", node, 0))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append(("not", node, 0))
        elif isinstance(node, ast.Raise):
            out.append(("raise", node, 0))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            out.append(("modulo", node, 0))
        elif (
            isinstance(node, ast.Constant)
            and type(node.value) is int
            and 0 <= node.value <= 64
            and id(node) not in skip
        ):
            out.append(("constant", node, 0))
        elif (
            isinstance(node, ast.Return)
            and isinstance(node.value, ast.Constant)
            and type(node.value.value) is bool
        ):
            out.append(("return", node, 0))
    return out


class Apply(ast.NodeTransformer):
    """Apply the mutation at one site (found by identity) to a tree."""

    def __init__(self, target: ast.AST, kind: str, position: int) -> None:
        self.target, self.kind, self.position = target, kind, position

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if node is not self.target:
            return node
        if self.kind == "compare":
            node.ops[self.position] = FLIP[type(node.ops[self.position])]()
        elif self.kind == "boolop":
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif self.kind == "not":
            return node.operand
        elif self.kind == "raise":
            return ast.Pass()
        elif self.kind == "modulo":
            return node.left
        elif self.kind == "constant":
            node.value = node.value + 1
        elif self.kind == "return":
            node.value = ast.Constant(not node.value.value)
        elif self.kind == "dropcond":
            return node.values[self.position]
        elif self.kind == "table":
            del node.elts[self.position]
        elif self.kind == "bound":
            operand = [node.left, *node.comparators][self.position]
            operand.value = operand.value - 1
        elif self.kind == "negate":
            node.value = ast.UnaryOp(ast.Not(), node.value)
        elif self.kind == "skipfirst":
            whole = ast.Call(ast.Name("list", ast.Load()), [node.iter], [])
            node.iter = ast.Subscript(whole, ast.Slice(ast.Constant(1), None, None), ast.Load())
        return node


def mutants(operators: str = "loud") -> list[Mutant]:
    found = []
    for path in QUIET_TARGETS if operators == "quiet" else TARGETS:
        tree = ast.parse((ROOT / path).read_text())
        counts: dict[str, int] = {}
        for kind, node, _position in sites(tree, OPERATORS[operators]):
            index = counts.get(kind, 0)
            counts[kind] = index + 1
            found.append(Mutant(path, getattr(node, "lineno", 0), kind, index))
    return found


def mutated_source(mutant: Mutant, folder: Path = ROOT) -> str:
    tree = ast.parse((folder / mutant.path).read_text())
    operators = next(ops for ops in OPERATORS.values() if mutant.kind in ops)
    same_kind = [(node, position) for kind, node, position in sites(tree, operators) if kind == mutant.kind]
    node, position = same_kind[mutant.index]
    tree = Apply(node, mutant.kind, position).visit(tree)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)


def copy_checkout(folder: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in listed.decode().split("\0"):
        if name and (ROOT / name).is_symlink():  # the layers linked into knightcert/ (issue 26)
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.readlink(ROOT / name), folder / name)
        elif name and (ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)


#: Test data kept beside the checkout (``tests/conftest.py``'s ``../shared/data``).
SHARED = ROOT.parent / "shared"


def new_copy(prefix: str) -> Path:
    """A fresh copy of the checkout in a temporary folder of its own (remove ``.parent``), with
    ``../shared`` linked beside it as it is beside the checkout: without it the tests of the
    shared data skip (20 of the whole suite)."""
    base = Path(tempfile.mkdtemp(prefix=prefix))
    folder = base / ROOT.name
    folder.mkdir()
    if SHARED.is_dir():
        (base / "shared").symlink_to(SHARED)
    copy_checkout(folder)
    return folder


def tests_pass(folder: Path, tests: list[str], timeout: float, selection: bool = False) -> bool | None:
    """True when the tests pass, False when they fail, None past the time limit (killed).

    Only pytest's "tests failed" (1) and "interrupted by errors" (2: the mutant broke an
    import) count as failing for a ``selection`` of test ids; there a usage error (4: an id not
    found, or a conftest that no longer imports) or an empty selection (5) raise
    ``SelectionError`` so the caller falls back to the whole suite, whose every failure counts.
    """
    env = {
        **os.environ,
        "FUZZ_EXAMPLES": os.environ.get("FUZZ_EXAMPLES", "300"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", *tests],
            cwd=folder,
            env=env,
            capture_output=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None
    if selection and done.returncode in (3, 4, 5):
        raise SelectionError(f"pytest exit {done.returncode}: {done.stdout[-300:]!r}")
    failed = [
        line.split(" ", 1)[1].split(" - ", 1)[0]
        for line in done.stdout.decode(errors="replace").splitlines()
        if line.startswith(("FAILED ", "ERROR "))
    ]
    FIRST_FAILURE[str(folder)] = failed[0] if failed else f"pytest exit {done.returncode}"
    return done.returncode == 0


#: The first failing test of the last run in each folder (a kill's witness).
FIRST_FAILURE: dict[str, str] = {}


class SelectionError(RuntimeError):
    """pytest could not run the selected tests (not a verdict on the mutant)."""


#: ``--tests quick``: the checker test files without the fuzzer and the compare layer, and no
#: whole-suite run for survivors (for a loaded machine; a survivor is then one of these only).
QUICK_TESTS = [
    "tests/problems/test_forged_answers.py",
    "tests/problems/test_checker_mutants.py",
    "tests/problems/test_knights_proofs.py",
    "tests/problems/test_lrat.py",
    "tests/problems/test_knights_checker.py",
    "tests/problems/test_path_checker.py",
    "tests/problems/test_jump_checker.py",
    "tests/problems/test_tour_checker.py",
    "tests/problems/test_moves.py",
    "tests/problems/test_fields.py",
]


#: The coverage map of ``--collect`` (``--select coverage``): which tests execute which lines.
COVERAGE_MAP = ROOT / "bench" / "mutation-coverage.json.gz"
#: The whole default test command (a survivor of its selected tests meets it).
WHOLE_SUITE = ["tests", "-m", "not slow"]


def collect(out: Path = COVERAGE_MAP) -> None:
    """Run the whole default suite once under coverage and write which test runs which line.

    Each test's lines are labelled with its node id (``bench/mutation_coverage/kc_cov_plugin``);
    the Python processes a test starts are measured too and labelled with the same id
    (``bench/mutation_coverage/sitecustomize.py``, put on ``PYTHONPATH`` for this run only).
    Lines run at import (module level) carry no test: ``selected_tests`` treats them, and
    the numba-compiled functions coverage cannot see, conservatively.
    """

    import coverage

    work = Path(tempfile.mkdtemp(prefix="kccov-"))
    rc = work / "rc"
    patterns = "\n    */problems/*.py\n    */problems/checkers/*.py"  # coverage's * stops at a /
    rc.write_text(f"[run]\nparallel = True\ndata_file = {work / '.coverage'}\ninclude ={patterns}\n")
    helpers = ROOT / "bench" / "mutation_coverage"
    env = {
        **os.environ,
        "KC_COV_RC": str(rc),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(helpers), os.environ.get("PYTHONPATH")])),
        "FUZZ_EXAMPLES": os.environ.get("FUZZ_EXAMPLES", "300"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    command = [sys.executable, "-m", "coverage", "run", f"--rcfile={rc}", "-m", "pytest", "-q"]
    subprocess.run([*command, "-p", "kc_cov_plugin", "-p", "no:randomly", *WHOLE_SUITE], cwd=ROOT, env=env)
    subprocess.run(
        [sys.executable, "-m", "coverage", "combine", f"--rcfile={rc}"], cwd=ROOT, env=env, check=True
    )
    write_map(coverage.CoverageData(basename=str(work / ".coverage")), out)
    shutil.rmtree(work, ignore_errors=True)


def write_map(data, out: Path) -> None:
    """``{"tests": [node ids], "lines": {target: {line: [test indices]}}}``, gzipped JSON."""
    import gzip

    data.read()
    tests: dict[str, int] = {}
    lines: dict[str, dict[str, list[int]]] = {}
    for filename in data.measured_files():
        real = Path(os.path.realpath(filename))
        try:
            target = str(real.relative_to(Path(os.path.realpath(ROOT))))
        except ValueError:
            continue
        if target not in QUIET_TARGETS:
            continue
        by_line = lines.setdefault(target, {})
        for line, contexts in data.contexts_by_lineno(filename).items():
            ids = {tests.setdefault(c, len(tests)) for c in contexts if c}
            by_line.setdefault(str(line), [])
            by_line[str(line)] = sorted(set(by_line[str(line)]) | ids)
    listed = sorted(tests, key=tests.get)
    out.write_bytes(gzip.compress(json.dumps({"tests": listed, "lines": lines}).encode(), mtime=0))


def load_map(path: Path = COVERAGE_MAP) -> dict[str, dict[int, set[str]]]:
    """target -> line -> the node ids of the tests that execute it."""
    import gzip

    raw = json.loads(gzip.decompress(path.read_bytes()))
    names = raw["tests"]
    return {
        target: {int(line): {names[i] for i in ids} for line, ids in by_line.items()}
        for target, by_line in raw["lines"].items()
    }


def _site(mutant: Mutant, folder: Path) -> tuple[ast.AST, ast.AST]:
    tree = ast.parse((folder / mutant.path).read_text())
    operators = next(ops for ops in OPERATORS.values() if mutant.kind in ops)
    same_kind = [node for kind, node, _position in sites(tree, operators) if kind == mutant.kind]
    return tree, same_kind[mutant.index]


def selected_tests(
    mutant: Mutant, cover: dict[str, dict[int, set[str]]], folder: Path = ROOT
) -> tuple[list[str], str]:
    """The tests of the whole default suite that execute the mutated code, and how they were chosen.

    A test that never executes the mutated lines runs the original code and passes as it did,
    so these tests decide the mutant as the whole suite would. Three cases are not seen by line
    coverage and are widened: code run at import (module level, default values, decorators:
    every test that runs any line of the module), numba-compiled functions (every test that
    runs a line of the module or of its caller, ``x.py`` for ``x_kernel.py``), and lines no test is
    recorded to run
    (empty: the caller runs the whole suite).
    """
    tree, node = _site(mutant, folder)
    by_line = cover.get(mutant.path, {})
    functions = [
        f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and f.body
    ]
    inside = [f for f in functions if f.body[0].lineno <= node.lineno <= (f.end_lineno or 0)]
    jitted = any("jit" in ast.unparse(d) for f in inside for d in f.decorator_list)
    if jitted:
        users: set[str] = set()
        for target in (mutant.path, mutant.path.replace("_kernel.py", ".py")):
            for ids in cover.get(target, {}).values():
                users |= ids
        return _ordered(users, mutant.path), "numba: users of the module and of its caller"
    if not inside:
        users = set().union(*by_line.values()) if by_line else set()
        return _ordered(users, mutant.path), "module level: every test that runs the module"
    statements = [
        s
        for s in ast.walk(tree)
        if isinstance(s, ast.stmt)
        and s.lineno <= node.lineno
        and (node.end_lineno or 0) <= (s.end_lineno or 0)
    ]
    first = max((s.lineno for s in statements), default=node.lineno)
    lines = {first, *range(node.lineno, (node.end_lineno or node.lineno) + 1)}
    chosen = set().union(*(by_line.get(line, set()) for line in lines))
    return _ordered(chosen, mutant.path), "lines: the tests that execute the mutated lines"


def _ordered(ids: set[str], target: str) -> list[str]:
    """The target's first test files, then the checker tests, then the rest (with -x most die early)."""
    priority = [*FIRST_TESTS.get(target, []), *QUICK_TESTS, *CHECKER_TESTS]

    def rank(nodeid: str) -> tuple[int, str]:
        ranks = [k for k, prefix in enumerate(priority) if nodeid.startswith(prefix)]
        return (min(ranks) if ranks else len(priority), nodeid)

    return sorted(ids, key=rank)


_MAPS: dict[str, dict[str, dict[int, set[str]]]] = {}


def wait_for_map(path: Path) -> dict[str, dict[int, set[str]]]:
    """The coverage map, waiting for ``--collect`` (run beside) to write it."""
    while str(path) not in _MAPS:
        if path.exists():
            _MAPS[str(path)] = load_map(path)
        else:
            time.sleep(10)
    return _MAPS[str(path)]


def run(
    mutant: Mutant,
    folder: Path,
    timeout: float,
    quick: bool = False,
    cover: Path | None = None,
    defer: bool = False,
    whole: bool = False,
) -> Mutant:
    """Run one mutant in ``folder``: killed, or survived its tests and then the whole suite.

    With ``cover`` (``--select coverage``, the coverage map's path) it meets first its module's
    checker test files (``FIRST_TESTS``: part of the whole suite, so a failure there is a kill);
    if it passes them, the other tests of the whole default suite that execute the mutated code
    (``selected_tests``, fastest files first); if it passes those, the whole suite. Otherwise
    (``--select files``) the checker test files, then the whole suite. With ``whole`` (``--tests
    whole``: a survivor of a subset run again) the whole suite only.
    """
    # the copy's own file: the checkout may change while the run goes on, the copies do not
    target = folder / mutant.path
    original = target.read_text()
    stamp = target.stat()
    began = time.perf_counter()
    try:
        source = mutated_source(mutant, folder)
    except (IndexError, SyntaxError):
        mutant.outcome = "invalid"
        return mutant
    target.write_text(source)
    try:
        if whole:  # nothing before the whole default command
            verdict = True
        elif cover is not None:
            fast = [*FIRST_TESTS.get(mutant.path, []), *(t for t in SURVIVOR_TESTS if (folder / t).exists())]
            verdict = True if mutant.fast_passed or not fast else tests_pass(folder, fast, timeout)
            mutant.selection = "the module's checker test files"
            mutant.fast_passed = verdict is True
            if verdict is True and str(cover) not in _MAPS and not cover.exists():
                mutant.outcome = "pending"  # the map is still being collected: come back later
                return mutant
            if verdict is True:
                chosen, how = selected_tests(mutant, wait_for_map(cover), folder)
                rest = [t for t in chosen if not t.startswith(tuple(fast))]
                mutant.selection, mutant.selected = f"the module's checker test files, then {how}", len(rest)
                try:
                    verdict = tests_pass(folder, rest, timeout, selection=True) if rest else True
                except SelectionError as error:
                    mutant.selection += f"; fell back to the whole suite ({error})"
                    verdict = True
        else:
            tests = QUICK_TESTS if quick else CHECKER_TESTS
            first = [t for t in FIRST_TESTS.get(mutant.path, []) if t not in tests and not mutant.fast_passed]
            first += [t for t in SURVIVOR_TESTS if (folder / t).exists()]
            verdict = tests_pass(folder, [*first, *tests], timeout)
        if verdict is True and quick:
            mutant.outcome = "survived (quick tests)"
        elif verdict is True and defer and not whole:  # --survivors defer: the whole suite later
            mutant.outcome = "survived (selected tests)" if cover is not None else "survived (checker tests)"
        elif verdict is True:  # survived its tests: the whole default command decides
            whole = tests_pass(folder, WHOLE_SUITE, max(timeout * 4, 1800.0))
            mutant.outcome = {
                True: "survived",
                False: "killed (whole suite)",
                None: "survived (suite time limit)",
            }[whole]
        else:
            mutant.outcome = {False: "killed", None: "killed (time limit)"}[verdict]
        if mutant.outcome.startswith("killed") and verdict is not None:
            mutant.killed_by = FIRST_FAILURE.get(str(folder), "")
    finally:
        target.write_text(original)
        os.utime(target, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # numba's cache stays valid
        mutant.seconds = round(mutant.seconds + time.perf_counter() - began, 1)
    return mutant


def verify(out: Path) -> int:
    """Run the witnesses of the kills in ``out`` on an unmutated copy; uncount those that fail."""
    found = [Mutant(**entry) for entry in json.loads(out.read_text())]
    witnesses = sorted({m.killed_by for m in found if m.killed_by.startswith("tests/")})
    folder = new_copy("mutants-verify-")
    env = {
        **os.environ,
        "FUZZ_EXAMPLES": os.environ.get("FUZZ_EXAMPLES", "300"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", *witnesses],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
    )
    shutil.rmtree(folder.parent, ignore_errors=True)
    failing = {
        line.split(" ", 1)[1].split(" - ", 1)[0]
        for line in done.stdout.splitlines()
        if line.startswith(("FAILED ", "ERROR "))
    }
    print(f"{len(witnesses)} witness tests run unmutated: exit {done.returncode}, {len(failing)} failing")
    for mutant in found:
        if mutant.killed_by in failing:
            mutant.outcome = "unverified (its witness fails unmutated)"
            print(f"  {mutant.path}:{mutant.line} {mutant.kind} #{mutant.index}: {mutant.killed_by}")
    out.write_text(json.dumps([asdict(m) for m in found], indent=1))
    return 0 if done.returncode in (0, 1) else 1


def terminal_sigint() -> None:
    """Let the test runs see Ctrl-C as from a terminal. Started in the background (``&``,
    ``nohup``), this process inherits SIGINT ignored, Python keeps it so and so would every
    pytest it starts: then ``test_cpsat_solve``'s Ctrl-C test fails on any code, a kill of
    every mutant that reaches it. A handler of this process is reset to the default on exec,
    where Python installs its own."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def main() -> int:
    terminal_sigint()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=120, help="mutants to run (0: all)")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--timeout", type=float, default=240.0, help="seconds for the checker tests of one mutant"
    )
    parser.add_argument("--out", default=str(ROOT / "bench" / "mutation-results.json"))
    parser.add_argument(
        "--tests",
        choices=("checker", "quick", "whole"),
        default="checker",
        help="see QUICK_TESTS; whole: the whole default command only (a survivor of a subset, --only)",
    )
    parser.add_argument(
        "--select",
        choices=("files", "coverage"),
        default="files",
        help="files: the checker test files; coverage: the tests of the whole suite that run the mutated"
        " lines (from --coverage-map)",
    )
    parser.add_argument("--coverage-map", default=str(COVERAGE_MAP), help="written by --collect")
    parser.add_argument(
        "--only", nargs="*", default=None, help="run these mutants (path:kind:index, e.g. a survivor again)"
    )
    parser.add_argument("--resume", action="store_true", help="keep the mutants --out already decided")
    parser.add_argument(
        "--survivors",
        choices=("whole", "defer"),
        default="whole",
        help="whole: a survivor of its selected tests meets the whole suite at once; defer: it is recorded"
        " as 'survived (selected tests)', to be killed by a new test or run again with --only",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="run every kill's witness test on the unmutated checkout; a kill whose witness fails there"
        " is not counted",
    )
    parser.add_argument(
        "--collect",
        action="store_true",
        help="run the whole suite once under coverage and write --coverage-map",
    )
    parser.add_argument(
        "--operators", choices=sorted(OPERATORS), default="loud", help="the operator set (quiet: issue 30's)"
    )
    args = parser.parse_args()
    if args.collect:
        collect(Path(args.coverage_map))
        return 0
    if args.verify:
        return verify(Path(args.out))
    cover = Path(args.coverage_map) if args.select == "coverage" else None
    every = mutants(args.operators)
    chosen = (
        every if args.sample <= 0 else random.Random(args.seed).sample(every, min(args.sample, len(every)))
    )
    if args.only is not None:
        chosen = [m for m in every if f"{m.path}:{m.kind}:{m.index}" in args.only]
    done_before: list[Mutant] = []
    if args.resume and Path(args.out).exists():  # keep the mutants a stopped run decided
        done_before = [Mutant(**entry) for entry in json.loads(Path(args.out).read_text())]
        waiting = {(m.path, m.kind, m.index) for m in done_before if m.outcome == "pending"}
        decided = {(m.path, m.kind, m.index) for m in done_before} - waiting
        chosen = [m for m in chosen if (m.path, m.kind, m.index) not in decided]
        for m in chosen:
            m.fast_passed = (m.path, m.kind, m.index) in waiting
        done_before = [m for m in done_before if m.outcome != "pending"]
        print(f"resuming: {len(done_before)} mutants decided before", flush=True)
    files = len(QUIET_TARGETS if args.operators == "quiet" else TARGETS)
    print(f"{len(every)} mutants in {files} files; running {len(chosen)}", flush=True)
    folders = [new_copy(f"mutants{k}-") for k in range(args.jobs)]
    if (
        cover is not None and not args.resume
    ):  # the unmutated code must pass the first files, in a time the limit leaves room for
        firsts = [*(t for ts in FIRST_TESTS.values() for t in ts), *SURVIVOR_TESTS]
        fast = [t for t in dict.fromkeys(firsts) if (folders[0] / t).exists()]
        began = time.perf_counter()
        if tests_pass(folders[0], fast, args.timeout) is not True:
            print("the unmutated checkout fails (or times out on) the fast checker files: no run", flush=True)
            return 1
        print(
            f"baseline: the fast checker files pass unmutated in {time.perf_counter() - began:.0f} s",
            flush=True,
        )
    results: list[Mutant] = list(done_before)
    free = list(folders)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        pending = {}
        queue = list(chosen)
        while queue or pending:
            while queue and free:
                folder = free.pop()
                mutant = queue.pop(0)
                quick = args.tests == "quick"
                whole = args.tests == "whole"
                defer = args.survivors == "defer"
                pending[pool.submit(run, mutant, folder, args.timeout, quick, cover, defer, whole)] = folder
            done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                free.append(pending.pop(future))
                mutant = future.result()
                if mutant.outcome == "pending":
                    print(
                        f"  {mutant.path}:{mutant.line} {mutant.kind} #{mutant.index}: passed its first"
                        " test files, waits for the coverage map",
                        flush=True,
                    )
                    queue.append(mutant)
                    everything = [*results, *(m for m in queue if m.outcome == "pending")]
                    Path(args.out).write_text(json.dumps([asdict(m) for m in everything], indent=1))
                    if all(m.outcome == "pending" for m in queue):
                        wait_for_map(cover)  # type: ignore[arg-type]
                    continue
                results.append(mutant)
                print(
                    f"[{len(results)}/{len(chosen) + len(done_before)}] {mutant.path}:{mutant.line} "
                    f"{mutant.kind} #{mutant.index} -> {mutant.outcome} ({mutant.seconds} s)",
                    flush=True,
                )
                waiting = [m for m in queue if m.outcome == "pending"]
                ordered = sorted([*results, *waiting], key=lambda m: (m.path, m.line))
                Path(args.out).write_text(json.dumps([asdict(m) for m in ordered], indent=1))
    for folder in folders:
        shutil.rmtree(folder.parent, ignore_errors=True)
    counted = [m for m in results if m.outcome != "invalid"]
    killed = sum(m.outcome.startswith("killed") for m in counted)
    print(f"killed {killed} of {len(counted)} ({100 * killed / max(len(counted), 1):.1f} %)")
    for mutant in counted:
        if mutant.outcome.startswith("survived"):
            print(f"  survived: {mutant.path}:{mutant.line} {mutant.kind} #{mutant.index}")
    Path(args.out).write_text(
        json.dumps([asdict(m) for m in sorted(results, key=lambda m: (m.path, m.line))], indent=1)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
