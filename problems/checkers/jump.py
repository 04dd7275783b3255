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

from functools import cache
from itertools import pairwise
from typing import Any

import numpy as np

from knightcert.problems.checkers.common import as_squares, bound_claim, certificate_of, certified
from knightcert.problems.checkers.failure import CheckFailed
from knightcert.problems.checkers.fields import describe_value, grid, int_array, optional_integer
from knightcert.problems.checkers.plain import exact_pairs
from knightcert.problems.compiled import kernel_or_numba
from knightcert.problems.jump_game import JumpInstance, format_jump_answer, player_name
from knightcert.problems.result import Evidence, Result, Status

__all__ = ["LABELS", "ROW_FIELDS", "certify_jump", "check_labels", "labels", "replay"]

LABELS = "round/key labels"
_OWN = f"{__package__}.jump_kernel"  # the checker's own kernels (numba's, when not built)


def certify_jump(instance: JumpInstance, result: Result) -> tuple[list[Evidence], dict | None]:
    """Check a jump-game answer; return the evidence of each claim and the labels checked.

    The answer claim is the winner's path, replayed; the optimality claim
    (nobody arrives earlier, or as early with a shorter previous jump, or as
    early and as short but earlier in input order) and the no-winner claim
    are proven with the labels: the attached ``{"rounds": ..., "keys": ...}``
    when they hold only integers of the board's shape (checked; returned), else
    the checker's own labels of the start cells, from a search from both ends
    (:func:`labels`; nothing returned).

    Raises
    ------
    CheckFailed
        Naming the claim rejected and why.
    """
    claim = "infeasible" if result.status is Status.INFEASIBLE else "optimal"
    solution = None if result.solution is None else _solution_fields(result.solution)
    certificate = certificate_of(result, claim)
    checked = None
    if "rounds" in certificate or "keys" in certificate:
        every = grid(certificate.get("rounds"), "certificate 'rounds'", instance.values.shape, claim=claim)
        tie = grid(certificate.get("keys"), "certificate 'keys'", instance.values.shape, claim=claim)
        check_labels(instance, every, tie, claim)
        checked = {"rounds": every, "keys": tie}
        rounds, keys = ([a.item(*start) for start in instance.starts] for a in (every, tie))
    else:  # balls of about half the rounds around the starts and the goal: cheaper than the solve
        rounds, keys = (a.tolist() for a in labels(instance, instance.starts))
    pairs = enumerate(zip(rounds, keys, strict=True))
    ranking = [(float("inf"), 0, p) if r < 0 else (r, k if r >= 2 else -1, p) for p, (r, k) in pairs]
    evidence: list[Evidence] = []
    for applies, check in POLICY:
        if applies(result, solution):
            evidence += check(instance, result, solution, ranking)
    return evidence, checked


#: Each player's (rounds, tie key, input order) read off the labels: the smallest wins.
Ranking = list[tuple]


def _nobody_arrives(
    instance: JumpInstance, result: Result, solution: dict | None, ranking: Ranking
) -> list[Evidence]:
    """INFEASIBLE: the answer names no winner, and the labels show that no player arrives."""
    if solution is not None and any(solution[k] is not None for k in ("winner", "round", "key", "path")):
        raise CheckFailed("an answer without a winner names one, or its round, key or path", "infeasible")
    arrivals = [player_name(p) for p, key in enumerate(ranking) if key[0] != float("inf")]
    if arrivals:
        raise CheckFailed(f"player {arrivals[0]} can reach the goal", claim="infeasible")
    return [certified("infeasible", "round labels")]


