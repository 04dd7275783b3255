from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest

from knightcert.algorithms.jump_search import bfs, bfs_player
from knightcert.problems.checkers import check
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.jump import labels
from knightcert.problems.jump_game import JumpInstance, parse_jump
from knightcert.problems.result import Status

GAME = parse_jump("1 9\n3\n4 1 3 2 2 1 2 1 0\n0 0\n0 1\n0 2\n")  # EX1: C wins in round 3


def every_label(game):
    """The checker's labels of every cell, as grids of the board's shape."""
    squares = [(r, c) for r in range(game.rows) for c in range(game.cols)]
    return tuple(grid.reshape(game.rows, game.cols) for grid in labels(game, squares))


def tampered(change):
    result = bfs(GAME)
    solution = copy.deepcopy(result.solution)
    change(solution)
    return result.with_(solution=solution)


def test_accepts_the_true_answer_with_and_without_certificate():
    result = bfs(GAME)
    check(GAME, result)
    check(GAME, result.with_(certificate=None))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda s: s.update(winner="A", path=s["players"][0]["path"], key=2), "could do better|beats"),
        (lambda s: s.update(round=4), "takes 3 rounds"),
        (lambda s: s.update(key=2), "previous jump is 1"),
        (lambda s: s.update(path=[[0, 2], [0, 5], [0, 8]]), "not a jump"),
        (lambda s: s.update(path=[[0, 0], [0, 4], [0, 6], [0, 8]]), "does not start"),
        (lambda s: s.update(output="A\n3\n"), "output text"),
        (lambda s: s["players"][1].update(rounds=None, key=None, path=None), "reported never"),
        (lambda s: s["players"].append(s["players"][-1]), "the table has 4 rows for 3 players"),
    ],
)
def test_rejects_tampered_answers(change, words):
    with pytest.raises(CheckFailed, match=words):
        check(GAME, tampered(change))


def test_rejects_forged_labels():
    rounds, keys = every_label(GAME)
    forged = rounds.copy()
    forged[0, 1] = 1  # B claims one round: no jump supports it
    with pytest.raises(CheckFailed, match="labels are not"):
        check(GAME, bfs(GAME).with_(certificate={"rounds": forged, "keys": keys}))
    low = keys.copy()
    low[0, 0] = 0
    with pytest.raises(CheckFailed):
        check(GAME, bfs(GAME).with_(certificate={"rounds": rounds, "keys": low}))
    for name, given in (("rounds", rounds), ("keys", keys)):  # below -1: the grid, the cell, the value
        forged = given.copy()
        forged[0, 4] = -7
        certificate = {"rounds": rounds, "keys": keys, name: forged}
        with pytest.raises(CheckFailed, match=rf"certificate '{name}'\[0, 4\]: -7 is below -1"):
            check(GAME, bfs(GAME).with_(certificate=certificate))


def test_labels_match_bfs_certificate_on_ex1():
    rounds, keys = every_label(GAME)
    cert = bfs(GAME).certificate
    assert np.array_equal(rounds, cert["rounds"])
    assert np.array_equal(np.where(rounds >= 2, keys, -1), np.where(rounds >= 2, cert["keys"], -1))


def label_faults_by_definition(values, rounds, keys):
    """The test's own reading of the label conditions, cell by cell and jump by jump: the
    13 fault flags (per direction up, down, left, right: a label above its jump's, a tie key
    above a successor's; then a labelled cell with no jump one round closer; a label or key below
    -1; the goal's label not 0; a label 0 off the goal; a tie key two rounds out other than the
    cell's value)."""
    rows, cols = values.shape
    faults = [False] * 13
    for r in range(rows):
        for c in range(cols):
            v, label, key = int(values[r, c]), int(rounds[r, c]), int(keys[r, c])
            closer = False
            for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                tr, tc = r + dr * v, c + dc * v
                if v <= 0 or not (0 <= tr < rows and 0 <= tc < cols) or rounds[tr, tc] < 0:
                    continue
                target = int(rounds[tr, tc])
                faults[2 * d] |= label < 0 or label > target + 1
                if label >= 1 and target == label - 1:
                    closer = True
                    faults[2 * d + 1] |= label > 2 and key > int(keys[tr, tc])
            faults[8] |= label > 0 and not closer
            faults[9] |= min(label, key) < -1
            faults[10] |= (r, c) == (rows - 1, cols - 1) and label != 0
            faults[11] |= label == 0 and (r, c) != (rows - 1, cols - 1)
            faults[12] |= label == 2 and key != v
    return faults


