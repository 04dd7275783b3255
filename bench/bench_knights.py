"""Independent-knights benchmarks: speed targets, seed 002's branch and bound, odd tori.

Run from the repository root:

    python bench/bench_knights.py [--torus-limit 60]

Prints Markdown for docs/benchmarks.md. Peer for the matching: networkx's
Hopcroft-Karp on the same knight graph, in the same run.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knightcert.compare.wiring import knights_bnb as bnb  # noqa: E402  (seed 002: greedy incumbent)
from knightcert.compare.wiring import knights_cpsat as cpsat  # noqa: E402  (greedy hint)
from knightcert.heuristics.knights_search import greedy, greedy_plus, matching  # noqa: E402
from knightcert.problems.independent_knights import closed_form, knights_instance  # noqa: E402
from knightcert.problems.moves import knight_edges  # noqa: E402


def timed(function, *args, **kwargs):
    began = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - began


def networkx_mis(n: int) -> tuple[int, float]:
    import networkx as nx
    from networkx.algorithms import bipartite

    inst = knights_instance(n)
    began = time.perf_counter()
    tails, heads = knight_edges(inst.board)
    graph = nx.Graph()
    graph.add_nodes_from(range(n * n))
    graph.add_edges_from(zip(tails.tolist(), heads.tolist(), strict=True))
    top = [i for i in range(n * n) if (i // n + i % n) % 2 == 0]
    size = len(bipartite.hopcroft_karp_matching(graph, top_nodes=top)) // 2
    return n * n - size, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torus-limit", type=float, default=60.0, help="CP-SAT seconds per odd torus")
    parser.add_argument("--torus-max", type=int, default=25)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}\n")
    greedy(knights_instance(4))
    greedy_plus(knights_instance(4))  # compile / load kernels

    print("### Speed targets\n")
    print("| board | method | value | status | time (checked) |")
    print("|---|---|---:|---|---:|")
    for n, method, kwargs in (
        (1000, matching, {}),
        (1000, greedy, {}),
        (1000, greedy_plus, {}),
        (100, cpsat, {"seed": 0}),
        (200, cpsat, {"seed": 0, "time_limit": 60}),
    ):
        result, seconds = timed(method, knights_instance(n), **kwargs)
        assert result.verified
        print(f"| {n}x{n} | {result.method} | {result.objective} | {result.status.value} | {seconds:.2f} s |")

    print("\n### Matching against networkx (same knight graph, graph build included)\n")
    print("| board | knightcert matching | networkx hopcroft_karp | ratio |")
    print("|---|---:|---:|---:|")
    for n in (100, 300):
        result, ours = timed(matching, knights_instance(n), check=False)
        value, theirs = networkx_mis(n)
        assert value == result.objective == closed_form(n, n)
        print(f"| {n}x{n} | {ours:.3f} s | {theirs:.3f} s | {theirs / ours:.0f}x |")

    print("\n### 6x6: seed 002 reported 220 s for its branch and bound\n")
    print("| method | value | status | median of 5 | nodes |")
    print("|---|---:|---|---:|---:|")
    for method in (bnb, cpsat, matching):
        runs = [timed(method, knights_instance(6)) for _ in range(5)]
        result = runs[0][0]
        print(
            f"| {result.method} | {result.objective} | {result.status.value} "
            f"| {1000 * statistics.median(t for _, t in runs):.1f} ms | {result.nodes or '-'} |"
        )

    print("\n### Scaling suite: greedy vs greedy+ (optimum from the closed form)\n")
    print("| board | optimum | greedy | greedy+ | greedy time | greedy+ time |")
    print("|---|---:|---:|---:|---:|---:|")
    for n in (10, 20, 50, 100, 200, 500, 1000):
        a, ta = timed(greedy, knights_instance(n), check=False)
        b, tb = timed(greedy_plus, knights_instance(n), check=False)
        print(f"| {n}x{n} | {closed_form(n, n)} | {a.objective} | {b.objective} | {ta:.3f} s | {tb:.3f} s |")

    print(f"\n### Odd tori: CP-SAT, {args.torus_limit:.0f} s each (8 workers on 2 cores)\n")
    print("| torus | knights | best bound | status | time | greedy+ |")
    print("|---|---:|---:|---|---:|---:|")
    for n in range(5, args.torus_max + 1, 2):
        inst = knights_instance(n, torus=True)
        result, seconds = timed(cpsat, inst, time_limit=args.torus_limit, seed=0)
        heuristic = greedy_plus(inst)
        assert result.verified
        print(
            f"| {n}x{n} | {result.objective} | {result.bound} | {result.status.value} | {seconds:.1f} s "
            f"| {heuristic.objective} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
