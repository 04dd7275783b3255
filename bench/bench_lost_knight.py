"""Lost-knight benchmarks: knightcert's BFS against networkx, the CLI wall time, a huge board.

Run from the repository root with ../shared beside it:

    python bench/bench_lost_knight.py [--repeat 21]

Prints a Markdown table (figures for docs/benchmarks.md). Every figure is
measured in this run; the peer (networkx: graph build + shortest path, the
seed's approach) runs on the same machine right after ours.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knightcert.algorithms.path_search import bfs  # noqa: E402
from knightcert.problems.lost_knight import read_lost_knight  # noqa: E402
from knightcert.problems.moves import KNIGHT_OFFSETS  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "lost-knight"


def networkx_solve(path: Path) -> int:
    """The seed's approach with networkx: read, build the toroidal knight graph, shortest path."""
    import networkx as nx

    lines = path.read_text().splitlines()
    lines = [line for line in lines if line]
    rows, cols = len(lines), len(lines[0])
    graph = nx.Graph()
    start = goal = None
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch == "x":
                continue
            graph.add_node((r, c))
            if ch == "C":
                start = (r, c)
            elif ch == "S":
                goal = (r, c)
    for r, c in list(graph.nodes):
        for dr, dc in KNIGHT_OFFSETS:
            v = ((r + dr) % rows, (c + dc) % cols)
            if v in graph:
                graph.add_edge((r, c), v)
    return nx.shortest_path_length(graph, start, goal)


def ours(path: Path) -> int:
    return bfs(read_lost_knight(path), check=False).objective


def median_time(function, argument, repeat: int) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeat):
        began = time.perf_counter()
        value = function(argument)
        times.append(time.perf_counter() - began)
    return statistics.median(times), value


def cli_wall(files: list[Path], repeat: int) -> float:
    exe = Path(sys.executable).with_name("knightcert")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "compare"]
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        subprocess.run([*command, "path", *map(str, files)], check=True, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


HUGE = """
import resource, sys, time, numpy as np
sys.path.insert(0, {root!r})
from knightcert.problems.board import Board
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.algorithms.path_search import bfs
n = {n}
rng = np.random.default_rng(5000)
blocked = rng.random((n, n)) < 0.30
blocked[0, 0] = blocked[n // 2, n // 2 + 1] = False
inst = LostKnightInstance(Board(n, n, blocked, torus=True), (0, 0), (n // 2, n // 2 + 1), "huge")
bfs(LostKnightInstance(Board(8, 8, torus=True), (0, 0), (1, 2), "warm"))  # load the compiled kernel
began = time.perf_counter(); result = bfs(inst, check=False); solve = time.perf_counter() - began
began = time.perf_counter(); checked = bfs(inst); total = time.perf_counter() - began
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{{result.objective}} moves ({{result.status.value}}, verified: {{checked.verified}}), "
      f"BFS {{solve:.2f}} s, with the check {{total:.2f}} s, {{result.nodes}} nodes, peak {{peak:.0f}} MB")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--huge", type=int, default=5000, help="side of the generated board")
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"{DATA} not found: run with ../shared beside the checkout")
    files = sorted(DATA.glob("caso*.txt"), key=lambda p: int(p.stem[4:]))
    expected = json.loads((DATA / "expected.json").read_text())
    ours(files[0])  # compile / load the kernel once
    print("| instance | knightcert parse+BFS (median) | networkx build+shortest path (median) | ratio |")
    print("|---|---:|---:|---:|")
    for path in files:
        t_ours, v_ours = median_time(ours, path, args.repeat)
        t_nx, v_nx = median_time(networkx_solve, path, max(3, args.repeat // 7))
        assert v_ours == v_nx == expected[path.name], (path.name, v_ours, v_nx)
        print(
            f"| {path.name} ({v_ours} moves) | {1000 * t_ours:.2f} ms | {1000 * t_nx:.1f} ms "
            f"| {t_nx / t_ours:.0f}x |"
        )
    wall = cli_wall(files, 5)
    print(
        f"\nAll {len(files)} instances in one `knightcert path` call (interpreter start included, "
        f"median of 5): {wall:.3f} s"
    )
    out = subprocess.run(
        [sys.executable, "-c", HUGE.format(root=str(ROOT), n=args.huge)],
        check=True,
        capture_output=True,
        text=True,
    )
    print(f"\n{args.huge}x{args.huge} torus, 30% blocked: {out.stdout.strip()}")


if __name__ == "__main__":
    main()
