"""The picture of an answer: what it refuses, and its size from 3 x 3 to 1000 x 1000."""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest

from knightcert.problems.board import Board
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.picture import MAX_PIXELS, answer_svg


@pytest.mark.parametrize(
    "solution",
    ["squares", [1, 2, 3], [[0, 0, 0]], [[-1, 0]], [[True, False]], [[0.5, 1.0]], np.zeros((2, 2, 2), int)],
)
def test_anything_but_squares_draws_nothing(solution):
    assert answer_svg("tour", solution) == ""


def test_a_square_off_the_board_draws_nothing():
    assert answer_svg("knights", [[3, 0]], KnightsInstance(Board(3, 3))) == ""


@pytest.mark.parametrize("side", [33, 480, 1000])
def test_large_boards_are_one_image_of_at_most_max_pixels_a_side(side):
    order = np.indices((side, side)).reshape(2, -1).T  # every square once, row by row
    svg = answer_svg("tour", order.astype(np.int32), f"{side}x{side}")
    png = base64.b64decode(re.search(r"base64,([^\"]+)", svg)[1])  # type: ignore[index]
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width == height == min(side, -(-side // -(-side // MAX_PIXELS)))
    assert len(svg) < 300_000 and svg.count('class="sq') == 0 and svg.count("<image") == 1
