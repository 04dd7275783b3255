"""Every example in the README and docs/experiments.md runs: Python blocks are executed,
console examples compared."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from knightcert.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
#: Documents whose examples run here, read together.
DOCUMENTS = README + (ROOT / "docs" / "experiments.md").read_text()


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOCUMENTS, flags=re.S)


def console_examples() -> list[tuple[list[str], list[str]]]:
    """(argv, expected stdout lines) for each ``$ knightcert ...`` line followed by output."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", DOCUMENTS, flags=re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("$ knightcert "):
                continue
            output = []
            for following in lines[i + 1 :]:
                if following.startswith("$ "):
                    break
                output.append(following)
            command = line[2:].split("  #")[0]
            examples.append((shlex.split(command)[1:], output))
    return examples


@pytest.mark.parametrize("block", python_blocks())
def test_python_examples_run(block, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)  # examples name files relative to the checkout
    if '"runs.csv"' in block:  # the README's own command writes it first, in a scratch folder
        monkeypatch.chdir(tmp_path)
        [argv] = [argv for argv, _ in console_examples() if "runs.csv" in argv]
        assert main(argv) == 0
    exec(compile(block, "README.md", "exec"), {})


@pytest.mark.parametrize(("argv", "expected"), console_examples(), ids=lambda x: " ".join(x)[:60])
def test_console_examples(argv, expected, capsys, shared_data, monkeypatch):
    files = [a for a in argv if a.endswith((".txt", ".in"))]
    if not expected or not all((ROOT / f).exists() for f in files):
        pytest.skip("example without output, or on a file the reader supplies")
    monkeypatch.chdir(ROOT)
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines() == expected


def test_readme_examples_were_found():
    assert python_blocks() and len(console_examples()) >= 4
    assert os.path.exists(ROOT / ".ci" / "run")
