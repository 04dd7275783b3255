"""Boards without a tour that no separator shows: a search on small random boards.

Draws random boards (3-5 rows, 3-6 columns, holes, plain or torus, closed or open tours,
4 to 14 usable squares); keeps those the checker's other arguments leave
(:func:`knightcert.problems.checkers.tour.argument_against` says nothing) and the test
oracle's brute force finds no tour on; tries *every* set of squares as a separator
(:func:`~knightcert.problems.checkers.tour_separator.separator_verdict`). Prints how many
boards it examined and every board no separator shows (none means the separator rules,
with the checker's arguments, decide every small board drawn).

Run from the repository root:

    python bench/bench_separator_gaps.py --seed 2 --draws 4000
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from knightcert.problems.board import Board  # noqa: E402
from knightcert.problems.checkers.tour import argument_against  # noqa: E402
from knightcert.problems.checkers.tour_separator import separator_verdict  # noqa: E402
from knightcert.problems.moves import knight_neighbours  # noqa: E402
from knightcert.problems.tours import TourInstance  # noqa: E402
from tests import oracle  # noqa: E402


def shown(instance: TourInstance) -> bool:
    """Whether some set of usable squares proves that no tour exists (all sets tried)."""
    usable = np.flatnonzero(instance.board.free.reshape(-1)).tolist()
    nb = knight_neighbours(instance.board)
    for k in range(len(usable) + 1):
        for removed in itertools.combinations(usable, k):
            if separator_verdict(instance, np.array(removed, dtype=np.int64), nb).proves:
                return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--draws", type=int, default=4000)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    examined = missed = 0
    for _ in range(args.draws):
        rows, cols = int(rng.integers(3, 6)), int(rng.integers(3, 7))
        blocked = rng.random((rows, cols)) < rng.uniform(0.1, 0.5)
        torus, closed = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
        n = int((~blocked).sum())
        if not 4 <= n <= 14:
            continue
        instance = TourInstance(Board(rows, cols, blocked, torus), closed=closed)
        if argument_against(instance) is not None:
            continue
        if oracle.tour_exists(oracle.tour_board(blocked, torus, closed)):
            continue
        examined += 1
        if not shown(instance):
            missed += 1
            kind = ("closed" if closed else "open") + (" torus" if torus else "")
            print(f"no separator shows it ({kind}, {n} squares):")
            print("\n".join("".join("x" if v else "." for v in row) for row in blocked) + "\n")
    print(f"seed {args.seed}: {examined} boards without a tour examined, {missed} that no separator shows")


if __name__ == "__main__":
    main()
