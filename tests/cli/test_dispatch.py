"""The dispatcher imports only the command being run (start-up stays fast)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PROBE = """
import contextlib, io, json, sys
from knightcert.cli.main import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps(sorted(sys.modules)))
"""

COMMANDS = ["demo", "compare", "report", "path", "jump", "knights", "tour", "check", "instance"]


def loaded(*argv: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


def test_help_imports_no_command_and_no_solver():
    modules = loaded("--help")
    assert not {f"knightcert.cli.{c}" for c in COMMANDS} & modules
    assert not [m for m in modules if m.startswith(("numba", "ortools"))]


@pytest.mark.parametrize("command", ["path", "knights", "compare"])
def test_a_command_imports_only_its_own_module(command):
    modules = loaded(command, "--help")
    assert f"knightcert.cli.{command}" in modules
    assert not {f"knightcert.cli.{c}" for c in COMMANDS if c != command} & modules
    assert not [m for m in modules if m.startswith(("numba", "ortools"))]


SMALL_INPUTS = {
    "path": ("b.txt", "C.....\n......\n....S.\n......\n......\n......\n"),
    "jump": ("g.in", "1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n"),
}


@pytest.mark.parametrize(
    ("command", "searcher", "not_loaded"),
    [
        ("path", "path_search", ("numba",)),
        ("jump", "jump_search", ("numba",)),
        ("knights", "knights_matching", ("numba", "scipy")),
    ],
)
def test_a_small_instance_loads_no_compiled_kernel(tmp_path, command, searcher, not_loaded):
    """Small boards are solved (and checked) in plain Python or by the kernels compiled ahead of
    time: no numba to load. The jump game has no plain search: without the built kernels
    (a checkout run in place) numba compiles its kernel."""
    from knightcert.problems.compiled import kernel

    if command == "jump" and kernel("rounds_and_keys") is None:
        pytest.skip("the kernels were not compiled ahead of time here (python setup.py build_ext --inplace)")
    if command in SMALL_INPUTS:
        name, text = SMALL_INPUTS[command]
        (tmp_path / name).write_text(text)
        argument = str(tmp_path / name)
    else:
        argument = "6"
    modules = loaded(command, argument)
    assert f"knightcert.algorithms.{searcher}" in modules
    assert not [m for m in modules if m.startswith(not_loaded)]


INSTANCES = ("lost_knight", "jump_game", "independent_knights", "tours")


@pytest.mark.parametrize(
    ("argv", "needed"),
    [
        (["--help"], set()),  # nor threading (the stoppable runs' helper thread)
        (["path"], {"lost_knight"}),
        (["knights", "6"], {"independent_knights"}),
        (["tour", "8"], {"tours"}),
    ],
)
def test_a_default_command_leaves_out_what_it_does_not_use(tmp_path, argv, needed):
    """Start-up (issue 40): a command imports no other problem's instance module, nor shutil (and
    with it bz2 and lzma: the help's width is read without it), and ``--help`` no threading."""
    if argv == ["path"]:
        (tmp_path / "b.txt").write_text(SMALL_INPUTS["path"][1])
        argv = ["path", str(tmp_path / "b.txt")]
    modules = loaded(*argv)
    assert argv != ["--help"] or "threading" not in modules
    assert "shutil" not in modules
    assert {m for m in INSTANCES if f"knightcert.problems.{m}" in modules} == needed


BLAS_PROBE = """
import contextlib, gc, io, json, os, sys
from knightcert.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["knights", "6"], own_process=sys.argv[1] == "own")
print(json.dumps([os.environ.get("OPENBLAS_NUM_THREADS"), len(os.listdir("/proc/self/task"))]))
print(json.dumps([gc.isenabled(), gc.get_freeze_count() > 0]))
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts the threads in /proc")
@pytest.mark.parametrize("users", [None, "2"])
@pytest.mark.parametrize("caller", ["own", "program"])
def test_numpy_is_loaded_with_one_blas_thread_and_the_environment_given_back(users, caller):
    """numpy's import starts an OpenBLAS thread per core; the command line's own process starts
    none (knightcert does no BLAS work), what it then starts (a method's process) gets the user's
    environment, and a program calling ``main`` keeps numpy's own threads."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if users is not None:
        env["OPENBLAS_NUM_THREADS"] = users

    def probe(*command: str) -> list:
        done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=60, env=env)
        return [json.loads(line) for line in done.stdout.splitlines()]

    (variable, threads), collecting = probe(sys.executable, "-c", BLAS_PROBE, caller)
    [numpy_alone] = probe(sys.executable, "-c", "import os, numpy; print(len(os.listdir('/proc/self/task')))")
    assert variable == users
    assert threads == (1 if users is None and caller == "own" else numpy_alone)
    # no collection while the command's own process imports (numpy's: 8-10 ms), then what the
    # imports made is frozen and collections go on
    assert collecting == [True, caller == "own"]


def test_a_redirected_summary_keeps_its_short_cells_whole():
    """Written to a file or a pipe, the eleven-column summary prints method names and kinds
    unfolded (at 120 columns it folded 'marginality' and 'heuristic')."""
    from knightcert.cli.output import table_console
    from knightcert.compare.harness import Row
    from knightcert.compare.summary import method_summary_table

    rows = [
        Row("tour", "8x8 closed from (0, 0)", method, "FEASIBLE", 64, None, 0.0, 0.001, None, None, True,
            kind="heuristic")
        for method in ("marginality", "warnsdorff")
    ]  # fmt: skip
    console = table_console()
    assert not console.is_terminal  # pytest captures the output
    with console.capture() as captured:
        console.print(method_summary_table(rows))
    text = captured.get()
    assert "marginality" in text and "heuristic" in text and "total time" in text


@pytest.mark.parametrize("columns", ["50", "200", "-3", "abc", None])
def test_the_help_is_as_wide_as_shutil_reads_the_terminal(monkeypatch, columns):
    """The parser's help formatter reads the width without importing shutil, the same way."""
    import shutil

    from knightcert.cli.main import _help_formatter

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert _help_formatter("knightcert")._width == shutil.get_terminal_size().columns - 2
