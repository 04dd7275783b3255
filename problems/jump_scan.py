"""The compiled pass of the jump-game tokenizer (numba): every number of a buffer and its line.

Loaded only for files larger than :data:`knightcert.problems.jump_tokens.PLAIN_BYTES`.
"""

from __future__ import annotations

from numba import njit

__all__ = ["scan"]


@njit(cache=True, nogil=True)
def scan(buf, values, lines, max_digits):  # pragma: no cover - compiled
    """Numbers of ``buf`` into ``values`` and their lines into ``lines``: ``(n, n)``, or
    ``(-1 - position, n)`` at the first byte that is neither a digit nor a separator (or a
    number past ``max_digits`` digits)."""
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
                if digits > max_digits:
                    return -1 - i, n
            if i < size and not (buf[i] == 32 or buf[i] == 9 or buf[i] == 13 or buf[i] == 10):
                return -1 - i, n
            values[n] = v
            lines[n] = line
            n += 1
        else:
            return -1 - i, n
    return n, n
