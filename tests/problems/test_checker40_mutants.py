"""Tests that kill the survivors of the mutation run over the checker code changed since e4edb66
(``bench/mutation/passes.py``, the warm plug-in; docs/certificates.md, "Mutation testing"):
the kernel lookup, the fields' narrow grids, and the plain-Python fast paths of the checks.
Each is small, deterministic and built from generated instances."""

from __future__ import annotations

import importlib
import random
import re

import numpy as np
import pytest

from knightcert.algorithms.jump_search import bfs
from knightcert.problems import compiled
from knightcert.problems.board import Board
from knightcert.problems.checkers import CheckFailed, certify, check
from knightcert.problems.checkers.common import check_knight_path, knight_steps, on_usable
from knightcert.problems.checkers.fields import grid
from knightcert.problems.checkers.jump import replay
from knightcert.problems.checkers.path import check_path_moves
from knightcert.problems.checkers.plain import exact_pairs, exact_result, plain
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.jump_game import JumpInstance, parse_jump
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.moves import KNIGHT_OFFSETS
from knightcert.problems.result import Result, Status

# ------------------------------------------------------------------------------ compiled kernels


def test_each_kernel_signature_has_its_functions_arguments():
    """The ahead-of-time signature of each kernel names as many arguments as the numba function
    takes (a signature one array short or long is built, and checked against, wrongly)."""
    for name, (file, signature) in compiled.KERNELS.items():
        module = importlib.import_module("knightcert." + file.removesuffix(".py").replace("/", "."))
        arguments = re.findall(r"(\w+)(\[[^]]*\])?", signature[signature.rindex("(") :])
        assert len(arguments) == getattr(module, name).py_func.__code__.co_argcount, name


def test_kernel_or_numba_takes_the_built_kernel_else_numbas(monkeypatch):
    """The built kernel when there is one, numba's function of that name when not."""
    from knightcert.problems.checkers import path_kernel

    built = object()
    try:
        for found, expected in ((None, path_kernel.first_rise), (built, built)):
            compiled.kernel_or_numba.cache_clear()
            monkeypatch.setattr(compiled, "kernel", lambda name, found=found: found)
            assert compiled.kernel_or_numba("first_rise", path_kernel.__name__) is expected
    finally:
        monkeypatch.undo()
        compiled.kernel_or_numba.cache_clear()


# ------------------------------------------------------------------------------------ fields


def test_a_grid_is_int64_or_int32_as_given():
    """``grid`` keeps an int32 array as it is and makes every other integer array int64."""
    given = np.arange(6, dtype=np.int32)
    assert grid(given, "f", (2, 3)).dtype == np.int32
    for dtype in (np.int8, np.int16, np.uint16, np.uint32, np.int64):
        got = grid(np.arange(6, dtype=dtype), "f", (2, 3))
        assert got.dtype == np.int64 and got.tolist() == [[0, 1, 2], [3, 4, 5]], dtype


# ------------------------------------------------------------------------------------ common


@pytest.mark.parametrize(
    ("squares", "words"),
    [
        ([[0, 0], [1, 2], [1, 3], [2, 4]], "step 2: (1, 2) -> (1, 3)"),
        ([[0, 0], [1, 2], [2, 4], [2, 3]], "step 3: (2, 4) -> (2, 3)"),
    ],
)
def test_a_bad_step_is_named_by_its_number_and_its_two_squares(squares, words):
    """The first step that is not a knight move, counted from 1, with the squares it joins."""
    with pytest.raises(CheckFailed, match=re.escape(f"{words} is not a knight move")):
        check_knight_path(Board(5, 5), np.array(squares))


def test_squares_off_a_one_square_board_with_its_square_removed_are_unusable():
    """Off the board is unusable whatever the board holds, even on a board of one removed square."""
    squares = np.array([[0, 0], [0, 1], [1, 0], [-1, 0], [0, -1]])
    _, usable = on_usable(Board(1, 1, np.ones((1, 1), dtype=bool)), squares)
    assert usable.tolist() == [False] * 5


