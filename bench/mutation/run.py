"""Mutation testing of the checkers with cosmic-ray: do the tests fail when a checker is broken?

    pip install cosmic-ray ./bench/mutation      # cosmic-ray and the quiet operators (bench only)
    python bench/mutation/run.py                 # every checker, quiet operators, fast tests first
    python bench/mutation/run.py --operators core,quiet --targets problems/checkers/jump.py
    python bench/mutation/run.py --jobs 2 --out /tmp/mut   # two copies side by side

Each job is a fresh clone of the committed HEAD in a temporary folder (``../shared`` linked
beside it, as beside the checkout), so the checkout is never touched; the targets are dealt
to the jobs, each running one cosmic-ray session. A mutant is *killed* when the checker tests
(``FAST_TESTS``) fail on it or time out. Each survivor then meets the whole default test command
(``--whole``, on by default): a survivor of both is *surviving* and is either killed by a new
test or argued equivalent in docs/certificates.md. Results stay outside the source tree:
``--out`` (default ``~/.cache/knightcert/mutation/COMMIT``) holds each job's cosmic-ray session
(read it with ``cr-report``, ``cr-html``) and ``summary.json`` (every survivor with its diff).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The checker modules, the answer file and the move tables.
TARGETS = sorted(
    str(path.relative_to(ROOT))
    for path in [
        *(ROOT / "problems/checkers").glob("*.py"),
        *(ROOT / "problems" / n for n in ("answers.py", "moves.py")),
    ]
)
#: The checker tests, fastest first: with -x most mutants die in the first file.
FAST_TESTS = [
    "tests/problems/test_forged_answers.py",
    "tests/problems/test_checker_fuzz.py",
    "tests/problems",
    "tests/compare/test_answer_files.py",
    "tests/compare/test_certificates_corpus.py",
    "tests/heuristics/test_tour_claims.py",
]
PYTEST = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]


def clone(folder: Path) -> Path:
    """A fresh clone of HEAD in ``folder``/knightcert, ``../shared`` beside it when the checkout has one."""
    checkout = folder / "knightcert"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(checkout)], check=True)
    shared = ROOT.parent / "shared"
    if shared.exists():
        (folder / "shared").symlink_to(shared.resolve())
    return checkout


def config(targets: list[str], operators: list[str], timeout: float) -> str:
    """A cosmic-ray configuration: the targets, the fast tests, and only the chosen operator providers."""
    keep = "|".join(operators)
    command = " ".join([*PYTEST, "-p", "no:xdist", *FAST_TESTS])
    return "\n".join(
        [
            "[cosmic-ray]",
            f"module-path = {json.dumps(targets)}",
            f"timeout = {timeout}",
            "excluded-modules = []",
            f"test-command = {json.dumps(command)}",
            "[cosmic-ray.distributor]",
            'name = "local"',
            "[cosmic-ray.filters.operators-filter]",
            f'exclude-operators = ["^(?!({keep})/)"]',
            "",
        ]
    )


def run_job(number: int, targets: list[str], args: argparse.Namespace) -> dict:
    """One job: clone, run a cosmic-ray session on ``targets``, then the whole suite on each survivor."""
    bin_folder = Path(sys.executable).parent
    session = args.out / f"job{number}.sqlite"
    with tempfile.TemporaryDirectory(prefix="kc-mutation-") as scratch:
        checkout = clone(Path(scratch))
        settings = args.out / f"job{number}.toml"
        settings.write_text(config(targets, args.operators, args.timeout))
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        for step in (
            ["cosmic-ray", "init", str(settings), str(session)],
            ["cr-filter-operators", str(session), str(settings)],
            ["cosmic-ray", "exec", str(settings), str(session)],
        ):
            subprocess.run([str(bin_folder / step[0]), *step[1:]], cwd=checkout, env=env, check=True)
        survivors = surviving(session)
        if args.whole:
            survivors = [s for s in survivors if not killed_by_whole_suite(s, checkout, env, args.timeout)]
    return {"targets": targets, "session": str(session), "mutants": count(session), "survivors": survivors}


def count(session: Path) -> dict[str, int]:
    """The session's mutants by fate: killed, survived, and broken (the mutation itself failed or
    its tests could not run: an error of the tool, never counted as killed); skipped ones, such
    as other providers', are left out."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    fates = {"killed": 0, "survived": 0, "broken": 0}
    with use_db(str(session), WorkDB.Mode.open) as db:
        for _, result in db.completed_work_items:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            normal = result.worker_outcome == WorkerOutcome.NORMAL
            if normal and result.test_outcome == TestOutcome.KILLED:
                fates["killed"] += 1
            elif normal and result.test_outcome == TestOutcome.SURVIVED:
                fates["survived"] += 1
            else:
                fates["broken"] += 1
    return fates


