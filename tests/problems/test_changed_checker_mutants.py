"""Tests that kill the survivors of the mutation run on the checker code changed since e4edb66
(cosmic-ray, core and quiet operators; docs/certificates.md, "Mutation testing"): the jump
game's replay and table, the exact copy, the status rules, certify's foreign mark and the lines
of an answers file. Each names the mutant it kills."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from knightcert.problems.answers import SCHEMA, AnswerFileError, _lines, read_answer
from knightcert.problems.board import Board
from knightcert.problems.checkers import certify, tour
from knightcert.problems.checkers.common import CheckFailed, on_usable
from knightcert.problems.checkers.jump import certify_jump, replay
from knightcert.problems.checkers.knights import check_matching
from knightcert.problems.checkers.plain import MAX_DEPTH, exact_pairs, exact_result, plain
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.jump_game import JumpInstance, parse_jump
from knightcert.problems.result import Backing, Result, Status
from knightcert.problems.tours import TourInstance

# ------------------------------------------------------------------------ jump: replay, ranking, table

GAME = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")  # EX1: C wins in round 3
ONE = parse_jump("1 3\n2\n2 0 0\n0 0\n0 1\n")  # A arrives in 1 round, B never


def _jump_answer(status, solution=None, objective=None, certificate=None):
    return Result("jump", "test", status, objective, None, solution, 0.0, certificate=certificate)


def test_a_jump_solution_missing_fields_names_the_first_one_missing():
    """``jump.py:167``: the first missing field is named (``missing[-1]`` or ``missing[1]`` named
    another), and the answer is refused with that message (the raise dropped, the lookup's
    KeyError made it a "malformed answer")."""
    with pytest.raises(CheckFailed, match=r"^solution: the field 'round' is missing$"):
        certify_jump(GAME, _jump_answer(Status.OPTIMAL, {"winner": "C"}, 3))
    checked = certify(GAME, _jump_answer(Status.OPTIMAL, {"winner": "C", "key": 1}, 3))
    assert checked.info["check_error"] == "answer rejected: solution: the field 'round' is missing"


@pytest.mark.parametrize("value", [2, 3])
def test_a_jump_past_the_last_row_is_refused_by_name(value):
    """``jump.py:197`` ``0 <= u <= n`` or ``0 <= u != n``: the fast replay took a jump onto row
    ``n`` (or past it) and then read that cell's value off the board (an IndexError: a
    "malformed answer"), where the answer's fault is the jump itself."""
    instance = JumpInstance(np.array([[value], [0]]), ((0, 0),))  # 2 x 1: (0, 0) jumps off the board
    with pytest.raises(CheckFailed, match=rf"^player A, round 1: \(0, 0\) -> \({value}, 0\) is not a jump"):
        replay(instance, 0, [[0, 0], [value, 0], [1, 0]])


@pytest.mark.parametrize("shape", [(2, 1), (1, 2)])
def test_a_path_through_a_negative_row_or_column_is_refused(shape):
    """``jump.py:197`` ``0 >= v < m`` or ``0 >= u < n``: on a board one square wide the fast
    replay took squares left of column 0 (above row 0), their values read around the edge, and
    replayed a path through them to the goal; the jump off the board is the fault."""
    instance = JumpInstance(np.ones(shape, dtype=np.int64), ((0, 0),))
    across = (lambda r, c: [c, r]) if shape == (1, 2) else (lambda r, c: [r, c])
    path = [across(0, 0), across(0, -1), across(1, -1), across(1, 0)]  # off the board and back
    words = f"player A, round 1: (0, 0) -> {tuple(path[1])} is not a jump of the cell's value"
    with pytest.raises(CheckFailed, match=f"^{re.escape(words)}$"):
        replay(instance, 0, path)


def test_a_tie_key_one_round_out_is_not_read():
    """``jump.py:72`` ``k if r >= 1``: a player one round from the goal made no jump before its
    last, so its tie key label (unchecked there: any value from -1) must not rank it; read, a
    right winner was refused ("could do better")."""
    certificate = {"rounds": [[1, -1, 0]], "keys": [[5, 5, 5]]}  # valid labels: keys free below 2 rounds
    solution = {"winner": "A", "round": 1, "key": None, "path": [[0, 0], [0, 2]]}
    evidence, checked = certify_jump(ONE, _jump_answer(Status.OPTIMAL, solution, 1, certificate))
    assert [e.claim for e in evidence] == ["answer", "optimal"] and checked is not None


