"""Tests that kill the survivors of issue 30's sampled quiet mutants (``bench/mutation.py
--operators quiet --select coverage``, since replaced by ``bench/mutation/run.py``;
docs/certificates.md): each checks a corpus of wrong answers, or the checker against an
independent oracle, where a quietly broken checker (one condition dropped, one bound moved,
one loop iteration skipped) let the whole suite pass."""

from __future__ import annotations

import base64
import collections
import copy
import dataclasses
import itertools
import json
import re
import zlib

import numpy as np
import pytest

from knightcert.algorithms.jump_search import bfs
from knightcert.problems.answers import (
    AnswerFileError,
    InvalidAnswer,
    answer_fields,
    answer_to_dict,
    check_answer,
    decode_array,
    instance_from_data,
    result_from_answer,
)
from knightcert.problems.board import Board
from knightcert.problems.checkers import CheckFailed, certify, check
from knightcert.problems.checkers.clausal_proof import decode_proof, encode_proof
from knightcert.problems.checkers.fields import int_array, squares
from knightcert.problems.checkers.knights import bipartite
from knightcert.problems.checkers.lrat_files import lrat_text_to_binary
from knightcert.problems.checkers.tour import partial_tour_length, search_tour
from knightcert.problems.checkers.tour_search import FOUND
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.jump_game import parse_jump
from knightcert.problems.lost_knight import parse_lost_knight
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance


def no_tour_on_3x3() -> tuple[TourInstance, Result]:
    instance = TourInstance(Board(3, 3), False, None, None, "3x3")
    claim = Result("tour", "t", Status.INFEASIBLE, None, None, None, 0.0)
    assert check(instance, claim).certified  # the true claim: the centre is unreachable
    return instance, claim


@pytest.mark.parametrize(("objective", "bound"), [(5, None), (None, 5), (0, None), (None, 0), (9, 9)])
def test_an_infeasible_claim_carries_no_objective_and_no_bound(objective, bound):
    """Either field alone makes an INFEASIBLE answer malformed (a check that looked at one
    of the two only passed the other)."""
    instance, claim = no_tour_on_3x3()
    with pytest.raises(CheckFailed, match="INFEASIBLE carries no objective and no bound"):
        check(instance, claim.with_(objective=objective, bound=bound))


# ------------------------------------------------------------------- the jump game's player rows


def test_a_player_row_must_start_where_the_instance_says():
    """A row whose start is another square (a valid pair, another player's start or a moved
    one) is refused, whatever the rest of the row."""
    game = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")
    result = bfs(game)
    check(game, result)
    for p, row in enumerate(result.solution["players"]):
        assert row.get("start", list(game.starts[p])) == list(game.starts[p])
        for wrong in {tuple(s) for s in game.starts} - {tuple(game.starts[p])} | {(0, 8)}:
            solution = copy.deepcopy(result.solution)
            solution["players"][p]["start"] = list(wrong)
            with pytest.raises(CheckFailed, match="'start'"):
                check(game, result.with_(solution=solution))


# ------------------------------------------------------------ the lost knight's closed set (oracle)