@pytest.mark.parametrize(
    ("rows", "cols", "torus"),
    [(5, 6, False), (1, 7, True), (2, 3, True), (3, 3, True), (4, 4, True), (5, 6, True)],
)
def test_knight_steps_agree_with_the_eight_offsets(rows, cols, torus):
    """Every step between two squares of a small board (each around the cycle on a torus) is a
    knight move exactly when it is one of the eight offsets (modulo the size on a torus)."""
    offsets = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    a = np.array([x for x in cells for _ in cells])
    b = np.array([y for _ in cells for y in cells])
    if torus:
        moves = {(dr % rows, dc % cols) for dr, dc in offsets}
        want = [
            ((v - r) % rows, (w - c) % cols) in moves
            for (r, c), (v, w) in zip(a.tolist(), b.tolist(), strict=True)
        ]
    else:
        want = [(v - r, w - c) in offsets for (r, c), (v, w) in zip(a.tolist(), b.tolist(), strict=True)]
    assert knight_steps(Board(rows, cols, torus=torus), a, b).tolist() == want


# ------------------------------------------------------------------------------------- plain


def test_exact_result_copies_a_solution_array_unless_told_it_is_the_sole_holder():
    """By default the solution array is copied: the method may still hold and change it."""
    solution = np.array([[0, 0], [1, 2]])
    answer = Result("tour", "t", Status.FEASIBLE, 2, None, solution, 0.0)
    copied = exact_result(answer)
    assert copied.solution is not solution and not np.shares_memory(copied.solution, solution)
    assert exact_result(answer, sole_holder=True).solution is solution


@pytest.mark.parametrize(
    ("value", "exact"),
    [
        ([[0, 1], [2, 3]], True),
        ([], True),
        ([[0, 1], (2, 3)], False),
        ([(0, 1)], False),
        ([[0, 1], [2, 3, 4]], False),
        ([[0, 1], [2]], False),
        ([[0, True]], False),
        ([[0, 1.0]], False),
        ((([0, 1]),), False),
    ],
)
def test_exact_pairs_is_a_list_of_two_int_lists_and_nothing_else(value, exact):
    assert exact_pairs(value) is exact


@pytest.mark.parametrize("array", [np.array(["a", "b"]), np.array([1, None], dtype=object)])
def test_plain_refuses_an_array_that_is_not_of_numbers(array):
    with pytest.raises(CheckFailed, match="is not an answer's"):
        plain(array, "certificate")
    with pytest.raises(CheckFailed, match="is not an answer's"):
        plain({"labels": array}, "certificate")


def test_a_certified_answer_drops_the_words_of_an_earlier_check():
    """The answer's own ``check_error`` and ``rejected_claim`` are not carried into the check's
    result (a certified answer would still read as rejected); its other entries are."""
    info = {"check_error": "stale", "rejected_claim": "optimal", "mine": 1}
    four = Result("knights", "t", Status.OPTIMAL, 4, 4, [[0, 0], [0, 1], [1, 0], [1, 1]], 0.0, info=info)
    checked = certify(knights_instance(2), four)
    assert checked.verified and checked.info == {"mine": 1}
    assert exact_result(four).info == info  # no problem named: the info as it is


def test_exact_result_names_the_answers_problem_unless_given_one():
    answer = Result("knights", "t", Status.UNKNOWN, None, None, None, 0.0)
    assert exact_result(answer).problem == "knights"
    assert exact_result(answer, problem="tour").problem == "tour"
    assert certify(knights_instance(2), answer.with_(problem="")).problem == "knights"


class _Array(np.ndarray):
    pass


class _Int(int):
    pass


class _Float(float):
    pass


def test_plain_copies_into_the_base_types_only():
    """An array subclass becomes a base ndarray; an int subclass in a list of every atom type an
    exact int (a list whose types include the atoms' is not exact for that); a float subclass a
    float."""
    assert type(plain(np.arange(3).view(_Array))) is np.ndarray
    copied = plain([None, True, 1, 1.0, "a", _Int(5)])
    assert list(map(type, copied)) == [type(None), bool, int, float, str, int] and copied[-1] == 5
    for number in (_Float(2.5), np.float64(2.5), np.float32(2.5)):
        assert type(plain(number)) is float and plain(number) == 2.5


