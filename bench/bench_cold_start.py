"""The cold start (issue 40): the first solve in a fresh process against the same solve warm.

For each default method on boards from 8 x 8 to 1000 x 1000, the whole command
(``python -m knightcert PROBLEM FILE``: parse, solve, check, print) in a fresh process,
minus a fresh ``python -c "import knightcert"``, against the same command run again and
again in one process (``knightcert.cli.main.main``, the median after a first call). Target:
fresh - import within 2 x warm + 0.1 s. Two columns per cache state, each with its own yes/no:

- "fresh - import": the command minus ``python -c "import knightcert"``, which removes the
  interpreter's start and ``import knightcert`` (it loads no numpy); left: numpy's import, the
  command's own modules, the first calls (page faults, the compiled kernels' load);
- "fresh - import - numpy": the command minus a fresh ``python -c "import knightcert, numpy"``
  measured in the same run as the command line's own process imports numpy (one OpenBLAS
  thread unless ``OPENBLAS_NUM_THREADS`` says otherwise, no garbage collection while
  importing: ``knightcert.cli.main``), which removes numpy's import too (0.10-0.14 s of CPU:
  alone over the 0.1 s slack); left: the command's own modules and first calls.

Figures are CPU seconds (user + system of the child processes; the machine is shared) with the
wall seconds beside them; each of the three fresh processes (the import, the import and numpy's,
the command) is the least of ``--fresh`` runs. Three states of numba's cache (they matter only
where a kernel is not compiled ahead of time):

(a) empty: ``NUMBA_CACHE_DIR`` an empty folder (a fresh install);
(b) populated: the same folder after a first run of the same command;
(c) user: an unprivileged user (uid 1234, ``.ci/as-user``) with a fresh home, so numba's
    cache is that user's own (it cannot write beside the sources): its first command.

Last, one line: the start-up of the commands issue 40 names (``--help``, ``path caso0``,
``knights 6``, ``tour 8``), the CPU seconds of a fresh ``python -m knightcert`` over those of
``python -c pass``, each the least of ``--starts`` runs interleaved; with ``--before CHECKOUT``
(``git worktree add ../before COMMIT``, its kernels built in place), that checkout's beside them.

Run from the repository root (the ``../shared`` instances are used when present)::

    PYTHONPATH=. python bench/bench_cold_start.py [--states a,b,c] [--problems path,jump]
        [--repeat 5] [--fresh 3] [--starts 10] [--before ../before]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
VENV = Path(sys.executable).parent.parent

WARM = """
import contextlib, io, json, statistics, sys, time
from knightcert.cli.main import main
argv = json.loads(sys.argv[1])
walls, cpus = [], []
for _ in range(int(sys.argv[2]) + 1):
    wall, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(io.StringIO()):
        main(argv)
    walls.append(time.perf_counter() - wall)
    cpus.append(time.process_time() - cpu)
print(json.dumps([statistics.median(cpus[1:]), statistics.median(walls[1:])]))
"""

FRESH = """
import json, os, resource, subprocess, sys, time
def run(command, env=None):
    before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, time.perf_counter() - wall