def _reach(free: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """The squares a knight reaches from ``start`` on the torus ``free`` (the test's own flood)."""
    rows, cols = free.shape
    seen = np.zeros_like(free)
    seen[start] = True
    todo = [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in itertools.product((1, -1, 2, -2), repeat=2):
            if abs(dr) != abs(dc):
                t = ((r + dr) % rows, (c + dc) % cols)
                if free[t] and not seen[t]:
                    seen[t] = True
                    todo.append(t)
    return seen


def boxed_in_boards(count: int):
    """Random tori with blocked squares on which S is not reachable from C (fixed seed)."""
    rng = np.random.default_rng(30)
    found = 0
    while found < count:
        rows, cols = rng.integers(4, 8, size=2)
        grid = np.where(rng.random((rows, cols)) < 0.45, "x", ".")
        c, s = rng.choice(rows * cols, size=2, replace=False)
        grid.flat[c], grid.flat[s] = "C", "S"
        reach = _reach(grid != "x", divmod(int(c), int(cols)))
        if not reach.flat[s] and reach.sum() > 1:  # the parser reads only the boards kept
            instance = parse_lost_knight("\n".join("".join(row) for row in grid) + "\n")
            assert (~instance.board.blocked.reshape(rows, cols) == (grid != "x")).all()
            assert tuple(instance.start) == divmod(int(c), int(cols))
            assert tuple(instance.exit) == divmod(int(s), int(cols))
            found += 1
            yield instance, reach


def test_a_closed_set_is_accepted_exactly_when_no_move_leaves_it():
    """The flood from C is a closed set; leaving out any square it reached opens it (a move
    of the flood enters that square). A checker that skipped one of the eight moves would
    accept some of these holed sets."""
    for instance, reach in boxed_in_boards(40):
        claim = Result("path", "t", Status.INFEASIBLE, None, None, None, 0.0)
        assert check(instance, claim.with_(certificate={"closed": reach.reshape(-1)})).certified
        for square in zip(*np.nonzero(reach), strict=True):
            if square == tuple(instance.start):
                continue
            holed = reach.copy()
            holed[square] = False
            with pytest.raises(CheckFailed, match="leaves the closed set"):
                check(instance, claim.with_(certificate={"closed": holed.reshape(-1)}))


# ------------------------------------------------------------------ Kőnig's colour classes (oracle)


@pytest.mark.parametrize("torus", [False, True])
def test_bipartite_means_every_move_changes_colour(torus):
    """``bipartite`` (the checker's licence to use Kőnig's theorem with the colour classes) is
    true exactly when every knight move joins squares of opposite colour (brute force), on
    boards of 3 to 8 squares a side."""
    for rows, cols in itertools.product(range(3, 9), repeat=2):
        board = Board(rows, cols, torus=torus)
        proper = all(
            ((r + c) + ((r + dr) % rows if torus else r + dr) + ((c + dc) % cols if torus else c + dc)) % 2
            == 1
            for r, c in itertools.product(range(rows), range(cols))
            for dr, dc in itertools.product((1, -1, 2, -2), repeat=2)
            if abs(dr) != abs(dc) and (torus or (0 <= r + dr < rows and 0 <= c + dc < cols))
        )
        assert bipartite(board) == proper, (rows, cols, torus)


# ---------------------------------------------------------------------------- the proof entry


@pytest.mark.parametrize("extra", [1, 2, 1000])
def test_a_proof_entry_declares_exactly_its_size(extra):
    """A proof that inflates completely to fewer bytes than its entry declares is refused,
    as one that inflates to more."""
    proof = b"a\x04\x00\x00" * 5
    entry = encode_proof(proof, 3)
    assert decode_proof(entry) == proof
    for size in (entry["bytes"] + extra, entry["bytes"] - min(extra, entry["bytes"])):
        with pytest.raises(CheckFailed, match="does not inflate to the declared"):
            decode_proof({**entry, "bytes": size})


# ---------------------------------------------------------------- a dead end's partial tour (oracle)


def _is_partial_tour(instance: TourInstance, squares: list[tuple[int, int]]) -> bool:
    """The test's own reading of a partial tour: usable, distinct, knight moves, from the start."""
    board = instance.board
    rows, cols = board.rows, board.cols
    blocked = np.asarray(board.blocked).reshape(rows, cols)

    def step(a, b):
        dr, dc = b[0] - a[0], b[1] - a[1]
        if board.torus:
            return any((dr - x) % rows == 0 and (dc - y) % cols == 0 for x, y in _JUMPS)
        return (abs(dr), abs(dc)) in ((1, 2), (2, 1))

    return (
        0 < len(squares) <= board.n_free
        and all(0 <= r < rows and 0 <= c < cols and not blocked[r, c] for r, c in squares)
        and len(set(squares)) == len(squares)
        and all(step(a, b) for a, b in itertools.pairwise(squares))
        and (instance.start is None or squares[0] == tuple(instance.start))
    )


_JUMPS = [(dr, dc) for dr, dc in itertools.product((1, -1, 2, -2), repeat=2) if abs(dr) != abs(dc)]


def test_a_partial_tour_is_credited_exactly_when_it_is_one():
    """Random knight walks (some through removed squares, some repeating, some with a broken
    step, some from another square than the start) on boards with holes: the checker credits
    the walk's length exactly when the test's own reading says it is a partial tour."""
    rng = np.random.default_rng(30)
    credited = refused = 0
    for _ in range(300):
        rows, cols = (int(x) for x in rng.integers(3, 7, size=2))
        torus = bool(rng.integers(2))
        board = Board(rows, cols, blocked=rng.random((rows, cols)) < 0.2, torus=torus)
        walk = [(int(rng.integers(rows)), int(rng.integers(cols)))]
        for _ in range(int(rng.integers(0, 8))):
            dr, dc = _JUMPS[int(rng.integers(8))]
            r, c = walk[-1][0] + dr, walk[-1][1] + dc
            walk.append((r % rows, c % cols) if torus else (r, c))
        if rng.random() < 0.2 and len(walk) > 1:  # a broken step
            walk[-1] = ((walk[-1][0] + 1) % rows, walk[-1][1])
        usable = np.argwhere(~np.asarray(board.blocked).reshape(rows, cols))
        if len(usable) == 0:
            continue
        start = walk[0] if rng.random() < 0.7 else tuple(int(x) for x in usable[0])
        if not (0 <= start[0] < rows and 0 <= start[1] < cols) or board.blocked.reshape(rows, cols)[start]:
            start = tuple(int(x) for x in usable[-1])
        instance = TourInstance(board, False, start if rng.random() < 0.5 else None, None, "t")
        expected = _is_partial_tour(instance, walk)
        got = partial_tour_length(instance, [list(s) for s in walk])
        assert got == (len(walk) if expected else None), (walk, rows, cols, torus, instance.start)
        credited += expected
        refused += not expected
    assert credited > 20 and refused > 20  # both sides tried


# ------------------------------------------------------------------- an answer for another instance


@pytest.mark.parametrize("players", ["0 0\n0 1\n", "0 0\n0 1\n0 2\n0 3\n", "0 0\n"])
def test_an_answer_for_another_number_of_players_names_the_field(players):
    """The same board with fewer or more players is another instance: refused, naming the
    field that differs, never as a malformed file."""
    game = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")
    data = answer_to_dict(bfs(game), game)
    assert check_answer(game, data).verified
    other = parse_jump(f"1 9\n{players.count(chr(10))}\n4 1 3 2 2 1 2 1 0\n{players}")
    with pytest.raises(AnswerFileError, match="instance 'starts': the answer is for another instance"):
        check_answer(other, data)


@pytest.mark.parametrize(
    "text", ["1 4\n2\n0 1 1 0\n0 0\n0 1\n", "1 5\n2\n2 0 1 1 0\n0 0\n0 1\n", "2 2\n1\n0 1\n1 0\n0 0\n"]
)
def test_a_saved_answer_keeps_its_nulls(text):
    """A game's answer with players who never arrive (or no winner at all) survives the file:
    its nulls stay JSON nulls, and the re-read answer is certified like the original."""
    game = parse_jump(text)
    result = bfs(game)
    assert check(game, result).certified
    data = json.loads(json.dumps(answer_to_dict(result, game)))
    nulls = [row for row in data["solution"]["players"] if row["rounds"] is None]
    assert nulls and all(row["key"] is None and row["path"] is None for row in nulls)
    again = check_answer(game, data)
    assert again.certified and again.status is result.status and again.objective == result.objective


@pytest.mark.parametrize("closed", [[], [[]], [[], []], [[], [[]]], [[[]], []], [[[], []]]])
def test_an_empty_or_ragged_closed_set_is_refused(closed):
    """Empty lists, however nested (ragged too), are no closed set: refused as a check, never
    an internal error."""
    instance, reach = next(boxed_in_boards(1))
    claim = Result("path", "t", Status.INFEASIBLE, None, None, None, 0.0)
    assert check(instance, claim.with_(certificate={"closed": reach.reshape(-1).tolist()})).certified
    with pytest.raises(CheckFailed, match="certificate 'closed'"):
        check(instance, claim.with_(certificate={"closed": closed}))


def test_the_parameters_are_always_an_object():
    """The file format's ``parameters`` is a JSON object: empty when none were given."""
    game = parse_jump("1 4\n2\n0 1 1 0\n0 0\n0 1\n")
    result = bfs(game)
    assert answer_to_dict(result, game)["parameters"] == {}
    assert answer_to_dict(result, game, parameters=None)["parameters"] == {}
    given = {"time_limit": 2.5, "seed": np.int64(7)}
    assert answer_to_dict(result, game, parameters=given)["parameters"] == {"time_limit": 2.5, "seed": 7}


# ------------------------------------------------------------- the answer file's fields (a corpus)


def _zlib_text(raw: bytes, cut: int = 0, tail: bytes = b"") -> str:
    packed = zlib.compress(raw)
    return base64.b64encode(packed[: len(packed) - cut] + tail).decode()


def bad_encodings():
    """Encoded arrays each wrong in one way (the good one first)."""
    raw = bytes(range(6))
    good = {"array": "int8", "shape": [2, 3], "zlib": _zlib_text(raw)}
    yield "good", good
    yield "a negative size", {**good, "shape": [-1, 3]}
    yield "a negative size that multiplies out", {**good, "shape": [-2, -3]}
    yield "nine sizes", {**good, "shape": [2, 3, 1, 1, 1, 1, 1, 1, 1]}
    yield "sizes as a string", {**good, "shape": "23"}
    yield "data after the stream", {**good, "zlib": _zlib_text(raw, tail=b"\x00junk")}
    yield "the stream's end cut off", {**good, "zlib": _zlib_text(raw, cut=4)}
    yield "fewer values than the shape", {**good, "zlib": _zlib_text(raw[:4])}
    yield "more values than the shape", {**good, "zlib": _zlib_text(raw + b"\x07")}


def test_an_encoded_array_is_decoded_only_when_exactly_right():
    cases = list(bad_encodings())
    name, good = cases[0]
    assert decode_array(good, "f").tolist() == [[0, 1, 2], [3, 4, 5]]
    for name, data in cases[1:]:
        with pytest.raises(InvalidAnswer, match=r"^f: "):
            decode_array(data, "f")
            pytest.fail(name)


@pytest.mark.parametrize("elapsed", ["1.5", float("nan"), float("inf"), -float("inf"), True, [1], {"s": 1}])
def test_time_s_is_a_finite_number(elapsed):
    game = parse_jump("1 4\n2\n0 1 1 0\n0 0\n0 1\n")
    data = answer_to_dict(bfs(game), game)
    assert result_from_answer(data, problem="jump").status is Status.OPTIMAL
    data = {k: v for k, v in data.items() if k != "sha256"}
    with pytest.raises(InvalidAnswer, match="time_s"):
        result_from_answer({**data, "time_s": elapsed}, problem="jump")


@pytest.mark.parametrize("info", [{"foreign": True, "note": "x"}, {"interrupted": "time", "nodes": [1, 2]}])
def test_an_answers_info_is_read_back_and_must_be_an_object(info):
    """``info`` (what a worker reports beside its answer: a foreign method, an interrupt) is
    read back as written, from an answer file and from a worker's answer fields; a value that
    is not an object (a list, text, a number, true) is refused naming the field."""
    game = parse_jump("1 4\n2\n0 1 1 0\n0 0\n0 1\n")
    result = bfs(game).with_(info=info)
    data = {k: v for k, v in answer_to_dict(result, game).items() if k != "sha256"}
    assert result_from_answer(data, problem="jump").info == info
    assert result_from_answer(answer_fields(result), problem="jump").info == info
    for wrong in ([info], json.dumps(info), 5, True):
        with pytest.raises(InvalidAnswer, match="info: expected an object"):
            result_from_answer({**data, "info": wrong}, problem="jump")


@pytest.mark.parametrize("position", [0, 1, -1])
def test_every_evidence_entry_is_read_strictly(position):
    game = parse_jump("1 4\n2\n0 1 1 0\n0 0\n0 1\n")
    data = {k: v for k, v in answer_to_dict(certify(game, bfs(game)), game).items() if k != "sha256"}
    evidence = list(data["evidence"])
    assert len(evidence) >= 2
    for junk in ("junk", {"backing": "search"}, {"claim": 1, "backing": "search"}):
        forged = list(evidence)
        forged[position] = junk
        with pytest.raises(InvalidAnswer, match="evidence"):
            result_from_answer({**data, "evidence": forged}, problem="jump")


@pytest.mark.parametrize("pair", [[0.0, 1], ["0", "1"], [0], [0, 1, 2], "01", None, True, [True, 1]])
def test_an_embedded_square_is_a_pair_of_integers(pair):
    tour = TourInstance(Board(5, 5), False, (0, 0), None, "5x5")
    data = answer_to_dict(Result("tour", "t", Status.UNKNOWN, None, None, None, 0.0), tour)
    embedded = data["instance"]["data"]
    assert instance_from_data(embedded).start == (0, 0)
    with pytest.raises(AnswerFileError, match="start"):
        instance_from_data({**embedded, "start": pair} if pair is not None else {**embedded, "start": {}})


@pytest.mark.parametrize("problem", [None, "chess", 3, ["tour"]])
def test_embedded_data_names_a_known_problem(problem):
    tour = TourInstance(Board(5, 5), False, None, None, "5x5")
    embedded = answer_to_dict(Result("tour", "t", Status.UNKNOWN, None, None, None, 0.0), tour)["instance"][
        "data"
    ]
    assert isinstance(instance_from_data(embedded), TourInstance)
    with pytest.raises(AnswerFileError, match="expected an embedded instance with its problem"):
        instance_from_data({**embedded, "problem": problem})


def test_an_answer_for_the_tour_without_its_fixed_start_names_the_field():
    """Fields that are null on one side and a pair on the other differ (either way round)."""
    free = TourInstance(Board(5, 5), False, None, None, "5x5")
    fixed = TourInstance(Board(5, 5), False, (0, 0), None, "5x5")
    unknown = Result("tour", "t", Status.UNKNOWN, None, None, None, 0.0)
    for mine, other in ((free, fixed), (fixed, free)):
        data = answer_to_dict(unknown, mine)
        check_answer(mine, data)
        with pytest.raises(AnswerFileError, match="instance 'start': the answer is for another instance"):
            check_answer(other, data)


@pytest.mark.parametrize("labels", [[[], [0]], [[], [0, 1]], [[[]], [0]], [[], "a"]])
def test_labels_with_an_empty_row_are_refused_naming_the_entry(labels):
    """An empty list where a number belongs is named in the refusal (never an internal error)."""
    board = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")
    path = [[0, 0], [1, 2], [2, 4]]
    claim = Result("path", "t", Status.OPTIMAL, 2, 2, path, 0.0)
    assert check(board, claim).certified
    with pytest.raises(CheckFailed, match=r"certificate 'labels'.*not an integer"):
        check(board, claim.with_(certificate={"labels": labels}))


@pytest.mark.parametrize("value", [np.array(5), np.array(-1, dtype=np.int8)])
def test_a_scalar_array_is_named_a_scalar(value):
    """A zero-dimensional array where pairs belong: the refusal says "scalar" (not an empty shape)."""
    assert int_array(np.array([[1, 2]]), "f", (None, 2)).shape == (1, 2)
    with pytest.raises(CheckFailed, match="f: shape scalar, expected n x 2"):
        int_array(value, "f", (None, 2))


@pytest.mark.parametrize("bad", [-1, 2, 5])
def test_a_closed_set_of_integers_holds_only_zeros_and_ones(bad):
    """0/1 integers stand for booleans; any other integer is refused, not read as true."""
    instance, reach = next(boxed_in_boards(1))
    claim = Result("path", "t", Status.INFEASIBLE, None, None, None, 0.0)
    as_ints = reach.reshape(-1).astype(int)
    assert check(instance, claim.with_(certificate={"closed": as_ints.tolist()})).certified
    as_ints[np.flatnonzero(as_ints)[0]] = bad
    with pytest.raises(CheckFailed, match="entries must be 0 or 1"):
        check(instance, claim.with_(certificate={"closed": as_ints.tolist()}))


@pytest.mark.parametrize("labels", [[[1, "x"]], [[0, 1], [2, "x"]], [["x"]], [[1.5, 0]], [[0, None]]])
def test_labels_with_a_non_number_name_it(labels):
    board = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")
    claim = Result("path", "t", Status.OPTIMAL, 2, 2, [[0, 0], [1, 2], [2, 4]], 0.0)
    with pytest.raises(CheckFailed, match=r"certificate 'labels'.*not an integer"):
        check(board, claim.with_(certificate={"labels": labels}))


def test_an_empty_list_of_squares_is_no_squares():
    assert squares([], "f").shape == (0, 2)
    assert squares((), "f").shape == (0, 2)
    board = Board(3, 3, blocked=np.ones((3, 3), dtype=bool) & ~np.eye(3, dtype=bool))
    none = Result("knights", "t", Status.FEASIBLE, 0, None, [], 0.0)
    assert check(KnightsInstance(board, "3x3"), none).verified


@pytest.mark.parametrize("name", [None, ""])
def test_an_instance_without_a_name_is_saved_with_an_empty_one(name):
    """The answer file's instance name is text: an instance named None (or "") is saved as
    "", and the answer read back names no instance (not the text "None")."""
    game = dataclasses.replace(parse_jump("1 4\n2\n0 1 1 0\n0 0\n0 1\n"), name=name)
    tour = TourInstance(Board(5, 5), False, None, None, name)
    for instance, result in (
        (game, bfs(game)),
        (tour, Result("tour", "t", Status.UNKNOWN, None, None, None, 0.0)),
    ):
        data = json.loads(json.dumps(answer_to_dict(result, instance)))
        assert data["instance"]["name"] == ""
        assert result_from_answer(data, problem=data["problem"]).instance == ""
        assert check_answer(instance, data).instance == ""


def test_an_unnamed_instance_keeps_the_answers_name():
    named = TourInstance(Board(5, 5), False, None, None, "5x5")
    unnamed = TourInstance(Board(5, 5), False, None, None, "")
    data = answer_to_dict(Result("tour", "t", Status.UNKNOWN, None, None, None, 0.0), named)
    assert check_answer(named, data).instance == "5x5"
    assert check_answer(unnamed, data).instance == "5x5"


# ------------------------------------------------------------------ closed tours (brute force oracle)


def _has_closed_tour(board: Board) -> bool:
    """The test's own search: a cycle through every usable square, by depth-first search."""
    rows, cols = board.rows, board.cols
    free = [(r, c) for r in range(rows) for c in range(cols) if not board.blocked[r, c]]
    where = {s: i for i, s in enumerate(free)}
    moves = [set() for _ in free]
    for i, (r, c) in enumerate(free):
        for dr, dc in _JUMPS:
            t = ((r + dr) % rows, (c + dc) % cols) if board.torus else (r + dr, c + dc)
            if t in where and where[t] != i:
                moves[i].add(where[t])
    n = len(free)
    if n < 3 or any(len(m) < 2 for m in moves):  # a cycle enters and leaves every square
        return False

    def extend(last: int, seen: int, length: int) -> bool:  # seen: a bit per square on the path
        if length == n:
            return 0 in moves[last]
        return any(extend(k, seen | 1 << k, length + 1) for k in moves[last] if not seen >> k & 1)

    return extend(0, 1, 1)


def test_no_closed_tour_is_certified_exactly_when_none_exists():
    """Random small boards with holes (plain and torus): the checker refuses "no closed tour"
    where the test's own search finds one, and never refuses it where there is none."""
    rng = np.random.default_rng(30)
    exist = absent = 0
    for _ in range(150):
        rows, cols = (int(x) for x in rng.integers(3, 5, size=2))
        board = Board(rows, cols, blocked=rng.random((rows, cols)) < 0.25, torus=bool(rng.integers(2)))
        if board.n_free < 3:
            continue
        instance = TourInstance(board, True, None, None, "t")
        claim = Result("tour", "t", Status.INFEASIBLE, None, None, None, 0.0)
        if _has_closed_tour(board):
            exist += 1
            with pytest.raises(CheckFailed):
                check(instance, claim)
        else:
            absent += 1
            assert check(instance, claim).verified
    assert exist > 5 and absent > 5


def test_no_closed_tour_is_certified_on_every_small_board():
    """Every board of sides 3 to 5 and at most 16 squares, with up to two squares removed
    (plain and torus): a true "no closed tour" is certified (by an argument or the checker's
    complete search: these boards are well within it), and a false one refused, as the test's
    own search says. (Padding -1 taken for a move of the cycle's first square made the search
    "find" a cycle that does not close, e.g. on 5 x 3 without a corner, and leave the true
    claim uncertified.)"""
    absent = 0
    for rows, cols in itertools.product(range(3, 6), repeat=2):
        if rows * cols > 16:
            continue
        cells = list(itertools.product(range(rows), range(cols)))
        for holes in itertools.chain.from_iterable(itertools.combinations(cells, k) for k in range(3)):
            blocked = np.zeros((rows, cols), dtype=bool)
            for hole in holes:
                blocked[hole] = True
            for torus in (False, True):
                board = Board(rows, cols, blocked=blocked, torus=torus)
                if board.n_free < 3:
                    continue
                instance = TourInstance(board, True, None, None, "t")
                claim = Result("tour", "t", Status.INFEASIBLE, None, None, None, 0.0)
                if _has_closed_tour(board):
                    with pytest.raises(CheckFailed):
                        check(instance, claim)
                else:
                    absent += 1
                    assert check(instance, claim).certified, (rows, cols, torus, holes)
    assert absent > 100


def test_the_search_for_a_closed_tour_starts_at_a_square_of_fewest_moves():
    """With no end fixed, the checker looks for a closed tour through a square of fewest moves
    ``s``, one path search per pair of ``s``'s moves: one pair for a square of two moves, 28
    for one of eight. Random boards with holes (plain and torus): every closed tour the search
    finds (within 100 000 nodes) is one (the test's own move table) and starts at such a
    square (the test's own degrees). From the first usable square instead, the search ran out
    of its node budget on a 9 x 6 torus with holes where it finds a tour in 113 nodes, leaving
    a false "no closed tour" unrefuted."""
    rng = np.random.default_rng(31)
    found = 0
    for _ in range(120):
        rows, cols = (int(x) for x in rng.integers(4, 9, size=2))
        board = Board(rows, cols, blocked=rng.random((rows, cols)) < 0.2, torus=bool(rng.integers(2)))
        free = [(r, c) for r in range(rows) for c in range(cols) if not board.blocked[r, c]]
        if len(free) < 3:
            continue
        moves = {
            square: {
                ((r + dr) % rows, (c + dc) % cols) if board.torus else (r + dr, c + dc) for dr, dc in _JUMPS
            }
            & (set(free) - {square})
            for square in free
            for r, c in [square]
        }
        outcome, _nodes, tour = search_tour(TourInstance(board, True, None, None, "t"), budget=100_000)
        if outcome != FOUND:
            continue
        found += 1
        squares = [tuple(int(x) for x in board.square(i)) for i in tour]
        assert sorted(squares) == free
        assert all(b in moves[a] for a, b in zip(squares, squares[1:] + squares[:1], strict=True))
        assert len(moves[squares[0]]) == min(len(m) for m in moves.values()), (rows, cols, board.torus)
    assert found > 20


@pytest.mark.parametrize("start", [[0.0, 0], [False, 0], [0, 0.0], [np.float64(0), 0]])
def test_a_player_row_start_is_a_pair_of_integers(start):
    """A start equal in value but not a pair of integers (floats, booleans) is refused."""
    game = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")
    result = bfs(game)
    assert list(game.starts[0]) == [0, 0]
    solution = copy.deepcopy(result.solution)
    solution["players"][0]["start"] = start
    with pytest.raises(CheckFailed, match="'start'"):
        check(game, result.with_(solution=solution))


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16])
def test_an_array_tour_through_a_removed_square_is_refused(dtype):
    """An open tour of the full 5 x 5 board, cut by its last square, on the board with one of
    its middle squares removed: as many squares as the board has, distinct, knight moves —
    but one of them removed. Refused, given as an integer array (the fast pass) or a list."""
    full = TourInstance(Board(5, 5), False, None, None, "5x5")
    outcome, _nodes, order = search_tour(full)
    assert outcome == FOUND
    tour = np.array([full.board.square(i) for i in order], dtype=dtype)
    feasible = Result("tour", "t", Status.FEASIBLE, 25, None, tour, 0.0)
    assert check(full, feasible).verified
    for k in (1, 7, 12, 20):
        blocked = np.zeros((5, 5), dtype=bool)
        blocked[tuple(tour[k])] = True
        holed = TourInstance(Board(5, 5, blocked=blocked), False, None, None, "holed")
        assert holed.board.n_free == len(tour) - 1
        for solution in (tour[:-1], tour[:-1].tolist()):
            with pytest.raises(CheckFailed):
                check(holed, feasible.with_(objective=24, solution=solution))


