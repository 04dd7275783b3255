"""Certification against solving: the checker's time beside the method's, per problem.

Usage::

    PYTHONPATH=. python bench/bench_check.py   # every case, 3 runs each (median)
    PYTHONPATH=. python bench/bench_check.py --repeat 1
    PYTHONPATH=. python bench/bench_check.py --sizes 8,16,24,32,48,64,100 --repeat 15

For each problem's default method (and ``jump bfs-player``, the jump game's other exact
method) on a large instance, and on the instances where the default is another rule (the
odd torus's CP-SAT, a tour search on a board with squares removed): the method call with the
checker off (``check=False``), then ``knightcert.problems.checkers.certify`` on its answer,
each timed in this process after a warm-up call on the same instance (compiled kernels
loaded), in CPU seconds of this process (the machine is shared); a solve under 2 ms, and its
check, in batches of calls of some 2 ms. "check / solve" below 1:
the answer costs less to certify than to find. The load average is printed on every row.
``--sizes``: instead, the check / solve ratio of each default method (and ``bfs-player``) on
generated boards of each size, a row per method: where the check stops costing more.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from knightcert.problems.checkers import certify
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.instance_files import random_instance
from knightcert.problems.jump_game import read_jump
from knightcert.problems.lost_knight import read_lost_knight
from knightcert.problems.tours import tour_instance
from knightcert.registry import get_method

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def cases() -> list[tuple[str, str, str, Callable[[], object]]]:
    """(problem, method, instance name, instance builder)."""
    return [
        ("path", "bfs", "8 x 8, generated", lambda: random_instance("path", 8, seed=1)),
        ("path", "bfs", "caso550", lambda: read_lost_knight(SHARED / "lost-knight" / "caso550.txt")),
        ("path", "bfs", "2000 x 2000, generated", lambda: random_instance("path", 2000, seed=1)),
        ("jump", "bfs", "8 x 8, generated", lambda: random_instance("jump", 8, seed=1)),
        ("jump", "bfs", "EX5 (1000 x 1000)", lambda: read_jump(SHARED / "jump-game" / "EX5.in")),
        ("jump", "bfs", "1 x 20000 corridor of 1s, 3 players", corridor),
        ("jump", "bfs-player", "1 x 20000 corridor of 1s, 3 players", corridor),
        ("jump", "bfs-player", "EX1 (1 x 9)", lambda: read_jump(SHARED / "jump-game" / "EX1.in")),
        ("jump", "bfs-player", "EX4 (10 x 10)", lambda: read_jump(SHARED / "jump-game" / "EX4.in")),
        ("jump", "bfs-player", "8 x 8, generated", lambda: random_instance("jump", 8, seed=1)),
        ("jump", "bfs-player", "100 x 100, generated", lambda: random_instance("jump", 100, seed=1)),
        ("jump", "bfs-player", "EX5 (1000 x 1000)", lambda: read_jump(SHARED / "jump-game" / "EX5.in")),
        ("jump", "bfs-player", "2000 x 2000, generated", lambda: random_instance("jump", 2000, seed=1)),
        ("knights", "matching", "8 x 8", lambda: knights_instance(8)),
        ("knights", "matching", "1000 x 1000", lambda: knights_instance(1000)),
        ("knights", "matching", "1001 x 1001", lambda: knights_instance(1001)),
        ("knights", "matching", "2000 x 2000", lambda: knights_instance(2000)),
        ("tour", "auto", "closed 8 x 8", lambda: tour_instance(8, closed=True)),
        ("tour", "auto", "closed 1000 x 1000", lambda: tour_instance(1000, closed=True)),
        ("tour", "auto", "closed 4000 x 4000", lambda: tour_instance(4000, closed=True)),
        ("tour", "auto", "closed 40 x 40, two corners removed (search)", holed_board),
        ("knights", "cpsat", "11 x 11 torus (odd: not bipartite)", lambda: knights_instance(11, torus=True)),
    ]


def corridor():
    """One row of 20000 cells of value 1: the players' paths have thousands of jumps each."""
    import numpy as np

    from knightcert.problems.jump_game import JumpInstance

    return JumpInstance(np.ones((1, 20000), dtype=np.int64), ((0, 0), (0, 1), (0, 5)))


def holed_board():
    """A 40 x 40 board without two opposite-coloured corners: no theorem, no construction (rule 3)."""
    import tempfile

    rows = ["." * 40 for _ in range(40)]
    rows[0] = "x" + rows[0][1:]
    rows[39] = "x" + rows[39][1:]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as stream:
        stream.write("\n".join(rows) + "\n")
    return tour_instance(board_file=stream.name, closed=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per row; the medians are shown")
    parser.add_argument("--only", default="", help="only the rows of these methods, e.g. bfs-player,bfs")
    parser.add_argument("--sizes", default="", help="the ratio on generated n x n boards, e.g. 8,16,32")
    args = parser.parse_args(argv)
    if args.sizes:
        return crossover([int(n) for n in args.sizes.split(",")], args.repeat)
    print("| problem | method | instance | solve s | check s | check / solve | certified | load |")
    print("|---|---|---|---:|---:|---:|---|---:|")
    for problem, name, label, build in cases():
        if args.only and name not in args.only.split(","):
            continue
        instance = build()
        method = get_method(problem, name)
        method(instance, check=False)  # warm-up: compiled kernels loaded once
        load = os.getloadavg()[0]
        solve, check, result = timed(method, instance, args.repeat)
        print(
            f"| {problem} | {name} | {label} | {solve:.5f} | {check:.5f} | {check / solve:.2f} "
            f"| {result.certified} | {load:.1f} |",
            flush=True,
        )
    return 0


def timed(method, instance, repeat: int) -> tuple[float, float, object]:
    """The median CPU seconds of the solve and of its check, and the last checked answer. A solve
    under 2 ms is timed in batches of calls that take some 2 ms (its checks too, the same number):
    one call of tens of microseconds is below what a single reading of the clock resolves well."""
    began = time.process_time()
    method(instance, check=False)
    batch = max(1, int(0.002 / max(time.process_time() - began, 1e-6)))
    solves, checks, result = [], [], None
    for _ in range(repeat):
        began = time.process_time()
        for _ in range(batch):
            answer = method(instance, check=False)
        solved = time.process_time()
        for _ in range(batch):
            result = certify(instance, answer)
        checks.append((time.process_time() - solved) / batch)
        solves.append((solved - began) / batch)
    return statistics.median(solves), statistics.median(checks), result


def crossover(sizes: list[int], repeat: int) -> int:
    """A row per method: check / solve on generated n x n boards (seed 1; tours closed)."""
    build = {
        "path": lambda n: random_instance("path", n, seed=1),
        "jump": lambda n: random_instance("jump", n, seed=1),
        "knights": knights_instance,
        "tour": lambda n: tour_instance(n, closed=True),
    }
    print("| problem | method | " + " | ".join(f"{n} x {n}" for n in sizes) + " | load |")
    print("|---|---|" + "---:|" * len(sizes) + "---:|")
    methods = [("path", "bfs"), ("jump", "bfs"), ("jump", "bfs-player"), ("knights", "matching")]
    for problem, name in [*methods, ("tour", "auto")]:
        method, load, ratios = get_method(problem, name), os.getloadavg()[0], []
        for n in sizes:
            instance = build[problem](n)
            method(instance, check=False)  # warm-up
            solve, check, result = timed(method, instance, repeat)
            ratios.append(f"{check / solve:.2f}" + ("" if result.certified else " (not certified)"))
        print(f"| {problem} | {name} | " + " | ".join(ratios) + f" | {load:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