def test_the_kernel_flags_the_label_faults_of_the_definition():
    """The label check's kernel against the test's own definition, on random boards with true
    and corrupted labels; boards of many zeros (few cells reach the goal) as well, where the
    kernel reads an unlabelled cell only from the labelled cells it jumps onto."""
    import random

    from knightcert.problems.checkers import jump as checker
    from knightcert.problems.checkers.jump_kernel import label_faults
    from knightcert.problems.compiled import kernel_or_numba

    rng = random.Random(31)
    seen, ways = [False] * 13, set()
    for draw in range(600):
        rows, cols = rng.randint(1, 7), rng.randint(1, 7)
        spread = (0, 1, 2, 3, 4) if draw % 2 else (0, 0, 0, 0, 1, 2, 3)
        values = np.array([[rng.choice(spread) for _ in range(cols)] for _ in range(rows)], dtype=np.int64)
        values[-1, -1] = 0
        game = JumpInstance(values, ((0, 0),))
        rounds, keys = every_label(game)
        for _ in range(rng.randint(0, 3)):
            grid = rounds if rng.random() < 0.5 else keys
            grid[rng.randrange(rows), rng.randrange(cols)] += rng.choice((-2, -1, 1, 2))
        expected = label_faults_by_definition(values, rounds, keys)
        seen = [a or b for a, b in zip(seen, expected, strict=True)]
        ways.add(((rounds >= 0).sum() * (rows + cols) < rows * cols, any(expected)))  # the kernel's way
        assert label_faults(values, rounds, keys).tolist() == expected
        for name, narrow in (("label_faults", rounds), ("label_faults32", rounds.astype(np.int32))):
            ahead = kernel_or_numba(name, checker.__package__ + ".jump_kernel")  # compiled ahead of time
            assert ahead(values, narrow, keys).tolist() == expected
    assert all(seen) and len(ways) == 4  # every fault occurred, each way, with faults and without


def test_each_label_fault_is_raised_with_its_words():
    """Through ``check_labels``: corrupted labels are refused exactly
    when the test's own definition finds a fault, with the words of the first one (a label or
    key below -1, a 0 off the goal; direction by direction, a label above its jump's before a tie
    key above its successor's; then a label with no jump one round closer; a key two rounds
    out)."""
    import random

    from knightcert.problems.checkers import jump as checker

    words = (
        "a round label is larger than a jump allows",
        "a tie key is larger than a successor's",
        "no jump one round closer",
        "below -1",
        "the goal's round label is not 0",
        "other than the goal has round label 0",
        "does not have its own value as tie key",
    )
    rng = random.Random(32)
    first_seen: set[int] = set()
    for _ in range(300):
        rows, cols = rng.randint(1, 6), rng.randint(2, 6)
        values = np.array([[rng.randint(0, 3) for _ in range(cols)] for _ in range(rows)], dtype=np.int64)
        values[-1, -1] = 0
        game = JumpInstance(values, ((0, 0),))
        rounds, keys = every_label(game)
        for _ in range(rng.randint(1, 2)):
            grid = rounds if rng.random() < 0.6 else keys
            r, c = rng.randrange(rows), rng.randrange(cols)
            if (r, c) != (rows - 1, cols - 1) and rounds[r, c] != 0:
                grid[r, c] += rng.choice((-2, -1, 1, 2))
        flags = label_faults_by_definition(values, rounds, keys)
        first = next((i for i in (9, 10, 11, *range(9), 12) if flags[i]), None)
        if first is None:
            checker.check_labels(game, rounds, keys)
            continue
        expected = words[first % 2] if first < 8 else words[first - 6]
        with pytest.raises(CheckFailed, match=expected):
            checker.check_labels(game, rounds, keys)
        first_seen.add(first)
    assert first_seen >= {0, 2, 4, 6, 8, 9, 11, 12}, first_seen  # every direction and the other rules


def test_the_faults_are_raised_in_their_order():
    from knightcert.problems.checkers.jump import _raise_faults

    order = (9, 10, 11, *range(9), 12)  # the range, the goal's 0, direction by direction, the rest
    words = {8: "no jump one round closer", 9: "below -1", 10: "goal's round label is not 0"}
    words |= {11: "other than the goal has round label 0", 12: "its own value"}
    for at, i in enumerate(order):
        flags = np.zeros(13, dtype=bool)
        flags[list(order[at:])] = True
        expected = words.get(i) or ("larger than a jump", "tie key")[i % 2]
        with pytest.raises(CheckFailed, match=expected):
            _raise_faults(flags, "optimal")
    _raise_faults(np.zeros(13, dtype=bool), "optimal")


