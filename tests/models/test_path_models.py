from __future__ import annotations

import numpy as np
import pytest

from knightcert.algorithms.path_search import astar, bfs
from knightcert.models.path_cpsat import cpsat
from knightcert.models.path_csp import MAX_CSP_SQUARES, csp
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.generators import random_lost_knight
from knightcert.problems.lost_knight import parse_lost_knight, read_lost_knight
from knightcert.problems.result import Status

# (rows, cols) from 1x2 up to 30x30, with 1-row and 1-column boards
SIZES = [
    (1, 2),
    (2, 1),
    (1, 7),
    (9, 1),
    (2, 2),
    (2, 5),
    (3, 3),
    (3, 7),
    (4, 4),
    (5, 5),
    (5, 6),
    (6, 5),
    (7, 9),
    (10, 10),
    (12, 17),
    (20, 20),
    (25, 30),
    (30, 30),
]


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_exact_methods_agree_on_random_boards(rows, cols):
    rng = np.random.default_rng(1000 * rows + cols)
    for density in (0.0, 0.3, 0.6):
        inst = random_lost_knight(rng, rows, cols, density)
        results = [bfs(inst), astar(inst), cpsat(inst, seed=0, workers=1)]
        if inst.board.n_free <= MAX_CSP_SQUARES:
            results.append(csp(inst))
        for result in results:
            assert result.verified, (result.method, result.info)
            assert result.status in (Status.OPTIMAL, Status.INFEASIBLE)
        assert len({(r.status, r.objective) for r in results}) == 1, [
            (r.method, r.status, r.objective) for r in results
        ]


def test_cpsat_on_shared_instances(shared_data, lost_knight_expected):
    for name in ("caso0.txt", "caso100.txt", "caso150.txt"):
        inst = read_lost_knight(shared_data / "lost-knight" / name)
        for bound, native in (
            ("bfs", "FEASIBLE"),
            ("none", "OPTIMAL"),
        ):  # stopped at the BFS bound, or proven
            result = cpsat(inst, seed=0, bound=bound)
            assert result.status is Status.OPTIMAL and result.verified
            assert result.objective == result.bound == lost_knight_expected[name]
            assert result.info["native_status"] == native


def test_cpsat_under_a_tiny_time_limit_never_claims_optimality_wrongly(shared_data):
    inst = read_lost_knight(shared_data / "lost-knight" / "caso200.txt")
    result = cpsat(inst, time_limit=0.05, seed=0, workers=1)
    assert result.status in (Status.FEASIBLE, Status.UNKNOWN, Status.OPTIMAL)
    if result.status is Status.UNKNOWN:
        assert result.solution is None
    else:
        assert result.verified and result.bound <= result.objective


def test_cpsat_proves_unreachable():
    boxed = parse_lost_knight(".x.x.\nx...x\n..C..\nx...x\n.xSx.\n")
    for bound in ("bfs", "none"):
        result = cpsat(boxed, bound=bound)
        assert result.status is Status.INFEASIBLE and result.verified


def test_csp_refuses_large_boards_and_respects_time_limit():
    with pytest.raises(SizeLimitExceeded, match="csp handles up to"):
        csp(parse_lost_knight("C" + "." * 40 + "S\n"))
    result = csp(parse_lost_knight("C....\n.....\n....S\n"), time_limit=1e-9)
    assert result.status is Status.UNKNOWN and result.bound == 1 and not result.verified


def test_a_label_bounded_by_an_extension_gives_no_answer_not_a_traceback():
    """Labels are lower bounds: bounded by the user, they may lead back along no move."""
    import knightcert
    from knightcert.problems.lost_knight import parse_lost_knight
    from knightcert.problems.result import Status

    model = knightcert.model(parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n"))
    model.cp.add(model.dist[2, 4] <= 1)
    result = model.solve(time_limit=10)
    assert result.status is Status.UNKNOWN and result.solution is None and not result.verified
