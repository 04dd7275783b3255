from __future__ import annotations

import numpy as np
import pytest

from knightcert.problems.checkers import check
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.path import distance_labels, reachable_set
from knightcert.problems.lost_knight import parse_lost_knight
from knightcert.problems.result import Result, Status

BOARD = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")  # 6x6 torus: 2 moves


def answer(status, path=None, objective=None, bound=None, certificate=None):
    return Result("path", "test", status, objective, bound, path, 0.0, certificate=certificate)


def test_accepts_a_shortest_path_with_derived_and_given_labels():
    path = [[0, 0], [1, 2], [2, 4]]
    check(BOARD, answer(Status.OPTIMAL, path, 2, 2))
    check(BOARD, answer(Status.OPTIMAL, path, 2, 2, {"labels": distance_labels(BOARD, 2)}))


@pytest.mark.parametrize(
    ("path", "objective", "words"),
    [
        ([[0, 0], [1, 2]], 1, "ends at"),
        ([[1, 2], [2, 4]], 1, "starts at"),
        ([[0, 0], [1, 1], [2, 4]], 2, "not a knight move"),
        ([[0, 0], [1, 2], [2, 4]], 3, "objective 3"),
        ([[0, 0], [9, 9], [2, 4]], 2, "off the board"),
        ([], 0, "non-empty"),
        ([[0, 0], "a", [2, 4]], 2, "not a [row, col]"),
    ],
)
def test_rejects_illegal_paths(path, objective, words):
    with pytest.raises(CheckFailed, match=words.replace("[", r"\[")):
        check(BOARD, answer(Status.FEASIBLE, path, objective))


def test_rejects_a_false_optimality_claim():
    # a legal 4-move path claimed optimal: no labelling can prove it
    longer = [[0, 0], [1, 2], [0, 0], [1, 2], [2, 4]]
    with pytest.raises(CheckFailed):
        check(BOARD, answer(Status.OPTIMAL, longer, 4, 4))
    # a forged labelling is caught by the edge condition
    forged = np.full(BOARD.board.size, 4)
    forged[0] = 0
    with pytest.raises(CheckFailed, match="grows by more than 1"):
        check(BOARD, answer(Status.OPTIMAL, longer, 4, 4, {"labels": forged}))


def test_rejects_a_bound_above_a_legal_path():
    with pytest.raises(CheckFailed, match="bound"):
        check(BOARD, answer(Status.FEASIBLE, [[0, 0], [1, 2], [2, 4]], 2, 3))


# 5x5 torus, C in the middle with all eight knight targets blocked
BOXED = parse_lost_knight(".x.x.\nx...x\n..C..\nx...x\n.xSx.\n")


def test_unreachability_is_proven_by_a_closed_set():
    closed = reachable_set(BOXED)
    assert closed.sum() == 1 and closed[BOXED.start_index]
    check(BOXED, answer(Status.INFEASIBLE))
    check(BOXED, answer(Status.INFEASIBLE, certificate={"closed": closed}))


def test_rejects_false_unreachability_and_bad_closed_sets():
    with pytest.raises(CheckFailed, match="S is reachable from C in 2 moves"):
        check(BOARD, answer(Status.INFEASIBLE))
    not_closed = np.zeros(BOARD.board.size, dtype=bool)
    not_closed[BOARD.start_index] = True
    with pytest.raises(CheckFailed, match="leaves the closed set"):
        check(BOARD, answer(Status.INFEASIBLE, certificate={"closed": not_closed}))
    with pytest.raises(CheckFailed, match="does not contain C"):
        check(BOXED, answer(Status.INFEASIBLE, certificate={"closed": np.zeros(25, dtype=bool)}))
    with pytest.raises(CheckFailed, match="INFEASIBLE carries no solution"):
        check(BOXED, answer(Status.INFEASIBLE, [[2, 2]]))


def test_unknown_has_nothing_to_check():
    result = check(BOARD, answer(Status.UNKNOWN))
    assert not result.verified and result.evidence == ()


