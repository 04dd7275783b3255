"""Knight's-tour benchmarks: coverage of the default (``auto``) on every board up to 100 x 100
and on large boards, construction speed and memory against the Warnsdorff engine, the command
line's output paths, start squares, CP-SAT's largest closed tour, and Warnsdorff success rates.

Run from the repository root:

    python bench/bench_tours.py [--only coverage|speed|cli|starts|big|rates|tourney] [--cover-max 100]
    python bench/bench_tours.py --only tourney --tourney-source DIR

Peers, same run: the project's compiled Warnsdorff engine (Roth's rule, no backtracking, an open
tour), a plain pure-Python Warnsdorff, and (``--only tourney``) Ian Parberry's Tourney generator
(C++, MIT licence; DIR is a clone of https://github.com/Ian-Parberry/Tourney, built here with the
compiler command of its own makefile).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from knightcert.heuristics.tour_divide import construct  # noqa: E402
from knightcert.heuristics.tour_kernels import FOUND  # noqa: E402
from knightcert.heuristics.tour_kernels import warnsdorff as engine  # noqa: E402
from knightcert.heuristics.tour_warnsdorff import TIE_BREAKS  # noqa: E402
from knightcert.models.tour_cpsat import cpsat  # noqa: E402
from knightcert.problems.board import Board  # noqa: E402
from knightcert.problems.moves import KNIGHT_OFFSETS  # noqa: E402
from knightcert.problems.tours import full_board_reason, tour_instance  # noqa: E402
from knightcert.tour_auto import auto  # noqa: E402


def python_warnsdorff(n: int) -> bool:
    """Plain Python Warnsdorff from (0, 0), no backtracking, fixed move order."""
    visited = [[False] * n for _ in range(n)]
    r = c = 0
    visited[0][0] = True

    def onward(a: int, b: int) -> int:
        return sum(
            1
            for dr, dc in KNIGHT_OFFSETS
            if 0 <= a + dr < n and 0 <= b + dc < n and not visited[a + dr][b + dc]
        )

    for _ in range(n * n - 1):
        best = None
        for dr, dc in KNIGHT_OFFSETS:
            a, b = r + dr, c + dc
            if 0 <= a < n and 0 <= b < n and not visited[a][b]:
                degree = onward(a, b)
                if best is None or degree < best[0]:
                    best = (degree, a, b)
        if best is None:
            return False
        _, r, c = best
        visited[r][c] = True
    return True


def timed(function, *args, **kwargs):
    began = time.perf_counter()
    value = function(*args, **kwargs)
    return value, time.perf_counter() - began


def no_backtracking(name: str, n: int, starts) -> list[bool]:
    free = np.ones(n * n, dtype=np.uint8)
    jumps = np.array(KNIGHT_OFFSETS, dtype=np.int64)
    tie = TIE_BREAKS.index({"warnsdorff": "first"}.get(name, name))
    path = np.empty(n * n, dtype=np.int32)
    tables = (np.empty((n * n, 8), np.int32), np.empty(n * n, np.int32), np.empty(n * n, np.int64))
    built = np.zeros(((n + 7) >> 3) ** 2, np.uint8)  # kept for every start: the degrees restored (keep)
    return [
        engine(
            n, n, False, free, jumps[:, 0], jumps[:, 1], tie, 0, s, -1, False, 0, path, (*tables, built), True
        )[0]
        == FOUND
        for s in starts
    ]


QUERIES = (("open", False, None), ("open from (0,0)", False, (0, 0)), ("closed", True, None))
LARGE = ((3, 10000), (4, 10000), (5, 10001), (999, 1001), (1000, 1003), (2001, 2001))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpsat-limit", type=float, default=60.0)
    parser.add_argument("--corner-max", type=int, default=1000)
    parser.add_argument("--cover-max", type=int, default=100)
    parser.add_argument(
        "--only", choices=["coverage", "speed", "cli", "starts", "big", "holes", "rates", "tourney"]
    )
    parser.add_argument("--tourney-source", type=Path, help="a clone of Ian-Parberry/Tourney")
    parser.add_argument("--holes-limit", type=float, default=60.0)
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}\n")
    auto(tour_instance(5))
    construct(400, 400, closed=True)  # load the compiled walk
    sections = {
        "coverage": lambda: coverage(args.cover_max),
        "big": big_boards,
        "speed": speed,
        "cli": cli,
        "starts": starts,
        "holes": lambda: holes(args.holes_limit),
        "rates": lambda: rates(args),
        "tourney": lambda: tourney(args.tourney_source),
    }
    for name, run in sections.items():
        if args.only in (None, name):
            run()


def coverage(limit: int) -> None:
    print(f"### Coverage of the default: every board 1 <= m <= n <= {limit}\n")
    print(
        "| query | boards | tour (verified) | No (verified, theorem) | UNKNOWN | wrong | total time "
        "| slowest |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for label, closed, start in QUERIES:
        counts = {"FEASIBLE": 0, "INFEASIBLE": 0, "UNKNOWN": 0, "wrong": 0}
        slowest = (0.0, "")
        began = time.perf_counter()
        for m in range(1, limit + 1):
            for n in range(m, limit + 1):
                t0 = time.perf_counter()
                result = auto(tour_instance(m, n, closed=closed, start=start))
                spent = time.perf_counter() - t0
                slowest = max(slowest, (spent, f"{m}x{n}"))
                exists = full_board_reason(m, n, closed=closed, start=start) is None
                right = result.verified and (result.status.value == "FEASIBLE") == exists
                counts[result.status.value if right or result.status.value == "UNKNOWN" else "wrong"] += 1
        total = time.perf_counter() - began
        boards = limit * (limit + 1) // 2
        print(
            f"| {label} | {boards} | {counts['FEASIBLE']} | {counts['INFEASIBLE']} | {counts['UNKNOWN']} | "
            f"{counts['wrong']} | {total:.1f} s | {slowest[1]} {slowest[0]:.2f} s |",
            flush=True,
        )


def big_boards() -> None:
    print("\n### Large boards (default method, answer checked by the checker)\n")
    print("| board | query | status | rule | method time | with check |")
    print("|---|---|---|---|---:|---:|")
    for m, n in LARGE:
        for label, closed, start in QUERIES:
            result, total = timed(auto, tour_instance(m, n, closed=closed, start=start))
            ok = "verified" if result.verified else "NOT verified"
            rule = result.info.get("rule", "")
            print(
                f"| {m}x{n} | {label} | {result.status.value} ({ok}) | {rule} | {result.time:.3f} s "
                f"| {total:.2f} s |",
                flush=True,
            )


def peak_bytes(function, *args, **kwargs):
    import tracemalloc

    tracemalloc.start()
    value = function(*args, **kwargs)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return value, peak


def engine_open_tour(n: int) -> bool:
    """The project's Warnsdorff engine (Roth, no backtracking) from (0, 0): the in-process peer."""
    return no_backtracking("roth", n, [0])[0]


