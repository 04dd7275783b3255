"""Jump-game benchmarks: one backward search against a pure-Python per-player BFS.

Run from the repository root with ../shared beside it:

    python bench/bench_jump_game.py [--repeat 11]

The peer is the seed's method written plainly in Python (one BFS per player
with a deque), measured in the same run on the same instance.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knightcert.algorithms.jump_search import bfs, bfs_player  # noqa: E402
from knightcert.problems.jump_game import format_jump_answer, read_jump  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "jump-game"


def pure_python(path: Path) -> str:
    """Parse with str.split and run one deque BFS per player (the seed's O(J·N·M))."""
    tokens = path.read_text().split()
    rows, cols, players = int(tokens[0]), int(tokens[1]), int(tokens[2])
    values = [int(x) for x in tokens[3 : 3 + rows * cols]]
    starts = [
        (int(tokens[3 + rows * cols + 2 * p]), int(tokens[4 + rows * cols + 2 * p])) for p in range(players)
    ]
    goal = rows * cols - 1
    best = None
    for p, (r, c) in enumerate(starts):
        start = r * cols + c
        dist = [-1] * (rows * cols)
        dist[start] = 0
        queue = deque([start])
        layers = [[start]]
        while queue and dist[goal] < 0:
            u = queue.popleft()
            v = values[u]
            if v == 0:
                continue
            ur, uc = divmod(u, cols)
            for nr, nc in ((ur - v, uc), (ur + v, uc), (ur, uc - v), (ur, uc + v)):
                if 0 <= nr < rows and 0 <= nc < cols:
                    t = nr * cols + nc
                    if dist[t] < 0:
                        dist[t] = dist[u] + 1
                        if dist[t] >= len(layers):
                            layers.append([])
                        layers[dist[t]].append(t)
                        queue.append(t)
        rounds = dist[goal]
        if rounds < 0:
            continue
        key = -1
        if rounds >= 2:
            pre_goal = set()
            for x in layers[rounds - 1]:
                xv = values[x]
                xr, xc = divmod(x, cols)
                if xv and goal in ((xr + xv) * cols + xc, xr * cols + xc + xv):
                    pre_goal.add(x)
            candidates = []
            for w in layers[rounds - 2]:
                wv = values[w]
                wr, wc = divmod(w, cols)
                for nr, nc in ((wr - wv, wc), (wr + wv, wc), (wr, wc - wv), (wr, wc + wv)):
                    if 0 <= nr < rows and 0 <= nc < cols and nr * cols + nc in pre_goal:
                        candidates.append(wv)
            key = min(candidates)
        if best is None or (rounds, key, p) < best:
            best = (rounds, key, p)
    return format_jump_answer(None if best is None else best[2], None if best is None else best[0])


def ours(path: Path) -> str:
    return bfs(read_jump(path), check=False).solution["output"]


def median_time(function, argument, repeat: int):
    times, value = [], None
    for _ in range(repeat):
        began = time.perf_counter()
        value = function(argument)
        times.append(time.perf_counter() - began)
    return statistics.median(times), value


HUGE = """
import resource, sys, time, numpy as np
sys.path.insert(0, {root!r})
from knightcert.problems.jump_game import JumpInstance
from knightcert.algorithms.jump_search import bfs
n, players = {n}, {players}
rng = np.random.default_rng(4000)
values = rng.integers(0, {high} + 1, size=(n, n)).astype(np.int64)
starts = tuple((int(rng.integers(n)), int(rng.integers(n))) for _ in range(players))
game = JumpInstance(values, starts, "huge")
bfs(JumpInstance(values[:4, :4].copy(), ((0, 0),), "warm"))
began = time.perf_counter(); result = bfs(game, check=False); solve = time.perf_counter() - began
one = JumpInstance(values, starts[:1], "one")
began = time.perf_counter(); bfs(one, check=False); solve_one = time.perf_counter() - began
began = time.perf_counter(); checked = bfs(game); total = time.perf_counter() - began
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"winner {{result.solution['winner']}} in round {{result.solution['round']}}: solve {{solve:.2f}} s "
      f"(one player {{solve_one:.2f}} s), with the check {{total:.2f}} s (verified: {{checked.verified}}), "
      f"peak {{peak:.0f}} MB")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--huge", type=int, default=4000)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--high", type=int, default=40, help="largest cell value of the generated board")
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"{DATA} not found: run with ../shared beside the checkout")
    ours(DATA / "EX1.in")  # load the compiled kernels
    bfs_player(read_jump(DATA / "EX1.in"))
    print(
        "| instance | knightcert bfs, parse+solve (median) | bfs-player (median) "
        "| pure-Python per-player BFS | ratio |"
    )
    print("|---|---:|---:|---:|---:|")
    for case in range(1, 6):
        path = DATA / f"EX{case}.in"
        expected = (DATA / f"EX{case}.out").read_text().split()
        t_ours, out = median_time(ours, path, args.repeat)
        t_player, out_player = median_time(
            lambda p: bfs_player(read_jump(p), check=False).solution["output"], path, args.repeat
        )
        t_peer, out_peer = median_time(pure_python, path, 3 if case == 5 else args.repeat)
        assert out.split() == out_player.split() == out_peer.split() == expected, (case, out, out_peer)
        print(
            f"| EX{case} | {1000 * t_ours:.2f} ms | {1000 * t_player:.2f} ms | {1000 * t_peer:.1f} ms "
            f"| {t_peer / t_ours:.1f}x |"
        )
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            HUGE.format(root=str(ROOT), n=args.huge, players=args.players, high=args.high),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    print(f"\n{args.huge}x{args.huge}, values 0..{args.high}, {args.players} players: {out.stdout.strip()}")


if __name__ == "__main__":
    main()
