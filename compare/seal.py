"""Seals: which runs and references of a report this user's knightcert wrote, unedited.

A report is a plain file: anyone who can write it can change a row to ``verified: true`` with
another objective, or a cached reference value. Rows carry no answer to re-check, so on resume a
row counts as finished only when it is *sealed*: the report's header holds, for each run and for
the reference table, an HMAC-SHA256 of what was measured, keyed by a secret of this user
(:func:`seal_key`, a 32-byte file readable by its owner only). Whatever else reads the report
back — a resume, ``knightcert report`` — can then tell the rows this user's knightcert wrote
from rows received or edited, and re-run or label the latter.

What a seal covers is the measurement (status, objective, bound, flags, evidence, time, memory,
nodes, identity of the run; numbers that are not whole to the 4 significant digits every format
keeps); the gap, error notes and reference text are recomputed from those
on every save, so they are not sealed. The seal proves nothing about the method's answer — the
checker did that when the run was made — only that the row is the one written then.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
from collections.abc import Iterable, Mapping
from typing import Any

from knightcert.compare.harness import Row

__all__ = [
    "SEALED_FIELDS",
    "reference_seal",
    "references_sealed",
    "row_seal",
    "row_seals",
    "seal_header",
    "seal_key",
    "sealed_rows",
]

#: The fields of a row a seal covers (what was measured, and which run it was).
SEALED_FIELDS = (
    "problem",
    "instance",
    "method",
    "status",
    "objective",
    "bound",
    "time_s",
    "peak_mb",
    "nodes",
    "verified",
    "certified",
    "evidence",
    "size",
    "repeat",
    "seed",
    "instance_hash",
    "kind",
    "origin",
)
#: Bytes of the secret key.
KEY_BYTES = 32


def _key_path() -> str:
    given = os.environ.get("KNIGHTCERT_SEAL_KEY")
    if given:
        return given
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(state, "knightcert", "seal.key")


def seal_key() -> bytes | None:
    """This user's secret sealing key, created on first use (0600, never through a link); None
    when it cannot be made or is not private (then nothing is sealed and nothing read back counts
    as sealed: resumed runs are run again)."""
    path = _key_path()
    nofollow = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | nofollow, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as stream:
                stream.write(secrets.token_bytes(KEY_BYTES))
        fd = os.open(path, os.O_RDONLY | nofollow)
        with os.fdopen(fd, "rb") as stream:
            info = os.fstat(stream.fileno())
            mine = not hasattr(os, "geteuid") or info.st_uid == os.geteuid()
            if not stat.S_ISREG(info.st_mode) or not mine or info.st_mode & 0o077:
                return None
            key = stream.read(KEY_BYTES + 1)
    except OSError:
        return None
    return key if len(key) == KEY_BYTES else None


def _plain(value: Any) -> Any:
    """A value as it reads back from every report format: whole numbers exactly (12.0 and 12
    alike), other numbers to the 4 significant digits a Markdown report keeps."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return str(value)
    if number != number or number in (float("inf"), float("-inf")):
        return None if number != number else repr(number)
    if number.is_integer():
        return str(int(number))
    shown = float(f"{number:.4g}")
    return str(int(shown)) if shown.is_integer() else repr(shown)


def row_seal(key: bytes, row: Row) -> str:
    """The seal of one row: HMAC-SHA256 of its :data:`SEALED_FIELDS` under ``key`` (hex)."""
    data = row.as_dict()
    body = json.dumps([_plain(data.get(name)) for name in SEALED_FIELDS], separators=(",", ":"))
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def _run_id(row: Row) -> str:
    return json.dumps(list(row.key), separators=(",", ":"))


def row_seals(rows: Iterable[Row], key: bytes | None = None) -> dict[str, str]:
    """Run identity -> seal, for the header of a report being written (``{}`` without a key)."""
    key = seal_key() if key is None else key
    if key is None:
        return {}
    return {_run_id(row): row_seal(key, row) for row in rows}


def reference_seal(references: Mapping[str, Any], key: bytes | None = None) -> str | None:
    """The seal of a report's reference table (None without a key)."""
    key = seal_key() if key is None else key
    if key is None:
        return None
    body = json.dumps(references, sort_keys=True, separators=(",", ":"), default=repr)
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def sealed_rows(rows: Iterable[Row], header: Mapping[str, Any]) -> tuple[list[Row], list[Row]]:
    """``(sealed, unsealed)``: the rows whose seal in ``header`` matches, and the others
    (received, edited, or written without a key)."""
    key = seal_key()
    seals = header.get("seals")
    recorded = seals.get("rows") if isinstance(seals, Mapping) else None
    sealed: list[Row] = []
    unsealed: list[Row] = []
    for row in rows:
        mark = recorded.get(_run_id(row)) if isinstance(recorded, Mapping) and key is not None else None
        good = isinstance(mark, str) and key is not None and hmac.compare_digest(mark, row_seal(key, row))
        (sealed if good else unsealed).append(row)
    return sealed, unsealed


def references_sealed(header: Mapping[str, Any]) -> bool:
    """Whether the header's ``references`` are as this user's knightcert wrote them."""
    seals = header.get("seals")
    mark = seals.get("references") if isinstance(seals, Mapping) else None
    expected = reference_seal(header.get("references") or {})
    return isinstance(mark, str) and expected is not None and hmac.compare_digest(mark, expected)


def seal_header(header: dict[str, Any], rows: Iterable[Row]) -> None:
    """Put the seals of ``rows`` and of ``header["references"]`` into ``header`` (in place)."""
    key = seal_key()
    if key is None:
        header.pop("seals", None)
        return
    header["seals"] = {
        "rows": row_seals(rows, key),
        "references": reference_seal(header.get("references") or {}, key),
    }
