"""Generate the structured closed tours that ``knightcert.heuristics.tour_divide`` starts from.

A closed tour is *structured* here when, at each of its four corners, it uses
the move between the squares at corner-relative positions (0, 1) and (2, 0)
(mirrored to each corner). Every closed tour also uses both moves of each
corner square, (0, 0)-(1, 2) and (0, 0)-(2, 1). Those moves are what the
divide-and-conquer construction cuts and reconnects when it joins four tours.

The tours are found by the CP-SAT circuit model with the four moves forced,
then stored in ``heuristics/data/structured_tours.json``. Regenerate with::

    python -m knightcert.models.structured_tours
"""

from __future__ import annotations

import json
from pathlib import Path

from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.board import Board
from knightcert.problems.errors import KnightcertError
from knightcert.problems.moves import knight_arcs
from knightcert.problems.result import Status
from ortools.sat.python import cp_model

#: Base boards. Transposes are generated too: transposing a tour turns the
#: structured move (0, 1)-(2, 0) into (1, 0)-(0, 2), which is not the same move.
BASE_SIZES = ((6, 6), (6, 8), (8, 6), (8, 8), (8, 10), (10, 8), (10, 10), (10, 12), (12, 10))
DATA_FILE = Path(__file__).resolve().parents[1] / "heuristics" / "data" / "structured_tours.json"


def corner_moves(rows: int, cols: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The forced move (0, 1)-(2, 0) mirrored into each corner of a ``rows x cols`` board."""
    moves = []
    for flip_r in (False, True):
        for flip_c in (False, True):

            def place(r: int, c: int, fr: bool = flip_r, fc: bool = flip_c) -> tuple[int, int]:
                return (rows - 1 - r if fr else r, cols - 1 - c if fc else c)

            moves.append((place(0, 1), place(2, 0)))
    return moves


def structured_tour(rows: int, cols: int, *, seed: int = 0, time_limit: float = 60.0) -> list[int]:
    """A structured closed tour of the full board, as flat square indices in order."""
    import time

    board = Board(rows, cols)
    began = time.perf_counter()
    tails, heads = knight_arcs(board)
    model = cp_model.CpModel()
    step = {
        (u, v): model.new_bool_var(f"s{u}_{v}") for u, v in zip(tails.tolist(), heads.tolist(), strict=True)
    }
    model.add_circuit([(u, v, var) for (u, v), var in step.items()])
    for a, b in corner_moves(rows, cols):
        u, v = board.index(*a), board.index(*b)
        model.add(step[u, v] + step[v, u] == 1)
    run = solve_cpsat(model, began=began, time_limit=time_limit, seed=seed)
    if run.status not in (Status.OPTIMAL, Status.FEASIBLE):
        raise KnightcertError(f"no structured closed tour of {rows} x {cols} found ({run.native_status})")
    successor = {u: v for (u, v), var in step.items() if run.solver.boolean_value(var)}
    tour = [0]
    while len(tour) < rows * cols:
        tour.append(successor[tour[-1]])
    return tour


def main() -> None:
    tours = {f"{r}x{c}": structured_tour(r, c) for r, c in BASE_SIZES}
    DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    DATA_FILE.write_text(json.dumps(tours, separators=(",", ":")) + "\n")
    print(f"wrote {len(tours)} structured tours to {DATA_FILE}")


if __name__ == "__main__":
    main()
