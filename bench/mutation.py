"""Mutation testing of the checkers: do the tests fail when a checker is broken?

``python bench/mutation.py [--sample N] [--seed S] [--jobs J] [--files GLOB ...]``

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

Every mutant runs in a copy of the checkout (one per job), so the checkout itself
is never touched. The mutants are listed in a fixed order and ``--sample`` draws a
deterministic sample of them (``--seed``), so a run is repeatable. Results go to
``bench/mutation-results.json`` (every mutant, its place and its fate); the score
and the survivors are recorded in docs/certificates.md.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import json
import os
import random
import shutil
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
    "problems/checkers/drat.py",
    "problems/checkers/drat_kernel.py",
    "problems/checkers/knights_cnf.py",
    "problems/moves.py",
]
#: Operators of each set.
OPERATORS = {
    "loud": ("compare", "boolop", "not", "raise", "modulo", "constant", "return"),
    "quiet": ("dropcond", "table", "bound", "negate", "skipfirst"),
}
#: Test files a target's mutants meet first (with -x most die there).
FIRST_TESTS = {
    "problems/checkers/drat.py": ["tests/problems/test_drat.py"],
    "problems/checkers/drat_kernel.py": ["tests/problems/test_drat.py"],
    "problems/checkers/knights_cnf.py": ["tests/problems/test_drat.py"],
    "problems/checkers/knights.py": ["tests/problems/test_knights_checker.py", "tests/problems/test_drat.py"],
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
}
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


def tests_pass(folder: Path, tests: list[str], timeout: float) -> bool | None:
    """True when the tests pass, False when they fail, None past the time limit (killed)."""
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
    return done.returncode == 0


#: ``--tests quick``: the checker test files without the fuzzer and the compare layer, and no
#: whole-suite run for survivors (for a loaded machine; a survivor is then one of these only).
QUICK_TESTS = [
    "tests/problems/test_forged_answers.py",
    "tests/problems/test_checker_mutants.py",
    "tests/problems/test_drat.py",
    "tests/problems/test_knights_checker.py",
    "tests/problems/test_path_checker.py",
    "tests/problems/test_jump_checker.py",
    "tests/problems/test_tour_checker.py",
    "tests/problems/test_moves.py",
    "tests/problems/test_fields.py",
]


def run(mutant: Mutant, folder: Path, timeout: float, quick: bool = False) -> Mutant:
    # the copy's own file: the checkout may change while the run goes on, the copies do not
    target = folder / mutant.path
    original = target.read_text()
    began = time.perf_counter()
    try:
        source = mutated_source(mutant, folder)
    except (IndexError, SyntaxError):
        mutant.outcome = "invalid"
        return mutant
    target.write_text(source)
    try:
        tests = QUICK_TESTS if quick else CHECKER_TESTS
        first = [t for t in FIRST_TESTS.get(mutant.path, []) if t not in tests]
        verdict = tests_pass(folder, [*first, *tests], timeout)
        if verdict is True and quick:
            mutant.outcome = "survived (quick tests)"
        elif verdict is True:  # survived the checker tests: the whole default command decides
            whole = tests_pass(folder, ["tests", "-m", "not slow"], timeout * 4)
            mutant.outcome = {True: "survived", False: "killed", None: "survived (suite time limit)"}[whole]
        else:
            mutant.outcome = {False: "killed", None: "killed (time limit)"}[verdict]
    finally:
        target.write_text(original)
        mutant.seconds = round(time.perf_counter() - began, 1)
    return mutant


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=120, help="mutants to run (0: all)")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--timeout", type=float, default=240.0, help="seconds for the checker tests of one mutant"
    )
    parser.add_argument("--out", default=str(ROOT / "bench" / "mutation-results.json"))
    parser.add_argument("--tests", choices=("checker", "quick"), default="checker", help="see QUICK_TESTS")
    parser.add_argument(
        "--operators", choices=sorted(OPERATORS), default="loud", help="the operator set (quiet: issue 30's)"
    )
    args = parser.parse_args()
    every = mutants(args.operators)
    chosen = (
        every if args.sample <= 0 else random.Random(args.seed).sample(every, min(args.sample, len(every)))
    )
    files = len(QUIET_TARGETS if args.operators == "quiet" else TARGETS)
    print(f"{len(every)} mutants in {files} files; running {len(chosen)}", flush=True)
    folders = [Path(tempfile.mkdtemp(prefix=f"mutants{k}-")) for k in range(args.jobs)]
    for folder in folders:
        copy_checkout(folder)
    results: list[Mutant] = []
    free = list(folders)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        pending = {}
        queue = list(chosen)
        while queue or pending:
            while queue and free:
                folder = free.pop()
                mutant = queue.pop(0)
                quick = args.tests == "quick"
                pending[pool.submit(run, mutant, folder, args.timeout, quick)] = folder
            done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                free.append(pending.pop(future))
                mutant = future.result()
                results.append(mutant)
                print(
                    f"[{len(results)}/{len(chosen)}] {mutant.path}:{mutant.line} {mutant.kind} "
                    f"#{mutant.index} -> {mutant.outcome} ({mutant.seconds} s)",
                    flush=True,
                )
                ordered = sorted(results, key=lambda m: (m.path, m.line))
                Path(args.out).write_text(json.dumps([asdict(m) for m in ordered], indent=1))
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
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
