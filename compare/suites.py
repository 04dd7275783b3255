"""Built-in instance suites for ``knightcert compare``: ``seed``, ``scaling``, ``random``, ``starts``.

Each suite is a list of (instance, size, known optimum or None). Sizes are
board sides (cells for the jump game); ``--sizes A..B`` picks six sizes
spaced geometrically between A and B.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from knightcert.problems.board import MAX_SQUARES
from knightcert.problems.errors import InstanceTooLarge, InvalidInstance

SUITES = ("seed", "scaling", "random", "starts")
DEFAULT_SIZES = {"path": (10, 200), "jump": (10, 500), "knights": (4, 64), "tour": (5, 60)}


@dataclass(frozen=True)
class SuiteItem:
    instance: Any
    size: int | None
    known_optimum: float | int | None = None


def parse_sizes(text: str) -> tuple[int, int]:
    """``A..B`` with 1 <= A <= B."""
    parts = text.split("..")
    try:
        low, high = (int(p) for p in parts)
    except ValueError:
        raise InvalidInstance(f"--sizes expects A..B (two whole numbers), got {text!r}") from None
    if not 1 <= low <= high:
        raise InvalidInstance(f"--sizes expects 1 <= A <= B, got {text!r}")
    return low, high


def size_range(low: int, high: int, count: int = 6) -> list[int]:
    return sorted({round(x) for x in np.geomspace(low, high, count)})


def build_suite(
    problem: str, suite: str, sizes: tuple[int, int] | None = None, data: Path | None = None
) -> list[SuiteItem]:
    """The instances of a built-in suite.

    Raises
    ------
    InvalidInstance
        Unknown suite, or the ``seed`` suite of a problem whose seed instances
        live in ``../shared/data`` when that folder is absent.
    """
    if suite not in SUITES:
        raise InvalidInstance(f"unknown suite {suite!r}: choose one of {', '.join(SUITES)}")
    if suite == "starts":
        if problem != "tour":
            raise InvalidInstance("the starts suite is for tours (every start square of a board)")
        low, high = sizes or (5, 8)
        return start_suite(size_range(low, high))
    low, high = sizes or DEFAULT_SIZES[problem]
    if high * high > MAX_SQUARES:  # checked before a suite board is generated
        raise InstanceTooLarge(
            f"--sizes {low}..{high}: a {high} x {high} board is above the limit of {MAX_SQUARES} "
            "squares; give a smaller upper size"
        )
    builder = {"path": _path, "jump": _jump, "knights": _knights, "tour": _tour}[problem]
    return builder(suite, size_range(low, high), data)


def _path(suite: str, sizes: Sequence[int], data: Path | None) -> list[SuiteItem]:
    import json

    from knightcert.compare.demo import generated_lost_knight
    from knightcert.problems.lost_knight import read_lost_knight

    if suite == "seed":
        folder = _shared(data, "lost-knight")
        expected = json.loads((folder / "expected.json").read_text())
        files = sorted(folder.glob("caso*.txt"), key=lambda p: int(p.stem[4:]))
        return [
            SuiteItem(read_lost_knight(f), read_lost_knight(f).board.rows, expected.get(f.name))
            for f in files
        ]
    density = 0.2 if suite == "scaling" else 0.35
    seeds = [2021] if suite == "scaling" else [0, 1, 2]
    return [SuiteItem(generated_lost_knight(n, n, seed=s, density=density), n) for n in sizes for s in seeds]


def _jump(suite: str, sizes: Sequence[int], data: Path | None) -> list[SuiteItem]:
    from knightcert.compare.demo import generated_jump
    from knightcert.problems.jump_game import read_jump

    if suite == "seed":
        folder = _shared(data, "jump-game")
        return [SuiteItem(g, g.rows * g.cols) for g in (read_jump(f) for f in sorted(folder.glob("EX*.in")))]
    players = 10 if suite == "scaling" else 4
    seeds = [7] if suite == "scaling" else [0, 1, 2]
    return [SuiteItem(generated_jump(n, n, players, seed=s), n * n) for n in sizes for s in seeds]


def _knights(suite: str, sizes: Sequence[int], data: Path | None) -> list[SuiteItem]:
    from knightcert.problems.board import Board
    from knightcert.problems.independent_knights import KnightsInstance, closed_form, knights_instance

    if suite == "seed":  # seed 002's boards
        return [SuiteItem(knights_instance(n), n, closed_form(n, n)) for n in (3, 4, 6)]
    if suite == "scaling":
        return [SuiteItem(knights_instance(n), n, closed_form(n, n)) for n in sizes]
    items = []
    for n in sizes:
        for seed in (0, 1, 2):
            blocked = np.random.default_rng(seed).random((n, n)) < 0.2
            items.append(SuiteItem(KnightsInstance(Board(n, n, blocked), f"{n}x{n}-holes-s{seed}"), n))
    return items


def _tour(suite: str, sizes: Sequence[int], data: Path | None) -> list[SuiteItem]:
    from knightcert.problems.board import Board
    from knightcert.problems.tours import TourInstance, open_tour_exists, tour_instance

    if suite == "seed":  # seed 003's boards and seed 001's failures
        boards = [tour_instance(n) for n in (2, 5, 8)] + [
            tour_instance(31, start=(0, 0)),
            tour_instance(100, start=(2, 3)),
        ]
        return [
            SuiteItem(
                b, b.board.rows, b.board.n_free if open_tour_exists(b.board.rows, b.board.cols) else None
            )
            for b in boards
        ]
    if suite == "scaling":
        return [
            SuiteItem(tour_instance(n, start=(0, 0)), n, n * n if open_tour_exists(n, n) else None)
            for n in sizes
        ]
    items = []
    for n in sizes:
        blocked = np.random.default_rng(n).random((n, n)) < 0.05
        blocked[0, 0] = False
        items.append(SuiteItem(TourInstance(Board(n, n, blocked), False, (0, 0), None, f"{n}x{n}-holes"), n))
    return items


def start_suite(sizes: Sequence[int]) -> list[SuiteItem]:
    """Open tours of ``n x n`` from every start square, for each ``n``: the ``starts`` suite.

    The known optimum is ``n * n`` where the theorems (colour, outer rows) allow
    a tour from that start, so a heuristic's success rate is its share of
    gap-0 rows (see :func:`start_success`).
    """
    from knightcert.problems.tours import full_board_reason, tour_instance

    return [
        SuiteItem(
            tour_instance(n, start=(r, c)),
            n,
            n * n if full_board_reason(n, n, closed=False, start=(r, c)) is None else None,
        )
        for n in sizes
        for r in range(n)
        for c in range(n)
    ]


def start_success(rows: Sequence[Any]) -> dict[tuple[str, int], tuple[int, int]]:
    """Per (method, board side): (starts with a verified tour, starts run) from harness rows of the
    ``starts`` suite."""
    rates: dict[tuple[str, int], tuple[int, int]] = {}
    for row in rows:
        key = (row.method, int(row.instance.split("x")[0]))
        tours, runs = rates.get(key, (0, 0))
        rates[key] = (tours + (row.verified and row.status == "FEASIBLE"), runs + 1)
    return rates


def _shared(data: Path | None, folder: str) -> Path:
    from knightcert.compare.demo import find_shared_data

    root = find_shared_data(str(data) if data else None)
    if root is None or not (root / folder).is_dir():
        raise InvalidInstance(
            f"the seed suite needs ../shared/data/{folder} (or --data DIR); give --instances instead"
        )
    return root / folder
