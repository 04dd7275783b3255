"""The separator producer (algorithms/tour_separator.py) and the methods that attach it.

Boards are made here: two boards two columns apart, joined through one or two *gates* left
in those columns, with squares removed to tip a region's colours. Every separator found is
checked by the checker's verdict, and on small boards against the test oracle's brute force.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightcert.algorithms import tour_separator
from knightcert.algorithms.tour_separator import find_separator, with_separator
from knightcert.cli.main import main
from knightcert.heuristics.tour_warnsdorff import cenpl
from knightcert.models.tour_cpsat import cpsat
from knightcert.models.tour_csp import csp
from knightcert.problems.board import Board
from knightcert.problems.checkers import certify, tour_cuts
from knightcert.problems.checkers.tour import EXHAUSTIVE_SQUARES, argument_against
from knightcert.problems.checkers.tour_separator import read_separator, separator_verdict
from knightcert.problems.result import Backing, Result, Status
from knightcert.problems.tours import TourInstance
from tests import oracle


def gated(rows: int, cols: int, gates, removed=()) -> np.ndarray:
    """Columns ``cols // 2 - 1`` and ``cols // 2`` removed but for the ``gates``; ``removed`` too."""
    blocked = np.zeros((rows, cols), dtype=bool)
    wall = cols // 2 - 1
    blocked[:, wall : wall + 2] = True
    for square in gates:
        blocked[square] = False
    for square in removed:
        blocked[square] = True
    return blocked


#: (name, blocked, closed, what shows it) past the checker's search
BOARDS = [
    # 20 x 20: one gate; a square of the gate's colour less: a closed tour would pass the gate twice
    ("cut", gated(20, 20, [(5, 9)], [(0, 0)]), True, "removing 1 square leaves 2 pieces"),
    # one gate; the left region a square of the other colour short, the right one of the gate's:
    # an open tour, passing the gate once, would cover the left region and the gate alone
    ("pendant", gated(20, 20, [(5, 9)], [(0, 1), (0, 12)]), False, "removing 89 squares leaves 91 pieces"),
    # 18 x 18: two gates; each region two squares of one colour short: a closed tour crosses
    # each region once
    ("pair", gated(18, 18, [(4, 8), (12, 9)], [(0, 1), (0, 3), (0, 10), (0, 12)]), True, "142 squares"),
]


