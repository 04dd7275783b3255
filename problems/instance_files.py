"""Instances written back in the project's text formats, and seeded random instances to write.

The formats are the ones the command line reads:

========  ===========================================================  ======
problem   text                                                         suffix
========  ===========================================================  ======
path      rows of ``.`` free, ``x`` blocked, one ``C``, one ``S``      .txt
          (the board wraps on both axes)
jump      ``N M``, ``J``, N rows of M values, J start lines ``r c``     .in
knights   rows of ``.`` usable, ``x`` removed                          .txt
tour      rows of ``.`` usable, ``x`` removed                          .txt
========  ===========================================================  ======

What a board file cannot say (a knights board that wraps; a tour that must
be closed, its start and end squares) travels beside it: in the instance's
canonical JSON (:func:`knightcert.problems.answers.instance_to_data`) and in
:func:`instance_flags`.

Examples
--------
>>> format_instance(random_instance("knights", 2, 3, holes=0.0, seed=1)).splitlines()
['...', '...']
>>> instance_flags(random_instance("knights", 2, 3, torus=True))
{'torus': '1', 'closed': '0', 'start': '', 'end': ''}
"""

from __future__ import annotations

from typing import Any

import numpy as np

from knightcert.problems.argument_checks import bounded, expect_whole
from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidArgument

__all__ = [
    "DEFAULT_HOLES",
    "DEFAULT_PLAYERS",
    "SUFFIX",
    "format_board",
    "format_instance",
    "instance_flags",
    "random_instance",
]

#: File suffix of each problem's text format.
SUFFIX = {"path": ".txt", "jump": ".in", "knights": ".txt", "tour": ".txt"}
#: Default share of blocked squares of a random instance: the random suites' defaults
#: (``knightcert.compare.suites.GENERATOR_DEFAULTS`` reads them from here).
DEFAULT_HOLES = {"path": 0.35, "knights": 0.2, "tour": 0.05}
#: Default players of a random jump game (the random suite's).
DEFAULT_PLAYERS = 4


def format_board(board: Board) -> str:
    """``.`` for a usable square, ``x`` for a removed one, a line per row."""
    chars = np.where(board.blocked, "x", ".").astype("<U1")
    return "".join("".join(row) + "\n" for row in chars)


def format_instance(instance: Any) -> str:
    """The instance in its problem's text format (see the module's table).

    Raises
    ------
    InvalidArgument
        ``instance`` is not one of the project's instance types.
    """
    from knightcert.problems.independent_knights import KnightsInstance
    from knightcert.problems.jump_game import JumpInstance, format_jump
    from knightcert.problems.lost_knight import LostKnightInstance, format_lost_knight
    from knightcert.problems.tours import TourInstance

    if isinstance(instance, LostKnightInstance):
        return format_lost_knight(instance)
    if isinstance(instance, JumpInstance):
        return format_jump(instance)
    if isinstance(instance, KnightsInstance | TourInstance):
        return format_board(instance.board)
    raise InvalidArgument(f"instance: not an instance of the project ({type(instance).__name__})")


def instance_flags(instance: Any) -> dict[str, str]:
    """What the text format cannot hold, as text: ``torus``, ``closed`` (``"0"``/``"1"``),
    ``start`` and ``end`` (``"r,c"`` or ``""``)."""
    board = getattr(instance, "board", None)
    square = lambda s: "" if s is None else f"{s[0]},{s[1]}"  # noqa: E731
    return {
        "torus": "1" if board is not None and board.torus else "0",
        "closed": "1" if getattr(instance, "closed", False) else "0",
        "start": square(getattr(instance, "start", None)),
        "end": square(getattr(instance, "end", None)),
    }


def random_instance(
    problem: str,
    rows: int,
    cols: int | None = None,
    *,
    holes: float | None = None,
    seed: int = 0,
    players: int = DEFAULT_PLAYERS,
    torus: bool = False,
) -> Any:
    """A seeded random instance, the same as the random suites of ``knightcert compare`` make.

    Parameters
    ----------
    problem : {"path", "jump", "knights", "tour"}
    rows, cols : int
        Board size (``cols`` defaults to ``rows``).
    holes : float, optional
        Share of blocked squares in ``[0, 1)`` (path, knights, tour); default
        :data:`DEFAULT_HOLES`.
    seed : int
        Generator seed (``numpy.random.default_rng(seed)``).
    players : int
        Players of a jump game (cell values are drawn in ``0..rows // 2``).
    torus : bool
        A knights board that wraps (path boards always wrap).

    Raises
    ------
    InvalidArgument
        An unknown problem, a size below 1, ``holes`` outside ``[0, 1)``.
    """
    from knightcert.problems.generators import random_jump, random_lost_knight
    from knightcert.problems.independent_knights import KnightsInstance
    from knightcert.problems.tours import TourInstance

    if problem not in SUFFIX:
        raise InvalidArgument(f"problem: choose one of {', '.join(SUFFIX)}, got {problem!r}")
    expect_whole(rows, "rows", 1)
    cols = rows if cols is None else cols
    expect_whole(cols, "cols", 1)
    expect_whole(seed, "seed", 0)
    holes = DEFAULT_HOLES.get(problem, 0.0) if holes is None else holes
    if not 0 <= holes < 1:
        raise InvalidArgument(f"holes must be in [0, 1), got {holes}")
    rng = np.random.default_rng(seed)
    tag = f"{rows}x{cols}-h{holes:g}-s{seed}"
    if problem == "path":
        if rows * cols < 2:
            raise InvalidArgument("a lost-knight board needs at least 2 squares")
        return random_lost_knight(rng, rows, cols, holes, f"path-{tag}")
    if problem == "jump":
        bounded(players, "players")
        return random_jump(rng, rows, cols, players, rows // 2, f"jump-{rows}x{cols}-j{players}-s{seed}")
    blocked = rng.random((rows, cols)) < holes
    if problem == "knights":
        return KnightsInstance(Board(rows, cols, blocked, torus=torus), f"knights-{tag}")
    blocked[0, 0] = False  # a tour needs a usable square; the random tour suite starts there
    return TourInstance(Board(rows, cols, blocked), False, None, None, f"tour-{tag}")
