"""CP-SAT's enumeration, the second counter, against the exact counters on small boards."""

from __future__ import annotations

import numpy as np

from knightcert.algorithms.counting import count_knights, count_paths, count_tours
from knightcert.models.count_cpsat import enumerate_knights, enumerate_paths, enumerate_tours
from knightcert.problems.board import Board
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.tours import TourInstance


def test_tours_agree_with_the_exact_counter():
    rng = np.random.default_rng(11)
    for trial in range(16):
        rows, cols = (int(x) for x in rng.integers(2, 5, size=2))
        if rows * cols > (9 if trial % 2 else 12):  # a 3 x 4 torus has 90,732 open tours
            rows = 2
        board = Board(rows, cols, rng.random((rows, cols)) < 0.1, torus=bool(trial % 2))
        free = [(int(r), int(c)) for r, c in np.argwhere(board.free)]
        for instance in (
            TourInstance(board, False),
            TourInstance(board, True),
            TourInstance(board, False, free[0]),
            TourInstance(board, False, None, free[0]),
            TourInstance(board, True, free[0], free[-1]),
            TourInstance(board, True, None, free[-1]),
        ):
            found = enumerate_tours(instance, keep=2)
            assert found.complete and found.count == count_tours(instance)[0]
            assert len(found.solutions) == min(2, found.count)
            for tour in found.solutions:  # from the start, to the end
                assert tour[0] == list(instance.start or tour[0]) and tour[-1] == list(
                    instance.end or tour[-1]
                )


def test_paths_agree_and_a_wrong_length_shows():
    board = Board(5, 7, torus=True)
    instance = LostKnightInstance(board, (0, 0), (3, 4))
    length, number = count_paths(instance)
    assert length is not None
    found = enumerate_paths(instance, length)
    assert found.complete and found.count == number and not found.shorter
    assert enumerate_paths(instance, length + 1).shorter  # a walk waiting on S arrived sooner


def test_knights_agree_on_plain_boards():
    rng = np.random.default_rng(5)
    for _ in range(10):
        rows, cols = (int(x) for x in rng.integers(1, 6, size=2))
        board = Board(rows, cols, rng.random((rows, cols)) < 0.2)
        found = enumerate_knights(KnightsInstance(board))
        assert found.complete and (found.optimum, found.count) == count_knights(KnightsInstance(board))


def test_stop_keeps_the_first_solutions_only():
    found = enumerate_tours(TourInstance(Board(3, 4), False), keep=3, stop=True)
    assert len(found.solutions) == 3 and not found.complete


def test_side_constraints_agree_with_the_exact_counter():
    """Visits, moves forbidden and required on tours (3 x 4 open, 5 x 6 closed: 16 directed
    tours each); via squares on paths; fixed knights."""
    rng = np.random.default_rng(44)
    counted = set()
    for trial in range(16):
        board = Board(*((3, 4), (5, 6))[trial % 2])
        free = [(int(r), int(c)) for r, c in np.argwhere(board.free)]
        moves = [(a, b) for a in free for b in free if a < b and abs(a[0] - b[0]) * abs(a[1] - b[1]) == 2]
        picks = [
            rng.choice(len(x), size=int(rng.integers(0, 3)), replace=False) for x in (free, moves, moves)
        ]
        instance = TourInstance(
            board,
            trial % 2 == 1,
            visits=[(*free[i], int(rng.integers(1, len(free) + 1))) for i in picks[0]],
            forbidden_moves=[moves[i] for i in picks[1]],
            required_moves=[moves[i] for i in picks[2]],
        )
        found = enumerate_tours(instance, keep=1)
        assert found.complete and found.count == count_tours(instance)[0], instance
        counted.add((bool(instance.visits), found.count > 0))
    assert counted == {(True, True), (True, False), (False, True), (False, False)}
    path = LostKnightInstance(Board(7, 9, torus=True), (0, 0), (3, 4), via=((5, 5), (5, 5), (1, 1)))
    length, number = count_paths(path)
    assert length is not None and enumerate_paths(path, length).count == number == 54
    assert enumerate_paths(path, length + 1).shorter
    for fixed in (((0, 1),), ((0, 1), (2, 2))):
        instance = KnightsInstance(Board(5, 5), fixed=fixed)
        found = enumerate_knights(instance)
        assert found.complete and (found.optimum, found.count) == count_knights(instance)
