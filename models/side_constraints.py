"""The CP-SAT side of each side constraint (:mod:`knightcert.problems.side_constraints`).

Each ``add_*_sides`` takes the model's variables by square, so that any model of the
problem (the bulk-built ones here, or a model object a user extends) can call it:

* knights: ``knight[r, c]``, the square's Boolean (a mapping over at least the fixed squares);
* tours: ``step[r, c]``, the square's place in the tour numbered from 1 (an integer
  variable; needed only for ``visits``), and ``moves[(a, b)]``, the literals of the arcs
  ``a -> b`` and ``b -> a`` between the squares of each move ``(a, b)``, ``a < b`` (needed
  for the moves forbidden or required);
* path: ``via`` is honoured by legs (:meth:`~knightcert.problems.lost_knight.LostKnightInstance.legs`),
  no constraint.

The ``*_in_proto`` functions are the one-line hooks of :mod:`knightcert.models.knights_cpsat`
and :mod:`knightcert.models.tour_cpsat`, which build their models straight into the proto.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.tours import TourInstance

__all__ = [
    "add_knight_sides",
    "add_tour_sides",
    "knight_sides_in_proto",
    "rotated_to_visits",
    "tour_sides_in_proto",
    "tour_steps",
]

Square = tuple[int, int]


def add_knight_sides(cp: cp_model.CpModel, knight: Mapping[Square, Any], instance: KnightsInstance) -> None:
    """A knight on every ``fixed`` square."""
    for square in instance.fixed:
        cp.add(knight[square] == 1)


def add_tour_sides(
    cp: cp_model.CpModel,
    instance: TourInstance,
    step: Mapping[Square, Any],
    moves: Mapping[tuple[Square, Square], Sequence[Any]],
) -> None:
    """``step[r, c] == k`` for each visit; no arc of a forbidden move; one arc of a required one."""
    for r, c, k in instance.visits:
        cp.add(step[r, c] == k)
    for move in instance.forbidden_moves:
        for literal in moves.get(move, ()):
            cp.add(literal == 0)
    for move in instance.required_moves:
        cp.add(sum(moves.get(move, ())) == 1)


def tour_steps(
    cp: cp_model.CpModel,
    instance: TourInstance,
    arcs: Sequence[tuple[Square, Square, Any]],
    firsts: Mapping[Square, Any],
) -> dict[Square, Any]:
    """``step[r, c]`` in 1..n linked to the tour's arcs ``(a, b, literal)``: an arc taken adds 1
    (on a closed tour, modulo n: the last square's successor is the first); ``firsts``: an open
    tour's entry literal of each square that may be first (its step is then 1)."""
    board, n = instance.board, instance.board.n_free
    step = {board.square(int(i)): cp.new_int_var(1, n, "") for i in np.flatnonzero(board.free.reshape(-1))}
    wrap = cp_model.Domain.from_values([1, 1 - n])
    for a, b, literal in arcs:
        if instance.closed:
            cp.add_linear_expression_in_domain(step[b] - step[a], wrap).only_enforce_if(literal)
        else:
            cp.add(step[b] == step[a] + 1).only_enforce_if(literal)
    for square, literal in firsts.items():
        cp.add(step[square] == 1).only_enforce_if(literal)
    for end, place in ((instance.start, 1), (instance.end, n)):
        if end is not None:
            cp.add(step[end] == place)
    if not board.torus or (board.rows % 2 == 0 and board.cols % 2 == 0):
        # a move changes colour: a square's colour fixes the parity of its place (redundant, but
        # it lets CP-SAT see at once what the checker's colour argument sees)
        odd = cp.new_bool_var("")  # squares of the colour of (0, 0) are at odd places
        for (r, c), var in step.items():
            parity = odd if (r + c) % 2 == 0 else 1 - odd
            cp.add(var == 2 * cp.new_int_var(0, n // 2, "") + parity)
    return step


def knight_sides_in_proto(model: cp_model.CpModel, board: Any, var_of: np.ndarray, instance: Any) -> None:
    """The hook of the knights model: ``var_of[square index]`` is the square's proto variable."""
    knight = {sq: model.get_bool_var_from_proto_index(int(var_of[board.index(*sq)])) for sq in instance.fixed}
    add_knight_sides(model, knight, instance)


def tour_sides_in_proto(
    model: cp_model.CpModel,
    instance: TourInstance,
    tails: np.ndarray,
    heads: np.ndarray,
    usable: Sequence[int],
    enter: Mapping[int, int],
) -> None:
    """The hook of the tour model: arc ``k`` (square ``tails[k]`` to ``heads[k]``) is proto
    variable ``k``; ``enter`` maps an open tour's node (an index into ``usable``) to the proto
    variable of its entry arc."""
    if not (instance.visits or instance.forbidden_moves or instance.required_moves):
        return
    board = instance.board
    arcs = []
    moves: dict[tuple[Square, Square], list[Any]] = defaultdict(list)
    for k, (t, h) in enumerate(zip(tails.tolist(), heads.tolist(), strict=True)):
        a, b = board.square(t), board.square(h)
        literal = model.get_bool_var_from_proto_index(k)
        arcs.append((a, b, literal))
        moves[min(a, b), max(a, b)].append(literal)
    step: dict[Square, Any] = {}
    if instance.visits:
        firsts = {board.square(usable[k]): model.get_bool_var_from_proto_index(v) for k, v in enter.items()}
        step = tour_steps(model, instance, arcs, firsts)
    add_tour_sides(model, instance, step, moves)


def rotated_to_visits(squares: list[list[int]], instance: TourInstance) -> list[list[int]]:
    """A closed tour turned so that its first visit is at its place (the model numbers the
    places of a closed tour from any square, modulo n); other tours as they are."""
    if not (instance.closed and instance.visits):
        return squares
    r, c, k = instance.visits[0]
    shift = (k - 1 - squares.index([r, c])) % len(squares)
    return squares[-shift:] + squares[:-shift] if shift else squares
