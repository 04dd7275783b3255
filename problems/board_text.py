"""Reading boards drawn as text: one line per row, one character per square.

Shared by every problem that takes a board file: the lost knight (``. x C S``),
independent knights and tours (``.`` usable, ``x`` removed).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from knightcert.problems.argument_checks import expect_text, expect_whole
from knightcert.problems.board import MAX_SQUARES, Board
from knightcert.problems.errors import InstanceTooLarge, InvalidInstance
from knightcert.problems.input_file import check_memory, read_input

__all__ = [
    "MAX_BOARD_FILE_BYTES",
    "PARSE_BYTES_PER_BYTE",
    "board_of",
    "parse_board_mask",
    "parse_grid",
    "read_bytes",
]

#: Largest board file read (bytes): a board of ``MAX_SQUARES`` squares with CRLF line ends.
MAX_BOARD_FILE_BYTES = MAX_SQUARES + MAX_SQUARES // 8
#: Bytes the parser holds per byte of board text at its peak (lines, joined rows, codes, mask).
PARSE_BYTES_PER_BYTE = 5


def read_bytes(path: str | os.PathLike[str]) -> tuple[bytes, str]:
    """A board file's bytes and its name for messages (``-`` reads standard input).

    Raises
    ------
    InvalidInstance
        Unreadable, or not a regular file (a FIFO, a device, a folder).
    InstanceTooLarge
        Larger than ``MAX_BOARD_FILE_BYTES``, checked from the size before reading.
    """
    return read_input(path, MAX_BOARD_FILE_BYTES, "board file")


def parse_grid(text: str | bytes, source: str, alphabet: str) -> np.ndarray:
    """Parse rows of characters from ``alphabet`` into an int8 code grid.

    ``codes[r, c]`` is the position of the character in ``alphabet``. CRLF
    line ends, a missing final newline and trailing blank lines are accepted.

    Raises
    ------
    InvalidInstance
        Empty input, rows of different lengths, or a character outside the
        alphabet; the message gives source, line and column (1-based,
        counted in characters).
    """
    expect_text(text, "text")
    expected = ", ".join(f"'{ch}'" for ch in alphabet[:-1]) + f" or '{alphabet[-1]}'"
    try:
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    except UnicodeEncodeError as exc:  # a lone surrogate: no file could hold it
        raise InvalidInstance(
            f"the text holds a character that is not Unicode text (a lone surrogate) at index {exc.start}",
            source,
        ) from None
    check_memory(PARSE_BYTES_PER_BYTE * len(data), f"parsing a board of {len(data)} bytes", source)
    lines = data.replace(b"\r\n", b"\n").split(b"\n")
    while lines and lines[-1].strip(b"\r") == b"":
        lines.pop()
    lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
    if not lines:
        raise InvalidInstance(f"empty board: expected rows of {expected}", source, 1, 1)
    cols, allowed = len(lines[0]), alphabet.encode("ascii")
    if cols == 0:
        raise InvalidInstance(f"empty row: expected {expected}", source, 1, 1)
    for lineno, line in enumerate(lines, start=1):  # the first fault in reading order
        if not line.isascii() or line[:cols].translate(None, allowed):
            decoded = line.decode("utf-8", errors="replace")
            column = next(i for i, ch in enumerate(decoded) if ch not in alphabet)
            raise InvalidInstance(
                f"unexpected character {decoded[column]!r}: expected {expected}", source, lineno, column + 1
            )
        if len(line) != cols:
            column = min(len(line), cols) + 1
            raise InvalidInstance(
                f"row has {len(line)} squares, expected {cols} like row 1", source, lineno, column
            )
    if len(lines) * cols > MAX_SQUARES:
        raise InstanceTooLarge(
            f"board {len(lines)} x {cols} has more than {MAX_SQUARES} squares, the largest board handled",
            source,
        )
    table = np.full(256, -1, dtype=np.int8)
    table[list(allowed)] = range(len(allowed))  # each character's code: its place in the alphabet
    return table[np.frombuffer(b"".join(lines), dtype=np.uint8).reshape(len(lines), cols)]


def parse_board_mask(text: str | bytes, source: str = "<string>") -> np.ndarray:
    """Blocked-square mask of a board drawn with ``.`` (usable) and ``x`` (removed).

    ``C`` and ``S`` are accepted as usable squares, so lost-knight files can be reused.
    """
    return parse_grid(text, source, ".xCS") == 1


def board_of(rows: Any, cols: Any, board_file: Any, torus: bool) -> tuple[Board, str]:
    """The board of a knights or tour instance, from ``ROWS [COLS]`` or a board file (never
    both), and its name: ``"8x8"``, or the file's name.

    Raises
    ------
    InvalidInstance
        Sizes below 1, both a size and a file, neither, or a malformed file.
    """
    for name, value in (("rows", rows), ("cols", cols)):
        if value is not None:
            expect_whole(value, name)  # the range is checked below, as a board size
    if board_file is not None:
        if rows is not None:
            raise InvalidInstance("give ROWS [COLS] or --board FILE, not both")
        data, source = read_bytes(board_file)
        blocked = parse_board_mask(data, source)
        return Board(blocked.shape[0], blocked.shape[1], blocked, torus=torus), os.path.basename(source)
    if rows is None:
        raise InvalidInstance("give the board size ROWS [COLS] or --board FILE")
    cols = rows if cols is None else cols
    if rows < 1 or cols < 1:
        raise InvalidInstance(f"board size must be at least 1 x 1, got {rows} x {cols}")
    return Board(rows, cols, torus=torus), f"{rows}x{cols}"