@pytest.mark.parametrize(("name", "blocked", "closed", "words"), BOARDS, ids=[b[0] for b in BOARDS])
def test_generated_boards_past_the_search_are_certified_through_the_command_line(
    name, blocked, closed, words, tmp_path, capsys
):
    board = Board(*blocked.shape, blocked)
    assert board.n_free > EXHAUSTIVE_SQUARES
    white = int(((np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2 == 0) & board.free).sum())
    assert abs(2 * white - board.n_free) <= (0 if closed else 1)  # the colour count says nothing
    assert argument_against(TourInstance(board, closed=closed)) is None  # nor any other argument
    path = tmp_path / f"{name}.txt"
    path.write_text("\n".join("".join("x" if v else "." for v in row) for row in blocked) + "\n")
    flags = ["--closed"] if closed else []
    saved = tmp_path / "answer.json"
    assert main(["tour", "--board", str(path), *flags, "--json", "--save", str(saved)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "INFEASIBLE" and record["certified"], record
    (evidence,) = record["evidence"]
    assert evidence["backing"] == "certificate" and evidence["how"].startswith("separator: ")
    assert words in evidence["how"]
    assert main(["check", str(path), *flags, str(saved), "--strict"]) == 0
    assert "every claim certified" in capsys.readouterr().out


def test_the_pair_board_needs_the_pair_search():
    _, blocked, closed, _ = BOARDS[2]
    instance = TourInstance(Board(*blocked.shape, blocked), closed=closed)
    assert find_separator(instance, work=0) is None  # no cut square, the board in one piece
    found = find_separator(instance)
    assert found is not None
    removed = read_separator(instance.board, found)
    assert separator_verdict(instance, removed).proves
    assert {(4, 8), (12, 9)} <= set(map(tuple, found.tolist()))


#: 23 squares, open: the left 3 x 4 board less (0, 0) with its gate (1, 4) holds five squares
#: of one colour and seven of the other, which one run of an open tour cannot cover; no
#: counting, degree or forced-moves argument applies
SMALL = gated(3, 10, [(1, 4)], [(0, 0), (0, 7)])


def test_cpsat_attaches_a_separator_and_the_checker_uses_it():
    instance = TourInstance(Board(3, 10, SMALL))
    assert argument_against(instance) is None
    assert not oracle.tour_exists(oracle.tour_board(SMALL, False, False))
    result = cpsat(instance)
    assert result.status is Status.INFEASIBLE and result.certified
    expected = find_separator(instance)
    assert expected is not None and result.certificate["separator"].tolist() == expected.tolist()
    assert result.evidence[0].backing is Backing.CERTIFICATE
    assert result.evidence[0].how.startswith("separator: removing 6 squares leaves 3 pieces")
    assert "separator_s" in result.info
    bare = cpsat(instance, separator=False, check=False)
    assert bare.status is Status.INFEASIBLE and bare.certificate is None


def test_an_exhausted_warnsdorff_search_and_csp_attach_a_separator():
    instance = TourInstance(Board(3, 10, SMALL))
    for method in (cenpl, csp):  # cenpl searches from every start: a complete search
        result = method(instance)
        assert result.status is Status.INFEASIBLE and result.certified, method
        assert "separator" in result.certificate
        assert result.evidence[0].how.startswith("separator")


def test_auto_says_no_by_a_separator_without_cpsat():
    blocked = BOARDS[0][1]
    result = certify(
        TourInstance(Board(*blocked.shape, blocked), closed=True),
        _auto(TourInstance(Board(*blocked.shape, blocked), closed=True)),
    )
    assert result.info["rule"] == "separator" and result.certified
    assert result.nodes is None  # found before Warnsdorff's search: a cut square


def _auto(instance):
    from knightcert.tour_auto import auto

    return auto(instance, check=False, time_limit=5)


def test_with_separator_leaves_other_answers_alone():
    instance = TourInstance(Board(5, 5))
    found = Result("tour", "x", Status.UNKNOWN, None, None, None, 0.0)
    assert with_separator(instance, found) is found


@st.composite
def small_boards(draw):
    """Up to 12 usable squares, plain or torus, holes, closed or open, fixed ends."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(2, 6))
    cells = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    blocked = np.array(cells, dtype=bool).reshape(rows, cols)
    usable = [(r, c) for r in range(rows) for c in range(cols) if not blocked[r, c]]
    for square in usable[12:]:
        blocked[square] = True
    usable = usable[:12] or [(0, 0)]
    blocked[usable[0]] = False
    start = draw(st.none() | st.sampled_from(usable))
    end = draw(st.none() | st.sampled_from(usable))
    return blocked, draw(st.booleans()), draw(st.booleans()), start, None if end == start else end


@settings(max_examples=100)
@given(small_boards())
def test_the_producer_finds_separators_only_where_no_tour_exists(case):
    blocked, torus, closed, start, end = case
    instance = TourInstance(Board(*blocked.shape, blocked.copy(), torus), closed, start, end, "t")
    found = find_separator(instance)
    if found is not None:
        assert not oracle.tour_exists(oracle.tour_board(blocked, torus, closed, start, end))
        assert separator_verdict(instance, read_separator(instance.board, found)).proves


def test_the_work_is_bounded(monkeypatch):
    """On a board where nothing is found, the passes over the move table stay within the work
    (as many passes as ``work`` allows, and the checker's own few before them)."""
    rng = np.random.default_rng(7)
    blocked = np.zeros((40, 40), dtype=bool)
    pairs = rng.random((40, 20)) < 0.03  # holes by pairs side by side: the colours stay balanced
    blocked[:, 0::2] |= pairs
    blocked[:, 1::2] |= pairs
    instance = TourInstance(Board(40, 40, blocked), closed=True)
    assert argument_against(instance) is None
    passes = []
    for name in ("cut_pieces", "label_pieces"):
        kernel = getattr(tour_cuts, name)

        def counted(*args, _kernel=kernel):
            passes.append(1)
            return _kernel(*args)

        monkeypatch.setattr(tour_cuts, name, counted)
    work = 40 * 40 * 8 * 25  # 25 passes
    assert find_separator(instance, work=work) is None
    assert 25 <= len(passes) <= 25 + 4  # the checker's own: one search, up to three verdicts
    passes.clear()
    assert find_separator(instance, work=0) is None and len(passes) <= 4
    assert tour_separator.WORK // (40 * 40 * 8) > 25  # the default does more


def test_forced_moves_certify_a_no_that_no_separator_shows():
    """Square (1, 2) is a move from three squares with two moves each ((0, 0), (2, 0), (0, 4)):
    a closed tour would enter and leave each through it, three moves at one square. No count
    of pieces shows that (removing (1, 2) and the three other neighbours leaves four pieces,
    which a closed tour allows); the forced-moves argument does, past the checker's search."""
    blocked = np.zeros((18, 18), dtype=bool)
    for square in [(0, 1), (4, 1), (2, 3), (2, 5), (10, 10), (10, 14), (14, 10), (14, 14)]:
        blocked[square] = True
    instance = TourInstance(Board(18, 18, blocked), closed=True)
    board = instance.board
    assert board.n_free > EXHAUSTIVE_SQUARES
    gate = [(1, 2), (2, 1), (3, 2), (1, 6)]  # (1, 2) and the other neighbours of the three
    squares = np.array([board.index(*sq) for sq in gate])
    verdict = separator_verdict(instance, squares)
    assert (verdict.pieces, verdict.most, verdict.proves) == (4, 4, False)
    assert argument_against(instance) == (
        Backing.CERTIFICATE,
        "forced moves: 3 forced moves meet at (1, 2); a tour takes two at a square",
    )
    assert find_separator(instance) is None  # the checker needs none
    result = cpsat(instance, time_limit=30)
    assert result.status is Status.INFEASIBLE and result.certified and result.certificate is None
    both = TourInstance(board, start=(5, 5), end=(6, 7))  # an open tour between fixed ends: too
    assert argument_against(both) == argument_against(instance)
    loose = TourInstance(board, start=(5, 5))  # a free end may be one of the three: no argument
    assert argument_against(loose) is None
