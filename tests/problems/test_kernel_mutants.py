"""Tests that kill the mutants of the checker code changed for issues 40 and 42 (s48's mutation
run: the kernels ``first_rise`` and ``replay_fault``, the labelling's and the fields' checks), each
through the public checker: a blocked square's label is no part of a labelling's proof, a refused
labelling or path names its first fault (the goal reached before the path's end first)."""

from __future__ import annotations

import numpy as np
import pytest

from knightcert.algorithms.jump_search import bfs
from knightcert.problems.checkers import check
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.path import distance_labels
from knightcert.problems.jump_game import JumpInstance, parse_jump
from knightcert.problems.lost_knight import parse_lost_knight
from knightcert.problems.moves import KNIGHT_OFFSETS
from knightcert.problems.result import Result, Status

# 6 x 6 torus, C to S in 2 moves; (3, 3) and (5, 1) blocked
WALLED = parse_lost_knight("C.....\n......\n....S.\n...x..\n......\n.x....\n")


@pytest.mark.parametrize("low", [-7, -1])
def test_a_blocked_squares_label_is_not_checked(low):
    """The labelling's condition is on moves between free squares: a blocked square labelled
    far below its free neighbours (a move from it would grow by 3 or more) is still a proof;
    a free square labelled so is refused."""
    labels = np.minimum(distance_labels(WALLED, cap=2).reshape(6, 6), 2)
    path = [[0, 0], [1, 2], [2, 4]]
    claim = Result("path", "t", Status.OPTIMAL, 2, 2, path, 0.0)
    for r, c in ((3, 3), (5, 1)):
        labels[r, c] = low
        free = [labels[(r + dr) % 6, (c + dc) % 6] for dr, dc in KNIGHT_OFFSETS]
        assert max(free) > low + 1  # a move from the blocked square would break the labelling
    assert check(WALLED, claim.with_(certificate={"labels": labels})).certified
    labels[4, 4] = low  # free: the moves from it to its free neighbours grow by 2 or more
    with pytest.raises(CheckFailed, match="grows by more than 1"):
        check(WALLED, claim.with_(certificate={"labels": labels}))


def _game(values, starts):
    return JumpInstance(np.array(values, dtype=np.int64), tuple(starts))


def test_a_path_through_the_goal_before_its_end_is_refused_for_that():
    """The goal (value 2 here, so a player may jump off it and back): the winner's path that
    reaches it in round 1 and again in round 3 is refused for reaching it early, as is a table
    row's, not merely for being slower than the labels (the reason named is the first fault)."""
    game = _game([[3, 2, 5, 2]], [(0, 0)])
    result = bfs(game)
    assert (result.solution["winner"], result.solution["round"]) == ("A", 1)
    detour = [[0, 0], [0, 3], [0, 1], [0, 3]]  # every round a jump of its cell's value
    winner = {**result.solution, "round": 3, "key": 2, "path": detour}
    with pytest.raises(CheckFailed, match="player A's path reaches the goal before its end"):
        check(game, result.with_(objective=3, bound=3, solution=winner))
    two = _game([[3, 2, 5, 2]], [(0, 0), (0, 0)])
    result = bfs(two)
    rows = [dict(row) for row in result.solution["players"]]
    rows[1].update(rounds=3, key=2, path=detour)
    with pytest.raises(CheckFailed, match="player B's path reaches the goal before its end"):
        check(two, result.with_(solution={**result.solution, "players": rows}))


def test_a_round_spent_on_a_stuck_cell_is_the_fault_named():
    """A cell of value 0 has no jump, not a jump of 0 onto itself: the path that stays on it
    is refused at that round, not at the later round that leaves it."""
    game = _game([[2, 1, 0, 1, 0]], [(0, 0)])
    result = bfs(game)
    assert result.status is Status.INFEASIBLE  # (0, 2) is stuck, and (0, 3) jumps past the goal
    stay = {"winner": "A", "round": 3, "key": 0, "path": [[0, 0], [0, 2], [0, 2], [0, 4]]}
    claim = Result("jump", "t", Status.FEASIBLE, 3, None, stay, 0.0)
    with pytest.raises(CheckFailed, match=r"player A, round 2: \(0, 2\) -> \(0, 2\) is not a jump"):
        check(game, claim)


