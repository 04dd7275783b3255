"""Dolan–Moré performance profiles of comparison runs.

For a set of problems P (here: the instances of a report) and methods S, the
performance ratio of method s on problem p is its measure divided by the best
measure any method reached on p; a method that did not solve p gets ratio
infinity. The profile of s is the fraction of problems whose ratio is at most
tau, for tau >= 1 (E. D. Dolan and J. J. Moré, *Benchmarking optimization
software with performance profiles*, Math. Program. 91, 2002).

Two measures:

``time``
    The median time over the repeats of a (instance, method); a method solves
    an instance when it gave a checked answer there. Times are clamped below
    at 1 microsecond.
``gap``
    ``1 + gap`` to the best proven value of the instance (the ratio of the
    objective to the optimum for a minimisation); only instances with a
    proven best value take part. This profile reads as: which fraction of
    instances does the method solve within (tau - 1) x 100 % of the optimum.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import numpy as np

from knightcert.compare.harness import Row, grouped
from knightcert.compare.statistics import answered
from knightcert.problems.errors import InvalidInstance

__all__ = ["MEASURES", "MIN_TIME", "performance_ratios", "plot_profiles", "profile"]

MEASURES = ("time", "gap")
MIN_TIME = 1e-6


def performance_ratios(rows: Sequence[Row], measure: str = "time") -> dict[str, np.ndarray]:
    """Method -> its performance ratio on each instance (``inf`` where it did not solve it).

    Examples
    --------
    >>> from knightcert.compare.harness import failed_row
    >>> rows = [failed_row("knights", i, m, "", t) for i, m, t in
    ...         [("a", "x", 1.0), ("a", "y", 2.0), ("b", "x", 3.0), ("b", "y", 1.0)]]
    >>> for row in rows:
    ...     row.status, row.verified = "FEASIBLE", True
    >>> {m: r.tolist() for m, r in performance_ratios(rows).items()}
    {'x': [1.0, 3.0], 'y': [2.0, 1.0]}
    """
    if measure not in MEASURES:
        raise InvalidInstance(f"unknown measure {measure!r}: choose {', '.join(MEASURES)}")
    methods = list(dict.fromkeys(r.method for r in rows))
    instances = list(dict.fromkeys(r.instance for r in rows))
    runs = grouped(rows, lambda row: (row.instance, row.method))
    values = np.full((len(instances), len(methods)), math.inf)
    for i, instance in enumerate(instances):
        for j, method in enumerate(methods):
            mine = runs.get((instance, method), [])
            if measure == "time":
                solved = [max(r.time_s, MIN_TIME) for r in mine if answered(r)]
                if solved and len(solved) == len(mine):
                    values[i, j] = statistics.median(solved)
            else:
                gaps = [r.gap for r in mine if r.gap is not None and answered(r)]
                if gaps and len(gaps) == len(mine):
                    values[i, j] = 1 + statistics.median(gaps)
    if measure == "gap":  # only instances with a proven best value
        values = values[[_has_proven_value([r for r in rows if r.instance == i]) for i in instances]]
    best = values.min(axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):
        ratios = np.where(np.isfinite(best), values / best, math.inf) if measure == "time" else values
    return {method: ratios[:, j] for j, method in enumerate(methods)}


def _has_proven_value(runs: Sequence[Row]) -> bool:
    """A verified optimum, or a heuristic's gap (measured against a known or proven value).

    An exact method's gap alone does not count: it is its distance to its own bound.
    """
    return any((r.status == "OPTIMAL" and r.verified) or (r.gap is not None and not r.exact) for r in runs)


def profile(ratios: np.ndarray, taus: np.ndarray) -> np.ndarray:
    """Fraction of problems with ratio <= tau, for each tau."""
    return np.zeros(len(taus)) if len(ratios) == 0 else (ratios[None, :] <= taus[:, None]).mean(axis=1)


def plot_profiles(
    rows: Sequence[Row], path: str, measures: Sequence[str] = MEASURES, title: str = ""
) -> None:
    """Performance profiles (one panel per measure), saved as PNG.

    Raises
    ------
    KnightcertError
        matplotlib is not installed.
    """
    from knightcert.compare.plots import plain_label, pyplot, save_figure

    plt = pyplot()
    measures = [m for m in measures if m == "time" or any(r.gap is not None for r in rows)]
    figure, axes = plt.subplots(1, len(measures), figsize=(5.5 * len(measures), 4.2), squeeze=False)
    for axis, measure in zip(axes[0], measures, strict=True):
        ratios = performance_ratios(rows, measure)
        finite = np.concatenate([r[np.isfinite(r)] for r in ratios.values()] or [np.ones(1)])
        top = max(float(finite.max()) if len(finite) else 1.0, 1.0 + 1e-3)
        taus = np.geomspace(1, top * 1.05, 400) if measure == "time" else np.linspace(1, top * 1.02, 400)
        for method, r in ratios.items():
            axis.step(taus, profile(r, taus), where="post", label=plain_label(method))
        n = len(next(iter(ratios.values()), []))
        if measure == "time":
            axis.set(xscale="log", xlabel="τ (time / fastest time on the instance)")
        else:
            axis.set(xlabel="τ (1 + gap to the best proven value)")
        axis.set(ylabel="fraction of instances with ratio ≤ τ", ylim=(-0.02, 1.02))
        axis.set_title(plain_label(f"{title}{' ' if title else ''}{measure} profile ({n} instances)"))
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8, loc="lower right")
    figure.tight_layout()
    save_figure(figure, path)
    plt.close(figure)
