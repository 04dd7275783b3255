"""Fast methods that do not prove: greedy best-first paths, greedy and swap local search for
independent knights, the Warnsdorff family (Warnsdorff, marginality, Roth, CeNPL'02 ``wm(N)``)
and the divide-and-conquer tour construction.

A heuristic never claims ``OPTIMAL`` or ``INFEASIBLE`` unless its answer proves it (a
placement filling every usable square, a search that exhausted every square).
"""

if __name__ != "knightcert.heuristics":  # pragma: no cover - the folder imported under another name
    raise ImportError(f"{__name__} is part of knightcert: import knightcert.heuristics")

