"""The one reader of every file knightcert reads, and memory checks before large allocations.

Instances, answer files, experiment files and reports all go through
:func:`read_input` (bytes), :func:`read_text` (UTF-8 text) and
:func:`load_json` / :func:`load_toml` (structured data), so that for each of them:

* only a regular file (or ``-``, standard input) is read: a FIFO cannot hang a
  run, ``/dev/zero`` cannot fill the memory;
* a file larger than its kind's limit is refused from its size before a byte
  is read (:data:`MAX_BYTES`), with the limit and the file named;
* text that is not UTF-8 (UTF-16, binary data) is refused naming the byte;
* JSON or TOML nested deeper than :data:`MAX_DEPTH` is refused (a 100 000-deep
  array cannot exhaust the stack), syntax errors name the line and column.

Each failure is one :class:`~knightcert.problems.errors.InvalidInstance` (or
the ``error`` class given) naming the file; the command line turns it into
one line and exit code 2.
"""

from __future__ import annotations

import contextlib
import os
import resource
import stat
import sys
from typing import Any

from knightcert.problems.argument_checks import expect_path
from knightcert.problems.errors import InstanceTooLarge, InvalidInstance

__all__ = [
    "ECHO_CHARS",
    "MAX_BYTES",
    "MAX_DEPTH",
    "available_memory",
    "check_memory",
    "decode_text",
    "echo",
    "load_json",
    "load_toml",
    "max_bytes",
    "read_input",
    "read_text",
]

#: Characters of a bad token echoed in an error message.
ECHO_CHARS = 40
#: Largest file of each kind read (bytes); ``KNIGHTCERT_MAX_<KIND>_BYTES`` (kind upper-cased,
#: spaces as ``_``) lowers or raises one, for tests and for unusual studies.
MAX_BYTES = {
    "answer file": 2**31,  # a 23 x 23 torus's LRAT proofs are most of 1 GB
    "experiment file": 2**20,
    "expected values": 2**20,
    "report": 256 * 2**20,
}
#: Deepest nesting of a JSON or TOML document read (answers and reports need 4 or 5).
MAX_DEPTH = 64


def max_bytes(kind: str) -> int:
    """The size limit of a file of ``kind`` (:data:`MAX_BYTES`, or its environment variable)."""
    variable = "KNIGHTCERT_MAX_" + kind.upper().replace(" ", "_") + "_BYTES"
    text = os.environ.get(variable, "")
    return int(text) if text.isdigit() else MAX_BYTES[kind]


def read_text(
    path: str | os.PathLike[str], kind: str, error: type[InvalidInstance] = InvalidInstance
) -> tuple[str, str]:
    """The UTF-8 text of a file of ``kind`` (a key of :data:`MAX_BYTES`) and its name for messages.

    Raises
    ------
    InvalidInstance (or ``error``)
        Not a regular file or ``-``, unreadable, larger than :func:`max_bytes`, or not UTF-8.
    """
    try:
        data, source = read_input(path, max_bytes(kind), kind)
    except InvalidInstance as exc:
        raise error(exc.message if hasattr(exc, "message") else str(exc), exc.source) from None
    return decode_text(data, source, kind, error), source


def decode_text(data: bytes, source: str, kind: str, error: type[InvalidInstance] = InvalidInstance) -> str:
    """``data`` as UTF-8 text (a UTF-8 byte order mark dropped), or ``error`` naming the byte."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise error(f"{_a(kind)} must be UTF-8 text; this is UTF-16 (save it as UTF-8)", source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{_a(kind)} must be UTF-8 text; byte {exc.start} is not UTF-8", source) from None


def load_json(text: str, source: str, kind: str, error: type[InvalidInstance] = InvalidInstance) -> Any:
    """Parse JSON text with its nesting capped at :data:`MAX_DEPTH`.

    Raises
    ------
    InvalidInstance (or ``error``)
        Not JSON (the message gives ``line:column``), nested too deep, or an object naming a
        key twice (JSON would keep the last silently: a forged duplicate is refused instead).
    """
    import json

    if _too_deep(text, "[{"):
        raise error(f"not {_a(kind)}: nested deeper than {MAX_DEPTH} levels", source)
    try:
        data = json.loads(text, object_pairs_hook=_unique_keys)
    except DuplicateKey as exc:
        raise error(f"not {_a(kind)}: the key {exc.args[0]!r} appears twice in one object", source) from None
    except json.JSONDecodeError as exc:
        raise error(f"not {_a(kind)} ({exc.msg})", source, exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:  # a ValueError that names digits: a number too long
        why = f"a number of more than {sys.get_int_max_str_digits()} digits" if "digits" in str(exc) else ""
        raise error(f"not {_a(kind)} ({why or type(exc).__name__})", source) from None
    return data


class DuplicateKey(ValueError):
    """A JSON object names the same key twice (which one was meant cannot be told)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise DuplicateKey(key[:ECHO_CHARS])
        data[key] = value
    return data


def load_toml(text: str, source: str, kind: str, error: type[InvalidInstance] = InvalidInstance) -> Any:
    """Parse TOML text with its nesting capped at :data:`MAX_DEPTH`; syntax errors give ``line:column``."""
    import re
    import tomllib

    if _too_deep(text, "[{"):
        raise error(f"not {_a(kind)}: nested deeper than {MAX_DEPTH} levels", source)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        line, column = (int(where.group(1)), int(where.group(2))) if where else (None, None)
        raise error(message, source, line, column) from None
    except RecursionError:
        raise error(f"not {_a(kind)}: nested too deep", source) from None


