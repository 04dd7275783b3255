"""The checker's own count (problems/checkers/enumeration.py) against the exact counters, which
tests/algorithms/test_counting.py checks against brute force."""

from __future__ import annotations

import itertools

import numpy as np

from knightcert.algorithms.counting import count_knights, count_paths, count_tours
from knightcert.problems.board import Board
from knightcert.problems.checkers.enumeration import enumerate_solutions
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.moves import is_knight_move
from knightcert.problems.tours import TourInstance


def test_tours_under_side_constraints():
    rng = np.random.default_rng(8)
    seen = set()
    for trial in range(40):
        rows, cols = (int(x) for x in rng.integers(2, 5, size=2))
        board = Board(rows, cols, rng.random((rows, cols)) < 0.1, torus=trial % 3 == 0)
        free = [(int(r), int(c)) for r, c in np.argwhere(board.free)]
        moves = [m for m in itertools.combinations(free, 2) if is_knight_move(board, *m)]
        picks = [
            rng.choice(len(x), size=min(len(x), int(rng.integers(0, 3))), replace=False)
            for x in (free, moves, moves)
        ]
        instance = TourInstance(
            board,
            trial % 2 == 1,
            (None, free[0])[trial % 4 == 2],
            visits=[(*free[i], int(rng.integers(1, len(free) + 1))) for i in picks[0]],
            forbidden_moves=[moves[i] for i in picks[1]],
            required_moves=[moves[i] for i in picks[2]],
        )
        directed = count_tours(instance)[0]
        assert enumerate_solutions(instance) == (None, directed), instance
        seen.add((bool(instance.visits or instance.required_moves), directed > 0))
    assert seen == {(True, True), (True, False), (False, True), (False, False)}
    assert enumerate_solutions(TourInstance(Board(5, 5))) == (None, 1728)
    assert enumerate_solutions(TourInstance(Board(5, 5)), tour_nodes=1000) is None


def test_paths_through_via_squares():
    rng = np.random.default_rng(9)
    for trial in range(40):
        rows, cols = (int(x) for x in rng.integers(1, 8, size=2))
        board = Board(rows, cols, rng.random((rows, cols)) < 0.3, torus=True)
        free = [(int(r), int(c)) for r, c in np.argwhere(board.free)]
        if len(free) < 2:
            continue
        ends = rng.choice(len(free), size=2, replace=False)
        via = [free[i] for i in rng.choice(len(free), size=trial % 3)]
        instance = LostKnightInstance(board, free[ends[0]], free[ends[1]], via=via)
        expected = count_paths(instance)
        assert enumerate_solutions(instance) == expected, instance
    path = LostKnightInstance(Board(7, 9, torus=True), (0, 0), (3, 4), via=((5, 5), (5, 5), (1, 1)))
    assert enumerate_solutions(path) == (8, 54)
    assert enumerate_solutions(path, nodes=5) is None


def test_knights_with_fixed_squares():
    rng = np.random.default_rng(10)
    for _ in range(30):
        rows, cols = (int(x) for x in rng.integers(1, 6, size=2))
        board = Board(rows, cols, rng.random((rows, cols)) < 0.2)
        free = [(int(r), int(c)) for r, c in np.argwhere(board.free)]
        fixed = [
            free[i]
            for i in rng.choice(len(free), size=min(len(free), int(rng.integers(0, 3))), replace=False)
        ]
        instance = KnightsInstance(board, fixed=fixed)
        assert enumerate_solutions(instance) == count_knights(instance), instance
    assert enumerate_solutions(KnightsInstance(Board(4, 4, torus=True))) == (8, 2)
    assert enumerate_solutions(KnightsInstance(Board(8, 8)), nodes=100) is None


def test_a_board_past_its_size_is_not_enumerated():
    assert enumerate_solutions(KnightsInstance(Board(8, 400))) is None  # no recursion 3,200 deep
    assert enumerate_solutions(TourInstance(Board(400, 400))) is None  # no table of 160,000 x 160,000