def test_a_short_path_read_in_python_agrees_with_the_vectorised_check():
    """check_path_moves reads a short list of [int, int] lists in plain Python and any other path
    with numpy: the same verdict on random tori and walks, legal or with one fault."""
    from knightcert.problems.board import Board
    from knightcert.problems.checkers.path import check_path_moves
    from knightcert.problems.lost_knight import LostKnightInstance
    from knightcert.problems.moves import KNIGHT_OFFSETS

    def verdict(instance, path):
        try:
            return check_path_moves(instance, path)
        except CheckFailed as exc:
            return str(exc)

    rng, accepted, faults = np.random.default_rng(48), 0, set()
    for _ in range(600):
        rows, cols = (int(x) for x in rng.integers(1, 9, size=2))
        walk = [[int(rng.integers(rows)), int(rng.integers(cols))]]
        for _ in range(int(rng.integers(1, 12))):
            dr, dc = KNIGHT_OFFSETS[int(rng.integers(8))]
            walk.append([(walk[-1][0] + dr) % rows, (walk[-1][1] + dc) % cols])
        blocked = rng.random((rows, cols)) < 0.2
        start, end = (walk[0][0], walk[0][1]), (walk[-1][0], walk[-1][1])
        blocked[start] = blocked[end] = False
        if start == end:
            continue
        fault = int(rng.integers(6))  # 0: as walked (its squares may be blocked)
        k = int(rng.integers(len(walk)))
        if fault == 1:  # a square moved by one, or off the board
            walk[k] = [walk[k][0] + int(rng.choice([-rows, -1, 1, rows])), walk[k][1]]
        elif fault == 2:  # any square
            walk[k] = [int(rng.integers(-2, rows + 2)), int(rng.integers(-2, cols + 2))]
        elif fault == 3:  # cut short, or from a later square
            walk = walk[: k + 1] if rng.random() < 0.5 else walk[k:]
        elif fault == 4:  # a step left out
            walk = walk[:k] + walk[k + 1 :]
        instance = LostKnightInstance(Board(rows, cols, blocked, torus=True), start, end)
        as_array = np.array(walk, dtype=np.int64).reshape(-1, 2)  # never read in plain Python
        fast, vectorised = verdict(instance, walk), verdict(instance, as_array)
        assert fast == vectorised, (rows, cols, walk, blocked)
        accepted += isinstance(fast, int)
        faults.add(fast.split(":")[0].split(" ")[1] if isinstance(fast, str) else "ok")
    assert accepted > 100 and len(faults) >= 3  # both verdicts met, with several kinds of fault


def test_labels_at_the_ends_of_int64_compare_without_overflow():
    """A component of its own labelled at int64's largest (or least) values is a valid labelling
    (no move raises a label by more than 1); a rise of 2 between huge labels is still found."""
    from knightcert.problems.board import Board
    from knightcert.problems.checkers.path import check_distance_labels
    from knightcert.problems.lost_knight import LostKnightInstance

    blocked = np.ones((10, 10), bool)
    for square in [(0, 0), (1, 2), (2, 4), (6, 6), (7, 8)]:
        blocked[square] = False
    instance = LostKnightInstance(Board(10, 10, blocked, torus=True), (0, 0), (2, 4))
    for dtype in (np.int64, np.int32):  # int32: the methods' own labels, read as they are
        top, least = int(np.iinfo(dtype).max), int(np.iinfo(dtype).min)
        labels = np.zeros((10, 10), dtype)
        labels[1, 2], labels[2, 4] = 1, 2
        for far in ((top, top), (top - 1, top), (top, top - 1), (least, least), (least, least + 1)):
            labels[6, 6], labels[7, 8] = far
            check_distance_labels(instance, labels, 2)  # accepted
        labels[6, 6], labels[7, 8] = top - 2, top
        with pytest.raises(CheckFailed, match="grows by more than 1"):
            check_distance_labels(instance, labels, 2)
