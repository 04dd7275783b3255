"""The jump game as a CP-SAT model (exact): per-player reachability by layers.

``"layers"`` (the one formulation; the monolithic path model of the winner, 220x slower at
12 x 12 and refused past 144 cells, was dropped: docs/benchmarks-archive.md)
    Data: the board's jumps (at most 4 arcs per cell), the players' start cells.
    Variables: ``d[p][c]`` in [0, F] per player p and cell c (F = cells): the round in which
    player p can first stand on c (F: never).
    Constraints: ``d[p][start_p] = 0`` and ``d[p][v] <= d[p][u] + 1`` for every jump u -> v.
    Objective: maximise the sum of the labels: the largest labelling is each player's exact
    layering by rounds (the dual of the shortest path problem), so ``d[p][goal]`` is the
    round of arrival of p playing its own fastest game. The tie key (length of the jump in
    the round before the last) is read from the proven layers: the smallest value of a cell
    w in layer ``d[p][goal] - 2`` from which the goal is two jumps away. The winner is the
    smallest (rounds, key, input order), as in the rules.
"""

from __future__ import annotations

import time

import numpy as np
from ortools.sat.python import cp_model

from knightcert.models.cpsat_labels import LABEL_PARAMETERS, maximise_labels
from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.jump_game import JumpInstance, game_result, player_row
from knightcert.problems.method import method
from knightcert.problems.result import Result, Status

__all__ = ["FORMULATIONS", "MAX_CPSAT_CELLS", "MAX_CPSAT_LABELS", "cpsat"]

#: The formulations, the default first (chosen by ``bench/bench_cpsat.py``).
FORMULATIONS = ("layers",)
#: Cells above which the default (``layers``) model is refused.
MAX_CPSAT_CELLS = 250_000
#: Labels (players x cells) above which the ``layers`` model is refused (about 4 constraints each).
MAX_CPSAT_LABELS = 1_000_000


