"""Tests that kill the survivors of the mutation run over the checker code changed since 1fe5ccf
(``bench/mutation/passes.py``, the warm plug-in; docs/certificates.md, "Mutation testing"): the
fast copy of :func:`~knightcert.problems.checkers.plain.plain` (its budget, its depth, the objects
it leaves to the general copy), ``optional_integer``'s fast path, the jump table's counts and the
int32 labels of the path and jump checks. Each is small and deterministic."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from knightcert.algorithms.jump_search import bfs
from knightcert.problems.board import Board
from knightcert.problems.checkers import CheckFailed, check
from knightcert.problems.checkers.fields import integer, optional_integer
from knightcert.problems.checkers.jump import labels as jump_labels
from knightcert.problems.checkers.path import check_distance_labels
from knightcert.problems.checkers.plain import COPIED_PAIRS, MAX_DEPTH, exact_pairs, plain
from knightcert.problems.jump_game import parse_jump
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.result import Result, Status

#: Items the fast copy makes at most (``_FAST_ITEMS``, its docstring's budget): past them, the general copy.
FAST_ITEMS = 1 << 24


@pytest.fixture(autouse=True)
def _let_go_of_copies():
    """plain called outside a check registers its pair lists; let them go as certify would."""
    yield
    COPIED_PAIRS.clear()


class _EqualsEveryType(type):
    """A metaclass whose classes claim to equal every type (``==``), while ``is`` still tells them apart."""

    def __eq__(cls, other):
        return True

    __hash__ = type.__hash__


class _Int(int):
    pass


class _Str(str):
    pass


# ------------------------------------------------------------------------------- the fast copy's budget


def _fast(value, pad: int, short_last: bool) -> bool:
    """Whether plain takes the fast copy of a dict holding ``value``, an int8 array of ``pad``
    entries and one short list twice: the fast copy copies that list twice, the general copy once
    (and shares it). The dict costs 4 items, the short list 64 each time; ``short_last``: the
    budget's last spending is the short list's (else the array's)."""
    shared = [0]
    pad_array = np.zeros(pad, np.int8)
    parts = (
        {"pad": pad_array, "value": value, "a": shared, "b": shared}
        if short_last
        else {"a": shared, "b": shared, "value": value, "pad": pad_array}
    )
    copied = plain(parts)
    if not isinstance(value, np.ndarray):
        assert copied["value"] == value
    assert copied["a"] == [0] and copied["a"] is not shared and copied["pad"].size == pad
    return copied["a"] is not copied["b"]


@pytest.mark.parametrize(
    ("value", "cost"),
    [
        (None, 0),  # an atom: nothing spent
        ([1, 2], 64),  # a short list: 64 items
        ([0] * 8, 64),  # eight items is still short
        ([0] * 9, 9),  # a long list of atoms: its items
        ([[0, 1]] * 9, 9 + 9 * 2),  # a long list of squares: its items and theirs
        ([[0, 1, 2]] * 12, 12 + 12 * 3),
        ([[None, True, 2, 2.5, "a"]] * 9, 9 + 9 * 5),  # lists of every atom type: copied at once
        ([{"k": 1}] * 9, 9 + 9 * 1),  # a long list of dicts: item by item
        ({"k": 1, "m": 2}, 2),  # a dict: its keys
        (np.zeros(5), 5),  # an array: its entries
    ],
)
@pytest.mark.parametrize("short_last", [False, True])
def test_the_fast_copy_spends_its_budget_to_the_last_item_then_leaves_it_to_the_general_copy(
    value, cost, short_last
):
    """The fast copy makes at most 2 ** 24 items (an answer sharing its lists over and over is
    left to the general copy, which shares them): exactly the budget is still the fast copy, one
    item more the general one, whichever check spends the last item."""
    fits = FAST_ITEMS - 4 - 2 * 64 - cost
    assert _fast(value, fits, short_last)
    assert not _fast(value, fits + 1, short_last)


def test_the_fast_copy_copies_a_shared_list_where_it_is_met():
    """Below the budget, a list met twice (a path the answer's table shares with its winner) is
    copied twice; in a dict of every atom type as keys too (those keys run no code)."""
    shared = [0, 1]
    for value in ([shared, shared], {"a": shared, "b": shared}, [shared] * 9):
        copied = plain(value)
        first, second = (copied["a"], copied["b"]) if isinstance(value, dict) else copied[:2]
        assert first == second == shared and first is not second and first is not shared
    keyed = plain({None: shared, True: shared, 2: 0, 2.5: 0, "a": 0})
    assert keyed[None] == keyed[True] == shared and keyed[None] is not keyed[True]


def _wrap_short(value):
    return [value]


def _wrap_long(value):
    return [value, *[None] * 8]  # nine items, a list among atoms: copied item by item


def _wrap_dict(value):
    return {"k": value}


@pytest.mark.parametrize("wrap", [_wrap_short, _wrap_long, _wrap_dict])
def test_the_fast_copy_goes_down_to_the_deepest_nesting_and_no_deeper(wrap):
    """A dict shared twice at depth MAX_DEPTH (reached through short lists, long lists or dicts)
    is still copied by the fast copy, twice (the general copy would share it); one level deeper
    it is refused, by name."""
    leaf = {"x": 0}
    value = [leaf, leaf]
    for _ in range(MAX_DEPTH - 1):
        value = wrap(value)
    copied = plain(value)
    for _ in range(MAX_DEPTH - 1):
        copied = copied["k"] if isinstance(copied, dict) else copied[0]
    assert copied == [leaf, leaf] and copied[0] is not copied[1] and copied[0] is not leaf
    with pytest.raises(CheckFailed, match=f"answer: nested deeper than {MAX_DEPTH} levels"):
        plain(wrap(value))


def test_a_long_list_of_arrays_is_copied_as_a_list_of_lists():
    """Rows inside a list become lists, long list or short."""
    for count in (2, 9):
        copied = plain([np.arange(2)] * count)
        assert copied == [[0, 1]] * count and {type(row) for row in copied} == {list}


def test_a_list_of_every_atom_type_and_more_is_copied_into_exact_types():
    """A long list holding every atom type, an int subclass and a list: nothing of it is kept as
    the answer's (the int becomes an exact int, the list a new list)."""
    inner = [3]
    value = [None, True, 2, 2.5, "a", _Int(5), inner, 7, 8]
    copied = plain(value)
    kinds = [type(None), bool, int, float, str, int, list, int, int]
    assert copied == value and [type(v) for v in copied] == kinds
    assert copied[6] is not inner


# ------------------------------------------------------------------------- exact pairs known at once


def test_a_long_list_of_int_pairs_is_known_as_exact_pairs_and_nothing_else_is():
    """The copy of a long list of ``[int, int]`` lists is registered in COPIED_PAIRS (exact_pairs
    knows it without a second pass); a copy with a triple, a single, a bool or a float is not,
    and exact_pairs says no."""
    pairs = plain([[0, 1]] * 9)
    assert COPIED_PAIRS.get(id(pairs)) is pairs and exact_pairs(pairs)
    for value in (
        [[0, 1]] * 8 + [[0, 1, 2]],
        [[0, 1, 2]] * 9,
        [[0]] * 9,
        [[0, True]] * 9,
        [[0, 1.5]] * 9,
    ):
        copied = plain(value)
        assert copied == value and id(copied) not in COPIED_PAIRS and not exact_pairs(copied)


# --------------------------------------------------------------- objects that lie about their type


class _LyingList(list, metaclass=_EqualsEveryType):
    """A list whose type says it equals ``list``, and whose length and items lie."""

    def __len__(self):
        return 2

    def __iter__(self):
        return iter([0, 0])


class _LyingDict(dict, metaclass=_EqualsEveryType):
    """A dict whose type says it equals ``dict``, and whose keys (iterated) claim to be exact."""

    def __iter__(self):
        return iter(["k"])


class _LyingArray(np.ndarray, metaclass=_EqualsEveryType):
    """An array whose type says it equals ``ndarray``, and whose dtype claims to be of numbers."""

    @property
    def dtype(self):
        return np.dtype(np.int64)


def test_a_list_whose_type_claims_to_be_list_is_copied_from_its_storage():
    copied = plain({"path": _LyingList([[5, 6], _Int(7)])})["path"]
    assert copied == [[5, 6], 7] and [type(v) for v in copied] == [list, int]


def test_a_dict_whose_type_claims_to_be_dict_gets_exact_keys():
    copied = plain({"info": _LyingDict({_Str("k"): 1})})["info"]
    assert copied == {"k": 1} and [type(k) for k in copied] == [str]


def test_an_array_whose_type_claims_to_be_ndarray_is_refused_when_not_of_numbers():
    forged = np.array([1, None], dtype=object).view(_LyingArray)
    with pytest.raises(CheckFailed, match="is not an answer's"):
        plain({"labels": forged}, "certificate")


# ------------------------------------------------------------------------------- optional_integer


class _ClaimsInt(int, metaclass=_EqualsEveryType):
    pass


@pytest.mark.parametrize("minimum", [0, 1, -1, None])
@pytest.mark.parametrize(
    "value",
    [None, -2, -1, 0, 1, 2, 2**70, True, False, 2.0, "3", np.int64(3), np.int64(-1), _Int(4), _ClaimsInt(4)],
)
def test_optional_integer_is_none_or_integer(value, minimum):
    """The fast path (an exact int in range returned at once) agrees with :func:`integer` on every
    value: the same int, of type int, or the same refusal."""
    try:
        expected = None if value is None else integer(value, "f", minimum=minimum)
    except CheckFailed as refused:
        with pytest.raises(CheckFailed, match=f"^{refused}$"):
            optional_integer(value, "f", minimum=minimum)
    else:
        got = optional_integer(value, "f", minimum=minimum)
        assert got == expected and type(got) is type(expected)


# ------------------------------------------------------------------------------------ jump game

GAME = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")  # EX1: C wins in round 3


def _with_solution(change):
    result = bfs(GAME)
    solution = copy.deepcopy(result.solution)
    change(solution)
    return result.with_(solution=solution)


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ([], "the table has 0 rows for 3 players"),
        (lambda s: [*s["players"][:2], [1]], "solution 'players': expected a list of player rows"),
        (lambda s: [*s["players"][:2], "C"], "solution 'players': expected a list of player rows"),
    ],
)
def test_a_players_table_is_a_list_of_rows(players, words):
    """An empty table is read (and has too few rows); a row that is not a dict is refused as such."""
    result = _with_solution(lambda s: s.update(players=players if isinstance(players, list) else players(s)))
    with pytest.raises(CheckFailed, match=words):
        check(GAME, result)


