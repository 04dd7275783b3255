from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from knightcert.problems.board import Board
from knightcert.problems.moves import (
    KNIGHT_OFFSETS,
    is_knight_move,
    knight_arcs,
    knight_edges,
    knight_targets,
)


def naive_targets(board: Board) -> list[set[int]]:
    out = []
    for r in range(board.rows):
        for c in range(board.cols):
            found = set()
            if not board.blocked[r, c]:
                for dr, dc in KNIGHT_OFFSETS:
                    nr, nc = r + dr, c + dc
                    if board.torus:
                        nr, nc = nr % board.rows, nc % board.cols
                    if board.is_free(nr, nc):
                        found.add(nr * board.cols + nc)
            out.append(found)
    return out


boards = st.builds(
    lambda rows, cols, torus, seed: Board(
        rows, cols, np.random.default_rng(seed).random((rows, cols)) < 0.25, torus=torus
    ),
    st.integers(1, 8),
    st.integers(1, 8),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)


@settings(max_examples=80, deadline=None)
@given(boards)
def test_targets_match_naive_generation(board):
    targets = knight_targets(board)
    expected = naive_targets(board)
    for i in range(board.size):
        assert {int(t) for t in targets[i] if t >= 0} == expected[i]


@settings(max_examples=60, deadline=None)
@given(boards)
def test_arcs_are_distinct_symmetric_and_legal(board):
    tails, heads = knight_arcs(board)
    pairs = set(zip(tails.tolist(), heads.tolist(), strict=True))
    assert len(pairs) == len(tails)
    assert all(u != v for u, v in pairs)
    assert all((v, u) in pairs for u, v in pairs)  # knight moves are symmetric
    for u, v in pairs:
        assert is_knight_move(board, board.square(u), board.square(v))
    eu, _ev = knight_edges(board)
    assert len(eu) * 2 == len(pairs)


def test_standard_board_degrees():
    targets = knight_targets(Board(8, 8))
    degree = (targets >= 0).sum(axis=1).reshape(8, 8)
    assert degree[0, 0] == 2 and degree[0, 1] == 3 and degree[3, 3] == 8
    assert degree.sum() == 336  # 168 knight edges on a chessboard


def test_torus_wraps_and_one_row_boards_move_within_the_row():
    assert (knight_targets(Board(8, 8, torus=True)) >= 0).all()
    board = Board(1, 5, torus=True)
    assert is_knight_move(board, (0, 0), (0, 1)) and is_knight_move(board, (0, 0), (0, 3))
    assert not is_knight_move(Board(1, 5), (0, 0), (0, 1))
