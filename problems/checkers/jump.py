"""Certificates for the jump game.

The winner's path is replayed move by move. Its optimality (and everybody
else's defeat) is proven with two labellings of the board:

``rounds[c]``
    fewest jumps from ``c`` to the goal (-1: never). It is exact when
    ``rounds[goal] = 0``; for every jump ``c -> t`` with ``rounds[t] >= 0``,
    ``0 <= rounds[c] <= rounds[t] + 1`` (no path is shorter than the label);
    and every ``c`` with ``rounds[c] > 0`` has a jump to a cell labelled
    ``rounds[c] - 1`` (a path that long exists).
``keys[c]``
    a lower bound on the jump a player starting at ``c`` makes in the round
    before its last: ``keys[c] = values[c]`` when ``rounds[c] = 2`` and
    ``keys[c] <= keys[t]`` for every jump ``c -> t`` one round closer.

The winner's ``(rounds, key, input order)`` must then be smaller than every
other player's ``(rounds, keys, input order)`` read off the labels.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.jump_game import JumpInstance, format_jump_answer, jump_targets, player_name
from knightcert.problems.result import Result, Status


def check_jump(instance: JumpInstance, result: Result) -> None:
    """Check a jump-game answer; raise :class:`CheckFailed` if anything is wrong."""
    if result.status is Status.UNKNOWN:
        raise CheckFailed("no answer to check (status UNKNOWN)")
    solution = result.solution
    if not isinstance(solution, dict) or "winner" not in solution:
        raise CheckFailed("the solution must be a dict with the winner")
    certificate = result.certificate or {}
    if instance.rows * instance.cols == 0:
        rounds = keys = np.zeros((instance.rows, instance.cols), dtype=np.int64)
    elif "rounds" in certificate:
        rounds = np.asarray(certificate["rounds"]).reshape(instance.rows, instance.cols)
        keys = np.asarray(certificate["keys"]).reshape(instance.rows, instance.cols)
    else:
        rounds, keys = labels(instance)
    check_labels(instance, rounds, keys)
    ranking = [_lower_key(instance, rounds, keys, p) for p in range(instance.players)]
    if result.status is Status.INFEASIBLE:
        if solution["winner"] is not None or result.objective is not None:
            raise CheckFailed("an answer without a winner names one")
        arrivals = [player_name(p) for p, key in enumerate(ranking) if key[0] != float("inf")]
        if arrivals:
            raise CheckFailed(f"player {arrivals[0]} can reach the goal")
    else:
        winner = _index(solution["winner"], instance.players)
        rounds_w, key_w = replay(instance, winner, solution.get("path"))
        if rounds_w != solution["round"] or rounds_w != result.objective:
            raise CheckFailed(f"the winner's path takes {rounds_w} rounds, not {solution['round']}")
        if solution.get("key") != key_w:
            raise CheckFailed(f"the winner's previous jump is {key_w}, not {solution.get('key')}")
        mine = (rounds_w, -1 if key_w is None else key_w, winner)
        if ranking[winner] != mine:
            raise CheckFailed(f"player {solution['winner']} could do better: {ranking[winner]} < {mine}")
        for p, key in enumerate(ranking):
            if p != winner and key < mine:
                raise CheckFailed(f"player {player_name(p)} beats the claimed winner ({key} < {mine})")
    if solution.get("output") is not None:
        winner = None if solution["winner"] is None else _index(solution["winner"], instance.players)
        if solution["output"] != format_jump_answer(winner, solution["round"]):
            raise CheckFailed("the output text does not match the winner and round")
    for p, row in enumerate(solution.get("players") or []):
        _check_row(instance, p, row, ranking[p])


def replay(instance: JumpInstance, player: int, path: Any) -> tuple[int, int | None]:
    """Replay ``player``'s path jump by jump; return (rounds, jump in the round before the last)."""
    if not isinstance(path, (list, tuple)) or not path:
        raise CheckFailed(f"player {player_name(player)} has no path")
    squares = [tuple(int(x) for x in square) for square in path]
    if squares[0] != tuple(instance.starts[player]):
        raise CheckFailed(f"player {player_name(player)}'s path does not start at its start cell")
    if squares[-1] != instance.goal:
        raise CheckFailed(f"player {player_name(player)}'s path does not end at the goal")
    if instance.goal in squares[:-1]:
        raise CheckFailed(f"player {player_name(player)}'s path reaches the goal before its end")
    for step in range(1, len(squares)):
        if squares[step] not in jump_targets(instance.values, *squares[step - 1]):
            raise CheckFailed(
                f"player {player_name(player)}, round {step}: {squares[step - 1]} -> {squares[step]} "
                "is not a jump of the cell's value"
            )
    rounds = len(squares) - 1
    key = int(instance.values[squares[rounds - 2]]) if rounds >= 2 else None
    return rounds, key


