"""Two reports side by side: is B better than A, method by method, on their shared instances?

For every method present in both reports and every measure (``gap``, ``time``),
the runs are paired by instance (the content hash, so a renamed board still
pairs): each instance's repeats are averaged in each report, and the
per-instance differences ``B - A`` go to the Wilcoxon signed-rank test
(``scipy.stats.wilcoxon``, two-sided, zero differences dropped as in Wilcoxon's
original method). Reported per method and measure:

``pairs``
    Shared instances where both reports have a value (for ``gap``: a checked
    answer with a gap in both).
``a``, ``b``
    The median of the per-instance values in A and in B.
``diff``
    The median of the per-instance differences ``B - A``.
``effect``
    The matched-pairs rank-biserial correlation ``(W+ - W-) / (W+ + W-)`` in
    [-1, 1]: -1 when B is lower on every differing instance, +1 when higher.
``p``
    The test's p-value (``None`` below two differing pairs).
``p_holm``
    The p-value corrected for the number of tests in the table (Holm's
    step-down method: the k-th smallest of m p-values times ``m - k + 1``,
    made monotone, at most 1): testing several methods and measures at once
    does not multiply the false verdicts.
``verdict``
    ``"B better"`` or ``"A better"`` (lower gap, time, CPU time; higher
    success) when ``p_holm < ALPHA``, ``"same"`` when every pair is equal, else
    ``"no difference shown"``. A time verdict is withheld (``"not comparable"``)
    when :func:`report_warnings` finds the two reports' times not comparable
    (another machine, a busy machine, a different load, or a load not recorded).

Measures: ``gap`` (for problems with one; ``success`` per instance for tours,
where a gap means nothing), ``time`` (wall clock) and ``cpu`` (CPU seconds of
the run, ``cpu_s``, when both reports recorded it: less sensitive to other
work on the machine than wall time, though not immune to it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import astuple, dataclass
from typing import Any

import numpy as np

from knightcert.compare.harness import Row, grouped

__all__ = ["ALPHA", "CSV_HEADERS", "HEADERS", "MEASURES", "PairedTest", "paired_table", "paired_tests"]

#: Significance level of the verdict (on Holm-corrected p-values).
ALPHA = 0.05
MEASURES = ("gap", "time", "cpu")
#: Measures where higher is better (the others: lower is better).
HIGHER_IS_BETTER = ("success",)
#: Above this mean load per usable core during a report's runs, its wall times are not comparable.
BUSY_LOAD_PER_CORE = 0.75
#: Mean loads per usable core of A and B further apart than this: their wall times are not comparable.
LOAD_DIFFERENCE_PER_CORE = 0.25
HOLM = "p-values corrected for {m} tests by Holm's method; verdicts at p_holm < {alpha}"


@dataclass(frozen=True)
class PairedTest:
    """One method and measure compared between reports A and B (see the module documentation)."""

    method: str
    measure: str
    pairs: int
    a: float | None
    b: float | None
    diff: float | None
    effect: float | None
    p: float | None
    verdict: str
    p_holm: float | None = None


def _per_instance(rows: Sequence[Row], method: str, measure: str) -> dict[str, float]:
    values: dict[str, list[float]] = {}
    for row in rows:
        if row.method != method:
            continue
        value = _value(row, measure)
        if value is None or not math.isfinite(value):
            continue
        values.setdefault(row.instance_hash or row.instance, []).append(float(value))
    return {key: float(np.mean(v)) for key, v in values.items()}


def _value(row: Row, measure: str) -> float | None:
    if measure == "gap":
        return row.gap if row.verified and row.status in ("OPTIMAL", "FEASIBLE") else None
    if measure == "success":
        from knightcert.compare.statistics import succeeded

        return float(succeeded(row))
    return row.cpu_s if measure == "cpu" else row.time_s


def measures_of(a: Sequence[Row], b: Sequence[Row]) -> tuple[str, ...]:
    """The measures two reports are compared on: ``success`` instead of ``gap`` for a problem
    without a gap (tours), ``cpu`` only when both reports recorded it."""
    from knightcert.compare.statistics import gapless

    first = "success" if gapless([*a, *b]) else "gap"
    cpu = any(r.cpu_s is not None for r in a) and any(r.cpu_s is not None for r in b)
    return (first, "time", *(("cpu",) if cpu else ()))


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down correction of the p-values (``None`` kept, not counted).

    Examples
    --------
    >>> holm([0.01, 0.04, None, 0.03])
    [0.03, 0.06, None, 0.06]
    """
    present = sorted((p, k) for k, p in enumerate(pvalues) if p is not None)
    m = len(present)
    corrected: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, k) in enumerate(present):
        running = max(running, min(1.0, (m - rank) * p))
        corrected[k] = round(running, 12)
    return corrected


