"""The separator certificate of tour non-existence (problems/checkers/tour_separator.py).

Every soundness test compares with a brute force that shares no code with the package: the
oracle's (``tests/oracle.py``) knight moves (torus wrap included, each neighbour once, no
square its own neighbour) and its depth-first search over all Hamiltonian paths or cycles
with the given ends. A separator the checker accepts must never sit on a board that has a
tour.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightcert.problems.board import Board
from knightcert.problems.checkers import certify, tour
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.tour import argument_against
from knightcert.problems.checkers.tour_separator import (
    own_separator,
    read_separator,
    separator_verdict,
)
from knightcert.problems.result import Backing, Result, Status
from knightcert.problems.tours import TourInstance
from tests import oracle


def tour_exists(blocked, torus, closed, start=None, end=None) -> bool:
    """The oracle's brute force: a Hamiltonian path (cycle) of the usable squares with the given ends."""
    return oracle.tour_exists(oracle.tour_board(blocked, torus, closed, start, end))


def pieces_without(blocked, torus, removed) -> int:
    """The test's own count of pieces of the usable squares less ``removed`` (the oracle's moves)."""
    inst = oracle.tour_board(blocked, torus)
    left = set(oracle.usable(inst)) - set(removed)
    count = 0
    while left:
        count += 1
        todo = [left.pop()]
        while todo:
            for nxt in oracle.moves(inst, todo.pop(), torus):
                if nxt in left:
                    left.discard(nxt)
                    todo.append(nxt)
    return count


@st.composite
def small_boards(draw):
    """Boards of at most 12 usable squares (plain or torus, holes), a tour kind, fixed ends."""
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 5))
    blocked = np.array(draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols)))
    blocked = blocked.reshape(rows, cols)
    usable = [(r, c) for r in range(rows) for c in range(cols) if not blocked[r, c]]
    if len(usable) > 12:  # keep the brute force fast: block the last ones
        for r, c in usable[12:]:
            blocked[r, c] = True
        usable = usable[:12]
    if not usable:
        blocked[0, 0] = False
        usable = [(0, 0)]
    torus = draw(st.booleans())
    closed = draw(st.booleans())
    start = draw(st.none() | st.sampled_from(usable))
    end = draw(st.none() | st.sampled_from(usable))
    if end == start and len(usable) > 1:
        end = None
    return blocked, torus, closed, start, end


def candidate_sets(blocked, rng_choices):
    """Separators to try: both colours, each square, each pair, and drawn subsets."""
    rows, cols = blocked.shape
    usable = [(r, c) for r in range(rows) for c in range(cols) if not blocked[r, c]]
    sets = [[], [sq for sq in usable if sum(sq) % 2 == 0], [sq for sq in usable if sum(sq) % 2 == 1]]
    sets += [[sq] for sq in usable]
    sets += [[a, b] for i, a in enumerate(usable) for b in usable[i + 1 :]]
    sets += [[sq for sq, keep in zip(usable, choice, strict=False) if keep] for choice in rng_choices]
    return sets


def instance_of(blocked, torus, closed, start, end) -> TourInstance:
    return TourInstance(Board(*blocked.shape, blocked.copy(), torus), closed, start, end, "t")


def flat(board: Board, squares) -> np.ndarray:
    return np.array([board.index(*sq) for sq in squares], dtype=np.int64)


@settings(max_examples=100)
@given(small_boards(), st.lists(st.lists(st.booleans(), min_size=12, max_size=12), max_size=6))
def test_a_separator_that_proves_sits_only_on_a_board_without_a_tour(case, choices):
    blocked, torus, closed, start, end = case
    instance = instance_of(*case)
    exists = tour_exists(blocked, torus, closed, start, end)
    for removed in candidate_sets(blocked, choices):
        verdict = separator_verdict(instance, flat(instance.board, removed))
        assert verdict.removed == len(removed)
        n = int((~blocked).sum())
        if n >= (3 if closed else 2):
            assert verdict.pieces == pieces_without(blocked, torus, removed)
        if verdict.proves:
            assert not exists, (removed, verdict.how)
    own = own_separator(instance)
    if own is not None:
        assert not exists, own[1].how
        assert own[1].proves and separator_verdict(instance, own[0]).proves


