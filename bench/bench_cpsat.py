"""CP-SAT through the command line (the targets), and its formulations side by side.

Usage::

    python bench/bench_cpsat.py --targets                  # every target, seeds 0,1,2, via the CLI
    python bench/bench_cpsat.py --targets --seeds 0,1 --instances "knights 400"
    python bench/bench_cpsat.py                       # every formulation (about 15 min on 2 cores)
    python bench/bench_cpsat.py --only knights,tour   # some problems
    python bench/bench_cpsat.py --repeat 3            # median of 3 per row
    python bench/bench_cpsat.py --only build --repeat 3   # model building, 400 x 400 knights

``--targets`` runs each target exactly as a user does: ``python -m knightcert ... --method
cpsat --time-limit L --seed S --json`` as a child process (same parameters, hint, workers and
time budget as the command line, since it is the command line), one row per seed, with the
whole process's wall time and CPU time (user + system: what the load does not inflate much),
the method's own time, the status, and the load average before and after.

Each row is one formulation on one instance, solved by the model function itself
(``knightcert.models.*_cpsat.cpsat``) with the project's default workers and the
answer checked (``verified``); the model functions get no hint here (the registered
``tour cpsat`` and ``knights cpsat`` of ``knightcert.combined`` add one: ``--targets``
measures those); "ratio" is the row's time over the default formulation's
time on the same instance (below 1: faster than the default). The load average is
printed with every case. The default formulation of every model is the one this run
shows fastest to a proof (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from knightcert.models import jump_cpsat, knights_cpsat, path_cpsat, tour_cpsat
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.jump_game import JumpInstance
from knightcert.problems.lost_knight import read_lost_knight
from knightcert.problems.tours import tour_instance

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def random_jump_board(n: int, players: int) -> JumpInstance:
    """An n x n jump board, values 0..7, ``players`` random starts (seed n)."""
    rng = np.random.default_rng(n)
    values = rng.integers(0, 8, size=(n, n))
    starts = tuple((int(r), int(c)) for r, c in rng.integers(0, n, size=(players, 2)))
    return JumpInstance(values, starts, f"random {n}x{n}, {players} players")


def cases() -> list[tuple[str, str, Callable[[], object], Callable[..., object], list[dict], float]]:
    """(problem, instance, builder, model, formulations (keyword arguments; default first), limit)."""
    knights = knights_cpsat.cpsat
    return [
        (
            "knights",
            "200x200",
            lambda: knights_instance(200),
            knights,
            [{}, {"formulation": "pairwise"}, {"workers": 2}],
            60,
        ),
        (
            "knights",
            "400x400",
            lambda: knights_instance(400),
            knights,
            [{}, {"formulation": "pairwise"}],
            120,
        ),
        (
            "knights",
            "15x15 torus",
            lambda: knights_instance(15, torus=True),
            knights,
            [{}, {"cuts": "none"}, {"formulation": "pairwise"}],
            60,
        ),
        (
            "knights",
            "17x17 torus",
            lambda: knights_instance(17, torus=True),
            knights,
            [{}, {"formulation": "pairwise"}],
            120,
        ),
        (
            "tour",
            "60x60 closed",
            lambda: tour_instance(60, closed=True),
            tour_cpsat.cpsat,
            [{}],
            60,
        ),
        (
            "tour",
            "100x100 closed",
            lambda: tour_instance(100, closed=True),
            tour_cpsat.cpsat,
            [{}],
            60,
        ),
        (
            "path",
            "caso550",
            lambda: read_lost_knight(SHARED / "lost-knight" / "caso550.txt"),
            path_cpsat.cpsat,
            [{}, {"bound": "none"}],
            60,
        ),
        (
            "jump",
            "random 12x12, 3 players",
            lambda: random_jump_board(12, 3),
            jump_cpsat.cpsat,
            [{}],
            60,
        ),
        (
            "jump",
            "random 100x100, 3 players",
            lambda: random_jump_board(100, 3),
            jump_cpsat.cpsat,
            [{}],
            60,
        ),
    ]


def api_pairwise_build(instance) -> tuple[float, int]:
    """The model of before issue 22, built as it was: one ``add_at_most_one`` per attacking
    pair through the modelling API (commit cf0ca20's ``knights_cpsat``). Seconds, constraints."""
    from ortools.sat.python import cp_model

    from knightcert.problems.moves import knight_edges

    began = time.perf_counter()
    board = instance.board
    tails, heads = knight_edges(board)
    usable = np.flatnonzero(board.free.reshape(-1))
    model = cp_model.CpModel()
    knight = {i: model.new_bool_var(f"k{i}") for i in usable.tolist()}
    for u, v in zip(tails.tolist(), heads.tolist(), strict=True):
        model.add_at_most_one(knight[u], knight[v])
    model.maximize(cp_model.LinearExpr.sum(list(knight.values())))
    return time.perf_counter() - began, len(model.proto.constraints)


def build_table(repeat: int) -> None:
    """Model building of 400 x 400 knights: the old API loop against the proto builders."""
    instance = knights_instance(400)
    print(
        "| 400x400 knights model | build s (median) | constraints | s per 1M constraints | speed-up | load |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    rows = [("before: API add_at_most_one per pair", None)]
    rows += [(label(o), o) for o in ({"formulation": "pairwise"}, {})]
    reference = None
    for name, options in rows:
        times, count = [], 0
        load = os.getloadavg()[0]
        for _ in range(repeat):
            if options is None:
                spent, count = api_pairwise_build(instance)
            else:  # a short solve after the build; only the build is read
                result = knights_cpsat.cpsat(instance, time_limit=5, seed=0, workers=1, **options)
                spent, count = result.info["build_time_s"], result.info["constraints"]
            times.append(spent)
        built = statistics.median(times)
        reference = built if reference is None else reference
        print(
            f"| {name} | {built:.2f} | {count} | {built / count * 1e6:.2f} | {reference / built:.1f}x "
            f"| {load:.1f} |",
            flush=True,
        )


#: The command-line targets of issue 31: (name, arguments after ``knightcert``, time limit, target s).
TARGETS: list[tuple[str, list[str], float, float | None]] = [
    ("knights 400", ["knights", "400"], 60, 60),
    ("knights 200", ["knights", "200"], 60, None),
    ("knights 17 torus", ["knights", "17", "--torus"], 60, 60),
    ("knights 19 torus", ["knights", "19", "--torus"], 300, None),  # the aims: proven, no time set
    ("knights 21 torus", ["knights", "21", "--torus"], 300, None),
    ("path caso550", ["path", str(SHARED / "lost-knight" / "caso550.txt")], 60, 10),
    ("tour 60 closed", ["tour", "60", "--closed"], 60, 10),
]


def targets_table(seeds: list[int], names: list[str]) -> None:
    """Each target through the command line, once per seed (module docstring)."""
    import json
    import resource
    import subprocess

    root = Path(__file__).resolve().parents[1]
    print(
        "| command | seed | status | objective | bound | certified | method s | process s | process CPU s "
        "| target s | met | load before/after |"
    )
    print("|---|---:|---|---:|---:|---|---:|---:|---:|---:|---|---|")
    for name, arguments, limit, target in TARGETS:
        if names and name not in names:
            continue
        for seed in seeds:
            command = [sys.executable, "-m", "knightcert", *arguments, "--method", "cpsat"]
            command += ["--time-limit", str(limit), "--seed", str(seed), "--json"]
            before = os.getloadavg()[0]
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            began = time.perf_counter()
            done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
            wall = time.perf_counter() - began
            now = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime
            after = os.getloadavg()[0]
            try:
                answer = json.loads(done.stdout)
            except json.JSONDecodeError:
                print(
                    f"| `{name}` | {seed} | exit {done.returncode}: {done.stderr.strip()[-200:]} |",
                    flush=True,
                )
                continue
            answer = answer[0] if isinstance(answer, list) else answer
            met = (
                ""
                if target is None
                else (
                    "yes"
                    if answer["status"] == "OPTIMAL"
                    or (answer["status"] == "FEASIBLE" and arguments[0] == "tour")
                    else "no"
                )
            )
            if target is not None and wall > target:
                met = "no"
            shown = " ".join(arguments).replace(str(SHARED / "lost-knight") + "/", "")
            print(
                f"| `knightcert {shown} --method cpsat --time-limit {limit:g}` | {seed} | {answer['status']} "
                f"| {answer['objective']} | {answer['bound']} | {'yes' if answer.get('certified') else 'no'} "
                f"| {answer['time_s']:.2f} | {wall:.2f} "
                f"| {cpu:.2f} | {'' if target is None else f'{target:g}'} | {met} "
                f"| {before:.1f}/{after:.1f} |",
                flush=True,
            )


def label(options: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "default"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", default="", help="comma-separated problems (knights, tour, path, jump) and/or build"
    )
    parser.add_argument("--instances", default="", help="comma-separated instance names (e.g. 200x200)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row; the median time is shown")
    parser.add_argument("--targets", action="store_true", help="the command-line targets (module docstring)")
    parser.add_argument("--seeds", default="0,1,2", help="comma-separated seeds of --targets")
    args = parser.parse_args(argv)
    if args.targets:
        names = [n for n in args.instances.split(",") if n]
        targets_table([int(s) for s in args.seeds.split(",")], names)
        return 0
    only = {p for p in args.only.split(",") if p}
    if "build" in only:
        build_table(args.repeat)
        only.discard("build")
        if not only:
            return 0
    print(
        "| problem | instance | formulation | status | objective | bound | build s | total s | constraints "
        "| build s / 1M constraints | ratio to default | verified | load |"
    )
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for problem, name, build, model, variants, limit in cases():
        if (only and problem not in only) or (args.instances and name not in args.instances.split(",")):
            continue
        instance = build()
        default_time = None
        for options in variants:
            times, result = [], None
            for _ in range(args.repeat):
                load = os.getloadavg()[0]
                result = model(instance, time_limit=limit, seed=0, **options)
                times.append(result.time)
            total = statistics.median(times)
            default_time = total if default_time is None else default_time
            info = result.info
            build_s = info.get("build_time_s", float("nan"))
            per_million = info.get("build_s_per_million_constraints", "")
            print(
                f"| {problem} | {name} | {label(options)} | {result.status.value} | {result.objective} "
                f"| {result.bound} | {build_s:.2f} | {total:.2f} | {info.get('constraints', '')} "
                f"| {per_million} | {total / default_time:.2f} | {result.verified} | {load:.1f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
