"""Models as objects (issue 37, item 2): built, extended from Python, solved and checked; exported."""

from __future__ import annotations

import itertools

import pytest
from google.protobuf import text_format
from ortools.sat import cp_model_pb2
from ortools.sat.python import cp_model

import knightcert
from knightcert.cli.main import main
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.jump_game import parse_jump
from knightcert.problems.moves import KNIGHT_OFFSETS
from knightcert.problems.result import Backing, Status


def backings(result):
    return {e.claim: e.backing for e in result.evidence}


def attacks(a, b):
    return (a[0] - b[0], a[1] - b[1]) in KNIGHT_OFFSETS


def test_knights_without_the_main_diagonal_is_the_brute_force_optimum():
    model = knightcert.model(knightcert.knights_instance(4))
    model.cp.add(sum(model.knight[r, r] for r in range(4)) == 0)
    result = model.solve()
    assert result.verified and result.status is Status.OPTIMAL
    assert all(r != c for r, c in result.solution)
    assert backings(result) == {"answer": Backing.CERTIFICATE, "optimal": Backing.SOLVER}
    assert "changed" in next(e.how for e in result.evidence if e.claim == "optimal")
    off = [(r, c) for r in range(4) for c in range(4) if r != c]
    best = max(
        len(subset)
        for size in range(len(off) + 1)
        for subset in itertools.combinations(off, size)
        if size <= 8 and not any(attacks(a, b) for a, b in itertools.combinations(subset, 2))
    )
    assert result.objective == best


def test_a_key_without_a_variable_and_bad_solve_options_are_the_library_s_errors():
    """A square off the board, removed, or not a square at all: UnknownKey (a KnightcertError,
    and a KeyError, so ``in`` and ``get`` still answer); a seed or a worker count out of range:
    InvalidArgument before CP-SAT is called."""
    from knightcert.problems.errors import KnightcertError, UnknownKey

    model = knightcert.model(knightcert.knights_instance(4, board_file=None))
    for key in [(9, 9), (-1, 0), "a", (0,), None, ((0, 0), (1, 2))]:
        with pytest.raises(UnknownKey, match="the model has no variable") as error:
            model.knight[key]
        assert isinstance(error.value, KnightcertError) and isinstance(error.value, KeyError)
        assert key not in model.knight and model.knight.get(key) is None
    assert (3, 3) in model.knight
    tour = knightcert.model(knightcert.tour_instance(5, closed=False))
    with pytest.raises(UnknownKey, match=r"\(\(0, 0\), \(0, 1\)\)"):
        tour.move[(0, 0), (0, 1)]  # not a knight's move
    for options in [{"seed": "a"}, {"seed": -1}, {"seed": True}, {"workers": 0}, {"workers": 2.5}]:
        with pytest.raises(InvalidArgument, match=r"seed|workers"):
            model.solve(**options)


def test_an_unchanged_model_is_certified_as_the_method_is():
    model = knightcert.model(knightcert.knights_instance(6), formulation="pairwise")
    assert not model.changed
    result = model.solve(check=lambda placement: len(placement) > 0)
    assert result.certified and result.objective == knightcert.solve(knightcert.knights_instance(6)).objective


def test_a_user_predicate_that_rejects_unverifies_the_answer():
    model = knightcert.model(knightcert.knights_instance(5))
    result = model.solve(check=lambda placement: [0, 0] not in placement and [0, 0] in placement)
    assert not result.verified and not result.evidence
    assert "user's check" in result.info["check_error"]


@pytest.mark.parametrize(
    ("instance", "square", "k"),
    [
        (knightcert.tour_instance(5, 5, start=(0, 0)), (2, 2), 5),
        (knightcert.tour_instance(6, 6, closed=True), (2, 3), 10),
        (knightcert.tour_instance(6, 6, closed=True, start=(5, 5)), (3, 3), 21),
        (knightcert.tour_instance(5, 6), (1, 1), 30),
    ],
)
def test_a_tour_that_visits_a_square_at_a_step(instance, square, k):
    model = knightcert.model(instance)
    assert len(model.step) == model.n  # the builder's own variables are not a change
    assert not model.changed
    model.cp.add(model.step[square] == k)
    assert model.changed
    result = model.solve(check=lambda tour: tour[k - 1] == list(square))
    assert result.verified and result.status is Status.FEASIBLE, result.info
    assert result.solution[k - 1] == list(square)


def test_a_tour_with_a_required_move_and_a_no_backed_by_the_solver():
    model = knightcert.model(knightcert.tour_instance(5, 5, start=(0, 0)))
    model.cp.add(model.move[(0, 0), (2, 1)] == 1)
    result = model.solve()
    assert result.verified and result.solution[1] == [2, 1]
    model = knightcert.model(knightcert.tour_instance(5, 5, start=(0, 0)))
    model.cp.add(model.step[0, 1] == 2)  # not a knight move from the start
    result = model.solve()
    assert result.status is Status.INFEASIBLE and not result.verified
    assert backings(result) == {"infeasible": Backing.SOLVER}


def test_model_refuses_what_it_cannot_build():
    with pytest.raises(InvalidArgument, match="jump"):
        knightcert.model(parse_jump("1 3\n1\n1 0 0\n0 0\n"))
    with pytest.raises(InvalidArgument, match="colour"):
        knightcert.model(knightcert.knights_instance(4), colour=1)
    with pytest.raises(InvalidArgument, match="formulation"):
        knightcert.model(knightcert.knights_instance(4), formulation="clique")


def solved_export(path):
    """The exported text loaded as OR-Tools would (text_format into CpModelProto) and solved."""
    proto = text_format.Parse(path.read_text(), cp_model_pb2.CpModelProto())
    model = cp_model.CpModel()
    model.proto.parse_text_format(text_format.MessageToString(proto))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    return status, solver.objective_value if proto.HasField("objective") else None


def test_exported_knights_and_path_models_solve_to_the_same_optimum(tmp_path, capsys):
    exported = tmp_path / "knights.pbtxt"
    assert main(["knights", "6", "--torus", "--export-model", str(exported)]) == 0
    assert "CP-SAT model written" in capsys.readouterr().out
    status, value = solved_export(exported)
    best = knightcert.solve(knightcert.knights_instance(6, torus=True))
    assert status == cp_model.OPTIMAL and value == best.objective
    board = tmp_path / "good.txt"
    board.write_text("C.....\n......\n....S.\n......\n......\n......\n")
    exported = tmp_path / "path.pbtxt"
    assert main(["path", str(board), "--export-model", str(exported)]) == 0
    status, value = solved_export(exported)
    best = knightcert.solve(knightcert.parse_lost_knight(board.read_text()))
    assert status == cp_model.OPTIMAL and value == best.objective
    assert main(["path", str(board), str(board), "--export-model", str(exported)]) == 2


@pytest.mark.parametrize(("args", "expected"), [(["5", "--start", "0,0"], True), (["4", "--closed"], False)])
def test_exported_tour_models_solve_alike(tmp_path, args, expected):
    exported = tmp_path / "tour.pbtxt"
    assert main(["tour", *args, "--export-model", str(exported)]) == 0
    status, _ = solved_export(exported)
    assert (status in (cp_model.OPTIMAL, cp_model.FEASIBLE)) is expected
