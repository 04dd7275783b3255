"""The kernels compiled ahead of time: used only when built from the sources at hand, and they
answer as numba's kernels do."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from knightcert.problems import compiled


@pytest.fixture
def fresh_lookup():
    compiled._module.cache_clear()
    yield
    compiled._module.cache_clear()


def _built_with(stamp: int):
    return type("Built", (), {"stamp": staticmethod(lambda: stamp), "bfs_torus": "the kernel"})


def test_the_module_is_used_only_when_built_from_these_sources(monkeypatch, fresh_lookup):
    for offset, expected in ((0, "the kernel"), (1, None)):
        built = _built_with(compiled.source_stamp() + offset)
        monkeypatch.setattr(compiled.importlib, "import_module", lambda name, built=built: built)
        compiled._module.cache_clear()
        assert compiled.kernel("bfs_torus") == expected


def test_the_stamp_follows_every_kernel_source(monkeypatch, tmp_path):
    files = sorted({file for file, _ in compiled.KERNELS.values()})
    for file in files:
        (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(compiled.PACKAGE / file, tmp_path / file)
    monkeypatch.setattr(compiled, "PACKAGE", tmp_path)
    stamp = compiled.source_stamp()
    for file in files:
        text = (tmp_path / file).read_bytes()
        (tmp_path / file).write_bytes(text + b"\n")
        assert compiled.source_stamp() != stamp, file
        (tmp_path / file).write_bytes(text)
    assert compiled.source_stamp() == stamp


@pytest.mark.skipif(compiled.kernel("bfs_torus") is None, reason="kernels not compiled ahead of time here")
def test_the_compiled_kernels_label_as_numba_does():
    from knightcert.algorithms.jump_kernels import rounds_and_keys
    from knightcert.algorithms.path_kernels import bfs_torus
    from knightcert.problems.checkers.jump_kernel import jump_labels

    rng = np.random.default_rng(40)
    for _ in range(50):
        rows, cols = (int(x) for x in rng.integers(1, 40, size=2))
        blocked = (rng.random(rows * cols) < 0.3).astype(np.uint8)
        start, goal = (int(x) for x in rng.integers(0, rows * cols, size=2))
        outs = [np.full(rows * cols, -1, np.int32) for _ in range(2)]
        steps = [
            f(blocked, rows, cols, start, goal, out)
            for f, out in zip((bfs_torus, compiled.kernel("bfs_torus")), outs, strict=True)
        ]
        assert steps[0] == steps[1] and (outs[0] == outs[1]).all()
        values = rng.integers(0, max(rows, cols), size=(rows, cols)).astype(np.int64)
        for f in (rounds_and_keys, compiled.kernel("rounds_and_keys")):
            outs.append((np.full(rows * cols, -1, np.int32), np.full(rows * cols, -1, np.int64)))
            f(values.reshape(-1), rows, cols, rows * cols - 1, *outs[-1])
        assert all((a == b).all() for a, b in zip(outs[2], outs[3], strict=True))
        starts = rng.integers(0, rows * cols, size=3)
        for f in (jump_labels, compiled.kernel("jump_labels")):
            outs.append((np.full(rows * cols, -1, np.int64), np.full(rows * cols, -1, np.int64)))
            f(values, rows * cols - 1, starts, *outs[-1])
        assert all((a == b).all() for a, b in zip(outs[4], outs[5], strict=True))
