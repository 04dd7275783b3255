"""Generate the pieces that ``knightcert.heuristics.tour_divide`` builds tours from.

A *piece* is a small ``h x w`` board covered by one closed tour, one open
path, or one to three *lanes* (paths whose ends are fixed *ports* next to
the piece's left and right borders). Every piece is found by a CP-SAT
circuit model (``AddCircuit``) with what the construction needs forced
(geometry in :mod:`knightcert.problems.tour_pieces`):

``closed`` / ``open`` block pieces (sides 5 to 11)
    A closed tour (on odd x odd pieces an open path with free ends) that
    contains the four join moves of
    :func:`~knightcert.problems.tour_pieces.join_moves`.
lane pieces (3 and 4 rows)
    One lane (open 3-row strips) or two lanes (closed 3-row strips, open
    4-row strips) between fixed ports, see
    :data:`~knightcert.problems.tour_pieces.LANE_KINDS`.
plain ``closed`` / ``open`` tours of 3- and 4-row boards up to 12 columns
    Nothing forced: a whole narrow board as one piece.

Pieces that do not exist (CP-SAT proves it) are left out; the construction
only uses what is stored. :func:`solve_piece` is also what the default tour
method calls at run time for a block or strip piece from a given start.
Every stored piece is re-verified by the tests. Regenerate with::

    python -m knightcert.models.structured_tours
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path

from ortools.sat.python import cp_model

from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.board import Board
from knightcert.problems.moves import knight_arcs
from knightcert.problems.result import Status
from knightcert.problems.tour_pieces import (
    BLOCK_SIDES,
    LANE_KINDS,
    LANE_WIDTHS,
    STRIP_KINDS,
    Move,
    Square,
    join_moves,
    port,
)

__all__ = ["DATA_FILE", "generate", "lane_piece", "main", "solve_piece"]

DATA_FILE = Path(__file__).resolve().parents[1] / "heuristics" / "data" / "structured_tours.json"


def solve_piece(
    h: int,
    w: int,
    *,
    forced: Sequence[Move] = (),
    lanes: Sequence[tuple[Sequence[Square] | None, Sequence[Square] | None]] | None = None,
    seed: int = 0,
    time_limit: float = 30.0,
) -> list[list[int]] | None:
    """A cover of the full ``h x w`` board by knight moves, or None if there is none.

    Parameters
    ----------
    forced : sequence of moves
        Moves the cover must use (in either direction).
    lanes : sequence of (entries, exits), optional
        None: one closed tour. Otherwise one path per lane, visited in turn,
        lane ``i`` starting on a square of ``entries`` and ending on one of
        ``exits`` (None: any square).

    Returns
    -------
    list of lists of int or None
        The flat local squares of the closed tour (one list) or of each lane,
        in order; None when CP-SAT proves there is none (or runs out of time).
    """
    board = Board(h, w)
    began = time.perf_counter()
    tails, heads = knight_arcs(board)
    model = cp_model.CpModel()
    step = {(u, v): model.new_bool_var("") for u, v in zip(tails.tolist(), heads.tolist(), strict=True)}
    arcs = [(u, v, var) for (u, v), var in step.items()]
    n = h * w
    all_squares = range(n)
    virtual = {}
    if lanes is not None:
        for i, (entries, exits) in enumerate(lanes):
            here, following = n + i, n + (i + 1) % len(lanes)
            for s in all_squares if entries is None else [board.index(*q) for q in entries]:
                virtual[here, s] = model.new_bool_var("")
            for t in all_squares if exits is None else [board.index(*q) for q in exits]:
                virtual[t, following] = model.new_bool_var("")
        arcs += [(u, v, var) for (u, v), var in virtual.items()]
    model.add_circuit(arcs)
    for a, b in forced:
        u, v = board.index(*a), board.index(*b)
        if (u, v) not in step:
            return None
        model.add(step[u, v] + step[v, u] == 1)
    run = solve_cpsat(model, began=began, time_limit=time_limit, seed=seed, workers=2)
    if run.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return None
    successor = {u: v for (u, v), var in {**step, **virtual}.items() if run.solver.boolean_value(var)}
    if lanes is None:
        order = [0]
        while len(order) < n:
            order.append(successor[order[-1]])
        return [order]
    paths = []
    node = n
    for _ in lanes:
        path = []
        current = successor[node]
        while current < n:
            path.append(current)
            current = successor[current]
        paths.append(path)
        node = current
    return paths


def lane_piece(h: int, w: int, kind: str, seed: int = 0) -> list[list[int]] | None:
    """One lane piece of a ``h``-row strip (see :data:`LANE_KINDS`), or None if there is none."""
    lanes: list[tuple[list[Square] | None, list[Square] | None]] = [
        (None if entry is None else [port(h, w, entry)], None if leave is None else [port(h, w, leave)])
        for entry, leave in LANE_KINDS[kind]
    ]
    return solve_piece(h, w, lanes=lanes, seed=seed)


def generate() -> dict[str, list[list[int]]]:
    """Every piece the construction may use, keyed ``"kind:HxW"``; sizes with none are left out."""
    pieces: dict[str, list[list[int]]] = {}
    for h in BLOCK_SIDES:
        for w in BLOCK_SIDES:
            forced = list(join_moves(h, w).values())
            if h * w % 2 == 0:
                found = solve_piece(h, w, forced=forced)
                kind = "closed"
            else:
                found = solve_piece(h, w, forced=forced, lanes=[(None, None)])
                kind = "open"
            if found is not None:
                pieces[f"{kind}:{h}x{w}"] = found
    for h, kinds in STRIP_KINDS.items():
        for w in LANE_WIDTHS:
            for kind in kinds:
                found = lane_piece(h, w, kind)
                if found is not None:
                    pieces[f"{kind}:{h}x{w}"] = found
            # plain tours of a whole narrow board (one piece, nothing forced)
            found = solve_piece(h, w) if h * w % 2 == 0 and h == 3 else None
            if found is not None:
                pieces[f"closed:{h}x{w}"] = found
            found = solve_piece(h, w, lanes=[(None, None)])
            if found is not None:
                pieces[f"open:{h}x{w}"] = found
    return pieces


def main() -> None:
    pieces = generate()
    DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    DATA_FILE.write_text(json.dumps(pieces, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"wrote {len(pieces)} pieces to {DATA_FILE}")


if __name__ == "__main__":
    main()
