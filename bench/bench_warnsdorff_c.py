"""The Warnsdorff family against its C reference (issue 40): same rule, same tie-breaks, same tours.

Builds ``bench/c/warnsdorff.c`` with ``cc -O2`` in a temporary folder, then for every size,
open and closed tour from (0, 0), with and without backtracking, and every setting asked for
(the four methods with their own settings, and ``--sweep`` tie-breaks x orders), times (CPU
seconds of the process: the machine is shared) the C program's solve (best of ``--repeats``,
timed inside the C process, which builds its tables in every solve) and the knightcert method in
process (``check=False``, best of ``--repeats``), both as a first run (no tables kept from an
earlier run, as in every command-line call) and as a repeated run (warm: up to 500 x 500 the
tables of the run before are reused), checks that both return the same tour, and times the tour
checker on knightcert's answer. Prints a Markdown table.

Run from the repository root:

    python bench/bench_warnsdorff_c.py [--sizes 100,200,500,1000,2000] [--repeats 3] [--sweep 500]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knightcert.heuristics import tour_warnsdorff  # noqa: E402
from knightcert.heuristics.tour_warnsdorff import TIE_BREAKS  # noqa: E402
from knightcert.problems.checkers import certify  # noqa: E402
from knightcert.problems.tours import tour_instance  # noqa: E402

#: method -> (tie-break, order) of its own rule.
OWN = {
    "warnsdorff": ("first", "12345678"),
    "marginality": ("marginality", "12345678"),
    "roth": ("roth", "12345678"),
    "cenpl": ("centre", "75312468"),
}
ORDERS = ("12345678", "75312468", "87654321", "21436587")


def build(folder: str) -> str:
    program = os.path.join(folder, "warnsdorff")
    subprocess.run(["cc", "-O2", "-o", program, str(ROOT / "bench" / "c" / "warnsdorff.c")], check=True)
    return program


def run_c(program: str, n: int, closed: bool, order: str, tie: str, budget: int, repeats: int, out: str):
    """(status, nodes, tour as flat squares, best ms) of the C reference."""
    args = [str(a) for a in (n, n, int(closed), 0, 0, order, TIE_BREAKS.index(tie), 0, budget, repeats, out)]
    text = subprocess.run([program, *args], check=True, capture_output=True, text=True).stdout.split()
    status, length, nodes, best = int(text[0]), int(text[1]), int(text[2]), float(text[4])
    return status, nodes, np.fromfile(out, dtype=np.int32, count=length), best


def run_knightcert(method: str, n: int, closed: bool, order: str, tie: str, budget: int, repeats: int):
    """(result, best ms of a repeated run, best ms of a first run, check ms) of the method in process."""
    instance = tour_instance(n, closed=closed, start=(0, 0))
    solve = getattr(tour_warnsdorff, method)
    options = (
        {"budget": budget} if method == "cenpl" else {"budget": max(budget, 1), "backtracking": budget > 0}
    )
    result, best, first = None, float("inf"), float("inf")
    for _ in range(repeats):
        tour_warnsdorff._WARM.clear()  # a first run: no tables kept
        began = time.process_time()
        solve(instance, order=order, tie_break=tie, seed=0, check=False, **options)
        middle = time.process_time()
        result = solve(instance, order=order, tie_break=tie, seed=0, check=False, **options)
        first, best = min(first, middle - began), min(best, time.process_time() - middle)
    assert result is not None
    began = time.process_time()
    checked = certify(instance, result)
    check = time.process_time() - began
    if result.solution is not None:
        assert checked.verified, checked.info
    return result, best * 1e3, first * 1e3, check * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="100,200,500,1000,2000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--methods", default="warnsdorff,marginality,roth,cenpl")
    parser.add_argument("--sweep", type=int, default=0, help="also every tie-break x 4 orders at this size")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    runs = []
    for n in sizes:
        for closed in (False, True):
            for budget in (0, 2 * n * n):  # no backtracking; backtracking with room for the whole tour
                for method in args.methods.split(","):
                    if method == "cenpl" and budget == 0:
                        continue  # cenpl always backtracks (its rule without: warnsdorff's options)
                    runs.append((n, closed, budget, method, *OWN[method]))
    if args.sweep:
        runs += [
            (args.sweep, c, 0, "warnsdorff", t, o) for c in (False, True) for t in TIE_BREAKS for o in ORDERS
        ]
    load = os.getloadavg()[0]
    print(f"load average at start: {load:.2f}; cores: {os.cpu_count()}")
    print(
        "\n| size | tour | backtracking | method | tie-break | order | C ms | knightcert ms | ratio | "
        "first run ms | first-run ratio | check ms | check/solve | same tour | status |"
    )
    print("|---:|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        program = build(folder)
        out = os.path.join(folder, "tour.bin")
        run_knightcert("warnsdorff", 8, False, "12345678", "first", 0, 1)  # warm: the kernels loaded
        for n, closed, budget, method, tie, order in runs:
            status, nodes, c_tour, c_ms = run_c(program, n, closed, order, tie, budget, args.repeats, out)
            result, k_ms, first_ms, check_ms = run_knightcert(
                method, n, closed, order, tie, budget, args.repeats
            )
            found = result.solution is not None
            if found:
                same = status == 1 and np.array_equal(result.solution, np.stack(np.divmod(c_tour, n), axis=1))
            else:  # the same outcome (stopped: -1, UNKNOWN; exhausted: 0, INFEASIBLE) after as many nodes
                outcome = {-1: "UNKNOWN", 0: "INFEASIBLE"}.get(status)
                same = outcome == result.status.value and nodes == result.nodes
            print(
                f"| {n} | {'closed' if closed else 'open'} | {'yes' if budget else 'no'} | {method} | "
                f"{tie} | {order} | {c_ms:.1f} | {k_ms:.1f} | {k_ms / c_ms:.2f} | "
                f"{first_ms:.1f} | {first_ms / c_ms:.2f} | {check_ms:.1f} | "
                f"{check_ms / k_ms:.2f} | {'yes' if same else 'NO'} | {result.status.value} |",
                flush=True,
            )
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