def test_a_square_visited_twice_is_named():
    """The refusal names the square that is visited twice (the test finds it itself)."""
    full = TourInstance(Board(5, 5), False, None, None, "5x5")
    outcome, _nodes, order = search_tour(full)
    assert outcome == FOUND
    tour = [list(full.board.square(i)) for i in order]
    for k in (3, 10, 24):
        twice = [*tour[:k], tour[k - 2], *tour[k + 1 :]]
        repeated = next(s for i, s in enumerate(twice) if s in twice[:i])
        with pytest.raises(CheckFailed, match=re.escape(f"square {tuple(repeated)} is visited twice")):
            check(full, Result("tour", "t", Status.FEASIBLE, 25, None, twice, 0.0))


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16])
def test_an_array_tour_with_a_square_more_than_the_board_is_refused(dtype):
    """An open tour of the full 5 x 5 board with one knight move more, back to a square it
    has visited (at its end, or at its start): every square visited, every step a knight
    move, but 26 squares on a board of 25 — refused naming the square visited twice (the
    test counts the visits itself), as an integer array (the fast pass) or a list."""
    full = TourInstance(Board(5, 5), False, None, None, "5x5")
    outcome, _nodes, order = search_tour(full)
    assert outcome == FOUND
    tour = np.array([full.board.square(i) for i in order], dtype=dtype)
    for longer in (np.vstack([tour, tour[-2:-1]]), np.vstack([tour[1:2], tour])):
        visits = collections.Counter(tuple(int(x) for x in square) for square in longer)
        (twice,) = [square for square, count in visits.items() if count > 1]
        assert len(visits) == 25 and len(longer) == 26
        for solution in (longer, longer.tolist()):
            with pytest.raises(CheckFailed, match=re.escape(f"square {twice} is visited twice")):
                check(full, Result("tour", "t", Status.FEASIBLE, 26, None, solution, 0.0))


