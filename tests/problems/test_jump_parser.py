from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightcert.problems.errors import InstanceTooLarge, InvalidInstance
from knightcert.problems.generators import random_jump
from knightcert.problems.jump_game import format_jump, parse_jump, player_name, read_jump


def test_parses_board_and_starts():
    game = parse_jump("2 3\n2\n1 2 0\n0 1 1\n0 0\n1 2\n")
    assert game.values.tolist() == [[1, 2, 0], [0, 1, 1]]
    assert game.starts == ((0, 0), (1, 2)) and game.goal == (1, 2)


@pytest.mark.parametrize(
    "text",
    [
        "1 2\n1\n1 0\n0 0",
        "1 2\r\n1\r\n1 0\r\n0 0\r\n",
        "1 2\n1\n1 0\n0 0\n\n\n",
        "\n1 2\n\n1\n1 0\n0 0\n",
        "1  2\n1\n1\t0\n 0 0 \n",
    ],
)
def test_accepts_layout_variants(text):
    game = parse_jump(text)
    assert game.values.tolist() == [[1, 0]] and game.starts == ((0, 0),)


@pytest.mark.parametrize("text", ["0 0\n0\n", "0 3\n0\n", "2 0\n0\n"])
def test_a_board_needs_at_least_one_row_and_column(text):
    with pytest.raises(InvalidInstance, match="N and M must be at least 1"):
        parse_jump(text, "f.in")


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("", "f.in:1:", "expected 'N M'"),
        ("2\n1\n", "f.in:1:", "expected 'N M', the board size (2 numbers), found 1"),
        ("1 2 3\n1\n", "f.in:1:", "found 3"),
        ("1 2\n", "f.in:2:", "expected 'J'"),
        ("1 2\n1 1\n", "f.in:2:", "expected 'J', the number of players (1 number), found 2"),
        ("1 2\n1\n1\n0 0\n", "f.in:3:", "expected 2 cell values in board row 1, found 1"),
        ("1 2\n1\n1 0 3\n0 0\n", "f.in:3:", "expected 2 cell values in board row 1, found 3"),
        ("2 2\n1\n1 0\n", "f.in:4:", "expected 2 board rows, found 1"),
        ("1 2\n1\n1 -4\n0 0\n", "f.in:3:3:", "negative number -4"),
        ("1 2\n1\n1 2.5\n0 0\n", "f.in:3:3:", "expected a non-negative integer, found '2.5'"),
        ("1 2\n1\n1 x\n0 0\n", "f.in:3:3:", "found 'x'"),
        ("1 2\n1\n1 0\n0 2\n", "f.in:4:", "start (0, 2) of player A is off the 1 x 2 board"),
        ("1 2\n1\n1 0\n0\n", "f.in:4:", "expected 'row col', the start of player A (2 numbers), found 1"),
        ("1 2\n2\n1 0\n0 0\n", "f.in:5:", "J = 2 announces 2 start lines, found 1"),
        ("1 2\n1\n1 0\n0 0\n0 1\n", "f.in:5:", "J = 1 announces 1 start line, found 2"),
        ("1 2\n1\n1 0\n0 0 0\n", "f.in:4:", "found 3"),
        ("1 2\n1\n1 99999999999999999999\n0 0\n", "f.in:3:3:", "more than 18 digits"),
    ],
)
def test_rejects_bad_input_with_position(text, where, words):
    with pytest.raises(InvalidInstance) as info:
        parse_jump(text, source="f.in")
    assert str(info.value).startswith(where) and words in str(info.value), str(info.value)


def test_refuses_huge_boards_before_allocating():
    with pytest.raises(InstanceTooLarge, match="at most 400000000 fit in memory"):
        parse_jump("100000 100000\n0\n", source="big.in")


def test_missing_file(tmp_path):
    with pytest.raises(InvalidInstance, match="cannot read file"):
        read_jump(tmp_path / "none.in")


def test_player_names_continue_after_z():
    assert [player_name(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
        "ZZ",
        "AAA",
    ]
    names = [player_name(i) for i in range(2000)]
    assert len(set(names)) == 2000


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 5), st.integers(0, 2**32 - 1))
def test_format_then_parse_round_trips(rows, cols, players, seed):
    game = random_jump(np.random.default_rng(seed), rows, cols, players, 9)
    again = parse_jump(format_jump(game))
    assert np.array_equal(again.values, game.values) and again.starts == game.starts


TOKEN_BYTES = st.lists(
    st.sampled_from(
        [b"0", b"7", b"12", b"9" * 19, b" ", b"\t", b"\r", b"\n", b"\n", b"-3", b"x", b"1.5", b"\x0b"]
    ),
    max_size=40,
).map(b"".join)


@given(TOKEN_BYTES)
@settings(max_examples=300)
def test_the_plain_tokenizer_reads_like_the_compiled_one(data):
    """Small files are read in plain Python: the same numbers on the same lines, or the same
    error at the same place, as the compiled pass used for large files."""
    from knightcert.problems import jump_tokens
    from knightcert.problems.jump_scan import scan

    def compiled():
        buf = np.frombuffer(data, dtype=np.uint8)
        values = np.empty(buf.size // 2 + 1, np.int64)
        lines = np.empty(buf.size // 2 + 1, np.int32)
        status, n = scan(buf, values, lines, 18)
        if status < 0:
            jump_tokens._raise_at(data, -1 - status, "f")
        return values[:n].tolist(), lines[:n].tolist()

    def plain():
        values, lines = jump_tokens.tokenize(data, "f")
        return values.tolist(), lines.tolist()

    outcomes = []
    for read in (compiled, plain):
        try:
            outcomes.append(read())
        except InvalidInstance as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]
