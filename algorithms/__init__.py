"""Exact combinatorial algorithms: breadth-first and A* search, the jump game's searches,
maximum bipartite matching (Kőnig) and seed 002's branch and bound.

Each proves what it returns (an optimum, or that none exists) without a solver;
the compiled (numba) kernels they run live here too. The CP-SAT and
python-constraint models are in :mod:`knightcert.models`; methods that do not
prove are in :mod:`knightcert.heuristics`.
"""

if __name__ != "knightcert.algorithms":  # pragma: no cover - the folder imported under another name
    raise ImportError(f"{__name__} is part of knightcert: import knightcert.algorithms")