def test_a_refused_labelling_names_its_first_rising_move():
    """The move named is the first that breaks the labelling, by its source square (row-major),
    then in the library's order of moves: (5, 5) labelled 9 is reached from (0, 1), (1, 0),
    (0, 3) ... across the torus, first from (0, 1) by (-1, -2)."""
    game = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")
    labels = np.minimum(distance_labels(game, cap=2).reshape(6, 6), 2)
    labels[5, 5] = 9
    claim = Result("path", "t", Status.OPTIMAL, 2, 2, [[0, 0], [1, 2], [2, 4]], 0.0)
    with pytest.raises(CheckFailed, match=r"grows by more than 1 on the move \(0, 1\) -> \(5, 5\)$"):
        check(game, claim.with_(certificate={"labels": labels}))
    assert KNIGHT_OFFSETS[2] == (-1, -2)  # the third move: 8 u + k = 10 encodes it


def _sparse(free):
    """An 8 x 8 torus blocked but for C (5, 5), S (6, 7) (one move apart) and the squares ``free``."""
    rows = [["x"] * 8 for _ in range(8)]
    rows[5][5], rows[6][7] = "C", "S"
    for r, c in free:
        rows[r][c] = "."
    return parse_lost_knight("".join("".join(row) + "\n" for row in rows))


@pytest.mark.parametrize(
    ("u", "v", "low", "high", "walls", "corner"),
    [
        ((0, 1), (1, 3), 2, 4, 2, 4),  # row 0's least label 2, 2 below the top; (0, 0) labelled the top
        ((1, 1), (2, 3), 2, 4, 2, 2),  # the rise from an odd row
        ((0, 1), (1, 3), -1, 1, 1, 1),  # the top 1 (S's label), an odd least label -1
        ((1, 1), (3, 2), 2, 4, 2, 2),  # a move one column right from an odd column
    ],
)
def test_every_row_that_can_start_a_rise_is_searched(u, v, low, high, walls, corner):
    """A labelling of a board blocked but for C, S and two squares ``u`` -> ``v`` (a move, the only
    one between free squares apart from C -> S) that rises by more than 1 on that move only is
    refused, naming it; blocked squares' labels (``walls``, and ``corner`` at (0, 0)) are unchecked
    but count in the row's least label and in the top."""
    game = _sparse([u, v])
    labels = np.full((8, 8), walls)
    labels[0, 0], labels[5, 5], labels[6, 7], labels[u], labels[v] = corner, 0, 1, low, high
    claim = Result("path", "t", Status.OPTIMAL, 1, 1, [[5, 5], [6, 7]], 0.0)
    with pytest.raises(CheckFailed, match=rf"on the move \({u[0]}, {u[1]}\) -> \({v[0]}, {v[1]}\)$"):
        check(game, claim.with_(certificate={"labels": labels}))
    labels[v] = low + 1
    assert check(game, claim.with_(certificate={"labels": labels})).certified


