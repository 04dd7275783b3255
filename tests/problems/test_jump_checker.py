from __future__ import annotations

import copy

import numpy as np
import pytest

from knightcert.algorithms.jump_search import bfs
from knightcert.problems.checkers import check
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.jump import labels
from knightcert.problems.jump_game import parse_jump

GAME = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")  # EX1: C wins in round 3


def tampered(change):
    result = bfs(GAME)
    solution = copy.deepcopy(result.solution)
    change(solution)
    return result.with_(solution=solution)


def test_accepts_the_true_answer_with_and_without_certificate():
    result = bfs(GAME)
    check(GAME, result)
    check(GAME, result.with_(certificate=None))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda s: s.update(winner="A", path=s["players"][0]["path"], key=2), "could do better|beats"),
        (lambda s: s.update(round=4), "takes 3 rounds"),
        (lambda s: s.update(key=2), "previous jump is 1"),
        (lambda s: s.update(path=[[0, 2], [0, 5], [0, 8]]), "not a jump"),
        (lambda s: s.update(path=[[0, 0], [0, 4], [0, 6], [0, 8]]), "does not start"),
        (lambda s: s.update(output="A\n3\n"), "output text"),
        (lambda s: s["players"][1].update(rounds=None, key=None, path=None), "reported never"),
    ],
)
def test_rejects_tampered_answers(change, words):
    with pytest.raises(CheckFailed, match=words):
        check(GAME, tampered(change))


def test_rejects_forged_labels():
    rounds, keys = labels(GAME)
    forged = rounds.copy()
    forged[0, 1] = 1  # B claims one round: no jump supports it
    with pytest.raises(CheckFailed, match="labels are not"):
        check(GAME, bfs(GAME).with_(certificate={"rounds": forged, "keys": keys}))
    low = keys.copy()
    low[0, 0] = 0
    with pytest.raises(CheckFailed):
        check(GAME, bfs(GAME).with_(certificate={"rounds": rounds, "keys": low}))


def test_labels_match_bfs_certificate_on_ex1():
    rounds, keys = labels(GAME)
    cert = bfs(GAME).certificate
    assert np.array_equal(rounds, cert["rounds"])
    assert np.array_equal(np.where(rounds >= 2, keys, -1), np.where(rounds >= 2, cert["keys"], -1))