@pytest.mark.parametrize("field", ["rounds", "key"])
@pytest.mark.parametrize(
    ("value", "words"),
    [
        (-1, "is below 0"),
        (True, "True is not an integer"),
        (3.0, "3.0 is not an integer"),
        ("3", "is not an integer"),
    ],
)
def test_a_table_count_that_is_not_a_count_is_refused_by_name(field, value, words):
    """A row's rounds and key are None or an int >= 0: anything else is refused naming the row's
    field (player B's: a valid table otherwise)."""
    result = _with_solution(lambda s: s["players"][1].update({field: value}))
    with pytest.raises(CheckFailed, match=f"solution 'players'\\[1\\] '{field}': .*{words}"):
        check(GAME, result)


def _game_labels():
    squares = [(r, c) for r in range(GAME.rows) for c in range(GAME.cols)]
    return tuple(grid.reshape(GAME.rows, GAME.cols) for grid in jump_labels(GAME, squares))


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
def test_jump_round_labels_are_read_by_value_at_any_width(dtype):
    """The true labels are accepted, int64 or int32; int64 round labels off by 2 ** 32 (the true
    ones once cut to 32 bits) are refused."""
    rounds, keys = _game_labels()
    check(GAME, bfs(GAME).with_(certificate={"rounds": rounds.astype(dtype), "keys": keys}))
    if dtype is np.int64:
        forged = rounds.astype(np.int64)
        forged[0, 1] += 1 << 32
        with pytest.raises(CheckFailed, match="labels are not"):
            check(GAME, bfs(GAME).with_(certificate={"rounds": forged, "keys": keys}))