@settings(max_examples=60)
@given(small_boards())
def test_the_checker_certifies_a_no_by_separator_only_where_no_tour_exists(case):
    """With the checker's own search switched off, a "No" with any separator attached is
    certified by a separator only on boards the brute force finds no tour on."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tour, "EXHAUSTIVE_SQUARES", 0)  # every other claim rests on the solver
        check_claims_with_separators(case)


def check_claims_with_separators(case):
    blocked, torus, closed, start, end = case
    instance = instance_of(*case)
    exists = tour_exists(blocked, torus, closed, start, end)
    rows, cols = blocked.shape
    usable = [[r, c] for r in range(rows) for c in range(cols) if not blocked[r, c]]
    for separator in ([], usable[::2], usable[1::2], usable[:1], usable[-2:]):
        claim = Result("tour", "cpsat", Status.INFEASIBLE, None, None, None, 0.0)
        out = certify(instance, claim.with_(certificate={"separator": separator}))
        evidence = [e for e in out.evidence if e.claim == "infeasible"]
        if exists:
            assert not out.certified and all(e.backing is Backing.SOLVER for e in evidence)
        if out.certified and evidence[0].how.startswith("separator"):
            assert out.certificate is not None and "separator" in out.certificate


@settings(max_examples=150)
@given(small_boards())
def test_every_argument_of_the_checker_holds_only_where_no_tour_exists(case):
    """Counting, colours, degrees, forced moves, theorems: each "no" the checker argues is
    one the brute force agrees with."""
    blocked, torus, closed, start, end = case
    reason = argument_against(instance_of(*case))
    if reason is not None:
        assert not tour_exists(blocked, torus, closed, start, end), reason


def test_forced_moves_close_a_short_cycle():
    # a 4 x 4 board (two removed columns beside it): the corners have two moves each, and
    # the moves of (0, 0) and (3, 3) close the cycle (0, 0) (1, 2) (3, 3) (2, 1)
    blocked = np.zeros((4, 6), dtype=bool)
    blocked[:, 4:] = True
    instance = TourInstance(Board(4, 6, blocked), closed=True)
    words = "forced moves: forced moves close a cycle of 4 of the 16 squares"
    assert argument_against(instance) == (Backing.CERTIFICATE, words)
    assert not tour_exists(blocked, False, True)


def gated(rows: int, gates=((1, 4),), cols: int = 10) -> np.ndarray:
    """Two boards two columns apart (columns ``cols // 2 - 1`` and ``cols // 2`` removed),
    joined through the ``gates`` left in those columns."""
    blocked = np.zeros((rows, cols), dtype=bool)
    wall = cols // 2 - 1
    blocked[:, wall : wall + 2] = True
    for r, c in gates:
        blocked[r, c] = False
    return blocked


def test_the_rules_and_their_words_on_a_gated_board():
    blocked = gated(4)
    board = Board(4, 10, blocked)
    gate = flat(board, [(1, 4)])
    closed = separator_verdict(TourInstance(board, closed=True), gate)
    assert (closed.removed, closed.pieces, closed.most, closed.proves) == (1, 2, 1, True)
    assert closed.how == "separator: removing 1 square leaves 2 pieces, a closed tour leaves at most 1"
    assert not separator_verdict(TourInstance(board), gate).proves  # an open tour may pass the gate once
    fixed = separator_verdict(TourInstance(board, start=(1, 4)), gate)  # ... but cannot start there
    assert fixed.proves and fixed.most == 1 and "a fixed end among them" in fixed.how
    apart = separator_verdict(TourInstance(board), np.zeros(0, dtype=np.int64))
    assert (apart.pieces, apart.proves) == (1, False)
    assert apart.how == "removing 0 squares leaves 1 piece, which a tour allows (at most 1)"


def test_pieces_joined_through_one_square_need_an_end_each():
    # three boards in a row, each joined to the next through one gate: the outer two hang on one gate each
    blocked = np.zeros((4, 16), dtype=bool)
    blocked[:, 4:6] = blocked[:, 10:12] = True
    blocked[1, 4] = blocked[2, 11] = False
    board = Board(4, 16, blocked)
    gates = flat(board, [(1, 4), (2, 11)])
    free = separator_verdict(TourInstance(board), gates)
    assert (free.pieces, free.most, free.lonely, free.lonely_most) == (3, 3, 2, 2) and not free.proves
    start_in_middle = separator_verdict(TourInstance(board, start=(0, 8)), gates)
    assert start_in_middle.lonely == 2 and start_in_middle.lonely_most == 1 and start_in_middle.proves
    assert "other than its fixed ones, and 1 is left" in start_in_middle.how
    start_outside = separator_verdict(TourInstance(board, start=(0, 0)), gates)
    assert start_outside.lonely == 1 and not start_outside.proves
    closed = separator_verdict(TourInstance(board, closed=True), gates)  # (D) and (C) both
    assert closed.proves and closed.lonely == 2 and closed.lonely_most == 0


def test_a_closed_tour_with_both_ends_fixed_removed_counts_one_piece_less():
    blocked = np.zeros((3, 4), dtype=bool)  # 3 x 4: open tours only; as a cycle it has none
    board = Board(3, 4, blocked)
    start, end = (0, 0), (1, 2)  # a move apart
    both = flat(board, [start, end])
    fixed = separator_verdict(TourInstance(board, True, start, end), both)
    loose = separator_verdict(TourInstance(board, True, start), both)
    assert (fixed.most, loose.most) == (1, 2)
    assert fixed.pieces == loose.pieces == pieces_without(blocked, False, [start, end])
    assert fixed.proves == (fixed.pieces > 1) and loose.proves == (loose.pieces > 2)
    if fixed.proves and not loose.proves:
        assert "its fixed start and end, a move of the tour, among them" in fixed.how


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ([[0, 0], [0, 0]], r"certificate 'separator'\[1\]: \(0, 0\) is given twice"),
        ([[0, 1], [4, 0]], r"certificate 'separator'\[1\]: \(4, 0\) is off the 4 x 10 board"),
        ([[0, -1]], r"certificate 'separator'\[0\]: \(0, -1\) is off the 4 x 10 board"),
        ([[0, 4]], r"certificate 'separator'\[0\]: \(0, 4\) is a removed square"),
        ([[0, 1.0]], "is 1.0, not an integer"),
        ([[0, float("nan")]], "is NaN, not an integer"),
        ([[0, True]], "is True, not an integer"),
        ([[0, "1"]], "not an integer"),
        ([[0, 1, 2]], r"\[0\]: \[0, 1, 2\] is not a \[row, col\] pair"),
        ([0, 1], r"\[0\]: 0 is not a \[row, col\] pair"),
        ({"squares": [[0, 1]]}, "expected a list of"),
        (7, "expected a list of"),
        (np.array([[0.0, 1.0]]), "array of float64, expected integers"),
    ],
)
def test_a_malformed_separator_refuses_the_claim_naming_the_entry(value, words):
    board = Board(4, 10, gated(4))
    with pytest.raises(CheckFailed, match=words) as raised:
        read_separator(board, value)
    assert raised.value.claim == "infeasible"
    instance = TourInstance(board, closed=True)
    claim = Result(
        "tour", "cpsat", Status.INFEASIBLE, None, None, None, 0.0, certificate={"separator": value}
    )
    out = certify(instance, claim)
    assert not out.verified and out.info["check_error"].startswith("infeasible claim rejected: certificate")


def test_an_empty_separator_is_read_as_such():
    board = Board(4, 10, gated(4))
    assert read_separator(board, []).size == 0
    assert read_separator(board, np.zeros((0,), dtype=np.int64)).size == 0
    assert read_separator(board, np.zeros((0, 2), dtype=np.int32)).size == 0


def big_gated(closed: bool) -> tuple[TourInstance, np.ndarray]:
    """Past the checker's search: two 16 x 9 boards two columns apart, one gate."""
    blocked = gated(16, ((5, 9),), cols=20)
    blocked[0, 0] = True  # the colours balanced again (the gate is of colour 0)
    return TourInstance(Board(16, 20, blocked), closed=closed, name="big"), blocked


def test_past_the_search_a_separator_certifies_and_a_useless_one_is_left_aside():
    instance, _ = big_gated(closed=True)
    assert instance.board.n_free > tour.EXHAUSTIVE_SQUARES
    claim = Result("tour", "cpsat", Status.INFEASIBLE, None, None, None, 0.0)
    gate = [[5, 9]]
    out = certify(instance, claim.with_(certificate={"separator": gate}))
    assert out.certified and out.evidence[0].backing is Backing.CERTIFICATE
    assert (
        out.evidence[0].how == "separator: removing 1 square leaves 2 pieces, a closed tour leaves at most 1"
    )
    assert out.certificate["separator"].tolist() == gate
    # a set that separates nothing is left aside: the checker finds the gate itself
    out = certify(instance, claim.with_(certificate={"separator": [[0, 1], [3, 3]]}))
    assert out.certified and out.certificate["separator"].tolist() == gate
    # an open tour may pass the gate once: nothing the checker can show, the solver's word
    open_instance = TourInstance(instance.board, name="big open")
    out = certify(open_instance, claim.with_(certificate={"separator": gate}))
    assert out.verified and not out.certified
    assert "the answer's separator proves nothing (removing 1 square leaves 2 pieces" in out.evidence[0].how


def test_a_board_in_pieces_is_found_by_the_checker_itself():
    _, blocked = big_gated(closed=False)
    blocked = blocked.copy()
    blocked[5, 9] = True
    apart = TourInstance(Board(16, 20, blocked), name="apart")
    out = certify(apart, Result("tour", "warnsdorff", Status.INFEASIBLE, None, None, None, 0.0))
    assert out.certified and out.evidence[0].how.startswith(
        "separator: the usable squares fall into 2 pieces"
    )
    assert out.certificate["separator"].shape == (0, 2)


def test_three_pendant_blocks_are_found_by_the_checker_itself():
    # a star: a middle 4 x 4 board with three more hanging on one gate each, two rows or
    # columns apart; an open tour would need an end in each of the three
    blocked = np.ones((16, 16), dtype=bool)
    blocked[6:10, 6:10] = False  # the middle
    blocked[0:4, 6:10] = blocked[12:16, 6:10] = blocked[6:10, 0:4] = False  # top, bottom, left
    for gate in ((4, 7), (11, 7), (7, 4)):
        blocked[gate] = False
    instance = TourInstance(Board(16, 16, blocked), name="star")
    removed, verdict = own_separator(instance)
    assert verdict.proves and verdict.pieces == 4 and verdict.lonely == 3 and verdict.lonely_most == 2
    assert sorted(map(instance.board.square, removed.tolist())) == [(4, 7), (7, 4), (11, 7)]
    assert pieces_without(blocked, False, [(4, 7), (11, 7), (7, 4)]) == 4


def test_where_it_stops_a_small_torus_no_separator_shows():
    """An open tour on this 4 x 5 torus does not exist (the oracle), yet no set of its twelve
    squares breaks a rule and no other argument applies: past the checker's search such a
    claim would rest on the solver (here the search decides it)."""
    rows = ["..x.x", "..xx.", ".xx..", "..xx."]
    blocked = np.array([[ch == "x" for ch in row] for row in rows])
    instance = TourInstance(Board(4, 5, blocked, torus=True), name="gap")
    assert not tour_exists(blocked, True, False)
    assert argument_against(instance) is None and own_separator(instance) is None
    usable = np.flatnonzero(~blocked.reshape(-1))
    for k in range(len(usable) + 1):
        for removed in itertools.combinations(usable.tolist(), k):
            assert not separator_verdict(instance, np.array(removed, dtype=np.int64)).proves
    claim = Result("tour", "cpsat", Status.INFEASIBLE, None, None, None, 0.0)
    assert certify(instance, claim).evidence[0].backing is Backing.SEARCH
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tour, "EXHAUSTIVE_SQUARES", 0)
        assert certify(instance, claim.with_()).evidence[0].backing is Backing.SOLVER


