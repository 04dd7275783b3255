"""Strict field checks shared by the checkers and the answer files.

Every value a checker reads from an answer — objective, bound, coordinates,
certificate entries — must be a finite integer of the right shape. Nothing is
truncated or rounded: ``2.5``, ``2.0``, ``NaN``, ``inf``, ``True`` and ``"2"``
are all refused with a message naming the field, so that the answer checked
is always the answer reported.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from typing import Any

import numpy as np

from knightcert.problems.checkers.failure import CheckFailed
from knightcert.problems.checkers.plain import exact_pairs

__all__ = [
    "bool_array",
    "describe_value",
    "grid",
    "int_array",
    "integer",
    "is_integer",
    "optional_integer",
    "squares",
]

_INT_TYPES = (int, np.integer)
_BOOL_TYPES = (bool, np.bool_)  # a tuple, not a union: is_integer runs for every integer field


def describe_value(value: Any) -> str:
    """A short text for a refused value (``NaN``, ``inf``, ``2.5``, ``True``, ``'2'``)."""
    if isinstance(value, float | np.floating):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "-inf" if value < 0 else "inf"
    text = repr(value.item() if isinstance(value, np.generic) else value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_integer(value: Any) -> bool:
    """True for ``int`` and numpy integers, never for ``bool`` or floats."""
    return isinstance(value, _INT_TYPES) and not isinstance(value, _BOOL_TYPES)


def integer(value: Any, field: str, *, minimum: int | None = 0, claim: str = "answer") -> int:
    """``value`` as an ``int``; CheckFailed naming ``field`` unless it is an integer >= ``minimum``.

    Examples
    --------
    >>> integer(3, "objective")
    3
    >>> integer(2.0, "objective")
    Traceback (most recent call last):
    ...
    knightcert.problems.checkers.failure.CheckFailed: objective: 2.0 is not an integer
    """
    if not is_integer(value):
        raise CheckFailed(f"{field}: {describe_value(value)} is not an integer", claim=claim)
    value = int(value)
    if minimum is not None and value < minimum:
        raise CheckFailed(f"{field}: {value} is below {minimum}", claim=claim)
    return value


def optional_integer(value: Any, field: str, *, minimum: int | None = 0, claim: str = "answer") -> int | None:
    """``None``, or :func:`integer` (an exact ``int`` in range is returned at once)."""
    exact = value is None or (type(value) is int and (minimum is None or value >= minimum))
    return value if exact else integer(value, field, minimum=minimum, claim=claim)


def int_array(
    value: Any,
    field: str,
    shape: tuple[int | None, ...] | None = None,
    *,
    minimum: int | None = None,
    claim: str = "answer",
    narrow: bool = False,
) -> np.ndarray:
    """``value`` (nested lists or an integer numpy array) as an int64 array of ``shape`` (with
    ``narrow``, an int32 array is kept as it is: half the bytes to read).

    ``None`` in ``shape`` matches any length. Lists are checked element by
    element (C-speed iteration): every entry must be an ``int``, never a
    ``bool``, a float or a string. Numpy arrays must have an integer dtype.

    Raises
    ------
    CheckFailed
        A non-integer entry (the first one is named with its index), a
        ragged list, a wrong shape or an entry below ``minimum``.

    Notes
    -----
    O(size) time.
    """
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "iu":
            _refuse_array(value, field, claim)
        array = value if narrow and value.dtype == np.int32 else value.astype(np.int64, copy=False)
    elif isinstance(value, list | tuple):
        array = _from_lists(value, field, claim)
    else:
        raise CheckFailed(f"{field}: expected a list of integers, got {describe_value(value)}", claim=claim)
    if shape is not None and (
        array.ndim != len(shape)
        or any(want is not None and got != want for got, want in zip(array.shape, shape, strict=True))
    ):
        want = " x ".join("n" if s is None else str(s) for s in shape)
        got = " x ".join(str(s) for s in array.shape)
        raise CheckFailed(f"{field}: shape {got or 'scalar'}, expected {want}", claim=claim)
    if minimum is not None and array.size and array.min() < minimum:
        where = np.unravel_index(int(np.argmin(array)), array.shape)
        raise CheckFailed(
            f"{field}{list(map(int, where))}: {int(array[where])} is below {minimum}", claim=claim
        )
    return array


def grid(
    value: Any, field: str, shape: tuple[int, int], *, minimum: int | None = None, claim: str = "answer"
) -> np.ndarray:
    """A per-square integer array of the board's ``shape``, given as such or flat (row-major); int64,
    or int32 when given so."""
    return _shaped(int_array(value, field, minimum=minimum, claim=claim, narrow=True), field, shape, claim)


def bool_array(value: Any, field: str, shape: tuple[int, ...], *, claim: str = "answer") -> np.ndarray:
    """A boolean mask: a numpy bool array, or integers that are all 0 or 1."""
    if isinstance(value, np.ndarray) and value.dtype == np.bool_:
        array = value
    elif isinstance(value, list | tuple) and _all_bools(value):
        array = np.asarray(value, dtype=bool)
    else:
        array = int_array(value, field, claim=claim)
        if array.size and (array.min() < 0 or array.max() > 1):
            raise CheckFailed(f"{field}: entries must be 0 or 1 (or booleans)", claim=claim)
        array = array.astype(bool)
    return _shaped(array, field, shape, claim)


def _shaped(array: np.ndarray, field: str, shape: tuple[int, ...], claim: str) -> np.ndarray:
    """``array`` in ``shape``, given as such or flat (row-major); CheckFailed if neither."""
    if array.ndim == 1 and array.size == math.prod(shape):
        return array.reshape(shape)
    if array.shape != shape:
        raise CheckFailed(f"{field}: shape {array.shape}, expected {shape} (or flat)", claim=claim)
    return array


def squares(value: Any, field: str, *, claim: str = "answer") -> np.ndarray:
    """A list of ``[row, col]`` pairs as an (n, 2) int64 array (an empty list is allowed)."""
    if exact_pairs(value) and value:  # a list of [int, int] lists, read at C speed
        with contextlib.suppress(OverflowError):  # beyond 64 bits: refused below
            return np.fromiter(itertools.chain.from_iterable(value), np.int64, 2 * len(value)).reshape(-1, 2)
    if isinstance(value, list | tuple):
        if len(value) == 0:
            return np.zeros((0, 2), dtype=np.int64)
        for i, item in enumerate(value):
            if not (isinstance(item, list | tuple | np.ndarray) and len(item) == 2):
                raise CheckFailed(
                    f"{field}[{i}]: {describe_value(item)} is not a [row, col] pair", claim=claim
                )
    return int_array(value, field, (None, 2), claim=claim)


def _from_lists(value: list | tuple, field: str, claim: str) -> np.ndarray:
    depth, probe = 0, value
    while isinstance(probe, list | tuple):
        if len(probe) == 0:
            break
        depth += 1
        probe = probe[0]
    flat: Any = value
    for _level in range(max(depth - 1, 0)):
        for item in flat:
            if not isinstance(item, list | tuple):
                raise CheckFailed(f"{field}: {describe_value(item)} is not a list (ragged)", claim=claim)
        flat = list(itertools.chain.from_iterable(flat))
    kinds = set(map(type, flat))
    if not all(issubclass(kind, _INT_TYPES) and not issubclass(kind, bool | np.bool_) for kind in kinds):
        wrong = [i for i, x in enumerate(flat) if not is_integer(x)]
        # name the most telling entry: NaN, inf or a fraction before a float that happens to be whole
        bad = next((i for i in wrong if not _whole_float(flat[i])), wrong[0])
        raise CheckFailed(
            f"{field}: entry {_position(value, bad)} is {describe_value(flat[bad])}, not an integer",
            claim=claim,
        )
    try:
        return np.array(value, dtype=np.int64)
    except (ValueError, OverflowError) as exc:
        raise CheckFailed(f"{field}: not a regular array of integers ({exc})", claim=claim) from None


def _whole_float(value: Any) -> bool:
    return isinstance(value, float | np.floating) and math.isfinite(value) and float(value).is_integer()


def _position(value: Any, flat_index: int) -> list[int]:
    """The nested index of the ``flat_index``-th scalar of a regular nested list (best effort)."""
    shape, probe = [], value
    while isinstance(probe, list | tuple) and probe:
        shape.append(len(probe))
        probe = probe[0]
    try:
        return [int(i) for i in np.unravel_index(flat_index, shape)]
    except ValueError:
        return [flat_index]


def _all_bools(value: Any) -> bool:
    flat = value
    while flat and isinstance(flat[0], list | tuple):
        flat = list(itertools.chain.from_iterable(flat))
    return bool(flat) and all(type(x) is bool or isinstance(x, np.bool_) for x in flat)


def _refuse_array(value: np.ndarray, field: str, claim: str) -> None:
    if value.dtype.kind == "f":
        bad = ~np.isfinite(value) | (value != np.round(value))
        if bad.any():
            where = [int(i) for i in np.unravel_index(int(np.flatnonzero(bad)[0]), value.shape)]
            raise CheckFailed(
                f"{field}: entry {where} is {describe_value(value[tuple(where)])}, not an integer",
                claim=claim,
            )
    raise CheckFailed(f"{field}: array of {value.dtype}, expected integers", claim=claim)
