"""Sessions of the changed lines, the survivors' second pass and the score (docs/certificates.md,
"Mutation testing"), for the warm plug-in (``warm.py``). Run from a clone (mutants are written to disk)::

    python bench/mutation/passes.py init OUT BASE MODULE...  # OUT/M.sqlite: M's lines changed since BASE
    python bench/mutation/passes.py rerun OUT MODULE...      # OUT/M-rerun.sqlite: M's survivors again
    python bench/mutation/passes.py score OUT MODULE...      # the table's figures, the survivors' diffs

``MODULE`` names a checker module (``knights_cnf`` for ``problems/checkers/knights_cnf.py``). A
mutant that does not compile (``**`` of a dict display made ``/``, say) fails the import of its
module, so any test kills it: the score counts it as killed ("not Python"), and ``rerun`` leaves it.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

TOML = """[cosmic-ray]
module-path = "problems/checkers/{module}.py"
timeout = 60.0
excluded-modules = []
test-command = "false"
[cosmic-ray.distributor]
name = "local"
[cosmic-ray.filters.operators-filter]
exclude-operators = ["^(?!(core|quiet)/)"]
[cosmic-ray.filters.git-filter]
branch = "{base}"
"""
QUERY = (
    "select s.start_pos_row || ' ' || s.operator_name || '#' || s.occurrence, r.worker_outcome, "
    "r.test_outcome, r.output, r.diff from work_results r join mutation_specs s using (job_id)"
)


def init(out: Path, base: str, modules: list[str]) -> None:
    """A cosmic-ray session per module: core and quiet operators, the lines changed since ``base``."""
    tools = Path(sys.executable).parent
    for module in modules:
        config, session = out / f"{module}.toml", out / f"{module}.sqlite"
        config.write_text(TOML.format(module=module, base=base))
        session.unlink(missing_ok=True)
        for command in (
            ["cosmic-ray", "init", config, session],
            ["cr-filter-operators", session, config],
            ["cr-filter-git", "--config", config, session],
        ):
            subprocess.run([str(tools / command[0]), *map(str, command[1:])], check=True)


def _fates(session: Path) -> dict[str, tuple[str, str]]:
    """Each mutant's fate (annotation, not python, killed, survived) and diff; filtered ones left out."""
    fates = {}
    with sqlite3.connect(session) as db:
        for key, worker, test, output, diff in db.execute(QUERY):
            output = output or ""
            if worker == "SKIPPED" and not output.startswith("equivalent"):
                continue  # outside the changed lines
            fate = (
                "annotation"
                if output.startswith("equivalent")
                else "not python"
                if "SyntaxError" in output
                else "killed"
                if test == "KILLED"
                else "survived"
            )
            fates[key] = (fate, diff or "")
    return fates


def rerun(out: Path, modules: list[str]) -> None:
    """A copy of each session with its survivors (that compile) pending again."""
    for module in modules:
        copy = out / f"{module}-rerun.sqlite"
        shutil.copy(out / f"{module}.sqlite", copy)
        with sqlite3.connect(copy) as db:
            pending = db.execute(
                "delete from work_results where test_outcome = 'SURVIVED' and output not like '%SyntaxError%'"
            ).rowcount
        print(copy, pending, "survivors pending again")


def score(out: Path, modules: list[str]) -> None:
    """Per module: mutants, in an annotation, killed in the first pass (not Python apart), killed
    in a later pass (``M-rerun*.sqlite``), and each mutant left with its diff."""
    for module in modules:
        first, later = _fates(out / f"{module}.sqlite"), {}
        for session in sorted(out.glob(f"{module}-rerun*.sqlite")):
            for key, (fate, _) in _fates(session).items():
                if later.get(key) != "killed":
                    later[key] = fate
        fates = [fate for fate, _ in first.values()]
        counts = {f: fates.count(f) for f in ("annotation", "killed", "not python")}
        again = sum(fate == "survived" and later.get(k) == "killed" for k, (fate, _) in first.items())
        left = [k for k, (fate, _) in first.items() if fate == "survived" and later.get(k) != "killed"]
        print(
            f"{module}: {len(first)} mutants, {counts['annotation']} in an annotation, "
            f"{counts['killed']} killed first (+{counts['not python']} not Python), "
            f"{again} killed later, {len(left)} left"
        )
        for key in sorted(left, key=lambda k: int(k.split()[0])):
            lines = [x for x in first[key][1].splitlines() if x[:1] in "+-" and x[:3] not in ("+++", "---")]
            print(f"  {module}.py:{key}\n    " + "\n    ".join(lines))


if __name__ == "__main__":
    what, folder, *rest = sys.argv[1:]
    if what == "init":
        init(Path(folder), rest[0], rest[1:])
    else:
        {"rerun": rerun, "score": score}[what](Path(folder), rest)
