"""The kernels compiled ahead of time: used only when built from the sources at hand, and they
answer as numba's kernels do."""

from __future__ import annotations

import shutil
from typing import Any

import numpy as np
import pytest

from knightcert.problems import compiled


@pytest.fixture
def fresh_lookup():
    compiled._module.cache_clear()
    yield
    compiled._module.cache_clear()


def _built_with(stamp: int):
    return type(
        "Built", (), {"stamp": staticmethod(lambda: stamp), "bfs_torus": staticmethod(lambda *a: "ran")}
    )


def test_the_module_is_used_only_when_built_from_these_sources(monkeypatch, fresh_lookup):
    for offset in (0, 1):
        built = _built_with(compiled.source_stamp() + offset)
        monkeypatch.setattr(compiled.importlib, "import_module", lambda name, built=built: built)
        compiled._module.cache_clear()
        assert (compiled.kernel("bfs_torus") is None) == bool(offset)


def test_a_compiled_kernel_refuses_arrays_of_another_dtype_or_order(monkeypatch, fresh_lookup):
    built = _built_with(compiled.source_stamp())
    monkeypatch.setattr(compiled.importlib, "import_module", lambda name: built)
    search = compiled.kernel("bfs_torus")
    assert search is not None
    blocked, dist = np.zeros(12, np.uint8), np.full(12, -1, np.int32)
    assert search(blocked, 3, 4, 0, 5, dist) == "ran"
    for wrong in (
        (blocked, dist.astype(np.int64)),
        (blocked.astype(bool), dist),
        (blocked, dist[::2]),
        (blocked, [-1] * 12),
        (blocked.reshape(3, 4), dist),  # a grid where a row is due
    ):
        with pytest.raises(TypeError, match="bfs_torus: expected C-ordered arrays of uint8, int32"):
            search(wrong[0], 3, 4, 0, 5, wrong[1])


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
    from knightcert.problems.checkers.jump_kernel import meet_labels

    def both(jit: Any, name: str, *args: Any, sizes=(np.int32,)) -> None:
        """``jit`` and the compiled ``name`` on ``args`` and fresh -1 arrays of ``sizes``: the same."""
        outs = []
        for function in (jit, compiled.kernel(name) or jit):  # (skipped above when not built)
            outs.append([np.full(n, -1, dtype) for dtype in sizes])
            outs[-1].append(function(*args, *outs[-1]))
        assert all(np.array_equal(a, b) for a, b in zip(*outs, strict=True)), name

    rng = np.random.default_rng(40)
    for _ in range(50):
        rows, cols = (int(x) for x in rng.integers(1, 40, size=2))
        n = rows * cols
        blocked = (rng.random(n) < 0.3).astype(np.uint8)
        start, goal = (int(x) for x in rng.integers(0, n, size=2))
        both(bfs_torus, "bfs_torus", blocked, rows, cols, start, goal)
        values = rng.integers(0, max(rows, cols), size=(rows, cols)).astype(np.int64)
        both(
            rounds_and_keys,
            "rounds_and_keys",
            values.reshape(-1),
            rows,
            cols,
            n - 1,
            sizes=(np.int32, np.int64),
        )
        both(meet_labels, "meet_labels", values, np.arange(n, dtype=np.int64), sizes=(np.int64, np.int64))


@pytest.mark.skipif(compiled.kernel("push_relabel") is None, reason="kernels not compiled ahead of time here")
def test_the_compiled_matching_kernels_match_as_numba_does(monkeypatch):
    """Push-relabel, Hopcroft-Karp and Kőnig's set, compiled and numba's: the same matching, pair
    for pair, and the same independent set, on boards with holes (where push-relabel works)."""
    from knightcert.problems import knight_matching, knight_matching_kernels
    from knightcert.problems.board import Board
    from knightcert.problems.moves import knight_neighbours

    def matched(board: Board, kernels: dict) -> tuple[np.ndarray, np.ndarray]:
        monkeypatch.setattr(knight_matching, "kernels", lambda: kernels)
        run = knight_matching.MatchingRun(board, knight_neighbours(board))
        while run.phase():
            pass
        return run.match, run.independent()

    names = knight_matching.KERNEL_NAMES
    ahead = {name: compiled.kernel(name) for name in names}
    jit = {name: getattr(knight_matching_kernels, name) for name in names}
    rng = np.random.default_rng(41)
    for _ in range(20):
        rows, cols = (2 * int(x) for x in rng.integers(2, 30, size=2))
        board = Board(rows, cols, rng.random((rows, cols)) < 0.15)
        for a, b in zip(matched(board, ahead), matched(board, jit), strict=True):
            assert np.array_equal(a, b), (rows, cols)
