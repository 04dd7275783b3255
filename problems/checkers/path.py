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

from functools import cache
from itertools import pairwise
from typing import Any

import numpy as np

from knightcert.problems.checkers.common import (
    CheckFailed,
    as_squares,
    bound_claim,
    certificate_of,
    certified,
    check_knight_path,
    usable_squares,
)
from knightcert.problems.checkers.fields import bool_array, grid
from knightcert.problems.checkers.plain import exact_pairs
from knightcert.problems.checkers.sides import via_fault
from knightcert.problems.compiled import kernel_or_numba
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.moves import KNIGHT_OFFSETS, knight_targets
from knightcert.problems.result import Evidence, Result, Status

__all__ = [
    "CLOSED_SET",
    "LABELLING",
    "certify_path",
    "check_closed_set",
    "check_distance_labels",
    "check_path_moves",
    "distance_labels",
    "reachable_set",
]

LABELLING = "distance labelling"
CLOSED_SET = "closed set"
#: The evidence of a path replayed, and of a claim proven by one labelling (immutable: shared).
#: The knight's moves on a rows x cols board that wraps, as steps modulo its size.
_wrapped_moves = cache(lambda rows, cols: frozenset((dr % rows, dc % cols) for dr, dc in KNIGHT_OFFSETS))
_OWN = f"{__package__}.path_kernel"  # the checker's own kernel (numba's, when not built)


def certify_path(instance: LostKnightInstance, result: Result) -> tuple[list[Evidence], dict | None]:
    """Check a lost-knight answer; return the evidence of each claim and the certificate checked.

    ``FEASIBLE`` answers must be legal paths of ``objective`` moves;
    ``OPTIMAL`` answers also need a valid distance labelling and
    ``INFEASIBLE`` ones a closed set. An attached certificate
    (``{"labels": ...}`` or ``{"closed": ...}``) must hold only integers
    (booleans or 0/1 for the closed set) of the board's shape; without one
    the checker derives its own with a flood fill from C and checks that.
    A lower ``bound`` of a non-optimal answer is certified the same way.

    With via squares the claims are about the whole path through them, in order, and each is
    backed leg by leg (:meth:`~knightcert.problems.lost_knight.LostKnightInstance.legs`): an
    attached closed set must cut one leg; the fewest moves are the sum over the legs, each
    proven by the checker's own labelling (an attached one is read only without via squares).

    Raises
    ------
    CheckFailed
        Naming the claim rejected and why.
    """
    legs = [_leg(instance, a, b) for a, b in instance.legs() if a != b] if instance.via else [instance]
    if result.status is Status.INFEASIBLE:
        return _no_path(instance, legs, certificate_of(result, "infeasible").get("closed"))
    evidence: list[Evidence] = []
    if result.solution is not None:
        length = check_path_moves(instance, result.solution)
        fault = via_fault(instance, as_squares(result.solution)) if instance.via else None
        if fault is not None:
            raise CheckFailed(fault)
        if result.objective != length:
            raise CheckFailed(f"objective {result.objective} but the path has {length} moves")
        evidence.append(certified("answer", "path replayed"))
    claim = "optimal" if result.status is Status.OPTIMAL else "bound"
    upper = result.objective if claim == "optimal" else bound_claim(result)
    if upper is None:
        return evidence, None
    labels = certificate_of(result, claim).get("labels") if claim == "optimal" and not instance.via else None
    if labels is not None:
        labels = grid(labels, "certificate 'labels'", (instance.board.rows, instance.board.cols), claim=claim)
        check_distance_labels(instance, labels, int(upper), claim)
    else:
        labels = _own_labels(instance, legs, int(upper), claim)
    legs_how = f"{LABELLING} of each of {len(legs)} legs" if len(legs) > 1 else ""
    evidence.append(certified(claim, legs_how or LABELLING))
    return evidence, ({"labels": labels} if claim == "optimal" and len(legs) == 1 else None)


def _leg(instance: LostKnightInstance, a: tuple[int, int], b: tuple[int, int]) -> LostKnightInstance:
    return LostKnightInstance(instance.board, a, b, instance.name)


def _no_path(instance: LostKnightInstance, legs: list, attached: Any) -> tuple[list[Evidence], dict | None]:
    """A closed set that cuts a leg: the answer's (checked against each leg), else the checker's own."""
    shape = (instance.board.rows, instance.board.cols)
    failure = None
    for leg in legs:
        closed = reachable_set(leg).reshape(shape) if attached is None else attached
        closed = bool_array(closed, "certificate 'closed'", shape, claim="infeasible")
        try:
            check_closed_set(leg, closed)
        except CheckFailed as exc:
            failure = exc
            continue
        how = CLOSED_SET + (f" (the leg {leg.start} -> {leg.exit})" if instance.via else "")
        return [certified("infeasible", how)], {"closed": closed}
    if attached is not None and failure is not None:
        raise failure
    length = sum(int(_flood(leg, None)[leg.exit_index]) for leg in legs)
    via = " through the via squares" if instance.via else ""
    raise CheckFailed(f"S is reachable from C{via} in {length} moves", claim="infeasible")


