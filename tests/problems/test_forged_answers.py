"""Issue 19's attacks, each a test: forged answers are never certified, correct ones never refused,
malformed ones never an internal error, and nothing from a file or a method can spoof the verdict."""

from __future__ import annotations

import copy
import gc
import json

import numpy as np
import pytest

from knightcert.cli.main import main
from knightcert.problems.answers import (
    AnswerFileError,
    InvalidAnswer,
    answer_to_dict,
    check_answer,
    read_answer,
    seal,
    write_answer,
)
from knightcert.problems.board import Board
from knightcert.problems.checkers import CheckFailed, certify
from knightcert.problems.checkers.tour import search_tour
from knightcert.problems.checkers.tour_search import FOUND, NONE
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.jump_game import parse_jump
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance, tour_instance
from knightcert.registry import register_method, unregister_method
from knightcert.solving import solve


def resealed(data: dict) -> dict:
    data = copy.deepcopy(data)
    data["sha256"] = seal(data)
    return data


def save(tmp_path, data: dict, name: str = "a.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


# ------------------------------------------------------------------- the given instance, only


def open_tour_of_the_4x4_torus():
    torus = TourInstance(Board(4, 4, torus=True), False, None, None, "4x4")
    result = solve(torus, method="csp")
    assert result.verified and result.status is Status.FEASIBLE
    return torus, result


def test_a_torus_answer_is_not_checked_against_the_plain_board(tmp_path, capsys):
    torus, result = open_tour_of_the_4x4_torus()
    answer = save(tmp_path, answer_to_dict(result, torus))
    assert main(["check", "4", answer]) == 2
    assert "instance 'torus'" in capsys.readouterr().err
    assert main(["check", "4", "--torus", answer]) == 0


def test_a_string_is_not_a_boolean(tmp_path, capsys):
    plain = knights_instance(4)
    data = answer_to_dict(solve(plain), plain)
    data["instance"]["fields"]["torus"] = "false"
    data["instance"]["data"]["torus"] = "false"
    assert main(["check", "4", save(tmp_path, resealed(data))]) == 2
    assert "torus" in capsys.readouterr().err
    assert main(["check", "-", save(tmp_path, resealed(data), "b.json")]) == 2
    assert "not a JSON boolean" in capsys.readouterr().err


def test_check_dash_names_the_instance_from_its_data(tmp_path, capsys):
    board = Board(8, 8, blocked=np.arange(64).reshape(8, 8) < 32)
    half = KnightsInstance(board, "8x8")
    data = answer_to_dict(solve(half), half)
    assert data["instance"]["name"] == "8x8"  # what the file says
    assert main(["check", "-", save(tmp_path, data)]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert "on '8x8, 32 removed' (sha256 " in line


def test_every_instance_field_is_compared(tmp_path, capsys):
    tour = tour_instance(5, start=(0, 0))
    data = answer_to_dict(solve(tour), tour)
    answer = save(tmp_path, data)
    assert main(["check", "5", "--start", "0,0", answer]) == 0
    capsys.readouterr()
    assert main(["check", "5", answer]) == 2
    assert "instance 'start'" in capsys.readouterr().err
    assert main(["check", "5", "--start", "0,0", "--closed", answer]) == 2
    assert "instance 'closed'" in capsys.readouterr().err
    assert main(["check", "6", "--start", "0,0", answer]) == 2
    assert "another instance" in capsys.readouterr().err


# ------------------------------------------------------------------ every field an answer carries


def jump_answer():
    game = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")  # EX1: C wins in round 3
    result = solve(game)
    assert result.verified and result.solution["players"]
    return game, result


def test_the_jump_table_start_is_checked():
    game, result = jump_answer()
    rows = [dict(row, start=[99, 99]) for row in result.solution["players"]]
    forged = certify(game, result.with_(solution={**result.solution, "players": rows}))
    assert not forged.verified and "'start'" in forged.info["check_error"]


def test_the_jump_table_refuses_unknown_fields_and_paths_of_players_that_never_arrive():
    game, result = jump_answer()
    rows = [dict(row, extra=1) for row in result.solution["players"]]
    assert not certify(game, result.with_(solution={**result.solution, "players": rows})).verified


def test_a_jump_answer_survives_the_file_round_trip(tmp_path):
    game, result = jump_answer()
    path = tmp_path / "j.json"
    write_answer(path, result, game)
    assert check_answer(game, str(path)).verified


# ----------------------------------------------------------------------- no object of a method


class LyingList(list):
    def __len__(self):
        return 100


class AlwaysCertified(Result):
    @property
    def certified(self) -> bool:
        return True


def test_a_list_that_lies_about_its_length_is_read_for_what_it_holds():
    instance = tour_instance(6)
    tour = solve(instance)
    forged = tour.with_(solution=LyingList(tour.solution), objective=100, bound=None, status=Status.FEASIBLE)
    out = certify(instance, forged)
    assert not out.verified and "objective 100" in out.info["check_error"]


def test_a_result_subclass_cannot_say_certified():
    instance = knights_instance(6)
    liar = AlwaysCertified("knights", "mine", Status.OPTIMAL, 15, 15, solve(instance, "greedy").solution, 0.0)
    out = certify(instance, liar)
    assert type(out) is Result and not out.certified and not out.verified


def test_no_certificate_is_reused_for_another_instance():
    for _ in range(5):  # a freed instance's id is soon reused by a new one (each gc pass: ~0.5 s in pytest)
        small = knights_instance(8)
        result = certify(small, solve(small))
        del small
        gc.collect()
        big = knights_instance(10)
        assert certify(big, result.with_(problem="knights")).info.get("check_error") or not result.verified
        again = certify(big, result)
        assert not again.verified and "32" in again.info["check_error"] + str(again.objective)


def test_a_method_that_edits_the_instance_is_checked_against_the_original():
    def remove_squares(instance, time_limit=None, seed=None):
        instance.board.blocked[:, :3] = True  # 6x6: three columns gone, 9 knights fit the rest
        placement = [[r, c] for r in range(6) for c in range(3, 6) if (r + c) % 2 == 0]
        count = len(placement)
        return {"status": "OPTIMAL", "objective": count, "bound": count, "solution": placement}

    register_method("knights", "editor", remove_squares)
    try:
        out = solve(knights_instance(6), method="editor")
    finally:
        unregister_method("knights", "editor")
    assert not out.verified and "18" in out.info["check_error"]


def test_a_method_that_patches_the_checker_in_its_worker_is_checked_again_in_the_parent():
    from knightcert.compare.comparison import run_comparison
    from knightcert.compare.suites import SuiteItem

    def patcher(instance, time_limit=None, seed=None):
        import knightcert.problems.checkers as checkers

        checkers.checker = lambda problem: lambda inst, result: ([], None)
        every = [[r, c] for r in range(6) for c in range(6)]
        return {"status": "OPTIMAL", "objective": 36, "bound": 36, "solution": every}

    rows = run_comparison("knights", [SuiteItem(knights_instance(6), 6)], [patcher], time_limit=10, workers=1)
    assert len(rows) == 1 and not rows[0].verified and rows[0].error


def test_a_method_that_says_it_was_interrupted_does_not_stop_the_command(capsys):
    def says_interrupted(instance, time_limit=None, seed=None):
        return {"status": "FEASIBLE", "objective": 1, "solution": [[0, 0]], "info": {"interrupted": True}}

    register_method("knights", "stopper", says_interrupted)
    try:
        assert main(["knights", "6", "--method", "stopper"]) == 0
    finally:
        unregister_method("knights", "stopper")


def test_a_rejected_answer_with_numpy_rows_prints_as_json(capsys):
    def numpy_rows(instance, time_limit=None, seed=None):
        return Result("knights", "np", Status.FEASIBLE, 2, None, np.array([[0, 0], [1, 2]]), 0.0)  # attack

    register_method("knights", "nprows", numpy_rows)
    try:
        assert main(["knights", "6", "--method", "nprows", "--json"]) == 1
    finally:
        unregister_method("knights", "nprows")
    report = json.loads(capsys.readouterr().out)
    assert report["verified"] is False


# ------------------------------------------------------------------- correct answers accepted


@pytest.mark.parametrize("size", [1, 2])
def test_boards_without_moves_keep_their_empty_matching(tmp_path, capsys, size):
    answer = tmp_path / "k.json"
    assert main(["knights", str(size), "--save", str(answer)]) == 0
    assert main(["check", str(size), str(answer)]) == 0
    data = read_answer(answer)
    data["certificate"] = {"matching": []}  # written as a bare empty list
    assert main(["check", str(size), save(tmp_path, resealed(data), "e.json")]) == 0


def test_a_closed_tour_search_honours_a_fixed_end():
    board = Board(5, 6)
    not_a_move = TourInstance(board, True, (0, 0), (0, 1), "x")
    assert search_tour(not_a_move)[0] == NONE
    is_a_move = TourInstance(board, True, (0, 0), (1, 2), "x")
    outcome, _, tour = search_tour(is_a_move)
    assert outcome == FOUND and tour[0] == 0 and tour[-1] == board.index(1, 2)


def test_an_unknown_tour_with_the_trivial_bound_is_accepted():
    instance = tour_instance(5)
    claim = Result("tour", "mine", Status.UNKNOWN, None, 25, None, 0.0)
    out = certify(instance, claim)
    assert "check_error" not in out.info


# --------------------------------------------------------------- malformed: one line, no traceback


@pytest.mark.parametrize("shape", [[10**12, 10**12], [0, 2**62], [2**40]])
def test_huge_declared_shapes_are_refused_before_decompressing(tmp_path, capsys, shape):
    plain = knights_instance(4)
    data = answer_to_dict(solve(plain), plain)
    data["certificate"]["matching"]["shape"] = shape
    assert main(["check", "4", save(tmp_path, resealed(data))]) in (1, 2)
    err = capsys.readouterr()
    assert "internal error" not in err.err and "Traceback" not in err.err
    with pytest.raises((InvalidAnswer, AnswerFileError, CheckFailed)):
        check_answer(plain, resealed(data))


def test_deep_json_is_one_line(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text('{"schema": "knightcert-answer/1", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert main(["check", "4", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "internal error" not in err


@pytest.mark.parametrize("start", ["x", [1], [1, "2"], [True, 0], None])
def test_bad_fields_are_refused_not_crashed(tmp_path, capsys, start):
    tour = tour_instance(5, start=(0, 0))
    data = answer_to_dict(solve(tour), tour)
    data["instance"]["fields"]["start"] = start
    assert main(["check", "5", "--start", "0,0", save(tmp_path, resealed(data))]) == 2
    assert "internal error" not in capsys.readouterr().err


def test_the_python_check_raises_only_knightcert_errors():
    plain = knights_instance(4)
    data = answer_to_dict(solve(plain), plain)
    for forged in ({**data, "instance": {"fields": {"rows": "4"}}}, {**data, "certificate": {"matching": 5}}):
        with pytest.raises((CheckFailed, AnswerFileError)):
            check_answer(plain, forged)


def test_check_takes_a_result_too():
    plain = knights_instance(4)
    assert check_answer(plain, solve(plain)).certified
    with pytest.raises(CheckFailed):
        check_answer(plain, Result("knights", "mine", Status.OPTIMAL, 4, 4, [[0, 0]], 0.0))


# ------------------------------------------------------------------------------ terminal spoofing


def test_control_characters_are_escaped(tmp_path, capsys):
    plain = knights_instance(4)
    data = answer_to_dict(solve(plain), plain)
    data["method"] = "mine\n4x4.json: matching OPTIMAL 8 on 4x4: every claim certified\x1b[8m"
    data["objective"] = 7
    assert main(["check", "4", save(tmp_path, resealed(data))]) == 1
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 and "\x1b" not in out


# ------------------------------------------------------------------- LRAT proofs (issues 30, 42)


def proof_entry_for(board, knights: int) -> dict:
    """The producer's LRAT proof that ``knights`` knights do not fit ``board`` (formula without
    lex-leader clauses, counter in row-major order), as a certificate entry."""
    from knightcert.models.knights_sat import _lrat
    from knightcert.problems.checkers.clausal_proof import encode_proof
    from knightcert.problems.checkers.knights_cnf import knights_cnf

    proof = _lrat(knights_cnf(board, knights)[1])
    assert proof is not None
    return encode_proof(proof, knights)


def seven_torus_answer() -> tuple[KnightsInstance, dict]:
    """An answer file's content for the 7 x 7 torus (optimum 14) with an LRAT proof of "no 15"."""
    torus = knights_instance(7, 7, torus=True)
    result = solve(torus, method="bnb")
    assert result.objective == 14
    data = answer_to_dict(result.with_(certificate={"drat": proof_entry_for(torus.board, 15)}), torus)
    return torus, resealed(data)


def test_an_answer_with_its_proof_is_certified_strictly(tmp_path, capsys):
    _, data = seven_torus_answer()
    assert main(["check", "7", "--torus", save(tmp_path, data), "--strict"]) == 0
    assert "certified: LRAT proof (" in capsys.readouterr().out


def test_an_answer_with_a_drat_proof_is_refused_with_advice(tmp_path, capsys):
    """knightcert checks LRAT only: an answer carrying a DRAT proof (written before issue 42) is
    rejected on one line that says what to do."""
    _, data = seven_torus_answer()
    data["certificate"]["drat"]["format"] = "drat-binary"
    assert main(["check", "7", "--torus", save(tmp_path, resealed(data))]) == 1
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 and "a DRAT proof" in out
    assert "re-solve" in out and "drat-trim" in out


def _proof_bytes(entry: dict) -> bytes:
    import base64
    import lzma

    return lzma.decompress(base64.b64decode(entry["xz"]))


@pytest.mark.parametrize("forgery", ["flipped", "truncated", "other board", "other bound", "bomb", "huge"])
def test_a_forged_proof_is_refused(tmp_path, capsys, forgery):
    from knightcert.problems.checkers.clausal_proof import MAX_PROOF_BYTES, encode_proof

    torus, data = seven_torus_answer()
    entry = data["certificate"]["drat"]
    binary = bytearray(_proof_bytes(entry))
    if forgery == "flipped":  # one lemma's literal negated: the proof no longer follows
        binary[len(binary) // 2 : len(binary) // 2 + 64] = bytes(64)
        entry = encode_proof(bytes(binary), 15)
    elif forgery == "truncated":
        entry = encode_proof(bytes(binary[: len(binary) // 3]), 15)
    elif forgery == "other board":
        entry = proof_entry_for(Board(5, 7, torus=True), 15)
    elif forgery == "other bound":  # the proof of "no 15" said to prove "no 14"
        entry = {**entry, "knights": 14}
        data["objective"] = data["bound"] = 13
        data["solution"] = data["solution"][:13]
    elif forgery == "bomb":  # a small declared size, a large inflated one
        entry = {**encode_proof(bytes(5_000_000), 15), "bytes": 1000}
    else:
        entry = {**entry, "bytes": MAX_PROOF_BYTES + 1}
    data["certificate"]["drat"] = entry
    code = main(["check", "7", "--torus", save(tmp_path, resealed(data)), "--strict"])
    out = capsys.readouterr()
    assert code in (1, 2), out
    assert "Traceback" not in out.err and "internal error" not in out.err
    assert "LRAT proof (" not in out.out
    with pytest.raises((InvalidAnswer, AnswerFileError, CheckFailed)):
        check_answer(torus, resealed(data))


def _divide_tour(rows: int, cols: int) -> np.ndarray:
    from knightcert.heuristics.tour_divide import construct

    return construct(rows, cols, closed=True)


def test_a_method_that_keeps_its_tour_array_cannot_change_the_checked_answer(monkeypatch):
    import knightcert.heuristics.tour_divide as divide

    kept = []
    construct = divide.construct

    def keeping(*args, **kwargs):
        tour = construct(*args, **kwargs)
        kept.append(tour)  # edited after the check
        return tour

    monkeypatch.setattr(divide, "construct", keeping)
    out = solve(tour_instance(6, 6, closed=True), method="divide")
    assert out.verified and out.solution is not kept[0]
    before = out.solution.copy()
    kept[0][:] = 0
    assert np.array_equal(out.solution, before)


@pytest.mark.parametrize("side", [6, 230])  # 230 x 230: past PYTHON_WALK, the compiled walk
def test_a_tour_array_nothing_else_holds_is_checked_without_a_copy(monkeypatch, side):
    import weakref

    import knightcert.heuristics.tour_divide as divide

    made = []
    construct = divide.construct

    def giving(*args, **kwargs):
        tour = construct(*args, **kwargs)
        made.append(weakref.ref(tour))  # a weak reference holds nothing
        return tour

    monkeypatch.setattr(divide, "construct", giving)
    out = solve(tour_instance(side, side, closed=True), method="divide")
    assert out.verified and made[0]() is out.solution


def test_only_a_sole_holder_keeps_its_array():
    from knightcert.problems.checkers.plain import sole_holder

    def result(solution):
        return Result("tour", "m", Status.FEASIBLE, 36, None, solution, 0.0)

    # each verdict is taken outside ``assert`` (pytest's rewriting keeps the operands alive)
    alone = sole_holder(result(_divide_tour(6, 6)))
    tour = _divide_tour(6, 6)
    shared = sole_holder(result(tour))  # ``tour`` here holds it too
    view = sole_holder(result(_divide_tour(6, 6)[1:]))  # a view: its base holds the memory
    held = result(_divide_tour(6, 6))
    exported = memoryview(held.solution)
    buffer = sole_holder(held)
    exported.release()
    listed = sole_holder(result(_divide_tour(6, 6).tolist()))
    wrapped = sole_holder(result(np.frombuffer(bytearray(8 * 36), dtype=np.int32).reshape(36, 2)))
    assert alone
    assert not (shared or view or buffer or listed or wrapped)


def test_an_object_shared_deeper_than_it_was_first_met_is_still_too_deep():
    """A shared object is copied once where first met; met again deeper, its depth is checked
    there (a chain of lists each met shallow, then inside the next, nests past the limit)."""
    from knightcert.problems.checkers.common import CheckFailed
    from knightcert.problems.checkers.plain import MAX_DEPTH, plain

    def wrapped(value, times):
        for _ in range(times):
            value = [value]
        return value

    shallow = wrapped(1, MAX_DEPTH - 2)
    assert plain({"a": shallow, "b": shallow})["b"] is not None  # shared at equal depths: accepted
    chain, info = 1, {}
    for k in range(4):
        chain = wrapped(chain, MAX_DEPTH - 2)
        info[f"a{k}"] = chain  # met at depth 1 first, then 30 levels down inside the next
    with pytest.raises(CheckFailed, match=f"nested deeper than {MAX_DEPTH} levels"):
        plain(info)


@pytest.mark.parametrize("leaf", [list(range(1000)), [0, 1]])
def test_a_list_shared_over_and_over_is_copied_once_in_little_time(leaf):
    """Thirty levels of lists that each hold the level below twice: 2 ** 30 ways down to one list
    (long, or short). The fast copy stops at its budget and the general one copies each list once
    (and shares it); copied down every way, 2 ** 31 lists would be made."""
    from knightcert.problems.checkers.plain import plain

    level = leaf
    for _ in range(30):
        level = [level, level]
    copied = plain({"solution": level})["solution"]
    assert copied[0] is copied[1] and copied is not level
    for _ in range(30):
        copied = copied[0]
    assert copied == leaf and copied is not leaf


def test_the_check_s_copies_are_let_go_when_a_check_raises(monkeypatch):
    """An error no check catches (here Ctrl-C inside the checker) leaves no copy held."""
    import knightcert.problems.checkers as checkers
    from knightcert.problems.checkers.plain import COPIED_PAIRS, plain
    from knightcert.problems.independent_knights import knights_instance

    def interrupted(problem):
        def check(instance, result):
            plain([[0, 0], [0, 1]] * 5)  # a long list of pairs copied by the check: held while it runs
            assert COPIED_PAIRS
            raise KeyboardInterrupt

        return check

    monkeypatch.setattr(checkers, "checker", interrupted)
    answer = Result("knights", "mine", Status.FEASIBLE, 2, None, [[0, 0], [0, 1]], 0.0)
    with pytest.raises(KeyboardInterrupt):
        checkers.certify(knights_instance(4), answer)
    assert not COPIED_PAIRS


def test_a_check_leaves_the_cycle_collector_as_it_found_it(monkeypatch):
    """certify holds the collector off while it copies the answer (no cycles are made, no code of
    the caller's runs), then turns it back on only if it was on, however the copy ends; the
    checker itself runs with the collector as the caller had it."""
    import gc

    import knightcert.problems.checkers as checkers
    from knightcert.problems.independent_knights import knights_instance

    answer = Result("knights", "mine", Status.FEASIBLE, 2, None, [[0, 0], [0, 1]], 0.0)
    was, copy = gc.isenabled(), checkers.exact_result
    try:
        for on in (True, False):
            (gc.enable if on else gc.disable)()
            assert checkers.certify(knights_instance(4), answer).verified
            assert gc.isenabled() is on

        def copied(*args, **named):
            assert not gc.isenabled()
            return copy(*args, **named)

        def checker(problem):
            def check(instance, result):
                assert gc.isenabled()
                raise KeyboardInterrupt

            return check

        gc.enable()
        monkeypatch.setattr(checkers, "exact_result", copied)
        monkeypatch.setattr(checkers, "checker", checker)
        with pytest.raises(KeyboardInterrupt):
            checkers.certify(knights_instance(4), answer)
        assert gc.isenabled()

        def interrupted(*args, **named):
            raise KeyboardInterrupt

        monkeypatch.setattr(checkers, "exact_result", interrupted)
        with pytest.raises(KeyboardInterrupt):
            checkers.certify(knights_instance(4), answer)
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_a_status_that_is_not_a_status_is_refused_even_claiming_only_a_bound():
    answer = certify(knights_instance(4), Result("knights", "forger", "OPTIMAL", None, 8, None, 0.0))
    assert not answer.verified and not answer.evidence
    assert answer.info["check_error"] == "answer rejected: status: 'OPTIMAL' is not a Status"


def test_a_copys_dict_keys_are_exact_strings():
    """A str subclass as a key would run its own ``__eq__`` while the checker reads the copy."""
    from knightcert.problems.checkers.plain import plain

    class Key(str):
        def __eq__(self, other):
            raise AssertionError("the answer's own __eq__ ran")

        __hash__ = str.__hash__

    copied = plain({Key("winner"): "A", "path": [[0, 0]]})
    assert [type(k) for k in copied] == [str, str] and copied["winner"] == "A"


@pytest.mark.parametrize(
    "name", [10**5000, type("Name", (), {"__str__": lambda self: 1 / 0})()], ids=["huge int", "raises"]
)
def test_a_name_that_cannot_be_read_as_text_is_refused_not_a_traceback(name):
    pairs = [[0, 0], [0, 1]]
    answer = certify(knights_instance(4), Result("knights", name, Status.FEASIBLE, 2, None, pairs, 0.0))
    assert not answer.verified
    assert answer.info["check_error"].startswith("answer rejected: method: not readable as text")


@pytest.mark.parametrize("status", [Status.FEASIBLE, Status.OPTIMAL])
def test_a_path_changed_by_the_answer_s_own_code_during_the_copy_is_checked_as_it_is_then(status):
    """A path of exact pairs is kept, not copied; the answer's own code (``str()`` of its method's
    name) then swaps in squares of int subclasses that lie about their differences. The checks
    test the types again: the lie is never read as a knight's move."""
    from knightcert.problems.lost_knight import parse_lost_knight

    game = parse_lost_knight(".x.x.\nx...x\n..C..\nx...x\n.xSx.\n")  # every move from C is blocked

    class Row(int):
        def __sub__(self, other):
            return 1

    class Col(int):
        def __sub__(self, other):
            return 2

    path = [list(game.start), list(game.exit)]

    class Name:
        def __str__(self):
            path[1] = [Row(game.exit[0]), Col(game.exit[1])]
            return "mine"

    bound = 1 if status is Status.OPTIMAL else None
    out = certify(game, Result("path", Name(), status, 1, bound, path, 0.0))  # type: ignore[arg-type]
    assert not out.verified and "is not a knight move" in out.info["check_error"]
