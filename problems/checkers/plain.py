"""Copy what a method hands over into exact plain types before anything checks it.

A method's objects are not trusted: a ``list`` subclass can lie about its
length, an ``int`` subclass about its value, a ``dict`` subclass about its
items, an array subclass about its contents, and any of them can change
between two reads. :func:`plain` copies a value once, through the base types'
own storage (a subclass's overridden methods are not called, but for a ``dict``
subclass's ``keys`` and ``__getitem__``, which ``dict.copy`` reads once), into ``list``, ``dict``,
``str``, ``int``, ``bool``, ``float`` and ``None`` (numpy arrays of numbers stay
arrays, copied as base ``ndarray``); everything the checker reads afterwards is
that copy.

Examples
--------
>>> class Liar(list):
...     def __len__(self):
...         return 100
>>> plain(Liar([[0, 0], [1, 2]]))
[[0, 0], [1, 2]]
>>> type(plain(True)), type(plain(3)), plain({"a": (1, 2)})
(<class 'bool'>, <class 'int'>, {'a': [1, 2]})
"""

from __future__ import annotations

import zlib
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from knightcert.problems.checkers.failure import CheckFailed
from knightcert.problems.compiled import built
from knightcert.problems.result import Result, Status

__all__ = ["COPIED_PAIRS", "FAST_COPY", "MAX_DEPTH", "exact_pairs", "exact_result", "plain", "sole_holder"]

#: Deepest nesting accepted (an answer is at most a list of pairs inside a dict inside a dict).
MAX_DEPTH = 32
#: Items :func:`plain`'s fast copy makes at most (past them, the general copy takes over).
_FAST_ITEMS = 1 << 24
#: The exact immutable types a copy keeps as they are.
_ATOMS = frozenset({type(None), bool, int, float, str})
#: The lists of ``[int, int]`` pairs the checks under way copied (or found exact), by id (each held:
#: no other list can take its id), known to :func:`exact_pairs` without a second pass; nothing but
#: the check holds them until :func:`~knightcert.problems.checkers.certify` returns and empties this.
COPIED_PAIRS: dict[int, list] = {}


def plain(
    value: Any, field: str = "answer", claim: str = "answer", depth: int = 0, in_list: bool = False
) -> Any:
    """``value`` copied into exact plain types (see the module docstring).

    Exact ``dict``, ``list``, base arrays and atoms all the way down (every answer the library's
    methods make) take the fast copy, compiled (:data:`FAST_COPY`): each object copied where it is
    met (a path the answer's table shares with its winner, twice), within :data:`_FAST_ITEMS`
    items; anything else, an answer that shares its lists over and over, and every value when the
    fast copy was not built, the general copy, which copies each object once and shares it in the
    copy too.

    Raises
    ------
    CheckFailed
        Nesting deeper than :data:`MAX_DEPTH`, or a value of a type no answer holds
        (the message names ``field``).
    """
    if type(value) in _ATOMS:
        return value
    if FAST_COPY is not None:
        try:  # exact dicts, lists and base arrays all the way down: copied without a question to ask
            return FAST_COPY.copy(value, depth, in_list, _FAST_ITEMS, MAX_DEPTH, *_FAST_TOOLS)
        except FAST_COPY.NotExact:  # anything else: the general copy, which converts or refuses it by name
            pass
    return _shared(value, field, claim, depth, in_list, {})


def _array_copy(array: np.ndarray, in_list: bool) -> Any:
    """The fast copy's copy of a base array: its numbers in a new base array (a list inside a list)."""
    if array.dtype.kind not in "biuf":
        raise FAST_COPY.NotExact  # type: ignore[union-attr]  # called by the fast copy only
    copy = np.array(array, subok=False, copy=True)
    return copy.tolist() if in_list else copy


def _fast_copy() -> Any:
    """The compiled fast copy (``exact_copy.c``) when it was built from the source beside it (when
    that was shipped), else None."""
    source = Path(__file__).with_name("exact_copy.c")
    stamp = zlib.crc32(source.read_bytes()) & 0x7FFFFFFF if source.exists() else None
    return built(f"{__package__}.exact_copy", lambda module: stamp in (None, module.STAMP))


#: The compiled fast copy, or None (:func:`_fast_copy`); what it is given besides a value and its limits.
FAST_COPY, _FAST_TOOLS = _fast_copy(), (COPIED_PAIRS, _array_copy, np.ndarray)


