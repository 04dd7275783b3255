"""A random-order greedy for independent knights: a method of your own, in plain Python.

Visit the usable squares in a random order (seeded) and place a knight on each
one that no placed knight attacks. Used by docs/your-own-method.md.
"""

import random

MOVES = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def solve(instance, time_limit=None, seed=None):
    """Answer as an answer dict: status, objective and solution (a list of [row, col])."""
    board = instance.board
    squares = [(r, c) for r in range(board.rows) for c in range(board.cols) if not board.blocked[r, c]]
    random.Random(seed).shuffle(squares)
    placed: set[tuple[int, int]] = set()
    for r, c in squares:
        attacked = False
        for dr, dc in MOVES:
            rr, cc = r + dr, c + dc
            if board.torus:
                rr, cc = rr % board.rows, cc % board.cols
            if (rr, cc) in placed:
                attacked = True
                break
        if not attacked:
            placed.add((r, c))
    return {"status": "FEASIBLE", "objective": len(placed), "solution": sorted([r, c] for r, c in placed)}