def speed() -> None:
    print("\n### Construction speed and memory, in-process (answer = (n, 2) int32 array built)\n")
    print(
        "| board | tour | construction (median of 3) | peak traced memory | bytes/square | "
        "peer: Warnsdorff engine (Roth, open, no backtracking) | ratio |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for n in (1000, 2000, 4000):
        for closed in (True, False):
            times = sorted(timed(construct, n, n, closed=closed)[1] for _ in range(3))
            _, peak = peak_bytes(construct, n, n, closed=closed)
            peer = ""
            ratio = ""
            if not closed:
                ok, t_peer = timed(engine_open_tour, n)
                peer = f"{t_peer:.2f} s ({'tour' if ok else 'dead end'})"
                ratio = f"{t_peer / times[1]:.1f}x"
            print(
                f"| {n}x{n} | {'closed' if closed else 'open'} | {times[1]:.3f} s | {peak / 2**20:.0f} MB | "
                f"{peak / n / n:.1f} | {peer} | {ratio} |",
                flush=True,
            )


TOURNEY_TOURS = 10  # Tourney's timer has 0.01 s resolution: ten tours per size


def build_tourney(source: Path, folder: Path) -> Path:
    """Compile Tourney's generator with the command of its makefile (``g++ -std=c++11 -O3``)."""
    import subprocess

    code = source / "Code"
    units = sorted(str(p) for p in code.glob("*.cpp"))
    exe = folder / "generate"
    subprocess.run(["g++", "-std=c++11", "-O3", "-pthread", "-o", str(exe), *units], check=True)
    return exe


def tourney_seconds(exe: Path, n: int, samples: int, folder: Path) -> tuple[float, float]:
    """Tourney's own 'time' task: ``samples`` closed divide-and-conquer tours of n x n, not saved.

    Returns (elapsed seconds per tour by Tourney's timer, peak RSS of the process in MB). Tourney
    runs its tours on hardware_concurrency - 1 threads (1 on 2 cores) and records the total elapsed
    time with 0.01 s resolution in ``Time<kind>-<samples>.txt``.
    """
    import subprocess

    for old in folder.glob("Time*.txt"):
        old.unlink()
    answers = f"t\nd\nt\nn\n{samples}\n{n}\n{n}\nq\n"  # time, divide, tour, plain, samples, lo, hi
    # GNU time forks the program: a child of this process would inherit Python's peak RSS
    # (Linux carries the high-water mark across exec), a child of time only time's own
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", str(exe)],
        input=answers.encode(),
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=True,
    )
    peak_kb = int(done.stderr.decode().split()[-1])
    (record,) = folder.glob("Time*.txt")
    width, _cpu, elapsed = record.read_text().split()
    assert int(width) == n, record.read_text()
    return float(elapsed) / samples, peak_kb / 1024


