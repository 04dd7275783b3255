"""Tests that kill the survivors of the mutation run on the side-constraint code (cosmic-ray,
core and quiet operators; docs/certificates.md, "Mutation testing"): each pins a predicate or an
argument of ``problems/checkers/sides.py``, or a reader of ``problems/side_constraints.py``,
exactly where a broken one let the tests pass: the words of a fault (which square, which move),
a required move between adjacent places, the closing move of a closed tour, the colours on a
torus with even sides, a field of the wrong shape or a step out of range."""

from __future__ import annotations

import numpy as np
import pytest

from knightcert.problems.board import Board
from knightcert.problems.checkers.sides import (
    forbidden_moves_fault,
    required_moves_fault,
    visits_argument,
    visits_fault,
)
from knightcert.problems.tours import TourInstance, tour_instance

# an open 5 x 5 path of knight moves from (0, 0): enough for the predicates, which read squares only
SQUARES = np.array([[0, 0], [1, 2], [2, 4], [4, 3], [3, 1]])


def test_a_fault_names_the_square_or_move_it_is_about():
    visit = tour_instance(5, visits=[(0, 0, 1), (2, 4, 4)])
    assert visits_fault(visit, SQUARES) == "visits: square 4 of the tour is (4, 3), not (2, 4)"
    required = tour_instance(5, required_moves=[((0, 0), (1, 2)), ((0, 0), (2, 1))])
    assert required_moves_fault(required, SQUARES) == (
        "required_moves: the tour does not take the move (0, 0) - (2, 1)"
    )
    forbidden = tour_instance(5, forbidden_moves=[((0, 0), (2, 1)), ((2, 4), (4, 3))])
    assert forbidden_moves_fault(forbidden, SQUARES) == (
        "forbidden_moves: the tour takes the move (2, 4) - (4, 3)"
    )
    both = tour_instance(5, required_moves=[((0, 0), (1, 2))], forbidden_moves=[((0, 0), (1, 2))])
    assert visits_argument(both) == "moves: (0, 0) - (1, 2) is both required and forbidden"


@pytest.mark.parametrize(
    ("visits", "one", "other", "colours"),
    [
        ([(2, 2, 12)], (1, (0, 0)), (12, (2, 2)), "differ"),
        ([(0, 1, 3)], (1, (0, 0)), (3, (0, 1)), "agree"),
        ([(0, 1, 5)], (1, (0, 0)), (5, (0, 1)), "agree"),
        ([(1, 2, 2), (2, 3, 5)], (2, (1, 2)), (5, (2, 3)), "differ"),
    ],
)
def test_the_colour_argument_says_how_far_apart_the_places_are(visits, one, other, colours):
    (k, a), (j, b) = one, other
    assert visits_argument(tour_instance(5, start=(0, 0), visits=visits)) == (
        f"colours: places {k} and {j} are {j - k} moves apart, so their squares' colours {colours}; "
        f"{a} and {b} do not"
    )


@pytest.mark.parametrize(
    ("fields", "refuted"),
    [
        # the required move joins places 1 and 2: nothing against it
        ({"start": (0, 0), "visits": [(1, 2, 2)]}, False),
        # neither end has a place, or only one: nothing against it
        ({}, False),
        ({"start": (0, 0)}, False),
        ({"visits": [(1, 2, 5)]}, False),
        # an open tour never joins places 1 and n
        ({"start": (0, 0), "end": (1, 2)}, True),
        # a closed one does, by its closing move ...
        ({"closed": True, "visits": [(0, 0, 1), (1, 2, 36)]}, False),
        # ... and joins no other places apart (1 and 4: colours consistent, so only this argument)
        ({"closed": True, "visits": [(0, 0, 1), (1, 2, 4)]}, True),
    ],
)
def test_a_required_move_is_refuted_exactly_when_its_places_are_not_adjacent(fields, refuted):
    instance = tour_instance(6, required_moves=[((0, 0), (1, 2))], **fields)
    argument = visits_argument(instance)
    if refuted:
        places = "1 and 36" if "end" in fields else "1 and 4"
        assert argument == f"visits: (0, 0) and (1, 2) are at places {places}, yet joined by a required move"
    else:
        assert argument is None


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (6, 6), (8, 8), (4, 6), (6, 4), (5, 5), (6, 5), (5, 6)])
def test_colours_refute_a_torus_exactly_when_both_sides_are_even(rows, cols):
    # places 1 and 3 need squares of one colour; (0, 0) and (0, 1) differ, unless a wrap
    # across an odd side keeps the colour
    instance = TourInstance(Board(rows, cols, torus=True), start=(0, 0), visits=[(0, 1, 3)])
    argument = visits_argument(instance)
    if rows % 2 == 0 and cols % 2 == 0:
        assert argument is not None and argument.startswith("colours: places 1 and 3")
    else:
        assert argument is None


