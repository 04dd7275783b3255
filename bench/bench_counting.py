"""Counting reach: how far each counter of ``knightcert.count`` gets within a time limit.

Each case runs in its own process (so a counter that does not finish is stopped at the limit
and the import and compiled-kernel load are timed apart); a Markdown row per case, a column per
counter: the count and its time, or "over" when it did not end within the limit.

    python bench/bench_counting.py [--limit 10] [--only tours|paths|knights]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASE = r"""
import json, sys, time
from knightcert.algorithms import counting
from knightcert.models import count_cpsat
from knightcert.problems.board import Board
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.tours import TourInstance
kind, counter, rows, cols, extra, limit = json.loads(sys.argv[1])
if kind == "tours":
    instance = TourInstance(Board(rows, cols), extra == "closed", (0, 0) if extra == "corner" else None)
    counting.count_tours(TourInstance(Board(3, 4)))  # the compiled kernel loaded before timing
elif kind == "paths":
    instance = LostKnightInstance(Board(rows, cols, torus=True), (0, 0), (rows // 2, cols // 2))
else:
    instance = KnightsInstance(Board(rows, cols))
    counting.count_knights(KnightsInstance(Board(2, 2)))
from knightcert.problems.checkers.enumeration import enumerate_solutions
enumerate_solutions(TourInstance(Board(3, 4)))  # the checker's compiled search loaded before timing
began = time.perf_counter()
if counter == "checker":
    got = enumerate_solutions(instance, 10**12, 10**12)  # no step budget: timed by the limit
    value = None if got is None else got[1]
elif counter == "search":
    value = getattr(counting, "count_" + kind)(instance)
elif kind == "paths":
    length = counting.count_paths(instance)[0]
    began = time.perf_counter()
    found = count_cpsat.enumerate_paths(instance, length, time_limit=limit)
    value = found.count if found.complete else None
else:
    found = getattr(count_cpsat, "enumerate_" + kind)(instance, time_limit=limit)
    value = found.count if found.complete else None
print(json.dumps([value, time.perf_counter() - began]))
"""

CASES = {
    "tours": [
        (5, 5, "corner"),
        (5, 5, "open"),
        (5, 6, "closed"),
        (6, 6, "closed"),
        (5, 6, "corner"),
        (6, 6, "corner"),
    ],
    "paths": [(8, 8, ""), (20, 20, ""), (30, 30, ""), (50, 50, ""), (100, 100, ""), (300, 300, "")],
    "knights": [(5, 5, ""), (6, 6, ""), (7, 7, ""), (8, 8, ""), (8, 400, ""), (12, 12, ""), (24, 24, "")],
}


def run(kind: str, counter: str, rows: int, cols: int, extra: str, limit: float) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        out = subprocess.run(
            [sys.executable, "-c", CASE, json.dumps([kind, counter, rows, cols, extra, limit])],
            capture_output=True,
            text=True,
            timeout=limit + 20,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "over"
    if out.returncode:
        return out.stderr.strip().splitlines()[-1][:80]
    value, seconds = json.loads(out.stdout)
    return "over" if value is None or seconds > limit else f"{value} in {seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=10.0)
    parser.add_argument("--only", choices=sorted(CASES))
    parser.add_argument("--counters", default="search,cpsat,checker")
    args = parser.parse_args()
    counters = args.counters.split(",")
    print(f"| count | board | {' | '.join(counters)} |\n|---|---|{'---|' * len(counters)}")
    for kind, cases in CASES.items():
        if args.only and kind != args.only:
            continue
        for rows, cols, extra in cases:
            outcomes = [run(kind, counter, rows, cols, extra, args.limit) for counter in counters]
            print(f"| {kind} | {rows} x {cols} {extra} | {' | '.join(outcomes)} |", flush=True)


if __name__ == "__main__":
    main()