def jumps(values, square):
    """The squares one jump from ``square`` (the test's own reading of the rules)."""
    rows, cols = values.shape
    r, c = square
    v = int(values[r, c])
    targets = ((r - v, c), (r + v, c), (r, c - v), (r, c + v))
    return [t for t in targets if v and 0 <= t[0] < rows and 0 <= t[1] < cols]


def own_labels(values):
    """The test's own labels: breadth-first distances to the goal over the reversed jumps, then
    the tie keys in order of distance (dicts by square; a square out of reach is left out)."""
    rows, cols = values.shape
    into: dict = {}
    for square in itertools.product(range(rows), range(cols)):
        for target in jumps(values, square):
            into.setdefault(target, []).append(square)
    dist, layer = {(rows - 1, cols - 1): 0}, [(rows - 1, cols - 1)]
    while layer:
        fresh = []
        for target in layer:
            for square in into.get(target, []):
                if square not in dist:
                    dist[square] = dist[target] + 1
                    fresh.append(square)
        layer = fresh
    key: dict = {}
    for square in sorted(dist, key=lambda square: dist[square]):
        closer = [key[t] for t in jumps(values, square) if dist.get(t) == dist[square] - 1]
        key[square] = int(values[square]) if dist[square] == 2 else min(closer) if dist[square] > 2 else -1
    return dist, key


@pytest.mark.parametrize("shape", [(1, 60), (60, 1), (30, 30), (12, 50), (45, 8), (2, 30), (3, 3)])
def test_the_labels_of_the_starts_are_those_of_the_own_search(shape):
    """Every cell's rounds and tie key, each cell a start, from the search from both ends equal
    the test's own breadth-first labels, on boards where the two ends meet at any layer (thin
    and square, small and large jumps, stuck cells, cells out of reach, the goal itself)."""
    rng = np.random.default_rng(sum(shape))
    rows, cols = shape
    for trial in range(12):
        high = int(rng.integers(1, max(rows, cols) // (1 + trial % 3) + 1))
        values = rng.integers(0, high + 1, size=shape).astype(np.int64)
        every = list(itertools.product(range(rows), range(cols)))
        rounds, keys = labels(JumpInstance(values, ()), every)
        dist, key = own_labels(values)
        assert rounds.tolist() == [dist.get(s, -1) for s in every]
        assert keys.tolist() == [key.get(s, -1) for s in every]


def game_40():
    """A 40 x 40 game whose players arrive in different rounds, and the answer of ``bfs-player``."""
    rng = np.random.default_rng(7)
    values = rng.integers(0, 9, size=(40, 40)).astype(np.int64)
    game = JumpInstance(values, ((0, 0), (0, 39), (39, 0), (20, 20), (5, 30)))
    return game, bfs_player(game)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("winner", "could do better|beats"),
        ("row rounds", "labels prove"),
        ("row key", "labels prove"),
        ("row never", "reported never"),
        ("nobody", "can reach the goal"),
    ],
)
def test_the_search_from_both_ends_refuses_wrong_claims(change, words):
    """Without labels attached (the per-player method's answer), the checker's own search from
    both ends refuses a runner-up named winner, a row's round or key moved, a reachable
    player reported never to arrive, and a game claimed without a winner."""
    game, result = game_40()
    assert check(game, result).certified
    solution = copy.deepcopy(result.solution)
    table = solution["players"]
    order = sorted(range(len(table)), key=lambda p: (table[p]["rounds"] is None, table[p]["rounds"] or 0, p))
    runner = table[order[1]]
    assert runner["rounds"] is not None and runner["rounds"] > 2
    if change == "winner":
        solution.update(
            winner=runner["player"], round=runner["rounds"], key=runner["key"], path=runner["path"]
        )
        result = result.with_(objective=runner["rounds"], bound=runner["rounds"])
    elif change == "row rounds":
        runner.update(rounds=runner["rounds"] + 1, path=None)
    elif change == "row key":
        runner.update(key=runner["key"] + 1, path=None)
    elif change == "row never":
        runner.update(rounds=None, key=None, path=None)
    else:
        solution.update(winner=None, round=None, key=None, path=None)
        result = result.with_(status=Status.INFEASIBLE, objective=None, bound=None)
    with pytest.raises(CheckFailed, match=words):
        check(game, result.with_(solution=solution))


