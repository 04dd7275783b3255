"""Generate the base pieces that ``knightcert.heuristics.tour_construct`` builds tours from.

A *piece* is a small ``h x w`` board covered by one closed tour, one open
path, or one or two *lanes* (paths whose ends are fixed *ports* next to the
piece's left and right borders). Every piece is found by a CP-SAT circuit
model (``AddCircuit``) with the moves the construction needs forced:

``closed`` / ``open`` pieces (sides 5 to 11)
    A closed tour (or, on odd x odd pieces, an open path with free ends) that
    contains the four *join moves* of :func:`join_moves`: one near each
    border. Two pieces side by side are merged by exchanging the two moves
    that face each other for two crossing knight moves (:data:`H_JOIN`,
    :data:`V_JOIN`); a cycle and a cycle give a cycle, a path and a cycle a
    path with the same ends.
``lane`` pieces (3 and 4 rows)
    No two-move exchange fits in fewer than four rows (found by exhaustive
    search), so narrow strips are chained instead: each piece covers its
    squares with one lane (open strips) or two lanes (closed 3-row strips),
    and the exit port of one piece is a knight move from the entry port of
    the next one.

Every piece is verified by the tests. Regenerate with::

    python -m knightcert.models.structured_tours
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path

from knightcert.models.cpsat_solve import solve_cpsat
from knightcert.problems.board import Board
from knightcert.problems.moves import knight_arcs
from knightcert.problems.result import Status
from ortools.sat.python import cp_model

DATA_FILE = Path(__file__).resolve().parents[1] / "heuristics" / "data" / "structured_tours.json"

#: Row of the horizontal join pattern and column of the vertical one, inside each piece.
JOIN_OFFSET = 1
#: Sides of the closed and open pieces.
BLOCK_SIDES = tuple(range(5, 12))
#: Widths of the lane pieces of 3- and 4-row strips.
LANE_WIDTHS = tuple(range(4, 13))

Square = tuple[int, int]
Move = tuple[Square, Square]


def join_moves(h: int, w: int, offset: int = JOIN_OFFSET) -> dict[str, Move]:
    """The four join moves every closed/open piece contains, by the side they face.

    Horizontal join (left piece L, right piece R, same rows): L's ``right``
    move ``(o, w-2)-(o+2, w-1)`` and R's ``left`` move ``(o+1, 0)-(o+3, 1)``
    are replaced by ``L(o, w-2)-R(o+1, 0)`` and ``L(o+2, w-1)-R(o+3, 1)``.
    The vertical join is its transpose.
    """
    o = offset
    return {
        "right": ((o, w - 2), (o + 2, w - 1)),
        "left": ((o + 1, 0), (o + 3, 1)),
        "bottom": ((h - 2, o), (h - 1, o + 2)),
        "top": ((0, o + 1), (1, o + 3)),
    }


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


#: Ports of the lane pieces, by strip height: lane A enters at ``a_in`` (column 0 side)
#: and leaves at ``a_out`` (right side, relative to the right border); lane B runs the
#: other way. ``a_out`` of one piece is a knight move from ``a_in`` of the next.
LANE_PORTS = {
    3: {"a_in": (0, 0), "a_out": (2, -1), "b_in": (2, -2), "b_out": (1, 0)},
    4: {"a_in": (3, 0), "a_out": (1, -1), "b_in": (2, -1), "b_out": (0, 0)},
}
#: Lane pieces: kind -> lanes as (entry port, exit port), None for a free end.
#: ``head``/``middle``/``tail`` chain one lane (open 3-row strips); ``left``/``middle2``/``right``
#: two lanes that turn round in the end pieces (closed 3-row strips); ``ends`` is a left end
#: piece holding both free ends of the tour (4-row strips: ``ends``, ``middle2``..., ``right``).
LANE_KINDS = {
    "head": ((None, "a_out"),),
    "middle": (("a_in", "a_out"),),
    "tail": (("a_in", None),),
    "left": (("b_in", "a_out"),),
    "middle2": (("a_in", "a_out"), ("b_in", "b_out")),
    "right": (("a_in", "b_out"),),
    "ends": ((None, "a_out"), ("b_in", None)),
}
#: Lane kinds generated for each strip height.
STRIP_KINDS = {3: ("head", "middle", "tail", "left", "middle2", "right"), 4: ("ends", "middle2", "right")}


def _port(square: tuple[int, int], w: int) -> Square:
    r, c = square
    return (r, c if c >= 0 else w + c)


def lane_piece(h: int, w: int, kind: str, seed: int = 0) -> list[list[int]] | None:
    """One lane piece of a ``h``-row strip (see :data:`LANE_KINDS`), or None if there is none."""
    ports = LANE_PORTS[h]
    lanes = [
        tuple(None if name is None else [_port(ports[name], w)] for name in lane) for lane in LANE_KINDS[kind]
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
