"""Memory estimates of the methods, checked before a run starts.

A board that fits the instance types can still be far too large for a
method (``knights 17000`` with ``matching`` needs about 200 GB). Each method
has an estimate in bytes per square (cell for the jump game), written in its
specification (:data:`knightcert.specs.FACTS`, ``bytes_per_square``), measured as the
growth of the peak resident memory between 500 x 500 and 1000 x 1000 boards
and rounded up with room for the checker (docs/benchmarks-archive.md, "Memory per
square"). :func:`check_fits` refuses a run whose estimate exceeds the memory
available, naming the method, the board, the estimate and the limit.

Search methods whose memory grows with the search itself (``bnb``, CP-SAT)
are bounded by their time limit, not by this table; the table gives them
their footprint at the start of the search only.
"""

from __future__ import annotations

from typing import Any

from knightcert.problems.input_file import check_memory
from knightcert.specs import DEFAULT_BYTES_PER_SQUARE, FACTS

__all__ = [
    "BASE_BYTES",
    "BYTES_PER_SQUARE",
    "DEFAULT_BYTES_PER_SQUARE",
    "check_fits",
    "estimate_bytes",
    "squares_of",
]

#: Interpreter, numpy, numba and a loaded method (bytes).
BASE_BYTES = 200 * 2**20
#: problem -> method -> peak bytes per square (measured, rounded up, checker included): read
#: from the methods' specifications (:data:`knightcert.specs.FACTS`).
BYTES_PER_SQUARE: dict[str, dict[str, int]] = {
    problem: {name: facts.bytes_per_square for name, facts in methods.items()}
    for problem, methods in FACTS.items()
}


def squares_of(instance: Any) -> int | None:
    """Squares (cells) of an instance's board, or None when it has none."""
    board = getattr(instance, "board", None)
    if board is not None:
        return int(board.rows) * int(board.cols)
    shape = getattr(getattr(instance, "values", None), "shape", None)
    return int(shape[0]) * int(shape[1]) if shape is not None and len(shape) == 2 else None


def estimate_bytes(problem: str, method: str, instance: Any) -> int | None:
    """Estimated peak memory of ``method`` on ``instance`` (bytes), or None without a board."""
    squares = squares_of(instance)
    if squares is None:
        return None
    per_square = BYTES_PER_SQUARE.get(problem, {}).get(method, DEFAULT_BYTES_PER_SQUARE)
    return BASE_BYTES + per_square * squares


def check_fits(problem: str, method: str, instance: Any) -> None:
    """Refuse ``method`` on ``instance`` when its memory estimate exceeds the memory available.

    Raises
    ------
    InstanceTooLarge
        The message names the method, the board, the estimate and the memory available.
    """
    needed = estimate_bytes(problem, method, instance)
    if needed is None:
        return
    board = getattr(instance, "board", None)
    shape = (board.rows, board.cols) if board is not None else instance.values.shape
    name = getattr(instance, "name", "") or ""
    check_memory(needed, f"{problem} {method} on a {shape[0]} x {shape[1]} board", name or None)
