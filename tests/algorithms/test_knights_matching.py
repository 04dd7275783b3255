"""The knights matching: a polynomial Hopcroft-Karp that replaces scipy's exponential call."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

from knightcert.algorithms.knights_matching import matching
from knightcert.problems.board import Board
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.knight_matching_kernels import INF, greedy_matching, hopcroft_karp_phase
from knightcert.problems.result import Status


def _maximum_matching(nb: np.ndarray, left: np.ndarray) -> tuple[int, int]:
    """Run the kernels to the end on a padded adjacency table; return (size, phases)."""
    n = nb.shape[0]
    match = np.full(n, -1, dtype=np.int64)
    dist = np.empty(n, dtype=np.int64)
    queue, stack, cursor = (np.zeros(max(n, 1), dtype=np.int64) for _ in range(3))
    greedy_matching(nb, left, match)
    phases = 0
    while hopcroft_karp_phase(nb, left, match, dist, queue, stack, cursor):
        phases += 1
    matched = left[match[left] >= 0]
    assert (match[match[matched]] == matched).all()  # a matching: partners agree
    assert all(match[u] in nb[u] for u in matched)  # along edges
    return len(matched), phases + 1


def _table(n: int, edges: list[tuple[int, int]]) -> np.ndarray:
    adjacency: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        adjacency[u].append(v)
        adjacency[v].append(u)
    width = max(1, max(len(a) for a in adjacency))
    nb = np.full((n, width), -1, dtype=np.int32)
    for u, a in enumerate(adjacency):
        nb[u, : len(a)] = a
    return nb


def _layered(levels: int) -> tuple[int, list[tuple[int, int]], np.ndarray]:
    """scipy issue #26147's structure: two vertices per level, each joined to both of the next
    level (sides alternate by level), so a level-respecting search that never marks dead ends
    meets 2**depth paths. A pendant free vertex at the top makes the one augmenting path run
    through every level."""
    n = 2 * levels + 2
    edges = [(2 * k + a, 2 * k + 2 + b) for k in range(levels - 1) for a in (0, 1) for b in (0, 1)]
    edges += [(n - 2, 0), (n - 1, 2 * levels - 2)]
    top_is_right = (levels - 1) % 2 == 0  # the pendant at the top sits on the other side
    sides = [v for v in range(2 * levels) if (v // 2) % 2 == 0] + ([n - 1] if not top_is_right else [])
    left = np.array(sides, dtype=np.int64)
    return n, edges, left


@pytest.mark.parametrize("levels", [4, 9, 40, 400])
def test_layered_graphs_of_the_scipy_issue_are_matched_fully(levels):
    n, edges, left = _layered(levels)
    graph = nx.Graph(edges)
    expected = len(nx.bipartite.hopcroft_karp_matching(graph, top_nodes=set(left.tolist()) & set(graph))) // 2
    size, phases = _maximum_matching(_table(n, edges), left)
    assert size == expected
    assert phases <= 2 * math.isqrt(n) + 2  # Hopcroft-Karp's bound


@pytest.mark.parametrize("seed", range(6))
def test_random_bipartite_graphs_agree_with_networkx(seed):
    rng = np.random.default_rng(seed)
    half = int(rng.integers(1, 40))
    edges = sorted(
        {(int(u), half + int(v)) for u, v in rng.integers(0, half, (int(rng.integers(0, 4 * half)), 2))}
    )
    graph = nx.Graph(edges)
    graph.add_nodes_from(range(2 * half))
    expected = len(nx.bipartite.hopcroft_karp_matching(graph, top_nodes=range(half))) // 2
    assert _maximum_matching(_table(2 * half, edges), np.arange(half, dtype=np.int64))[0] == expected


def test_the_board_that_took_scipy_a_quarter_of_an_hour():
    # compare's random suite board 200x200-holes-s2: scipy's maximum_bipartite_matching took
    # 946 s on it (issue 9; > 90 s measured again here); Hopcroft-Karp is polynomial.
    board = Board(200, 200, np.random.default_rng(2).random((200, 200)) < 0.2)
    result = matching(KnightsInstance(board, "200x200-holes-s2"), time_limit=60)
    assert result.status is Status.OPTIMAL and result.verified
    assert result.objective == board.n_free - result.info["matching_size"]
    assert result.info["phases"] <= 2 * math.isqrt(board.n_free) + 2
    # the checker derives its own matching when none is attached: the same polynomial kernels
    from knightcert.problems.checkers import certify

    again = certify(KnightsInstance(board, "200x200-holes-s2"), result.with_(certificate=None, evidence=()))
    assert again.certified and "matching" in again.evidence[-1].how


def test_matching_stops_at_its_time_limit():
    result = matching(KnightsInstance(Board(60, 60), "60x60"), time_limit=1e-9, check=False)
    assert result.status is Status.UNKNOWN and result.solution is None
    assert "time limit" in result.record.stopped


def test_dead_ends_are_marked():
    # after a phase nothing left unmatched may keep a finite distance unless it was reached
    nb = _table(4, [(0, 2), (1, 2)])
    match = np.full(4, -1, dtype=np.int64)
    dist = np.empty(4, dtype=np.int64)
    buffers = [np.zeros(4, dtype=np.int64) for _ in range(3)]
    left = np.array([0, 1], dtype=np.int64)
    assert hopcroft_karp_phase(nb, left, match, dist, *buffers) == 1
    assert hopcroft_karp_phase(nb, left, match, dist, *buffers) == 0
    assert int((dist[left] < INF).sum()) == 2  # both left squares reach the one right square


def _push_relabel_matching(nb: np.ndarray, left: np.ndarray, right: np.ndarray) -> int:
    """Push-relabel alone, to the end, on a padded table; checks the matching; returns its size."""
    from knightcert.problems.knight_matching_kernels import push_relabel

    n = nb.shape[0]
    match = np.full(n, -1, dtype=np.int64)
    degree = (nb >= 0).sum(axis=1).astype(np.int64)
    finished, _ = push_relabel(
        nb.astype(np.int64), degree, left, right, match, np.empty(n, dtype=np.int64),
        np.empty(left.size + 1, dtype=np.int64), np.empty(max(n, 1), dtype=np.int64),
        np.int64(2 * n + 2), np.int64(10**9),
    )  # fmt: skip
    assert finished
    matched = left[match[left] >= 0]
    assert (match[match[matched]] == matched).all() and all(match[u] in nb[u] for u in matched)
    return len(matched)


@pytest.mark.parametrize("seed", range(8))
def test_push_relabel_alone_is_maximum_on_random_graphs(seed):
    """Push-relabel runs first on every board; Hopcroft-Karp only confirms. Alone, to the end,
    it must already be maximum (networkx's Hopcroft-Karp as the reference)."""
    rng = np.random.default_rng(100 + seed)
    half = int(rng.integers(1, 60))
    edges = sorted(
        {(int(u), half + int(v)) for u, v in rng.integers(0, half, (int(rng.integers(0, 3 * half)), 2))}
    )
    graph = nx.Graph(edges)
    graph.add_nodes_from(range(2 * half))
    expected = len(nx.bipartite.hopcroft_karp_matching(graph, top_nodes=range(half))) // 2
    left, right = np.arange(half, dtype=np.int64), np.arange(half, 2 * half, dtype=np.int64)
    assert _push_relabel_matching(_table(2 * half, edges), left, right) == expected


@pytest.mark.parametrize("levels", [9, 400])
def test_push_relabel_on_the_layered_graphs(levels):
    n, edges, left = _layered(levels)
    graph = nx.Graph(edges)
    expected = len(nx.bipartite.hopcroft_karp_matching(graph, top_nodes=set(left.tolist()) & set(graph))) // 2
    right = np.array(sorted(set(range(n)) - set(left.tolist())), dtype=np.int64)
    assert _push_relabel_matching(_table(n, edges), left, right) == expected


def test_boards_with_holes_need_no_more_than_one_confirming_phase():
    board = Board(120, 120, np.random.default_rng(7).random((120, 120)) < 0.2)
    result = matching(KnightsInstance(board, "holes"), time_limit=60)
    assert result.status is Status.OPTIMAL and result.verified and result.certified
    assert result.info["phases"] <= 2 and result.info["pushes"] > 0


def test_the_plain_small_board_matching_is_maximum():
    """Boards up to 1024 squares are matched in plain Python (no kernel to load): as large as the
    compiled matching on random holed boards and even tori, and its placement certified."""
    import numpy as np

    from knightcert.algorithms.knights_matching import _plain_matching, matching
    from knightcert.problems.board import Board
    from knightcert.problems.checkers.knights import maximum_matching
    from knightcert.problems.independent_knights import KnightsInstance

    rng = np.random.default_rng(3)
    for _ in range(120):
        rows, cols = (int(x) for x in rng.integers(1, 33, 2))
        if rows * cols > 1024:
            continue
        torus = bool(rng.random() < 0.3) and rows % 2 == 0 and cols % 2 == 0
        board = Board(rows, cols, rng.random((rows, cols)) < rng.random() * 0.5, torus)
        pairs, independent = _plain_matching(board)
        assert len(pairs) == len(maximum_matching(board))
        assert int(independent.sum()) == board.n_free - len(pairs)
        assert matching(KnightsInstance(board, "b")).certified


@pytest.mark.parametrize(
    ("rows", "cols", "torus"), [(2, 4, False), (8, 4, False), (6, 12, True), (12, 6, True), (8, 8, True)]
)
def test_boards_tiled_by_blocks_are_matched_perfectly_without_search(rows, cols, torus):
    inst = KnightsInstance(Board(rows, cols, torus=torus), f"{rows}x{cols}")
    result = matching(inst)
    assert result.info["tiled"] and result.status is Status.OPTIMAL and result.verified
    assert result.objective == rows * cols // 2 == result.info["matching_size"]
    holed = Board(rows, cols, np.eye(rows, cols, dtype=bool), torus=torus)  # not tiled: the search
    searched = matching(KnightsInstance(holed, "holed"))
    assert "tiled" not in searched.info and searched.verified