def test_a_player_who_never_arrives_is_ranked_infinite_with_tie_key_0():
    """``jump.py:72`` ``(inf, -1, p)`` or ``(inf, 1, p)``: the table row of a player the labels
    say never arrives is refused with the labels' own word: it never arrives."""
    rows = [
        {"player": "A", "start": [0, 0], "rounds": 1, "key": None, "path": [[0, 0], [0, 2]]},
        {"player": "B", "start": [0, 1], "rounds": 2, "key": None},
    ]
    solution = {"winner": "A", "round": 1, "key": None, "path": [[0, 0], [0, 2]], "players": rows}
    words = r"^player B is reported \(2, None\), the labels prove it never arrives$"
    with pytest.raises(CheckFailed, match=words):
        certify_jump(ONE, _jump_answer(Status.OPTIMAL, solution, 1))


@pytest.mark.parametrize("field", ["rounds", "key"])
def test_a_negative_round_or_key_in_the_table_is_refused_by_name(field):
    """``jump.py:284`` ``v < 0`` or ``v <= 0``: the shortcut for whole numbers from 0 let a negative
    count through unchecked, refused only later against the labels, where it is the field that is
    wrong."""
    winner = {"winner": "C", "round": 3, "key": 1, "path": [[0, 2], [0, 5], [0, 6], [0, 8]]}
    row = {"player": "A", "start": [0, 0], "rounds": None, "key": None, field: -1}  # the other: None
    with pytest.raises(CheckFailed, match=rf"^solution 'players'\[0\] '{field}': -1 is below 0$"):
        certify_jump(GAME, _jump_answer(Status.OPTIMAL, {**winner, "players": [row, {}, {}]}, 3))


def test_a_table_row_whose_path_is_shorter_than_reported_is_refused_for_its_path():
    """``jump.py:296`` ``replayed > (rounds, key)``: a row's path that replays to fewer rounds
    than the row reports (or to a key where the row says None) is refused as such, not by the
    labels' check after it (or a TypeError comparing None with a key)."""
    winner = {"winner": "C", "round": 3, "key": 1, "path": [[0, 2], [0, 5], [0, 6], [0, 8]]}
    row = {"player": "A", "start": [0, 0], "path": [[0, 0], [0, 4], [0, 6], [0, 8]]}
    for rounds, key in ((4, 2), (3, None)):
        rows = [{**row, "rounds": rounds, "key": key}, {}, {}]  # row A is read first, and refused
        words = rf"^player A's path gives \(3, 2\), reported \({rounds}, {key}\)$"
        with pytest.raises(CheckFailed, match=words):
            certify_jump(GAME, _jump_answer(Status.OPTIMAL, {**winner, "players": rows}, 3))


# ------------------------------------------------------------------------ plain: exact_result

FOUR = [[0, 0], [0, 1], [1, 0], [1, 1]]  # 2 x 2: no knight attacks another, all four fit


def _never(**changes):
    raise AssertionError("the answer's own with_ was called")


def test_an_answers_attributes_beyond_the_fields_are_not_copied():
    """``plain.py:194`` ``_UNSET.keys() is not stored.keys()`` or ``<=``: an answer's stored
    attributes beyond the Result fields were copied into the check's Result, where one named
    ``with_`` shadows the method: the answer's own code ran inside the check."""
    answer = Result("knights", "forger", Status.OPTIMAL, 4, None, FOUR, 0.0)
    vars(answer)["with_"] = _never
    vars(answer)["extra"] = 1
    assert vars(exact_result(answer)).keys() == set(Result.__dataclass_fields__)
    checked = certify(knights_instance(2), answer)  # bound None: the check fills it in (with_)
    assert checked.verified and checked.bound == 4


class _EqualsEveryType(type):
    """A metaclass whose classes claim to equal every type (``==``), while ``is`` still tells them apart."""

    def __eq__(cls, other):
        return True

    __hash__ = type.__hash__


class _ClaimsList(list, metaclass=_EqualsEveryType):
    """A list of pairs whose type says it equals ``list``."""


def test_a_list_whose_type_claims_to_be_list_is_not_exact_pairs():
    """``plain.py:266`` ``type(value) == list``: a list subclass whose type equals ``list`` passed
    as exact pairs, so the answer's own object (its methods the subclass's) was kept as the
    solution instead of a copy."""
    forged = _ClaimsList([[0, 0], [1, 2]])
    assert not exact_pairs(forged)
    clean = exact_result(Result("knights", "forger", Status.FEASIBLE, 2, None, forged, 0.0))
    assert type(clean.solution) is list and clean.solution == [[0, 0], [1, 2]]


def test_the_general_copy_goes_down_through_dicts_to_the_deepest_nesting_and_no_deeper():
    """``plain.py:118`` ``depth + 2``: a dict's values are one level deeper, not two: a tuple
    (which only the general copy takes) under ``MAX_DEPTH`` dicts is copied, one deeper refused."""
    value = (0,)
    for _ in range(MAX_DEPTH):
        value = {"k": value}
    copied = plain(value)
    for _ in range(MAX_DEPTH):
        copied = copied["k"]
    assert copied == [0]
    with pytest.raises(CheckFailed, match=f"answer: nested deeper than {MAX_DEPTH} levels"):
        plain({"k": value})


