"""Strict fields: integers pass unchanged; anything else is refused, never truncated."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.fields import bool_array, grid, int_array, integer, squares

pairs = st.lists(st.tuples(st.integers(-(2**40), 2**40), st.integers(-(2**40), 2**40)).map(list), max_size=20)
not_integers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=3),
    st.none(),
)


@given(pairs)
def test_integer_pairs_pass_unchanged(value):
    assert squares(value, "solution").tolist() == value


@given(pairs.filter(bool), st.data())
def test_one_non_integer_entry_is_refused_by_position(value, data):
    i = data.draw(st.integers(0, len(value) - 1))
    j = data.draw(st.integers(0, 1))
    bad = data.draw(not_integers)
    value[i][j] = bad
    with pytest.raises(CheckFailed, match=r"solution"):
        squares(value, "solution")


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_floats_are_never_integers(x):
    with pytest.raises(CheckFailed):
        integer(x, "objective")


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (np.array([[0.0, 1.5]]), r"entry \[0, 1\] is 1.5"),
        (np.array([[0.0, math.nan]]), "NaN"),
        (np.array([[0.0, 1.0]]), "array of float64"),
        (np.array([[True]]), "array of bool"),
        ([[1, 2], [3]], "regular"),
        ("12", "expected a list"),
    ],
)
def test_arrays_refused(value, words):
    with pytest.raises(CheckFailed, match=words):
        int_array(value, "certificate 'labels'")


def test_grid_takes_flat_or_shaped_and_masks_take_bools_or_bits():
    assert grid(list(range(6)), "labels", (2, 3)).shape == (2, 3)
    with pytest.raises(CheckFailed, match="shape"):
        grid(list(range(5)), "labels", (2, 3))
    assert bool_array([[1, 0], [0, 1]], "closed", (2, 2)).dtype == bool
    with pytest.raises(CheckFailed, match="0 or 1"):
        bool_array([[2, 0], [0, 1]], "closed", (2, 2))
