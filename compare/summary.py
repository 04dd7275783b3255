"""A rich table of harness rows."""

from __future__ import annotations

from collections.abc import Sequence

from knightcert.compare.harness import Row


def rows_table(rows: Sequence[Row], title: str = ""):  # -> rich.table.Table
    """A rich Table of one problem's rows: instance, method, status, objective, bound, gap, time."""
    from rich.table import Table

    table = Table(title=title or None, title_justify="left")
    for name, justify in (
        ("instance", "left"),
        ("method", "left"),
        ("status", "left"),
        ("objective", "right"),
        ("bound", "right"),
        ("gap", "right"),
        ("time", "right"),
        ("verified", "center"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for row in rows:
        table.add_row(
            row.instance,
            row.method,
            row.status if not row.error or row.verified else f"{row.status} ({row.error[:40]})",
            _value(row.objective),
            _value(row.bound),
            "-" if row.gap is None else f"{100 * row.gap:.1f}%",
            _seconds(row.time_s),
            "yes" if row.verified else "[bold red]NO[/]" if row.status != "UNKNOWN" else "-",
        )
    return table


def _value(value: object) -> str:
    return "-" if value is None else str(value)


def _seconds(value: float) -> str:
    return f"{1000 * value:.1f} ms" if value < 1 else f"{value:.2f} s"


def method_summary_table(rows: Sequence[Row], title: str = ""):  # -> rich.table.Table
    """One row per (problem, method): how many answers, proven, verified, gap, time."""
    from knightcert.compare.registry import is_exact
    from rich.table import Table

    table = Table(title=title or None, title_justify="left")
    for name, justify in (
        ("problem", "left"),
        ("method", "left"),
        ("kind", "left"),
        ("instances", "right"),
        ("answered", "right"),
        ("proven", "right"),
        ("verified", "right"),
        ("mean gap", "right"),
        ("worst gap", "right"),
        ("total time", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    groups: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        groups.setdefault((row.problem, row.method), []).append(row)
    for (problem, method), mine in groups.items():
        gaps = [r.gap for r in mine if r.gap is not None]
        answered = [r for r in mine if r.status != "UNKNOWN"]
        proven = [r for r in mine if r.status in ("OPTIMAL", "INFEASIBLE")]
        table.add_row(
            problem,
            method,
            "exact" if is_exact(problem, method) else "heuristic",
            str(len(mine)),
            str(len(answered)),
            str(len(proven)),
            f"{sum(r.verified for r in answered)}/{len(answered)}",
            "-" if not gaps else f"{100 * sum(gaps) / len(gaps):.1f}%",
            "-" if not gaps else f"{100 * max(gaps):.1f}%",
            _seconds(sum(r.time_s for r in mine)),
        )
    return table