class _ClaimsInt(int, metaclass=_EqualsEveryType):
    """An int whose type says it equals every type, ``bool`` included."""


def test_a_time_whose_type_claims_to_be_bool_keeps_its_value():
    """``plain.py:211`` ``type(time) != bool``: an int subclass whose type claims to equal ``bool``
    lost its value (the time read as 0.0); ``is not`` tells the types apart."""
    clean = exact_result(Result("knights", "m", Status.FEASIBLE, 2, None, [[0, 0], [1, 2]], _ClaimsInt(5)))
    assert clean.time == 5.0 and type(clean.time) is float


class _ClaimsStr(str, metaclass=_EqualsEveryType):
    """A str whose type says it equals ``str``."""


def test_a_name_whose_type_claims_to_be_str_is_copied_into_an_exact_str():
    """``plain.py:206`` ``type(values[name]) != str``: a str subclass whose type claims to equal
    ``str`` was kept as the answer's own object (its methods the subclass's) instead of copied."""
    answer = Result("knights", _ClaimsStr("m"), Status.FEASIBLE, 2, None, [[0, 0], [1, 2]], 0.0)
    clean = exact_result(answer.with_(instance=_ClaimsStr("board")))
    assert (clean.method, clean.instance) == ("m", "board")
    assert type(clean.method) is str and type(clean.instance) is str


def test_the_counts_of_an_answer_are_copied_into_exact_ints():
    """``plain.py:199`` ``if not type(...) not in _ATOMS``: an objective, bound or node count that
    is not an exact atom (a numpy integer, an int subclass) was kept as the answer's own object."""
    answer = Result("knights", "m", Status.FEASIBLE, np.int64(2), _ClaimsInt(1), [[0, 0], [1, 2]], 0.0)
    clean = exact_result(answer.with_(nodes=_ClaimsInt(7)))
    assert (clean.objective, clean.bound, clean.nodes) == (2, 1, 7)
    assert {type(clean.objective), type(clean.bound), type(clean.nodes)} == {int}


def test_the_general_copy_copies_an_array_it_meets():
    """``plain.py:124`` ``copy=False``: an array in an answer that takes the general copy (a tuple
    beside it) was kept as the method's own array, which the method could change after the check."""
    labels = np.arange(4, dtype=np.int64)
    copied = plain({"labels": labels, "other": (1, 2)})
    assert type(copied["labels"]) is np.ndarray and not np.shares_memory(copied["labels"], labels)
    labels[0] = 9
    assert copied["labels"].tolist() == [0, 1, 2, 3] and copied["other"] == [1, 2]


# ------------------------------------------------------------------------ certify: a foreign method's word

GAP = ["..x.x", "..xx.", ".xx..", "..xx."]  # 4 x 5 torus: no tour, no argument, no separator


def test_an_empty_foreign_mark_leaves_the_methods_word_as_it_is(monkeypatch):
    """``checkers/__init__.py:114`` ``str.__len__(foreign)`` dropped: an empty ``foreign`` mark
    (no foreign method) made the method's own word "not certified by the checker"."""
    monkeypatch.setattr(tour, "EXHAUSTIVE_SQUARES", 0)  # the checker's search left out: the method's word
    instance = TourInstance(Board(4, 5, np.array([[c == "x" for c in row] for row in GAP]), torus=True))
    claim = Result("tour", "cpsat", Status.INFEASIBLE, None, None, None, 0.0, info={"foreign": ""})
    assert [e.backing for e in certify(instance, claim).evidence] == [Backing.SOLVER]
    foreign = certify(instance, claim.with_(info={"foreign": "x"}))
    assert [e.backing for e in foreign.evidence] == [Backing.NONE]


# ------------------------------------------------------------------------ common: check_status_fields


def test_an_optimal_answer_without_a_bound_gets_its_objective_as_bound():
    """``common.py:87`` ``unchanged = objective is result.objective`` (the bound's condition
    dropped): the bound filled in from the objective was lost, the answer returned unchanged."""
    checked = certify(knights_instance(2), Result("knights", "m", Status.OPTIMAL, 4, None, FOUR, 0.0))
    assert checked.verified and (checked.objective, checked.bound) == (4, 4)