def test_every_pair_of_adjacent_places_is_checked_the_closing_one_too():
    apart = tour_instance(5, visits=[(0, 0, 2), (0, 1, 3)])  # colours fine, not a move apart
    assert visits_argument(apart) == "visits: places 2 and 3 are (0, 0) and (0, 1), not a knight move apart"
    ring = Board(1, 3, torus=True)  # three squares, each a knight move from the others
    closing = TourInstance(
        ring, closed=True, visits=[(0, 0, 1), (0, 1, 3)], forbidden_moves=[((0, 0), (0, 1))]
    )
    assert visits_argument(closing) == "visits: places 3 and 1 are (0, 1) and (0, 0), a forbidden move"
    assert visits_argument(TourInstance(ring, closed=True, visits=[(0, 0, 1), (0, 1, 3)])) is None


def test_a_tour_of_one_square_takes_no_move():
    from knightcert.problems.checkers.sides import tour_moves

    assert tour_moves(np.array([[0, 0]]), closed=True) == set()
    assert tour_moves(np.array([[0, 0], [1, 2]]), closed=True) == {((0, 0), (1, 2))}


def test_a_path_passes_through_its_own_start():
    from knightcert.problems.checkers.sides import via_fault
    from knightcert.problems.lost_knight import LostKnightInstance

    path = np.array([[0, 0], [1, 2], [2, 4], [4, 3], [3, 1], [4, 4]])
    board = Board(5, 5, torus=True)
    assert via_fault(LostKnightInstance(board, (0, 0), (4, 4), via=[(0, 0), (1, 2)]), path) is None
    again = LostKnightInstance(board, (0, 0), (4, 4), via=[(1, 2), (0, 0)])
    assert (
        via_fault(again, path) == "via[1]: the path does not pass through (0, 0) after the squares before it"
    )


# ------------------------------------------------ the readers of problems/side_constraints.py


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"visits": 5}, "visits must be a sequence, got 5"),
        ({"visits": "0,0,1"}, "visits must be a sequence, got '0,0,1'"),
        ({"required_moves": [((0, 0),)]}, "required_moves[0]: ((0, 0),) is not a pair of squares"),
        (
            {"required_moves": [((0, 0), (1, 2), (2, 4))]},
            "required_moves[0]: ((0, 0), (1, 2), (2, 4)) is not a pair",
        ),
        ({"visits": [(0, 0, 0)]}, "visits[0]: step 0 is not between 1 and 25"),
        ({"visits": [(0, 0, 2.0)]}, "visits[0]: step 2.0 is not between 1 and 25"),
        ({"visits": [(0, 0, True)]}, "visits[0]: step True is not between 1 and 25"),
    ],
)
def test_a_side_field_that_is_not_its_shape_is_refused_naming_it(fields, words):
    from knightcert.problems.errors import InvalidInstance

    with pytest.raises(InvalidInstance) as refused:
        TourInstance(Board(5, 5), **fields)
    assert str(refused.value).startswith(words)


def test_the_first_and_last_steps_are_places_of_the_tour():
    assert TourInstance(Board(5, 5), visits=[(0, 0, 1), (4, 4, 25)]).visits == ((0, 0, 1), (4, 4, 25))


def test_a_move_from_a_square_to_itself_is_refused_where_a_knight_jump_wraps_back():
    from knightcert.problems.errors import InvalidInstance
    from knightcert.problems.moves import is_knight_move

    board = Board(2, 1, torus=True)  # a jump of (2, 1) lands where it started
    assert is_knight_move(board, (0, 0), (0, 0))
    with pytest.raises(InvalidInstance, match=r"required_moves\[0\]: \(\(0, 0\), \(0, 0\)\) is not a pair"):
        TourInstance(board, required_moves=[((0, 0), (0, 0))])


@pytest.mark.parametrize(("first", "second"), [((0, 0), (2, 2)), ((2, 2), (0, 0))])
def test_two_squares_at_one_place_are_refuted_in_either_order(first, second):
    instance = tour_instance(5, visits=[(*first, 3), (*second, 3)])  # visits are a set: kept sorted
    assert visits_argument(instance) == "visits: place 3 holds both (0, 0) and (2, 2)"
