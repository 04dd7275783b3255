"""Every CP-SAT formulation on small instances, cross-checked against the exact methods.

Each result must also pass the independent checker (``result.verified``).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import knightcert
from knightcert.models import jump_cpsat, knights_cpsat, path_cpsat, tour_cpsat
from knightcert.problems.board import Board
from knightcert.problems.generators import random_jump, random_lost_knight
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.result import Status
from knightcert.problems.tours import closed_tour_exists, open_tour_exists, tour_instance

KNIGHT_VARIANTS = [
    {"formulation": f, "cuts": c, "search": s}
    for f, c, s in itertools.product(knights_cpsat.FORMULATIONS, knights_cpsat.CUTS, knights_cpsat.SEARCHES)
]


def _knight_boards() -> list[KnightsInstance]:
    rng = np.random.default_rng(22)
    boards = [knights_instance(m, n) for m, n in ((1, 5), (2, 7), (3, 3), (5, 8), (8, 8))]
    boards += [knights_instance(6, torus=True), knights_instance(4, 6, torus=True)]
    for k in range(4):
        rows, cols = int(rng.integers(3, 11)), int(rng.integers(3, 11))
        boards.append(KnightsInstance(Board(rows, cols, rng.random((rows, cols)) < 0.25), f"holes{k}"))
    return boards


@pytest.mark.parametrize("options", KNIGHT_VARIANTS, ids=lambda o: "-".join(o.values()))
def test_knights_formulations_agree_with_the_matching(options):
    for instance in _knight_boards():
        exact = knightcert.solve(instance, method="matching")
        result = knights_cpsat.cpsat(instance, seed=0, workers=1, **options)
        assert result.verified, (instance.name, options, result.info)
        assert result.status is Status.OPTIMAL and result.objective == exact.objective, instance.name
        assert {k: result.info[k] for k in options} == options
        assert result.info["hint"] is None


@pytest.mark.parametrize("formulation", knights_cpsat.FORMULATIONS)
@pytest.mark.parametrize(("n", "optimum"), [(5, 5), (7, 14), (9, 27)])
def test_knights_formulations_on_odd_tori(formulation, n, optimum):
    # n(n - 3)/2, proven by the exhaustive search of bnb as well (docs/benchmarks.md)
    for cuts in knights_cpsat.CUTS:
        inst = knights_instance(n, torus=True)
        result = knights_cpsat.cpsat(inst, seed=0, workers=1, formulation=formulation, cuts=cuts)
        assert result.verified and result.status is Status.OPTIMAL and result.objective == optimum


def test_odd_torus_with_holes_matches_bnb():
    blocked = np.zeros((7, 7), dtype=bool)
    blocked[1, 2] = blocked[4, 4] = True
    inst = KnightsInstance(Board(7, 7, blocked, torus=True), "holes torus")
    exact = knightcert.solve(inst, method="bnb", time_limit=20)
    assert exact.status is Status.OPTIMAL
    for formulation in knights_cpsat.FORMULATIONS:
        result = knights_cpsat.cpsat(inst, seed=0, workers=1, formulation=formulation)
        assert result.verified and result.status is Status.OPTIMAL and result.objective == exact.objective


def test_knights_hint_is_recorded():
    inst = knights_instance(8)
    greedy = knightcert.solve(inst, method="greedy")
    result = knights_cpsat.cpsat(inst, seed=0, workers=1, hint=greedy.solution, hint_source="greedy")
    assert result.verified and result.objective == 32 and result.info["hint"] == "greedy"


def test_unknown_options_are_refused():
    inst = knights_instance(4)
    for bad in ({"formulation": "x"}, {"cuts": "x"}, {"search": "x"}):
        with pytest.raises(ValueError, match="valid"):
            knights_cpsat.cpsat(inst, **bad)
    with pytest.raises(ValueError, match="valid"):
        path_cpsat.cpsat(random_lost_knight(np.random.default_rng(0), 5, 5, 0.0), formulation="x")
    with pytest.raises(ValueError, match="valid"):
        tour_cpsat.cpsat(tour_instance(5), formulation="x")


@pytest.mark.parametrize("formulation", path_cpsat.FORMULATIONS)
def test_path_formulations_agree_with_bfs(formulation):
    rng = np.random.default_rng(550)
    for rows, cols, density in (
        (1, 6, 0.0),
        (3, 3, 0.0),
        (6, 7, 0.3),
        (12, 10, 0.5),
        (20, 20, 0.3),
        (9, 9, 0.7),
    ):
        inst = random_lost_knight(rng, rows, cols, density)
        exact = knightcert.solve(inst, method="bfs")
        result = path_cpsat.cpsat(inst, seed=0, workers=1, formulation=formulation)
        assert result.verified, (rows, cols, result.info)
        assert (result.status, result.objective) == (exact.status, exact.objective), (rows, cols)
        assert result.info["formulation"] == formulation


@pytest.mark.parametrize("formulation", jump_cpsat.FORMULATIONS)
def test_jump_formulations_agree_with_bfs(formulation):
    rng = np.random.default_rng(4)
    for rows, cols, players, high in (
        (1, 9, 3, 3),
        (3, 4, 2, 3),
        (6, 6, 4, 4),
        (8, 10, 5, 5),
        (11, 13, 3, 6),
    ):
        inst = random_jump(rng, rows, cols, players, high)
        exact = knightcert.solve(inst, method="bfs")
        result = jump_cpsat.cpsat(inst, seed=0, workers=1, formulation=formulation)
        assert result.verified, (rows, cols, result.info)
        assert result.status is exact.status and result.solution["output"] == exact.solution["output"]
        assert result.info["formulation"] == formulation


@pytest.mark.heavy
def test_jump_layers_on_a_board_of_ten_thousand_cells():
    inst = random_jump(np.random.default_rng(100), 100, 100, 2, 7)
    exact = knightcert.solve(inst, method="bfs")
    result = jump_cpsat.cpsat(inst, seed=0)
    assert result.verified and result.solution["output"] == exact.solution["output"]
    assert [p["rounds"] for p in result.solution["players"]] == [
        p["rounds"] for p in exact.solution["players"]
    ]


@pytest.mark.parametrize("formulation", tour_cpsat.FORMULATIONS)
def test_tour_formulations_follow_the_existence_theorems(formulation):
    for m, n in ((3, 3), (3, 4), (4, 4), (5, 5), (5, 6), (6, 6), (3, 10)):
        for closed in (False, True):
            inst = tour_instance(m, n, closed=closed)
            result = tour_cpsat.cpsat(inst, seed=0, workers=1, formulation=formulation)
            exists = closed_tour_exists(m, n) if closed else open_tour_exists(m, n)
            assert result.verified, (m, n, closed, result.info)
            assert result.status is (Status.FEASIBLE if exists else Status.INFEASIBLE), (m, n, closed)
            assert result.info["formulation"] == formulation and result.info["hint"] is None


def test_tour_closed_20x20_comes_from_the_solver_and_records_its_hint():
    inst = tour_instance(20, closed=True)
    partial = [[0, 0], [1, 2], [2, 4]]
    result = tour_cpsat.cpsat(inst, seed=0, workers=1, hint=partial, hint_source="warnsdorff")
    assert result.verified and result.status is Status.FEASIBLE and len(result.solution) == 400
    assert result.info["hint"] == "warnsdorff" and result.info["native_status"] in ("OPTIMAL", "FEASIBLE")
