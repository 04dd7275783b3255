from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knightcert.algorithms.jump_search import bfs, bfs_player
from knightcert.models.jump_cpsat import MAX_CPSAT_CELLS, cpsat
from knightcert.models.jump_csp import MAX_CSP_CELLS, csp
from knightcert.problems.generators import random_jump
from knightcert.problems.jump_game import JumpInstance, parse_jump, read_jump
from knightcert.problems.result import Status

ALL = [bfs, bfs_player, cpsat, csp]


def runnable(game: JumpInstance):
    cells = game.rows * game.cols
    return [
        m
        for m in ALL
        if (m is not cpsat or cells <= MAX_CPSAT_CELLS) and (m is not csp or cells <= MAX_CSP_CELLS)
    ]


@pytest.mark.parametrize("case", [1, 2, 3, 4, 5])
def test_official_examples(shared_data, case):
    folder = shared_data / "jump-game"
    game = read_jump(folder / f"EX{case}.in")
    expected = (folder / f"EX{case}.out").read_text().split()
    for solve in runnable(game):
        result = solve(game)
        assert result.verified, (solve.method_name, result.info)
        assert result.solution["output"].split() == expected, solve.method_name


def game(text: str) -> JumpInstance:
    return parse_jump(text)


def winner(result):
    return result.solution["winner"], result.solution["round"]


CASES = [
    # start on the goal: round 0; several on the goal: the first in input order
    ("1 3\n2\n1 1 0\n0 0\n0 2\n", ("B", 0)),
    ("1 3\n3\n1 1 5\n0 0\n0 2\n0 2\n", ("B", 0)),
    # round 1 is in input order, whatever the jumps
    ("1 3\n2\n2 1 0\n0 0\n0 1\n", ("A", 1)),
    ("1 3\n2\n2 1 0\n0 1\n0 0\n", ("A", 1)),
    # round 2: the shorter first jump moves first, even for a later player
    ("1 5\n2\n3 1 1 1 0\n0 0\n0 2\n", ("B", 2)),
    # equal rounds and equal previous jumps: input order
    ("1 5\n2\n2 0 2 1 0\n0 0\n0 0\n", ("A", 2)),
    # stuck on a 0 cell forever
    ("1 3\n1\n0 1 0\n0 0\n", (None, None)),
    # jumps that would leave the board are not allowed
    ("1 3\n1\n5 1 0\n0 0\n", (None, None)),
    ("2 2\n0\n1 1\n1 1\n", (None, None)),
    # fewest rounds beat a better tie key
    ("1 6\n2\n5 2 1 1 1 0\n0 1\n0 0\n", ("B", 1)),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_rules(text, expected):
    g = game(text)
    for solve in runnable(g):
        result = solve(g)
        assert result.verified, (solve.method_name, result.info)
        assert winner(result) == expected, solve.method_name
        assert result.status is (Status.INFEASIBLE if expected[0] is None else Status.OPTIMAL)


def test_best_path_minimises_the_previous_jump():
    # from column 4: 4 -> 2 -> 5 -> 8 (round-2 jump 3, found first going left)
    # or 4 -> 6 -> 7 -> 8 (round-2 jump 1): the key must be 1
    g = game("1 9\n1\n0 0 3 0 2 3 1 1 0\n0 4\n")
    for solve in runnable(g):
        result = solve(g)
        assert (result.solution["round"], result.solution["key"]) == (3, 1), solve.method_name


def test_players_beyond_z_are_named_aa_ab():
    values = " ".join(["1"] * 30)
    starts = "".join(f"0 {c}\n" for c in range(28))
    g = game(f"1 30\n28\n{values}\n{starts}")
    result = bfs(g)
    assert result.solution["output"] == "AB\n2\n" and result.verified


@pytest.mark.parametrize("seed", range(12))
def test_methods_agree_on_random_small_boards(seed):
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    g = random_jump(rng, rows, cols, int(rng.integers(0, 5)), 3)
    results = [solve(g, seed=0) for solve in runnable(g)]
    for result in results:
        assert result.verified, (result.method, result.info)
    assert len({(r.solution["winner"], r.solution["round"], r.solution["key"]) for r in results}) == 1


@pytest.mark.parametrize("seed", range(4))
def test_cpsat_matches_bfs_on_8x8_boards(seed):
    rng = np.random.default_rng(100 + seed)
    g = random_jump(rng, 8, 8, 6, 5)
    a, b = bfs(g), cpsat(g, seed=0)
    assert a.verified and b.verified
    assert (a.solution["winner"], a.solution["round"], a.solution["key"]) == (
        b.solution["winner"],
        b.solution["round"],
        b.solution["key"],
    )


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 30), st.integers(1, 30), st.integers(0, 8), st.integers(1, 12), st.integers(0, 2**32 - 1)
)
def test_backward_and_per_player_bfs_agree(rows, cols, players, high, seed):
    g = random_jump(np.random.default_rng(seed), rows, cols, players, high)
    a, b = bfs(g), bfs_player(g)
    assert a.verified and b.verified
    assert a.solution["players"] == [
        {**row, "path": row["path"] if row["path"] is None else a.solution["players"][i]["path"]}
        for i, row in enumerate(b.solution["players"])
    ]
    assert a.solution["output"] == b.solution["output"]


@pytest.mark.parametrize("huge", [2**31 - 1, 2**31, 10**18 - 1])
def test_values_beyond_any_jump_are_represented_by_the_exact_models(huge):
    g = game(f"2 3\n2\n{huge} 1 1\n1 1 0\n0 0\n0 1\n")
    answers = {}
    for solve in runnable(g):
        result = solve(g, time_limit=20)
        assert result.verified, (solve.method_name, result.info)
        answers[solve.method_name] = winner(result)
    assert len(set(answers.values())) == 1 and answers["bfs"] == ("B", 2), answers
