"""A user's module in the working folder is found before the scripts of the environment's
``bin/`` folder (python-sat installs ``models.py``, ``fm.py``, ... there)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
USER_MODULE = (
    "import knightcert\n\ndef mine(instance, **options):\n"
    "    return knightcert.solve(instance, method='greedy')\n"
)


def console_scripts(tmp_path: Path) -> list[Path]:
    """The installed console script, and one written beside a ``models.py`` that must not be used."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "models.py").write_text("raise SystemExit('the bin folder was searched first')\n")
    script = folder / "knightcert"
    entry = "import sys\nfrom knightcert.__main__ import run\nsys.exit(run())\n"
    script.write_text(f"#!{sys.executable}\n{entry}")
    script.chmod(0o755)
    installed = Path(sys.executable).parent / "knightcert"
    return [script, *([installed] if installed.is_file() else [])]


@pytest.mark.heavy
def test_the_console_script_finds_the_working_folder_s_models_py(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "models.py").write_text(USER_MODULE)
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    for script in console_scripts(tmp_path):
        done = subprocess.run(
            [str(script), "knights", "5", "--method", "models:mine"],
            cwd=work,
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, (script, done.stderr)
        assert "models:mine" in done.stdout, done.stdout


@pytest.mark.parametrize("name", ["fm", "models"])
def test_a_module_missing_from_the_working_folder_is_not_taken_from_bin(tmp_path, name):
    [script, *_] = console_scripts(tmp_path)
    (tmp_path / "bin" / "fm.py").write_text("def mine(instance, **options):\n    raise SystemExit(9)\n")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [str(script), "knights", "5", "--method", f"{name}:mine"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr
    assert f"cannot import {name!r}" in done.stderr or "has no function" in done.stderr, done.stderr