# ------------------------------------------- the pieces and cut squares, against the test's own


def parts_of(inst: dict, kept: set) -> list[set]:
    """The pieces of the squares ``kept`` (the test's flood fill over the oracle's moves)."""
    left, parts = set(kept), []
    while left:
        part = {left.pop()}
        todo = list(part)
        while todo:
            for nxt in oracle.moves(inst, todo.pop(), inst["torus"]):
                if nxt in left:
                    left.discard(nxt)
                    part.add(nxt)
                    todo.append(nxt)
        parts.append(part)
    return parts


def test_the_cut_squares_and_pieces_are_the_flood_fill_s():
    """``cut_pieces`` against the test's flood fill: for every square kept, ``pieces`` is how
    many pieces its own piece falls into without it (0 for a square alone); the labels group
    the kept squares exactly as the pieces do (-1 elsewhere); ``count`` is how many pieces.
    Plain boards and tori with holes; kept: every usable square, the usable ones less a random
    few (as the producer keeps them), less the first square, less the first square's moves
    (the first square alone). The 3 x 3 board falls into its centre and a ring of eight."""
    from knightcert.problems.checkers.tour_cuts import cut_pieces
    from knightcert.problems.moves import knight_neighbours

    rng = np.random.default_rng(31)
    boards = [(np.zeros((3, 3), dtype=bool), False), (np.zeros((3, 3), dtype=bool), True)]
    for _ in range(120):
        rows, cols = (int(x) for x in rng.integers(1, 7, size=2))
        boards.append((rng.random((rows, cols)) < 0.2, bool(rng.integers(2))))
    for blocked, torus in boards:
        board = Board(*blocked.shape, blocked.copy(), torus)
        nb = knight_neighbours(board)
        inst = oracle.tour_board(blocked, torus)
        usable = set(oracle.usable(inst))
        first = board.square(0)
        keeps = [usable, {sq for sq in usable if rng.random() >= 0.3}, usable - {first}]
        keeps.append(usable - oracle.moves(inst, first, torus))
        for kept in keeps:
            keep = np.zeros(board.size, dtype=bool)
            keep[[board.index(*sq) for sq in kept]] = True
            pieces, label, count = cut_pieces(nb, keep)
            parts = parts_of(inst, kept)
            where = (blocked.tolist(), torus, sorted(kept))
            assert count == len(parts), where
            names = [{int(label[board.index(*sq)]) for sq in part} for part in parts]
            assert all(len(name) == 1 and min(name) >= 0 for name in names), where
            assert len(set().union(*names)) == len(parts), where
            assert all(label[i] == -1 for i in range(board.size) if board.square(i) not in kept), where
            for part in parts:
                for u in part:
                    assert pieces[board.index(*u)] == len(parts_of(inst, part - {u})), (where, u)


