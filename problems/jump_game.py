"""The jump game (seed 004): instance type, parser and output format.

Every round each player jumps exactly the value of its cell, up, down, left
or right, staying on the board (0 = stuck). The first player to reach the
last cell ``(N-1, M-1)`` wins. Round 1 is played in input order; in a later
round the player whose previous jump was shorter moves first, ties to the
earlier player.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from knightcert.problems.argument_checks import expect_text
from knightcert.problems.errors import InstanceTooLarge, InvalidInstance
from knightcert.problems.input_file import read_input
from knightcert.problems.result import Result, Status

__all__ = [
    "MAX_CELLS",
    "MAX_JUMP_FILE_BYTES",
    "NO_WINNER",
    "JumpInstance",
    "format_jump",
    "format_jump_answer",
    "game_result",
    "jump_targets",
    "parse_jump",
    "player_key",
    "player_name",
    "player_row",
    "read_jump",
]

#: Largest board the parser accepts (cells), checked before anything is allocated.
MAX_CELLS = 400_000_000
#: Largest jump-game file read (bytes), checked from the file size before reading.
MAX_JUMP_FILE_BYTES = 2**31
#: The line printed when nobody can ever arrive.
NO_WINNER = "SEM VENCEDORES"


@dataclass(frozen=True, eq=False)
class JumpInstance:
    """A jump-game board and the players' start cells (input order)."""

    values: np.ndarray  # (N, M) int64, >= 0
    starts: tuple[tuple[int, int], ...]
    name: str = ""

    def __post_init__(self) -> None:
        values = self.values
        if not isinstance(values, np.ndarray) or values.ndim != 2 or values.dtype.kind not in "iu":
            raise InvalidInstance("values must be a 2-D numpy array of whole numbers")
        if values.shape[0] < 1 or values.shape[1] < 1:
            raise InvalidInstance(f"board size {values.shape[0]} x {values.shape[1]}: N and M must be >= 1")
        if values.min() < 0:
            raise InvalidInstance("cell values must be >= 0")
        starts = []
        for p, square in enumerate(self.starts):
            try:
                r, c = square
                ok = all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in (r, c))
            except (TypeError, ValueError):
                ok = False
            if not ok or not (0 <= r < values.shape[0] and 0 <= c < values.shape[1]):
                raise InvalidInstance(
                    f"start {square!r:.40} of player {player_name(p)} is not a square of the "
                    f"{values.shape[0]} x {values.shape[1]} board"
                )
            starts.append((int(r), int(c)))
        object.__setattr__(self, "starts", tuple(starts))

    @property
    def rows(self) -> int:
        return int(self.values.shape[0])

    @property
    def cols(self) -> int:
        return int(self.values.shape[1])

    @property
    def goal(self) -> tuple[int, int]:
        return (self.rows - 1, self.cols - 1)

    @property
    def players(self) -> int:
        return len(self.starts)


@lru_cache(maxsize=4096)  # the checker asks for every player's name at every check
def player_name(index: int) -> str:
    """Name of the player at 0-based ``index``: A..Z, then AA, AB, ..., AZ, BA, ...

    Examples
    --------
    >>> [player_name(i) for i in (0, 25, 26, 27, 51, 52, 701, 702)]
    ['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']
    """
    if index < 0:
        raise ValueError("player index must be >= 0")
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def player_row(instance: JumpInstance, player: int) -> dict:
    """A player's entry in the per-player table, before any search: never arrives."""
    return {
        "player": player_name(player),
        "start": list(instance.starts[player]),
        "rounds": None,
        "key": None,
        "path": None,
    }


def format_jump_answer(winner: int | None, round_: int | None) -> str:
    """The official output: the winner's name and round, or ``SEM VENCEDORES``."""
    return NO_WINNER + "\n" if winner is None else f"{player_name(winner)}\n{round_}\n"


def jump_targets(values: np.ndarray, r: int, c: int) -> list[tuple[int, int]]:
    """Cells one jump from ``(r, c)``: up, down, left, right by ``values[r, c]``."""
    v = int(values[r, c])
    if v == 0:
        return []
    rows, cols = values.shape
    near = ((r - v, c), (r + v, c), (r, c - v), (r, c + v))
    return [(nr, nc) for nr, nc in near if 0 <= nr < rows and 0 <= nc < cols]