def test_plain_copies_an_array_and_lists_of_lists_into_exact_types():
    """An array is copied (the method may still change its own); lists inside a list are copied
    to exact atoms, and only lists of ``[int, int]`` pairs are known as exact pairs."""
    array = np.arange(4)
    assert not np.shares_memory(plain(array), array)
    inner = plain([[None, True, 1, 1.0, "a", _Int(5)]])[0]
    assert list(map(type, inner)) == [type(None), bool, int, float, str, int]
    assert not exact_pairs(plain([[0, 1], [2, 3, 4]])) and exact_pairs(plain([[0, 1], [2, 3]]))


def test_plain_keeps_an_array_in_a_dict_an_array_and_makes_one_in_a_list_a_list():
    copied = plain({"labels": np.arange(3), "rows": [np.arange(2)]})
    assert type(copied["labels"]) is np.ndarray and copied["labels"].tolist() == [0, 1, 2]
    assert copied["rows"] == [[0, 1]] and type(copied["rows"][0]) is list


# -------------------------------------------------------------------------------------- path


def test_a_shortest_path_of_300_moves_is_certified_optimal():
    """Labels are compared by value (300 is not a small int Python keeps once): on a 1 x 1200
    wrapped row a knight moves 1 or 2 columns, so C = (0, 0) is 300 moves from S = (0, 600)."""
    instance = LostKnightInstance(Board(1, 1200, torus=True), (0, 0), (0, 600))
    path = [[0, 2 * k] for k in range(301)]
    assert check(instance, Result("path", "t", Status.OPTIMAL, 300, 300, path, 0.0)).certified


@pytest.mark.parametrize("offset", range(8))
def test_a_closed_set_left_by_a_single_move_is_refused(offset):
    """C boxed in on a 5 x 5 wrapped board but for one move: the set {C} claimed closed is
    refused, whichever of the eight moves leaves it."""
    blocked = np.zeros((5, 5), dtype=bool)
    for dr, dc in KNIGHT_OFFSETS:
        blocked[(2 + dr) % 5, (2 + dc) % 5] = True
    dr, dc = KNIGHT_OFFSETS[offset]
    blocked[(2 + dr) % 5, (2 + dc) % 5] = False
    instance = LostKnightInstance(Board(5, 5, blocked, torus=True), (2, 2), (4, 2))
    closed = np.zeros((5, 5), dtype=bool)
    closed[2, 2] = True
    claim = Result("path", "t", Status.INFEASIBLE, None, None, None, 0.0, certificate={"closed": closed})
    with pytest.raises(CheckFailed, match="a knight move leaves the closed set"):
        check(instance, claim)


# -------------------------------------------------------------------------------------- jump

#: A 3 x 3 game: A (a 2 in a corner) arrives in 2 rounds by either corner, B (a 0) never.
CORNERS = "3 3\n2\n2 0 2\n0 0 0\n2 0 0\n0 0\n0 1\n"
ROW_A = {"player": "A", "start": [0, 0], "rounds": 2, "key": 2, "path": [[0, 0], [0, 2], [2, 2]]}
ROW_B = {"player": "B", "rounds": None, "key": None}


def _corners(rows: list, path=ROW_A["path"]) -> Result:
    solution = {"winner": "A", "round": 2, "key": 2, "path": path, "output": "A\n2\n", "players": rows}
    return Result("jump", "t", Status.OPTIMAL, 2, 2, solution, 0.0)


def test_jump_rows_without_a_start_or_a_path_and_a_winners_path_as_an_array_are_certified():
    game = parse_jump(CORNERS)
    assert check(game, _corners([{"player": "A", "rounds": 2, "key": 2}, ROW_B])).certified
    assert check(game, _corners([ROW_A, ROW_B], path=np.array(ROW_A["path"]))).certified