def test_a_goal_out_of_reach_is_certified_and_a_winner_refused():
    """Nobody can reach a goal that no cell jumps onto: the answer without a winner is
    certified by the checker's own search, a winner named with a made-up path is refused."""
    values = np.full((6, 7), 2, dtype=np.int64)
    values[-1, :] = values[:, -1] = 0  # the last row and column stuck: nothing jumps onto the goal
    values[-3, -1] = values[-1, -3] = 3  # they jump past it
    game = JumpInstance(values, ((0, 0), (5, 4)))
    result = bfs_player(game)
    assert result.status is Status.INFEASIBLE
    assert check(game, result).certified
    forged = {
        **result.solution,
        "winner": "A",
        "round": 3,
        "key": 2,
        "path": [[0, 0], [2, 0], [4, 0], [5, 6]],
    }
    claim = result.with_(status=Status.OPTIMAL, objective=3, bound=3, solution=forged)
    with pytest.raises(CheckFailed, match=r"not a jump|reach"):
        check(game, claim)


def test_a_short_path_replayed_in_python_agrees_with_the_compiled_replay():
    """replay reads a short list of [int, int] lists in plain Python and any other path (here
    the same squares as an array) with the compiled kernel: the same rounds and key, or the
    same words, on random boards and walks, legal or with one fault."""
    from knightcert.problems.checkers.jump import replay

    def verdict(game, path):
        try:
            return replay(game, 0, path)
        except CheckFailed as exc:
            return str(exc)

    rng, accepted, faults = np.random.default_rng(49), 0, set()
    for _ in range(800):
        rows, cols = (int(x) for x in rng.integers(1, 7, size=2))
        values = rng.integers(0, 5, size=(rows, cols))
        walk = [[int(rng.integers(rows)), int(rng.integers(cols))]]
        start = (walk[0][0], walk[0][1]) if rng.random() < 0.9 else (0, 0)
        targets = [[int(rng.integers(rows)), -1], [-1, int(rng.integers(cols))]] * int(rng.integers(0, 3))
        for target in [*targets, [-1, cols - 1], [rows - 1, -1]]:
            r, c = walk[-1]  # a jump along the column (-1: this column) or the row, the goal's last
            target = [r if target[0] < 0 else target[0], c if target[1] < 0 else target[1]]
            if target != walk[-1]:
                values[r, c] = abs(target[0] - r) + abs(target[1] - c)  # the cell's value: this jump
                walk.append(target)
        fault = int(rng.integers(5))  # 0, 4: as walked (a cell met twice may break its first jump)
        k = int(rng.integers(len(walk)))
        if fault == 1:
            walk[k] = [walk[k][0] + int(rng.choice([-1, 1])), walk[k][1]]
        elif fault == 2:
            walk.insert(k, [rows - 1, cols - 1])  # the goal before the end
        elif fault == 3:
            walk.append([rows - 1, cols - 1])  # ends at the goal, the last round any
        game = JumpInstance(values, (start,))
        as_array = np.array(walk, dtype=np.int64).reshape(-1, 2)  # never read in plain Python
        fast, compiled = verdict(game, walk), verdict(game, as_array)
        assert fast == compiled, (values.tolist(), walk)
        accepted += isinstance(fast, tuple)
        faults.add(fast.split(" ", 2)[2][:12] if isinstance(fast, str) else "ok")
    assert accepted > 100 and {"ok", "path does no", "path reaches", "round 1: (0,"} <= faults, faults


def test_a_winners_walk_that_stops_short_of_the_goal_is_refused():
    """Three legal jumps of key 1 ending on (1, 1), not the goal (2, 2): the plain-Python replay
    of short paths asks for the goal as the compiled one does."""
    from knightcert.problems.checkers import certify
    from knightcert.problems.result import Result

    instance = JumpInstance(np.array([[2, 1, 1], [1, 1, 1], [1, 1, 0]]), ((0, 0), (0, 1)), "t")
    short = {"winner": "A", "round": 3, "key": 1, "path": [[0, 0], [2, 0], [2, 1], [1, 1]]}
    answer = certify(instance, Result("jump", "forger", Status.OPTIMAL, 3, 3, short, 0.0))
    assert not answer.verified and "does not end at the goal" in answer.info["check_error"]