def _own_labels(instance: LostKnightInstance, legs: list, length: int, claim: str) -> np.ndarray:
    """The checker's labelling of each leg, ``min(distance, length)``, checked; their values at
    the legs' ends add up to at least ``length`` (CheckFailed if the legs are shorter).
    Returns the last leg's labels (the only one without via squares)."""
    shape = (instance.board.rows, instance.board.cols)
    flooded = [distance_labels(leg, cap=length).reshape(shape) for leg in legs]
    reached = [int(labels.reshape(-1)[leg.exit_index]) for leg, labels in zip(legs, flooded, strict=True)]
    if sum(reached) < length:
        what = "a path" if claim == "optimal" else "the shortest path"
        raise CheckFailed(f"the checker's flood fill finds {what} of {sum(reached)} moves", claim=claim)
    for leg, labels, moves in zip(legs, flooded, reached, strict=True):
        np.minimum(labels, moves, out=labels)  # min(distance, length) capped at the leg's own
        check_distance_labels(leg, labels, moves, claim)
    return flooded[-1]


def check_path_moves(instance: LostKnightInstance, path: Any) -> int:
    """Check that ``path`` is a legal move sequence from C to S; return its length.

    A path of up to 64 ``[int, int]`` lists is read in plain Python (a few microseconds, where the
    numpy calls cost some 40): from C to S, every square on the board and free, each step a
    knight's move modulo the board's size (it wraps); any other path, and the first fault of one
    that fails there, goes to the vectorised check."""
    board, ends = instance.board, [[*instance.start], [*instance.exit]]
    if exact_pairs(path) and len(path) <= 64 and path[:1] + path[-1:] == ends:  # exact_pairs: a list
        (n, m), blocked, moves = board.blocked.shape, board.blocked.item, _wrapped_moves(*board.blocked.shape)
        for (a, b), (r, c) in pairwise(path):  # from C (on the board, free), square by square
            if not (0 <= r < n and 0 <= c < m) or blocked(r, c) or ((r - a) % n, (c - b) % m) not in moves:
                break
        else:
            return len(path) - 1
    squares, _ = usable_squares(board, path, "step {}: square {} is off the board or blocked")
    if len(squares) == 0:
        raise CheckFailed("solution: the path must be a non-empty list of [row, col] squares")
    first, last = tuple(squares[0].tolist()), tuple(squares[-1].tolist())
    if first != instance.start:
        raise CheckFailed(f"the path starts at {first}, not at C {instance.start}")
    if last != instance.exit:
        raise CheckFailed(f"the path ends at {last}, not at S {instance.exit}")
    check_knight_path(board, squares)
    return len(squares) - 1


def check_distance_labels(
    instance: LostKnightInstance, labels: np.ndarray, length: int, claim: str = "optimal"
) -> None:
    """Check that the integer ``labels`` prove every C-S path has at least ``length`` moves."""
    board = instance.board
    wide = labels.dtype != np.int32  # int32 labels (the methods' own) are read as they are
    labels = np.ascontiguousarray(labels.reshape(-1), dtype=np.int64 if wide else np.int32)
    if labels.size != board.size:
        raise CheckFailed(f"labelling has {labels.size} entries, the board {board.size} squares", claim)
    if labels.item(instance.start_index) != 0:
        raise CheckFailed("label of C is not 0", claim)
    if labels.item(instance.exit_index) != length:
        raise CheckFailed(f"label of S is {labels.item(instance.exit_index)}, not {length}", claim)
    blocked = board.blocked.reshape(-1).view(np.uint8)
    first_rise = kernel_or_numba("first_rise" if wide else "first_rise32", _OWN)
    rise = first_rise(blocked, labels, *board.blocked.shape)
    if rise >= 0:
        (r, c), (dr, dc) = divmod(rise // 8, board.cols), KNIGHT_OFFSETS[rise % 8]
        v = ((r + dr) % board.rows, (c + dc) % board.cols)
        raise CheckFailed(f"labelling grows by more than 1 on the move {(r, c)} -> {v}", claim)


def check_closed_set(instance: LostKnightInstance, closed: np.ndarray) -> None:
    """Check that ``closed`` proves S cannot be reached from C."""
    board = instance.board
    closed = closed.reshape(-1)
    if closed.size != board.size:
        raise CheckFailed(
            f"closed set has {closed.size} entries, the board {board.size} squares", "infeasible"
        )
    if not closed[instance.start_index]:
        raise CheckFailed("closed set does not contain C", "infeasible")
    if closed[instance.exit_index]:
        raise CheckFailed("closed set contains S", "infeasible")
    grid = closed.reshape(board.rows, board.cols)
    outside = board.free & ~grid  # the free squares a move out of the set would land on
    for dr, dc in KNIGHT_OFFSETS:  # the board wraps
        if (grid & np.roll(outside, (-dr, -dc), axis=(0, 1))).any():
            raise CheckFailed("a knight move leaves the closed set", "infeasible")


def _flood(instance: LostKnightInstance, cap: int | None) -> np.ndarray:
    """Layer-by-layer flood fill from C (the checker's own; -1 = not reached)."""
    board = instance.board
    targets = knight_targets(board)
    dist = np.full(board.size, -1, dtype=np.int64)
    dist[instance.start_index] = 0
    frontier, layer = np.array([instance.start_index]), 0
    while frontier.size and (cap is None or layer < cap):
        heads = targets[frontier].ravel()
        heads = np.unique(heads[heads >= 0])
        heads = heads[dist[heads] < 0]
        layer += 1
        dist[heads] = layer
        frontier = heads
    return dist


def distance_labels(instance: LostKnightInstance, cap: int) -> np.ndarray:
    """A labelling ``min(distance from C, cap)``, valid by construction (int32: half the memory)."""
    dist = _flood(instance, cap)
    return np.where(dist < 0, cap, dist).astype(np.int32)


def reachable_set(instance: LostKnightInstance) -> np.ndarray:
    """Squares reachable from C (a closed set when S is not among them)."""
    return _flood(instance, None) >= 0