def test_a_column_of_minus_one_is_off_the_board_on_a_torus():
    """On a torus, (0, -1) makes the same moves as (0, cols - 1), and as an index it wraps to
    the last square: a tour that writes a removed (0, cols - 1) as (0, -1) and so skips the
    last square must be refused (as an array and as a list)."""
    rows = cols = 5
    free_end = TourInstance(Board(rows, cols, torus=True), False, None, (rows - 1, cols - 1), "t")
    outcome, _nodes, order = search_tour(free_end)
    assert outcome == FOUND
    tour = [list(free_end.board.square(i)) for i in order]
    assert tour[-1] == [rows - 1, cols - 1]
    forged = [[0, -1] if s == [0, cols - 1] else s for s in tour[:-1]]
    blocked = np.zeros((rows, cols), dtype=bool)
    blocked[0, cols - 1] = True
    holed = TourInstance(Board(rows, cols, blocked=blocked, torus=True), False, None, None, "holed")
    assert holed.board.n_free == len(forged)
    claim = Result("tour", "t", Status.FEASIBLE, len(forged), None, None, 0.0)
    for solution in (np.array(forged, dtype=np.int64), forged):
        with pytest.raises(CheckFailed, match="off the board or removed"):
            check(holed, claim.with_(solution=solution))