def _winner_wins(
    instance: JumpInstance, result: Result, solution: dict | None, ranking: Ranking
) -> list[Evidence]:
    """A winner: its path replayed, its round and key as claimed, and nobody ranked before it."""
    if solution is None:
        return []
    claim = "optimal"
    if solution["winner"] is None:
        raise CheckFailed(f"status {result.status.value} but no winner is named")
    winner = _index(solution["winner"], instance.players)
    rounds_w, key_w = replay(instance, winner, solution["path"])
    if rounds_w != solution["round"] or rounds_w != result.objective:
        raise CheckFailed(f"the winner's path takes {rounds_w} rounds, not {solution['round']}")
    if solution["key"] != key_w:
        raise CheckFailed(f"the winner's previous jump is {key_w}, not {solution['key']}")
    evidence = [certified("answer", "winner's path replayed")]
    mine = (rounds_w, -1 if key_w is None else key_w, winner)
    if ranking[winner] != mine:
        raise CheckFailed(f"player {solution['winner']} could do better: {ranking[winner]} < {mine}", claim)
    for p, key in enumerate(ranking):
        if p != winner and key < mine:
            raise CheckFailed(f"player {player_name(p)} beats the claimed winner ({key} < {mine})", claim)
    if result.status is Status.OPTIMAL:
        evidence.append(certified("optimal", LABELS))
    return evidence


def _output_and_table(
    instance: JumpInstance, result: Result, solution: dict | None, ranking: Ranking
) -> list[Evidence]:
    """The output text names the winner and round; each player's row matches the labels."""
    if solution is None:
        return []
    if solution["output"] is not None:
        named = None if solution["winner"] is None else _index(solution["winner"], instance.players)
        if solution["output"] != format_jump_answer(named, solution["round"]):
            raise CheckFailed("the output text does not match the winner and round")
    if solution["players"] is not None and len(solution["players"]) != instance.players:
        raise CheckFailed(f"the table has {len(solution['players'])} rows for {instance.players} players")
    for p, row in enumerate(solution["players"] or []):
        _check_row(instance, p, row, ranking[p], solution)
    return []


def _bound_holds(
    instance: JumpInstance, result: Result, solution: dict | None, ranking: Ranking
) -> list[Evidence]:
    """A claimed lower bound on the winning round is at most the round the labels prove."""
    bound = bound_claim(result)
    if bound is None:
        return []
    best = min(ranking)[0] if ranking else float("inf")
    if bound > best:
        raise CheckFailed(f"bound {bound} exceeds the winning round {best} the labels prove", "bound")
    return [certified("bound", "round labels")]


#: Which check backs which claim, in order: (when it applies, the check).
POLICY = (
    (lambda result, solution: result.status is Status.INFEASIBLE, _nobody_arrives),
    (lambda result, solution: result.status is not Status.INFEASIBLE and solution is not None, _winner_wins),
    (lambda result, solution: solution is not None, _output_and_table),
    (lambda result, solution: bound_claim(result) is not None, _bound_holds),
)


def _solution_fields(solution: Any) -> dict[str, Any]:
    """The solution dict with every field type-checked (integers strict, names strings)."""
    if not isinstance(solution, dict):
        raise CheckFailed("solution: expected a dict with the winner, round, key and path")
    if missing := [name for name in ("winner", "round", "key", "path") if name not in solution]:
        raise CheckFailed(f"solution: the field {missing[0]!r} is missing")
    winner = solution["winner"]
    if winner is not None and not isinstance(winner, str):
        raise CheckFailed(f"solution 'winner': {describe_value(winner)} is not a player name")
    output = solution.get("output")
    if output is not None and not isinstance(output, str):
        raise CheckFailed(f"solution 'output': {describe_value(output)} is not text")
    players = solution.get("players")
    if players is not None and not (isinstance(players, list | tuple) and set(map(type, players)) <= {dict}):
        raise CheckFailed("solution 'players': expected a list of player rows")
    return {
        "winner": winner,
        "round": optional_integer(solution["round"], "solution 'round'"),
        "key": optional_integer(solution["key"], "solution 'key'"),
        "path": solution["path"],  # checked where it is replayed
        "output": output,
        "players": players,
    }