def paired_tests(a: Sequence[Row], b: Sequence[Row], *, unreliable: Sequence[str] = ()) -> list[PairedTest]:
    """The paired tests of every method in both ``a`` and ``b``, for each measure
    (:func:`measures_of`), p-values Holm-corrected over the whole table.

    ``unreliable``: measures whose verdict is withheld (``"not comparable"``), e.g. ``("time",)``
    when the machine was busy, or ``"cpu:METHOD"`` for one method (:func:`report_warnings`).

    Examples
    --------
    >>> from knightcert.compare.harness import failed_row
    >>> def rows(gaps):
    ...     made = [failed_row("knights", f"i{k}", "greedy", "", 1.0) for k in range(len(gaps))]
    ...     for row, gap in zip(made, gaps):
    ...         row.gap, row.status, row.verified = gap, "FEASIBLE", True
    ...     return made
    >>> old = rows([0.10, 0.12, 0.08, 0.20, 0.15, 0.11, 0.09, 0.14])
    >>> new = rows([0.05, 0.06, 0.07, 0.10, 0.08, 0.05, 0.04, 0.07])
    >>> gap, time = paired_tests(old, new)
    >>> gap.pairs, gap.effect, round(gap.p, 4), gap.verdict, time.verdict
    (8, -1.0, 0.0078, 'B better', 'same')
    """
    from dataclasses import replace

    methods = [m for m in dict.fromkeys(r.method for r in a) if m in {r.method for r in b}]
    tests = [_test(method, measure, a, b) for method in methods for measure in measures_of(a, b)]
    corrected = holm([t.p for t in tests])
    final = []
    for test, p_holm in zip(tests, corrected, strict=True):
        verdict = test.verdict
        if p_holm is not None and verdict not in ("same", "no shared instances"):
            verdict = "no difference shown"
            if p_holm < ALPHA:
                better_b = (test.effect or 0) < 0
                if test.measure in HIGHER_IS_BETTER:
                    better_b = not better_b
                verdict = "B better" if better_b else "A better"
        withheld = test.measure in unreliable or f"{test.measure}:{test.method}" in unreliable
        if withheld and verdict in ("A better", "B better"):
            verdict = f"not comparable ({verdict[0]} lower)"
        final.append(replace(test, verdict=verdict, p_holm=p_holm))
    return final


def _test(method: str, measure: str, a: Sequence[Row], b: Sequence[Row]) -> PairedTest:
    from scipy import stats

    left, right = _per_instance(a, method, measure), _per_instance(b, method, measure)
    shared = [key for key in left if key in right]
    x = np.array([left[k] for k in shared], dtype=float)
    y = np.array([right[k] for k in shared], dtype=float)
    if not shared:
        return PairedTest(method, measure, 0, None, None, None, None, None, "no shared instances")
    diff = y - x
    nonzero = diff[diff != 0]
    medians = float(np.median(x)), float(np.median(y)), float(np.median(diff))
    if len(nonzero) == 0:
        return PairedTest(method, measure, len(shared), *medians, 0.0, None, "same")
    ranks = stats.rankdata(np.abs(nonzero))
    plus, minus = float(ranks[nonzero > 0].sum()), float(ranks[nonzero < 0].sum())
    effect = (plus - minus) / (plus + minus)
    if len(nonzero) < 2:
        return PairedTest(method, measure, len(shared), *medians, effect, None, "no difference shown")
    test = stats.wilcoxon(x, y, zero_method="wilcox", alternative="two-sided")
    p = float(test.pvalue)  # pyright: ignore[reportAttributeAccessIssue]  # scipy builds the result class
    return PairedTest(method, measure, len(shared), *medians, effect, p, "no difference shown")


