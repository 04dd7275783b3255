"""A Result reads well in a console and a notebook at any size, whatever its solution's type."""

from __future__ import annotations

import numpy as np

from knightcert.problems.result import Result, Status


def test_repr_is_one_short_line_whatever_the_solution_size():
    squares = [[r, c] for r in range(300) for c in range(0, 300, 2)]
    result = Result("knights", "matching", Status.OPTIMAL, 45000, 45000, squares, 0.5, True, "300x300")
    text = repr(result)
    assert (
        text
        == "<Result knights 300x300 by matching: OPTIMAL 45000, 0.5 s, verified, solution of 45000 items>"
    )
    assert "\n" not in text and len(text) < 200


def test_notebook_draws_the_whole_board_of_an_answer_held_as_lists_or_an_array():
    tour = [[0, 0], [1, 2], [2, 4], [0, 3]]
    for solution in (tour, np.array(tour, dtype=np.int32)):
        result = Result("tour", "warnsdorff", Status.FEASIBLE, 4, None, solution, 0.01, True, "5x5")
        page = result._repr_html_()
        assert "tour 5x5 by warnsdorff: FEASIBLE 4" in page and page.count('class="sq') == 25
        assert page.count(" L") == 3 and page.count("<text") == 4  # three moves, four numbered squares
        assert result._repr_svg_() in page
    unknown = Result("tour", "warnsdorff", Status.UNKNOWN, None, None, None, 1.0)
    assert unknown._repr_svg_() is None and "no solution" in unknown._repr_html_()


def test_notebook_draws_a_matching_placement_with_its_certificate():
    knights = np.array([[0, 0], [0, 2], [1, 1]])
    matching = {"matching": np.array([[[0, 0], [1, 2]], [[0, 2], [1, 0]]])}
    result = Result(
        "knights", "matching", Status.OPTIMAL, 3, 3, knights, 0.0, True, "3x3", certificate=matching
    )
    svg = result._repr_svg_() or ""
    assert svg.count('class="kn"') == 3 and svg.count('class="cert"') == 2 and svg.count('class="sq') == 9
