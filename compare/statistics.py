"""Statistics of comparison runs, per group (by default per size and method).

The unit of sampling is the **instance**, not the run: repeats of a method on
one instance are not independent samples (a deterministic method repeats the
same answer), so every measure is first averaged over the repeats (seeds) of
each instance, and every interval is over instances. For each group of runs:

``runs``
    Number of runs (every repeat and every seed).
``instances``, ``repeats``
    Distinct instances in the group and the largest number of runs of one of them.
``answered``
    Runs with a checked answer (``OPTIMAL``, ``FEASIBLE`` or ``INFEASIBLE`` and verified).
``failed``
    Runs without a checked answer (no answer, refused, crashed, killed): never hidden.
``none_proven``
    Runs that proved, checked, that the instance has no solution (for tours: no tour).
``certified``
    Runs whose claims are all independently certified (``Row.certified``).
``success``
    Mean over the instances of the share of each instance's runs that gave a solution
    of the best proven value (gap 0; for tours: a tour). A run that proved there is no
    solution, or that has no answer, is never a success.
``success_exists``
    For tours: the same over the instances where a tour exists, certified (a run of any method
    in the report gave a tour the checker verified): a complete method scores 100 % there
    although some start squares of a board have no tour.
``gaps``
    Runs with a gap: a checked solution on an instance with a proven best value.
    Problems where a gap means nothing (``GAPLESS``: tours, where every tour is as
    good as any other) have no gap: their measures are found / none proven /
    unknown and the time to a solution.
``gap``
    Mean over the instances of each instance's mean gap, with a 95 % **Student-t**
    interval over instances (``mean ± t(0.975, n-1) · s / √n``, its lower end cut
    at 0, where gaps live); median over the instances with the distribution-free
    95 % **order-statistic** interval (the binomial / sign-test interval: exact
    coverage of at least 95 % for any distribution; undefined below 6 instances).
``spread``
    The spread of a randomized method across seeds and repeats: the pooled
    standard deviation of the gap within instances (0 for a method that repeats
    its answer; undefined with one run per instance).
``few``
    Fewer than ``MIN_INSTANCES`` instances: the intervals are shown but flagged.
``time``
    Median and interquartile range (25th, 75th percentile) over the instances of
    each instance's mean wall-clock time, failed runs included (a killed run
    counts with its wall-clock time). For ``GAPLESS`` problems, ``time to a
    solution``: the same over the runs that found one.
``cpu``
    The same median of the CPU time (``cpu_s``; ``None`` for reports written before it was recorded).
``peak_mb``
    Largest peak memory of the group.

Why ``MIN_INSTANCES = 10``: the t-interval assumes a roughly normal mean, and
gaps are bounded at 0 and skewed (many zeros); simulations of such
distributions give Student-t coverage that falls clearly below 95 % under
about 10 samples, and the order-statistic interval of the median reaches
95 % only from 6 samples and stays as wide as the sample's range below 9.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from knightcert.compare.harness import Row
from knightcert.problems.errors import InvalidInstance

__all__ = [
    "ANSWERS",
    "COLUMNS",
    "GROUP_FIELDS",
    "INSTANCE_FIELDS",
    "READABLE_HEADERS",
    "ROW_FIELDS",
    "GroupStats",
    "answered",
    "csv_text",
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
ANSWERS = ("OPTIMAL", "FEASIBLE", "INFEASIBLE")
#: Confidence level of every interval.
CONFIDENCE = 0.95
#: Below this many instances a group's intervals are flagged (see the module documentation).
MIN_INSTANCES = 10
#: Problems where a gap means nothing (every tour is as good as another): outcome measures instead.
GAPLESS = frozenset({"tour"})
#: How the intervals are computed, said under every table.
INTERVALS = (
    "95 % intervals over instances (repeats averaged first): Student-t for the mean gap, "
    "order-statistic (sign test) for the median gap"
)


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
    failed: int = 0
    none_proven: int = 0
    rejected: int = 0
    gap_spread: float | None = None
    cpu_median: float | None = None
    gapless: bool = False
    few: bool = False
    success_exists: float | None = None


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

    found = {_instance(row) for row in rows if solved(row)}  # a checked solution exists
    return [_stats(key, groups[key], found) for key in sorted(groups, key=order)]


def _per_instance(runs: Sequence[Row], value: Callable[[Row], float | None]) -> list[list[float]]:
    """The finite values of ``value`` of each instance's runs, instances in order of appearance."""
    values: dict[str, list[float]] = {}
    for row in runs:
        number = value(row)
        if number is not None and math.isfinite(number):
            values.setdefault(_instance(row), []).append(float(number))
    return list(values.values())


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
    return np.array([np.mean(v) for v in _per_instance(runs, value)], dtype=float)


