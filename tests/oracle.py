"""An independent oracle for answers: brute force on small instances, in plain Python.

It shares no code with the package (it imports nothing from ``knightcert``): it
reads an instance and an answer as plain data and says whether the answer is
correct and every claim it makes is true. The checker fuzzer
(``tests/problems/test_checker_fuzz.py``) asks it about perturbed answers.

Instances (plain dicts):
    knights: {"rows", "cols", "torus", "blocked": set of (r, c)}
    path:    {"rows", "cols", "blocked", "start": (r, c), "exit": (r, c)}  (always a torus)
    tour:    {"rows", "cols", "torus", "blocked", "closed", "start", "end"}
    jump:    {"values": list of rows, "starts": list of (r, c)}
Answers: {"status", "objective", "bound", "solution"}, as JSON would hold them.
"""

from __future__ import annotations

import itertools
from collections import deque
from functools import cache

JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
STATUSES = ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN")


def moves(inst: dict, square: tuple[int, int], torus: bool) -> set[tuple[int, int]]:
    """Usable squares one knight jump from ``square`` (itself excluded)."""
    rows, cols = inst["rows"], inst["cols"]
    out = set()
    for dr, dc in JUMPS:
        r, c = square[0] + dr, square[1] + dc
        if torus:
            r, c = r % rows, c % cols
        elif not (0 <= r < rows and 0 <= c < cols):
            continue
        if (r, c) != square and (r, c) not in inst["blocked"]:
            out.add((r, c))
    return out


def usable(inst: dict) -> list[tuple[int, int]]:
    return [
        (r, c) for r in range(inst["rows"]) for c in range(inst["cols"]) if (r, c) not in inst["blocked"]
    ]


def is_int(x) -> bool:
    return type(x) is int and x >= 0


def pair(x) -> tuple[int, int] | None:
    if isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x):
        return (x[0], x[1])
    return None


def squares_of(solution) -> list[tuple[int, int]] | None:
    if not isinstance(solution, list):
        return None
    out = [pair(x) for x in solution]
    return None if any(p is None for p in out) else out


def claims_hold(answer: dict, value, optimum, minimise: bool, exists: bool, bound_ok) -> bool:
    """The status rules, given ``value`` (the solution's value, None when it has none or it is
    invalid), the true ``optimum`` and whether any solution ``exists``; ``bound_ok(bound)`` says
    whether a bound is true."""
    status, objective, bound, solution = (answer.get(k) for k in ("status", "objective", "bound", "solution"))
    if status not in STATUSES:
        return False
    if objective is not None and not is_int(objective):
        return False
    if bound is not None and not is_int(bound):
        return False
    if status == "INFEASIBLE":
        return not exists and objective is None and bound is None and solution is None
    if status == "UNKNOWN":
        return solution is None and objective is None and (bound is None or bound_ok(bound))
    if solution is None or objective is None or value is None or objective != value:
        return False
    if status == "OPTIMAL":
        return value == optimum and (bound is None or bound == objective)
    if bound is None:
        return True
    on_side = bound <= objective if minimise else bound >= objective
    return on_side and bound_ok(bound)


# -------------------------------------------------------------------------------- knights


def knights_value(inst: dict, solution) -> int | None:
    squares = squares_of(solution)
    if squares is None or len(set(squares)) != len(squares):
        return None
    taken = set(squares)
    for s in squares:
        if not (0 <= s[0] < inst["rows"] and 0 <= s[1] < inst["cols"]) or s in inst["blocked"]:
            return None
        if moves(inst, s, inst["torus"]) & taken:
            return None
    return len(squares)


def knights_optimum(inst: dict) -> int:
    cells = usable(inst)
    index = {s: i for i, s in enumerate(cells)}
    attacks = [sum(1 << index[t] for t in moves(inst, s, inst["torus"])) for s in cells]

    @cache
    def best(free: int) -> int:
        if not free:
            return 0
        i = (free & -free).bit_length() - 1
        rest = free & ~(1 << i)
        return max(best(rest), 1 + best(rest & ~attacks[i]))

    return best((1 << len(cells)) - 1)


