"""Answer files: every method's answer saves and re-checks; any altered byte is rejected."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

import knightcert
from knightcert.cli.main import main
from knightcert.problems.answers import (
    AnswerFileError,
    InvalidAnswer,
    decode_array,
    encode_array,
    instance_sha256,
    read_answer,
    result_from_answer,
    write_answer,
)
from knightcert.problems.board import Board
from knightcert.problems.errors import KnightcertError, SizeLimitExceeded
from knightcert.problems.generators import random_jump, random_lost_knight
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.jump_game import parse_jump, read_jump
from knightcert.problems.lost_knight import parse_lost_knight
from knightcert.problems.result import Status
from knightcert.problems.tours import TourInstance, tour_instance
from knightcert.registry import REGISTRY, get_method


def small_instances(problem: str) -> list:
    rng = np.random.default_rng(7)
    if problem == "path":
        return [
            parse_lost_knight("C.....\n......\n....S.\n......\n......\n......\n", name="six"),
            parse_lost_knight(".x.x.\nx...x\n..C..\nx...x\n.xSx.\n", name="boxed"),
            random_lost_knight(rng, 5, 6, 0.2),
        ]
    if problem == "jump":
        return [
            parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n", name="ex1"),
            parse_jump("1 3\n1\n1 0 0\n0 0\n", name="stuck"),
            random_jump(rng, 4, 5, 3, 3),
        ]
    if problem == "knights":
        holed = KnightsInstance(Board(4, 5, rng.random((4, 5)) < 0.2), "holed")
        return [knights_instance(4), knights_instance(5, torus=True), knights_instance(4, torus=True), holed]
    holes = np.zeros((3, 4), bool)
    holes[0, 0] = True
    return [
        tour_instance(5),
        tour_instance(4, closed=True),
        tour_instance(3, 4),
        TourInstance(Board(3, 4, holes), name="3x4 corner"),
        TourInstance(Board(4, 4, torus=True), name="4x4 torus"),
    ]


def runs():
    for problem, methods in REGISTRY.items():
        for method in methods:
            yield pytest.param(problem, method, id=f"{problem}-{method}")


@pytest.mark.parametrize(("problem", "method"), list(runs()))
def test_every_method_round_trips_through_knightcert_check(problem, method, tmp_path, capsys):
    solve = get_method(problem, method)
    checked = 0
    instances = small_instances(problem)
    if problem == "tour" and method == "csp":  # python-constraint is slow on tours: the smallest only
        instances = [i for i in instances if i.board.n_free <= 12]
    for k, instance in enumerate(instances):
        try:
            result = solve(instance, time_limit=5)
        except (SizeLimitExceeded, KnightcertError):
            continue  # a method that refuses this instance (documented limits) has nothing to save
        if result.status is Status.UNKNOWN and result.solution is None:
            continue
        assert result.verified, (instance.name, result.info.get("check_error"))
        path = tmp_path / f"{k}.json"
        write_answer(path, result, instance)
        assert main(["check", "-", str(path)]) == 0, capsys.readouterr()
        again = knightcert.check(instance, read_answer(path))
        assert again.certified == result.certified and again.evidence == result.evidence
        assert_flipped_bytes_rejected(path, tmp_path / f"{k}-flipped.json", capsys)
        checked += 1
    if problem != "tour" or method != "divide":
        assert checked, f"{method} answered none of the small {problem} instances"


def assert_flipped_bytes_rejected(path, flipped, capsys):
    """Change one character of the solution and one of the certificate: never accepted."""
    text = path.read_text()
    data = json.loads(text)
    for field in ("solution", "certificate"):
        if data[field] is None:
            continue
        start = text.index(f'"{field}":') + len(field) + 3
        end = start + len(json.dumps(data[field], separators=(",", ":")))
        spot = next(i for i in range(start, end) if text[i].isdigit() or text[i].isalpha())
        new = "7" if text[spot] != "7" else "3"
        flipped.write_text(text[:spot] + new + text[spot + 1 :])
        assert main(["check", "-", str(flipped)]) != 0, (field, spot)
        capsys.readouterr()


def test_seed_instances_round_trip(shared_data, tmp_path, capsys):
    instances = [
        ("path", "caso100.txt", ["path", str(shared_data / "lost-knight" / "caso100.txt")]),
        ("jump", "EX4.in", ["jump", str(shared_data / "jump-game" / "EX4.in")]),
        ("knights", None, ["knights", "8"]),
        ("tour", None, ["tour", "6", "--closed"]),
    ]
    for problem, name, command in instances:
        answer = tmp_path / f"{problem}.json"
        assert main([*command, "--save", str(answer)]) == 0
        capsys.readouterr()
        target = command[1] if name else "-"
        assert main(["check", target, str(answer)]) == 0
        out = capsys.readouterr().out
        assert "every claim certified" in out, out


def test_caso550_labelling_is_small_and_loads_fast(shared_data, tmp_path):
    from knightcert.problems.lost_knight import read_lost_knight

    source = shared_data / "lost-knight" / "caso550.txt"
    instance = read_lost_knight(source)
    result = get_method("path", "bfs")(instance)
    answer = tmp_path / "caso550.json"
    write_answer(answer, result, instance, instance_path=source)
    assert answer.stat().st_size <= 2_000_000
    began = time.process_time()  # CPU seconds: a loaded machine does not stretch them
    data = read_answer(answer)
    loaded = result_from_answer(data, problem="path")
    assert time.process_time() - began < 0.5  # generous: about 0.01 s on the reference machine
    assert loaded.certificate["labels"].shape == (550, 550)
    assert knightcert.check(instance, data).certified


def test_check_refuses_another_instance_and_bad_files(shared_data, tmp_path, capsys):
    game = read_jump(shared_data / "jump-game" / "EX1.in")
    answer = tmp_path / "a.json"
    write_answer(answer, get_method("jump", "bfs")(game), game)
    assert main(["check", str(shared_data / "jump-game" / "EX2.in"), str(answer)]) == 2
    assert "another instance" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{not json")
    assert main(["check", "-", str(tmp_path / "bad.json")]) == 2
    assert "bad.json:1:2" in capsys.readouterr().err
    (tmp_path / "other.json").write_text('{"schema": "something/2"}')
    assert main(["check", "-", str(tmp_path / "other.json")]) == 2
    with pytest.raises(AnswerFileError):
        knightcert.check(None, str(tmp_path / "missing.json"))


class NoProof:
    """A proof of a knights bound that never comes (as when CaDiCaL runs out of time)."""

    children = (None,)  # one solver process, as for a proof not split: CP-SAT runs alongside

    def __init__(self, *args, **kwargs) -> None:
        pass

    def done(self) -> bool:
        return False

    def wait(self, seconds=None) -> None:
        return None

    def finish(self):
        return None, None, {"proof": "none", "proof_solve_s": 0.0}


def test_solver_only_claims_pass_unless_strict(tmp_path, capsys, monkeypatch):
    import knightcert.models.knights_sat as knights_sat

    big_odd_torus = knights_instance(11, torus=True)  # beyond the checker's own search
    # as if the LRAT proof had not been found in time: the claim rests on CP-SAT alone
    monkeypatch.setattr(knights_sat, "BoundProof", NoProof)
    answer = tmp_path / "t.json"
    assert (
        main(["knights", "11", "--torus", "--method", "cpsat", "--time-limit", "20", "--save", str(answer)])
        == 0
    )
    line = capsys.readouterr().out
    assert "not independently certified" in line or "certified" in line
    data = read_answer(answer)
    if data["certified"]:
        pytest.skip("CP-SAT stopped early or the checker certified it")
    assert main(["check", "11", str(answer)]) == 2  # the instance given is the plain board
    assert "instance 'torus': the answer is for another instance" in capsys.readouterr().err
    assert main(["check", "11", "--torus", str(answer)]) == 0
    out = capsys.readouterr().out
    assert "solver only" in out and "by CP-SAT; not independently certified" in out
    assert main(["check", "11", "--torus", str(answer), "--strict"]) == 1
    capsys.readouterr()
    assert main(["check", "-", str(answer), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["solver_only"] and not report["certified"] and report["verified"]
    assert instance_sha256(big_odd_torus) == data["instance"]["sha256"]


def test_arrays_are_compact_and_strict():
    labels = np.arange(-3, 297).reshape(10, 30)
    data = encode_array(labels)
    assert data["array"] == "int16" and np.array_equal(decode_array(data, "labels"), labels)
    mask = np.random.default_rng(0).random((7, 9)) < 0.5
    assert np.array_equal(decode_array(encode_array(mask), "mask"), mask)
    with pytest.raises(InvalidAnswer, match="bytes"):
        decode_array({**data, "shape": [10, 31]}, "labels")
    with pytest.raises(InvalidAnswer, match="array type"):
        decode_array({**data, "array": "float64"}, "labels")
    with pytest.raises(InvalidAnswer, match="corrupt"):
        decode_array({**data, "zlib": data["zlib"][:-8] + "!!!!!!!!"}, "labels")


def test_result_from_answer_names_the_field():
    base = {"status": "FEASIBLE", "objective": 2, "solution": [[0, 0], [1, 2], [2, 4]]}
    assert result_from_answer(base, problem="path").objective == 2
    for change, words in (
        ({"status": "DONE"}, "status"),
        ({"objective": 2.5}, "objective: 2.5"),
        ({"solution": [[0, 0], [1, "2"]]}, "solution"),
        ({"certificate": {"labels": [[0, float("nan")]]}}, "certificate 'labels'"),
        ({"problem": "tour"}, "problem"),
        ({"schema": "knightcert-answer/0"}, "schema"),
        ({"evidence": [{"claim": "optimal", "backing": "trust me"}]}, "evidence"),
    ):
        with pytest.raises(InvalidAnswer, match=words):
            result_from_answer({**base, **change}, problem="path")


def test_certificates_doc_examples_run(tmp_path, capsys, monkeypatch):
    import re
    import shlex
    from pathlib import Path

    import knightcert.models.knights_sat as knights_sat

    doc = (Path(__file__).resolve().parents[2] / "docs" / "certificates.md").read_text()
    monkeypatch.chdir(tmp_path)
    # the odd.json example: as when the LRAT proof is not found in the time left
    monkeypatch.setattr(knights_sat, "BoundProof", NoProof)
    ran = 0
    for block in re.findall(r"```console\n(.*?)```", doc, flags=re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("$ knightcert "):
                continue
            expected = []
            for following in lines[i + 1 :]:
                if following.startswith("$ "):
                    break
                expected.append(following)
            assert main(shlex.split(line[2:].split("  #")[0])[1:]) == 0, line
            out = capsys.readouterr().out.splitlines()
            if expected:
                assert out == expected, line
            ran += 1
    assert ran >= 4


def test_check_ignores_and_flags_evidence_the_file_overstates(tmp_path, capsys):
    from knightcert.problems.answers import answer_to_dict, seal

    odd = knights_instance(11, torus=True)
    placement = [[r, c] for r in range(0, 9, 2) for c in range(0, 9, 2)]
    # a bound of 48: true (optimum 44), below the band bound's 49, so the solver's word only
    data = answer_to_dict(
        knightcert.certify(
            odd, knightcert.Result("knights", "cpsat", Status.FEASIBLE, 25, 48, placement, 0.0)
        ),
        odd,
    )
    data["evidence"] = [{"claim": "bound", "backing": "certificate", "how": "trust me"}]
    data["certified"] = True
    data["sha256"] = seal(data)
    path = tmp_path / "overstated.json"
    path.write_text(json.dumps(data))
    assert main(["check", "-", str(path)]) == 0
    out = capsys.readouterr().out
    assert "bound: solver only" in out and "the file's is ignored" in out
    assert main(["check", "-", str(path), "--strict"]) == 1


@pytest.mark.parametrize(("number", "words"), [("²", "cannot read"), ("0", "line 0"), ("2", "line 2")])
def test_check_refuses_a_line_number_that_names_no_line(number, words, tmp_path, capsys):
    """``FILE#N`` with N no line of FILE (a superscript digit: no number; 0; past the last
    line, which ends with a newline): one line naming why, exit 2."""
    answers = tmp_path / "runs-a.jsonl"
    answers.write_text('{"a": 1}\n', encoding="utf-8")
    assert main(["check", "-", f"{answers}#{number}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("knightcert: error:") and words in err


def test_answers_go_to_their_folder_even_after_it_is_moved_away(tmp_path):
    """A worker's open answers file follows its folder when the folder is renamed: the next line
    goes to a new file of ours at the folder's path, never into the moved folder nor into a file
    someone else put at the old file's name."""
    from knightcert.compare.runner import Task, save_run_answer

    folder, moved = tmp_path / "answers", tmp_path / "moved"
    instance = knights_instance(4)
    task = Task("knights", instance, "matching", answers=str(folder))
    result = knightcert.solve(instance, "matching")
    first = save_run_answer(task, result).partition("#")[0]
    folder.rename(moved)
    second = save_run_answer(task, result).partition("#")[0]
    assert len((moved / first).read_text().splitlines()) == 1  # the moved folder got nothing more
    assert (folder / second).read_text().count("\n") == 1 and second != first
    (folder / second).rename(tmp_path / "elsewhere.jsonl")
    (folder / second).write_text("someone else's\n")  # another file at our file's name
    third = save_run_answer(task, result).partition("#")[0]
    assert (folder / second).read_text() == "someone else's\n" and third not in (first, second)
    assert json.loads((folder / third).read_text())["objective"] == result.objective


