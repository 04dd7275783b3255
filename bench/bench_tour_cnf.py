"""Would a clausal (DRAT/LRAT) refutation reach tour non-existence past 256 squares?

Builds a Hamiltonian-cycle CNF of a board (closed tours) and times CaDiCaL 1.9.5
(python-sat) refuting it, on boards that a separator shows to have no closed tour: two
``a x a`` boards two columns apart, joined through one square (``--family gate``) or not at
all (``--family apart``), squares removed to balance the colours so that no counting
argument applies; and on boards that no separator shows to have none (``--family forced``:
a square a move from three squares with two moves each, which a closed tour would all
enter and leave through it).

The formula (the smallest sound one we know without an order on all pairs): a variable per
arc ``u -> v`` (a move between usable squares), exactly one arc out of and into every
square (sequential counters), and positions in unary, ``p(v, i)`` "square v is the i-th
of the cycle": the root square at position 0, every square at some position, and an arc
``u -> v`` into any square but the root carries position ``i`` of ``u`` to ``i + 1`` of
``v`` (none past ``n - 1``). A subtour avoiding the root would need ever larger positions,
so every model is a closed tour. About ``6 n^2`` clauses for ``n`` squares.

Run from the repository root:

    python bench/bench_tour_cnf.py --family gate --sides 4,5,6,7,8 --seconds 120

Prints one Markdown row per board: squares, variables, clauses, conflicts, seconds, and
whether CaDiCaL refuted it within the time (each solve runs in a child process, ended at
the limit).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from knightcert.algorithms.tour_separator import find_separator  # noqa: E402
from knightcert.problems.board import Board  # noqa: E402
from knightcert.problems.checkers.tour import argument_against  # noqa: E402
from knightcert.problems.moves import knight_arcs  # noqa: E402
from knightcert.problems.tours import TourInstance  # noqa: E402


def board(side: int, family: str) -> Board:
    """Two ``side x side`` boards two columns apart, a gate between them for ``gate``, squares of
    the larger colour removed (far from the gate, row by row) until the colours balance; for
    ``forced`` a ``side x side`` board (side even, at least 12) whose square (1, 2) is a move
    from three squares with two moves each, the corner (0, 0), (2, 0) and (0, 4) (four squares
    removed for that, four more of the other colour far away)."""
    if family == "forced":
        blocked = np.zeros((side, side), dtype=bool)
        far = (side - 4, side - 8)
        for square in [(0, 1), (4, 1), (2, 3), (2, 5), *((r, c) for r in far for c in far)]:
            blocked[square] = True
        return Board(side, side, blocked)
    cols = 2 * side + 2
    blocked = np.zeros((side, cols), dtype=bool)
    blocked[:, side : side + 2] = True
    if family == "gate":
        blocked[1, side] = False
    colour = np.add.outer(np.arange(side), np.arange(cols)) % 2
    for r, c in ((r, c) for r in range(side - 1, -1, -1) for c in range(cols - 1, -1, -1)):
        white = int(((colour == 0) & ~blocked).sum())
        black = int(((colour == 1) & ~blocked).sum())
        if white == black:
            break
        if not blocked[r, c] and colour[r, c] == (0 if white > black else 1):
            blocked[r, c] = True
    return Board(side, cols, blocked)


def cnf(b: Board) -> tuple[list[list[int]], int]:
    """The Hamiltonian-cycle formula of the module docstring, and its number of variables."""
    from pysat.card import CardEnc, EncType

    usable = np.flatnonzero(b.free.reshape(-1))
    index = {int(s): k for k, s in enumerate(usable)}
    n = len(usable)
    tails, heads = knight_arcs(b)
    arcs = [(index[int(t)], index[int(h)]) for t, h in zip(tails, heads, strict=True)]
    arc_var = {arc: k + 1 for k, arc in enumerate(arcs)}
    top = len(arcs)

    def position(v: int, i: int) -> int:
        return top + v * n + i + 1

    clauses: list[list[int]] = []
    last = top + n * n
    for v in range(n):
        for group in ([arc_var[a] for a in arcs if a[0] == v], [arc_var[a] for a in arcs if a[1] == v]):
            enc = CardEnc.equals(lits=group, bound=1, top_id=last, encoding=EncType.seqcounter)
            clauses += enc.clauses
            last = max(last, enc.nv)
        clauses.append([position(v, i) for i in range(n)])
    clauses.append([position(0, 0)])
    for (u, v), x in arc_var.items():
        if v == 0:
            continue
        for i in range(n - 1):
            clauses.append([-x, -position(u, i), position(v, i + 1)])
        clauses.append([-x, -position(u, n - 1)])
    return clauses, last


def _solve(clauses: list[list[int]], out: multiprocessing.Queue) -> None:
    from pysat.solvers import Solver

    began = time.perf_counter()
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        answer = solver.solve()
        stats = solver.accum_stats()
    out.put((answer, stats.get("conflicts"), time.perf_counter() - began))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=("gate", "apart", "forced"), default="gate")
    parser.add_argument("--sides", default="4,5,6,7,8")
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args()
    print("| board | squares | variables | clauses | separator | CaDiCaL | conflicts | seconds |")
    print("|---|---:|---:|---:|---|---|---:|---:|")
    for side in (int(s) for s in args.sides.split(",")):
        b = board(side, args.family)
        instance = TourInstance(b, closed=True)
        assert argument_against(instance) is None, "a counting argument applies"
        separator = find_separator(instance)
        clauses, variables = cnf(b)
        out: multiprocessing.Queue = multiprocessing.Queue()
        child = multiprocessing.Process(target=_solve, args=(clauses, out))
        child.start()
        child.join(args.seconds)
        if child.is_alive():
            child.terminate()
            child.join()
            verdict, conflicts, seconds = "undecided", "—", f">{args.seconds:g}"
        else:
            answer, conflicts, spent = out.get()
            verdict, seconds = ("refuted" if answer is False else "a tour?!"), f"{spent:.1f}"
        shown = "none" if separator is None else f"{len(separator)} squares"
        print(
            f"| {args.family} {b.rows} x {b.cols} | {b.n_free} | {variables} | {len(clauses)} | {shown} "
            f"| {verdict} | {conflicts} | {seconds} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