def knights_correct(inst: dict, answer: dict) -> bool:
    optimum = knights_optimum(inst)
    value = None if answer.get("solution") is None else knights_value(inst, answer["solution"])
    return claims_hold(answer, value, optimum, False, True, lambda b: b >= optimum)


# ----------------------------------------------------------------------------------- path


def path_distance(inst: dict) -> int | None:
    start, goal = inst["start"], inst["exit"]
    dist = {start: 0}
    queue = deque([start])
    while queue:
        u = queue.popleft()
        if u == goal:
            return dist[u]
        for v in moves(inst, u, True):
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return None


def path_value(inst: dict, solution) -> int | None:
    squares = squares_of(solution)
    if not squares or squares[0] != inst["start"] or squares[-1] != inst["exit"]:
        return None
    for s in squares:
        if not (0 <= s[0] < inst["rows"] and 0 <= s[1] < inst["cols"]) or s in inst["blocked"]:
            return None
    for a, b in itertools.pairwise(squares):
        if b not in moves(inst, a, True):
            return None
    return len(squares) - 1


def path_correct(inst: dict, answer: dict) -> bool:
    distance = path_distance(inst)
    value = None if answer.get("solution") is None else path_value(inst, answer["solution"])
    exists = distance is not None
    # a lower bound on a goal never reached holds vacuously (the optimum is infinite)
    return claims_hold(answer, value, distance, True, exists, lambda b: not exists or b <= distance)


# ----------------------------------------------------------------------------------- tour


def tour_value(inst: dict, solution) -> int | None:
    squares = squares_of(solution)
    cells = usable(inst)
    if squares is None or sorted(squares) != sorted(cells) or len(set(squares)) != len(squares):
        return None
    for a, b in itertools.pairwise(squares):
        if b not in moves(inst, a, inst["torus"]):
            return None
    if inst["closed"] and (len(squares) < 3 or squares[0] not in moves(inst, squares[-1], inst["torus"])):
        return None
    if inst["start"] is not None and squares[0] != inst["start"]:
        return None
    if inst["end"] is not None and squares[-1] != inst["end"]:
        return None
    return len(squares)


def tour_board(blocked, torus: bool, closed: bool = False, start=None, end=None) -> dict:
    """A tour instance from a grid of booleans (True: removed; lists or an array, read by index)."""
    rows, cols = len(blocked), len(blocked[0])
    taken = {(r, c) for r in range(rows) for c in range(cols) if blocked[r][c]}
    return {
        "rows": rows,
        "cols": cols,
        "torus": torus,
        "blocked": taken,
        "closed": closed,
        "start": start,
        "end": end,
    }


def tour_exists(inst: dict) -> bool:
    cells = usable(inst)
    n = len(cells)
    if n == 0:
        return False
    near = {s: moves(inst, s, inst["torus"]) for s in cells}

    def extend(path: list, seen: set) -> bool:
        if len(path) == n:
            if inst["end"] is not None and path[-1] != inst["end"]:
                return False
            return not inst["closed"] or (n >= 3 and path[0] in near[path[-1]])
        for nxt in near[path[-1]]:
            if nxt not in seen and (nxt != inst["end"] or len(path) == n - 1):
                seen.add(nxt)
                path.append(nxt)
                if extend(path, seen):
                    return True
                path.pop()
                seen.discard(nxt)
        return False

    starts = [inst["start"]] if inst["start"] is not None else cells
    return any(extend([s], {s}) for s in starts if s in near)


def tour_correct(inst: dict, answer: dict) -> bool:
    n = len(usable(inst))
    exists = tour_exists(inst)
    value = None if answer.get("solution") is None else tour_value(inst, answer["solution"])
    return claims_hold(answer, value, n, False, exists, lambda b: b == n)


