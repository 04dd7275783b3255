"""The demo: every seed problem, heuristic against exact, in one table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from knightcert.compare.harness import Row, fill_gaps
from knightcert.compare.runner import Task, run_task
from knightcert.compare.suites import read_expected

__all__ = [
    "PART_BUILDERS",
    "DemoPart",
    "generated_jump",
    "generated_lost_knight",
    "jump_parts",
    "knights_parts",
    "lost_knight_parts",
    "run_demo",
    "tour_parts",
]


@dataclass
class DemoPart:
    """One group of instances run with the same methods."""

    problem: str
    label: str
    instances: list[Any]
    methods: list[str]
    time_limit: float | None = None
    known_optima: Mapping[str, float | int] = field(default_factory=dict)


def lost_knight_parts(data: Path | None) -> list[DemoPart]:
    from knightcert.problems.lost_knight import read_lost_knight

    folder = data / "lost-knight" if data else None
    if folder is not None and folder.is_dir() and sorted(folder.glob("caso*.txt")):
        files = sorted(folder.glob("caso*.txt"), key=lambda p: int(p.stem[4:] or 0))
        instances = [read_lost_knight(f) for f in files]
        expected_file = folder / "expected.json"
        known = read_expected(expected_file) if expected_file.exists() else {}
    else:
        instances = [generated_lost_knight(30, 40, seed=2021)]
        known = {}
    small = [i for i in instances if i.board.size <= 25_000]
    return [
        DemoPart("path", "lost knight", instances, ["bfs", "astar", "greedy"], known_optima=known),
        DemoPart("path", "lost knight (CP-SAT)", small, ["cpsat"], time_limit=30, known_optima=known),
    ]


def generated_lost_knight(rows: int, cols: int, seed: int, density: float = 0.2):
    """A random toroidal lost-knight board with C and S on free squares."""
    from knightcert.problems.generators import random_lost_knight

    return random_lost_knight(
        np.random.default_rng(seed), rows, cols, density, f"random-{rows}x{cols}-s{seed}"
    )


def jump_parts(data: Path | None) -> list[DemoPart]:
    from knightcert.problems.jump_game import read_jump

    folder = data / "jump-game" if data else None
    if folder is not None and folder.is_dir() and sorted(folder.glob("EX*.in")):
        instances = [read_jump(f) for f in sorted(folder.glob("EX*.in"))]
    else:
        instances = [generated_jump(6, 7, 4, seed=4), generated_jump(300, 300, 12, seed=5)]
    small = [g for g in instances if g.rows * g.cols <= 100]
    tiny = [g for g in instances if g.rows * g.cols <= 30]
    return [
        DemoPart("jump", "jump game", instances, ["bfs", "bfs-player"]),
        DemoPart("jump", "jump game (CP-SAT)", small, ["cpsat"], time_limit=30),
        DemoPart("jump", "jump game (CSP)", tiny, ["csp"], time_limit=30),
    ]


def generated_jump(rows: int, cols: int, players: int, seed: int):
    """A random jump game with values 0..max(rows, cols)//2."""
    from knightcert.problems.generators import random_jump

    name = f"random-{rows}x{cols}-j{players}-s{seed}"
    return random_jump(np.random.default_rng(seed), rows, cols, players, max(rows, cols) // 2, name)


def knights_parts(data: Path | None) -> list[DemoPart]:
    from knightcert.problems.independent_knights import closed_form, knights_instance

    boards = [knights_instance(n) for n in range(3, 9)]
    known = {inst.name: closed_form(inst.board.rows, inst.board.cols) for inst in boards}
    part = partial(DemoPart, "knights", time_limit=30, known_optima=known)
    return [
        part("independent knights", boards, ["greedy", "greedy+", "matching", "cpsat"]),
        part("independent knights (seed 002 branch and bound)", boards[:4], ["bnb"]),
    ]


def tour_parts(data: Path | None) -> list[DemoPart]:
    from knightcert.problems.tours import closed_tour_exists, open_tour_exists, tour_instance

    open_tours = [tour_instance(n, start=(0, 0)) for n in range(5, 9)]
    closed_tours = [tour_instance(n, closed=True) for n in (6, 8)]
    cenpl_boards = [tour_instance(n) for n in (2, 5, 8)]
    # a tour visits every square: where the existence theorems promise one, that is the optimum
    known = {}
    for inst in open_tours + cenpl_boards + closed_tours:
        exists = closed_tour_exists if inst.closed else open_tour_exists
        if exists(inst.board.rows, inst.board.cols):
            known[inst.name] = inst.board.n_free
    part = partial(DemoPart, "tour", time_limit=30, known_optima=known)
    return [
        part("open tours", open_tours, ["warnsdorff", "marginality", "roth", "cpsat"]),
        part("closed tours", closed_tours, ["warnsdorff", "divide", "cpsat"]),
        DemoPart("tour", "CeNPL'02 wm(N)", cenpl_boards, ["cenpl"], known_optima=known),
    ]


PART_BUILDERS: list[Callable[[Path | None], list[DemoPart]]] = [
    lost_knight_parts,
    jump_parts,
    knights_parts,
    tour_parts,
]


def run_demo(data: Path | None, on_row: Callable[[Row], None] | None = None) -> list[Row]:
    """Run every demo part; rows of one problem share their gaps."""
    rows: list[Row] = []
    for build in PART_BUILDERS:
        problem_rows: list[Row] = []
        known: dict[str, float | int] = {}
        for part in build(data):
            for instance in part.instances:
                for method in part.methods:
                    optimum = part.known_optima.get(getattr(instance, "name", ""))
                    row = run_task(
                        Task(part.problem, instance, method, part.time_limit, 0, known_optimum=optimum)
                    )
                    problem_rows.append(row)
                    if on_row is not None:
                        on_row(row)
            known.update(part.known_optima)
        fill_gaps(problem_rows, known)
        order = {name: i for i, name in enumerate(dict.fromkeys(row.instance for row in problem_rows))}
        rows += sorted(problem_rows, key=lambda row: order[row.instance])
    return rows