def optimal_answers():
    """True OPTIMAL answers of three problems (certified as given)."""
    game = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")
    yield game, bfs(game)
    board = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")
    yield board, Result("path", "t", Status.OPTIMAL, 2, 2, [[0, 0], [1, 2], [2, 4]], 0.0)
    column = KnightsInstance(Board(5, 1), "5x1")
    yield column, Result("knights", "t", Status.OPTIMAL, 5, 5, [[r, 0] for r in range(5)], 0.0)


def test_an_optimal_claim_needs_its_solution():
    """The optimum's value without the answer that reaches it is no OPTIMAL answer."""
    for instance, result in optimal_answers():
        assert check(instance, result).certified
        for bound in (result.objective, None):
            with pytest.raises(CheckFailed, match="OPTIMAL needs a solution and an objective"):
                check(instance, result.with_(solution=None, bound=bound, certificate=None))


def test_an_answer_that_names_no_problem_is_checked_as_the_instances():
    """A method's answer may leave its problem empty: it is checked as an answer to the
    instance's problem, and certified as the same answer naming it is; naming another
    problem is refused saying so."""
    for instance, result in optimal_answers():
        assert check(instance, result).certified
        assert check(instance, result.with_(problem="")).certified
        other = "tour" if result.problem != "tour" else "knights"
        with pytest.raises(CheckFailed, match=f"the answer is for problem {other!r}"):
            check(instance, result.with_(problem=other))


def test_a_feasible_claim_needs_its_objective():
    """An answer without its value is no FEASIBLE answer: the true answers of four problems
    (a tour too) stated FEASIBLE are accepted, and without their objective refused saying so
    (not left to each problem's checker to find, or not, that None is not the answer's size)."""
    full = TourInstance(Board(5, 5), False, None, None, "5x5")
    outcome, _nodes, order = search_tour(full)
    assert outcome == FOUND
    tour = Result("tour", "t", Status.OPTIMAL, 25, 25, [list(full.board.square(i)) for i in order], 0.0)
    for instance, result in [*optimal_answers(), (full, tour)]:
        feasible = result.with_(status=Status.FEASIBLE, bound=None)
        assert check(instance, feasible).verified
        with pytest.raises(CheckFailed, match="FEASIBLE needs a solution and an objective"):
            check(instance, feasible.with_(objective=None))


@pytest.mark.parametrize("cut", [1, 2, 24])
def test_an_array_tour_that_misses_squares_is_refused(cut):
    full = TourInstance(Board(5, 5), False, None, None, "5x5")
    outcome, _nodes, order = search_tour(full)
    assert outcome == FOUND
    tour = np.array([full.board.square(i) for i in order], dtype=np.int64)
    short = Result("tour", "t", Status.FEASIBLE, 25 - cut, None, tour[:-cut], 0.0)
    with pytest.raises(CheckFailed, match=f"the tour visits {25 - cut} of 25 usable squares"):
        check(full, short)


def _has_open_tour(board: Board, start: tuple[int, int], end: tuple[int, int]) -> bool:
    """The test's own search: a path from ``start`` to ``end`` through every usable square."""
    rows, cols = board.rows, board.cols
    free = {(r, c) for r in range(rows) for c in range(cols) if not board.blocked[r, c]}

    def moves(s):
        for dr, dc in _JUMPS:
            t = ((s[0] + dr) % rows, (s[1] + dc) % cols) if board.torus else (s[0] + dr, s[1] + dc)
            if t in free and t != s:
                yield t

    def extend(path: list, seen: set) -> bool:
        if len(path) == len(free):
            return path[-1] == end
        return any(
            extend([*path, t], seen | {t}) for t in set(moves(path[-1])) if t not in seen and t != end
        ) or (len(path) == len(free) - 1 and end in set(moves(path[-1])))

    return start != end and extend([start], {start})


