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
import os
import statistics
import sys
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


def users_greedy(instance, time_limit=None, seed=None):
    """A user's Python method: calls the built-in greedy and hands back its answer dict."""
    result = knightcert.solve(instance, method="greedy")
    return {"status": result.status.value, "objective": result.objective, "solution": result.solution}


def cases(data: Path):
    """(label, problem, instance, method, companions run in the same comparison)."""
    for n in range(100, 551, 50):
        path = data / "lost-knight" / f"caso{n}.txt"
        if path.exists():
            yield f"path bfs, caso{n}", "path", read_lost_knight(path), "bfs", []
    yield "knights matching, 300²", "knights", knights_instance(300), "matching", []
    ex5 = data / "jump-game" / "EX5.in"
    if ex5.exists():
        yield "jump bfs, EX5", "jump", read_jump(ex5), "bfs", []
    yield "tour auto, 1000²", "tour", tour_instance(1000), "auto", []
    # the researcher compares their method with the built-in one: the harness warms greedy
    yield "Python method (calls greedy), 50²", "knights", knights_instance(50), users_greedy, ["greedy"]


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
    knightcert.solve(instance, method=method)  # the warm-up call
    own, wall = [], []
    for _ in range(repeat):
        began = time.perf_counter()
        result = knightcert.solve(instance, method=method)
        wall.append(time.perf_counter() - began)
        own.append(result.time)
    return statistics.median(own), statistics.median(wall)


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
