"""Report files that survive concurrent runs, crashes and corruption.

Three rules, used by :mod:`knightcert.compare.report` and the ``compare`` command:

* **one writer per report**: :func:`report_lock` takes an exclusive ``flock`` on
  ``<report>.lock``; a second run on the same report is refused with the
  holder's pid (the lock dies with its process, so a crash never leaves a
  report locked);
* **atomic writes**: :func:`write_text_atomic` writes a temporary file unique
  to the writer in the report's folder and renames it over the report, so a
  reader sees the old report or the new one, never a mix;
* **validated reads**: :func:`read_report_text` reads only a regular file of
  bounded size, and every problem is :class:`~knightcert.problems.errors.InvalidReport`
  naming the file and why. A report that cannot be read is never overwritten.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import importlib.util
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from knightcert.problems.errors import InvalidReport, ReportInUse
from knightcert.problems.input_file import MAX_BYTES, read_text
from knightcert.problems.output_file import open_lock_file, remove_stale_temporaries, write_atomic

__all__ = [
    "MAX_REPORT_BYTES",
    "PLOT_FORMATS",
    "T",
    "check_output_path",
    "check_plot_path",
    "read_report_text",
    "report_lock",
    "report_locks",
    "write_text_atomic",
]

T = TypeVar("T")

#: Largest report file read back (bytes); a bigger file is refused, not loaded.
MAX_REPORT_BYTES = MAX_BYTES["report"]
#: Endings ``--plot`` accepts (formats matplotlib writes without extra packages).
PLOT_FORMATS = (".png", ".pdf", ".svg")


@contextlib.contextmanager
def report_lock(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the exclusive writer lock of the report ``path`` for the ``with`` block.

    The lock file ``<path>.lock`` holds the owner's pid and is removed on exit.

    Raises
    ------
    ReportInUse
        Another process holds the lock; the message names the report and its pid.
    InvalidReport
        The lock file cannot be created (missing folder, no permission).
    """
    target = os.fspath(path)
    lock = target + ".lock"
    while True:
        fd = open_lock_file(lock, InvalidReport)  # never through a planted link (issue 28)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _read_pid(fd)
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise InvalidReport(f"cannot lock the report: {exc.strerror or exc}", target) from None
            who = f"pid {holder}" if holder else "another process"
            raise ReportInUse(
                f"report in use by another knightcert run ({who}); wait for it or choose another --out",
                target,
            ) from None
        # the previous holder may have removed the lock file between our open and our flock
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(lock))
        except FileNotFoundError:
            same = False
        if same and os.fstat(fd).st_size and _read_pid(fd) is None:  # not a lock file of ours
            os.close(fd)
            raise InvalidReport(
                f"{lock} is not a knightcert lock file (no pid in it): not used, remove it", target
            )
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        remove_stale_temporaries(target)  # a writer killed -9 left its temporary files behind
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)  # while still holding the lock: a waiting opener re-checks the inode
        os.close(fd)


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Replace the file ``path`` by ``text`` in one step.

    The text goes to a temporary file created exclusively beside ``path`` (a planted link is
    never followed), is flushed to disk, and is renamed over ``path``; on any failure the
    temporary file is removed and ``path`` is unchanged (:mod:`knightcert.problems.output_file`).
    """
    write_atomic(path, text)


def read_report_text(path: str | os.PathLike[str]) -> str:
    """The text of an existing report file, checked to be readable.

    Raises
    ------
    InvalidReport
        Not a regular file (a folder, a FIFO, a device), larger than
        the size limit (``KNIGHTCERT_MAX_REPORT_BYTES``, default ``MAX_REPORT_BYTES``), unreadable,
        or not UTF-8 text; the message names the file.
    """
    text, _ = read_text(path, "report", InvalidReport)  # the one reader: see knightcert.problems.input_file
    return text


def check_output_path(path: str | os.PathLike[str], formats: tuple[str, ...], option: str) -> Path:
    """Check before any work that a report or figure can be written at ``path``.

    Raises
    ------
    InvalidReport
        Wrong ending, a folder or other non-regular file in the way, a missing
        folder, or a folder this process may not write into.
    """
    target = Path(path)
    if target.suffix.lower() not in formats:
        raise InvalidReport(f"{option} must end in {', '.join(formats)}", str(path))
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidReport(f"{option}: folder {str(folder)!r} does not exist", str(path))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InvalidReport(f"{option}: cannot write into folder {str(folder)!r}", str(path))
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    if len(os.fsencode(target.name + ".lock")) > longest:  # the lock file's name must fit too
        raise InvalidReport(
            f"{option}: File name too long for the file system (at most {longest - 5} bytes)", str(path)
        )
    try:
        exists = target.exists()
    except OSError as exc:
        raise InvalidReport(f"{option}: {exc.strerror or exc}", str(path)) from None
    if exists and not target.is_file():
        raise InvalidReport(f"{option}: exists and is not a regular file", str(path))
    if exists and not os.access(target, os.W_OK):
        raise InvalidReport(f"{option}: the file is read-only", str(path))
    return target


def check_plot_path(path: str | os.PathLike[str]) -> Path:
    """``--plot``: a writable ``.png``, ``.pdf`` or ``.svg`` path, and matplotlib installed."""
    target = check_output_path(path, PLOT_FORMATS, "--plot")
    if importlib.util.find_spec("matplotlib") is None:
        raise InvalidReport("--plot needs matplotlib: pip install 'knightcert[plot]'", str(path))
    return target


@contextlib.contextmanager
def report_locks(paths: Sequence[str | os.PathLike[str]]) -> Iterator[None]:
    """Hold :func:`report_lock` on every report of a run (one writer per report)."""
    with contextlib.ExitStack() as held:
        for path in paths:
            held.enter_context(report_lock(path))
        yield