def test_no_open_tour_between_fixed_ends_is_certified_exactly_when_none_exists():
    """Random small boards with both ends fixed: "no tour from s to e" is refused where the
    test's own search finds one, and certified where there is none."""
    rng = np.random.default_rng(31)
    exist = absent = 0
    for _ in range(120):
        rows, cols = (int(x) for x in rng.integers(3, 5, size=2))
        board = Board(rows, cols, blocked=rng.random((rows, cols)) < 0.2, torus=bool(rng.integers(2)))
        usable = [tuple(int(x) for x in s) for s in np.argwhere(~np.asarray(board.blocked))]
        if len(usable) < 3:
            continue
        s, e = (usable[int(i)] for i in rng.choice(len(usable), size=2, replace=False))
        instance = TourInstance(board, False, s, e, "t")
        claim = Result("tour", "t", Status.INFEASIBLE, None, None, None, 0.0)
        if _has_open_tour(board, s, e):
            exist += 1
            with pytest.raises(CheckFailed):
                check(instance, claim)
        else:
            absent += 1
            assert check(instance, claim).certified
    assert exist > 3 and absent > 3


# ------------------------------------------- dense placements: an attack in one direction only (seed 31)


def _attacks(chosen: list[tuple[int, int]]) -> bool:
    """The definition: two knights a jump apart (the test's own pair check)."""
    return any(
        {abs(a[0] - b[0]), abs(a[1] - b[1])} == {1, 2} for i, a in enumerate(chosen) for b in chosen[i + 1 :]
    )


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (3, 4), (4, 3), (5, 6), (8, 8)])
@pytest.mark.parametrize("jump", [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)])
def test_a_dense_placement_with_one_attack_is_refused_whatever_its_direction(rows, cols, jump):
    """A colour class (no jump joins two of its squares) plus one knight of the other colour
    whose only attacked neighbour lies in the direction ``jump``: dense enough for the grid
    pass, and refused exactly when the pair check finds the attack (a grid pass missing one
    of its four directions let such a placement through)."""
    from knightcert.problems.checkers.knights import check_placement

    offsets = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]
    tried = 0
    for r, c in itertools.product(range(rows), range(cols)):
        target = (r + jump[0], c + jump[1])
        if not (0 <= target[0] < rows and 0 <= target[1] < cols):
            continue
        others = {(r + dr, c + dc) for dr, dc in offsets}
        chosen = [
            sq
            for sq in itertools.product(range(rows), range(cols))
            if (sq[0] + sq[1]) % 2 != (r + c) % 2 and (sq == target or sq not in others)
        ]
        chosen.append((r, c))
        assert len(chosen) * 4 >= rows * cols and _attacks(chosen)
        with pytest.raises(CheckFailed, match="is attacked"):
            check_placement(KnightsInstance(Board(rows, cols), "k"), chosen)
        tried += 1
    assert tried


# ------------------------------------------------------ the jump game's optional fields (seed 31)


@pytest.mark.parametrize(
    "text", ["1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n", "1 4\n2\n0 1 1 0\n0 0\n0 1\n"]
)
def test_a_jump_solution_may_leave_out_its_output_and_its_table(text):
    """``output`` and ``players`` are optional: left out or null, the answer is certified as
    the full one is (a check that required them refused true answers); of another type, it
    is refused naming the field."""
    game = parse_jump(text)
    result = bfs(game)
    assert check(game, result).certified
    for field in ("output", "players"):
        for drop in (True, False):
            solution = copy.deepcopy(result.solution)
            if drop:
                del solution[field]
            else:
                solution[field] = None
            assert check(game, result.with_(solution=solution)).certified
        for wrong in (5, ["C\n3\n"], {"x": 1}):
            solution = {**copy.deepcopy(result.solution), field: wrong}
            with pytest.raises(CheckFailed, match=f"solution '{field}'"):
                check(game, result.with_(solution=solution))


@pytest.mark.parametrize("empty", [[], (), np.zeros((0, 2), dtype=np.int64)])
def test_an_empty_path_is_refused_as_no_path(empty):
    """A winner's path, or a player row's, with no square is no path: refused saying so
    (never an index error read as a malformed answer)."""
    game = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")
    result = bfs(game)
    assert check(game, result).certified
    winner = {**copy.deepcopy(result.solution), "path": empty}
    with pytest.raises(CheckFailed, match=f"player {re.escape(result.solution['winner'])} has no path"):
        check(game, result.with_(solution=winner))
    rows = copy.deepcopy(result.solution)
    arriving = [k for k, row in enumerate(rows["players"]) if row["path"] is not None]
    assert arriving
    for k in arriving:
        rows = copy.deepcopy(result.solution)
        rows["players"][k]["path"] = empty
        name = re.escape(rows["players"][k]["player"])
        with pytest.raises(CheckFailed, match=f"player {name} has no path"):
            check(game, result.with_(solution=rows))


# ------------------------------------------------------------------- the knights formula (seed 31)


def test_the_formulas_jump_table_is_the_knights_eight_jumps():
    """``KNIGHT_JUMPS`` (public: "the knight's eight jumps") is exactly the eight (dr, dc) with
    {|dr|, |dc|} = {1, 2}, each once: the formula's pairs do not need all eight (a jump and
    its reverse make the same pair), so only the table itself shows one missing."""
    from knightcert.problems.checkers.knights_cnf import KNIGHT_JUMPS

    assert len(KNIGHT_JUMPS) == 8
    assert set(KNIGHT_JUMPS) == set(_JUMPS)


def test_the_knights_formula_needs_at_least_one_knight():
    """``knights_cnf`` states "at least k knights" for k >= 1 (its precondition): each clause
    then holds DIMACS literals of its variables; k = 0 or less is refused, never a formula
    (which would hold the literal 0, a clause no DIMACS reader takes)."""
    from knightcert.problems.checkers.knights_cnf import knights_cnf

    for board in (Board(1, 3), Board(3, 3), Board(4, 4, torus=True)):
        for k in (1, 2):
            variables, clauses = knights_cnf(board, k)
            assert all(0 < abs(x) <= variables for clause in clauses for x in clause)
        for k in (0, -1):
            with pytest.raises(ValueError, match="k >= 1"):
                knights_cnf(board, k)


@pytest.mark.parametrize("torus", [False, True])
def test_every_pair_of_knights_is_refused_exactly_when_they_attack(torus):
    """Every placement of two knights on boards and tori of sides 1 to 5 (sparse: the
    per-knight jumps decide) against the definition: refused exactly when one is a jump from
    the other, modulo the sides on a torus (a jump off one edge is not a jump onto the next row)."""
    from knightcert.problems.checkers.knights import check_placement

    for rows, cols in itertools.product(range(1, 6), repeat=2):
        instance = KnightsInstance(Board(rows, cols, torus=torus), "k")
        cells = list(itertools.product(range(rows), range(cols)))
        for a, b in itertools.combinations(cells, 2):
            if torus:
                attack = any(
                    (a[0] + dr - b[0]) % rows == 0 and (a[1] + dc - b[1]) % cols == 0 for dr, dc in _JUMPS
                )
            else:
                attack = _attacks([a, b])
            if attack:
                with pytest.raises(CheckFailed, match="is attacked"):
                    check_placement(instance, [a, b])
            else:
                assert check_placement(instance, [a, b]) == 2


@pytest.mark.parametrize("tail", [b"\x00", b"junk", b"\x00\x00\x00\x00", "second stream"])
def test_a_proof_entry_with_bytes_after_its_stream_is_refused(tail):
    """The xz data must end where its stream ends: trailing bytes (padding, junk, a second
    stream holding another proof) make the entry corrupt, though the first stream inflates to
    exactly the declared size."""
    import lzma

    proof = lrat_text_to_binary("5 2 0 1 2 0\n")
    entry = encode_proof(proof, 3)
    assert decode_proof(entry) == proof
    packed = base64.b64decode(entry["xz"])
    extra = lzma.compress(lrat_text_to_binary("5 1 0 1 3 0\n")) if isinstance(tail, str) else tail
    forged = {**entry, "xz": base64.b64encode(packed + extra).decode("ascii")}
    with pytest.raises(CheckFailed, match="certificate 'drat'"):
        decode_proof(forged)


