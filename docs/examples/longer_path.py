#!/usr/bin/env python3
"""An external program as a lost-knight method: reads the board file named by its last
argument and prints one answer JSON. Deliberately not the shortest: it walks a shortest
path found by breadth-first search, after a detour to a neighbour of C and back (two
moves more). Used by docs/your-own-method.md; any language works the same way."""

import json
import sys
from collections import deque

with open(sys.argv[-1]) as board:
    rows = [line.rstrip("\n") for line in board if line.strip()]
R, C = len(rows), len(rows[0])
start = next((r, c) for r in range(R) for c in range(C) if rows[r][c] == "C")
goal = next((r, c) for r in range(R) for c in range(C) if rows[r][c] == "S")
MOVES = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def neighbours(square):
    for dr, dc in MOVES:
        r, c = (square[0] + dr) % R, (square[1] + dc) % C  # the board wraps on both axes
        if rows[r][c] != "x":
            yield (r, c)


previous = {start: None}
queue = deque([start])
while queue:
    square = queue.popleft()
    for nxt in neighbours(square):
        if nxt not in previous:
            previous[nxt] = square
            queue.append(nxt)
if goal not in previous:
    print(json.dumps({"status": "UNKNOWN"}))  # it claims nothing it cannot show
    sys.exit(0)
path = [goal]
while previous[path[-1]] is not None:
    path.append(previous[path[-1]])
path.reverse()
detour = next(neighbours(start), None)
if detour is not None:
    path = [start, detour, *path]
answer = {"status": "FEASIBLE", "objective": len(path) - 1, "solution": [list(p) for p in path]}
print(json.dumps(answer))