def replay(instance: JumpInstance, player: int, path: Any) -> tuple[int, int | None]:
    """Replay ``player``'s path jump by jump; return (rounds, jump in the round before the last).

    A path of up to 64 ``[int, int]`` lists is read in plain Python (a few microseconds, where the
    numpy calls cost some 14): from the start to the goal, the goal not before, every square on
    the board, each round a jump of its cell's positive value along a row or column; any other
    path, and the first fault of one that fails there, goes to the compiled replay."""
    (n, m), at = instance.values.shape, instance.values.item
    if exact_pairs(path) and 0 < len(path) <= 64 and path[0] == [*instance.starts[player]]:
        for (r, c), (u, v) in pairwise(path):  # from the start (on the board): on it, along a line, by
            if not (0 <= u < n and 0 <= v < m and (u - r) * (v - c) == 0 < abs(u - r + v - c) == at(r, c)):
                break  # the cell's value (a positive one)
        else:  # the goal at the end only
            if path[-1] == [n - 1, m - 1] not in path[:-1]:
                return len(path) - 1, (at(*path[-3]) if len(path) >= 3 else None)
    name = player_name(player)
    if path is None or len(path) == 0:
        raise CheckFailed(f"player {name} has no path")
    squares = np.ascontiguousarray(as_squares(path, f"player {name}'s path"))
    if tuple(squares[0].tolist()) != instance.starts[player]:
        raise CheckFailed(f"player {name}'s path does not start at its start cell")
    if tuple(squares[-1].tolist()) != instance.goal:
        raise CheckFailed(f"player {name}'s path does not end at the goal")
    fault = kernel_or_numba("replay_fault", _OWN)(np.ascontiguousarray(instance.values, np.int64), squares)
    if fault >= 0 and fault % 2 == 0:
        raise CheckFailed(f"player {name}'s path reaches the goal before its end")
    if fault >= 0:
        a, b = (tuple(squares[k].tolist()) for k in (fault // 2 - 1, fault // 2))
        raise CheckFailed(f"player {name}, round {fault // 2}: {a} -> {b} is not a jump of the cell's value")
    rounds = len(squares) - 1  # the key: the value jumped from in the round before the last
    return rounds, (int(instance.values[tuple(squares[rounds - 2])]) if rounds >= 2 else None)


def check_labels(
    instance: JumpInstance, rounds: np.ndarray, keys: np.ndarray, claim: str = "optimal"
) -> None:
    """Check that ``rounds`` are exact distances to the goal and ``keys`` lower bounds."""
    narrow = rounds.dtype == np.int32  # int32 round labels (the methods' own) are read as they are
    values, keys = (np.ascontiguousarray(a, dtype=np.int64) for a in (instance.values, keys))
    rounds = np.ascontiguousarray(rounds, dtype=np.int32 if narrow else np.int64)
    faults = kernel_or_numba("label_faults32" if narrow else "label_faults", _OWN)(values, rounds, keys)
    if faults[9]:  # a label below -1: which one, where (read again only then)
        for name, labels in (("rounds", rounds), ("keys", keys)):
            int_array(labels, f"certificate {name!r}", minimum=-1, claim=claim)
    _raise_faults(faults, claim)


#: What each fault flag of the kernel (:mod:`knightcert.problems.checkers.jump_kernel`) means.
_FAULTS = (
    *("a round label is larger than a jump allows (labels are not lower bounds)",
      "a tie key is larger than a successor's (keys are not lower bounds)") * 4,
    "a round label has no jump one round closer (labels are not exact)",
    "a round label or tie key is below -1",
    "the goal's round label is not 0",
    "a cell other than the goal has round label 0",
    "a cell two rounds from the goal does not have its own value as tie key",
)  # fmt: skip
#: The order the flags are read in: the labels' range, the goal's 0, then direction by direction
#: a label above its jump's and a tie key above its successor's, a label with no jump one round
#: closer, and the keys two rounds out.
_ORDER = (9, 10, 11, *range(9), 12)


def _raise_faults(faults: np.ndarray, claim: str) -> None:
    """Raise the first fault flagged, in the order of :data:`_ORDER`."""
    flags = faults.tolist()
    for flag in _ORDER if True in flags else ():
        if flags[flag]:
            raise CheckFailed(_FAULTS[flag], claim)


def labels(instance: JumpInstance, squares: Any) -> tuple[np.ndarray, np.ndarray]:
    """The checker's own labels of ``squares`` (``(row, col)`` pairs): the fewest rounds to the
    goal (-1: never) and, two or more rounds out, the least jump a fastest path makes in the
    round before its last (else -1); no search code shared with the methods.
    :func:`~knightcert.problems.checkers.jump_kernel.meet_labels`, compiled ahead of time
    (:mod:`knightcert.problems.compiled`) or by numba: a search from both ends."""
    cells = np.array([r * instance.cols + c for r, c in squares], dtype=np.int64)
    rounds, keys = np.empty(cells.size, dtype=np.int64), np.empty(cells.size, dtype=np.int64)
    kernel_or_numba("meet_labels", _OWN)(np.ascontiguousarray(instance.values, np.int64), cells, rounds, keys)
    return rounds, keys


#: The fields a row of the per-player table may hold (every one is checked).
ROW_FIELDS = frozenset({"player", "start", "rounds", "key", "path"})
WHERE = "solution 'players'[{}]"  # a row's fields, as messages name them


def _check_row(instance: JumpInstance, p: int, row: dict[str, Any], lower: tuple, solution: dict) -> None:
    name, start = player_name(p), row.get("start", want := [*instance.starts[p]])
    if not row.keys() <= ROW_FIELDS:
        raise CheckFailed(f"{WHERE.format(p)}: unknown field {min(map(str, row.keys() - ROW_FIELDS))!r}")
    if row.get("player") != name:
        raise CheckFailed(f"row {p} names player {describe_value(row.get('player'))}, expected {name}")
    if not (type(start) in (list, tuple) and [*start] == want and type(start[0]) is int is type(start[1])):
        raise CheckFailed(f"{WHERE.format(p)} 'start': {describe_value(start)}, the instance says {want}")
    rounds, key = row.get("rounds"), row.get("key")
    if not all(v is None or (type(v) is int and v >= 0) for v in (rounds, key)):  # else named below
        rounds, key = (optional_integer(row.get(f), f"{WHERE.format(p)} {f!r}") for f in ("rounds", "key"))
    if rounds is None:
        if lower[0] != float("inf"):
            raise CheckFailed(f"player {name} can arrive in {lower[0]} rounds, reported never")
        if key is not None or row.get("path") is not None:
            raise CheckFailed(f"{WHERE.format(p)}: a player reported never to arrive has a key or a path")
        return
    if (path := row.get("path")) is not None:  # the winner's path, replayed already, is not again
        same = name == solution["winner"] and exact_pairs(path) and exact_pairs(solution["path"])
        same = same and path == solution["path"]  # two lists of [int, int] pairs: the same squares
        replayed = (solution["round"], solution["key"]) if same else replay(instance, p, path)
        if replayed != (rounds, key):
            raise CheckFailed(f"player {name}'s path gives {replayed}, reported ({rounds}, {key})")
    if (rounds, -1 if key is None else key, p) != lower:
        proven = (lower[0], None if lower[1] < 0 else lower[1])  # the labels' key -1: no key
        told = "it never arrives" if lower[0] == float("inf") else str(proven)
        raise CheckFailed(f"player {name} is reported ({rounds}, {key}), the labels prove {told}")


@cache  # a name is an atom of the answer's copy (hashable, its code the base type's)
def _index(name: Any, players: int) -> int:
    if name in (names := [player_name(p) for p in range(players)]):
        return names.index(name)
    raise CheckFailed(f"unknown player {name!r}")