# ---------------------------------------------------------- textual LRAT as binary (the test's reader)


def _read_lrat_binary(data: bytes) -> list[tuple]:
    """The test's own reader of binary LRAT: ``("a", id, literals, hints)`` and ``("d", ids)``."""

    def number(i: int) -> tuple[int, int]:
        u = shift = 0
        while True:
            b = data[i]
            u |= (b & 127) << shift
            shift += 7
            i += 1
            if b < 128:
                assert not (b == 0 and shift > 7), "a superfluous zero byte"
                return u, i

    def signed(u: int) -> int:
        return -(u >> 1) if u & 1 else u >> 1

    out: list[tuple] = []
    i = 0
    while i < len(data):
        kind = chr(data[i])
        i += 1
        if kind == "a":
            ident, i = number(i)
            groups: list[list[int]] = [[], []]
            for group in groups:
                while True:
                    u, i = number(i)
                    if u == 0:
                        break
                    group.append(signed(u))
            out.append(("a", signed(ident), groups[0], groups[1]))
        else:
            assert kind == "d"
            ids: list[int] = []
            while True:
                u, i = number(i)
                if u == 0:
                    break
                ids.append(signed(u))
            out.append(("d", ids))
    return out


def test_textual_lrat_becomes_the_binary_it_spells():
    """Identifiers and literals of every size from 1 to 300 (one, two and three bytes,
    127 and 128 among them), deletions, comments and blank lines: the binary reads back,
    by the test's own reader, as the text says, first line included."""
    lines, expected = ["c a comment", ""], []
    for k in range(1, 301):
        lits = [k, -k, 2 * k + 1]
        hints = [k, 2 * k]
        lines.append(f"{k + 300} {' '.join(map(str, lits))} 0 {' '.join(map(str, hints))} 0")
        expected.append(("a", k + 300, lits, hints))
        if k % 50 == 0:
            lines.append(f"{k + 300} d {k} {k + 1} 0")
            expected.append(("d", [k, k + 1]))
    assert _read_lrat_binary(lrat_text_to_binary("\n".join(lines) + "\n")) == expected


def test_the_literal_minus_one_is_negative_in_binary():
    """``-1`` is variable 1 negated (code 3), in a lemma and as a hint alike: the sign test is
    ``< 0``, not ``< -1``."""
    assert lrat_text_to_binary("5 -1 0 -1 0\n") == b"a\x0a\x03\x00\x03\x00"
    assert lrat_text_to_binary("5 1 0 1 0\n") == b"a\x0a\x02\x00\x02\x00"


@pytest.mark.parametrize(
    "line",
    ["5", "5 1 0", "5 1 0 2 0 0", "0 1 0 2 0", "0 1 2 0", "-5 1 0 2 0", "5 1 0 2", "5 d 1 2", "5 x 0 1 0"],
)
def test_a_malformed_textual_lrat_line_is_refused(line):
    """Too few or too many zeros, a last number other than 0, an identifier that is not
    positive (also where the identifier 0 makes up the two zeros: ``0 1 2 0``), a deletion
    that does not end in 0, a word that is not a number."""
    with pytest.raises(ValueError):
        lrat_text_to_binary(f"4 1 0 1 0\n{line}\n")


# ------------------------------------------------ the degree argument past the checker's search (seed 31)


@pytest.mark.parametrize("closed", [True, False])
def test_a_square_without_a_move_proves_no_tour_past_the_search(closed):
    """A 20 x 20 board (past the checker's search) with the eight targets of (10, 10) removed,
    and eight squares of (10, 10)'s colour far from it to keep the colours even: (10, 10) has
    no move (the test's own jumps), so no tour exists, and only the degree argument says so."""
    blocked = np.zeros((20, 20), dtype=bool)
    for dr, dc in _JUMPS:
        blocked[10 + dr, 10 + dc] = True
    for c in range(0, 16, 2):
        blocked[0, c] = True  # (0, even): the colour of (10, 10)
    free = ~blocked
    assert all(not free[10 + dr, 10 + dc] for dr, dc in _JUMPS)
    colour = np.add.outer(np.arange(20), np.arange(20)) % 2
    assert (colour[free] == 0).sum() == (colour[free] == 1).sum() and free.sum() > 256
    instance = TourInstance(Board(20, 20, blocked=blocked), closed, None, None, "t")
    checked = check(instance, Result("tour", "t", Status.INFEASIBLE, None, None, None, 0.0))
    assert checked.certified
    assert "(10, 10)" in " ".join(e.how for e in checked.evidence)


@pytest.mark.parametrize("data", [None, 5, "tour", ["tour"], [["problem", "tour"]]])
def test_embedded_data_that_is_not_an_object_is_refused(data):
    """Embedded instance data of another JSON type is a malformed answer file, named as such
    (not a crash on a list or a string)."""
    with pytest.raises(AnswerFileError, match="expected an embedded instance with its problem"):
        instance_from_data(data)


@pytest.mark.parametrize("matching", [5, 2.5, True, "", "ab", {}, {"a": 1}, b""])
def test_a_matching_of_another_type_is_refused(matching):
    """A matching certificate is a list of pairs of squares: any other JSON value (an empty
    string or object included, which have a length of 0) is refused naming the field, never
    read as the empty matching or a crash."""
    from knightcert.problems.checkers.knights import check_matching

    with pytest.raises(CheckFailed, match="certificate 'matching'"):
        check_matching(KnightsInstance(Board(4, 4), "k"), matching)
    assert check_matching(KnightsInstance(Board(4, 4), "k"), []) == 0


@pytest.mark.parametrize("bad", [[[0, 1], [1, -1]], [[0, -1]], [[0, 2]]])
def test_a_closed_mask_of_integers_holds_only_0_and_1(bad):
    """A closed set given as integers: entries other than 0 and 1 (negative ones too) are
    refused, where 0/1 integers of the same shape are read as the mask they spell."""
    from knightcert.problems.checkers.fields import bool_array

    good = [[abs(x) % 2 for x in row] for row in bad]
    assert bool_array(good, "certificate 'closed'", (len(good), len(good[0]))).tolist() == [
        [bool(x) for x in row] for row in good
    ]
    with pytest.raises(CheckFailed, match="entries must be 0 or 1"):
        bool_array(bad, "certificate 'closed'", (len(bad), len(bad[0])))


@pytest.mark.parametrize(
    "entry",
    [["format", "knights", "bytes", "xz"], "format knights bytes xz", ("format", "knights", "bytes", "xz")],
)
def test_a_proof_entry_that_is_not_an_object_is_refused(entry):
    """A certificate's proof entry is an object: a list (or text) of its key names is refused
    naming the entry, not read as one."""
    from knightcert.problems.checkers.clausal_proof import proof_entry

    with pytest.raises(CheckFailed, match="expected an object with keys"):
        proof_entry(entry)