@method("jump", "cpsat")
def cpsat(
    instance: JumpInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    formulation: str = "layers",
) -> Result:
    """Winner of the jump game by CP-SAT: per-player layers.

    Parameters
    ----------
    instance : JumpInstance
    time_limit : float, optional
        Seconds for the whole call.
    seed : int, optional
        CP-SAT ``random_seed``.
    workers : int, optional
        CP-SAT ``num_workers`` (default ``knightcert.models.cpsat_solve.default_workers()``).
    formulation : {"layers"}
        The model (module docstring); recorded as ``info["formulation"]``.

    Returns
    -------
    Result
        ``OPTIMAL`` (winner proven) or ``INFEASIBLE`` (nobody can arrive) from the solver's
        proof; under ``time_limit`` ``FEASIBLE`` or ``UNKNOWN``; the full per-player table
        (``players``).

    Raises
    ------
    SizeLimitExceeded
        More than ``MAX_CPSAT_CELLS`` cells or ``MAX_CPSAT_LABELS`` labels.
    ValueError
        An unknown ``formulation``.

    Notes
    -----
    ``layers``: players x cells integers and at most 4 two-variable inequalities each.
    """
    if formulation not in FORMULATIONS:
        raise ValueError(f"unknown formulation {formulation!r}; valid: {', '.join(FORMULATIONS)}")
    rows, cols, players = instance.rows, instance.cols, instance.players
    n = rows * cols
    if n > MAX_CPSAT_CELLS or n * players > MAX_CPSAT_LABELS:
        raise SizeLimitExceeded(
            f"cpsat handles boards up to {MAX_CPSAT_CELLS} cells and {MAX_CPSAT_LABELS} labels "
            f"(players x cells); this one has {n} cells and {n * players} labels"
        )
    began = time.perf_counter()
    if n == 0 or players == 0:  # nobody to follow: no winner, nothing to search
        return game_result(instance, "cpsat", [])
    # data: the jumps u -> v (the goal is absorbing: no jump leaves it)
    goal = n - 1
    values = np.minimum(instance.values.reshape(-1), max(rows, cols)).astype(np.int64)
    r, c = np.divmod(np.arange(n), cols)
    tail_parts, head_parts = [], []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        nr, nc = r + dr * values, c + dc * values
        ok = (values > 0) & (nr >= 0) & (nr < rows) & (nc >= 0) & (nc < cols) & (np.arange(n) != goal)
        tail_parts.append(np.flatnonzero(ok))
        head_parts.append((nr * cols + nc)[ok])
    tails, heads = np.concatenate(tail_parts), np.concatenate(head_parts)
    one_jump = np.zeros(n, dtype=bool)
    one_jump[tails[heads == goal]] = True
    two_jumps = np.zeros(n, dtype=bool)  # cells whose jump lands one jump from the goal
    two_jumps[tails[one_jump[heads]]] = True
    starts = [r0 * cols + c0 for r0, c0 in instance.starts]
    # variables: d[p][c] is variable p * n + c, in [0, n] (n: never), d[p][start_p] = 0
    model = cp_model.CpModel()
    proto = model.proto
    for p in range(players):
        for cell in range(n):
            proto.variables.add().domain.extend((0, 0 if cell == starts[p] else n))
    # constraints: d[p][v] <= d[p][u] + 1 on every jump
    arcs = list(zip(heads.tolist(), tails.tolist(), strict=True))
    constraints = proto.constraints
    for p in range(players):
        base = p * n
        for v, u in arcs:
            if v == starts[p]:
                continue
            linear = constraints.add().linear
            linear.vars.extend((base + v, base + u))
            linear.coeffs.extend((1, -1))
            linear.domain.extend((-n, 1))
    # objective: maximise every label, largest label first
    total = n * players
    maximise_labels(proto, total)
    # solve
    run = solve_cpsat(
        model, began=began, time_limit=time_limit, seed=seed, workers=workers, parameters=LABEL_PARAMETERS
    )
    # extract
    info = {**run.info(), "formulation": "layers", "constraints": len(constraints)}
    if run.status is not Status.OPTIMAL:  # the layers are exact only at the optimum
        status = Status.UNKNOWN if run.status is not Status.INFEASIBLE else run.status
        return Result.empty("jump", "cpsat", status=status, info=info)
    labels = np.fromiter(run.solver.response_proto.solution, dtype=np.int64, count=total).reshape(players, n)
    table = [_player_row(instance, p, labels[p], tails, heads, values, two_jumps, n) for p in range(players)]
    return game_result(instance, "cpsat", table).with_(info=info)


def _player_row(
    instance: JumpInstance,
    player: int,
    label: np.ndarray,
    tails: np.ndarray,
    heads: np.ndarray,
    values: np.ndarray,
    two_jumps: np.ndarray,
    never: int,
) -> dict:
    """A player's rounds, tie key and one fastest path with that key, from its exact layers."""
    row = player_row(instance, player)
    goal = len(label) - 1
    rounds = int(label[goal])
    if rounds >= never:
        return row
    tight = label[heads] == label[tails] + 1
    into: dict[int, list[int]] = {}
    for v, u in zip(heads[tight].tolist(), tails[tight].tolist(), strict=True):
        into.setdefault(v, []).append(u)
    if rounds >= 2:  # the cell of the round before the last: smallest value in layer rounds - 2
        candidates = np.flatnonzero((label == rounds - 2) & two_jumps)
        w = int(candidates[np.argmin(values[candidates])])
        key = int(instance.values.reshape(-1)[w])
        middle = next(m for m in into[goal] if w in into.get(m, ()))
        walk = [goal, middle, w]
    else:
        key, walk = None, [goal]
    while label[walk[-1]] > 0:
        walk.append(into[walk[-1]][0])
    cols = instance.cols
    row.update(rounds=rounds, key=key, path=[list(divmod(cell, cols)) for cell in reversed(walk)])
    return row
