"""A Result reads well in a console and a notebook at any size."""

from __future__ import annotations

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


def test_html_repr_draws_the_board_of_a_small_answer():
    tour = [[0, 0], [1, 2], [2, 4], [0, 3]]
    result = Result("tour", "warnsdorff", Status.FEASIBLE, 4, None, tour, 0.01, True, "5x5")
    page = result._repr_html_()
    assert "tour 5x5 by warnsdorff: FEASIBLE 4" in page and page.count("<circle") == 4
    assert "<polyline" in page  # knight moves joined in order
    unknown = Result("tour", "warnsdorff", Status.UNKNOWN, None, None, None, 1.0)
    assert "<svg" not in unknown._repr_html_() and "no solution" in unknown._repr_html_()
