from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightcert.algorithms.path_search import astar, bfs
from knightcert.heuristics.path_greedy import greedy
from knightcert.problems.board import Board
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.generators import random_lost_knight
from knightcert.problems.lost_knight import LostKnightInstance, parse_lost_knight, read_lost_knight
from knightcert.problems.result import Status


@pytest.mark.parametrize("solve", [bfs, astar, greedy])
def test_shared_instances(solve, shared_data, lost_knight_expected):
    for name, expected in lost_knight_expected.items():
        result = solve(read_lost_knight(shared_data / "lost-knight" / name))
        assert result.verified, result.info
        assert len(result.solution) - 1 == result.objective
        if solve is greedy:
            assert result.status is Status.FEASIBLE and result.objective >= expected
        else:
            assert result.status is Status.OPTIMAL and result.objective == expected == result.bound


def test_bfs_proves_unreachable_with_a_closed_set():
    boxed = parse_lost_knight(".x.x.\nx...x\n..C..\nx...x\n.xSx.\n")
    for solve in (bfs, astar, greedy):
        result = solve(boxed)
        assert result.status is Status.INFEASIBLE and result.verified and result.solution is None


def test_bfs_on_one_row_and_one_column_tori():
    # on a 1 x n torus the knight moves 1 or 2 columns along the row
    row = parse_lost_knight("C......S\n")
    col = parse_lost_knight("C\n.\n.\n.\n.\n.\n.\nS\n")
    assert bfs(row).objective == 1  # 7 columns right is 1 column left
    assert bfs(col).objective == 1
    far = parse_lost_knight("C....S....\n")
    assert bfs(far).objective == 3 and bfs(far).verified


def test_best_first_refuses_huge_boards():
    huge = LostKnightInstance(Board(6000, 6000, torus=True), (0, 0), (1, 1), "huge")
    with pytest.raises(SizeLimitExceeded, match="use bfs"):
        astar(huge)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 25), st.integers(1, 25), st.floats(0, 0.5), st.integers(0, 2**32 - 1))
def test_search_methods_agree_and_are_verified(rows, cols, density, seed):
    if rows * cols < 2:
        return
    inst = random_lost_knight(np.random.default_rng(seed), rows, cols, density)
    exact, star, quick = bfs(inst), astar(inst), greedy(inst)
    assert exact.verified and star.verified and quick.verified
    assert exact.status == star.status
    assert exact.objective == star.objective
    if exact.status is Status.INFEASIBLE:
        assert quick.status is Status.INFEASIBLE
    else:
        assert quick.objective >= exact.objective


def test_the_plain_bfs_labels_like_the_compiled_kernel():
    """Small boards are searched in plain Python (no kernel to load); both searches agree square
    for square, on random holed tori of every shape up to 30 x 30 (1-row and 1-column ones too)."""
    import numpy as np

    from knightcert.algorithms.path_kernels import bfs_torus
    from knightcert.algorithms.path_search import _bfs_plain

    rng = np.random.default_rng(7)
    for _ in range(200):
        rows, cols = (int(x) for x in rng.integers(1, 31, size=2))
        blocked = (rng.random(rows * cols) < rng.random() * 0.6).astype(np.uint8)
        start, goal = (int(x) for x in rng.integers(0, rows * cols, size=2))
        blocked[[start, goal]] = 0
        compiled = np.full(rows * cols, -1, np.int32)
        plain = compiled.copy()
        expanded = bfs_torus(blocked, rows, cols, start, goal, compiled)
        assert _bfs_plain(blocked, rows, cols, start, goal, plain) == expanded
        assert (plain == compiled).all()
