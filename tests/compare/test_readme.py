"""Every example in README.md and docs/*.md runs, as written, from the folder it says.

* ``console`` blocks: each ``$ COMMAND`` line runs in a shell (``knightcert`` is
  ``sys.executable -m knightcert`` of this checkout), one block in one scratch copy of the
  README and ``docs/`` (``../shared`` beside it when present), ``$ cd DIR`` moving through it as
  the reader would. The output shown under a command is compared (times, which vary from run to
  run, are compared as "a time"; rich tables cell by cell, so that a wrapped or cut cell still
  compares); an output starting ``knightcert: error:`` expects exit code 2 and is compared with
  standard error; any other command must exit 0.
* ``python`` blocks run in such a copy; when the text after one says what it ``prints`` in a
  ``text`` block, the printed lines are compared.
* ``bash`` blocks run like console blocks (every line a command, no output shown).

A block is skipped only with a marker on the line before it (or before its quickstart marker):
``<!-- docs-test: skip: WHY -->``; ``<!-- docs-test: slow -->`` runs it with the slow tests.
Blocks that read ``../shared`` skip through the ``shared_data`` fixture when it is absent.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = re.compile(r"<!-- docs-test: (skip|slow)(?::\s*(.*?))? -->")
#: A duration as the command line prints it: "0.2 ms", "2.30 s", "234 µs".
TIME = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:e-?\d+)? ?(?:ms|µs|s)\b")
BOX = set("━─┏┳┓┡╇┩└┴┘┌┬┐├┼┤╭╮╰╯═ ")
#: Seconds one block may take (the slowest documented example is about 20 s when idle).
BLOCK_TIMEOUT = 600


@dataclass(frozen=True)
class Block:
    document: Path
    line: int
    kind: str
    text: str
    mark: str = ""
    reason: str = ""
    prints: str | None = None  # a python block: the text block it says it prints

    @property
    def id(self) -> str:
        return f"{self.document.name}:{self.line}"


def blocks(kinds: tuple[str, ...] = ("console", "python", "bash")) -> list[Block]:
    """The fenced blocks of the documents, with their markers."""
    found = []
    for document in DOCUMENTS:
        lines = document.read_text().splitlines()
        k = 0
        while k < len(lines):
            fence = re.fullmatch(r"```(\w+)", lines[k])
            if not fence:
                k += 1
                continue
            end = next(j for j in range(k + 1, len(lines)) if lines[j] == "```")
            kind, text = fence.group(1), "\n".join(lines[k + 1 : end]) + "\n"
            before = [line for line in lines[max(0, k - 3) : k] if line.strip()]
            marks = [m for line in before[-2:] for m in [MARKER.search(line)] if m]
            prints = None
            if kind == "python":
                after = lines[end + 1 : end + 8]
                text_fence = next((j for j, line in enumerate(after) if line == "```text"), None)
                if text_fence is not None and any("prints" in line for line in after[:text_fence]):
                    start = end + 1 + text_fence + 1
                    stop = next(j for j in range(start, len(lines)) if lines[j] == "```")
                    prints = "\n".join(lines[start:stop]) + "\n"
            if kind in kinds:
                mark, reason = (marks[-1].group(1), marks[-1].group(2) or "") if marks else ("", "")
                found.append(Block(document, k + 1, kind, text, mark, reason, prints))
            k = end + 1
    return found


def commands(block: Block) -> list[tuple[str, list[str]]]:
    """(command, output lines shown under it) of a console or bash block."""
    if block.kind == "bash":
        return [(line, []) for line in block.text.splitlines() if line.strip() and not line.startswith("#")]
    found: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        elif found:
            found[-1][1].append(line)
    return found


def without_comment(command: str) -> str:
    return re.split(r"\s{2,}#\s", command, maxsplit=1)[0].strip()


def cells(lines: list[str]) -> list[object]:
    """Lines compared as the reader sees them: times as "<time>", rich tables as rows of cells
    (a cell wrapped onto the next line joined back, border lines dropped), spaces collapsed."""
    out: list[object] = []
    for line in lines:
        line = TIME.sub("<time>", line.rstrip())
        stripped = line.strip()
        if stripped and set(stripped) <= BOX:
            continue
        if stripped[:1] in ("│", "┃") and stripped[-1:] in ("│", "┃"):
            row = [" ".join(c.split()) for c in re.split(r"[│┃]", stripped[1:-1])]
            previous = out[-1] if out else None
            if isinstance(previous, list) and row and row[0] == "" and len(row) == len(previous):
                out[-1] = [f"{a} {b}".strip() for a, b in zip(previous, row, strict=True)]
            else:
                out.append(row)
        else:
            out.append(" ".join(line.split()))
    while out and out[-1] == "":
        out.pop()
    return out


def same_cell(shown: str, actual: str) -> bool:
    """Equal, or equal up to rich's ``…`` where a narrow column cut one of them."""
    if shown == actual:
        return True
    for cut, whole in ((shown, actual), (actual, shown)):
        if cut.endswith("…") and whole.replace(" ", "").startswith(cut[:-1].replace(" ", "")):
            return True
    return False


