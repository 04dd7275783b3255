"""The jump game solved exactly by breadth-first search, two ways.

``bfs`` searches once, backwards from the goal, and then answers every
player with a lookup; ``bfs-player`` runs one forward search per player (the
seed's O(J·N·M) method) and serves as an independent cross-check.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from knightcert.problems.compiled import kernel_or_numba
from knightcert.problems.jump_game import JumpInstance, game_result, jump_targets, player_row
from knightcert.problems.method import method
from knightcert.problems.result import Result

__all__ = ["bfs", "bfs_player"]


@method("jump", "bfs")
def bfs(instance: JumpInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """Winner of the jump game from one backward search (exact, the default).

    A breadth-first search from the goal over reversed jumps gives every cell
    its fewest rounds to the goal; one pass over the cells in that order gives
    every cell its shortest possible jump in the round before the last. Each
    player is then a lookup, and its path is read off the labels.

    Returns
    -------
    Result
        ``OPTIMAL`` with ``objective`` = the winner's round, or ``INFEASIBLE``
        when nobody can arrive (``SEM VENCEDORES``). ``solution`` holds the
        winner, the official output text and a per-player table (rounds, tie
        key, path). The labels are attached as the certificate.

    Examples
    --------
    >>> from knightcert.problems.jump_game import parse_jump
    >>> game = parse_jump("1 9\\n3\\n4 1 3 2 2 1 2 1 0\\n0 0\\n0 1\\n0 2\\n")
    >>> print(bfs(game).solution["output"], end="")
    C
    3

    Notes
    -----
    O(N·M) time and memory whatever the number of players J, plus O(J·R) to
    write the paths (R = rounds). Exact: BFS distances are shortest, and the
    tie key is a minimum over exactly the fastest paths. The search is a
    kernel compiled ahead of time (:mod:`knightcert.problems.compiled`), or
    by numba on first use when the install did not build it.
    """
    rows, cols = instance.rows, instance.cols
    table: list[dict[str, Any]] = []
    certificate = None
    if rows * cols:
        search = kernel_or_numba("rounds_and_keys", "knightcert.algorithms.jump_kernels")
        values = np.ascontiguousarray(instance.values, dtype=np.int64).reshape(-1)
        dist = np.full(rows * cols, -1, dtype=np.int32)
        best = np.full(rows * cols, -1, dtype=np.int64)
        search(values, rows, cols, rows * cols - 1, dist, best)
        for p, (r, c) in enumerate(instance.starts):
            table.append(_lookup(instance, p, r * cols + c, dist, best))
        certificate = {"rounds": dist.reshape(rows, cols), "keys": best.reshape(rows, cols)}
    return game_result(instance, "bfs", table, certificate=certificate)


def _lookup(instance: JumpInstance, p: int, cell: int, dist: np.ndarray, best: np.ndarray) -> dict[str, Any]:
    cols = instance.cols
    rounds = int(dist[cell])
    row = player_row(instance, p)
    if rounds < 0:
        return row
    key = int(best[cell]) if rounds >= 2 else None
    path = [divmod(cell, cols)]
    while dist[cell] > 0:  # follow a fastest path that keeps the best key
        d = int(dist[cell])
        for t in jump_targets(instance.values, *divmod(cell, cols)):
            ti = t[0] * cols + t[1]
            if dist[ti] == d - 1 and (d <= 2 or best[ti] == best[cell]):
                cell = ti
                break
        path.append(divmod(cell, cols))
    row.update(rounds=rounds, key=key, path=[list(sq) for sq in path])
    return row


@method("jump", "bfs-player")
def bfs_player(instance: JumpInstance, *, time_limit: float | None = None, seed: int | None = None) -> Result:
    """Winner of the jump game with one forward search per player (exact).

    Each player's own BFS stops at the goal; the tie key is the cheapest cell
    two rounds from the end of some fastest path. Independent of :func:`bfs`
    (different direction, different code), hence a cross-check.

    Notes
    -----
    O(J·N·M) time, O(N·M) memory.
    """
    forward_player = kernel_or_numba("forward_player", "knightcert.algorithms.jump_kernels")
    rows, cols = instance.rows, instance.cols
    n = rows * cols
    values = np.ascontiguousarray(instance.values, dtype=np.int64).reshape(-1)
    parent = np.empty(max(n, 1), dtype=np.int32)
    queue = np.empty(max(n, 1), dtype=np.int32)
    table = []
    for p, (r, c) in enumerate(instance.starts):
        dist = np.full(n, -1, dtype=np.int32)
        rounds, key, witness = forward_player(values, rows, cols, r * cols + c, n - 1, dist, parent, queue)
        row = player_row(instance, p)
        if rounds >= 0:
            if rounds == 0:
                cells = [r * cols + c]
            elif rounds == 1:
                cells = [r * cols + c, n - 1]
            else:
                cells = [int(witness)]
                while cells[-1] != r * cols + c:
                    cells.append(int(parent[cells[-1]]))
                cells.reverse()
                step = next(
                    t[0] * cols + t[1]
                    for t in jump_targets(instance.values, *divmod(int(witness), cols))
                    if dist[t[0] * cols + t[1]] == rounds - 1
                    and (rows - 1, cols - 1) in jump_targets(instance.values, *t)
                )
                cells += [step, n - 1]
            row.update(
                rounds=int(rounds),
                key=None if key < 0 else int(key),
                path=[list(divmod(x, cols)) for x in cells],
            )
        table.append(row)
    return game_result(instance, "bfs-player", table)
