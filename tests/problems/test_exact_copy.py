"""The checker's compiled fast copy (``problems/checkers/exact_copy.c``) against the general copy in
Python (``plain._shared``, written apart): the same values in the same exact types on any value,
the same refusals handed back, no reference kept or lost, a stale build not used, and every check
still made when the module was not built."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightcert.problems.checkers import certify
from knightcert.problems.checkers import plain as plain_module
from knightcert.problems.checkers.plain import COPIED_PAIRS, MAX_DEPTH, plain
from knightcert.problems.instance_files import random_instance
from knightcert.registry import get_method

FAST = plain_module.FAST_COPY
needs_fast = pytest.mark.skipif(FAST is None, reason="the fast copy was not built (no C compiler at install)")


@pytest.fixture(autouse=True)
def _let_go_of_copies():
    yield
    COPIED_PAIRS.clear()


def _fast(value, depth=0, in_list=False, budget=1 << 24):
    arguments = (budget, MAX_DEPTH, COPIED_PAIRS, plain_module._array_copy, np.ndarray)
    return FAST.copy(value, depth, in_list, *arguments)  # type: ignore[union-attr]


def _general(value, in_list=False):
    return plain_module._shared(value, "answer", "answer", 0, in_list, {})


def _same(a, b) -> bool:
    """Equal values of the same exact types all the way down (arrays: same dtype and entries)."""
    if type(a) is not type(b):
        return False
    if type(a) is np.ndarray:
        return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is dict:
        return (
            list(a) == list(b)
            and all(type(k) is type(m) for k, m in zip(a, b, strict=True))
            and all(_same(a[k], b[k]) for k in a)
        )
    return a == b or (a != a and b != b)  # NaN


class _Int(int):
    pass


class _List(list):
    pass


class _Dict(dict):
    pass


class _Str(str):
    pass


atoms = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3)
keys = st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=2)
odd_keys = (
    st.builds(_Str, st.text(max_size=2)) | st.tuples(st.integers(0, 2)) | st.builds(_Int, st.integers(0, 2))
)
arrays = st.sampled_from(["i8", "i4", "u1", "f8", "?", "O", "U1"]).flatmap(
    lambda dtype: st.lists(st.integers(0, 1), max_size=4).map(lambda v: np.array(v).astype(dtype))
)
odd = st.tuples(atoms) | st.builds(_Int, st.integers()) | st.builds(set, st.lists(st.integers(), max_size=2))
squares = st.lists(st.integers(-2, 9), min_size=2, max_size=2)


def _values(leaves, subclasses: bool = True):
    def grow(inner):
        grown = st.lists(inner, max_size=10) | st.dictionaries(keys, inner, max_size=4)
        grown = grown | st.lists(squares, max_size=12)
        odd_ones = st.builds(_List, st.lists(inner, max_size=3)) | st.builds(
            _Dict, st.dictionaries(keys, inner)
        )
        return grown | odd_ones | st.dictionaries(keys | odd_keys, inner, max_size=3) if subclasses else grown

    return st.recursive(leaves | squares, grow, max_leaves=30)


@needs_fast
@settings(max_examples=400, deadline=None)
@given(_values(atoms | arrays | odd), st.booleans())
def test_the_fast_copy_makes_what_the_general_copy_makes_or_hands_the_value_back(value, in_list):
    """On exact values the two copies agree; on anything else the fast copy says NotExact (never a
    wrong copy); a value the general copy refuses is refused by name either way."""
    refused = object()
    try:
        expected = _general(value, in_list)
    except plain_module.CheckFailed:
        expected = refused
    try:
        copied = value if type(value) in plain_module._ATOMS else _fast(value, in_list=in_list)
    except FAST.NotExact:  # type: ignore[union-attr]
        return
    assert expected is not refused and _same(copied, expected)


@needs_fast
@given(_values(atoms | arrays.filter(lambda a: a.dtype.kind in "biuf"), subclasses=False))
@settings(max_examples=300, deadline=None)
def test_every_exact_value_takes_the_fast_copy_and_its_pair_lists_are_known(value):
    """A value of exact dicts (atom keys), lists, arrays of numbers and atoms is copied by the fast
    copy (never handed back), into new containers; the lists it records as pairs are lists of
    [int, int] lists."""
    copied = _fast(value) if isinstance(value, list | dict) else value
    assert _same(copied, _general(value)) and (copied is not value or not isinstance(value, list | dict))
    for pairs in COPIED_PAIRS.values():
        assert all(type(p) is list and len(p) == 2 and {type(x) for x in p} == {int} for p in pairs)


@needs_fast
def test_the_fast_copy_keeps_no_reference_and_loses_none():
    """Copies made and dropped, refused half-way, leave every object's reference count as found."""
    leaf, array = 10**30 + 7, np.arange(3)
    good = {"a": [leaf, [leaf, leaf]], "b": [[1, 2]] * 9, "c": array, "d": [array, leaf]}
    bad = {"a": [leaf, [leaf, {"z": (leaf,)}]], "b": [leaf]}  # refused at the tuple
    before = sys.getrefcount(leaf), sys.getrefcount(array), sys.getrefcount(good["b"][0])
    for _ in range(200):
        copied = _fast(good)
        assert copied["a"][1][0] is leaf and copied["c"] is not array
        del copied
        COPIED_PAIRS.clear()
        with pytest.raises(FAST.NotExact):  # type: ignore[union-attr]
            _fast(bad)
    assert (sys.getrefcount(leaf), sys.getrefcount(array), sys.getrefcount(good["b"][0])) == before


