"""An adversarial corpus: wrong answers every route must reject.

Each case is an instance and a forged :class:`Result` (a wrong optimum with
or without a forged certificate, NaN / inf / negative / fractional / boolean
entries, a wrong tie-break winner, false non-existence on plain, holed and
toroidal boards, unproven bounds, inconsistent fields). Every case is
rejected three ways: through ``knightcert.check`` (the answer file's
content), through ``knightcert check`` (the command line, exit 1) and
through the harness running a monkeypatched method that returns it.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import knightcert
from knightcert.algorithms.jump_search import bfs as jump_bfs
from knightcert.cli.main import main
from knightcert.compare.runner import Task, run_task
from knightcert.problems.answers import answer_to_dict, seal
from knightcert.problems.board import Board
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.path import distance_labels
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.jump_game import parse_jump
from knightcert.problems.lost_knight import parse_lost_knight
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance, tour_instance
from tests.problems.test_tour_checker import PUBLISHED_5, as_tour

NAN, INF = float("nan"), float("inf")


@dataclass(frozen=True)
class Case:
    id: str
    instance: Any
    result: Result
    words: str  # expected in the rejection message


def forged(problem, status, objective, bound, solution, certificate=None) -> Result:
    return Result(problem, "forged", status, objective, bound, solution, 0.0, certificate=certificate)


# ------------------------------------------------------------------------------------------ path

PATH = parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n")  # 6x6 torus: 2 moves
BOXED = parse_lost_knight(".x.x.\nx...x\n..C..\nx...x\n.xSx.\n")  # S unreachable
SHORT = [[0, 0], [1, 2], [2, 4]]
LONG = [[0, 0], [2, 1], [4, 2], [3, 0], [2, 4]]  # 4 legal moves (on the torus)


def path_labels(value):
    """A labelling that 'proves' 4 moves, with one entry replaced by ``value``."""
    labels = np.minimum(distance_labels(PATH, 4).astype(float).reshape(6, 6) * 2, 4)
    labels[5, 5] = value
    return labels


def path_cases() -> list[Case]:
    O, F, I = Status.OPTIMAL, Status.FEASIBLE, Status.INFEASIBLE  # noqa: E741
    doubled = np.minimum(distance_labels(PATH, 4).reshape(6, 6) * 2, 4)
    nan_closed = np.where(np.zeros((5, 5), bool), 0.0, NAN)
    return [
        Case("path-longer-optimal", PATH, forged("path", O, 4, 4, LONG), "path of 2 moves"),
        Case("path-forged-labels", PATH, forged("path", O, 4, 4, LONG, {"labels": doubled}), "grows by more"),
        Case("path-nan-labels", PATH, forged("path", O, 4, 4, LONG, {"labels": path_labels(NAN)}), "NaN"),
        Case("path-inf-labels", PATH, forged("path", O, 4, 4, LONG, {"labels": path_labels(INF)}), "inf"),
        Case(
            "path-neginf-labels", PATH, forged("path", O, 4, 4, LONG, {"labels": path_labels(-INF)}), "-inf"
        ),
        Case("path-frac-labels", PATH, forged("path", O, 4, 4, LONG, {"labels": path_labels(2.5)}), "2.5"),
        Case(
            "path-labels-shape",
            PATH,
            forged("path", O, 2, 2, SHORT, {"labels": np.zeros((3, 3), int)}),
            "shape",
        ),
        Case("path-frac-square", PATH, forged("path", F, 2, None, [[0, 0], [1.5, 2], [2, 4]]), "1.5"),
        Case("path-bool-square", PATH, forged("path", F, 2, None, [[0, 0], [True, 2], [2, 4]]), "True"),
        Case(
            "path-negative-square",
            PATH,
            forged("path", F, 2, None, [[0, 0], [-5, 2], [2, 4]]),
            "off the board",
        ),
        Case("path-nan-objective", PATH, forged("path", F, NAN, None, SHORT), "objective: NaN"),
        Case("path-inf-objective", PATH, forged("path", F, INF, None, SHORT), "objective: inf"),
        Case("path-negative-objective", PATH, forged("path", F, -2, None, SHORT), "below 0"),
        Case("path-frac-objective", PATH, forged("path", F, 2.0, None, SHORT), "2.0 is not an integer"),
        Case("path-wrong-objective", PATH, forged("path", F, 3, None, SHORT), "has 2 moves"),
        Case("path-unproven-bound", PATH, forged("path", F, 4, 4, LONG), "shortest path of 2"),
        Case("path-optimal-bound", PATH, forged("path", O, 2, 1, SHORT), "bound == objective"),
        Case("path-false-unreachable", PATH, forged("path", I, None, None, None), "reachable"),
        Case(
            "path-forged-closed-set",
            PATH,
            forged("path", I, None, None, None, {"closed": ~np.eye(6, dtype=bool)}),
            "closed set",
        ),
        Case(
            "path-nan-closed-set", BOXED, forged("path", I, None, None, None, {"closed": nan_closed}), "NaN"
        ),
        Case("path-infeasible-objective", BOXED, forged("path", I, 3, None, None), "no objective"),
        Case("path-infeasible-path", BOXED, forged("path", I, None, None, [[2, 2]]), "no solution"),
        Case("path-feasible-without-path", PATH, forged("path", F, 2, None, None), "needs a solution"),
    ]


# ------------------------------------------------------------------------------------------ jump

GAME = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")  # EX1: C wins in round 3
TIE = parse_jump("1 5\n2\n2 1 2 0 0\n0 0\n0 1\n")  # both arrive in round 2; B's first jump is shorter
ALONE = parse_jump("1 3\n1\n1 0 0\n0 0\n")  # A gets stuck: no winner


def jump_answer(game, change=None, **fields) -> Result:
    result = jump_bfs(game, check=False)
    solution = copy.deepcopy(result.solution)
    if change is not None:
        change(solution)
    return result.with_(method="forged", solution=solution, certificate=None, **fields)


def jump_cases() -> list[Case]:
    rounds, keys = (np.asarray(a) for a in (jump_bfs(GAME).certificate[k] for k in ("rounds", "keys")))

    def with_labels(r, k):
        return jump_answer(GAME).with_(certificate={"rounds": r, "keys": k})

    def a_wins(s):
        s.update(winner="A", path=s["players"][0]["path"], key=s["players"][0]["key"], output="A\n3\n")

    nan_rounds = rounds.astype(float)
    nan_rounds[0, 3] = NAN
    inf_keys = keys.astype(float)
    inf_keys[0, 0] = INF
    frac = rounds.astype(float)
    frac[0, 1] = 1.5
    stuck = np.full_like(rounds, -1)
    stuck[0, 8] = 0
    no_winner = {"winner": None, "round": None, "key": None, "path": None, "output": "SEM VENCEDORES\n"}
    I = Status.INFEASIBLE  # noqa: E741
    return [
        Case("jump-wrong-winner", GAME, jump_answer(GAME, a_wins), "could do better|beats"),
        Case(
            "jump-tie-break",
            TIE,
            jump_answer(
                TIE, lambda s: s.update(winner="A", path=s["players"][0]["path"], key=2, output="A\n2\n")
            ),
            "beats the claimed winner",
        ),
        Case(
            "jump-forged-labels",
            GAME,
            jump_answer(GAME, a_wins).with_(certificate={"rounds": np.zeros_like(rounds), "keys": keys}),
            "label",
        ),
        Case("jump-nan-rounds", GAME, with_labels(nan_rounds, keys), "NaN"),
        Case("jump-inf-keys", GAME, with_labels(rounds, inf_keys), "inf"),
        Case("jump-frac-rounds", GAME, with_labels(frac, keys), "1.5"),
        Case("jump-negative-rounds", GAME, with_labels(rounds - 5, keys), "below -1"),
        Case("jump-false-no-winner", GAME, forged("jump", I, None, None, no_winner), "can reach the goal"),
        Case(
            "jump-false-no-winner-labels",
            GAME,
            forged("jump", I, None, None, no_winner, {"rounds": stuck, "keys": keys}),
            "label",
        ),
        Case(
            "jump-wrong-round",
            GAME,
            jump_answer(GAME, lambda s: s.update(round=2), objective=2, bound=2),
            "takes 3 rounds",
        ),
        Case("jump-wrong-key", GAME, jump_answer(GAME, lambda s: s.update(key=2)), "previous jump is 1"),
        Case("jump-nan-objective", GAME, jump_answer(GAME, objective=NAN), "objective: NaN"),
        Case("jump-negative-round", GAME, jump_answer(GAME, lambda s: s.update(round=-3)), "below 0"),
        Case("jump-bool-round", GAME, jump_answer(GAME, lambda s: s.update(round=True)), "True"),
        Case(
            "jump-frac-path",
            GAME,
            jump_answer(GAME, lambda s: s.update(path=[[0, 2], [0, 5.0], [0, 6], [0, 8]])),
            "5.0, not an integer",
        ),
        Case("jump-optimal-bound", GAME, jump_answer(GAME, bound=2), "bound == objective"),
        Case("jump-bound-above-answer", GAME, jump_answer(GAME, status=Status.FEASIBLE, bound=4), "exceeds"),
        Case("jump-infeasible-objective", ALONE, forged("jump", I, 1, None, no_winner), "no objective"),
        Case("jump-output-text", GAME, jump_answer(GAME, lambda s: s.update(output="A\n3\n")), "output text"),
        Case(
            "jump-players-table",
            GAME,
            jump_answer(GAME, lambda s: s["players"][1].update(rounds=None, key=None, path=None)),
            "reported never",
        ),
    ]


# --------------------------------------------------------------------------------------- knights

SIX = knights_instance(6)
GREEDY_15 = [[r, c] for r in range(6) for c in range(6) if (r + c) % 2 == 0][:15]
HOLED = KnightsInstance(Board(3, 3, np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]], bool)), "holed")
T5, T7 = knights_instance(5, torus=True), knights_instance(7, torus=True)


def torus_placement(instance, count):
    from knightcert.registry import get_method

    return get_method("knights", "cpsat")(instance, time_limit=10).solution[:count]


def knights_cases() -> list[Case]:
    O, F, I = Status.OPTIMAL, Status.FEASIBLE, Status.INFEASIBLE  # noqa: E741
    whites = [[r, c] for r in range(6) for c in range(6) if (r + c) % 2 == 0]
    fake_matching = [[[0, 0], [0, 1]]] * 1 + [[[r, 1], [r, 2]] for r in range(1, 6)]
    return [
        Case("knights-greedy-optimal", SIX, forged("knights", O, 15, 15, GREEDY_15), "proves 18 knights"),
        Case(
            "knights-forged-matching",
            SIX,
            forged("knights", O, 15, 15, GREEDY_15, {"matching": fake_matching}),
            "not a knight move",
        ),
        Case(
            "knights-matched-twice",
            SIX,
            forged("knights", O, 15, 15, GREEDY_15, {"matching": [[[0, 0], [1, 2]], [[0, 0], [2, 1]]]}),
            "matched twice",
        ),
        Case(
            "knights-nan-matching",
            SIX,
            forged("knights", O, 18, 18, whites, {"matching": [[[0, 0], [1, NAN]]]}),
            "NaN",
        ),
        Case(
            "knights-frac-matching",
            SIX,
            forged("knights", O, 18, 18, whites, {"matching": [[[0, 0], [1, 2.5]]]}),
            "2.5",
        ),
        Case(
            "knights-torus5-one-short",
            T5,
            forged("knights", O, 4, 4, torus_placement(T5, 4)),
            "places 5 knights",
        ),
        Case(
            "knights-torus7-one-short",
            T7,
            forged("knights", O, 13, 13, torus_placement(T7, 13)),
            "places 14 knights",
        ),
        Case("knights-attacking", SIX, forged("knights", F, 2, None, [[0, 0], [1, 2]]), "attacked"),
        Case("knights-removed-square", HOLED, forged("knights", F, 1, None, [[0, 0]]), "removed"),
        Case("knights-twice", SIX, forged("knights", F, 2, None, [[0, 0], [0, 0]]), "two knights"),
        Case("knights-nan-square", SIX, forged("knights", F, 1, None, [[NAN, 0]]), "NaN"),
        Case("knights-inf-square", SIX, forged("knights", F, 1, None, [[0, INF]]), "inf"),
        Case("knights-negative-square", SIX, forged("knights", F, 1, None, [[-1, 0]]), "off the board"),
        Case("knights-frac-square", SIX, forged("knights", F, 1, None, [[0.5, 0]]), "0.5"),
        Case("knights-bool-square", SIX, forged("knights", F, 1, None, [[False, 0]]), "False"),
        Case("knights-infeasible", SIX, forged("knights", I, None, None, None), "always feasible"),
        Case("knights-unproven-bound", SIX, forged("knights", F, 15, 15, GREEDY_15), "bound 15 is below"),
        Case(
            "knights-unproven-bound-torus",
            T5,
            forged("knights", F, 4, 4, torus_placement(T5, 4)),
            "bound 4 is below",
        ),
        Case("knights-optimal-bound", SIX, forged("knights", O, 18, 19, whites), "bound == objective"),
        Case(
            "knights-wrong-objective", SIX, forged("knights", F, 16, None, GREEDY_15), "15 knights are placed"
        ),
        Case("knights-nan-bound", SIX, forged("knights", F, 15, NAN, GREEDY_15), "bound: NaN"),
    ]


# ------------------------------------------------------------------------------------------ tour

CORNERLESS = TourInstance(Board(3, 4, np.array([[1, 0, 0, 0], [0] * 4, [0] * 4], bool)), name="3x4-corner")
TORUS4 = TourInstance(Board(4, 4, torus=True), name="4x4 torus")
TORUS5_CLOSED = TourInstance(Board(5, 5, torus=True), closed=True, name="5x5 torus closed")
TOUR5 = as_tour(PUBLISHED_5)


def tour_cases() -> list[Case]:
    O, F, I, U = Status.OPTIMAL, Status.FEASIBLE, Status.INFEASIBLE, Status.UNKNOWN  # noqa: E741
    five = tour_instance(5)

    def broken(change):
        tour = copy.deepcopy(TOUR5)
        change(tour)
        return forged("tour", F, len(tour), None, tour)

    def swap(t):
        t[3], t[4] = t[4], t[3]

    return [
        Case("tour-false-none-plain", tour_instance(3, 4), forged("tour", I, None, None, None), "has a tour"),
        Case("tour-false-none-large", tour_instance(18), forged("tour", I, None, None, None), "has a tour"),
        Case("tour-false-none-holed", CORNERLESS, forged("tour", I, None, None, None), "found a tour"),
        Case("tour-false-none-torus", TORUS4, forged("tour", I, None, None, None), "found a tour"),
        Case(
            "tour-false-none-torus-closed", TORUS5_CLOSED, forged("tour", I, None, None, None), "found a tour"
        ),
        Case(
            "tour-false-none-fixed-end",
            tour_instance(3, 7, end=(0, 0)),
            forged("tour", I, None, None, None),
            "found a tour",
        ),
        Case(
            "tour-false-none-closed-start",
            tour_instance(6, closed=True, start=(2, 2)),
            forged("tour", I, None, None, None),
            "found a tour",
        ),
        Case("tour-repeated-square", five, broken(lambda t: t.__setitem__(5, t[4])), "visited twice"),
        Case("tour-not-a-move", five, broken(swap), "not a knight move"),
        Case(
            "tour-wrong-start",
            tour_instance(5, start=(2, 2)),
            forged("tour", F, 25, None, TOUR5),
            "starts at",
        ),
        Case(
            "tour-not-closed", tour_instance(5, closed=True), forged("tour", F, 25, None, TOUR5), "not closed"
        ),
        Case("tour-nan-square", five, broken(lambda t: t.__setitem__(7, [NAN, 1])), "NaN"),
        Case("tour-inf-square", five, broken(lambda t: t.__setitem__(7, [2, -INF])), "-inf"),
        Case("tour-negative-square", five, broken(lambda t: t.__setitem__(7, [-3, 1])), "off the board"),
        Case("tour-frac-square", five, broken(lambda t: t.__setitem__(7, [2, 1.0])), "1.0, not an integer"),
        Case("tour-bool-square", five, broken(lambda t: t.__setitem__(0, [False, 0])), "False"),
        Case("tour-missing-squares", five, forged("tour", F, 24, None, TOUR5[:24]), "24 of 25"),
        Case("tour-wrong-objective", five, forged("tour", F, 24, None, TOUR5), "objective 24"),
        Case("tour-infeasible-with-tour", five, forged("tour", I, None, None, TOUR5), "no solution"),
        Case("tour-bad-bound", five, forged("tour", F, 25, 30, TOUR5), "bound 30"),
        Case("tour-optimal-bound", five, forged("tour", O, 25, 24, TOUR5), "bound == objective"),
        Case("tour-unknown-with-objective", five, forged("tour", U, 25, None, None), "UNKNOWN carries"),
    ]


CASES = {"path": path_cases, "jump": jump_cases, "knights": knights_cases, "tour": tour_cases}


def all_cases() -> list[Case]:
    return [case for build in CASES.values() for case in build()]


@pytest.fixture(scope="module")
def corpus() -> list[Case]:
    return all_cases()


def test_at_least_15_wrong_answers_per_problem(corpus):
    for problem in CASES:
        assert sum(case.result.problem == problem for case in corpus) >= 15, problem


def saved(case: Case) -> dict:
    return answer_to_dict(case.result, case.instance)


def test_every_wrong_answer_is_rejected_by_knightcert_check(corpus):
    for case in corpus:
        with pytest.raises(CheckFailed) as caught:
            knightcert.check(case.instance, saved(case))
        assert any(word in str(caught.value) for word in case.words.split("|")), (case.id, str(caught.value))


def test_every_wrong_answer_is_rejected_by_the_command_line(corpus, tmp_path, capsys):
    for case in corpus:
        path = tmp_path / f"{case.id}.json"
        path.write_text(json.dumps(saved(case)))  # NaN and inf written as JSON's extensions
        assert main(["check", "-", str(path)]) == 1, case.id
        out = capsys.readouterr().out.strip()
        assert out.count("\n") == 0 and "rejected" in out, (case.id, out)


def test_every_wrong_answer_is_rejected_by_the_harness(corpus, fake_method):
    for case in corpus:
        fake_method(lambda *a, case=case, **k: case.result)
        row = run_task(Task(case.result.problem, case.instance, "forged"))
        assert not row.verified and not row.certified and "rejected" in row.error, (case.id, row.error)


def test_a_forged_seal_or_an_altered_byte_is_detected():
    case = path_cases()[0]
    data = answer_to_dict(forged("path", Status.OPTIMAL, 2, 2, SHORT), PATH)
    knightcert.check(PATH, data)
    altered = {**data, "objective": 3}
    with pytest.raises(CheckFailed, match="altered"):
        knightcert.check(PATH, altered)
    assert case.id and math.isnan(NAN) and seal(altered) != data["sha256"]
