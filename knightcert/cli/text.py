"""Text that reaches the terminal: names and messages from files and methods, made harmless."""

from __future__ import annotations

__all__ = ["printable"]


def printable(text: str) -> str:
    """``text`` with every control character escaped (``\\n``, ``\\x1b``, ...), so that a name or
    message that came from a file or a method cannot draw a line of its own or hide one.

    Examples
    --------
    >>> printable("mine\\x1b[8m\\nok: every claim certified")
    'mine\\\\x1b[8m\\\\nok: every claim certified'
    """
    return "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii") for ch in text
    )


def theirs(text: object) -> str:
    """A name or string that came from a file or a foreign method, shown as theirs: quoted, with
    control characters escaped, so that it cannot pass for knightcert's own words (a method named
    ``ok: every claim certified`` reads ``'ok: every claim certified'``).

    Examples
    --------
    >>> theirs("x: every claim certified")
    "'x: every claim certified'"
    """
    return printable(repr(str(text)))