def test_the_labellings_of_one_row_tori_are_certified():
    """On a torus of one row a knight's move two rows up or down lands in that row: every true
    labelling is certified (a kernel that left such a move's row unwrapped would read outside
    the labels, and refuse some of these)."""
    from knightcert.algorithms.path_search import bfs

    for cols in range(3, 10):
        for start, end in ((0, cols - 1), (cols - 1, 0), (1, cols // 2 + 1)):
            row = ["."] * cols
            row[start], row[end] = "C", "S"
            game = parse_lost_knight("".join(row) + "\n")
            result = bfs(game)
            labels = distance_labels(game, cap=int(result.objective or 0))
            assert check(game, result.with_(certificate={"labels": labels})).certified


@pytest.mark.parametrize(
    ("third", "path", "words"),
    [
        (7, [[0, 0], [0, 1], [0, 2], [1, 2], [0, 5]], r"round 3: \(0, 2\) -> \(1, 2\)"),  # a row past
        (7, [[0, 0], [0, 1], [0, 2], [0, 3], [0, 10], [0, 5]], r"round 4: \(0, 3\) -> \(0, 10\)"),
        (7, [[0, 0], [0, 7], [0, 5]], r"round 1: \(0, 0\) -> \(0, 7\)"),  # past the goal's column
        (7, [[0, 0], [1, 5], [0, 5]], r"round 1: \(0, 0\) -> \(1, 5\)"),  # below the goal
        (3, [[0, 0], [0, 1], [0, 2], [0, 3], [0, 6], [0, 5]], r"round 4: \(0, 3\) -> \(0, 6\)"),  # a column
        (3, [[0, 0], [0, 1], [0, 2], [0, 3], [3, 3], [0, 5]], r"round 4: \(0, 3\) -> \(3, 3\)"),  # rows past
        (3, [[0, 0], [-1, 0], [0, 5]], r"round 1: \(0, 0\) -> \(-1, 0\)"),  # one row above the first
        (3, [[0, 0], [0, -1], [0, 5]], r"round 1: \(0, 0\) -> \(0, -1\)"),  # one column left of the first
    ],
)
def test_a_jump_off_the_board_is_the_round_named(third, path, words):
    """A jump of the cell's value along its row or column that leaves the board is refused at
    that round (not at the next, which starts off the board), with its squares."""
    game = _game([[1, 1, 1, third, 2, 0]], [(0, 0)])
    claim = Result("jump", "t", Status.FEASIBLE, len(path) - 1, None, {}, 0.0)
    solution = {"winner": "A", "round": len(path) - 1, "key": 1, "path": path}
    with pytest.raises(CheckFailed, match=rf"player A, {words} is not a jump of the cell's value$"):
        check(game, claim.with_(solution=solution))


def test_a_path_through_the_goal_of_a_board_of_two_rows_is_refused_for_that():
    """The goal is the last row's last cell whatever the number of rows (here 2, even)."""
    game = _game([[2, 1], [2, 1]], [(0, 1)])
    result = bfs(game)
    detour = {**result.solution, "round": 3, "key": 1, "path": [[0, 1], [1, 1], [0, 1], [1, 1]]}
    with pytest.raises(CheckFailed, match="player A's path reaches the goal before its end"):
        check(game, result.with_(objective=3, bound=3, solution=detour))


@pytest.mark.parametrize(
    ("values", "path", "words"),
    [
        ([[3, 2, 5, 0]], [[0, 0], [0, 3], [0, 3]], "player A's path reaches the goal before its end"),
        ([[3, 2, 5, 2]], [[0, 3], [0, 1], [0, 3]], "player A's path reaches the goal before its end"),
        ([[2, 1, 1], [1, 1, 0]], [[0, 0], [1, 1], [1, 2]], r"round 1: \(0, 0\) -> \(1, 1\) is not a jump"),
        ([[2, 1, 1], [1, 1, 0]], [[0, 0], [0, 1], [0, 2], [1, 2]], r"round 1: \(0, 0\) -> \(0, 1\) is not"),
    ],
)
def test_a_stay_on_the_goal_and_a_diagonal_jump_are_refused_for_that(values, path, words):
    """The goal reached one round before the path's end (a stay there is no jump either, but the
    first fault is the goal reached early), or left from the start on it; a jump diagonally
    across the cell's value (one row and one column for a 2), or shorter than it, is no jump."""
    game = _game(values, [tuple(path[0])])
    solution = {"winner": "A", "round": len(path) - 1, "key": 2, "path": path}
    with pytest.raises(CheckFailed, match=words):
        check(game, Result("jump", "t", Status.FEASIBLE, len(path) - 1, None, solution, 0.0))


BOARD = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")  # 6 x 6 torus: 2 moves


def test_the_ends_labels_are_checked_before_any_move():
    """C labelled below 0, S above the claimed length, or the true labels (S at 2) under a claim
    of 4 moves: each is refused for its end's label, which no move's check replaces (the last
    one would certify a false optimum)."""
    path = [[0, 0], [1, 2], [2, 4]]
    claim = Result("path", "t", Status.OPTIMAL, 2, 2, path, 0.0)
    true = np.minimum(distance_labels(BOARD, cap=2).reshape(6, 6), 2)
    low, high = true.copy(), true.copy()
    low[0, 0], high[2, 4] = -1, 3
    with pytest.raises(CheckFailed, match="label of C is not 0"):
        check(BOARD, claim.with_(certificate={"labels": low}))
    with pytest.raises(CheckFailed, match="label of S is 3, not 2"):
        check(BOARD, claim.with_(certificate={"labels": high}))
    longer = [[0, 0], [1, 2], [0, 0], [1, 2], [2, 4]]
    with pytest.raises(CheckFailed, match="label of S is 2, not 4"):
        check(BOARD, Result("path", "t", Status.OPTIMAL, 4, 4, longer, 0.0, certificate={"labels": true}))


def test_a_labelling_of_another_size_is_refused():
    from knightcert.problems.checkers.path import check_distance_labels

    true = distance_labels(BOARD, cap=2).reshape(-1).astype(np.int64)
    for labels in (true[:-1], np.append(true, 2)):
        with pytest.raises(CheckFailed, match=f"labelling has {labels.size} entries, the board 36 squares"):
            check_distance_labels(BOARD, labels, 2)


def test_a_flat_labelling_of_a_board_of_more_than_256_squares_is_certified():
    """17 x 17 torus (289 squares), the labels given flat: sizes past the small integers CPython
    keeps one object of are compared by value."""
    rows = ["." * 17 for _ in range(17)]
    rows[0], rows[4] = "C" + "." * 16, "." * 2 + "S" + "." * 14
    game = parse_lost_knight("\n".join(rows) + "\n")
    from knightcert.algorithms.path_search import bfs as path_bfs

    result = path_bfs(game)
    labels = distance_labels(game, cap=int(result.objective or 0)).reshape(-1).tolist()
    assert len(labels) == 289
    assert check(game, result.with_(certificate={"labels": labels})).certified


def test_a_field_neither_flat_nor_of_the_shape_is_refused():
    from knightcert.problems.checkers.fields import bool_array, grid

    with pytest.raises(CheckFailed, match=r"shape \(5,\), expected \(2, 2\)"):
        grid([1, 2, 3, 4, 5], "f", (2, 2))
    with pytest.raises(CheckFailed, match=r"shape \(\), expected \(1, 1\)"):
        bool_array(np.array(True), "f", (1, 1))


EX1 = "1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n"  # C wins in round 3; B needs 4


@pytest.mark.parametrize("last", [[0, 7], [0, 9]])  # the cell before the goal, one past it
def test_a_path_that_ends_elsewhere_than_the_goal_is_refused_for_that(last):
    game = parse_jump(EX1)
    result = bfs(game)
    short = {**result.solution, "path": [[0, 2], [0, 5], [0, 6], last]}
    with pytest.raises(CheckFailed, match="player C's path does not end at the goal"):
        check(game, result.with_(solution=short))


@pytest.mark.parametrize("starts", ["0 0\n0 1\n0 2\n", "0 2\n0 1\n0 0\n"])
def test_a_row_holding_the_winners_own_path_is_replayed_for_its_player(starts):
    """A row of the table that holds the winner's path object itself (not a copy) is replayed for
    its own player all the same: player B does not start where the winner does (winner C, then A)."""
    game = parse_jump(EX1.rsplit("\n", 4)[0] + "\n" + starts)
    result = bfs(game)
    rows = [dict(row) for row in result.solution["players"]]
    rows[1]["path"] = result.solution["path"]  # the same list, B's rounds and key kept
    with pytest.raises(CheckFailed, match="player B's path does not start at its start cell"):
        check(game, result.with_(solution={**result.solution, "players": rows}))


@pytest.mark.parametrize(("cell", "keys"), [(4, [2, 1, 1, 1, 3, 1]), (5, [2, 0, 0, 0, 2, 0])])
def test_a_tie_key_two_rounds_out_is_the_cells_own_value(cell, keys):
    """The cells two rounds from the goal carry their own value as tie key: one above (3 for a 2)
    or below (0 for a 1, its predecessors' keys lowered too, so that no key is above a
    successor's) is refused for that."""
    game = parse_jump(EX1)
    result = bfs(game)
    forged = np.array([[*keys, -1, -1, -1]], dtype=np.int64)
    assert forged[0, cell] != game.values[0, cell]
    certificate = {"rounds": result.certificate["rounds"], "keys": forged}
    with pytest.raises(CheckFailed, match="two rounds from the goal does not have its own value as tie key"):
        check(game, result.with_(certificate=certificate))


def test_dicts_nested_past_the_deepest_level_are_refused():
    """Each dict is one level deeper than its holder (the copy counts them as it counts lists)."""
    from knightcert.problems.checkers.plain import MAX_DEPTH, plain

    nested: object = 0
    for _ in range(MAX_DEPTH + 1):
        nested = {"k": nested}
    assert plain(nested) == nested
    with pytest.raises(CheckFailed, match=f"nested deeper than {MAX_DEPTH} levels"):
        plain({"k": nested})


def test_a_short_list_of_numbers_past_the_deepest_level_is_refused():
    """A short list of numbers is copied where met, without the memo: its depth is still checked."""
    from knightcert.problems.checkers.plain import MAX_DEPTH, plain

    nested: object = [0, 1]
    for _ in range(MAX_DEPTH):
        nested = {"k": nested}
    assert plain(nested) == nested  # the list at the deepest level
    with pytest.raises(CheckFailed, match=f"nested deeper than {MAX_DEPTH} levels"):
        plain({"k": nested})