def report_warnings(
    a_header: Mapping[str, Any], b_header: Mapping[str, Any], a: Sequence[Row], b: Sequence[Row]
) -> tuple[list[str], list[str]]:
    """What makes two reports' comparison suspect: changed method files or code, another
    machine, a busy or differently loaded machine.

    Returns
    -------
    (warnings, unreliable) : list of str, list of str
        One line per difference, and the measures whose verdicts cannot be trusted
        (``time`` when the loads or machines differ; ``cpu`` too on another machine).

    Examples
    --------
    >>> from knightcert.compare.harness import failed_row
    >>> rows = [failed_row("knights", "i", "mine", "", 1.0)]
    >>> env = {"cpu": "x", "cores": 2, "usable_cores": 2}
    >>> a = {"environment": env, "method_files": {"mine": [{"path": "/m.py", "sha256": "aa"}]}}
    >>> b = {"environment": env, "method_files": {"mine": [{"path": "/m.py", "sha256": "bb"}]}}
    >>> report_warnings(a, b, rows, rows)[0][0]
    'method mine: its file /m.py changed (sha256 aa -> bb)'
    """
    env_a, env_b = a_header.get("environment") or {}, b_header.get("environment") or {}
    warnings = [
        *_method_file_changes(a_header.get("method_files") or {}, b_header.get("method_files") or {}),
        *_code_changes(env_a, env_b),
    ]
    unreliable: set[str] = set()
    for found, suspect in (_machine_changes(env_a, env_b), _load_changes(env_a, env_b, a, b)):
        warnings += found
        unreliable |= suspect
    if "time" in unreliable and "cpu" not in unreliable:
        for method in budget_bound(a_header, a) | budget_bound(b_header, b):
            warnings.append(
                f"{method}: its runs reach their time limit, so their CPU time is capped by the wall "
                "clock and shrinks on a busier machine: cpu verdict withheld"
            )
            unreliable.add(f"cpu:{method}")
    return warnings, sorted(unreliable)


def _method_file_changes(files_a: Mapping[str, Any], files_b: Mapping[str, Any]) -> list[str]:
    """A line per method file recorded in one report only, or whose SHA-256 changed."""

    def recorded(files: Mapping[str, Any], method: str) -> dict[Any, Any]:
        return {f.get("path"): f.get("sha256") for f in files.get(method) or [] if isinstance(f, Mapping)}

    warnings = []
    for method in sorted(set(files_a) | set(files_b)):
        old, new = recorded(files_a, method), recorded(files_b, method)
        for path in sorted(set(old) | set(new), key=str):
            if old.get(path) == new.get(path):
                continue
            if path not in old or path not in new:
                where = "B only" if path not in old else "A only"
                warnings.append(f"method {method}: file {path} is recorded in {where}")
            else:
                before, after = str(old[path])[:8], str(new[path])[:8]
                warnings.append(f"method {method}: its file {path} changed (sha256 {before} -> {after})")
    return warnings


def _code_changes(env_a: Mapping[str, Any], env_b: Mapping[str, Any]) -> list[str]:
    """The knightcert source (by its hash, else its commit) and the packages' versions that differ."""
    warnings = []
    code_a, code_b = env_a.get("source_sha256"), env_b.get("source_sha256")
    git_a, git_b = (env_a.get("git") or {}).get("commit"), (env_b.get("git") or {}).get("commit")
    if code_a and code_b:  # the code itself: a commit that changed only the docs is the same code
        if code_a != code_b:
            warnings.append(f"the knightcert source differs (source_sha256 {code_a[:8]} -> {code_b[:8]})")
    elif git_a and git_b and git_a != git_b:
        warnings.append(f"the knightcert commit differs ({git_a[:8]} -> {git_b[:8]})")
    if not (code_a and code_b) and not (git_a and git_b):
        warnings.append("the source of A or B is not recorded: the code may differ")
    versions_a, versions_b = env_a.get("versions") or {}, env_b.get("versions") or {}
    for package in sorted(set(versions_a) & set(versions_b)):
        if versions_a[package] != versions_b[package]:
            warnings.append(f"{package} {versions_a[package]} -> {versions_b[package]}")
    return warnings