def test_a_proof_entry_whose_data_is_not_text_is_refused_naming_it():
    """``xz`` is base64 text: the same data as bytes, as a list of its characters, or a
    value of no length (a number, null) is refused naming the field, never crashes nor is
    read as the text its spelling makes."""
    from knightcert.problems.checkers.clausal_proof import proof_entry

    proof = lrat_text_to_binary("5 2 0 1 2 0\n")
    entry = encode_proof(proof, 3)
    assert decode_proof(entry) == proof
    data = entry["xz"]
    for value in (data.encode("ascii"), list(data), tuple(data), 0, 7.5, None, {"xz": data}):
        forged = {**entry, "xz": value}
        for read in (proof_entry, decode_proof):
            with pytest.raises(CheckFailed, match="xz must be text"):
                read(forged)


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (1, 4), (4, 1), (3, 3)])
def test_a_per_square_array_is_of_the_boards_shape_or_flat(shape):
    """A per-square array (round labels, path labels) is given in the board's shape or flat,
    row-major: both read as the same grid, as arrays or lists. Any other shape holding as
    many entries (transposed, one row, one column, a third axis) is refused naming the field,
    never reshaped into the board's."""
    from knightcert.problems.checkers.fields import grid

    rows, cols = shape
    values = np.arange(rows * cols, dtype=np.int64)
    want = values.reshape(shape)
    for given in (want, values, want.tolist(), values.tolist()):
        assert grid(given, "certificate 'labels'", shape).tolist() == want.tolist()
    others = {(cols, rows), (1, rows * cols), (rows * cols, 1), (rows, cols, 1), (1, rows, cols)}
    for other in sorted(others - {shape}):
        for given in (values.reshape(other), values.reshape(other).tolist()):
            with pytest.raises(CheckFailed, match=r"^certificate 'labels': shape "):
                grid(given, "certificate 'labels'", shape)


@pytest.mark.parametrize("value", [-7, -1, 0, 3, np.int64(-2)])
def test_an_integer_without_a_minimum_may_be_negative(value):
    """``integer`` and ``optional_integer`` take ``minimum=None`` for no lower limit (their
    signatures say so): every integer is read as itself; with the default minimum 0 a
    negative one is refused naming it."""
    from knightcert.problems.checkers.fields import integer, optional_integer

    assert integer(value, "x", minimum=None) == int(value)
    assert optional_integer(value, "x", minimum=None) == int(value)
    if value < 0:
        with pytest.raises(CheckFailed, match=f"x: {int(value)} is below 0"):
            integer(value, "x")


def _jump_rounds(values: np.ndarray) -> np.ndarray:
    """The test's own labelling: the fewest jumps from each cell to the goal (bottom right),
    a cell of value v jumping v cells up, down, left or right; -1 where the goal is out of reach."""
    rows, cols = values.shape
    goal = (rows - 1, cols - 1)
    rounds = np.full(values.shape, -1, dtype=np.int64)
    rounds[goal] = 0
    layer, changed = 0, True
    while changed:
        changed = False
        for r, c in itertools.product(range(rows), range(cols)):
            v = int(values[r, c])
            if rounds[r, c] >= 0 or v == 0:
                continue
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                tr, tc = r + dr * v, c + dc * v
                if 0 <= tr < rows and 0 <= tc < cols and rounds[tr, tc] == layer:
                    rounds[r, c] = layer + 1
                    changed = True
                    break
        layer += 1
    return rounds


def test_the_jump_labels_are_the_distances_to_the_goal_in_every_direction():
    """Random games of several rows (jumps up and down as well as sideways): the checker's own
    round labels equal the test's breadth-first distances, and the answer of ``bfs`` is certified."""
    from knightcert.problems.checkers.jump import labels

    rng = np.random.default_rng(31)
    for _ in range(60):
        rows, cols = (int(x) for x in rng.integers(2, 6, size=2))
        values = rng.integers(0, 4, size=(rows, cols))
        values[-1, -1] = 0
        text = f"{rows} {cols}\n1\n" + "\n".join(" ".join(map(str, row)) for row in values) + "\n0 0\n"
        game = parse_jump(text)
        every = [(r, c) for r in range(rows) for c in range(cols)]
        assert labels(game, every)[0].reshape(rows, cols).tolist() == _jump_rounds(values).tolist()
        result = bfs(game)
        assert check(game, result).verified


@pytest.mark.parametrize("drop", [True, False])
def test_an_answer_without_an_instance_field_is_checked_against_the_one_given(drop):
    """The ``instance`` field is optional (left out or null): with an instance given the
    answer is read against it; without one it is refused as embedding no instance (not as a
    malformed field)."""
    from knightcert.problems.answers import instance_for_answer

    game = parse_jump("1 4\n2\n0 1 1 0\n0 0\n0 1\n")
    data = answer_to_dict(bfs(game), game)
    if drop:
        del data["instance"]
    else:
        data["instance"] = None
    assert instance_for_answer(data, game) is game
    with pytest.raises(AnswerFileError, match="does not embed its instance"):
        instance_for_answer(data)


# ------------------------------- the checkers merged after the seed-31 draw (targeted quiet run)


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (5, 5), (6, 3)])
def test_a_separator_square_off_the_board_is_refused_naming_it(rows, cols):
    """Every square of a separator is on the board: one a row above it or below, a column left
    or right of it, is refused naming it (never read as the square its flat index wraps to,
    in the last row); the board's own squares are read as themselves (the test's numbering)."""
    from knightcert.problems.checkers.tour_separator import read_separator

    board = Board(rows, cols)
    inside = [[r, c] for r in range(rows) for c in range(cols)]
    assert read_separator(board, inside).tolist() == [r * cols + c for r, c in inside]
    for square in ([-1, 0], [-1, cols - 1], [rows, 0], [0, -1], [0, cols], [-2, 1]):
        with pytest.raises(CheckFailed, match=re.escape(f"{tuple(square)} is off the {rows} x {cols} board")):
            read_separator(board, [[0, 0], square])


@pytest.mark.parametrize("entry", [["axis", "width"], "axis width", ("axis", "width"), {"axis", "width"}])
def test_a_band_entry_that_is_not_an_object_is_refused(entry):
    """The band certificate is ``{"axis": ..., "width": ...}``: a list, text, tuple or set of
    its key names is refused naming the entry, not indexed as one (a crash)."""
    from knightcert.problems.checkers.knights_band import band_entry

    assert band_entry({"axis": "rows", "width": 6}) == {"axis": "rows", "width": 6}
    with pytest.raises(CheckFailed, match="certificate 'band': expected an object with keys axis, width"):
        band_entry(entry)


class _EqualToAnything:
    """A value no JSON holds, equal to everything (as a method's own object may be)."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize("axis", [np.array("rows"), np.array(["cols"]), _EqualToAnything(), b"rows"])
def test_a_band_axis_that_is_not_text_is_refused_naming_it(axis):
    """The axis of a band is the text ``rows`` or ``cols``: a value that is not text but
    compares equal to one of them (a numpy array of the word, an object equal to anything)
    is refused naming the field, never returned as an axis (a numpy array of ``cols`` became
    the axis ``"['cols']"``, neither of the two). Text of a ``str`` subclass is text."""
    from knightcert.problems.checkers.knights_band import AXES, band_entry

    with pytest.raises(CheckFailed, match=r"certificate 'band' axis: .* is not one of rows, cols"):
        band_entry({"axis": axis, "width": 6})
    for word in AXES:
        entry = band_entry({"axis": np.str_(word), "width": 6})
        assert entry == {"axis": word, "width": 6} and type(entry["axis"]) is str
