from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightcert.problems.errors import InvalidInstance
from knightcert.problems.lost_knight import format_lost_knight, parse_lost_knight, read_lost_knight


def test_parses_squares_and_positions():
    inst = parse_lost_knight("C.x\n..S\n")
    assert (inst.board.rows, inst.board.cols) == (2, 3)
    assert inst.board.torus
    assert inst.start == (0, 0) and inst.exit == (1, 2)
    assert inst.board.blocked.tolist() == [[False, False, True], [False, False, False]]


@pytest.mark.parametrize(
    "text",
    ["C.x\n..S\n", "C.x\r\n..S\r\n", "C.x\n..S", "C.x\n..S\n\n\n", "C.x\r\n..S\r\n\r\n", b"C.x\n..S\n"],
)
def test_accepts_line_end_variants(text):
    inst = parse_lost_knight(text)
    assert inst.board.blocked.sum() == 1 and inst.exit == (1, 2)


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("", ":1:1:", "empty board"),
        ("\n\n", ":1:1:", "empty board"),
        ("C..\n..\n..S\n", ":2:3:", "row has 2 squares, expected 3"),
        ("C..\n....\n..S\n", ":2:4:", "row has 4 squares, expected 3"),
        ("C..\n\n..S\n", ":2:1:", "row has 0 squares"),
        ("C.o\n..S\n", ":1:3:", "unexpected character 'o'"),
        ("C..\n.X.\n..S\n", ":2:2:", "unexpected character 'X'"),
        ("C. \n..S\n", ":1:3:", "unexpected character ' '"),
        ("C.é\n..S\n", ":1:3:", "unexpected character 'é'"),
        ("1 9\n3\n4 1 3\n", ":1:1:", "unexpected character '1'"),  # a jump file: its first fault
        ("C..\n.\n.é.S\n", ":2:2:", "row has 1 squares"),  # a short row before a foreign character
        ("...\n..S\n", "", "no 'C'"),
        ("C..\n..C\n..S\n", ":2:3:", "second 'C'"),
        ("C..\n...\n", "", "no 'S'"),
        ("CS.\n..S\n", ":2:3:", "second 'S'"),
    ],
)
def test_rejects_bad_boards_with_position(text, where, words):
    with pytest.raises(InvalidInstance) as info:
        parse_lost_knight(text, source="board.txt")
    message = str(info.value)
    assert message.startswith("board.txt" + where) or (not where and message.startswith("board.txt: "))
    assert words in message
    assert "\n" not in message


def test_missing_file_is_an_invalid_instance(tmp_path):
    with pytest.raises(InvalidInstance, match="cannot read file"):
        read_lost_knight(tmp_path / "nope.txt")


def test_read_uses_basename_as_name(tmp_path):
    path = tmp_path / "caso7.txt"
    path.write_text("C.\n.S\n")
    assert read_lost_knight(path).name == "caso7.txt"


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_format_then_parse_round_trips(rows, cols, seed):
    if rows * cols < 2:
        return
    rng = np.random.default_rng(seed)
    blocked = rng.random((rows, cols)) < 0.3
    start, goal = rng.choice(rows * cols, 2, replace=False)
    blocked.flat[start] = blocked.flat[goal] = False
    text = "".join(
        "".join(
            "C" if r * cols + c == start else "S" if r * cols + c == goal else "x" if blocked[r, c] else "."
            for c in range(cols)
        )
        + "\n"
        for r in range(rows)
    )
    inst = parse_lost_knight(text)
    assert format_lost_knight(inst) == text
    assert np.array_equal(inst.board.blocked, blocked)