def test_an_answers_file_gone_after_it_was_seen_starts_a_new_one_and_the_old_is_closed(tmp_path, monkeypatch):
    """The file vanishes between two looks at its path (``os.path.exists`` saying it is there
    stands for the first): the next line starts a new file (was "cannot write"), and the old stream
    is closed, as is a full one's."""
    from knightcert.compare import runner

    folder, instance = tmp_path / "answers", knights_instance(4)
    task = runner.Task("knights", instance, "matching", answers=str(folder))
    result = knightcert.solve(instance, "matching")
    first = runner.save_run_answer(task, result).partition("#")[0]
    old = runner._ANSWERS[str(folder)][0]
    (folder / first).unlink()
    monkeypatch.setattr("os.path.exists", lambda path: True)  # seen there a moment ago
    second = runner.save_run_answer(task, result)
    assert second.endswith("#1") and second.partition("#")[0] != first and old.closed
    old = runner._ANSWERS[str(folder)][0]
    monkeypatch.setattr(runner, "ANSWERS_BYTES", 1)  # full
    assert runner.save_run_answer(task, result).endswith("#1") and old.closed


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["check", "-", "{k}", "--fixed", "5,5"], "--fixed does not apply with '-'"),
        (["check", "-", "{t}", "--start", "3,3"], "--start does not apply with '-'"),
        (["check", "-", "{t}", "--visit", "0,0@1"], "--visit does not apply with '-'"),
        (["check", "6x6", "{k}", "--fixed", "0,1", "--closed"], "--closed does not apply to a knights"),
        (["check", "5x5", "{t}", "--via", "2,2"], "--via does not apply to a tour answer"),
    ],
)
def test_check_refuses_an_instance_flag_it_would_not_read(argv, words, tmp_path, capsys):
    """A constraint the user states is checked or refused, never passed over in silence."""
    k, t = tmp_path / "k.json", tmp_path / "t.json"
    assert main(["knights", "6", "--fixed", "0,1", "--save", str(k)]) == 0
    assert main(["tour", "5", "--save", str(t)]) == 0
    capsys.readouterr()
    assert main([a.format(k=k, t=t) for a in argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert main(["check", "6x6", str(k), "--fixed", "0,1"]) == 0  # the flags the answer's problem reads
