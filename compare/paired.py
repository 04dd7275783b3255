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
``verdict``
    ``"B better"`` or ``"A better"`` (lower gap, lower time) when ``p < ALPHA``,
    ``"same"`` when every pair is equal, else ``"no difference shown"``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from knightcert.compare.harness import Row

__all__ = ["ALPHA", "HEADERS", "MEASURES", "PairedTest", "paired_table", "paired_tests"]

#: Significance level of the verdict.
ALPHA = 0.05
MEASURES = ("gap", "time")


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


def _per_instance(rows: Sequence[Row], method: str, measure: str) -> dict[str, float]:
    values: dict[str, list[float]] = {}
    for row in rows:
        if row.method != method:
            continue
        value = row.gap if measure == "gap" else row.time_s
        if value is None or not math.isfinite(value):
            continue
        values.setdefault(row.instance_hash or row.instance, []).append(float(value))
    return {key: float(np.mean(v)) for key, v in values.items()}


def paired_tests(a: Sequence[Row], b: Sequence[Row]) -> list[PairedTest]:
    """The paired tests of every method in both ``a`` and ``b``, for gap and time.

    Examples
    --------
    >>> from knightcert.compare.harness import failed_row
    >>> def rows(gaps):
    ...     made = [failed_row("knights", f"i{k}", "greedy", "", 1.0) for k in range(len(gaps))]
    ...     for row, gap in zip(made, gaps):
    ...         row.gap = gap
    ...     return made
    >>> old = rows([0.10, 0.12, 0.08, 0.20, 0.15, 0.11, 0.09, 0.14])
    >>> new = rows([0.05, 0.06, 0.07, 0.10, 0.08, 0.05, 0.04, 0.07])
    >>> gap, time = paired_tests(old, new)
    >>> gap.pairs, gap.effect, round(gap.p, 4), gap.verdict, time.verdict
    (8, -1.0, 0.0078, 'B better', 'same')
    """
    methods = [m for m in dict.fromkeys(r.method for r in a) if m in {r.method for r in b}]
    return [_test(method, measure, a, b) for method in methods for measure in MEASURES]


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
    verdict = "no difference shown"
    if p < ALPHA:
        verdict = "B better" if effect < 0 else "A better"
    return PairedTest(method, measure, len(shared), *medians, effect, p, verdict)


HEADERS = ("method", "measure", "pairs", "A median", "B median", "B - A median", "effect r", "p", "verdict")


def paired_table(tests: Sequence[PairedTest], fmt: str = "md") -> str:
    """The paired tests as Markdown (gaps in %, times with units) or CSV (raw numbers)."""
    from knightcert.compare.statistics import seconds

    if fmt == "csv":
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(
            ["method", "measure", "pairs", "a_median", "b_median", "diff_median", "effect", "p", "verdict"]
        )
        for t in tests:
            values = (t.method, t.measure, t.pairs, t.a, t.b, t.diff, t.effect, t.p, t.verdict)
            writer.writerow(["" if v is None else v for v in values])
        return buffer.getvalue()

    def number(value: float | None, measure: str, signed: bool = False) -> str:
        if value is None:
            return "-"
        if measure == "gap":
            return f"{100 * value:+.2f} %" if signed else f"{100 * value:.2f} %"
        text = seconds(abs(value))
        return (("-" if value < 0 else "+") + text) if signed else text

    lines = ["| " + " | ".join(HEADERS) + " |", "|---|---|" + "---:|" * 6 + "---|"]
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
            t.verdict,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