def gapless(rows: Sequence[Row]) -> bool:
    """Whether the rows are of a problem where a gap means nothing (``GAPLESS``)."""
    return bool(rows) and all(r.problem in GAPLESS for r in rows)


def solved(row: Row) -> bool:
    """A checked answer with a solution: ``OPTIMAL`` or ``FEASIBLE``, verified."""
    return row.verified and row.status in ("OPTIMAL", "FEASIBLE")


def succeeded(row: Row) -> bool:
    """A checked solution of the best proven value (for tours: a tour); never a proof that
    there is no solution, never a run without an answer."""
    return solved(row) and (row.problem in GAPLESS or (row.gap is not None and row.gap <= 1e-12))


def _instance(row: Row) -> str:
    return row.instance_hash or row.instance


def _of(values: np.ndarray, measure: Callable[[np.ndarray], Any] = np.mean) -> float | None:
    """``measure`` of ``values`` as a float, ``None`` for no values."""
    return float(measure(values)) if len(values) else None


def _stats(key: tuple, runs: list[Row], found: set[str]) -> GroupStats:
    no_gap = gapless(runs)
    counts = Counter(map(_instance, runs))
    peaks = [r.peak_mb for r in runs if r.peak_mb is not None]
    where = instance_means([r for r in runs if _instance(r) in found], lambda r: float(succeeded(r)))
    return GroupStats(
        key=key,
        runs=len(runs),
        instances=len(counts),
        repeats=max(counts.values()),
        answered=sum(answered(r) for r in runs),
        certified=sum(r.certified for r in runs),
        success=float(np.mean(instance_means(runs, lambda r: float(succeeded(r))))),
        **_gap_fields([] if no_gap else [r for r in runs if solved(r) and r.gap is not None]),
        **_time_fields([r for r in runs if solved(r)] if no_gap else runs),
        peak_mb=max(peaks) if peaks else None,
        failed=sum(not answered(r) for r in runs),
        rejected=sum(not r.verified and r.status != "UNKNOWN" for r in runs),  # a claim the checker refused
        none_proven=sum(r.verified and r.status == "INFEASIBLE" for r in runs),
        gapless=no_gap,
        few=len(counts) < MIN_INSTANCES,
        success_exists=_of(where) if no_gap else None,
    )


def _gap_fields(solutions: list[Row]) -> dict[str, Any]:
    """The gap statistics of the checked solutions with a gap: their count, the mean and median
    over instances with their intervals, the spread across seeds."""
    runs = [r for r in solutions if r.gap is not None and math.isfinite(r.gap)]
    gaps = instance_means(runs, lambda r: r.gap)
    return {
        "gaps": len(runs),
        "gap_mean": _of(gaps),
        "gap_mean_ci": t_interval(gaps, low=0.0),
        "gap_median": _of(gaps, np.median),
        "gap_median_ci": median_interval(gaps),
        "gap_spread": within_spread(runs, lambda r: r.gap),
    }


def _time_fields(timed: list[Row]) -> dict[str, Any]:
    """The median and quartiles of the wall-clock time and the median CPU time over instances."""
    times = instance_means(timed, lambda r: r.time_s)
    q1, median, q3 = np.percentile(times, [25, 50, 75]).tolist() if len(times) else (math.nan,) * 3
    cpu = _of(instance_means(timed, lambda r: r.cpu_s), np.median)
    return {"time_median": median, "time_q1": q1, "time_q3": q3, "cpu_median": cpu}


def t_interval(
    values: np.ndarray, confidence: float = CONFIDENCE, low: float | None = None
) -> tuple[float, float] | None:
    """Student-t interval of the mean of ``values`` (one per instance); ``low`` cuts its lower end.

    ``None`` for fewer than two values; ``(v, v)`` when all values equal ``v``.

    Examples
    --------
    >>> [round(x, 3) for x in t_interval(np.array([1.0, 2.0, 3.0, 4.0]))]
    [0.446, 4.554]
    """
    from scipy import stats

    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return None
    mean = float(np.mean(values))
    if np.all(values == values[0]):
        return (mean, mean)
    lower, upper = stats.t.interval(confidence, len(values) - 1, loc=mean, scale=stats.sem(values))
    return (float(lower) if low is None else max(low, float(lower)), float(upper))


