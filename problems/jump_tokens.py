"""A fast tokenizer for whitespace-separated non-negative integers.

Reads every number of a file in one compiled pass (:mod:`knightcert.problems.jump_scan`,
compiled ahead of time or by numba) and remembers the line of each, so that the parser can
check the structure with numpy and report positions without a Python loop over millions of
tokens. Small files are read in plain Python, with the same numbers, lines and errors.
"""

from __future__ import annotations

import re

import numpy as np

from knightcert.problems.compiled import kernel_or_numba
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.input_file import check_memory, echo

__all__ = ["ECHO_BYTES", "PLAIN_BYTES", "SEPARATORS", "tokenize"]

_MAX_DIGITS = 18
#: Bytes of a bad token looked at for the message (it is echoed cut shorter still).
ECHO_BYTES = 64
SEPARATORS = (b" ", b"\t", b"\r", b"\n")
#: Files up to this size are read in plain Python: loading the compiled scanner (about
#: 0.2 s) costs more than reading them.
PLAIN_BYTES = 1 << 16
_TOKEN = re.compile(rb"[^ \t\r\n]+")


def tokenize(data: bytes, source: str) -> tuple[np.ndarray, np.ndarray]:
    """All numbers of ``data`` and their 1-based line numbers.

    Raises
    ------
    InvalidInstance
        At the first character that is not a digit or white space (a minus
        sign, a decimal point, a letter), or a number with more than 18 digits.
    """
    if len(data) <= PLAIN_BYTES:
        return _scan_plain(data, source)
    buf = np.frombuffer(data, dtype=np.uint8)
    capacity = buf.size // 2 + 1
    check_memory(12 * capacity, f"reading {buf.size} bytes of numbers", source)
    values = np.empty(capacity, dtype=np.int64)
    lines = np.empty(capacity, dtype=np.int32)
    status, n = kernel_or_numba("scan", "knightcert.problems.jump_scan")(buf, values, lines, _MAX_DIGITS)
    if status < 0:
        _raise_at(data, -1 - status, source)
    return values[:n], lines[:n]


def _scan_plain(data: bytes, source: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`tokenize` in plain Python, for small files (no compiled kernel to load)."""
    values: list[int] = []
    lines: list[int] = []
    line = 1
    counted = 0  # newlines counted up to here
    for match in _TOKEN.finditer(data):
        token = match.group()
        if not token.isdigit() or len(token) > _MAX_DIGITS:  # bytes.isdigit: ASCII digits only
            _raise_at(data, match.start(), source)
        line += data.count(b"\n", counted, match.start())
        counted = match.start()
        values.append(int(token))
        lines.append(line)
    return np.array(values, dtype=np.int64), np.array(lines, dtype=np.int32)


def _raise_at(data: bytes, position: int, source: str) -> None:
    line = data.count(b"\n", 0, position) + 1
    line_start = data.rfind(b"\n", 0, position) + 1
    begin = position
    while begin > line_start and data[begin - 1 : begin] not in (b" ", b"\t"):
        begin -= 1
    end = position
    while end < len(data) and end - begin <= 4 * ECHO_BYTES and data[end : end + 1] not in SEPARATORS:
        end += 1
    token = data[begin:end].decode("utf-8", errors="replace")
    column = len(data[line_start:begin].decode("utf-8", errors="replace")) + 1
    if token.startswith("-") and token[1:].isdigit():
        what = f"negative number {echo(token)}: values and positions must be >= 0"
    elif token.isdigit():
        what = f"number {echo(token)} has more than {_MAX_DIGITS} digits"
    else:
        what = f"expected a non-negative integer, found {echo(token)!r}"
    raise InvalidInstance(what, source, line, column)
