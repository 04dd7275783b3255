"""Side constraints as data: the fields an instance carries beyond its board, checked once.

* knights ``fixed``: squares that must hold a knight;
* tour ``visits``: ``(r, c, k)``, square ``(r, c)`` is the ``k``-th of the tour (from 1);
  ``forbidden_moves`` and ``required_moves``: unordered pairs of squares a knight move apart;
* path ``via``: squares the path passes through, in order.

Each reader returns the field as a tuple of plain ints (moves as ``(low, high)`` pairs
of squares; moves and visits sorted, each once: they are sets, so their order never makes
another instance), or raises
:class:`~knightcert.problems.errors.InvalidInstance` naming the field and the entry.

Examples
--------
>>> from knightcert.problems.board import Board
>>> side_moves(Board(5, 5), [[(2, 1), (0, 0)]], "required_moves")
(((0, 0), (2, 1)),)
>>> side_visits(Board(5, 5), [(0, 1, 26)], "visits")
Traceback (most recent call last):
...
knightcert.problems.errors.InvalidInstance: visits[0]: step 26 is not between 1 and 25
"""

from __future__ import annotations

from typing import Any

from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.moves import is_knight_move

__all__ = ["SIDE_FIELDS", "Move", "Square", "side_moves", "side_squares", "side_visits", "sides_of"]

Square = tuple[int, int]
Move = tuple[Square, Square]

#: problem -> its side-constraint fields, in the order the command line and the files list them.
SIDE_FIELDS: dict[str, tuple[str, ...]] = {
    "knights": ("fixed",),
    "tour": ("visits", "forbidden_moves", "required_moves"),
    "path": ("via",),
    "jump": (),
}


def _entries(value: Any, field: str) -> list[Any]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise InvalidInstance(f"{field} must be a sequence, got {value!r:.40}")
    return list(value)


def side_squares(board: Board, value: Any, field: str) -> tuple[Square, ...]:
    """Usable squares (knights ``fixed``, path ``via``)."""
    return tuple(board.check_square(sq, f"{field}[{i}]") for i, sq in enumerate(_entries(value, field)))


def side_moves(board: Board, value: Any, field: str) -> tuple[Move, ...]:
    """Unordered pairs of usable squares a knight move apart, each as ``(low, high)``."""
    moves = []
    for i, pair in enumerate(_entries(value, field)):
        ends = side_squares(board, pair, f"{field}[{i}]")
        if len(ends) != 2 or not is_knight_move(board, ends[0], ends[1]) or ends[0] == ends[1]:
            raise InvalidInstance(f"{field}[{i}]: {pair!r:.40} is not a pair of squares a knight move apart")
        moves.append((min(ends), max(ends)))
    return tuple(sorted(set(moves)))


def side_visits(board: Board, value: Any, field: str) -> tuple[tuple[int, int, int], ...]:
    """``(r, c, k)``: a usable square and its place ``k`` in the tour, 1 to the usable squares."""
    visits = []
    for i, item in enumerate(_entries(value, field)):
        try:
            r, c, k = item
        except (TypeError, ValueError):
            raise InvalidInstance(f"{field}[{i}] must be (row, col, step), got {item!r:.40}") from None
        square = board.check_square((r, c), f"{field}[{i}]")
        if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= board.n_free:
            raise InvalidInstance(f"{field}[{i}]: step {k!r:.20} is not between 1 and {board.n_free}")
        visits.append((*square, int(k)))
    return tuple(sorted(set(visits)))


def sides_of(problem: str, instance: Any) -> dict[str, tuple]:
    """The instance's side constraints that are set (an empty dict for the base problem)."""
    return {f: getattr(instance, f) for f in SIDE_FIELDS.get(problem, ()) if getattr(instance, f, ())}