# ----------------------------------------------------------------------------------- jump


def jump_name(index: int) -> str:
    name, index = "", index + 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def jump_targets(values: list, cell: tuple[int, int]) -> list[tuple[int, int]]:
    rows, cols = len(values), len(values[0])
    v = values[cell[0]][cell[1]]
    if v <= 0:
        return []
    out = []
    for dr, dc in ((-v, 0), (v, 0), (0, -v), (0, v)):
        r, c = cell[0] + dr, cell[1] + dc
        if 0 <= r < rows and 0 <= c < cols:
            out.append((r, c))
    return out


def jump_best(inst: dict) -> list[tuple]:
    """Each player's (rounds, key, index): fewest jumps to the last cell, then the smallest
    value jumped from in the round before the last (-1 with fewer than two jumps)."""
    values = inst["values"]
    rows, cols = len(values), len(values[0])
    goal = (rows - 1, cols - 1)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    dist = {goal: 0}
    changed = True
    while changed:  # Bellman-Ford style relaxation: tiny boards only
        changed = False
        for cell in cells:
            if cell == goal:
                continue
            options = [dist[t] + 1 for t in jump_targets(values, cell) if t in dist]
            if options and (cell not in dist or min(options) < dist[cell]):
                dist[cell] = min(options)
                changed = True
    key: dict = {}
    for cell in sorted((c for c in dist if dist[c] >= 2), key=lambda c: dist[c]):
        if dist[cell] == 2:
            key[cell] = values[cell[0]][cell[1]]
        else:
            key[cell] = min(key[t] for t in jump_targets(values, cell) if dist.get(t) == dist[cell] - 1)
    out = []
    for i, start in enumerate(inst["starts"]):
        if start not in dist:
            out.append((float("inf"), 0, i))
        else:
            out.append((dist[start], key.get(start, -1), i))
    return out


def jump_correct(inst: dict, answer: dict) -> bool:
    ranking = jump_best(inst)
    best = min(ranking) if ranking else (float("inf"), 0, -1)
    exists = best[0] != float("inf")
    solution = answer.get("solution")
    status = answer.get("status")
    if status == "INFEASIBLE":
        if exists or answer.get("objective") is not None or answer.get("bound") is not None:
            return False
        fields = ("winner", "round", "key", "path")
        return solution is None or (  # a table without a winner: nothing in it
            isinstance(solution, dict) and all(solution.get(k) is None for k in fields)
        )
    value = None
    if isinstance(solution, dict) and exists:
        value = _jump_winner_value(inst, solution, ranking, best)
    return claims_hold(
        answer, value, best[0] if exists else None, True, exists, lambda b: not exists or b <= best[0]
    )


def _jump_winner_value(inst: dict, solution: dict, ranking: list, best: tuple) -> int | None:
    names = [jump_name(i) for i in range(len(inst["starts"]))]
    winner = solution.get("winner")
    if winner not in names or names.index(winner) != best[2]:
        return None
    path = squares_of(solution.get("path"))
    values = inst["values"]
    goal = (len(values) - 1, len(values[0]) - 1)
    if not path or path[0] != tuple(inst["starts"][best[2]]) or path[-1] != goal or goal in path[:-1]:
        return None
    for a, b in itertools.pairwise(path):
        if b not in jump_targets(values, a):
            return None
    rounds = len(path) - 1
    key = values[path[rounds - 2][0]][path[rounds - 2][1]] if rounds >= 2 else None
    if (rounds, -1 if key is None else key) != best[:2]:
        return None
    stated_key = solution.get("key")
    if not (is_int(solution.get("round")) and solution["round"] == rounds):
        return None
    if not ((stated_key is None and key is None) or (is_int(stated_key) and stated_key == key)):
        return None
    return rounds


CORRECT = {"knights": knights_correct, "path": path_correct, "tour": tour_correct, "jump": jump_correct}
