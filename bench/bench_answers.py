"""Answer-file benchmarks: size, write, load and re-check of certified answers.

Run from the repository root (with ``../shared`` beside the checkout):

    python bench/bench_answers.py [--repeat 5] [--big 5000]

Prints Markdown for docs/benchmarks.md. Peer: the same answer with its
arrays as plain JSON lists (``json.dump`` / ``json.load``), in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from knightcert.problems.answers import (  # noqa: E402
    answer_to_dict,
    check_answer,
    read_answer,
    result_from_answer,
    write_answer,
)
from knightcert.problems.generators import random_lost_knight  # noqa: E402
from knightcert.problems.jump_game import read_jump  # noqa: E402
from knightcert.problems.lost_knight import read_lost_knight  # noqa: E402
from knightcert.registry import get_method  # noqa: E402

DATA = ROOT.parent / "shared" / "data"


def median_time(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        function()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def plain(result, instance) -> dict:
    data = answer_to_dict(result, instance)
    data["certificate"] = {k: np.asarray(v).tolist() for k, v in result.certificate.items()}
    return data


def measure(name: str, problem: str, instance, repeat: int, peer: bool) -> str:
    result = get_method(problem, "bfs")(instance)
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "answer.json")
    write = median_time(lambda: write_answer(path, result, instance, instance_path="x"), repeat)
    size = os.path.getsize(path)
    load = median_time(lambda: result_from_answer(read_answer(path), problem=problem), repeat)
    data = read_answer(path)
    check = median_time(lambda: check_answer(instance, data), repeat)
    assert check_answer(instance, data).certified
    peer_text = "-"
    if peer:
        plain_path = os.path.join(folder, "plain.json")
        content = plain(result, instance)
        with open(plain_path, "w") as stream:
            json.dump(content, stream)

        def load_plain():
            with open(plain_path) as stream:
                json.load(stream)

        plain_load = median_time(load_plain, repeat)
        plain_size = os.path.getsize(plain_path)
        ratios = f"{plain_size / size:.0f}x, {plain_load / load:.0f}x"
        peer_text = f"{plain_size / 1e6:.2f} MB, load {plain_load:.3f} s ({ratios})"
    return f"| {name} | {size / 1e6:.2f} MB | {write:.3f} s | {load:.3f} s | {check:.3f} s | {peer_text} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--big", type=int, default=5000, help="side of the random lost-knight board")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f}\n")
    print("| answer (bfs, certified) | file | write | load (read + fields) | re-check | peer: JSON lists")
    print("|---|---:|---:|---:|---:|---")
    print(
        measure(
            "caso550 (550 x 550 labelling)",
            "path",
            read_lost_knight(DATA / "lost-knight" / "caso550.txt"),
            args.repeat,
            True,
        )
    )
    print(
        measure(
            "EX5 (1000 x 1000 jump labels)",
            "jump",
            read_jump(DATA / "jump-game" / "EX5.in"),
            args.repeat,
            True,
        )
    )
    big = random_lost_knight(np.random.default_rng(1), args.big, args.big, 0.2)
    print(measure(f"random {args.big} x {args.big} lost knight", "path", big, 1, False))


if __name__ == "__main__":
    main()
