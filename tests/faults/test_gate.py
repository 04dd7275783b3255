"""One gate for every file and every option (issue 20): each bad file, value or output path is
one line naming it and exit code 2, before any work, with bounded memory and no traceback."""

from __future__ import annotations

import base64
import json
import os
import zlib

import pytest

from knightcert.cli.main import main
from knightcert.problems.answers import AnswerFileError, InvalidAnswer, answer_to_dict, check_answer, seal
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.input_file import MAX_DEPTH
from knightcert.problems.result import Result, Status

from .conftest import run_cli


def one_line(capsys, code: int, *words: str) -> str:
    """``main``'s result was ``code`` with one stderr line holding every word, no internal error."""
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert "internal error" not in err and "Traceback" not in err, err
    for word in words:
        assert word in err, (word, err)
    return err


#: A small comparison: greedy on the 4x4 and 5x5 boards, one worker.
SMALL = (
    "compare",
    "knights",
    "--suite",
    "scaling",
    "--sizes",
    "4,5",
    "--methods",
    "greedy",
    "--workers",
    "1",
)


@pytest.fixture
def good_report(tmp_path):
    """A small knights report (greedy on 4x4 and 5x5), written in this process."""
    assert main([*SMALL, "--out", str(tmp_path / "good.json")]) == 0
    return json.loads((tmp_path / "good.json").read_text())


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo.json"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize("source", ["fifo", "/dev/zero"])
@pytest.mark.parametrize(
    "args",
    [["check", "-", "{}"], ["compare", "--experiment", "{}"], ["compare", "--rerun", "{}"], ["report", "{}"]],
)
def test_only_regular_files_are_read(capsys, fifo, source, args):
    path = fifo if source == "fifo" else source
    assert main([a.replace("{}", path) for a in args]) == 2
    # a report is known by its ending first: /dev/zero has none
    one_line(
        capsys,
        2,
        path,
        "unknown report format" if args[0] == "report" and path == "/dev/zero" else "not a regular file",
    )


def deep(kind: str) -> str:
    return {"json": "[" * 100_000 + "]" * 100_000, "toml": "a = " + "[" * 100_000 + "]" * 100_000}[kind]


@pytest.mark.parametrize(
    ("name", "content", "args", "words"),
    [
        ("a.json", "utf16", ["check", "-", "{}"], ("UTF-16",)),
        ("s.toml", "utf16", ["compare", "--experiment", "{}"], ("UTF-16",)),
        ("r.json", "utf16", ["report", "{}"], ("UTF-16",)),
        ("a.json", "binary", ["check", "-", "{}"], ("not UTF-8",)),
        ("a.json", "json", ["check", "-", "{}"], (f"deeper than {MAX_DEPTH}",)),
        ("r.json", "json", ["compare", "--rerun", "{}"], (f"deeper than {MAX_DEPTH}",)),
        ("r.json", "json", ["report", "{}"], (f"deeper than {MAX_DEPTH}",)),
        ("s.toml", "toml", ["compare", "--experiment", "{}"], (f"deeper than {MAX_DEPTH}",)),
    ],
)
def test_encodings_and_depth_are_named(tmp_path, capsys, name, content, args, words):
    path = tmp_path / name
    if content == "utf16":
        path.write_bytes('{"problem": "knights"}'.encode("utf-16"))
    elif content == "binary":
        path.write_bytes(b'{"a": "\xff\xfe\x00"}')
    else:
        path.write_text(deep(content))
    assert main([a.replace("{}", str(path)) for a in args]) == 2
    one_line(capsys, 2, str(path), *words)


def test_a_300_mb_report_is_refused_by_size_everywhere(tmp_path, capsys):
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:  # sparse: instant, and never read
        handle.truncate(300 * 2**20)
    for args in (
        ["report", str(big)],
        ["compare", "--rerun", str(big)],
        ["compare", "knights", "--methods", "greedy", "--out", str(big)],
        ["report", str(big), "--plot", str(tmp_path / "p.png")],
    ):
        assert main(args) == 2, args
        one_line(capsys, 2, "big.json", "314572800 bytes", "at most")
    assert big.stat().st_size == 300 * 2**20


def test_a_zip_bomb_shape_is_refused_before_decompression():
    instance = knights_instance(8)
    placement = [[r, c] for r in range(8) for c in range(8) if (r + c) % 2 == 0]
    answer = answer_to_dict(Result("knights", "mine", Status.FEASIBLE, 32, None, placement, 0.0), instance)
    bomb = base64.b64encode(zlib.compress(bytes(2**20), 9)).decode("ascii")  # 1 KB that inflates to 1 MB...
    answer["certificate"] = {"matching": {"array": "int8", "shape": [32768, 32768], "zlib": bomb}}  # ...1 GB
    answer["sha256"] = seal(answer)
    with pytest.raises(InvalidAnswer, match=r"32768, 32768\] holds 1073741824 values; the instance allows"):
        check_answer(instance, answer)


def test_a_bomb_in_an_answer_file_is_one_line(tmp_path, capsys):
    instance = knights_instance(8)
    answer = answer_to_dict(Result("knights", "mine", Status.UNKNOWN, None, None, None, 0.0), instance)
    answer["solution"] = {"array": "int8", "shape": [32768, 32768], "zlib": ""}
    answer["sha256"] = seal(answer)
    (tmp_path / "a.json").write_text(json.dumps(answer))
    assert main(["check", "8", str(tmp_path / "a.json")]) == 1  # a rejected answer: exit code 1
    captured = capsys.readouterr()
    assert "allows at most 576" in captured.out and captured.err == "", captured


