"""Knight's-tour benchmarks: speed on 1000 x 1000, divide-and-conquer up to 2000,
CP-SAT's largest closed tour, and Warnsdorff success rates without backtracking.

Run from the repository root:

    python bench/bench_tours.py [--cpsat-limit 60] [--corner-max 1000]

Peer: a plain pure-Python Warnsdorff (same rule, same move order), same run.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knightcert.heuristics.tour_divide import closed_tour_table, divide  # noqa: E402
from knightcert.heuristics.tour_kernels import FOUND, walk_cycle  # noqa: E402
from knightcert.heuristics.tour_kernels import warnsdorff as engine  # noqa: E402
from knightcert.heuristics.tour_warnsdorff import centre_distances, roth, warnsdorff  # noqa: E402
from knightcert.models.tour_cpsat import cpsat  # noqa: E402
from knightcert.problems.board import Board  # noqa: E402
from knightcert.problems.moves import KNIGHT_OFFSETS, knight_targets  # noqa: E402
from knightcert.problems.tours import tour_instance  # noqa: E402


def python_warnsdorff(n: int) -> bool:
    """Plain Python Warnsdorff from (0, 0), no backtracking, fixed move order."""
    visited = [[False] * n for _ in range(n)]
    r = c = 0
    visited[0][0] = True

    def onward(a: int, b: int) -> int:
        return sum(
            1
            for dr, dc in KNIGHT_OFFSETS
            if 0 <= a + dr < n and 0 <= b + dc < n and not visited[a + dr][b + dc]
        )

    for _ in range(n * n - 1):
        best = None
        for dr, dc in KNIGHT_OFFSETS:
            a, b = r + dr, c + dc
            if 0 <= a < n and 0 <= b < n and not visited[a][b]:
                degree = onward(a, b)
                if best is None or degree < best[0]:
                    best = (degree, a, b)
        if best is None:
            return False
        _, r, c = best
        visited[r][c] = True
    return True


def timed(function, *args, **kwargs):
    began = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - began


KEYS = {"warnsdorff": None, "marginality": "manhattan", "roth": "euclidean"}


def no_backtracking(name: str, n: int, starts) -> list[bool]:
    board = Board(n, n)
    moves = knight_targets(board).astype(np.int32)
    free = np.ones(n * n, dtype=np.uint8)
    metric = KEYS[name]
    key = np.zeros(n * n, dtype=np.int64) if metric is None else -centre_distances(n, n, metric)
    path = np.empty(n * n, dtype=np.int32)
    return [engine(moves, free, key, s, -1, False, 0, path)[0] == FOUND for s in starts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpsat-limit", type=float, default=60.0)
    parser.add_argument("--corner-max", type=int, default=1000)
    parser.add_argument("--divide-max", type=int, default=2000)
    parser.add_argument("--only", choices=["starts", "big"], help="run one section only")
    args = parser.parse_args()
    if args.only == "starts":
        every_start()
        return
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}\n")
    warnsdorff(tour_instance(5))
    divide(tour_instance(6, closed=True))

    print("### 1000 x 1000\n")
    print("| tour | method | status | method time | with check |")
    print("|---|---|---|---:|---:|")
    for label, inst, method, kwargs in (
        ("open, from (0,0)", tour_instance(1000, start=(0, 0)), roth, {"backtracking": False}),
        ("open, from (0,0)", tour_instance(1000, start=(0, 0)), warnsdorff, {}),
        ("closed", tour_instance(1000, closed=True), divide, {}),
        ("closed, from (0,0) as an open tour", tour_instance(1000, start=(0, 0)), divide, {}),
    ):
        result, total = timed(method, inst, **kwargs)
        name = method.method_name + ("" if kwargs.get("backtracking", True) else " (no backtracking)")
        print(f"| {label} | {name} | {result.status.value} | {result.time:.2f} s | {total:.2f} s |")

    if args.only == "big":
        return

    print("\n### Warnsdorff engine against pure Python (from (0,0), no backtracking, same rule)\n")
    print("| board | knightcert (numba) | pure Python | ratio |")
    print("|---|---:|---:|---:|")
    for n in (50, 100, 200):
        ours, t_ours = timed(no_backtracking, "warnsdorff", n, [0])
        theirs, t_theirs = timed(python_warnsdorff, n)
        assert ours[0] == theirs
        print(f"| {n}x{n} | {1000 * t_ours:.1f} ms | {1000 * t_theirs:.0f} ms | {t_theirs / t_ours:.0f}x |")

    every_start()

    print(f"\n### No backtracking from the corner (0, 0), n = 5..{args.corner_max}\n")
    print("| rule | first n that fails | sizes failing |")
    print("|---|---:|---:|")
    for name in KEYS:
        failing = [n for n in range(5, args.corner_max + 1) if not no_backtracking(name, n, [0])[0]]
        print(
            f"| {name} | {failing[0] if failing else '-'} | {len(failing)} of {args.corner_max - 4} |",
            flush=True,
        )

    print(f"\n### CP-SAT: closed n x n tours within {args.cpsat_limit:.0f} s\n")
    print("| n | status | time |")
    print("|---:|---|---:|")
    for n in (10, 20, 30, 40, 50, 60, 70, 80):
        result, seconds = timed(cpsat, tour_instance(n, closed=True), time_limit=args.cpsat_limit, seed=0)
        print(
            f"| {n} | {result.status.value}{' (verified)' if result.verified else ''} | {seconds:.1f} s |",
            flush=True,
        )
        if result.status.value != "FEASIBLE":
            break

    print(f"\n### divide: closed tours of every even n from 6 to {args.divide_max}\n")
    began = time.perf_counter()
    slowest = (0.0, 0)
    for n in range(6, args.divide_max + 1, 2):
        t0 = time.perf_counter()
        order = walk_cycle(closed_tour_table(n, n), 0)
        built = time.perf_counter() - t0
        assert valid_closed_tour(order, n), n
        slowest = max(slowest, (built, n))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{(args.divide_max - 4) // 2} boards built and checked (permutation of all squares, knight steps, "
        f"closing move) in {time.perf_counter() - began:.0f} s; slowest build n = {slowest[1]} in "
        f"{slowest[0]:.2f} s. Peak RSS of the run {peak:.0f} MB."
    )


def every_start() -> None:
    print("\n### No backtracking from every start square, n = 5..40\n")
    print("Starts on the minority colour of an odd board are left out: no open tour can start there.\n")
    print(
        "| rule | first n with a failing start | failing starts at that n | failing starts over n = 5..40 |"
    )
    print("|---|---:|---:|---:|")
    for name in KEYS:
        first = None
        failures_total = 0
        starts_total = 0
        for n in range(5, 41):
            starts = [s for s in range(n * n) if n % 2 == 0 or sum(divmod(s, n)) % 2 == 0]
            ok = no_backtracking(name, n, starts)
            failures = ok.count(False)
            failures_total += failures
            starts_total += len(starts)
            if failures and first is None:
                first = (n, failures, len(starts))
        shown = "-" if first is None else f"{first[0]}"
        count = "-" if first is None else f"{first[1]} of {first[2]}"
        print(f"| {name} | {shown} | {count} | {failures_total} of {starts_total} |", flush=True)


def valid_closed_tour(order: np.ndarray, n: int) -> bool:
    """Array check of a closed n x n tour: every square once, knight steps, closing step."""
    if order.size != n * n or np.bincount(order, minlength=n * n).max() != 1:
        return False
    r, c = np.divmod(order, n)
    dr = np.abs(np.diff(np.append(r, r[0])))
    dc = np.abs(np.diff(np.append(c, c[0])))
    return bool(np.all(((dr == 1) & (dc == 2)) | ((dr == 2) & (dc == 1))))


if __name__ == "__main__":
    main()
