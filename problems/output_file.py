"""The one writer of every file knightcert creates: nothing planted in its way is followed.

Reports, their CSV sidecars, Parquet tables, answer files (``--save``, ``--answers``),
figures (``--plot``), ``--npy`` arrays and report lock files all go through this module, so that
for each of them:

* the bytes go to a temporary file created *exclusively* in the target's folder
  (``O_CREAT | O_EXCL | O_NOFOLLOW``, :func:`tempfile.mkstemp`): a symbolic link or a file
  planted at a guessable name is never opened, let alone truncated;
* the temporary file is flushed to disk and renamed over the target (:func:`os.replace`),
  which *replaces* a link planted at the target instead of following it; a reader sees the old
  file or the new one, never a mix; on any failure the temporary file is removed;
* a lock file is opened without following a link and used only when it is a regular file with
  one name, owned by this user (:func:`open_lock_file`);
* the temporary files of a writer that died (``kill -9``) are removed by the next writer of the
  same target (:func:`remove_stale_temporaries`), the writer's pid being part of their name;
* a failure to write (a full disk, a name too long, no permission) is one
  :class:`~knightcert.problems.errors.InvalidArgument` naming the file and the reason, never a
  traceback.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from typing import IO, Any

from knightcert.problems.errors import InvalidArgument, KnightcertError

__all__ = [
    "TEMPORARY_SUFFIX",
    "atomic_output",
    "cannot_write",
    "file_mode",
    "open_lock_file",
    "remove_stale_temporaries",
    "write_atomic",
]

#: Every temporary file ends ``.<pid>.tmp`` (the writer's pid, so a dead writer's leftovers are known).
TEMPORARY_SUFFIX = ".tmp"
#: Characters of the target's name kept in its temporary's name (a long name still leaves room).
_NAME_KEPT = 80


def cannot_write(path: str | os.PathLike[str], exc: OSError) -> InvalidArgument:
    """The one-line error for an ``OSError`` while writing ``path`` (full disk, long name, ...)."""
    reason = exc.strerror or type(exc).__name__
    if exc.errno == errno.ELOOP:
        reason = "it is a symbolic link, which is never followed"
    return InvalidArgument(f"{os.fspath(path)}: cannot write ({reason})")


def _prefix(name: str) -> str:
    return f".{name[:_NAME_KEPT]}."


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str], binary: bool = False) -> Iterator[IO[Any]]:
    """A stream whose contents replace the file ``path`` when the ``with`` block ends without error.

    The stream writes a temporary file created exclusively beside ``path``; at the end it is
    flushed, synced and renamed over ``path`` (a symbolic link at ``path`` is replaced, never
    followed). On an exception the temporary file is removed and ``path`` is unchanged.

    Raises
    ------
    InvalidArgument
        The file cannot be written (full disk, name too long, no permission); names the file.
    """
    target = os.fspath(path)
    folder, name = os.path.split(os.path.abspath(target))
    try:
        fd, temporary = tempfile.mkstemp(
            dir=folder, prefix=_prefix(name), suffix=f".{os.getpid()}{TEMPORARY_SUFFIX}"
        )
    except OSError as exc:
        raise cannot_write(target, exc) from None
    try:
        try:
            opened: IO[Any] = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")
            with opened as stream:
                yield stream
                stream.flush()
                os.fsync(stream.fileno())
                os.fchmod(stream.fileno(), file_mode(target))  # the temporary was made 0600
            os.replace(temporary, target)
        except OSError as exc:
            raise cannot_write(target, exc) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def file_mode(replaced: str = "") -> int:
    """The permissions a finished file gets: those of the regular file ``replaced`` (when there is
    one), else what the umask leaves of 0o666 (read from ``/proc``, never set: ``os.umask`` would
    change it for every thread of the caller), else 0o644."""
    with contextlib.suppress(OSError):
        if stat.S_ISREG((info := os.lstat(replaced)).st_mode):
            return stat.S_IMODE(info.st_mode)
    with (
        contextlib.suppress(OSError, ValueError, IndexError, StopIteration),
        open("/proc/self/status") as status,
    ):
        return 0o666 & ~int(next(line for line in status if line.startswith("Umask:")).split()[1], 8)
    return 0o644


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Replace the file ``path`` by ``data`` (text as UTF-8) in one step; see :func:`atomic_output`."""
    with atomic_output(path, binary=isinstance(data, bytes)) as stream:
        stream.write(data)


def open_lock_file(path: str | os.PathLike[str], error: type[KnightcertError] = InvalidArgument) -> int:
    """A read-write descriptor of the lock file ``path``, created if missing, never through a link.

    Raises
    ------
    InvalidArgument (or ``error``)
        ``path`` is a symbolic link, not a regular file, has more than one name (a hard link to
        someone else's file), belongs to another user, or cannot be created.
    """
    lock = os.fspath(path)
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(lock, flags, 0o600)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise error(
                f"{lock}: the lock file is a symbolic link, which is never followed; remove it"
            ) from None
        raise error(f"{lock}: cannot create the lock file ({exc.strerror or exc})") from None
    info = os.fstat(fd)
    why = None
    if not stat.S_ISREG(info.st_mode):
        why = "is not a regular file"
    elif info.st_nlink != 1:
        why = "has other names (a hard link)"
    elif hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        why = "belongs to another user"
    if why is not None:
        os.close(fd)
        raise error(f"{lock}: the lock file {why}; not used, remove it")
    return fd


def remove_stale_temporaries(path: str | os.PathLike[str]) -> list[str]:
    """Remove the temporary files of writers of ``path`` (and of its sidecars) that are dead.

    Call it while holding the target's lock. A temporary is removed only when its name is one
    this module makes for ``path``, the pid in its name is no running process, and it is a
    regular file of this user. Returns the names removed.
    """
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    prefix = _prefix(name)
    removed: list[str] = []
    try:
        entries = os.listdir(folder)
    except OSError:
        return removed
    for entry in entries:
        if not (entry.startswith(prefix) and entry.endswith(TEMPORARY_SUFFIX)):
            continue
        pid_text = entry[: -len(TEMPORARY_SUFFIX)].rpartition(".")[2]
        if not pid_text.isdigit() or _running(int(pid_text)):
            continue
        full = os.path.join(folder, entry)
        try:
            info = os.lstat(full)
            if stat.S_ISREG(info.st_mode) and (not hasattr(os, "geteuid") or info.st_uid == os.geteuid()):
                os.unlink(full)
                removed.append(entry)
        except OSError:
            continue
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
