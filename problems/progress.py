"""Progress notes from long work, for whoever listens (the command line, on a terminal).

A method that may run for minutes (a proof of an odd torus's bound) says what it is doing
with :func:`note`; nothing happens unless a listener is set (:func:`listening`), so the
library stays silent by default and the notes cost nothing.

Examples
--------
>>> heard = []
>>> with listening(heard.append):
...     note("proving that 120 knights do not fit")
>>> note("nobody listens now")
>>> heard
['proving that 120 knights do not fit']
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

__all__ = ["listening", "note"]

_listener: Callable[[str], None] | None = None


def note(text: str) -> None:
    """Tell the listener, if any, what the work is doing now (one short line, no newline)."""
    if _listener is not None:
        _listener(text)


@contextlib.contextmanager
def listening(listener: Callable[[str], None]) -> Iterator[None]:
    """Send :func:`note` s to ``listener`` inside the block (the previous listener after it)."""
    global _listener
    previous, _listener = _listener, listener
    try:
        yield
    finally:
        _listener = previous
