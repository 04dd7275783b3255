"""What a problem *is*: instance types, parsers, move generation and checkers.

This package imports nothing from ``models``, ``heuristics`` or ``compare``;
every solving method depends on it, never the other way round.
"""

from knightcert.problems.board import Board
from knightcert.problems.errors import (
    InstanceTooLarge,
    InvalidArgument,
    InvalidInstance,
    KnightcertError,
    SizeLimitExceeded,
    SolverError,
    UnknownMethod,
)
from knightcert.problems.result import Result, Status

__all__ = [
    "Board",
    "InstanceTooLarge",
    "InvalidArgument",
    "InvalidInstance",
    "KnightcertError",
    "Result",
    "SizeLimitExceeded",
    "SolverError",
    "Status",
    "UnknownMethod",
]
