"""Certificates for independent knights.

A placement is checked square by square: on the board, usable, distinct, and
no knight a jump away from another. Optimality of ``k`` knights is proven by
a *matching*: knight moves between usable squares that share no square. An
independent set holds at most one end of each, so no placement has more than
``usable squares - |matching|`` knights; equality proves ``k`` optimal.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from knightcert.problems.checkers.common import CheckFailed, as_squares
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.moves import is_knight_move, knight_neighbours
from knightcert.problems.result import Result, Status


def check_knights(instance: KnightsInstance, result: Result) -> None:
    """Check a placement (and its matching certificate when attached)."""
    if result.status is Status.UNKNOWN and result.solution is None:
        raise CheckFailed("no answer to check (status UNKNOWN)")
    if result.status is Status.INFEASIBLE:
        raise CheckFailed("placing no knight is always feasible: INFEASIBLE cannot be right")
    count = check_placement(instance, result.solution)
    if result.objective != count:
        raise CheckFailed(f"objective {result.objective} but {count} knights are placed")
    if result.bound is not None and result.bound < count:
        raise CheckFailed(f"bound {result.bound} is below a valid placement of {count}")
    matching = (result.certificate or {}).get("matching")
    if matching is not None:
        bound = instance.board.n_free - check_matching(instance, matching)
        if result.status is Status.OPTIMAL and bound != count:
            raise CheckFailed(f"the matching bounds the optimum by {bound}, not {count}")


def check_placement(instance: KnightsInstance, solution: Any) -> int:
    """Check that ``solution`` is a list of non-attacking knights on usable squares; return how many."""
    board = instance.board
    squares = as_squares(solution)
    r, c = squares[:, 0], squares[:, 1]
    inside = (r >= 0) & (r < board.rows) & (c >= 0) & (c < board.cols)
    index = np.where(inside, r * board.cols + c, 0)
    usable = inside & board.free.reshape(-1)[index]
    if not usable.all():
        k = int(np.flatnonzero(~usable)[0])
        raise CheckFailed(f"square ({r[k]}, {c[k]}) is off the board or removed")
    counts = np.bincount(index, minlength=board.size)
    if (counts > 1).any():
        raise CheckFailed(f"square {board.square(int(np.flatnonzero(counts > 1)[0]))} holds two knights")
    occupied = counts.astype(bool)
    attacked = knight_neighbours(board)[occupied]
    attacked = attacked[attacked >= 0]
    if occupied[attacked].any():
        victim = int(attacked[occupied[attacked]][0])
        raise CheckFailed(f"the knight on {board.square(victim)} is attacked")
    return int(occupied.sum())


def check_matching(instance: KnightsInstance, matching: Any) -> int:
    """Check a matching of knight moves between usable squares; return its size."""
    board = instance.board
    used = set()
    for pair in matching:
        a, b = (tuple(int(x) for x in square) for square in pair)
        if not (board.is_free(*a) and board.is_free(*b)) or a == b or not is_knight_move(board, a, b):
            raise CheckFailed(f"matching pair {a} - {b} is not a knight move between usable squares")
        if a in used or b in used:
            raise CheckFailed(f"square {a if a in used else b} is matched twice")
        used.update((a, b))
    return len(matching)
