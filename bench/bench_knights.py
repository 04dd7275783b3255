"""Independent-knights benchmarks: speed targets, seed 002's branch and bound, odd tori.

Run from the repository root:

    python bench/bench_knights.py [--torus-limit 60]
    python bench/bench_knights.py --matching [--old-timeout 20]   # issue 9's matching table only

Prints Markdown for docs/benchmarks.md. Peer for the matching: networkx's
Hopcroft-Karp on the same knight graph, in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knightcert.algorithms.knights_matching import matching  # noqa: E402
from knightcert.combined import knights_bnb as bnb  # noqa: E402  (seed 002: greedy incumbent)
from knightcert.combined import knights_cpsat as cpsat  # noqa: E402  (greedy hint)
from knightcert.heuristics.knights_greedy import greedy, greedy_plus  # noqa: E402
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


def _scipy_matching(board, out) -> None:  # pragma: no cover - runs in a child process
    """The replaced call, ``scipy.sparse.csgraph.maximum_bipartite_matching``, on the knight graph."""
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    from knightcert.problems.moves import knight_edges

    tails, heads = knight_edges(board)
    white = (np.add(*np.divmod(tails, board.cols)) % 2) == 0
    left, right = np.where(white, tails, heads), np.where(white, heads, tails)
    graph = coo_matrix((np.ones(left.size, np.int8), (left, right)), shape=(board.size, board.size)).tocsr()
    began = time.perf_counter()
    size = int((maximum_bipartite_matching(graph, perm_type="column") >= 0).sum())
    out.put((board.n_free - size, time.perf_counter() - began))


def _networkx_on(board) -> tuple[int, float]:
    import networkx as nx
    from networkx.algorithms import bipartite

    tails, heads = knight_edges(board)
    began = time.perf_counter()
    graph = nx.Graph()
    graph.add_nodes_from(range(board.size))
    graph.add_edges_from(zip(tails.tolist(), heads.tolist(), strict=True))
    top = [int(i) for i in range(board.size) if sum(board.square(i)) % 2 == 0]
    size = len(bipartite.hopcroft_karp_matching(graph, top_nodes=top)) // 2
    return board.n_free - size, time.perf_counter() - began


def matching_table(old_timeout: float) -> None:
    """Issue 9: the old scipy call vs the compiled matching (push-relabel, then Hopcroft-Karp) vs
    networkx, same boards, same run."""
    import multiprocessing as mp

    import numpy as np

    from knightcert.problems.board import Board
    from knightcert.problems.independent_knights import KnightsInstance

    print("### Independent knights matching: old scipy call vs ours vs networkx\n")
    print(f"(old call stopped after {old_timeout:.0f} s; networkx on boards up to 200 x 200)\n")
    print(
        "| board | holes | knights | ours (method call) | pushes | Hopcroft-Karp phases | µs per square "
        "| old scipy call | networkx |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    matching(knights_instance(8))  # load the compiled kernels
    per_square = []
    boards = [(n, h) for n in (100, 200, 500, 1000) for h in (0, 0.05, 0.2, 0.4)] + [(2000, 0), (2000, 0.2)]
    for n, holes in boards:
        blocked = np.random.default_rng(n).random((n, n)) < holes if holes else None
        board = Board(n, n, blocked)
        result, ours = timed(matching, KnightsInstance(board, f"{n}x{n}"), check=False)
        per_square.append(ours / board.n_free * 1e6)
        queue = mp.get_context("fork").Queue()
        child = mp.get_context("fork").Process(target=_scipy_matching, args=(board, queue))
        child.start()
        child.join(old_timeout)
        if child.is_alive():
            child.kill()
            old = f"> {old_timeout:.0f} s"
        else:
            value, seconds = queue.get()
            assert value == result.objective
            old = f"{seconds:.3f} s"
        peer = "-"
        if n <= 200 and holes in (0, 0.2):
            value, seconds = _networkx_on(board)
            assert value == result.objective
            peer = f"{seconds:.2f} s"
        print(
            f"| {n}x{n} | {holes:.0%} | {result.objective} | {ours:.3f} s | {result.info['pushes']} "
            f"| {result.info['phases']} "
            f"| {per_square[-1]:.2f} | {old} | {peer} |",
            flush=True,
        )
    print(f"\nmedian µs per square {statistics.median(per_square):.2f}, max {max(per_square):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torus-limit", type=float, default=60.0, help="CP-SAT seconds per odd torus")
    parser.add_argument("--torus-max", type=int, default=25)
    parser.add_argument("--scaling-max", type=int, default=1000, help="largest board of the scaling suite")
    parser.add_argument("--matching", action="store_true", help="only issue 9's matching table")
    parser.add_argument("--old-timeout", type=float, default=20.0, help="seconds for the old scipy call")
    args = parser.parse_args()
    if args.matching:
        matching_table(args.old_timeout)
        return
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
    for n in (n for n in (10, 20, 50, 100, 200, 500, 1000) if n <= args.scaling_max):
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