def surviving(session: Path) -> list[dict]:
    """The session's survivors: module, operator, occurrence, line and diff."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    found = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.worker_outcome == WorkerOutcome.NORMAL and result.test_outcome == TestOutcome.SURVIVED:
                for mutation in item.mutations:
                    found.append(
                        {
                            "module": str(mutation.module_path),
                            "operator": mutation.operator_name,
                            "occurrence": mutation.occurrence,
                            "line": mutation.start_pos[0],
                            "diff": result.diff,
                        }
                    )
    return found


def killed_by_whole_suite(survivor: dict, checkout: Path, env: dict, timeout: float) -> bool:
    """Whether the whole default test command fails on the survivor's mutant (applied, then undone)."""
    from cosmic_ray.mutating import use_mutation
    from cosmic_ray.plugins import get_operator

    operator = get_operator(survivor["operator"])()
    with use_mutation(checkout / survivor["module"], operator, survivor["occurrence"]):
        try:
            done = subprocess.run(
                [*PYTEST, "-n", "2"], cwd=checkout, env=env, capture_output=True, timeout=timeout * 20
            )
        except subprocess.TimeoutExpired:
            return True
    return done.returncode != 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--targets", default=",".join(TARGETS), help="modules to mutate, comma-separated")
    parser.add_argument("--operators", default="quiet", help="operator providers: quiet, core or both")
    parser.add_argument("--jobs", type=int, default=1, help="copies run side by side")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for the fast tests of a mutant")
    parser.add_argument("--no-whole", dest="whole", action="store_false", help="skip the whole-suite pass")
    parser.add_argument(
        "--out", type=Path, default=None, help="the results' folder (outside the source tree)"
    )
    args = parser.parse_args(argv)
    args.operators = args.operators.split(",")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    args.out = args.out or Path.home() / ".cache/knightcert/mutation" / commit.stdout.strip()
    args.out.mkdir(parents=True, exist_ok=True)
    targets = args.targets.split(",")
    dealt = [targets[k :: args.jobs] for k in range(args.jobs)]
    with ThreadPoolExecutor(args.jobs) as pool:
        jobs = list(pool.map(lambda k: run_job(k, dealt[k], args), range(args.jobs)))
    fates = {fate: sum(job["mutants"][fate] for job in jobs) for fate in ("killed", "survived", "broken")}
    survivors = [s for job in jobs for s in job["survivors"]]
    summary = {"commit": commit.stdout.strip(), "operators": args.operators, **fates, "jobs": jobs}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    whole = f"; {fates['survived'] - len(survivors)} of those killed by the whole suite" if args.whole else ""
    print(
        f"{sum(fates.values())} mutants: {fates['killed']} killed by the checker tests, {fates['survived']} "
        f"survived them{whole}; {len(survivors)} surviving; {fates['broken']} broken ({args.out})"
    )
    if fates["broken"]:
        print("  broken mutants are the tool's errors: read them with cr-report", args.out / "job*.sqlite")
    for s in survivors:
        print(f"  {s['module']}:{s['line']} {s['operator']} #{s['occurrence']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