def _shared(value: Any, field: str, claim: str, depth: int, in_list: bool, seen: dict) -> Any:
    """:func:`plain`, each object of the answer copied once (``seen``: (id, in_list) -> (copy,
    depth)); met again deeper than its copy was made, copied again there (its depth checked)."""
    if type(value) in _ATOMS:
        return value
    known = seen.get((id(value), in_list))
    if known is None or known[1] < depth:
        known = seen[id(value), in_list] = (_plain(value, field, claim, depth, in_list, seen), depth)
    return known[0]


def _plain(value: Any, field: str, claim: str, depth: int, in_list: bool, seen: dict) -> Any:
    if depth > MAX_DEPTH:
        raise CheckFailed(f"{field}: nested deeper than {MAX_DEPTH} levels", claim)
    if isinstance(value, list):  # containers first: an answer is mostly lists and dicts
        items = list.copy(value)
    elif isinstance(value, tuple):
        items = list(tuple.__getitem__(value, slice(None)))
    elif isinstance(value, dict):
        at = (field, claim, depth + 1, False, seen)  # exact immutable keys and values kept, the rest copied
        return {
            k if type(k) in _ATOMS else _key(k, *at): v if type(v) in _ATOMS else _shared(v, *at)
            for k, v in dict.items(dict.copy(value))
        }
    elif isinstance(value, np.ndarray):
        array = np.array(value, subok=False, copy=True)
        if array.dtype.kind not in "biuf":
            raise CheckFailed(f"{field}: an array of {array.dtype} is not an answer's", claim)
        return array.tolist() if in_list else array  # a row inside a list becomes a list too
    elif isinstance(value, (bool, np.bool_)):
        return bool(value)
    elif isinstance(value, np.integer):
        return int(value.item())
    elif isinstance(value, int):  # a subclass: its value from int's own storage
        return int(int.__repr__(value))
    elif isinstance(value, (np.floating, float)):
        return float(float.__repr__(float(value)) if isinstance(value, float) else value.item())
    elif isinstance(value, str):
        return str.__add__(value, "")
    else:
        raise CheckFailed(f"{field}: a {type(value).__name__} is not a value an answer holds", claim)
    exact = _flat_list(items)  # atoms, or lists of atoms (squares): read at C speed
    return (
        exact if exact is not None else [_shared(item, field, claim, depth + 1, True, seen) for item in items]
    )


def _key(key: Any, field: str, claim: str, *at: Any) -> Any:
    """A key that is not an atom, copied (``at``: its depth, in_list, seen): an atom (a subclass's
    value), else refused by name (a tuple would become a list, which no dict can hold)."""
    if type(copied := _shared(key, field, claim, *at)) not in _ATOMS:
        raise CheckFailed(f"{field}: a key of type {type(key).__name__} is not an answer's", claim)
    return copied


def _flat_list(copy: list) -> list | None:
    """``copy`` (a list's own copy) when it holds only atoms; a copy of it when it holds only lists
    of atoms (squares), made at C speed; else None. Lists of ``[int, int]`` pairs are recorded in
    :data:`COPIED_PAIRS`."""
    kinds = set(map(type, copy))
    if kinds <= _ATOMS:
        return copy
    if kinds != {list}:
        return None
    rows = list(map(list.copy, copy))
    atoms = set(map(type, _flat(rows)))
    if atoms <= {int} and set(map(len, rows)) <= {2}:
        COPIED_PAIRS[id(rows)] = rows  # exact pairs: exact_pairs() knows without a second pass
    return rows if atoms <= _ATOMS else None