@pytest.mark.parametrize(
    ("rows", "words"),
    [
        ([{**ROW_A, "path": [[0, 0], [2, 0], [2, 1], [2, 2]]}, ROW_B], "is not a jump"),
        (
            [{**ROW_A, "path": [[0, 0], [0, 2], [0, 0], [0, 2], [2, 2]]}, ROW_B],
            "gives (4, 2), reported (2, 2)",
        ),
        ([{"player": "A", "rounds": 1, "key": None}, ROW_B], "reported (1, None), the labels prove (2, 2)"),
        ([ROW_A, {**ROW_B, "key": 2}], "reported never to arrive has a key or a path"),
        ([ROW_A, {**ROW_B, "path": [[0, 1]]}], "reported never to arrive has a key or a path"),
        ([ROW_A, {**ROW_B, "start": {0: 0, 1: 1}}], "[1] 'start'"),
        ([{"player": "A", "rounds": 2, "key": 2, "zz": 1, "zy": 2}, ROW_B], "unknown field 'zy'"),
    ],
)
def test_a_wrong_jump_row_is_refused(rows, words):
    """A row's path is replayed unless it is the winner's own (the same squares), its claim
    compared with the labels both ways, a never-arriving player has neither key nor path, a start
    is a pair, and the first unknown field is named."""
    with pytest.raises(CheckFailed, match=re.escape(words)):
        check(parse_jump(CORNERS), _corners(rows))


def test_a_player_at_the_goal_and_one_a_round_away_are_ranked():
    """B starts on the goal (0 rounds: the winner); A arrives in 1 round (no key)."""
    game = parse_jump("1 3\n2\n2 1 0\n0 0\n0 2\n")
    answer = bfs(game)
    assert answer.solution["winner"] == "B" and answer.solution["players"][0]["rounds"] == 1
    assert check(game, answer).certified


# ------------------------------------------------------- the fast paths against the general checks


def _outcome(check, *args):
    """What a check says: its value, or the words it fails with."""
    try:
        return check(*args)
    except CheckFailed as exc:
        return f"CheckFailed: {exc}"


def _variants(path: list, rows: int, cols: int, rng: random.Random, extra: list) -> list:
    """``path`` and paths one square or one step away from it (off the board by a size, next
    to it, a square repeated or dropped, ``extra`` squares put in)."""
    k = rng.randrange(len(path))
    r, c = path[k]
    wrong = [
        [r + rows, c],
        [r, c + cols],
        [r - rows, c],
        [r, c - cols],
        [-1, c],
        [r, -1],
        [rows, c],
        [r, cols],
    ]
    wrong += [[r, (c + 1) % cols], [(r + 1) % rows, c], [(r + 1) % rows, (c + 1) % cols], *extra]
    out = [path, path[:k] + path[k + 1 :], path[:k] + path[k : k + 1] + path[k:], path + path[-1:]]
    out += [[*path[:k], w, *path[k + 1 :]] for w in wrong]
    return [p for p in out if p]


def test_the_lost_knights_short_path_check_agrees_with_the_vectorised_one():
    """Short paths of ``[int, int]`` lists (read in plain Python) get the verdict the same squares
    get as tuples (the vectorised check): on small wrapped boards with blocked squares, walks
    from C to S and paths one square off them."""
    rng, seen = random.Random(40), 0
    while seen < 1000:
        rows, cols = rng.randint(1, 6), rng.randint(2, 6)
        blocked = np.array([[rng.random() < 0.2 for _ in range(cols)] for _ in range(rows)])
        free = [(r, c) for r in range(rows) for c in range(cols) if not blocked[r, c]]
        if len(free) < 2:
            continue
        walk = [rng.choice(free)]
        for _ in range(rng.randint(1, 9)):
            dr, dc = rng.choice(KNIGHT_OFFSETS)
            step = ((walk[-1][0] + dr) % rows, (walk[-1][1] + dc) % cols)
            if not blocked[step]:
                walk.append(step)
        if walk[-1] == walk[0]:
            continue
        instance = LostKnightInstance(Board(rows, cols, blocked, torus=True), walk[0], walk[-1])
        extra = [list(map(int, s)) for s in np.argwhere(blocked)[:2]]
        for path in _variants([list(s) for s in walk], rows, cols, rng, extra):
            seen += 1
            want = _outcome(check_path_moves, instance, [tuple(s) for s in path])
            assert _outcome(check_path_moves, instance, path) == want, (instance.board, walk, path)