def median_interval(values: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """Distribution-free interval of the median: order statistics ``(x_(k), x_(n+1-k))`` with
    the largest ``k`` whose coverage ``1 - 2 P(Binomial(n, 1/2) < k)`` is at least ``confidence``.

    ``None`` when even the sample's range covers less (below 6 values at 95 %).

    Examples
    --------
    >>> median_interval(np.arange(5.0)) is None
    True
    >>> median_interval(np.arange(6.0)), median_interval(np.arange(20.0))
    ((0.0, 5.0), (5.0, 14.0))
    """
    from scipy import stats

    values = np.sort(np.asarray(values, dtype=float))
    n = len(values)
    # the smallest k with P(B <= k) >= (1 - confidence) / 2: P(B < k) stays below it
    k = min(n // 2, int(stats.binom.ppf((1 - confidence) / 2, n, 0.5))) if n else 0
    return (float(values[k - 1]), float(values[n - k])) if k else None


def within_spread(runs: Sequence[Row], value: Callable[[Row], float | None]) -> float | None:
    """Pooled standard deviation of ``value`` within instances (across seeds and repeats):
    ``sqrt(sum of squared deviations from each instance's mean / sum of (runs - 1))``;
    ``None`` when no instance has two values.

    Examples
    --------
    >>> from knightcert.compare.harness import failed_row
    >>> rows = [failed_row("knights", name, "greedy+", "", 0.0) for name in ("a", "a", "b", "b")]
    >>> for row, gap in zip(rows, (0.1, 0.3, 0.2, 0.2)):
    ...     row.gap = gap
    >>> round(within_spread(rows, lambda r: r.gap), 4)
    0.1
    """
    values = _per_instance(runs, value)
    squares = sum(float(np.sum((np.array(v) - np.mean(v)) ** 2)) for v in values)
    freedom = sum(len(v) - 1 for v in values)
    return math.sqrt(squares / freedom) if freedom else None


#: Columns of the statistics table (the CSV has the raw numbers, one per column; the columns
#: after ``peak_mb`` were added later, at the end, so that older readers keep their columns).
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
    "failed",
    "none_proven",
    "gap_spread",
    "cpu_median_s",
    "few_instances",
    "success_exists",
    "rejected",
)
#: The ``GroupStats`` field of each column whose name differs.
_FIELD_OF = {"time_median_s": "time_median", "time_q1_s": "time_q1", "time_q3_s": "time_q3"}
_FIELD_OF |= {"cpu_median_s": "cpu_median", "few_instances": "few"}


def raw_values(stats: GroupStats) -> list[object]:
    """The statistics in the order of ``COLUMNS`` (fractions, seconds), ``None`` where undefined."""
    data = asdict(stats)
    for name in ("gap_mean", "gap_median"):
        data[f"{name}_low"], data[f"{name}_high"] = data[f"{name}_ci"] or (None, None)
    values = [data[_FIELD_OF.get(column, column)] for column in COLUMNS]
    return [None if isinstance(v, float) and not math.isfinite(v) else v for v in values]


def readable(stats: GroupStats) -> list[str]:
    """Rounded cells for reading, under ``READABLE_HEADERS`` (``GAPLESS_HEADERS`` for tours):
    counts, success %, gap % with intervals, times with units; ``†`` marks few instances."""
    shown = "gapless" if stats.gapless else "gap"
    return [cell(stats) for _, where, cell in _READABLE if where in (None, shown)]


def _time(value: float) -> str:
    return seconds(value) if math.isfinite(value) else "-"


def _percent(value: float | None, spec: str) -> str:
    return "-" if value is None else f"{100 * value:{spec}} %"


#: Marks a group with fewer than ``MIN_INSTANCES`` instances.
FEW_MARK = " †"
#: The readable columns in order: header, the problems that show it (``gap``: those with a gap,
#: ``gapless``: ``GAPLESS`` ones, None: both) and its cell.
_READABLE: tuple[tuple[str, str | None, Callable[[GroupStats], str]], ...] = (
    ("runs", None, lambda s: str(s.runs)),
    ("instances", None, lambda s: f"{s.instances}{FEW_MARK if s.few else ''}"),
    ("repeats", None, lambda s: str(s.repeats)),
    ("answered", "gap", lambda s: str(s.answered)),
    ("found", "gapless", lambda s: str(s.answered - s.none_proven)),
    ("none proven", "gapless", lambda s: str(s.none_proven)),
    ("failed", "gap", lambda s: str(s.failed)),
    ("unknown", "gapless", lambda s: str(s.failed - s.rejected)),
    ("rejected", "gapless", lambda s: str(s.rejected)),
    ("certified", None, lambda s: str(s.certified)),
    ("success", None, lambda s: f"{100 * s.success:.0f} %"),
    ("success where one exists", "gapless", lambda s: _percent(s.success_exists, ".0f")),
    ("gaps", "gap", lambda s: str(s.gaps)),
    ("gap mean [95 % t-CI]", "gap", lambda s: _gap(s.gap_mean, s.gap_mean_ci)),
    ("gap median [95 % CI]", "gap", lambda s: _gap(s.gap_median, s.gap_median_ci)),
    ("seed spread", "gap", lambda s: _percent(s.gap_spread, ".2f")),
    ("time median", "gap", lambda s: _time(s.time_median)),
    ("time to a solution", "gapless", lambda s: _time(s.time_median)),
    (
        "time IQR",
        None,
        lambda s: f"{_time(s.time_q1)} – {_time(s.time_q3)}" if math.isfinite(s.time_q1) else "-",
    ),
    ("CPU median", None, lambda s: "-" if s.cpu_median is None else seconds(s.cpu_median)),
    ("peak MB", None, lambda s: "-" if s.peak_mb is None else f"{s.peak_mb:.0f}"),
)
READABLE_HEADERS = tuple(header for header, where, _ in _READABLE if where != "gapless")
#: Headers for problems without a gap (``GAPLESS``: tours).
GAPLESS_HEADERS = tuple(header for header, where, _ in _READABLE if where != "gap")


def table_notes(groups: Sequence[GroupStats]) -> list[str]:
    """What a reader must know under the table: how the intervals are made, which groups have
    few instances, what a gapless problem's columns mean."""
    if groups and all(g.gapless for g in groups):
        notes = [
            "No gap: every solution of this problem is as good as any other. found = runs with a "
            "checked solution, none proven = runs that proved there is none, unknown = runs without "
            "an answer, rejected = runs whose answer the checker refused; success = share of runs "
            "with a solution, per instance (repeats averaged "
            "first), over all instances and over those where a run of any method found a checked "
            "solution; times over instances, of runs with a solution."
        ]
    else:
        notes = [
            f"{INTERVALS}; success and time per instance; seed spread = pooled standard deviation "
            "of the gap across the seeds and repeats of an instance."
        ]
    few = sum(g.few for g in groups)
    if few:
        notes.append(
            f"†: fewer than {MIN_INSTANCES} instances ({few} of {len(groups)} groups): the t-interval's "
            "coverage falls below 95 % for skewed gaps and the median's interval is undefined below 6; "
            "read these groups as descriptive."
        )
    return notes


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


def csv_text(lines: Iterable[Sequence[Any]]) -> str:
    """``lines`` as CSV text, a ``None`` cell empty."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows(["" if v is None else v for v in line] for line in lines)
    return buffer.getvalue()


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
        return csv_text([[*by, *COLUMNS], *([*stats.key, *raw_values(stats)] for stats in groups)])
    headers = GAPLESS_HEADERS if groups and all(g.gapless for g in groups) else READABLE_HEADERS
    body = [[*by, *headers], *([*map(str, stats.key), *readable(stats)] for stats in groups)]
    if fmt == "md":
        lines = ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in body]
        lines.insert(1, "|" + "|".join(["---"] * len(by) + ["---:"] * len(headers)) + "|")
        return "\n".join([*lines, "", *table_notes(groups)]) + "\n"
    if fmt == "latex":
        lines = [" & ".join(cell.translate(_TEX) for cell in row) + " \\\\" for row in body]
        lines.insert(0, f"\\begin{{tabular}}{{{'l' * len(by)}{'r' * len(headers)}}}\n\\toprule")
        lines.insert(2, "\\midrule")
        lines += ["\\bottomrule", "\\end{tabular}", *(f"% {note}" for note in table_notes(groups))]
        return "\n".join(lines) + "\n"
    raise InvalidInstance(f"unknown format {fmt!r}: choose md, csv or latex")


_TEX = str.maketrans(
    {ch: "\\" + ch for ch in "%&_#${}"}
    | {"\\": r"\textbackslash{}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
    | {"µ": r"$\mu$", "†": r"$^\dagger$", "–": "--"}
)
