"""Seeded random instances, for tests, suites and the demo."""

from __future__ import annotations

import numpy as np

from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.jump_game import JumpInstance
from knightcert.problems.lost_knight import LostKnightInstance

__all__ = ["random_jump", "random_lost_knight"]


def random_lost_knight(
    rng: np.random.Generator, rows: int, cols: int, density: float, name: str | None = None
) -> LostKnightInstance:
    """A toroidal board with random blocked squares and C, S on distinct free squares.

    Raises
    ------
    InvalidInstance
        A board of one square (C and S need two).
    """
    if rows * cols < 2:
        raise InvalidInstance(
            f"a {rows}x{cols} lost-knight board cannot hold both C and S: give a size of 2 or more"
        )
    blocked = rng.random((rows, cols)) < density
    start, goal = (int(x) for x in rng.choice(rows * cols, 2, replace=False))
    blocked.flat[start] = blocked.flat[goal] = False
    board = Board(rows, cols, blocked, torus=True)
    return LostKnightInstance(board, divmod(start, cols), divmod(goal, cols), name or f"random-{rows}x{cols}")


def random_jump(
    rng: np.random.Generator, rows: int, cols: int, players: int, high: int, name: str | None = None
) -> JumpInstance:
    """A jump game with cell values in ``[0, high]`` and random start cells."""
    values = rng.integers(0, high + 1, size=(rows, cols)).astype(np.int64)
    starts = tuple((int(rng.integers(rows)), int(rng.integers(cols))) for _ in range(players))
    return JumpInstance(values, starts, name or f"random-{rows}x{cols}-j{players}")
