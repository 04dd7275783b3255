"""CaDiCaL alone on the knights formula of an odd torus, with and without balanced lines.

The refutations' sizes behind docs/certificates.md, "Balanced lines": python-sat's
``cadical195`` (no proof written) on the formula the producer refutes
(:func:`knightcert.models.knights_sat.formula_of`: balanced lines, lex-leader clauses along
them), or with ``base`` on the same formula without balanced lines and with lex-leader
clauses over every translation (30 squares). One JSON line per case: its satisfiability,
conflicts (which do not depend on the load) and CPU seconds. Run from the repository root::

    PYTHONPATH=. python bench/bench_balanced_lines.py 11x11:45:bal 11x11:45:base 13x15:77:bal
"""

from __future__ import annotations

import json
import sys
import time

from pysat.solvers import Solver

from knightcert.models.knights_sat import formula_of
from knightcert.problems.board import Board
from knightcert.problems.checkers.knights_cnf import knights_cnf


def main(cases: list[str]) -> int:
    for case in cases:
        size, knights, mode = case.split(":")
        rows, cols = map(int, size.split("x"))
        board = Board(rows, cols, torus=True)
        lex, lines, balanced = formula_of(board)
        if mode == "base":
            lex, balanced = min(30, rows * cols), 0
        _, clauses = knights_cnf(board, int(knights), lex=lex, lines=lines, balanced=balanced)
        solver = Solver(name="cadical195", bootstrap_with=clauses)
        began = time.process_time()
        satisfiable = solver.solve()
        row = {"torus": size, "K": int(knights), "mode": mode, "lex": lex, "lines": lines}
        row |= {"balanced": balanced, "clauses": len(clauses), "sat": satisfiable}
        row |= {"conflicts": solver.accum_stats()["conflicts"], "cpu": round(time.process_time() - began, 1)}
        print(json.dumps(row), flush=True)
        solver.delete()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
