"""Tests that kill the checker mutants issue 30 names: each one a false claim a quietly broken
checker would certify (a move table with a wrong step, the start label unchecked, the degree
argument off by one, the first jump of the jump game not replayed)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from knightcert.algorithms.jump_search import bfs
from knightcert.problems.board import Board
from knightcert.problems.checkers import certify, check
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.path import distance_labels
from knightcert.problems.checkers.tour import argument_against
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.jump_game import parse_jump
from knightcert.problems.lost_knight import parse_lost_knight
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance


def test_a_column_has_no_knight_moves():
    """On a 5 x 1 board no square attacks another: 5 knights fit, 3 is not optimal (a table
    that accepted a (2, 0) step would certify 3)."""
    column = knights_instance(5, 1)
    three = Result("knights", "t", Status.OPTIMAL, 3, 3, [[0, 0], [2, 0], [4, 0]], 0.0)
    assert not certify(column, three).verified
    five = Result("knights", "t", Status.OPTIMAL, 5, 5, [[r, 0] for r in range(5)], 0.0)
    assert check(column, five).certified
    # a "matching" of (2, 0) steps would prove 3 if the checker took them for moves
    steps = {"matching": [[[0, 0], [2, 0]], [[1, 0], [3, 0]]]}
    with pytest.raises(CheckFailed, match="not a knight move"):
        check(column, three.with_(certificate=steps))
    row = knights_instance(1, 5)
    assert not certify(row, three.with_(solution=[[0, 0], [0, 2], [0, 4]])).verified


@pytest.mark.parametrize("step", [(2, 0), (0, 2), (1, 1), (2, 2), (1, 3), (3, 1), (0, 1)])
def test_a_non_knight_step_is_not_an_attack(step):
    board = knights_instance(7, 7)
    pair = [[2, 2], [2 + step[0], 2 + step[1]]]
    assert check(board, Result("knights", "t", Status.FEASIBLE, 2, None, pair, 0.0)).verified


def test_the_start_label_must_be_zero():
    """Labels shifted by two everywhere keep every move's difference: only the start's label
    (2, not 0) shows they do not prove 4 moves where 2 suffice."""
    board = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")
    labels = np.minimum(distance_labels(board, cap=2).reshape(6, 6), 2) + 2
    path = [[0, 0], [2, 1], [4, 2], [3, 0], [2, 4]]
    assert all(
        sorted((abs(a[0] - b[0]) % 6, abs(a[1] - b[1]) % 6)) in ([1, 2], [1, 4], [2, 5], [4, 5])
        for a, b in itertools.pairwise(path)
    )
    claim = Result("path", "t", Status.OPTIMAL, 4, 4, path, 0.0, certificate={"labels": labels})
    assert check(board, claim.with_(status=Status.FEASIBLE, bound=None, certificate=None)).verified
    with pytest.raises(CheckFailed, match="label of C is not 0"):
        check(board, claim)


def _only(squares, rows=8, cols=8):
    blocked = np.ones((rows, cols), dtype=bool)
    for r, c in squares:
        blocked[r, c] = False
    return Board(rows, cols, blocked)


def test_the_degree_argument_counts_exactly_two_free_ends():
    """A knight's path of four squares: two squares of one move, the two ends of its open tour
    (none exists is false); one more pendant square makes three: then none exists."""
    line = _only([(0, 0), (1, 2), (2, 4), (3, 6)])
    assert argument_against(TourInstance(line, False, None, None, "line")) is None
    forked = _only([(0, 0), (1, 2), (2, 4), (3, 6), (2, 0)])
    assert "degrees" in argument_against(TourInstance(forked, False, None, None, "fork"))[1]
    assert argument_against(TourInstance(line, False, (0, 0), None, "line")) is None
    assert argument_against(TourInstance(line, False, (0, 0), (3, 6), "line")) is None
    assert "degrees" in argument_against(TourInstance(line, False, (1, 2), None, "line"))[1]
    tour = Result("tour", "t", Status.FEASIBLE, 4, 4, [[0, 0], [1, 2], [2, 4], [3, 6]], 0.0)
    assert check(TourInstance(line, False, None, None, "line"), tour).verified


def test_the_first_jump_is_replayed():
    game = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")  # EX1: C wins in round 3
    result = bfs(game)
    solution = dict(result.solution)
    # (0, 2) -> (0, 7) is not a jump of 3; the rest is C's true path's end (rounds and key kept)
    solution["path"] = [[0, 2], [0, 7], [0, 6], [0, 8]]
    with pytest.raises(CheckFailed, match="not a jump"):
        check(game, result.with_(solution=solution))


@pytest.mark.parametrize("torus", [False, True])
def test_a_matching_pair_in_every_direction_is_a_move(torus):
    """Each of the eight jumps, either way round and across the torus's edge: a move (a table
    missing one direction would refuse a valid matching)."""
    from knightcert.problems.checkers.knights import check_matching

    board = knights_instance(8, 8, torus=torus)
    jumps = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
    for dr, dc in jumps:
        assert check_matching(board, [[[3, 3], [3 + dr, 3 + dc]]]) == 1
        if torus:
            assert check_matching(board, [[[0, 0], [dr % 8, dc % 8]]]) == 1


@pytest.mark.parametrize(
    ("rows", "cols", "torus"), [(5, 6, False), (6, 5, False), (5, 5, True), (4, 7, True)]
)
def test_the_move_tables_match_a_brute_force(rows, cols, torus):
    """knight_neighbours and is_knight_move against the definition, square by square."""
    from knightcert.problems.moves import is_knight_move, knight_neighbours

    board = Board(
        rows, cols, np.array([[(r * 3 + c) % 7 == 0 for c in range(cols)] for r in range(rows)]), torus
    )
    squares = [(r, c) for r in range(rows) for c in range(cols)]

    def jump(a, b):
        dr, dc = b[0] - a[0], b[1] - a[1]
        if torus:
            return any(
                (dr - x) % rows == 0 and (dc - y) % cols == 0
                for x, y in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
            )
        return sorted((abs(dr), abs(dc))) == [1, 2]

    table = knight_neighbours(board)
    for a in squares:
        for b in squares:
            assert is_knight_move(board, a, b) == jump(a, b), (a, b)
        i = a[0] * cols + a[1]
        expected = set()
        if not board.blocked[a]:
            expected = {b[0] * cols + b[1] for b in squares if b != a and not board.blocked[b] and jump(a, b)}
        assert {int(j) for j in table[i] if j >= 0} == expected, a


def test_off_board_jumps_are_exactly_minus_one():
    """knight_targets(only_free=False) on a plain board: -1 exactly where a jump leaves the board."""
    from knightcert.problems.moves import KNIGHT_OFFSETS, knight_targets

    board = Board(4, 5)
    targets = knight_targets(board, only_free=False)
    for r in range(4):
        for c in range(5):
            for k, (dr, dc) in enumerate(KNIGHT_OFFSETS):
                inside = 0 <= r + dr < 4 and 0 <= c + dc < 5
                assert targets[r * 5 + c, k] == ((r + dr) * 5 + c + dc if inside else -1)