def test_the_usable_mask_is_boolean_and_names_the_bad_matching_pair():
    """``common.py:132`` ``//`` for ``&``: the mask of squares on the board came out as int8, whose
    ``~`` is never false, so the matching check named its first pair, not the one at fault."""
    _, usable = on_usable(Board(2, 3), np.array([[0, 0], [2, 0], [1, 2]]))
    assert usable.dtype == bool and usable.tolist() == [True, False, True]
    matching = [[[0, 0], [1, 2]], [[0, 1], [0, 2]]]  # the second is not a knight move
    with pytest.raises(CheckFailed, match=r"^matching pair \(0, 1\) - \(0, 2\) is not a knight move"):
        check_matching(knights_instance(3), matching)


def test_an_optimal_answers_bound_is_not_a_claim_of_its_own():
    """``common.py:94`` ``result.status is Status.OPTIMAL`` dropped from ``bound_claim``: an optimal
    answer's bound (its objective) was certified a second time, as a separate bound claim."""
    solution = {"winner": "C", "round": 3, "key": 1, "path": [[0, 2], [0, 5], [0, 6], [0, 8]]}
    checked = certify(GAME, _jump_answer(Status.OPTIMAL, solution, 3))
    assert checked.verified and [e.claim for e in checked.evidence] == ["answer", "optimal"]


# ------------------------------------------------------------------------ answers: FILE#N, a line of a file


def _answers_file(path, *lines):
    path.write_text("".join(json.dumps({"schema": SCHEMA, **line}) + "\n" for line in lines))
    return path


def test_a_line_of_an_answers_file_is_read_by_its_number(tmp_path):
    """``answers.py:429, 431, 449``: ``FILE#N`` is line N, counted from 1, of the file's text;
    0 and past the last line name no answer (each bound and the index moved by one survived)."""
    path = _answers_file(tmp_path / "runs-a.jsonl", {"n": 1}, {"n": 2}, {"n": 3})
    assert [read_answer(f"{path}#{k}")["n"] for k in (1, 2, 3)] == [1, 2, 3]
    for k in ("0", "4"):
        with pytest.raises(AnswerFileError, match=f"runs-a.jsonl: has no answer on line {k}$"):
            read_answer(f"{path}#{k}")


def test_a_file_named_with_a_line_number_or_a_missing_file_is_read_as_a_file(tmp_path, monkeypatch):
    """``answers.py:424, 426, 428``: a file whose own name ends ``#1`` is that file (the
    ``lexists`` condition dropped read line 1 of a file that is not there); ``#x`` is no line
    number (``isdigit`` dropped: a ValueError); ``#1`` of a missing file is refused by name (the
    size read of a file that is not there: an AttributeError); ``#1`` alone names itself (the
    ``file`` condition dropped named the empty file name)."""
    named = _answers_file(tmp_path / "a.json#1", {"n": 7})  # no file a.json beside it
    assert read_answer(named)["n"] == 7
    _answers_file(tmp_path / "b.json", {"n": 1})
    for missing in (f"{tmp_path / 'b.json'}#x", f"{tmp_path / 'gone.jsonl'}#1"):
        with pytest.raises(AnswerFileError, match="cannot read"):
            read_answer(missing)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AnswerFileError, match=r"^#1: cannot read"):
        read_answer("#1")


@pytest.mark.parametrize("size", [200, 2**21 - 1, 2**21, 2**21 + 1])
def test_an_answers_file_under_2_mib_is_read_once_a_version(tmp_path, size):
    """``answers.py:428``: a file under 2 MiB is read once while unchanged (its lines kept, a
    resume reads every line in turn); from 2 MiB on (one large answer) it is read each time.
    The bound moved, or its comparison changed, kept too much or nothing."""
    path = tmp_path / "runs-a.jsonl"
    head = json.dumps({"schema": SCHEMA, "pad": ""})
    path.write_text(head[:-2] + "x" * (size - len(head) - 1) + '"}\n')  # one line of ``size`` bytes
    assert path.stat().st_size == size
    before = _lines.cache_info()
    assert read_answer(f"{path}#1")["pad"] == read_answer(f"{path}#1")["pad"]
    after = _lines.cache_info()
    kept = (after.hits - before.hits, after.misses - before.misses)
    assert kept == ((1, 1) if size < 2**21 else (0, 0))


def test_a_row_with_a_key_where_the_labels_prove_none_reads_none():
    """The row check's message: a player one round out has no key (the labels' -1), said None."""
    rows = [{"player": "A", "start": [0, 0], "rounds": 1, "key": 5}, {"player": "B", "start": [0, 1]}]
    solution = {"winner": "A", "round": 1, "key": None, "path": [[0, 0], [0, 2]], "players": rows}
    words = r"^player A is reported \(1, 5\), the labels prove \(1, None\)$"
    with pytest.raises(CheckFailed, match=words):
        certify_jump(ONE, _jump_answer(Status.OPTIMAL, solution, 1))
