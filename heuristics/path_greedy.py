"""Greedy best-first search for the lost knight (a heuristic).

It runs the exact A* engine of :mod:`knightcert.algorithms.path_search` with no
weight on the moves made, so it stops at the first path found.
"""

from __future__ import annotations

from knightcert.algorithms.path_search import best_first
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.method import method
from knightcert.problems.result import Result

__all__ = ["greedy"]


@method("path", "greedy")
def greedy(
    instance: LostKnightInstance, *, time_limit: float | None = None, seed: int | None = None
) -> Result:
    """Greedy best-first search on the same bound as A* (heuristic).

    Always expands the square that looks closest to S and stops at the first
    path found, so the path may be longer than the optimum: status
    ``FEASIBLE``. When the search exhausts the reachable squares without
    meeting S, that is a proof: status ``INFEASIBLE``.
    """
    return best_first(instance, weight_g=0, name="greedy")
