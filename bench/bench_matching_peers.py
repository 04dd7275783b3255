"""Knights matching against python-igraph's ``maximum_bipartite_matching``, same run.

Usage::

    pip install python-igraph
    python bench/bench_matching_peers.py

For each board: our ``matching`` method call (checker off), ``knightcert.solve`` (the same
call with the independent check, as users get it), igraph's matching step alone (the graph
already built) and igraph's whole process (knight edges, ``Graph``, matching).
Both must give the same number of knights (squares less matched pairs).
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

import knightcert
from knightcert.algorithms.knights_matching import matching
from knightcert.problems.board import Board
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.moves import knight_edges


def boards() -> list[tuple[str, Board]]:
    holes = np.random.default_rng(2000).random((2000, 2000)) < 0.2
    return [("1000x1000 full", Board(1000, 1000)), ("2000x2000 20 % holes", Board(2000, 2000, holes))]


def main() -> int:
    import igraph

    print(
        "| board | ours (method call) | ours solve (checked) | igraph matching step | igraph whole "
        "| step ratio | solve / step | whole ratio ",
        end="",
    )
    print("| load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, board in boards():
        load = os.getloadavg()[0]
        ours = matching(KnightsInstance(board, name), check=False)
        began = time.perf_counter()
        checked = knightcert.solve(KnightsInstance(board, name), "matching")
        solved = time.perf_counter() - began
        assert checked.verified and checked.objective == ours.objective
        began = time.perf_counter()
        tails, heads = knight_edges(board)
        graph = igraph.Graph(n=board.size, edges=np.stack((tails, heads), axis=1).tolist())
        rows, cols = np.divmod(np.arange(board.size), board.cols)
        types = ((rows + cols) % 2 == 0).tolist()
        built = time.perf_counter()
        matched = graph.maximum_bipartite_matching(types)
        done = time.perf_counter()
        knights = board.n_free - len(matched)
        assert knights == ours.objective, (knights, ours.objective)
        step, whole = done - built, done - began
        print(
            f"| {name} | {ours.time:.2f} s | {solved:.2f} s | {step:.2f} s | {whole:.2f} s "
            f"| {ours.time / step:.2f} | {solved / step:.2f} | {ours.time / whole:.2f} | {load:.1f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