@pytest.mark.parametrize(("rows", "cols"), [(2, 6), (3, 4), (4, 4), (3, 5), (4, 5)])
def test_no_separator_refutes_a_closed_tour_between_fixed_ends(rows, cols):
    """Tori with closed tours: from the first square to each end a move from it between which
    the oracle finds a closed tour, no separator (none, each colour, each square, each pair)
    proves there is none, and a "no tour" claim carrying a square of it is not certified. Rule
    (C) allows one piece less only when both fixed ends are among the squares removed: one
    square removed from a board in one piece leaves one piece, which a closed tour allows."""
    blocked = np.zeros((rows, cols), dtype=bool)
    board = Board(rows, cols, blocked.copy(), True)
    inst = oracle.tour_board(blocked, True, True)
    start = (0, 0)
    ends = [
        end for end in sorted(oracle.moves(inst, start, True)) if tour_exists(blocked, True, True, start, end)
    ]
    assert ends
    claim = Result("tour", "cpsat", Status.INFEASIBLE, None, None, None, 0.0)
    for end in ends:
        instance = TourInstance(board, True, start, end, "t")
        for removed in candidate_sets(blocked, []):
            verdict = separator_verdict(instance, flat(board, removed))
            assert not verdict.proves, (end, removed, verdict.how)
        for square in ([0, 1], [rows - 1, cols - 1], list(end)):
            out = certify(instance, claim.with_(certificate={"separator": [square]}))
            assert not out.certified, (end, square, [e.how for e in out.evidence])


