"""The exception hierarchy of knightcert.

Every error a user can cause derives from :class:`KnightcertError`; the CLI
prints its message on one line and exits with code 2.
"""

from __future__ import annotations

__all__ = [
    "InstanceTooLarge",
    "InvalidArgument",
    "InvalidInstance",
    "InvalidReport",
    "KnightcertError",
    "ReportInUse",
    "SizeLimitExceeded",
    "SolverError",
    "UnknownKey",
    "UnknownMethod",
]


class KnightcertError(Exception):
    """Base class of every error knightcert raises on purpose."""


class InvalidInstance(KnightcertError, ValueError):
    """An instance file or argument that does not describe a valid instance.

    Parameters
    ----------
    message : str
        What is wrong, in words a user understands.
    source : str, optional
        The file name (or ``"<string>"``) the instance came from.
    line, column : int, optional
        1-based position of the offending character, when there is one.
    """

    def __init__(
        self, message: str, source: str | None = None, line: int | None = None, column: int | None = None
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self._format())

    def _format(self) -> str:
        where = [str(part) for part in (self.source, self.line, self.column) if part is not None]
        return ":".join(where) + ": " + self.message if where else self.message


class InstanceTooLarge(InvalidInstance):
    """An instance whose size exceeds what can be held in memory."""


class SizeLimitExceeded(KnightcertError):
    """A method asked to solve an instance above its documented size limit."""

    @classmethod
    def check(cls, method: str, count: int, limit: int, what: str = "usable squares") -> None:
        """Raise when ``count`` is above ``limit``: ``"csp handles up to 36 usable squares; ..."``."""
        if count > limit:
            raise cls(f"{method} handles up to {limit} {what}; this board has {count}")


class InvalidArgument(KnightcertError, ValueError):
    """A method option outside its valid range (e.g. a non-positive time limit)."""


class UnknownKey(KnightcertError, KeyError):
    """A key a model has no variable of: a square off the board or removed, a move no knight makes."""

    def __str__(self) -> str:  # a KeyError's own would quote the message
        return str(self.args[0])


class UnknownMethod(KnightcertError, ValueError):
    """A method or problem name that is not in the registry."""


class SolverError(KnightcertError):
    """The underlying solver rejected a model (e.g. CP-SAT ``MODEL_INVALID``)."""


class InvalidReport(InvalidInstance):
    """A report file that cannot be read, resumed or written (the message names the file)."""


class ReportInUse(KnightcertError):
    """Another run holds the report's writer lock (the message names the report and the holder's pid)."""

    def __init__(self, message: str, source: str) -> None:
        self.source = source
        super().__init__(f"{source}: {message}")
