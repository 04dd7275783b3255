"""A fast tokenizer for whitespace-separated non-negative integers (numba).

Reads every number of a file in one compiled pass and remembers the line of
each, so that the parser can check the structure with numpy and report
positions without a Python loop over millions of tokens.
"""

from __future__ import annotations

import numpy as np
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.input_file import check_memory, echo
from numba import njit

_MAX_DIGITS = 18
#: Bytes of a bad token looked at for the message (it is echoed cut shorter still).
ECHO_BYTES = 64
SEPARATORS = (b" ", b"\t", b"\r", b"\n")


@njit(cache=True, nogil=True)
def _scan(buf, values, lines):  # pragma: no cover - compiled
    n = 0
    line = 1
    i = 0
    size = buf.size
    while i < size:
        b = buf[i]
        if b == 10:
            line += 1
            i += 1
        elif b == 32 or b == 9 or b == 13:
            i += 1
        elif 48 <= b <= 57:
            v = 0
            digits = 0
            while i < size and 48 <= buf[i] <= 57:
                v = v * 10 + (buf[i] - 48)
                digits += 1
                i += 1
                if digits > _MAX_DIGITS:
                    return -1 - i, n
            if i < size and not (buf[i] == 32 or buf[i] == 9 or buf[i] == 13 or buf[i] == 10):
                return -1 - i, n
            values[n] = v
            lines[n] = line
            n += 1
        else:
            return -1 - i, n
    return n, n


def tokenize(data: bytes, source: str) -> tuple[np.ndarray, np.ndarray]:
    """All numbers of ``data`` and their 1-based line numbers.

    Raises
    ------
    InvalidInstance
        At the first character that is not a digit or white space (a minus
        sign, a decimal point, a letter), or a number with more than 18 digits.
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    capacity = buf.size // 2 + 1
    check_memory(12 * capacity, f"reading {buf.size} bytes of numbers", source)
    values = np.empty(capacity, dtype=np.int64)
    lines = np.empty(capacity, dtype=np.int32)
    status, n = _scan(buf, values, lines)
    if status < 0:
        _raise_at(data, -1 - status, source)
    return values[:n], lines[:n]


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
