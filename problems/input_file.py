"""Reading instance files safely: regular files (or ``-`` for stdin) of bounded size,
and memory checks before large allocations.

Every parser that reads a file goes through :func:`read_input`, so a FIFO
cannot hang a run, ``/dev/zero`` cannot fill the memory, and a huge file is
refused from its size before a byte is read, with the limit and the file named.
"""

from __future__ import annotations

import os
import resource
import stat
import sys
from typing import Any

from knightcert.problems.argument_checks import expect_path
from knightcert.problems.errors import InstanceTooLarge, InvalidInstance

#: Characters of a bad token echoed in an error message.
ECHO_CHARS = 40


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
    if source == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise InstanceTooLarge(
                f"standard input exceeds the {max_bytes}-byte limit of a {what}", "<stdin>"
            )
        return data, "<stdin>"
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens at once instead of waiting
    except OSError as exc:
        raise InvalidInstance(f"cannot read file: {exc.strerror or exc}", source) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise InvalidInstance(f"not a regular file ({_kind(info.st_mode)}): give a {what}", source)
    with os.fdopen(fd, "rb") as handle:
        if info.st_size > max_bytes:
            raise InstanceTooLarge(
                f"file is {info.st_size} bytes; a {what} may have at most {max_bytes} bytes", source
            )
        try:
            data = _read_at_most(handle, info.st_size, max_bytes)
        except OSError as exc:
            raise InvalidInstance(f"cannot read file: {exc.strerror or exc}", source) from None
    if len(data) > max_bytes:  # grew while being read, or a size the system does not report
        raise InstanceTooLarge(f"file exceeds the {max_bytes}-byte limit of a {what}", source)
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


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def available_memory() -> int:
    """Bytes this process can still allocate: ``MemAvailable`` (Linux), capped by ``RLIMIT_AS``."""
    available = None
    try:
        with open("/proc/meminfo", "rb") as meminfo:
            for line in meminfo:
                if line.startswith(b"MemAvailable:"):
                    available = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
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
    for unit, scale in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


def echo(token: str | bytes) -> str:
    """A token for an error message, cut to ``ECHO_CHARS`` characters."""
    text = token.decode("utf-8", errors="replace") if isinstance(token, bytes) else token
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "..."
