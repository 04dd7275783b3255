"""The lost knight's breadth-first search against its C reference (issue 40).

Builds ``bench/c/bfs_torus.c`` with ``cc -O2`` in a temporary folder; for each seed board of
``../shared/data/lost-knight`` (and a generated 1000 x 1000 board), times the C search (best of
``--repeats``, CPU time inside the C process, file reading excluded) and ``path bfs`` in this
process (best of ``--repeats``, CPU time, the file read before, the check off): the same
distance from both. Prints a Markdown table.

    PYTHONPATH=. python bench/bench_path_c.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOST = ROOT.parent / "shared" / "data" / "lost-knight"


def main() -> int:
    from knightcert.algorithms.path_search import bfs
    from knightcert.problems.compiled import kernel
    from knightcert.problems.lost_knight import read_lost_knight

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    aot = "compiled ahead of time" if kernel("bfs_torus") else "numba's JIT (not built ahead of time)"
    print(f"load {os.getloadavg()[0]:.1f}; kernel: {aot}")
    print("| board | moves | C ms | knightcert ms | ratio |\n|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        program = os.path.join(folder, "bfs_torus")
        subprocess.run(["cc", "-O2", "-o", program, str(ROOT / "bench" / "c" / "bfs_torus.c")], check=True)
        generated = Path(folder) / "path1000.txt"
        generated.write_text(
            subprocess.run(
                [sys.executable, "-m", "knightcert", "instance", "path", "1000", "--seed", "1"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        for path in [*(LOST / f"caso{k}.txt" for k in (0, 100, 300, 550)), generated]:
            if not path.exists():
                continue
            out = subprocess.run([program, str(path), str(args.repeats)], check=True, capture_output=True)
            moves, _, c_ms = out.stdout.split()
            instance = read_lost_knight(path)
            times = []
            for _ in range(args.repeats + 1):
                began = time.process_time()
                result = bfs(instance, check=False)
                times.append(1000 * (time.process_time() - began))
            assert result.objective == int(moves), (path, result.objective, moves)
            ours, c_ms = min(times[1:]), float(c_ms)
            print(f"| {path.stem} | {moves.decode()} | {c_ms:.2f} | {ours:.2f} | {ours / c_ms:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
