"""A model the user changed: what the answer claims is the user's model's, and says what backs it
(an eleventh-session reviewer's findings: each test fails on the code before the fix)."""

from __future__ import annotations

import pytest

import knightcert
from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.result import Backing, Evidence, Result, Status
from knightcert.problems.tours import tour_instance


def _claims(result: Result) -> list[tuple[str, str]]:
    return [(e.claim, e.backing.value) for e in result.evidence]


def test_a_bound_no_evidence_backs_leaves_the_answer_uncertified():
    placement = [[0, 0]]
    answer = Evidence("answer", Backing.CERTIFICATE, "placement checked")
    result = Result("knights", "m", Status.FEASIBLE, 1, 3, placement, 0.0, verified=True, evidence=(answer,))
    assert not result.certified
    assert result.with_(bound=None).certified
    bound = Evidence("bound", Backing.CERTIFICATE, "matching")
    assert result.with_(evidence=(answer, bound)).certified


def test_a_changed_models_bound_is_the_solvers_word_never_certified():
    """20 x 20 holds 200 knights (Kőnig): a bound of 199 from the changed model is CP-SAT's word."""
    model = knightcert.model(knights_instance(20))
    model.cp.add(sum(model.knight[r, c] for r in range(20) for c in range(20)) <= 199)
    placement = [[r, c] for r in range(20) for c in range(20) if (r + c) % 2 == 0][:150]
    stopped = Result.answer("knights", "cpsat", status=Status.FEASIBLE, objective=150, solution=placement)
    result = model._certify_changed(stopped.with_(bound=199))
    assert result.bound == 199 and result.verified and not result.certified
    assert ("bound", "solver") in _claims(result)


def test_a_weighted_objective_is_a_change_and_its_bound_is_not_the_knights():
    model = knightcert.model(knights_instance(8))
    weights = {(0, 1): 5}
    model.cp.maximize(sum(weights.get((r, c), 1) * model.knight[r, c] for r in range(8) for c in range(8)))
    assert model.changed
    result = model.solve()
    assert result.verified and "check_error" not in result.info
    assert result.objective == 32 and result.bound in (None, 32) and result.info["model_bound"] == 36
    assert ("optimal", "solver") in _claims(result)


@pytest.mark.parametrize("n", [5, 7])
def test_the_model_of_an_odd_torus_does_not_pin_a_knight_the_user_did_not_ask_for(n):
    model = knightcert.model(knights_instance(n, torus=True))
    model.cp.add(model.knight[0, 0] == 0)
    result = model.solve()  # a translation empties (0, 0) in some optimal placement: the same optimum
    assert result.status is Status.OPTIMAL and [0, 0] not in [list(s) for s in result.solution]
    assert result.objective == knightcert.solve(knights_instance(n, torus=True)).objective


def test_the_model_of_an_odd_torus_with_a_fixed_knight_finds_the_optimum():
    instance = knights_instance(5, torus=True, fixed=((1, 2),))
    result = knightcert.model(instance).solve()
    assert result.certified and result.objective == knightcert.solve(instance).objective


def test_a_closed_tours_steps_are_numbered_as_its_visits():
    """5 x 6 closed tours with (2, 2) at place 5 and (0, 1) at place 2 exist (as two visits too)."""
    model = knightcert.model(tour_instance(5, 6, closed=True, visits=[(2, 2, 5)]))
    model.cp.add(model.step[0, 1] == 2)
    result = model.solve(check=lambda tour: tour[1] == [0, 1] and tour[4] == [2, 2])
    assert result.status is Status.FEASIBLE and result.verified, result.info


def test_the_path_model_refuses_via_squares_it_would_drop():
    board = Board(6, 6, torus=True)
    instance = LostKnightInstance(board, (0, 0), (4, 4), "t", via=((1, 1),))
    with pytest.raises(InvalidArgument, match="via"):
        knightcert.model(instance)
    assert knightcert.solve(instance, method="cpsat").certified


def test_the_checkers_count_of_tours_under_contradictory_visits_is_zero():
    counted = knightcert.count(tour_instance(5, visits=[(0, 0, 1), (0, 0, 25)]))
    assert counted.count == 0 and all(c.count == 0 for c in counted.counters)


def test_a_models_bad_arguments_are_the_users_errors():
    with pytest.raises(InvalidArgument, match="hint"):
        knightcert.model(knights_instance(5), hint=[[99, 99]])
    with pytest.raises(InvalidArgument, match="time limit"):
        knightcert.model(knights_instance(5)).solve(time_limit="a")  # type: ignore[arg-type]


def test_an_objective_of_the_users_is_optimal_only_in_cpsats_own_status():
    """A third reviewer's finding: with the user's objective, CP-SAT's bound on it was read as a
    bound on the knights, and a placement CP-SAT had only found was reported OPTIMAL."""
    model = knightcert.model(knights_instance(8))
    model.cp.maximize(sum(model.knight[r, c] for r in range(8) for c in range(8)) - 1000)
    placement = [[r, c] for r in range(8) for c in range(8) if (r + c) % 2 == 0][:20]
    found = Result.answer(
        "knights", "cpsat", status=Status.OPTIMAL, objective=20, bound=20, solution=placement
    )
    model.objective_bound = -968.0  # CP-SAT's, on the user's objective
    result = model._certify_changed(found.with_(info={"native_status": "FEASIBLE"}), own=False)
    assert result.status is Status.FEASIBLE and result.certified and result.bound is None
    assert _claims(result) == [("answer", "certificate")] and result.info["model_bound"] == -968.0


def test_the_path_cpsat_method_called_with_via_squares_answers_as_the_others_do():
    """Only the model object refuses via squares; the method itself answers (its answer is then
    checked against the legs like bfs's when it is called without knightcert.solve)."""
    from knightcert.registry import resolve

    instance = LostKnightInstance(Board(6, 6, torus=True), (0, 0), (4, 4), "t", via=((1, 1),))
    assert not resolve("path", "cpsat")(instance).verified
    assert not resolve("path", "bfs")(instance).verified
