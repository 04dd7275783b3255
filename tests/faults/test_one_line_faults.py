"""The one-line faults of issue 28: each is one line (or one exception of the hierarchy), the
right exit code, nothing lost."""

from __future__ import annotations

import subprocess

import pytest

from knightcert.problems.board import Board
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.jump_game import read_jump
from knightcert.problems.lost_knight import LostKnightInstance, parse_lost_knight, read_lost_knight

from .conftest import assert_one_line, call_cli, command, environment, run_cli


def test_standard_output_closed_is_one_line(tmp_path):
    done = subprocess.run(
        " ".join(f"'{part}'" for part in command("instance", "knights", "4")) + " >&-",
        shell=True,
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert_one_line(done, 2, "standard output is closed")


def test_path_sizes_of_one_square_are_one_line():
    done = call_cli("compare", "path", "--suite", "random", "--sizes", "1,2,3", "--methods", "bfs")
    assert_one_line(done, 2, "1x1", "C and S")


def test_a_method_returning_an_int_is_a_crash_answer(tmp_path):
    (tmp_path / "intret.py").write_text("def solve(instance, time_limit=None, seed=None):\n    return 7\n")
    done = run_cli(tmp_path, "knights", "4", "--method", "intret:solve")
    assert done.returncode == 3 and "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert "crash" in done.stdout and "not int" in done.stdout


def test_a_lone_surrogate_is_an_invalid_instance():
    with pytest.raises(InvalidInstance, match="lone surrogate"):
        parse_lost_knight("C.\ud800\n...\n..S\n")


@pytest.mark.parametrize("reader", [read_jump, read_lost_knight])
def test_a_nul_in_a_file_name_is_an_invalid_instance(reader):
    with pytest.raises(InvalidInstance, match="NUL"):
        reader("board\x00.txt")


def test_a_lost_knight_board_must_wrap():
    with pytest.raises(InvalidInstance, match="wraps"):
        LostKnightInstance(Board(3, 3), (0, 0), (2, 2))
    assert LostKnightInstance(Board(3, 3, torus=True), (0, 0), (2, 2)).board.torus


def test_an_embedded_instance_too_big_for_the_memory_is_refused_before_inflating():
    import resource

    data = {"array": "int64", "shape": [16000, 16000], "zlib": "eJwDAAAAAAE="}  # 2 GB declared
    from knightcert.problems.answers import decode_array
    from knightcert.problems.errors import InstanceTooLarge

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (4 * 2**30, hard))  # a machine with 4 GB for this process
    try:
        with pytest.raises(InstanceTooLarge, match="memory"):
            decode_array(data, "instance 'values'")
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