base = run([sys.executable, "-c", "import knightcert"])
blas = {**os.environ, "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS", "1")}  # as the CLI's own
with_numpy = run([sys.executable, "-c", "import gc; gc.disable(); import knightcert, numpy"], blas)
whole = run([sys.executable, "-m", "knightcert", *json.loads(sys.argv[1])])
print(json.dumps([*base, *with_numpy, *whole]))
"""


def instances(folder: Path, problems: list[str]) -> list[tuple[str, str, list[str]]]:
    """(problem, label, command-line arguments) of every case."""

    def generated(problem: str, side: int) -> str:
        path = folder / f"{problem}{side}.txt"
        text = subprocess.run(
            [sys.executable, "-m", "knightcert", "instance", problem, str(side), "--seed", "1"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        path.write_text(text)
        return str(path)

    lost, jump = SHARED / "lost-knight", SHARED / "jump-game"
    cases = {
        "path": [
            ("8 x 8, generated", [generated("path", 8)]),
            ("caso100 (100 x 100)", [str(lost / "caso100.txt")]),
            ("caso550 (550 x 550)", [str(lost / "caso550.txt")]),
            ("1000 x 1000, generated", [generated("path", 1000)]),
        ],
        "jump": [
            ("8 x 8, generated", [generated("jump", 8)]),
            ("EX4 (10 x 10)", [str(jump / "EX4.in")]),
            ("100 x 100, generated", [generated("jump", 100)]),
            ("EX5 (1000 x 1000)", [str(jump / "EX5.in")]),
        ],
        "knights": [(f"{n} x {n}", [str(n)]) for n in (8, 100, 1000)],
        "tour": [(f"{n} x {n}", [str(n)]) for n in (8, 100, 1000)],
    }
    found = []
    for problem in problems:
        for label, args in cases[problem]:
            if problem in ("path", "jump") and not Path(args[0]).exists():
                continue
            found.append((problem, label, [problem, *args]))
    return found


def child(code: str, argv: list[str], env: dict[str, str], *extra: str, as_user: bool = False) -> list[float]:
    command = [sys.executable, "-c", code, json.dumps(argv), *extra]
    if as_user:
        command = [str(ROOT / ".ci" / "as-user"), str(VENV), "python", "-c", code, json.dumps(argv), *extra]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)}: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", default="a,b,c", help="cache states: a empty, b populated, c user")
    parser.add_argument("--problems", default="path,jump,knights,tour")
    parser.add_argument("--repeat", type=int, default=5, help="warm runs (the median is shown)")
    parser.add_argument("--fresh", type=int, default=3, help="fresh runs per state (each part: the least)")
    parser.add_argument("--starts", type=int, default=10, help="runs of each start-up command")
    parser.add_argument("--before", help="a checkout (its kernels built) whose start-up is measured too")
    args = parser.parse_args()
    states = args.states.split(",")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its byte code compiled
    folders = [str(ROOT / layer) for layer in ("knightcert", "problems", "algorithms", "heuristics")]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], check=True, env=env)
    columns = [f"{minus} ({s})" for minus in ("fresh - import", "fresh - import - numpy") for s in states]
    target = "within 2x warm + 0.1 s"
    print(f"| problem | instance | warm | {' | '.join(columns[: len(states)])} | {target} | ", end="")
    print(f"{' | '.join(columns[len(states) :])} | {target} |")
    print("|---|---|---:|" + ("---:|" * len(states) + ":---:|") * 2)
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)  # the unprivileged user reads the instances
        for problem, label, argv in instances(Path(folder), args.problems.split(",")):
            cache = tempfile.mkdtemp(dir=folder)
            warm = child(WARM, argv, env, str(args.repeat))
            fresh = []
            for state in states:
                parts = []  # [CPU, wall] of the import, of the import and numpy's, of the command
                for _ in range(1 if state == "c" else args.fresh):
                    if state == "c":  # the user's first command
                        parts.append(child(FRESH, argv, env, as_user=True))
                        continue
                    if state == "a":  # an empty folder each time; "b": the folder a first run filled
                        cache = tempfile.mkdtemp(dir=folder)
                    elif not os.listdir(cache):
                        child(FRESH, argv, {**env, "NUMBA_CACHE_DIR": cache})
                    parts.append(child(FRESH, argv, {**env, "NUMBA_CACHE_DIR": cache}))
                least = [min(part[i] for part in parts) for i in range(6)]
                fresh.append(
                    [least[4] - least[0], least[5] - least[1], least[4] - least[2], least[5] - least[3]]
                )
            row = f"| {problem} | {label} | {warm[0]:.3f} ({warm[1]:.3f}) |"
            for cpu in (0, 2):  # minus the import; minus the import and numpy's
                cells = [f" {f[cpu]:.2f} ({f[cpu + 1]:.2f}) |" for f in fresh]
                met = "/".join("yes" if f[cpu] <= 2 * warm[0] + 0.1 else "no" for f in fresh)
                row += "".join(cells) + f" {met} |"
            print(row, flush=True)
    start_up(env, args.starts, args.before)
    return 0


def start_up(env: dict[str, str], runs: int, before: str | None) -> None:
    """The start-up line: each command's CPU in a fresh process over ``python -c pass``'s, the
    least of ``runs`` rounds interleaved; with ``before`` (another checkout), its own in brackets."""
    caso0 = SHARED / "lost-knight" / "caso0.txt"
    commands = {
        "--help": ["--help"],
        "path caso0.txt": ["path", str(caso0)],
        "knights 6": ["knights", "6"],
        "tour 8": ["tour", "8"],
    }
    if not caso0.exists():
        del commands["path caso0.txt"]
    trees = {"now": ROOT, **({"before": Path(before).resolve()} if before else {})}
    for tree in trees.values():
        layers = [str(tree / layer) for layer in ("knightcert", "problems", "algorithms", "heuristics")]
        subprocess.run([sys.executable, "-m", "compileall", "-q", *layers], check=True, env=env)
    cpus: dict[tuple[str, str], list[float]] = {}
    for _ in range(runs):
        cpus.setdefault(("pass", "now"), []).append(cpu([sys.executable, "-c", "pass"], env, ROOT))
        for name, argv in commands.items():
            for tree, folder in trees.items():
                command = [sys.executable, "-m", "knightcert", *argv]
                cpus.setdefault((name, tree), []).append(
                    cpu(command, {**env, "PYTHONPATH": str(folder)}, folder)
                )
    least = {key: min(times) for key, times in cpus.items()}
    over = least["pass", "now"]
    label = ""
    if before:
        named = subprocess.run(
            ["git", "-C", before, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        )
        label = f" (before: {named.stdout.strip() if named.returncode == 0 else Path(before).name})"
    figures = [
        f"`knightcert {name}` {least[name, 'now'] - over:.3f}"
        + (f" ({least[name, 'before'] - over:.3f})" if before else "")
        for name in commands
    ]
    print(
        f"start-up, CPU s over `python -c pass` ({over:.3f} s), least of {runs} runs interleaved{label}: ",
        end="",
    )
    print(", ".join(figures))


def cpu(command: list[str], env: dict[str, str], folder: Path) -> float:
    """CPU seconds (user + system) of ``command`` run to its end in ``folder``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env, cwd=folder)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


if __name__ == "__main__":
    sys.exit(main())
