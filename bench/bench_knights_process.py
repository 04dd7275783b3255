"""``knightcert knights --board B`` against python-igraph, whole process each, same run.

Usage::

    python3 -m venv /tmp/ig && /tmp/ig/bin/pip install python-igraph numpy
    python bench/bench_knights_process.py --peer-python /tmp/ig/bin/python [--sizes 200,500] [--repeat 5]

Each board: ``knightcert instance knights N --holes 0.1 --seed N``. Ours: the command as a user
runs it (parse, ``matching``, the independent check, the answer printed). igraph's: a fresh
``python`` that reads the same file, builds the knight graph with numpy, runs
``Graph.maximum_bipartite_matching`` and prints the number of knights (free squares less matched
pairs). Both counts must agree. Both processes may write and read byte code, as an installed
package does (``PYTHONDONTWRITEBYTECODE`` is dropped). Figures: the least of ``--repeat`` runs,
alternated, CPU (user + system of the process) and wall, with the load before and after.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

IGRAPH = r"""
import sys
import igraph
import numpy as np
rows = [line.strip() for line in open(sys.argv[1]) if line.strip()]
free = np.array([[ch == "." for ch in row] for row in rows])
n_rows, n_cols = free.shape
index = np.arange(free.size).reshape(free.shape)
edges = []
for dr, dc in ((1, 2), (2, 1), (1, -2), (2, -1)):
    r0, r1 = max(0, -dr), n_rows - max(0, dr)
    c0, c1 = max(0, -dc), n_cols - max(0, dc)
    a = index[r0:r1, c0:c1]
    b = index[r0 + dr : r1 + dr, c0 + dc : c1 + dc]
    both = free[r0:r1, c0:c1] & free[r0 + dr : r1 + dr, c0 + dc : c1 + dc]
    edges.append(np.stack([a[both], b[both]], axis=1))
graph = igraph.Graph(n=free.size, edges=np.concatenate(edges).tolist())
colour = ((np.add.outer(np.arange(n_rows), np.arange(n_cols)) % 2) == 1).reshape(-1).tolist()
matching = graph.maximum_bipartite_matching(colour)
print(int(free.sum()) - len(matching))
"""


def timed(argv: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one process (its resource usage as a child), and what it printed."""
    before = os.times()
    began = time.perf_counter()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - began
    after = os.times()
    if done.returncode:
        raise SystemExit(f"{argv[:4]}: exit {done.returncode}: {done.stderr[-500:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200,500")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--peer-python",
        default=sys.executable,
        help="the interpreter igraph's process runs in: give one of an environment with only numpy and "
        "python-igraph (igraph's import loads matplotlib and cairo when they are installed: 1 s more)",
    )
    args = parser.parse_args()
    knightcert = [sys.executable, "-m", "knightcert"]
    print(f"load before: {os.getloadavg()[0]:.1f}")
    print("| board | knightcert wall / CPU | igraph wall / CPU | CPU ratio (ours / igraph) |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder, "igraph_whole.py")
        script.write_text(IGRAPH)
        for size in map(int, args.sizes.split(",")):
            board = Path(folder, f"b{size}.txt")
            made = subprocess.run(
                [*knightcert, "instance", "knights", str(size), "--holes", "0.1", "--seed", str(size)],
                capture_output=True,
                text=True,
                check=True,
            )
            board.write_text(made.stdout)
            ours, theirs = [], []
            for _ in range(args.repeat):
                wall, cpu, out = timed([*knightcert, "knights", "--board", str(board)])
                ours.append((cpu, wall, int(re.search(r": (\d+) knights", out).group(1))))
                wall, cpu, out = timed([args.peer_python, str(script), str(board)])
                theirs.append((cpu, wall, int(out)))
            if {o[2] for o in ours} != {t[2] for t in theirs}:
                raise SystemExit(f"{size}: the knights differ: {ours[0][2]} against {theirs[0][2]}")
            (o_cpu, o_wall, _), (t_cpu, t_wall, _) = min(ours), min(theirs)
            print(
                f"| {size}x{size}, 10 % holes | {o_wall:.2f} s / {o_cpu:.2f} s "
                f"| {t_wall:.2f} s / {t_cpu:.2f} s | {o_cpu / t_cpu:.2f} |"
            )
    print(f"load after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