def exact_result(result: Any, *, sole_holder: bool = False, problem: str | None = None) -> Any:
    """``result`` rebuilt as an exact :class:`~knightcert.problems.result.Result` of plain values.

    Read from the stored fields (``vars``), so a subclass's properties and methods
    (a ``certified`` that always says yes) are gone; the answer's fields are copied by
    :func:`plain`, except what is already exact (a list of ``[int, int]`` lists, a base
    numpy array: checked at C speed, so large answers cost little); ``info`` is copied
    one level deep; ``evidence`` is dropped (the checker recomputes it).

    ``problem``: the problem to name instead of the answer's own, with a check's words
    (``check_error``, ``rejected_claim``) left out of ``info``.

    ``sole_holder``: the caller has established (:func:`sole_holder`) that ``result`` is
    the only holder of its solution array, so nothing the method kept can change it; the
    array is then taken as it is instead of copied (8 bytes per square of a tour saved).

    Raises
    ------
    CheckFailed
        Not a Result; a status that is not a :class:`Status`; a field :func:`plain` refuses.
    """
    if not isinstance(result, Result):
        raise CheckFailed(f"answer: a {type(result).__name__} is not a Result")
    stored = vars(result)
    values = _UNSET | stored if _UNSET.keys() >= stored.keys() else {f: stored.get(f) for f in _FIELDS}
    status = values["status"]
    if type(status) is not Status:
        raise CheckFailed(f"status: {status!r} is not a Status")
    for name in ("objective", "bound", "nodes"):
        if type(values[name]) not in _ATOMS:  # (an atom is its own copy)
            values[name] = plain(values[name], name)
    values["certificate"] = plain(values["certificate"], "certificate", "optimal")
    info = values["info"]
    drop = () if problem is None else ("check_error", "rejected_claim")
    values["info"] = {k: v for k, v in dict.items(info) if k not in drop} if isinstance(info, dict) else {}
    for name in ("problem", "method", "instance"):
        if type(values[name]) is not str:
            text = values[name] if isinstance(values[name], str) else _text(values[name], name)
            values[name] = plain(text, name)
    values["problem"] = values["problem"] if problem is None else problem
    time = values["time"]
    integer = isinstance(time, int) and type(time) is not bool
    kind: Any = float if isinstance(time, float) else int if integer else None
    try:  # the base type's own conversion (a subclass's __float__ is not called); 0.0 past a float's range
        values["time"] = 0.0 if kind is None else kind.__float__(time)
    except OverflowError:
        values["time"] = 0.0
    values.update(verified=False, evidence=())
    values["solution"] = _exact_solution(values["solution"], sole_holder)  # last: no code of the answer's
    clean = object.__new__(Result)  # every field set at once (``__init__`` sets them one by one;
    vars(clean).update(values)  # its counts are exact ints or None already: plain made them so)
    return clean


def _text(value: Any, field: str) -> str:
    """``str(value)``, the answer's own conversion (a name, an instance's label); CheckFailed when it
    fails (a ``__str__`` that raises, an int too long to print)."""
    try:
        return str(value)
    except Exception as exc:  # any error of the answer's own code: refused, never a traceback
        raise CheckFailed(f"{field}: not readable as text ({type(exc).__name__})") from None


def sole_holder(result: Any) -> bool:
    """True when ``result`` is the only holder of its solution, a base numpy array that owns
    its memory: no other object (the method's own Result, a view, a memoryview, a list)
    refers to the array, so no code but the holder of ``result`` can change it.

    By reference count (CPython before 3.14, whose counts may leave out borrowed references;
    elsewhere False, and the array is copied). Meant for the caller that made ``result``
    itself from the method's answer (:func:`knightcert.solving.run`); code that can
    reach any object of the process (``gc``, ``ctypes``) is beyond any check.
    """
    import sys

    solution = vars(result).get("solution")
    return (
        sys.implementation.name == "cpython"
        and sys.version_info < (3, 14)
        and type(solution) is np.ndarray
        and solution.base is None
        and bool(solution.flags.owndata)
        and sys.getrefcount(solution) == 3  # result's field, ``solution`` here, getrefcount's argument
    )


def exact_pairs(value: Any) -> bool:
    """Whether ``value`` is already exact as a list of squares: a ``list`` of ``[int, int]``
    ``list`` pairs, every type the base type itself (nothing to copy or convert).

    Examples
    --------
    >>> exact_pairs([[0, 1], [2, 3]]), exact_pairs([(0, 1)]), exact_pairs([[0, True]])
    (True, False, False)
    """
    return COPIED_PAIRS.get(id(value)) is value or (
        type(value) is list
        and set(map(type, value)) <= {list}
        and set(map(len, value)) <= {2}
        and set(map(type, _flat(value))) <= {int}
    )


def _exact_solution(solution: Any, sole_holder: bool = False) -> Any:
    if type(solution) is np.ndarray:
        return solution if sole_holder else solution.copy()
    if exact_pairs(solution):  # a list of [int, int] lists: kept, and known as such to the checks
        COPIED_PAIRS[id(solution)] = solution  # (read last: no code of the answer's runs until then)
        return solution
    return plain(solution, "solution")


_FIELDS = tuple(Result.__dataclass_fields__)
_UNSET = dict.fromkeys(_FIELDS)  # a field never set: None (any other attribute is not read)
_flat = chain.from_iterable  # the entries of a list of lists, one after another
