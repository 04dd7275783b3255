"""Shared fixtures: the ../shared data (skipped cleanly when absent) and random boards."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from problems.board import Board
from problems.lost_knight import LostKnightInstance

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data`` beside the checkout; skips the test when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present beside this checkout")
    return SHARED_DATA


@pytest.fixture(scope="session")
def lost_knight_expected(shared_data: Path) -> dict[str, int]:
    data = json.loads((shared_data / "lost-knight" / "expected.json").read_text())
    return {name: value for name, value in data.items() if not name.startswith("_")}


def random_lost_knight(rng: np.random.Generator, rows: int, cols: int, density: float) -> LostKnightInstance:
    """A toroidal board with random blocked squares and C, S on distinct free squares."""
    blocked = rng.random((rows, cols)) < density
    start, goal = (int(x) for x in rng.choice(rows * cols, 2, replace=False))
    blocked.flat[start] = blocked.flat[goal] = False
    return LostKnightInstance(
        Board(rows, cols, blocked, torus=True),
        divmod(start, cols),
        divmod(goal, cols),
        f"random-{rows}x{cols}",
    )


def random_jump(rng: np.random.Generator, rows: int, cols: int, players: int, high: int):
    """A jump game with values in [0, high] and random start cells."""
    from problems.jump_game import JumpInstance

    values = rng.integers(0, high + 1, size=(rows, cols)).astype(np.int64)
    starts = tuple((int(rng.integers(rows)), int(rng.integers(cols))) for _ in range(players))
    return JumpInstance(values, starts, f"random-{rows}x{cols}-j{players}")
