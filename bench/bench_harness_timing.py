"""The harness's ``time_s`` against the same method timed warm in process (issue 27).

Run from the repository root (data from ``--data``, default /work/shared/data):

    python bench/bench_harness_timing.py [--repeat 3] [--data DIR]

For each case: the median ``time_s`` of ``--repeat`` harness runs (``run_comparison``: isolated
worker processes, warmed as the harness warms them), and the median of ``--repeat`` calls of
``knightcert.solve`` in this process after one warm-up call (the method's own ``Result.time``,
and the wall time of the whole checked call). Target: harness <= 1.5 x warm + 2 ms. Prints
Markdown for docs/benchmarks.md, with the load average before and after.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import knightcert  # noqa: E402
from knightcert.compare.comparison import run_comparison  # noqa: E402
from knightcert.compare.suites import SuiteItem  # noqa: E402
from knightcert.problems.independent_knights import knights_instance  # noqa: E402
from knightcert.problems.jump_game import read_jump  # noqa: E402
from knightcert.problems.lost_knight import read_lost_knight  # noqa: E402
from knightcert.problems.tours import tour_instance  # noqa: E402

#: A user's module (workers import it by name): ``users_greedy`` calls the built-in greedy and hands
#: back its answer dict; ``colour_class`` compiles a numba kernel on its first call (kept warm).
USER_MODULE = """
import knightcert
import numba
import numpy as np

def users_greedy(instance, time_limit=None, seed=None):
    result = knightcert.solve(instance, method="greedy")
    return {"status": result.status.value, "objective": result.objective, "solution": result.solution}

@numba.njit(cache=False)
def _count(blocked):
    total = 0
    for r in range(blocked.shape[0]):
        for c in range(blocked.shape[1]):
            if not blocked[r, c] and (r + c) % 2 == 0:
                total += 1
    return total

def colour_class(instance, time_limit=None, seed=None):
    board = instance.board
    chosen = [[r, c] for r in range(board.rows) for c in range(board.cols)
              if not board.blocked[r, c] and (r + c) % 2 == 0]
    assert _count(np.asarray(board.blocked)) == len(chosen)
    return {"status": "FEASIBLE", "objective": len(chosen), "solution": chosen}
"""

#: An exec: program: prints one colour class of a plain board (its size from the instance file).
PROGRAM = """#!/bin/sh
n=$(head -c 64 "$1" | tr -cd '0-9 ' | awk '{print $1}')
awk -v n="$n" 'BEGIN { printf "{\\"status\\": \\"FEASIBLE\\", \\"objective\\": %d, \\"solution\\": [",
  int((n * n + 1) / 2); s = ""
  for (r = 0; r < n; r++) for (c = 0; c < n; c++)
    if ((r + c) % 2 == 0) { printf "%s[%d,%d]", s, r, c; s = "," }
  print "]}" }'
"""


def user_methods(folder: Path) -> tuple[str, str, str]:
    """The greedy and numba methods (``module:function``) and the program (``exec:``), in ``folder``."""
    (folder / "bench_user_numba.py").write_text(USER_MODULE)
    program = folder / "colour.sh"
    program.write_text(PROGRAM)
    program.chmod(0o755)
    sys.path.insert(0, str(folder))
    return "bench_user_numba:users_greedy", "bench_user_numba:colour_class", f"exec:{program}"


def cases(data: Path):
    """(label, problem, instance, method, companions run in the same comparison)."""
    for n in (100, 300, 550):
        path = data / "lost-knight" / f"caso{n}.txt"
        if path.exists():
            yield f"path bfs, caso{n}", "path", read_lost_knight(path), "bfs", []
    yield "knights matching, 300²", "knights", knights_instance(300), "matching", []
    ex5 = data / "jump-game" / "EX5.in"
    if ex5.exists():
        yield "jump bfs, EX5", "jump", read_jump(ex5), "bfs", []
    yield "tour auto, 1000²", "tour", tour_instance(1000), "auto", []
    greedy_method, numba_method, program = user_methods(Path(tempfile.mkdtemp(prefix="knightcert-bench-")))
    # the researcher compares their method with the built-in one: the harness warms greedy
    yield "Python method (calls greedy), 50²", "knights", knights_instance(50), greedy_method, ["greedy"]
    yield "built-in greedy, 8²", "knights", knights_instance(8), "greedy", []
    label = "Python method (numba, compiles on its first call), 50²"
    yield label, "knights", knights_instance(50), numba_method, []
    yield "exec: program (awk), 50² (against its own run)", "knights", knights_instance(50), program, []


def harness_time(problem, instance, method, companions, repeat: int) -> float:
    rows = run_comparison(
        problem, [SuiteItem(instance, None)], [*companions, method], repeat=repeat, workers=1, reference=False
    )
    name = getattr(method, "__name__", method)
    times = [row.time_s for row in rows if row.method == name]
    errors = {row.error for row in rows if row.method == name and row.error}
    if errors:
        raise SystemExit(f"{name}: {errors}")
    return statistics.median(times)


def warm_time(instance, method, repeat: int) -> tuple[float, float]:
    if isinstance(method, str) and method.startswith("exec:"):  # the program's own run, from exec to exit
        return program_time(instance, method[len("exec:") :], repeat)
    if (isinstance(method, str) and ":" in method) or callable(method):  # the function, warm, here
        if isinstance(method, str):
            module, name = method.split(":")
            method = getattr(importlib.import_module(module), name)
        method(instance)  # the warm-up call
        times = []
        for _ in range(repeat):
            began = time.perf_counter()
            method(instance)
            times.append(time.perf_counter() - began)
        return statistics.median(times), statistics.median(times)
    knightcert.solve(instance, method=method)  # the warm-up call
    own, wall = [], []
    for _ in range(repeat):
        began = time.perf_counter()
        result = knightcert.solve(instance, method=method)
        wall.append(time.perf_counter() - began)
        own.append(result.time)
    return statistics.median(own), statistics.median(wall)


def program_time(instance, program: str, repeat: int) -> tuple[float, float]:
    from knightcert.problems.instance_files import format_instance

    with tempfile.NamedTemporaryFile("w", suffix=".txt") as handle:
        handle.write(format_instance(instance))
        handle.flush()
        times = []
        for _ in range(repeat + 1):
            began = time.perf_counter()
            subprocess.run([program, handle.name], capture_output=True, check=True)
            times.append(time.perf_counter() - began)
    return statistics.median(times[1:]), statistics.median(times[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data"))
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} cores\n")
    print(
        "| run | harness `time_s` | warm in process (`Result.time`) | warm checked call (wall) "
        "| ratio | within 1.5x + 2 ms |"
    )
    print("|---|---:|---:|---:|---:|:---:|")
    for label, problem, instance, method, companions in cases(args.data):
        harness = harness_time(problem, instance, method, companions, args.repeat)
        own, wall = warm_time(instance, method, args.repeat)
        ok = harness <= 1.5 * own + 0.002
        print(
            f"| {label} | {harness * 1e3:.1f} ms | {own * 1e3:.1f} ms | {wall * 1e3:.1f} ms | "
            f"{harness / own:.2f}x | {'yes' if ok else 'no'} |",
            flush=True,
        )
    load = os.getloadavg()
    print(f"\nload average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
