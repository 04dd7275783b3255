"""Fast text for large tours: JSON pairs and the numbered board, from (n, 2) integer arrays.

Small answers go through plain Python; from ``COMPILED_FROM`` squares on, the
compiled formatters of :mod:`knightcert.cli.text_kernels` write the
text in chunks (about 60 ms per million squares instead of seconds).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import numpy as np

from knightcert.problems.board import Board
from knightcert.problems.compiled import kernel_or_numba

__all__ = ["CHUNK", "COMPILED_FROM", "LOADS_NUMBA_FROM", "numbered_text", "squares_json"]

#: Squares from which the compiled formatters are used.
COMPILED_FROM = 50_000
#: Squares from which the compiled formatters are used when numba is not loaded yet (its load
#: costs more than formatting a million pairs in plain Python).
LOADS_NUMBA_FROM = 1_000_000
#: Squares formatted per chunk.
CHUNK = 1 << 20


def squares_json(squares: np.ndarray) -> Iterator[str]:
    """The JSON text ``[[r,c],...]`` of an (n, 2) array of non-negative integers, in chunks."""
    n = len(squares)
    if n < (COMPILED_FROM if "numba" in sys.modules else LOADS_NUMBA_FROM):  # loading it: ~1 s of CPU
        yield str(np.asarray(squares).tolist()).replace(" ", "")
        return
    from knightcert.cli.text_kernels import format_pairs

    digits = len(str(int(squares.max()))) if n else 1
    buffer = np.empty(min(n, CHUNK) * (2 * digits + 4) + 1, dtype=np.uint8)
    yield "["
    for s in range(0, n, CHUNK):
        if s:
            yield ","
        length = format_pairs(squares[s : s + CHUNK], buffer)
        yield buffer[:length].tobytes().decode("ascii")
    yield "]"


def numbered_text(board: Board, squares: np.ndarray, start: int = 1) -> str:
    """The board with each square's step number (from ``start``), right-aligned; ``x`` on removed squares.

    Same layout as :func:`knightcert.cli.render.numbered_board` for a tour
    of the full board (every square numbered), compiled for large boards.
    """
    n = len(squares)
    if n < COMPILED_FROM or board.blocked.any() or n != board.size:
        from knightcert.cli.render import numbered_board

        return numbered_board(board, np.asarray(squares).tolist(), start=start)
    format_grid = kernel_or_numba("format_grid", "knightcert.cli.text_kernels")  # ahead of time, else numba's
    grid = np.empty((board.rows, board.cols), dtype=np.int64)
    grid[squares[:, 0], squares[:, 1]] = np.arange(start, start + n)
    width = len(str(start + n - 1))
    buffer = np.empty(board.size * (width + 1) + board.rows, dtype=np.uint8)
    length = format_grid(grid, width, buffer)
    return buffer[: length - 1].tobytes().decode("ascii")
