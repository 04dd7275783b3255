"""Exact models: CP-SAT (OR-Tools) and python-constraint models of every problem.

Exact combinatorial algorithms (BFS, A*, matching, branch and bound) are in
:mod:`knightcert.algorithms`.
"""

if __name__ != "knightcert.models":  # pragma: no cover - the folder imported under another name
    raise ImportError(f"{__name__} is part of knightcert: import knightcert.models")