def test_answer_files_are_capped_by_size(tmp_path, monkeypatch):
    monkeypatch.setenv("KNIGHTCERT_MAX_ANSWER_FILE_BYTES", "100")
    path = tmp_path / "a.json"
    path.write_text(json.dumps({"padding": "x" * 200}))
    with pytest.raises(AnswerFileError, match="at most 100 bytes"):
        check_answer(None, str(path))


@pytest.mark.parametrize(
    ("edit", "commands"),
    [
        (lambda d: d["runs"][0].update(time_s="fast"), ("report", "plot", "resume")),
        (lambda d: d.update(warmup_s="soon"), ("rerun", "resume")),
        (lambda d: d.update(instances=[{"name": ["x"]}]), ("rerun", "resume")),
        (lambda d: d["experiment"].update(time_limit="ten"), ("rerun",)),
        (lambda d: d.update(experiment=json.loads("[" * 60 + "]" * 60)), ("rerun", "resume")),
        (lambda d: d.update(environment=json.loads("[" * 100 + "]" * 100)), ("report", "rerun", "resume")),
    ],
)
def test_a_hand_edited_report_is_one_line(tmp_path, capsys, good_report, edit, commands):
    edit(good_report)
    path = tmp_path / "edited.json"
    text = json.dumps(good_report)
    path.write_text(text)
    capsys.readouterr()
    args = {
        "report": ["report", str(path)],
        "plot": ["report", str(path), "--plot", str(tmp_path / "p.png")],
        "rerun": ["compare", "--rerun", str(path), "--out", str(tmp_path / "again.json")],
        "resume": [*SMALL, "--out", str(path)],
    }
    for command in commands:
        assert main(args[command]) == 2, command
        one_line(capsys, 2, "edited.json")
        assert path.read_text() == text  # refused, never overwritten
    assert not (tmp_path / "p.png").exists() and not (tmp_path / "again.json").exists()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('problem = "knights"\nseed = 100000000000\n', "seed must be in 0..2147483647"),
        ('problem = "knights"\nrepeat = 1000000\n', "repeat must be in 1..100000"),
        ('problem = "knights"\nworkers = 1000000000\n', "workers must be in 1..1024"),
        ('problem = "knights"\n[[suites]]\nsuite = "random"\nseeds = 100000000000\n', "seeds: the count"),
        (
            'problem = "knights"\n[[suites]]\nsuite = "random"\nseeds = "0..100000000000"\n',
            "seeds: the count",
        ),
        (
            'problem = "knights"\n[[suites]]\nsuite = "random"\nsizes = "4..64:10000000000"\n',
            "number of sizes",
        ),
        ('problem = "knights"\nrepeat = 100000\n[[suites]]\nsuite = "random"\nseeds = 1000\n', "runs"),
    ],
)
def test_huge_experiment_values_are_refused_like_the_flags(tmp_path, capsys, text, words):
    path = tmp_path / "study.toml"
    path.write_text(text)
    assert main(["compare", "--experiment", str(path)]) == 2
    one_line(capsys, 2, words)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["compare", "knights", "--suite", "random", "--sizes", "4..64:10000000000"], "number of sizes"),
        (["compare", "knights", "--suite", "random", "--seeds", "0..100000000000"], "seeds: the count"),
        (["compare", "knights", "--repeat", "1000000"], "repeat must be in 1..100000"),
        (["compare", "knights", "--workers", "1000000000"], "workers must be in 1..1024"),
        (["instance", "jump", "10", "--players", "99999999999999"], "players must be in 1..10000"),
        (["knights", "5", "--memory-limit", "5"], "memory limit must be in 16.."),
    ],
)
def test_huge_flags_are_refused_with_the_same_words(capsys, args, words):
    assert main(args) == 2
    one_line(capsys, 2, words)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["knights", "5", "--save", "nodir/a.json"], ("--save", "does not exist")),
        (["knights", "5", "--save", "."], ("--save", "must end in .json")),
        (
            ["compare", "knights", "--methods", "greedy", "--answers", "file.txt"],
            ("--answers", "not a folder"),
        ),
        (
            ["compare", "knights", "--methods", "greedy", "--answers", "nodir/x"],
            ("--answers", "does not exist"),
        ),
        (["report", "{report}", "--output", "nodir/x.md"], ("--output", "does not exist")),
        (["report", "{report}", "--output", "x.exe"], ("--output", "must end in")),
        (["report", "{report}", "--plot", "nodir/x.png"], ("--plot", "does not exist")),
        (["compare", "knights", "--methods", "greedy", "--plot", "x.txt"], ("--plot", "must end in")),
    ],
)
def test_output_paths_are_checked_before_any_work(tmp_path, capsys, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file.txt").write_text("mine\n")
    (tmp_path / "r.json").write_text("{}")  # never read: the path check comes first
    assert main([a.replace("{report}", "r.json") for a in args]) == 2
    one_line(capsys, 2, *words)
    assert capsys.readouterr().out == "" and sorted(p.name for p in tmp_path.iterdir()) == [
        "file.txt",
        "r.json",
    ]


def test_the_command_line_gate_holds_in_a_fresh_process(tmp_path):
    """The same refusals from the installed entry point (exit code 2, one line, no traceback)."""
    done = run_cli(tmp_path, "check", "-", "/dev/zero")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "not a regular file" in done.stderr
