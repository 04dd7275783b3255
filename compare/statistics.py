"""Statistics of comparison runs, per group (by default per size and method).

The unit of sampling is the **instance**, not the run: repeats of a method on
one instance are not independent samples (a deterministic method repeats the
same answer), so they are averaged within the instance first and the
intervals resample instances. For each group of runs:

``runs``
    Number of runs (every repeat and every seed).
``instances``, ``repeats``
    Distinct instances in the group and the largest number of runs of one of them.
``answered``
    Runs with a checked answer (``OPTIMAL``, ``FEASIBLE`` or ``INFEASIBLE`` and verified).
``certified``
    Runs whose claims are all independently certified (``Row.certified``).
``success``
    Fraction of runs that reached the best proven value of their instance
    (gap 0; for an exact method: proved its answer optimal).
``gaps``
    Runs with a gap: a checked answer on an instance with a proven best value.
``gap``
    Mean and median over the instances of each instance's mean gap to the best
    proven value (its repeats averaged), each with a 95 % bootstrap confidence
    interval that resamples instances (``scipy.stats.bootstrap``, BCa, 2000
    resamples, fixed seed 0: the same rows always give the same interval).
``time``
    Median and interquartile range (25th, 75th percentile) of the time of all
    runs, failed ones included (a killed run counts with its wall-clock time).
``peak_mb``
    Largest peak memory of the group.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from knightcert.compare.harness import Row
from knightcert.problems.errors import InvalidInstance

__all__ = [
    "ANSWERS",
    "BOOTSTRAP_RESAMPLES",
    "BOOTSTRAP_SEED",
    "COLUMNS",
    "GROUP_FIELDS",
    "INSTANCE_FIELDS",
    "READABLE_HEADERS",
    "ROW_FIELDS",
    "GroupStats",
    "answered",
    "bootstrap_ci",
    "default_by",
    "dimension",
    "group_stats",
    "instance_dimensions",
    "instance_means",
    "parse_by",
    "raw_values",
    "readable",
    "seconds",
    "stats_table",
]

#: Fields of a run (``Row``) that group runs.
ROW_FIELDS = ("problem", "instance", "method", "size", "status", "repeat")
#: Experiment dimensions read from the report's instance records: the suite, the fraction of
#: holes and the generator seed the instance comes from (``None`` where they do not apply).
INSTANCE_FIELDS = ("suite", "holes", "seed")
GROUP_FIELDS = (*ROW_FIELDS, *INSTANCE_FIELDS)
#: Resamples and seed of the bootstrap intervals.
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0
ANSWERS = ("OPTIMAL", "FEASIBLE", "INFEASIBLE")


@dataclass(frozen=True)
class GroupStats:
    """The statistics of one group of runs (see the module documentation)."""

    key: tuple
    runs: int
    instances: int
    repeats: int
    answered: int
    certified: int
    success: float
    gaps: int
    gap_mean: float | None
    gap_mean_ci: tuple[float, float] | None
    gap_median: float | None
    gap_median_ci: tuple[float, float] | None
    time_median: float
    time_q1: float
    time_q3: float
    peak_mb: float | None


def answered(row: Row) -> bool:
    """A checked answer (an exact method's timed-out ``FEASIBLE`` included)."""
    return row.verified and row.status in ANSWERS


def parse_by(text: str) -> tuple[str, ...]:
    """``size,method`` -> ``("size", "method")``.

    Raises
    ------
    InvalidInstance
        An unknown field.
    """
    fields = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [f for f in fields if f not in GROUP_FIELDS]
    if not fields or unknown:
        raise InvalidInstance(f"--by takes fields among {', '.join(GROUP_FIELDS)}, got {text!r}")
    return fields


def default_by(rows: Sequence[Row]) -> tuple[str, ...]:
    """``size, method`` when every run has a size, else ``instance, method``."""
    return ("size", "method") if rows and all(r.size is not None for r in rows) else ("instance", "method")


def dimension(row: Row, name: str, instances: Mapping[str, Mapping[str, Any]] | None = None) -> Any:
    """The value of the grouping field ``name`` for ``row``: a field of the run, or an experiment
    dimension of its instance (``suite``, ``holes``, ``seed`` = generator seed) from the report's
    instance records ``instances`` (by instance name; ``None`` when unknown)."""
    if name in ROW_FIELDS:
        return getattr(row, name)
    record = (instances or {}).get(row.instance) or {}
    return record.get("generator_seed" if name == "seed" else name)


def instance_dimensions(header: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The instance records of a report header by instance name (for :func:`dimension`)."""
    return {str(r.get("name")): dict(r) for r in header.get("instances") or [] if isinstance(r, Mapping)}


def group_stats(
    rows: Sequence[Row],
    by: Sequence[str] = ("size", "method"),
    instances: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[GroupStats]:
    """Statistics per group of rows, groups in order of their fields (methods in order of appearance).

    ``instances`` are the report's instance records by name (:func:`instance_dimensions`), needed
    to group by ``suite``, ``holes`` or ``seed``.

    Examples
    --------
    >>> from knightcert.compare.harness import failed_row
    >>> rows = [failed_row("knights", f"i{k}", "greedy", "", 0.01 * (k + 1)) for k in range(4)]
    >>> for k, row in enumerate(rows):
    ...     row.status, row.verified, row.gap, row.size = "FEASIBLE", True, [0.0, 0.1, 0.0, 0.3][k], 10
    >>> [stats] = group_stats(rows)
    >>> stats.runs, stats.instances, stats.answered, stats.success, round(stats.gap_mean, 3)
    (4, 4, 4, 0.5, 0.1)
    """
    for name in by:
        if name not in GROUP_FIELDS:
            raise InvalidInstance(f"cannot group by {name!r}: choose among {', '.join(GROUP_FIELDS)}")
    firsts: dict[str, dict[object, int]] = {name: {} for name in by}
    groups: dict[tuple, list[Row]] = {}
    for row in rows:
        key = tuple(dimension(row, name, instances) for name in by)
        for name, value in zip(by, key, strict=True):
            firsts[name].setdefault(value, len(firsts[name]))
        groups.setdefault(key, []).append(row)

    def order(key: tuple) -> tuple:
        return tuple(
            (0, value, "")
            if isinstance(value, (int, float)) and not isinstance(value, bool) and name != "method"
            else (1, 0, firsts[name][value])
            for name, value in zip(by, key, strict=True)
        )

    return [_stats(key, groups[key]) for key in sorted(groups, key=order)]


def instance_means(runs: Sequence[Row], value: Callable[[Row], float | None]) -> np.ndarray:
    """One number per instance: the mean of ``value`` over its runs that have one (repeats
    averaged, so that each instance counts once), instances in order of appearance.

    Examples
    --------
    >>> from knightcert.compare.harness import failed_row
    >>> rows = [failed_row("knights", name, "greedy", "", 0.0) for name in ("a", "a", "b")]
    >>> for row, gap in zip(rows, (0.1, 0.3, 0.0)):
    ...     row.gap = gap
    >>> instance_means(rows, lambda r: r.gap).round(3).tolist()
    [0.2, 0.0]
    """
    values: dict[str, list[float]] = {}
    for row in runs:
        number = value(row)
        if number is not None and math.isfinite(number):
            values.setdefault(row.instance_hash or row.instance, []).append(float(number))
    return np.array([np.mean(v) for v in values.values()], dtype=float)


def _stats(key: tuple, runs: list[Row]) -> GroupStats:
    gap_runs = [r for r in runs if r.gap is not None and math.isfinite(r.gap)]
    gaps = instance_means(gap_runs, lambda r: r.gap)
    per_instance: dict[str, int] = {}
    for row in runs:
        name = row.instance_hash or row.instance
        per_instance[name] = per_instance.get(name, 0) + 1
    times = np.array([r.time_s for r in runs], dtype=float)
    peaks = [r.peak_mb for r in runs if r.peak_mb is not None]
    q1, median, q3 = (float(x) for x in np.percentile(times, [25, 50, 75]))
    return GroupStats(
        key=key,
        runs=len(runs),
        instances=len(per_instance),
        repeats=max(per_instance.values()),
        answered=sum(answered(r) for r in runs),
        certified=sum(r.certified for r in runs),
        success=sum(answered(r) and r.gap is not None and r.gap <= 1e-12 for r in runs) / len(runs),
        gaps=len(gap_runs),
        gap_mean=float(np.mean(gaps)) if len(gaps) else None,
        gap_mean_ci=bootstrap_ci(gaps, np.mean),
        gap_median=float(np.median(gaps)) if len(gaps) else None,
        gap_median_ci=bootstrap_ci(gaps, np.median),
        time_median=median,
        time_q1=q1,
        time_q3=q3,
        peak_mb=max(peaks) if peaks else None,
    )


def bootstrap_ci(values: np.ndarray, statistic, confidence: float = 0.95) -> tuple[float, float] | None:
    """95 % bootstrap interval of ``statistic`` (BCa; percentile when BCa is undefined).

    ``None`` for fewer than two values; ``(v, v)`` when all values equal ``v``.
    Deterministic: the resampling generator is seeded with ``BOOTSTRAP_SEED``.
    """
    from scipy import stats

    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return None
    if np.all(values == values[0]):
        return (float(values[0]), float(values[0]))
    for method in ("BCa", "percentile"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = stats.bootstrap(
                (values,),
                statistic,
                confidence_level=confidence,
                n_resamples=BOOTSTRAP_RESAMPLES,
                method=method,
                vectorized=True,
                **_rng(stats.bootstrap),
            )
        low, high = result.confidence_interval
        if math.isfinite(low) and math.isfinite(high):
            return (float(low), float(high))
    return None


def _rng(function) -> dict[str, Any]:
    import inspect

    name = "rng" if "rng" in inspect.signature(function).parameters else "random_state"
    return {name: np.random.default_rng(BOOTSTRAP_SEED)}


#: Columns of the statistics table (the CSV has the raw numbers, one per column).
COLUMNS = (
    "runs",
    "instances",
    "repeats",
    "answered",
    "certified",
    "success",
    "gaps",
    "gap_mean",
    "gap_mean_low",
    "gap_mean_high",
    "gap_median",
    "gap_median_low",
    "gap_median_high",
    "time_median_s",
    "time_q1_s",
    "time_q3_s",
    "peak_mb",
)


def raw_values(stats: GroupStats) -> list[object]:
    """The statistics in the order of ``COLUMNS`` (fractions, seconds), ``None`` where undefined."""
    mean_ci = stats.gap_mean_ci or (None, None)
    median_ci = stats.gap_median_ci or (None, None)
    return [
        stats.runs,
        stats.instances,
        stats.repeats,
        stats.answered,
        stats.certified,
        stats.success,
        stats.gaps,
        stats.gap_mean,
        *mean_ci,
        stats.gap_median,
        *median_ci,
        stats.time_median,
        stats.time_q1,
        stats.time_q3,
        stats.peak_mb,
    ]


def readable(stats: GroupStats) -> list[str]:
    """Rounded cells for reading: counts, success %, gap % with intervals, times with units."""
    return [
        str(stats.runs),
        str(stats.instances),
        str(stats.repeats),
        str(stats.answered),
        str(stats.certified),
        f"{100 * stats.success:.0f} %",
        str(stats.gaps),
        _gap(stats.gap_mean, stats.gap_mean_ci),
        _gap(stats.gap_median, stats.gap_median_ci),
        seconds(stats.time_median),
        f"{seconds(stats.time_q1)} – {seconds(stats.time_q3)}",
        "-" if stats.peak_mb is None else f"{stats.peak_mb:.0f}",
    ]


READABLE_HEADERS = (
    "runs",
    "instances",
    "repeats",
    "answered",
    "certified",
    "success",
    "gaps",
    "gap mean [95 % CI]",
    "gap median [95 % CI]",
    "time median",
    "time IQR",
    "peak MB",
)


def _gap(value: float | None, ci: tuple[float, float] | None) -> str:
    if value is None:
        return "-"
    text = f"{100 * value:.2f} %"
    return text if ci is None else f"{text} [{100 * ci[0]:.2f}, {100 * ci[1]:.2f}]"


def seconds(value: float) -> str:
    """A duration with three significant digits and a readable unit.

    Examples
    --------
    >>> seconds(0.000234), seconds(0.0123), seconds(4.5678), seconds(123.4)
    ('234 µs', '12.3 ms', '4.57 s', '123 s')
    """
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if value >= scale or unit == "µs":
            number = value / scale
            return f"{number:.3g} {unit}" if number < 1000 else f"{number:.0f} {unit}"
    raise AssertionError  # pragma: no cover


def stats_table(
    rows: Sequence[Row],
    by: Sequence[str],
    fmt: str = "md",
    instances: Mapping[str, Mapping[str, Any]] | None = None,
) -> str:
    """The statistics of ``rows`` grouped ``by``, as Markdown, CSV or LaTeX.

    Raises
    ------
    InvalidInstance
        Unknown format or grouping field.
    """
    groups = group_stats(rows, by, instances)
    if fmt == "csv":
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow([*by, *COLUMNS])
        for stats in groups:
            writer.writerow(["" if v is None else v for v in (*stats.key, *raw_values(stats))])
        return buffer.getvalue()
    header = [*by, *READABLE_HEADERS]
    body = [[str(v) for v in stats.key] + readable(stats) for stats in groups]
    if fmt == "md":
        lines = [
            "| " + " | ".join(header) + " |",
            "|" + "|".join("---" if i < len(by) else "---:" for i in range(len(header))) + "|",
        ]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in body]
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        spec = "l" * len(by) + "r" * len(READABLE_HEADERS)
        lines = [
            f"\\begin{{tabular}}{{{spec}}}",
            "\\toprule",
            " & ".join(_tex(h) for h in header) + " \\\\",
            "\\midrule",
        ]
        lines += [" & ".join(_tex(cell) for cell in row) + " \\\\" for row in body]
        lines += ["\\bottomrule", "\\end{tabular}"]
        return "\n".join(lines) + "\n"
    raise InvalidInstance(f"unknown format {fmt!r}: choose md, csv or latex")


def _tex(text: str) -> str:
    replacements = {
        "\\": r"\textbackslash{}",
        "%": r"\%",
        "&": r"\&",
        "_": r"\_",
        "#": r"\#",
        "$": r"\$",
        "{": r"\{",
        "}": r"\}",
        "µ": r"$\mu$",
        "–": "--",
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
    }
    return "".join(replacements.get(ch, ch) for ch in text)
