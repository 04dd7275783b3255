"""The harness: run methods on suites of instances, check every answer, measure gaps, report.

Tasks and the isolated runner (:mod:`~knightcert.compare.runner`), the comparison
API (:mod:`~knightcert.compare.comparison`), suites and instances, experiments,
reports and their files, statistics, performance profiles, plots and the demo's
comparison. The command line that drives it is :mod:`knightcert.cli`.
"""

if __name__ != "knightcert.compare":  # pragma: no cover - the folder imported under another name
    raise ImportError(f"{__name__} is part of knightcert: import knightcert.compare")

