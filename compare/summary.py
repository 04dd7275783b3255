"""A rich table of harness rows."""

from __future__ import annotations

from collections.abc import Sequence

from compare.harness import Row


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