@needs_fast
def test_the_fast_copy_refuses_past_its_depth_and_its_budget():
    nested: list = [1]
    for _ in range(MAX_DEPTH):
        nested = [nested, 0]
    assert _fast(nested) == nested
    with pytest.raises(FAST.NotExact):  # type: ignore[union-attr]
        _fast([nested, 0])
    with pytest.raises(FAST.NotExact):  # type: ignore[union-attr]
        _fast([0] * 100, budget=99)
    assert _fast([0] * 100, budget=100) == [0] * 100


def test_a_stale_build_is_not_used(monkeypatch):
    """A module built from another source (a checkout's build after the source changed) is not used."""
    stale = types.SimpleNamespace(STAMP=-1)
    import knightcert.problems.checkers as package

    monkeypatch.setitem(sys.modules, "knightcert.problems.checkers.exact_copy", stale)
    monkeypatch.setattr(package, "exact_copy", stale, raising=False)
    assert plain_module._fast_copy() is None


@pytest.mark.parametrize("problem", ["path", "jump", "knights", "tour"])
def test_without_the_fast_copy_every_answer_is_still_copied_and_checked(monkeypatch, problem):
    """Not built: the general copy copies every answer, which is certified as before, and a forged
    one is still refused."""
    from knightcert.problems.independent_knights import knights_instance
    from knightcert.problems.tours import tour_instance

    instance = {
        "path": lambda: random_instance("path", 8, seed=1),
        "jump": lambda: random_instance("jump", 8, seed=1),
        "knights": lambda: knights_instance(6),
        "tour": lambda: tour_instance(6, closed=True),
    }[problem]()
    answer = get_method(problem, {"tour": "auto", "knights": "matching"}.get(problem, "bfs"))(
        instance, check=False
    )
    with_fast = certify(instance, answer)
    monkeypatch.setattr(plain_module, "FAST_COPY", None)
    without = certify(instance, answer)
    assert with_fast.verified and without.verified and with_fast.evidence == without.evidence
    assert plain({"a": [[1, 2]] * 9, "b": (1, _Int(2))}) == {"a": [[1, 2]] * 9, "b": [1, 2]}


@pytest.mark.parametrize("fast", [True, False])
def test_a_key_that_copies_to_a_list_is_refused_by_name(monkeypatch, fast):
    """A tuple key (a list once copied, which no dict holds) is refused in one line, not a TypeError."""
    if not fast:
        monkeypatch.setattr(plain_module, "FAST_COPY", None)
    instance = random_instance("path", 8, seed=1)
    answer = get_method("path", "bfs")(instance, check=False)
    out = certify(instance, answer.with_(certificate={(0, 1): 2}))
    assert not out.verified and "a key of type tuple is not an answer's" in out.info["check_error"]
