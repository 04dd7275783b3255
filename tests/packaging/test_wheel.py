"""The wheel installs one top-level package, ``knightcert``, that works beside a user's own packages."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = (
    "pyproject.toml", "README.md", "knightcert", "problems", "algorithms", "models", "heuristics", "compare"
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from a copy of the checkout (no build files left in the repository)."""
    pytest.importorskip("setuptools")
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(path, source / name)
    out = tmp_path_factory.mktemp("wheel")
    # the build backend called as pip's ``wheel --no-build-isolation`` calls it, without pip's start
    build = "import sys, setuptools.build_meta as backend; backend.build_wheel(sys.argv[1])"
    subprocess.run([sys.executable, "-c", build, str(out)], cwd=source, check=True, capture_output=True)
    (wheel,) = out.glob("knightcert-*.whl")
    return wheel


def test_wheel_holds_one_top_level_package(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"knightcert"}
    assert "knightcert/heuristics/data/structured_tours.json" in names
    assert "knightcert/problems/checkers/path.py" in names


def test_installed_wheel_runs_beside_a_users_own_packages(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    install = ("install", "-q", "--no-deps", "--no-compile", str(wheel))
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), *install],
        check=True,
        capture_output=True,
    )
    # dependencies come from this environment, after the fresh one's own site-packages
    fresh_site = Path(
        subprocess.run(
            [str(python), "-c", "import site; print(site.getsitepackages()[0])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (fresh_site / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    installed = sorted(p.name for p in fresh_site.iterdir() if p.name not in {"deps.pth", "__pycache__"})
    assert [n for n in installed if not n.endswith(".dist-info")] == ["knightcert"]

    work = tmp_path / "project"  # a user's project with its own models/ and compare/ packages
    for own in ("models", "compare", "problems"):
        (work / own).mkdir(parents=True)
        (work / own / "__init__.py").write_text("raise ImportError('the user package was imported')\n")
    (work / "board.txt").write_text("C.....\n......\n....S.\n......\n......\n......\n")
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}  # the wheel's own
    for command in ([str(env_dir / "bin" / "knightcert")], [str(python), "-m", "knightcert"]):
        done = subprocess.run(
            [*command, "path", "board.txt"], cwd=work, env=env, capture_output=True, text=True
        )
        assert (done.returncode, done.stdout, done.stderr) == (
            0,
            "board.txt: 2 moves (optimal, certified: distance labelling)\n",
            "",
        )
    where = subprocess.run(
        [str(python), "-c", "import knightcert.problems; print(knightcert.problems.__file__)"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert where.startswith(str(fresh_site))
