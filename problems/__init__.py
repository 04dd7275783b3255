"""What a problem *is*: instance types, parsers, move generation and checkers.

This package imports nothing from ``models``, ``heuristics`` or ``compare``;
every solving method depends on it, never the other way round.
"""

if __name__ != "knightcert.problems":  # pragma: no cover - the folder imported under another name
    raise ImportError(f"{__name__} is part of knightcert: import knightcert.problems")


from typing import TYPE_CHECKING, Any

from knightcert.problems.errors import (
    InstanceTooLarge,
    InvalidArgument,
    InvalidInstance,
    KnightcertError,
    SizeLimitExceeded,
    SolverError,
    UnknownMethod,
)

if TYPE_CHECKING:  # pragma: no cover
    from knightcert.problems.board import Board
    from knightcert.problems.result import Result, Status

#: loaded on first use: ``Board`` pulls in numpy, which ``knightcert --help`` does not need
_LAZY = {
    "Board": "knightcert.problems.board",
    "Result": "knightcert.problems.result",
    "Status": "knightcert.problems.result",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'knightcert.problems' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


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