def own_rules(inst: dict, removed: set, fixed: set, closed: bool) -> tuple[int, int, int, int | None]:
    """The test's reading of rules (A)-(D) (module docstring of the checker): the pieces left,
    the most a tour allows, the pieces joined to the removed squares through at most one of
    them that count (all for a closed tour; for an open one those without a fixed end), and
    how many such a tour allows (None: no limit)."""
    parts = parts_of(inst, set(oracle.usable(inst)) - removed)
    k = len(removed)
    joined = [sum(1 for x in removed if oracle.moves(inst, x, inst["torus"]) & part) for part in parts]
    if closed:
        most = 1 if k == 0 else k - (len(fixed) == 2 and fixed <= removed)
        lonely = sum(1 for j in joined if j <= 1)
        return len(parts), most, lonely, (0 if k >= 2 else None)
    most = k + 1 - len(fixed & removed)
    lonely = sum(1 for j, part in zip(joined, parts, strict=True) if j <= 1 and not part & fixed)
    return len(parts), most, lonely, 2 - len(fixed)


def chain() -> np.ndarray:
    """Three 4 x 4 boards in a row, each joined to the next through one gate: (1, 4), (2, 11)."""
    blocked = np.zeros((4, 16), dtype=bool)
    blocked[:, 4:6] = blocked[:, 10:12] = True
    blocked[1, 4] = blocked[2, 11] = False
    return blocked


