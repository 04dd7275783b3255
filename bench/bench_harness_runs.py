"""Many cheap runs through the harness against a plain loop of ``knightcert.solve``, same run.

Usage::

    python bench/bench_harness_runs.py [--seeds 10000] [--workers 2]

The harness: ``knightcert compare knights --suite random --sizes 8 --seeds N --methods greedy
--workers W --quiet --out r.json`` (every answer checked, its gap to a certified ``matching``
optimum of its board, every answer saved). The peer, right after in a fresh process: a loop of
``knightcert.solve(board, "greedy")`` then ``knightcert.solve(board, "matching")`` (both checked)
over the same boards. Wall and CPU seconds (the process and its children), and how many of the
harness's rows are verified with a gap.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOOP = """
import sys
import knightcert
from knightcert.compare.suites import build_suite
for item in build_suite("knights", "random", sizes=[8], seeds=int(sys.argv[1])):
    for method in ("greedy", "matching"):
        assert knightcert.solve(item.instance, method).verified is not None
"""


def timed(argv: list[str], cwd: str) -> tuple[float, float]:
    """Wall and CPU seconds of a process and its children."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    paths = env.get("PYTHONPATH", "").split(os.pathsep)  # absolute: the processes run in a scratch folder
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(path) for path in paths if path)
    before, began = os.times(), time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False, env=env)
    wall, after = time.perf_counter() - began, os.times()
    if done.returncode:
        raise SystemExit(f"{argv[:4]}: exit {done.returncode}: {done.stderr[-800:]}")
    return wall, (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    python = [sys.executable, "-m", "knightcert"]
    with tempfile.TemporaryDirectory() as folder:
        compare = [*python, "compare", "knights", "--suite", "random", "--sizes", "8"]
        compare += ["--seeds", str(args.seeds)]
        compare += ["--methods", "greedy", "--workers", str(args.workers), "--quiet", "--out", "r.json"]
        load = os.getloadavg()[0]
        h_wall, h_cpu = timed(compare, folder)
        p_wall, p_cpu = timed([sys.executable, "-c", LOOP, str(args.seeds)], folder)
        rows = json.loads(Path(folder, "r.json").read_text())["runs"]
        good = [r for r in rows if r.get("verified") and r.get("gap") is not None]
    print("| runs | harness wall / CPU | plain loop wall / CPU | ratio wall / CPU | checked, gap | load |")
    print("|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {args.seeds} | {h_wall:.1f} s / {h_cpu:.1f} s | {p_wall:.1f} s / {p_cpu:.1f} s "
        f"| {h_wall / p_wall:.2f}x / {h_cpu / p_cpu:.2f}x | {len(good)} of {len(rows)} | {load:.1f} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