def assert_same_output(shown: list[str], actual: str, where: str) -> None:
    expected, got = cells(shown), cells(actual.splitlines())
    message = f"{where}: the documented output differs\n--- documented\n" + "\n".join(shown)
    message += "\n--- actual\n" + actual
    assert len(expected) == len(got), message
    for a, b in zip(expected, got, strict=True):
        if isinstance(a, list) and isinstance(b, list):
            assert len(a) == len(b) and all(map(same_cell, a, b)), message
        else:
            assert a == b, message


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    """A scratch copy of the README and docs/, with ../shared beside it when the checkout has it."""
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(ROOT / "README.md", repo / "README.md")
    shutil.copytree(ROOT / "docs", repo / "docs")
    shared = ROOT.parent / "shared"
    if shared.is_dir():
        (tmp_path / "shared").symlink_to(shared)
    return repo


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env["KNIGHTCERT_PY"] = sys.executable
    return env


def run_block(block: Block, repo: Path) -> None:
    where = repo
    for command, shown in commands(block):
        line = without_comment(command)
        at = f"{block.id}: $ {line}"
        if line.startswith("cd "):
            where = (where / line[3:].strip()).resolve()
            assert where.is_dir(), f"{at}: no such folder"
            continue
        script = 'knightcert() { "$KNIGHTCERT_PY" -m knightcert "$@"; }\nset -o pipefail\n' + line
        done = subprocess.run(
            ["bash", "-c", script],
            cwd=where,
            env=_environment(),
            capture_output=True,
            text=True,
            timeout=BLOCK_TIMEOUT,
        )
        refused = bool(shown) and shown[0].startswith("knightcert: error:")
        expected_code = 2 if refused else 0
        assert done.returncode == expected_code, (
            f"{at}: exit code {done.returncode}, expected {expected_code}\n"
            f"{done.stdout[-2000:]}\n{done.stderr}"
        )
        if shown:
            assert_same_output(shown, done.stderr if refused else done.stdout, at)


def _marked(block: Block):
    if block.mark == "skip":
        return pytest.param(block, marks=pytest.mark.skip(reason=block.reason), id=block.id)
    data = [pytest.mark.data] if "../shared" in block.text else []  # see tests/conftest.py
    if block.mark == "slow":
        return pytest.param(block, marks=[pytest.mark.slow, *data], id=block.id)
    return pytest.param(block, marks=data, id=block.id)


@pytest.mark.parametrize("block", [_marked(b) for b in blocks(("console", "bash"))])
def test_console_examples(block: Block, sandbox: Path, request):
    if "../shared" in block.text:
        request.getfixturevalue("shared_data")  # skips without ../shared/data
    run_block(block, sandbox)


@pytest.mark.parametrize("block", [_marked(b) for b in blocks(("python",))])
def test_python_examples(block: Block, sandbox: Path, monkeypatch, request):
    if "../shared" in block.text:
        request.getfixturevalue("shared_data")
    monkeypatch.chdir(sandbox)  # examples name files relative to the checkout
    monkeypatch.syspath_prepend(str(sandbox))
    if '"runs.csv"' in block.text:  # written by the console example just before it
        [creating] = [
            b for b in blocks(("console",)) if b.document == block.document and "--out runs.csv" in b.text
        ]
        run_block(creating, sandbox)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block.text, block.id, "exec"), {"__name__": "__main__"})
    if block.prints is not None:
        assert_same_output(block.prints.splitlines(), printed.getvalue(), block.id)


def test_every_example_is_found_and_every_skip_says_why():
    found = blocks()
    assert {b.document.name for b in found} >= {"README.md", "experiments.md", "your-own-method.md"}
    assert sum(b.kind == "console" for b in found) >= 10 and sum(b.kind == "python" for b in found) >= 4
    assert all(b.reason for b in found if b.mark == "skip")
    assert os.path.exists(ROOT / ".ci" / "run")


def test_the_comparison_of_outputs_can_fail():
    shown = ["| a | 1.5 ms |", "x: 3 moves"]
    assert_same_output(shown, "| a | 20.1 ms |\nx: 3 moves\n", "t")
    with pytest.raises(AssertionError, match="documented output differs"):
        assert_same_output(shown, "| a | 20.1 ms |\nx: 4 moves\n", "t")
    table = [
        "│ knights-10x10-h0.1… │ OPTIMAL │ yes: matching │",
        "│                     │         │ (Kőnig)       │",
    ]
    assert_same_output(table, "│ knights-10x10-h0.1-s0 │ OPTIMAL │ yes: matching (Kőnig) │\n", "t")
    with pytest.raises(AssertionError):
        assert_same_output(table, "│ knights-10x10-h0.1-s0 │ FEASIBLE │ yes: matching (Kőnig) │\n", "t")