def test_the_verdict_s_words_count_the_pieces_joined_through_one_square():
    """Boards joined through gates (two 4 x 4 boards, three in a row), tours closed and open,
    with fixed ends in the outer boards, the middle one or none; removed: the gates, and the
    gates with one more square. The verdict's numbers are the test's reading of the rules, and
    where the pieces joined through one square decide, its words give their number with the
    noun it takes ("1 piece", "2 pieces")."""
    seen = set()
    for blocked, gates, squares in (
        (gated(4), [(1, 4)], [(0, 0), (3, 9), (2, 7)]),
        (chain(), [(1, 4), (2, 11)], [(0, 0), (0, 8), (3, 15)]),
    ):
        board = Board(*blocked.shape, blocked)
        inst = oracle.tour_board(blocked, False)
        usable = oracle.usable(inst)
        ends = [(None, None), *((a, None) for a in squares), *itertools.permutations(squares, 2)]
        for closed, (start, end) in itertools.product((True, False), ends):
            instance = TourInstance(board, closed, start, end, "t")
            fixed = {sq for sq in (start, end) if sq is not None}
            for other in [None, *(sq for sq in usable if sq not in gates)]:
                removed = {*gates} if other is None else {*gates, other}
                verdict = separator_verdict(instance, flat(board, sorted(removed)))
                m, most, lonely, allowed = own_rules(inst, removed, fixed, closed)
                numbers = (verdict.pieces, verdict.most, verdict.lonely, verdict.lonely_most)
                assert numbers == (m, most, lonely, allowed), (closed, start, end, removed)
                if m <= most and allowed is not None and lonely > allowed:
                    words = "1 piece joined" if lonely == 1 else f"{lonely} pieces joined"
                    assert f"leaves {words} to them through" in verdict.how, verdict.how
                    seen.add((closed, lonely == 1))
    assert seen == {(True, True), (True, False), (False, True), (False, False)}