def check_labels(instance: JumpInstance, rounds: np.ndarray, keys: np.ndarray) -> None:
    """Check that ``rounds`` are exact distances to the goal and ``keys`` lower bounds."""
    if instance.rows * instance.cols == 0:
        return
    goal = instance.goal
    if rounds[goal] != 0:
        raise CheckFailed("the goal's round label is not 0")
    has_shorter = np.zeros(rounds.shape, dtype=bool)
    for target, valid in _jumps(instance.values):
        t_rounds = np.where(valid, rounds.take(target), -1)
        t_keys = np.where(valid, keys.take(target), 0)
        reached = t_rounds >= 0
        if np.any(reached & ((rounds < 0) | (rounds > t_rounds + 1))):
            raise CheckFailed("a round label is larger than a jump allows (labels are not lower bounds)")
        one_closer = reached & (rounds >= 1) & (t_rounds == rounds - 1)
        has_shorter |= one_closer
        if np.any(one_closer & (rounds > 2) & (keys > t_keys)):
            raise CheckFailed("a tie key is larger than a successor's (keys are not lower bounds)")
    if np.any((rounds > 0) & ~has_shorter):
        raise CheckFailed("a round label has no jump one round closer (labels are not exact)")
    two = rounds == 2
    if np.any(keys[two] != instance.values[two]):
        raise CheckFailed("a cell two rounds from the goal does not have its own value as tie key")


def labels(instance: JumpInstance) -> tuple[np.ndarray, np.ndarray]:
    """The checker's own labelling, layer by layer with numpy (no search code shared)."""
    values = instance.values
    rounds = np.full(values.shape, -1, dtype=np.int64)
    keys = np.full(values.shape, -1, dtype=np.int64)
    rounds[instance.goal] = 0
    jumps = list(_jumps(values))
    layer = 0
    while True:
        layer += 1
        new = np.zeros(values.shape, dtype=bool)
        for target, valid in jumps:
            new |= valid & (rounds.take(target) == layer - 1)
        new &= rounds < 0
        if not new.any():
            break
        rounds[new] = layer
        if layer == 2:
            keys[new] = values[new]
        elif layer > 2:
            best = np.full(values.shape, np.iinfo(np.int64).max)
            for target, valid in jumps:
                closer = new & valid & (rounds.take(target) == layer - 1)
                best = np.where(closer, np.minimum(best, keys.take(target)), best)
            keys[new] = best[new]
    return rounds, keys


def _jumps(values: np.ndarray):
    """For each direction: the flat target index of every cell (0 where invalid) and the validity mask."""
    rows, cols = values.shape
    r = np.arange(rows)[:, None]
    c = np.arange(cols)[None, :]
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        tr = r + dr * values
        tc = c + dc * values
        valid = (values > 0) & (tr >= 0) & (tr < rows) & (tc >= 0) & (tc < cols)
        yield np.where(valid, tr * cols + tc, 0), valid


def _lower_key(instance: JumpInstance, rounds: np.ndarray, keys: np.ndarray, p: int) -> tuple:
    start = instance.starts[p]
    r = int(rounds[start])
    if r < 0:
        return (float("inf"), 0, p)
    return (r, int(keys[start]) if r >= 2 else -1, p)


def _check_row(instance: JumpInstance, p: int, row: dict[str, Any], lower: tuple) -> None:
    name = player_name(p)
    if row.get("player") != name:
        raise CheckFailed(f"row {p} names player {row.get('player')!r}, expected {name}")
    if row.get("rounds") is None:
        if lower[0] != float("inf"):
            raise CheckFailed(f"player {name} can arrive in {lower[0]} rounds, reported never")
        return
    if row.get("path") is not None:
        rounds, key = replay(instance, p, row["path"])
        if (rounds, key) != (row["rounds"], row["key"]):
            raise CheckFailed(
                f"player {name}'s path gives ({rounds}, {key}), reported ({row['rounds']}, {row['key']})"
            )
    if (row["rounds"], -1 if row["key"] is None else row["key"], p) != lower:
        raise CheckFailed(
            f"player {name} is reported ({row['rounds']}, {row['key']}), the labels prove {lower[:2]}"
        )


def _index(name: Any, players: int) -> int:
    for p in range(players):
        if player_name(p) == name:
            return p
    raise CheckFailed(f"unknown player {name!r}")