def _machine_changes(env_a: Mapping[str, Any], env_b: Mapping[str, Any]) -> tuple[list[str], set[str]]:
    """Another machine: neither wall nor CPU times compare."""
    keys = ("cpu", "cores", "usable_cores", "memory_gb", "platform")
    machine = [k for k in keys if env_a.get(k) != env_b.get(k)]
    if not machine:
        return [], set()
    text = ", ".join(f"{k} {env_a.get(k)} -> {env_b.get(k)}" for k in machine)
    return [f"another machine: {text}"], {"time", "cpu"}


def _load_changes(
    env_a: Mapping[str, Any], env_b: Mapping[str, Any], a: Sequence[Row], b: Sequence[Row]
) -> tuple[list[str], set[str]]:
    """A load not recorded, a busy machine, or different loads: wall times do not compare."""
    load_a, load_b = mean_load(a), mean_load(b)
    cores = [max(1, int(env.get("usable_cores") or env.get("cores") or 1)) for env in (env_a, env_b)]
    if load_a is None or load_b is None:
        missing = " and ".join(n for n, load in (("A", load_a), ("B", load_b)) if load is None)
        text = f"the machine's load is not recorded in {missing}: wall times may reflect other work"
        return [text], {"time"}
    per_core = [load_a / cores[0], load_b / cores[1]]
    text = f"mean load A {load_a:.2f}, B {load_b:.2f} on {cores[0]}/{cores[1]} cores"
    if max(per_core) > BUSY_LOAD_PER_CORE:
        return [f"a busy machine ({text}): wall times reflect the machine, compare cpu"], {"time"}
    if abs(per_core[0] - per_core[1]) > LOAD_DIFFERENCE_PER_CORE:
        return [f"different loads ({text}): wall times reflect the machine, compare cpu"], {"time"}
    return [], set()


def budget_bound(header: Mapping[str, Any], rows: Sequence[Row]) -> set[str]:
    """Methods whose median run takes at least half the experiment's time limit: a time-limited
    search whose CPU time says how much CPU the machine gave it, not how fast it is."""
    limit = (header.get("experiment") or {}).get("time_limit")
    if not isinstance(limit, (int, float)) or limit <= 0:
        return set()
    runs = grouped(rows, lambda row: row.method)
    return {method for method, mine in runs.items() if np.median([r.time_s for r in mine]) >= 0.5 * limit}


def mean_load(rows: Sequence[Row]) -> float | None:
    """Mean of the load averages recorded at the runs (None when none was recorded)."""
    loads = [r.load for r in rows if r.load is not None]
    return float(np.mean(loads)) if loads else None


HEADERS = (
    "method", "measure", "pairs", "A median", "B median", "B - A median", "effect r", "p", "p Holm", "verdict"
)


#: The CSV's columns (p_holm added at the end: older readers keep their columns).
CSV_HEADERS = (
    "method", "measure", "pairs", "a_median", "b_median", "diff_median", "effect", "p", "verdict", "p_holm"
)


def paired_table(tests: Sequence[PairedTest], fmt: str = "md") -> str:
    """The paired tests as Markdown (gaps in %, times with units) or CSV (raw numbers)."""
    from knightcert.compare.statistics import csv_text, seconds

    if fmt == "csv":  # a test's fields are in the order of CSV_HEADERS
        return csv_text([CSV_HEADERS, *map(astuple, tests)])

    def number(value: float | None, measure: str, signed: bool = False) -> str:
        if value is None:
            return "-"
        if measure in ("gap", "success"):
            return f"{100 * value:+.2f} %" if signed else f"{100 * value:.2f} %"
        text = seconds(abs(value))
        return (("-" if value < 0 else "+") + text) if signed else text

    lines = ["| " + " | ".join(HEADERS) + " |", "|---|---|" + "---:|" * 7 + "---|"]
    for t in tests:
        cells = [
            t.method,
            t.measure,
            str(t.pairs),
            number(t.a, t.measure),
            number(t.b, t.measure),
            number(t.diff, t.measure, signed=True),
            "-" if t.effect is None else f"{t.effect:+.2f}",
            "-" if t.p is None else f"{t.p:.3g}",
            "-" if t.p_holm is None else f"{t.p_holm:.3g}",
            t.verdict,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
