"""Inputs that are not plain files, too large, or wrong: one line, exit 2, at once."""

from __future__ import annotations

import contextlib
import os
import threading

import pytest

from .conftest import assert_one_line, call_cli, run_cli

SMALL_PATH = "C.S\n...\n...\n"
SMALL_JUMP = "2 2\n1\n1 1\n1 0\n0 0\n"


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (("path", "{f}"), "fifo"),
        (("jump", "{f}"), "fifo"),
        (("knights", "--board", "{f}"), "fifo"),
        (("tour", "--board", "{f}"), "fifo"),
        (("compare", "path", "--instances", "{f}"), "fifo"),
        (("compare", "jump", "--instances", "{f}"), "fifo"),
        (("path", "{f}"), "/dev/zero"),
        (("jump", "{f}"), "/dev/zero"),
        (("knights", "--board", "{f}"), "/dev/zero"),
        (("jump", "{f}"), "folder"),
        (("tour", "--board", "{f}"), "folder"),
    ],
)
def test_only_regular_files_are_read(tmp_path, fifo, args, kind):
    target = {"fifo": str(fifo), "/dev/zero": "/dev/zero", "folder": str(tmp_path)}[kind]
    argv = [a.format(f=target) for a in args]
    if kind == "/dev/zero":  # read by mistake, it would never end: in a process of its own
        done = run_cli(tmp_path, *argv, timeout=30)
    else:  # in process; a reader wrongly waiting on the fifo is let go (and then fails) after 30 s
        unblock = threading.Timer(30, _open_for_writing, (fifo,))
        unblock.start()
        try:
            done = call_cli(*argv)
        finally:
            unblock.cancel()
    assert_one_line(done, 2, target, "not a regular file")


def _open_for_writing(fifo) -> None:
    with contextlib.suppress(OSError):  # no reader waiting: nothing to let go
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_stdin_is_read_with_dash(tmp_path):
    done = run_cli(tmp_path, "path", "-", stdin=SMALL_PATH.encode())
    assert (done.returncode, done.stdout) == (
        0,
        "<stdin>: 2 moves (optimal, certified: distance labelling)\n",
    ), done.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("knights", "17000"), ("17000 x 17000", "matching", "memory")),
        (("tour", "17000"), ("17000 x 17000", "memory")),
        (("tour", "10000", "--closed"), ("10000 x 10000", "memory")),
        (
            ("compare", "path", "--suite", "scaling", "--sizes", "10..100000"),
            ("100000 x 100000", "300000000"),
        ),
        (("knights", "100000", "100000"), ("more than 300000000 squares",)),
    ],
)
def test_oversized_boards_are_refused_up_front(tmp_path, args, words):
    done = run_cli(tmp_path, *args, timeout=60)
    assert_one_line(done, 2, *words)
    assert "MemoryError" not in done.stderr and done.stdout == ""


def test_a_huge_board_file_is_refused_from_its_size(tmp_path):
    from knightcert.problems.board_text import MAX_BOARD_FILE_BYTES

    big = tmp_path / "big.txt"
    with open(big, "wb") as handle:  # sparse: no disk space used
        handle.truncate(MAX_BOARD_FILE_BYTES + 1)
    done = run_cli(tmp_path, "knights", "--board", str(big), timeout=30)
    assert_one_line(done, 2, "big.txt", str(MAX_BOARD_FILE_BYTES), "bytes")


def test_a_long_bad_token_is_cut(tmp_path):
    (tmp_path / "g.in").write_text("2 2\n1\n1 " + "a" * 1_000_000 + "\n0 0\n0 0\n")
    done = call_cli("jump", tmp_path / "g.in")
    err = assert_one_line(done, 2, "g.in:3:3", "expected a non-negative integer")
    assert len(err) < 200 + len(str(tmp_path))


def test_jump_boards_need_a_row_and_a_column(tmp_path):
    (tmp_path / "g.in").write_text("0 3\n0\n")
    done = call_cli("jump", tmp_path / "g.in")
    assert_one_line(done, 2, "g.in:1", "at least 1")


def test_huge_jump_values_solve_with_cpsat(tmp_path):
    (tmp_path / "g.in").write_text(f"2 3\n2\n{2**31} 1 1\n1 1 0\n0 0\n0 1\n")
    done = call_cli("jump", tmp_path / "g.in", "--method", "cpsat")
    assert (done.returncode, done.stdout, done.stderr) == (0, "B\n2\n", "")
