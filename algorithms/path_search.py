"""Shortest knight paths on toroidal boards: BFS and A* (exact), and the best-first engine.

Both search the implicit knight graph of a :class:`LostKnightInstance` with
compiled loops: BFS's compiled ahead of time at install
(:mod:`knightcert.problems.compiled`), else by numba on first use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from knightcert.problems.compiled import kernel
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.method import method
from knightcert.problems.moves import KNIGHT_OFFSETS
from knightcert.problems.result import Result, Status

__all__ = ["astar", "best_first", "bfs"]

#: Largest board A* and greedy accept: their priority keys are packed in 63 bits.
MAX_BEST_FIRST_BITS = 62
#: Without the kernel compiled ahead of time, boards up to this many squares are searched in
#: plain Python: loading numba's kernel (about 0.5 s) costs more than the whole search there.
PLAIN_BFS_SQUARES = 4096


@method("path", "bfs")
def bfs(instance: LostKnightInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """Fewest knight moves from C to S by breadth-first search (exact).

    Parameters
    ----------
    instance : LostKnightInstance
    time_limit, seed : ignored
        Accepted for the common call shape; the search is linear-time.

    Returns
    -------
    Result
        ``OPTIMAL`` with the path (``[row, col]`` squares from C to S) and a
        distance labelling as certificate, or ``INFEASIBLE`` with the set of
        reachable squares (closed under moves) as certificate.

    Examples
    --------
    >>> from knightcert.problems.lost_knight import parse_lost_knight
    >>> result = bfs(parse_lost_knight("C....\\n.....\\n....S\\n"))
    >>> result.objective, result.solution  # one jump: (+2, -1) wraps to column 4
    (1, [[0, 0], [2, 4]])

    Notes
    -----
    O(8 * rows * cols) time and O(rows * cols) memory; stops as soon as S is
    labelled. Exact: BFS labels squares in order of distance. The kernel
    compiled ahead of time searches every board; without it, boards up to
    ``PLAIN_BFS_SQUARES`` squares are searched in plain Python, larger ones
    by numba's kernel; all label the same squares.
    """
    board = instance.board
    blocked = board.blocked.reshape(-1).view(np.uint8)
    dist = np.full(board.size, -1, dtype=np.int32)
    search: Any = kernel("bfs_torus")
    if search is None and board.size <= PLAIN_BFS_SQUARES:
        search = _bfs_plain
    elif search is None:
        from knightcert.algorithms.path_kernels import bfs_torus as search
    expanded = search(blocked, board.rows, board.cols, instance.start_index, instance.exit_index, dist)
    goal_dist = int(dist[instance.exit_index])
    if goal_dist < 0:
        return Result.empty(
            "path", "bfs", status=Status.INFEASIBLE, nodes=int(expanded), certificate={"closed": dist >= 0}
        )
    path = _walk_back(instance, dist)
    labels = np.where((dist < 0) | (dist > goal_dist), np.int32(goal_dist), dist)
    return Result.answer(
        "path",
        "bfs",
        status=Status.OPTIMAL,
        objective=goal_dist,
        solution=path,
        bound=goal_dist,
        nodes=int(expanded),
        certificate={"labels": labels},
    )


@method("path", "astar")
def astar(
    instance: LostKnightInstance, *, time_limit: float | None = None, seed: int | None = None
) -> Result:
    """Fewest knight moves by A* with an admissible toroidal bound (exact).

    The bound is ``max(ceil(tr/2), ceil(tc/2), ceil((tr+tc)/3))`` with
    ``tr``, ``tc`` the toroidal row and column distances to S: a jump moves at
    most two rows, two columns and three squares in all, so it is admissible
    and consistent, and A* returns a shortest path.

    Returns
    -------
    Result
        ``OPTIMAL`` with the path, or ``INFEASIBLE`` with the explored (closed)
        set; ``nodes`` is the number of squares expanded.

    Raises
    ------
    SizeLimitExceeded
        Boards too large for the packed 63-bit priority keys (about 10^7 squares).

    Notes
    -----
    O(N log N) time for N squares in the worst case; usually expands far
    fewer squares than BFS when S is close.
    """
    return best_first(instance, weight_g=1, name="astar")


def best_first(instance: LostKnightInstance, weight_g: int, name: str) -> Result:
    from knightcert.algorithms.path_kernels import best_first_torus

    board = instance.board
    bits = (
        (board.size + 1).bit_length()
        + (2 * board.size + 2).bit_length()
        + (board.rows + board.cols + 1).bit_length()
    )
    if bits > MAX_BEST_FIRST_BITS:
        raise SizeLimitExceeded(
            f"{name} handles boards up to about 10^7 squares; this one has {board.size} (use bfs)"
        )
    blocked = board.blocked.reshape(-1).view(np.uint8)
    parent = np.full(board.size, -1, dtype=np.int64)
    g = np.full(board.size, -1, dtype=np.int64)
    expanded, found = best_first_torus(
        blocked, board.rows, board.cols, instance.start_index, instance.exit_index, weight_g, parent, g
    )
    if not found:
        return Result.empty(
            "path", name, status=Status.INFEASIBLE, nodes=int(expanded), certificate={"closed": g >= 0}
        )
    squares = [instance.exit_index]
    while squares[-1] != instance.start_index:
        squares.append(int(parent[squares[-1]]))
    path = [list(board.square(i)) for i in reversed(squares)]
    length = len(path) - 1
    if weight_g:
        return Result.answer(
            "path",
            name,
            status=Status.OPTIMAL,
            objective=length,
            solution=path,
            bound=length,
            nodes=int(expanded),
        )
    return Result.answer(
        "path", name, status=Status.FEASIBLE, objective=length, solution=path, nodes=int(expanded)
    )


def _bfs_plain(blocked: np.ndarray, rows: int, cols: int, start: int, goal: int, dist: np.ndarray) -> int:
    """:func:`~knightcert.algorithms.path_kernels.bfs_torus` in plain Python, for small boards:
    fills ``dist`` the same way and returns the number of expanded squares."""
    free = [not b for b in blocked.tolist()]
    labels = [-1] * (rows * cols)
    labels[start] = 0
    queue = [start]
    head = 0
    found = start == goal
    while head < len(queue) and not found:
        u = queue[head]
        head += 1
        r, c = divmod(u, cols)
        for dr, dc in KNIGHT_OFFSETS:
            v = ((r + dr) % rows) * cols + (c + dc) % cols
            if labels[v] < 0 and free[v]:
                labels[v] = labels[u] + 1
                if v == goal:
                    found = True
                    break
                queue.append(v)
    dist[:] = labels
    return head


def _walk_back(instance: LostKnightInstance, dist: np.ndarray) -> list[list[int]]:
    """Shortest path read off exact distance labels, from S back to C."""
    board = instance.board
    rows, cols = board.rows, board.cols
    r, c = instance.exit
    path = [[r, c]]
    d = int(dist[r * cols + c])
    while d > 0:
        for dr, dc in KNIGHT_OFFSETS:  # moves are symmetric: predecessors are neighbours
            pr, pc = (r - dr) % rows, (c - dc) % cols
            if dist[pr * cols + pc] == d - 1:
                r, c, d = pr, pc, d - 1
                path.append([r, c])
                break
        else:  # pragma: no cover - impossible with exact labels
            raise AssertionError("distance labels have no predecessor")
    path.reverse()
    return path