def tourney(source: Path | None) -> None:
    import tempfile

    from knightcert import solve

    if source is None or not (source / "Code" / "DivideAndConquer.cpp").is_file():
        raise SystemExit("--only tourney needs --tourney-source DIR, a clone of Ian-Parberry/Tourney")
    print("\n### Closed tours against Parberry's Tourney (divide and conquer, C++), same run\n")
    print(
        "| board | ours: construction (median of 3) | ours: peak traced memory | ours: knightcert.solve, "
        "checked (median of 3) | ours: solve's peak traced memory, B/square | Tourney per tour (mean of "
        f"{TOURNEY_TOURS}) | Tourney peak RSS (whole process), B/square | ratio Tourney / construction "
        "| ratio Tourney / solve | load |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        exe = build_tourney(source, folder)
        for n in (1000, 2000, 4000):
            ours = sorted(timed(construct, n, n, closed=True)[1] for _ in range(3))[1]
            _, peak = peak_bytes(construct, n, n, closed=True)
            whole = sorted(timed(solve, tour_instance(n, n, closed=True))[1] for _ in range(3))[1]
            _, solve_peak = peak_bytes(solve, tour_instance(n, n, closed=True))
            theirs, rss = tourney_seconds(exe, n, TOURNEY_TOURS, folder)
            print(
                f"| {n}x{n} | {ours:.3f} s | {peak / 2**20:.0f} MB | {whole:.3f} s "
                f"| {solve_peak / n / n:.1f} "
                f"| {theirs:.3f} s | {rss:.0f} MB, {rss * 2**20 / n / n:.1f} | {theirs / ours:.2f}x "
                f"| {theirs / whole:.2f}x | {os.getloadavg()[0]:.1f} |",
                flush=True,
            )


def cli() -> None:
    import subprocess
    import tempfile

    print("\n### Command line, whole call (fresh process each, output to a file)\n")
    print("| command | wall time | output size |")
    print("|---|---:|---:|")
    exe = [sys.executable, "-m", "knightcert"]
    with tempfile.TemporaryDirectory() as folder:
        for n in (8, 1000, 4000):
            for flags in (["--closed"], ["--closed", "--json"], ["--closed", "--npy", f"{folder}/t.npy"]):
                if n == 8 and len(flags) > 1:
                    continue
                out = Path(folder) / "out"
                with open(out, "wb") as stream:
                    began = time.perf_counter()
                    subprocess.run([*exe, "tour", str(n), *flags], stdout=stream, check=True, cwd=ROOT)
                    wall = time.perf_counter() - began
                size = out.stat().st_size + (Path(folder, "t.npy").stat().st_size if "--npy" in flags else 0)
                shown = " ".join(a if not a.endswith(".npy") else "t.npy" for a in flags)
                print(f"| `knightcert tour {n} {shown}` | {wall:.2f} s | {size / 2**20:.1f} MB |", flush=True)


def starts() -> None:
    print("\n### Start squares: n x n, n = 5..30, open tour from every start (default method)\n")
    print("| n | starts | a tour exists (colour) | default gives a tour | No (colour) | UNKNOWN | time |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in range(5, 31):
        began = time.perf_counter()
        counts = {"FEASIBLE": 0, "INFEASIBLE": 0, "UNKNOWN": 0}
        possible = 0
        for r in range(n):
            for c in range(n):
                result = auto(tour_instance(n, start=(r, c)))
                assert result.verified or result.status.value == "UNKNOWN", (n, r, c)
                counts[result.status.value] += 1
                possible += full_board_reason(n, n, closed=False, start=(r, c)) is None
        print(
            f"| {n} | {n * n} | {possible} | {counts['FEASIBLE']} | {counts['INFEASIBLE']} | "
            f"{counts['UNKNOWN']} | {time.perf_counter() - began:.1f} s |",
            flush=True,
        )


def balanced_holes(n: int, share: float, seed: int) -> np.ndarray:
    """About ``share`` of the squares removed at random, as many of each colour (so that the
    colour count alone does not rule a tour out)."""
    rng = np.random.default_rng(seed)
    k = round(share * n * n / 2)
    colour = (np.add.outer(np.arange(n), np.arange(n)) % 2).reshape(-1)
    blocked = np.zeros(n * n, dtype=bool)
    for c in (0, 1):
        blocked[rng.choice(np.flatnonzero(colour == c), k, replace=False)] = True
    return blocked.reshape(n, n)


def holes(limit: float) -> None:
    from knightcert.problems.tours import TourInstance

    print(f"\n### Boards with random holes (open tour, default method, --time-limit {limit:.0f})\n")
    print("Holes removed at random, as many of each colour; unbalanced holes are answered 'No' at once")
    print("by the colour count.\n")
    print("| holes | n x n | status | rule | time | squares covered by Warnsdorff |")
    print("|---|---:|---|---|---:|---:|")
    for share in (0.01, 0.05):
        for n in (20, 30, 40, 50, 60, 80, 100):
            board = Board(n, n, balanced_holes(n, share, seed=n))
            inst = TourInstance(board, False, None, None, f"{n}x{n}-holes")
            result, seconds = timed(auto, inst, time_limit=limit)
            ok = " (verified)" if result.verified else ""
            print(
                f"| {share:.0%} | {n} | {result.status.value}{ok} | {result.info.get('rule')} "
                f"| {seconds:.1f} s "
                f"| {result.info.get('covered')} of {board.n_free} |",
                flush=True,
            )


def rates(args) -> None:
    print("\n### Warnsdorff engine against pure Python (from (0,0), no backtracking, same rule)\n")
    print("| board | knightcert (numba) | pure Python | ratio |")
    print("|---|---:|---:|---:|")
    for n in (50, 100, 200):
        ours, t_ours = timed(no_backtracking, "warnsdorff", n, [0])
        theirs, t_theirs = timed(python_warnsdorff, n)
        assert ours[0] == theirs
        print(f"| {n}x{n} | {1000 * t_ours:.1f} ms | {1000 * t_theirs:.0f} ms | {t_theirs / t_ours:.0f}x |")

    every_start()

    print(f"\n### No backtracking from the corner (0, 0), n = 5..{args.corner_max}\n")
    print("| rule | first n that fails | sizes failing |")
    print("|---|---:|---:|")
    for name in ("warnsdorff", "marginality", "roth"):
        failing = [n for n in range(5, args.corner_max + 1) if not no_backtracking(name, n, [0])[0]]
        print(
            f"| {name} | {failing[0] if failing else '-'} | {len(failing)} of {args.corner_max - 4} |",
            flush=True,
        )

    print(f"\n### CP-SAT: closed n x n tours within {args.cpsat_limit:.0f} s\n")
    print("| n | status | time |")
    print("|---:|---|---:|")
    for n in (10, 20, 30, 40, 50, 60, 70, 80):
        result, seconds = timed(cpsat, tour_instance(n, closed=True), time_limit=args.cpsat_limit, seed=0)
        print(
            f"| {n} | {result.status.value}{' (verified)' if result.verified else ''} | {seconds:.1f} s |",
            flush=True,
        )
        if result.status.value != "FEASIBLE":
            break


def every_start() -> None:
    print("\n### No backtracking from every start square, n = 5..40\n")
    print("Starts on the minority colour of an odd board are left out: no open tour can start there.\n")
    print(
        "| rule | first n with a failing start | failing starts at that n | failing starts over n = 5..40 |"
    )
    print("|---|---:|---:|---:|")
    for name in ("warnsdorff", "marginality", "roth"):
        first = None
        failures_total = 0
        starts_total = 0
        for n in range(5, 41):
            starts = [s for s in range(n * n) if n % 2 == 0 or sum(divmod(s, n)) % 2 == 0]
            ok = no_backtracking(name, n, starts)
            failures = ok.count(False)
            failures_total += failures
            starts_total += len(starts)
            if failures and first is None:
                first = (n, failures, len(starts))
        shown = "-" if first is None else f"{first[0]}"
        count = "-" if first is None else f"{first[1]} of {first[2]}"
        print(f"| {name} | {shown} | {count} | {failures_total} of {starts_total} |", flush=True)


if __name__ == "__main__":
    main()