def _too_deep(text: str, openers: str) -> bool:
    """Whether brackets nest deeper than :data:`MAX_DEPTH` (strings not skipped: an upper bound,
    exact for documents without brackets inside strings; checked only past the cap's length)."""
    if len(text) <= MAX_DEPTH:
        return False
    import re

    depth = 0
    # a string's run of plain characters is one single-character repeat (no backtracking state
    # per character: the alternation form took ~170 bytes a character, 1.7 GB for a 10 MB proof)
    for token in re.finditer(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', text):
        char = token.group()
        if char in openers:
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def read_input(
    path: str | os.PathLike[str], max_bytes: int, what: str = "instance file"
) -> tuple[bytes, str]:
    """The bytes of an instance file and its name for messages.

    Parameters
    ----------
    path : str or path-like
        A regular file, or ``"-"`` for standard input.
    max_bytes : int
        Largest size accepted; a regular file is refused from its size before
        reading, standard input after reading ``max_bytes + 1`` bytes.
    what : str
        What the file holds, for messages.

    Returns
    -------
    (bytes, str)
        The contents and the source name (``"<stdin>"`` for ``-``).

    Raises
    ------
    InvalidInstance
        Missing or unreadable file, or not a regular file (folder, FIFO, device).
    InstanceTooLarge
        Larger than ``max_bytes``; the message names the limit.
    """
    expect_path(path, "path")
    source = os.fspath(path)
    if "\0" in str(source):  # the system cannot name such a file: one message, not a ValueError
        raise InvalidInstance("cannot read file: a file name cannot hold a NUL character", repr(source)[1:-1])
    if source == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise InstanceTooLarge(
                f"standard input exceeds the {max_bytes}-byte limit of {_a(what)}", "<stdin>"
            )
        return data, "<stdin>"
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once instead of waiting
    except OSError as exc:
        raise InvalidInstance(f"cannot read file: {exc.strerror or exc}", source) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise InvalidInstance(f"not a regular file ({_kind(info.st_mode)}): give {_a(what)}", source)
    with os.fdopen(fd, "rb") as handle:
        if info.st_size > max_bytes:
            raise InstanceTooLarge(
                f"file is {info.st_size} bytes; {_a(what)} may have at most {max_bytes} bytes", source
            )
        try:
            data = _read_at_most(handle, info.st_size, max_bytes)
        except OSError as exc:
            raise InvalidInstance(f"cannot read file: {exc.strerror or exc}", source) from None
    if len(data) > max_bytes:  # grew while being read, or a size the system does not report
        raise InstanceTooLarge(f"file exceeds the {max_bytes}-byte limit of {_a(what)}", source)
    return data, source


def _read_at_most(handle: Any, size: int, max_bytes: int) -> bytes:
    """Up to ``max_bytes + 1`` bytes: one read of the reported size, then chunks if more follows."""
    first = handle.read(min(size, max_bytes) + 1)
    if len(first) <= min(size, max_bytes):
        return first
    chunks, total = [first], len(first)
    while total <= max_bytes:
        chunk = handle.read(min(1 << 24, max_bytes + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _a(what: str) -> str:
    """``what`` with its indefinite article: "an answer file", "a report"."""
    return ("an " if what[:1] in "aeiou" else "a ") + what


def _kind(mode: int) -> str:
    tests = (stat.S_ISDIR, stat.S_ISFIFO, stat.S_ISCHR, stat.S_ISBLK, stat.S_ISSOCK)
    names = ("a folder", "a FIFO", "a device", "a device", "a socket")
    return next((name for test, name in zip(tests, names, strict=True) if test(mode)), "not a plain file")


def available_memory() -> int:
    """Bytes this process can still allocate: ``MemAvailable`` (Linux), capped by ``RLIMIT_AS``."""
    available = None
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/meminfo", "rb") as meminfo:
        for line in meminfo:
            if line.startswith(b"MemAvailable:"):
                available = int(line.split()[1]) * 1024
                break
    if available is None:
        try:
            available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            available = 2**62
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        available = min(available, max(0, soft - _address_space_used()))
    return available


def _address_space_used() -> int:
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def check_memory(needed: int, what: str, source: str | None = None) -> None:
    """Refuse work that needs more memory than is available, before allocating it.

    Raises
    ------
    InstanceTooLarge
        ``needed`` bytes exceed :func:`available_memory`; the message gives both.
    """
    available = available_memory()
    if needed > available:
        raise InstanceTooLarge(
            f"{what} needs about {_size(needed)} of memory; {_size(available)} is available", source
        )


def _size(count: int) -> str:
    unit, scale = next((u for u in (("GB", 2**30), ("MB", 2**20), ("KB", 1024)) if count >= u[1]), ("", 1))
    return f"{count / scale:.1f} {unit}" if unit else f"{count} bytes"


def echo(token: str | bytes) -> str:
    """A token for an error message, cut to ``ECHO_CHARS`` characters."""
    text = token.decode("utf-8", errors="replace") if isinstance(token, bytes) else token
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "..."