def test_the_jump_games_short_replay_agrees_with_the_compiled_one():
    """Short paths of ``[int, int]`` lists (replayed in plain Python) get the verdict the same
    squares get as tuples (the compiled replay): walks of each player on small random boards,
    those that reach the goal and paths one square off them."""
    rng, seen, arrived = random.Random(40), 0, 0
    while seen < 1000 or arrived < 50:
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        values = np.array([[rng.randint(0, 3) for _ in range(cols)] for _ in range(rows)], dtype=np.int64)
        starts = [(rng.randrange(rows), rng.randrange(cols)) for _ in range(rng.randint(1, 3))]
        instance = JumpInstance(values, tuple(starts))
        player = rng.randrange(len(starts))
        walk = [list(starts[player])]
        while walk[-1] != [rows - 1, cols - 1] and len(walk) < 12:
            r, c = walk[-1]
            v = int(values[r, c])
            ends = ((r + v, c), (r - v, c), (r, c + v), (r, c - v))
            steps = [[a, b] for a, b in ends if 0 <= a < rows and 0 <= b < cols]
            if v == 0 or not steps:
                break
            walk.append(rng.choice(steps))
        arrived += walk[-1] == [rows - 1, cols - 1]
        r, c = walk[-1]
        extra = [[r + 1, c + 1], [r + int(values[r, c]), c + int(values[r, c])], [rows - 1, cols - 1]]
        for path in _variants(walk, rows, cols, rng, extra):
            seen += 1
            want = _outcome(replay, instance, player, [tuple(s) for s in path])
            assert _outcome(replay, instance, player, path) == want, (values.tolist(), starts, player, path)


@pytest.mark.parametrize("rows", [1, 2, 3, 4, 5, 6])
def test_every_single_step_of_a_lost_knight_gets_the_vectorised_verdict(rows):
    """Each one-move path between two squares of a wrapped board gets, as ``[int, int]`` lists,
    the verdict it gets as tuples."""
    for cols in range(1, 7):
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        for a in cells:
            for b in cells:
                if a != b:
                    instance = LostKnightInstance(Board(rows, cols, torus=True), a, b)
                    want = _outcome(check_path_moves, instance, [a, b])
                    got = _outcome(check_path_moves, instance, [list(a), list(b)])
                    assert got == want, (rows, cols, a, b)


@pytest.mark.parametrize("rows", [1, 2, 3, 4])
def test_every_one_and_two_round_replay_gets_the_compiled_verdict(rows):
    """Each path of one or two rounds to the goal (every start, every middle square) gets, as
    ``[int, int]`` lists, the verdict it gets as tuples, on boards of values 0 to 3."""
    rng = random.Random(rows)
    for cols in range(1, 5):
        values = np.array([[rng.randint(0, 3) for _ in range(cols)] for _ in range(rows)], dtype=np.int64)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        goal = (rows - 1, cols - 1)
        for start in cells:
            instance = JumpInstance(values, (start,))
            for path in [[start, goal]] + [[start, middle, goal] for middle in cells]:
                want = _outcome(replay, instance, 0, path)
                assert _outcome(replay, instance, 0, [list(s) for s in path]) == want, (values, path)


@pytest.mark.parametrize(
    ("values", "start", "path"),
    [
        ([[0], [2], [0], [4]], (1, 0), [[1, 0], [-1, 0], [3, 0]]),
        ([[0, 2, 0, 4]], (0, 1), [[0, 1], [0, -1], [0, 3]]),
        ([[0], [3], [0], [0]], (1, 0), [[1, 0], [3, 0]]),  # 2 rows down, not 3
        ([[0, 2], [0, 0], [1, 0]], (2, 0), [[2, 0], [0, 1], [2, 1]]),  # a diagonal first round
        ([[0, 8, 0, 0, 0]], (0, 1), [[0, 1], [0, 4]]),  # 3 columns on: the value is (0 + 4) << 1
    ],
)
def test_a_replay_through_a_square_before_the_board_is_refused(values, start, path):
    """A jump to row or column -1 leaves the board, though the value read there (the board's
    last row or column, by numpy's indexing) would take the path on to the goal; a jump of
    another length than its value, or across both axes, is none."""
    instance = JumpInstance(np.array(values, dtype=np.int64), (start,))
    with pytest.raises(CheckFailed):
        replay(instance, 0, path)
