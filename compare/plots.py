"""Standard plots of comparison runs: gap and time against size, with intervals."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from knightcert.compare.harness import Row
from knightcert.compare.statistics import answered, dimension, group_stats

__all__ = ["plot_rows", "plot_series", "pyplot", "time_groups"]


def pyplot():
    """``matplotlib.pyplot`` with the file-only Agg backend.

    Raises
    ------
    KnightcertError
        matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from knightcert.problems.errors import KnightcertError

        raise KnightcertError("plots need matplotlib: pip install 'knightcert[plot]'") from None
    return plt


def plot_series(
    rows: Sequence[Row], instances: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, list[Row]]:
    """The runs of each line of the plots: one per method, and per suite when the runs come
    from more than one (``"greedy (random)"``): sizes of two suites are never joined.

    ``instances`` are the report's instance records by name
    (:func:`~knightcert.compare.statistics.instance_dimensions`). Runs without a size are left out.
    """
    sized = [r for r in rows if r.size is not None]
    suites = {dimension(r, "suite", instances) for r in sized}
    series: dict[str, list[Row]] = {}
    for row in sized:
        label = row.method if len(suites) < 2 else f"{row.method} ({dimension(row, 'suite', instances)})"
        series.setdefault(label, []).append(row)
    return series


def time_groups(runs: Sequence[Row]) -> list[Any]:
    """Statistics per size of the runs the time panel draws: those with a checked answer (a run
    refused by the checker, crashed or without an answer is never drawn as the fastest)."""
    return group_stats([r for r in runs if answered(r)], ("size",))


def plot_rows(
    rows: Sequence[Row],
    path: str | os.PathLike[str],
    title: str = "",
    instances: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """Gap and time against size, one line per method (and suite: :func:`plot_series`), saved
    as PNG, PDF or SVG.

    Left: mean gap to the best proven value with its 95 % bootstrap interval
    over the instances of each size (repeats averaged first); when every gap is
    0, the success rate instead. Right: median time with the interquartile range
    as bars (log scale), over the runs with a checked answer only: a run refused
    by the checker, crashed or without an answer is not drawn as the fastest.
    """
    plt = pyplot()
    figure, (gap_axis, time_axis) = plt.subplots(1, 2, figsize=(11, 4.2))
    sized = [r for r in rows if r.size is not None]
    # when every gap is 0 (tours: a tour or nothing) the success rate says more
    success_only = all(not r.gap for r in sized)
    for method, runs in plot_series(rows, instances).items():
        groups = group_stats(runs, ("size",))
        with_gap = [g for g in groups if g.gap_mean is not None]
        gap_means = [g.gap_mean for g in groups if g.gap_mean is not None]
        if success_only:
            gap_axis.plot(
                [g.key[0] for g in groups], [100 * g.success for g in groups], marker="o", label=method
            )
        elif with_gap:
            means = [100 * mean for mean in gap_means]
            low = [
                m - 100 * (g.gap_mean_ci or (mean,) * 2)[0]
                for m, mean, g in zip(means, gap_means, with_gap, strict=True)
            ]
            high = [
                100 * (g.gap_mean_ci or (mean,) * 2)[1] - m
                for m, mean, g in zip(means, gap_means, with_gap, strict=True)
            ]
            gap_axis.errorbar(
                [g.key[0] for g in with_gap], means, yerr=[low, high], marker="o", capsize=3, label=method
            )
        groups = time_groups(runs)
        medians = [max(g.time_median, 1e-6) for g in groups]
        time_axis.errorbar(
            [g.key[0] for g in groups],
            medians,
            yerr=[
                [m - max(g.time_q1, 1e-6) for m, g in zip(medians, groups, strict=True)],
                [max(g.time_q3, 1e-6) - m for m, g in zip(medians, groups, strict=True)],
            ],
            marker="o",
            capsize=3,
            label=method,
        )
    problem = title or (rows[0].problem if rows else "")
    if success_only:
        gap_axis.set(xlabel="size", ylabel="runs reaching the optimum (%)", title=f"{problem}: success rate")
    else:
        gap_axis.set(
            xlabel="size", ylabel="gap to best proven value (%)", title=f"{problem}: mean gap, 95 % CI"
        )
    time_axis.set(
        xlabel="size", ylabel="time (s)", yscale="log", title=f"{problem}: median time of answers, IQR"
    )
    sizes = [r.size for r in sized if r.size is not None]
    wide = bool(sizes) and min(sizes) > 0 and max(sizes) >= 8 * min(sizes)
    for axis in (gap_axis, time_axis):
        if wide:
            axis.set_xscale("log")
        axis.grid(alpha=0.3)
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