def parse_jump(text: str | bytes, source: str = "<string>", name: str | None = None) -> JumpInstance:
    """Parse a jump-game instance.

    Format: ``N M`` / ``J`` / N lines of M non-negative integers / J lines ``r c``
    (0-based start cells). Blank lines are ignored; CRLF is accepted.

    Raises
    ------
    InvalidInstance
        Missing or extra numbers, a non-integer, a negative cell value, a start
        off the board, a number of start lines other than J; the message names
        the file, the line and what was expected.
    InstanceTooLarge
        ``N * M`` above ``MAX_CELLS``, reported before the board is allocated.

    Examples
    --------
    >>> game = parse_jump("1 3\\n1\\n2 1 0\\n0 0\\n")
    >>> game.values.tolist(), game.starts
    ([[2, 1, 0]], ((0, 0),))
    """
    from knightcert.problems.jump_tokens import tokenize

    expect_text(text, "text")
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    values, lines = tokenize(data, source)
    line_starts = np.flatnonzero(np.diff(lines, prepend=-1)) if lines.size else np.zeros(0, np.int64)
    counts = np.diff(np.append(line_starts, lines.size))
    line_numbers = lines[line_starts]

    def numbers(k: int) -> np.ndarray:
        return values[line_starts[k] : line_starts[k] + counts[k]]

    def expect(k: int, count: int, what: str) -> np.ndarray:
        if k >= len(line_starts):
            last = int(lines[-1]) + 1 if lines.size else 1
            raise InvalidInstance(f"missing line: expected {what}", source, last)
        if counts[k] != count:
            raise InvalidInstance(
                f"expected {what} ({count} number{'s' * (count != 1)}), found {counts[k]}",
                source,
                int(line_numbers[k]),
            )
        return numbers(k)

    rows, cols = (int(x) for x in expect(0, 2, "'N M', the board size"))
    if rows < 1 or cols < 1:
        raise InvalidInstance(
            f"board size {rows} x {cols}: N and M must be at least 1", source, int(line_numbers[0])
        )
    if rows * cols > MAX_CELLS:
        raise InstanceTooLarge(
            f"board {rows} x {cols} has {rows * cols} cells; at most {MAX_CELLS} fit in memory",
            source,
            int(line_numbers[0]),
        )
    (players,) = (int(x) for x in expect(1, 1, "'J', the number of players"))
    first_row = 2
    board_rows = rows
    if len(line_starts) < first_row + board_rows:
        found = len(line_starts) - first_row
        raise InvalidInstance(f"expected {rows} board rows, found {found}", source, int(lines[-1]) + 1)
    bad = np.flatnonzero(counts[first_row : first_row + board_rows] != cols)
    if bad.size:
        k = first_row + int(bad[0])
        raise InvalidInstance(
            f"expected {cols} cell values in board row {k - first_row + 1}, found {counts[k]}",
            source,
            int(line_numbers[k]),
        )
    begin = line_starts[first_row]
    grid = values[begin : begin + rows * cols].reshape(rows, cols).copy()
    first_start = first_row + board_rows
    start_lines = len(line_starts) - first_start
    if start_lines != players:
        where = int(line_numbers[first_start + players]) if start_lines > players else int(lines[-1]) + 1
        raise InvalidInstance(
            f"J = {players} announces {players} start line{'s' * (players != 1)}, found {start_lines}",
            source,
            where,
        )
    starts = []
    for p in range(players):
        k = first_start + p
        r, c = (int(x) for x in expect(k, 2, f"'row col', the start of player {player_name(p)}"))
        if not (0 <= r < rows and 0 <= c < cols):
            raise InvalidInstance(
                f"start ({r}, {c}) of player {player_name(p)} is off the {rows} x {cols} board",
                source,
                int(line_numbers[k]),
            )
        starts.append((r, c))
    return JumpInstance(grid, tuple(starts), name if name is not None else source)


def read_jump(path: str | os.PathLike[str]) -> JumpInstance:
    """Read and parse a jump-game file; see :func:`parse_jump`."""
    data, source = read_input(path, MAX_JUMP_FILE_BYTES, "jump-game file")
    return parse_jump(data, source=source, name=os.path.basename(source))


def format_jump(instance: JumpInstance) -> str:
    """Write an instance in the input format (inverse of :func:`parse_jump`)."""
    lines = [f"{instance.rows} {instance.cols}", str(instance.players)]
    lines += [" ".join(map(str, row)) for row in instance.values.tolist()]
    lines += [f"{r} {c}" for r, c in instance.starts]
    return "\n".join(lines) + "\n"


def player_key(rounds: int | None, jump: int | None, index: int) -> tuple[float, int, int]:
    """Sort key of a player: fewest rounds, then shortest previous jump, then input order."""
    return (float("inf"), 0, index) if rounds is None else (rounds, -1 if jump is None else jump, index)


def game_result(instance: JumpInstance, name: str, table: list[dict[str, Any]], **extra: Any) -> Result:
    """Pick the winner from the per-player table (fewest rounds, then shortest previous
    jump, then input order) and build the Result."""
    ranked = sorted(range(len(table)), key=lambda p: player_key(table[p]["rounds"], table[p]["key"], p))
    winner = ranked[0] if ranked and table[ranked[0]]["rounds"] is not None else None
    round_ = None if winner is None else table[winner]["rounds"]
    solution = {
        "winner": None if winner is None else player_name(winner),
        "round": round_,
        "key": None if winner is None else table[winner]["key"],
        "path": None if winner is None else table[winner]["path"],
        "output": format_jump_answer(winner, round_),
        "players": table,
    }
    status = Status.INFEASIBLE if winner is None else Status.OPTIMAL
    return Result.answer(
        "jump", name, status=status, objective=round_, solution=solution, bound=round_, **extra
    )
