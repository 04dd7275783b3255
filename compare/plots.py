"""Standard plots of comparison runs: gap and time against size, with intervals."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from knightcert.compare.harness import Row, grouped
from knightcert.compare.statistics import answered, dimension, gapless, group_stats

__all__ = ["plot_rows", "plot_series", "pyplot", "time_groups"]


def pyplot():
    """``matplotlib.pyplot``, with the file-only Agg backend unless one is chosen already (a
    notebook's inline backend is kept).

    Raises
    ------
    KnightcertError
        matplotlib is not installed.
    """
    try:
        import sys

        import matplotlib

        if "matplotlib.pyplot" not in sys.modules and "ipykernel" not in sys.modules:
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from knightcert.problems.errors import KnightcertError

        raise KnightcertError("plots need matplotlib: pip install 'knightcert[plot]'") from None
    return plt


def plain_label(text: Any) -> str:
    """``text`` shown as written in a figure: a name from a report or a foreign method may hold
    ``$`` (matplotlib's mathtext, where ``$\\frac{$`` fails the whole figure), so each is escaped.

    Examples
    --------
    >>> plain_label("cost $5")
    'cost \\\\$5'
    """
    return str(text).replace("$", r"\$")


def save_figure(figure: Any, path: str | os.PathLike[str]) -> None:
    """Write ``figure`` to ``path`` (format from the ending) through a temporary file created
    exclusively and renamed into place: a link planted at ``path`` is replaced, never followed."""
    from knightcert.problems.output_file import atomic_output

    kind = os.path.splitext(os.fspath(path))[1].lstrip(".").lower() or "png"
    with atomic_output(path, binary=True) as stream:
        figure.savefig(stream, dpi=120, format=kind)


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

    def label(row: Row) -> str:
        return row.method if len(suites) < 2 else f"{row.method} ({dimension(row, 'suite', instances)})"

    return grouped(sized, label)


def time_groups(runs: Sequence[Row]) -> list[Any]:
    """Statistics per size of the runs the time panel draws: those with a checked answer (a run
    refused by the checker, crashed or without an answer is never drawn as the fastest)."""
    return group_stats([r for r in runs if answered(r)], ("size",))


def plot_rows(
    rows: Sequence[Row],
    path: str | os.PathLike[str] | None = None,
    title: str = "",
    instances: Mapping[str, Mapping[str, Any]] | None = None,
):  # -> matplotlib.figure.Figure
    """Gap and time against size, one line per method label (and suite: :func:`plot_series`);
    saved as PNG, PDF or SVG when ``path`` is given, and returned as a matplotlib Figure (a
    notebook shows it; ``path=None`` only returns it).

    Left: mean gap to the best proven value with its 95 % Student-t interval
    over the instances of each size (repeats averaged first); for a problem
    without a gap (tours) or when every gap is 0, the success rate per instance
    instead. Right: median time over instances with the interquartile range as
    bars (log scale), over the runs with a checked answer only: a run refused
    by the checker, crashed or without an answer is not drawn as the fastest.
    """
    plt = pyplot()
    figure, (gap_axis, time_axis) = plt.subplots(1, 2, figsize=(11, 4.2))
    sized = [r for r in rows if r.size is not None]
    # when every gap is 0 (tours: a tour or nothing) the success rate says more
    success_only = gapless(sized) or all(not r.gap for r in sized)
    for method, runs in plot_series(rows, instances).items():
        _draw_gaps(gap_axis, group_stats(runs, ("size",)), success_only, plain_label(method))
        _draw_times(time_axis, time_groups(runs), plain_label(method))
    problem = plain_label(title or (rows[0].problem if rows else ""))
    success = ("runs with a best solution (%)", "success per instance")
    shown = success if success_only else ("gap to best proven value (%)", "mean gap, 95 % t-CI")
    gap_axis.set(xlabel="size", ylabel=shown[0], title=f"{problem}: {shown[1]}")
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
    if path is not None:
        save_figure(figure, path)
    plt.close(figure)  # no pyplot window keeps it; the returned Figure still draws (a notebook shows it)
    return figure


def _draw_gaps(axis: Any, groups: list[Any], success_only: bool, label: str) -> None:
    """One method's line on the gap panel: its success rate per size, or its mean gap (%) with
    the 95 % interval as bars (sizes without a gap left out)."""
    if success_only:
        axis.plot([g.key[0] for g in groups], [100 * g.success for g in groups], marker="o", label=label)
        return
    with_gap = [g for g in groups if g.gap_mean is not None]
    if not with_gap:
        return
    means = np.array([100 * g.gap_mean for g in with_gap])
    ends = np.array([100 * np.array(g.gap_mean_ci or (g.gap_mean, g.gap_mean)) for g in with_gap])
    bars = [means - ends[:, 0], ends[:, 1] - means]
    axis.errorbar([g.key[0] for g in with_gap], means, yerr=bars, marker="o", capsize=3, label=label)


def _draw_times(axis: Any, groups: list[Any], label: str) -> None:
    """One method's line on the time panel: median time per size, the interquartile range as bars."""
    median, q1, q3 = (
        np.maximum([getattr(g, f) for g in groups], 1e-6) for f in ("time_median", "time_q1", "time_q3")
    )
    axis.errorbar(
        [g.key[0] for g in groups],
        median,
        yerr=[median - q1, q3 - median],
        marker="o",
        capsize=3,
        label=label,
    )
