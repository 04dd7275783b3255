"""Certificates for the lost-knight problem.

Optimality of a path of length ``L`` from ``C`` to ``S`` is proven by a
*distance labelling*: integers with ``label[C] = 0``, ``label[S] = L`` and
``label[v] <= label[u] + 1`` for every knight move ``u -> v`` between free
squares. Along any path ``C = u0, ..., uk = S`` induction gives
``label[ui] <= i``, so every path has at least ``L`` moves.

Unreachability is proven by a *closed set*: free squares containing ``C``,
not containing ``S``, and such that every move out of the set stays in it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.moves import KNIGHT_OFFSETS, is_knight_move, knight_targets, moved
from knightcert.problems.result import Result, Status


def check_path(instance: LostKnightInstance, result: Result) -> None:
    """Check a lost-knight answer; raise :class:`CheckFailed` if it is wrong.

    ``FEASIBLE`` answers must be legal paths of ``objective`` moves;
    ``OPTIMAL`` answers also need a valid distance labelling and
    ``INFEASIBLE`` ones a closed set. When the result carries no certificate
    (``result.certificate`` with key ``"labels"`` or ``"closed"``) the checker
    derives one with its own flood fill and checks that.
    """
    if result.status is Status.UNKNOWN:
        raise CheckFailed("no answer to check (status UNKNOWN)")
    certificate = result.certificate or {}
    if result.status is Status.INFEASIBLE:
        if result.solution is not None:
            raise CheckFailed("an INFEASIBLE answer must not carry a path")
        closed = certificate.get("closed")
        if closed is None:
            closed = reachable_set(instance)
        check_closed_set(instance, np.asarray(closed, dtype=bool))
        return
    length = check_path_moves(instance, result.solution)
    if result.objective != length:
        raise CheckFailed(f"objective {result.objective} but the path has {length} moves")
    if result.bound is not None and result.bound > length:
        raise CheckFailed(f"bound {result.bound} exceeds the length {length} of a legal path")
    if result.status is Status.OPTIMAL:
        labels = certificate.get("labels")
        if labels is None:
            labels = distance_labels(instance, cap=length)
        check_distance_labels(instance, np.asarray(labels), length)


def check_path_moves(instance: LostKnightInstance, path: Any) -> int:
    """Check that ``path`` is a legal move sequence from C to S; return its length."""
    board = instance.board
    if not isinstance(path, (list, tuple)) or len(path) == 0:
        raise CheckFailed("the path must be a non-empty list of [row, col] squares")
    squares = []
    for step, square in enumerate(path):
        if not isinstance(square, (list, tuple)) or len(square) != 2:
            raise CheckFailed(f"step {step}: {square!r} is not a [row, col] pair")
        r, c = int(square[0]), int(square[1])
        if not board.is_free(r, c):
            raise CheckFailed(f"step {step}: square ({r}, {c}) is off the board or blocked")
        squares.append((r, c))
    if squares[0] != instance.start:
        raise CheckFailed(f"the path starts at {squares[0]}, not at C {instance.start}")
    if squares[-1] != instance.exit:
        raise CheckFailed(f"the path ends at {squares[-1]}, not at S {instance.exit}")
    for step in range(1, len(squares)):
        if not is_knight_move(board, squares[step - 1], squares[step]):
            raise CheckFailed(f"step {step}: {squares[step - 1]} -> {squares[step]} is not a knight move")
    return len(squares) - 1


def check_distance_labels(instance: LostKnightInstance, labels: np.ndarray, length: int) -> None:
    """Check that ``labels`` proves every C-S path has at least ``length`` moves."""
    board = instance.board
    labels = labels.reshape(-1)
    if labels.size != board.size:
        raise CheckFailed(f"labelling has {labels.size} entries, the board {board.size} squares")
    if labels[instance.start_index] != 0:
        raise CheckFailed("label of C is not 0")
    if labels[instance.exit_index] != length:
        raise CheckFailed(f"label of S is {labels[instance.exit_index]}, not {length}")
    grid = labels.reshape(board.rows, board.cols)
    for dr, dc in KNIGHT_OFFSETS:
        free_u, free_v, origin = moved(board, board.free, dr, dc)
        label_u, label_v, _ = moved(board, grid, dr, dc)
        too_far = free_u & free_v & (label_v > label_u + 1)
        if too_far.any():
            i, j = np.argwhere(too_far)[0]
            r, c = int(i) + origin[0], int(j) + origin[1]
            v = ((r + dr) % board.rows, (c + dc) % board.cols)
            raise CheckFailed(f"labelling grows by more than 1 on the move {(r, c)} -> {v}")


def check_closed_set(instance: LostKnightInstance, closed: np.ndarray) -> None:
    """Check that ``closed`` proves S cannot be reached from C."""
    board = instance.board
    closed = closed.reshape(-1)
    if closed.size != board.size:
        raise CheckFailed(f"closed set has {closed.size} entries, the board {board.size} squares")
    if not closed[instance.start_index]:
        raise CheckFailed("closed set does not contain C")
    if closed[instance.exit_index]:
        raise CheckFailed("closed set contains S")
    grid = closed.reshape(board.rows, board.cols)
    for dr, dc in KNIGHT_OFFSETS:
        inside_u, inside_v, _ = moved(board, grid, dr, dc)
        _, free_v, _ = moved(board, board.free, dr, dc)
        if (inside_u & free_v & ~inside_v).any():
            raise CheckFailed("a knight move leaves the closed set")


def _flood(instance: LostKnightInstance, cap: int | None) -> np.ndarray:
    """Layer-by-layer flood fill from C (the checker's own; -1 = not reached)."""
    board = instance.board
    targets = knight_targets(board)
    dist = np.full(board.size, -1, dtype=np.int64)
    dist[instance.start_index] = 0
    frontier = np.array([instance.start_index])
    layer = 0
    while frontier.size and (cap is None or layer < cap):
        heads = targets[frontier].ravel()
        heads = np.unique(heads[heads >= 0])
        heads = heads[dist[heads] < 0]
        layer += 1
        dist[heads] = layer
        frontier = heads
    return dist


def distance_labels(instance: LostKnightInstance, cap: int) -> np.ndarray:
    """A labelling ``min(distance from C, cap)``, valid by construction."""
    dist = _flood(instance, cap)
    return np.where(dist < 0, cap, dist)


def reachable_set(instance: LostKnightInstance) -> np.ndarray:
    """Squares reachable from C (a closed set when S is not among them)."""
    return _flood(instance, None) >= 0