# ----------------------------------------------------------------------------------------- path


def _path_instance():
    blocked = np.ones((10, 10), bool)
    for square in [(0, 0), (1, 2), (2, 4), (6, 6), (7, 8)]:
        blocked[square] = False
    return LostKnightInstance(Board(10, 10, blocked, torus=True), (0, 0), (2, 4))


@pytest.mark.parametrize("dtype", [np.int64, np.uint32, np.uint64, np.int32])
def test_distance_labels_are_read_by_value_at_any_width(dtype):
    """Two joined squares out of reach labelled 2 ** 31 - 1 and 2 ** 31 (one apart; the far ends of
    int32 once cut to 32 bits) are accepted; labels by int32 stay within int32."""
    instance = _path_instance()
    labels = np.zeros((10, 10), dtype)
    labels[1, 2], labels[2, 4] = 1, 2
    far = (1 << 31) - 1
    labels[6, 6], labels[7, 8] = (far - 2, far - 1) if dtype is np.int32 else (far, far + 1)
    check_distance_labels(instance, labels, 2)  # accepted
    labels[7, 8] += 1  # now two apart: refused
    with pytest.raises(CheckFailed, match="grows by more than 1"):
        check_distance_labels(instance, labels, 2)


def test_a_label_of_s_off_by_2_to_the_32_is_refused():
    instance = _path_instance()
    labels = np.zeros((10, 10), np.int64)
    labels[1, 2], labels[2, 4] = 1, 2 + (1 << 32)
    path = [[0, 0], [1, 2], [2, 4]]
    answer = Result("path", "t", Status.OPTIMAL, 2, 2, path, 0.0, certificate={"labels": labels})
    with pytest.raises(CheckFailed, match="label of S is"):
        check(instance, answer)
    labels[2, 4] = 2
    check(instance, answer.with_(certificate={"labels": labels}))
