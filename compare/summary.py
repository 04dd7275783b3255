"""A rich table of harness rows."""

from __future__ import annotations

from collections.abc import Sequence

from knightcert.compare.harness import Row

__all__ = ["method_summary_table", "row_certified", "rows_table"]


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
        ("certified", "left"),
    ):
        table.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for row in rows:
        table.add_row(
            row.instance,
            row.method,
            row.status if not row.error else f"{row.status} ({row.error[:60]})",
            _value(row.objective),
            _value(row.bound),
            "-" if row.gap is None else f"{100 * row.gap:.1f}%",
            _seconds(row.time_s),
            "yes" if row.verified else "[bold red]NO[/]" if row.status != "UNKNOWN" else "-",
            row_certified(row),
        )
    return table


def row_certified(row: Row) -> str:
    """``yes: <what>`` when every claim is certified, ``solver: <which>`` when one rests on a
    solver only, ``unproven`` when one rests on a foreign method's word only, ``no`` when the
    answer was rejected, ``-`` without an answer."""
    if not row.evidence:
        return "-" if row.status == "UNKNOWN" and not row.error else "no"
    claims = [part.split(": ", 1) for part in row.evidence.split("; ") if ": " in part]
    if row.certified:
        proofs = [how for claim, how in claims if claim != "answer"]
        return "yes" + (f": {_short(proofs[0])}" if proofs else "")
    solver = [how for claim, how in claims if how.startswith("solver")]
    if solver:
        return f"solver: {_short(solver[0])}"
    return "unproven" if any(how.startswith("none") for _, how in claims) else "no"


def _short(how: str) -> str:
    """``certificate (matching (Kőnig))`` -> ``matching (Kőnig)``; ``solver (CP-SAT)`` -> ``CP-SAT``."""
    kind, _, rest = how.partition(" (")
    return rest[:-1] if rest.endswith(")") else kind


def _value(value: object) -> str:
    return "-" if value is None else str(value)


def _seconds(value: float) -> str:
    return f"{1000 * value:.1f} ms" if value < 1 else f"{value:.2f} s"


def method_summary_table(rows: Sequence[Row], title: str = ""):  # -> rich.table.Table
    """One row per (problem, method): how many answers, proven (OPTIMAL or INFEASIBLE), of those
    certified (every claim backed by a checked certificate, a theorem or the checker's search),
    verified, gap, time."""
    from rich.table import Table

    from knightcert.registry import is_exact

    table = Table(title=title or None, title_justify="left")
    for name, justify in (
        ("problem", "left"),
        ("method", "left"),
        ("kind", "left"),
        ("instances", "right"),
        ("answered", "right"),
        ("proven", "right"),
        ("certified", "right"),
        ("verified", "right"),
        ("mean gap", "right"),
        ("worst gap", "right"),
        ("total time", "right"),
    ):
        table.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
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
            mine[0].kind or ("exact" if is_exact(problem, method) else "heuristic"),
            str(len(mine)),
            str(len(answered)),
            str(len(proven)),
            str(sum(r.certified for r in proven)),
            f"{sum(r.verified for r in answered)}/{len(answered)}",
            "-" if not gaps else f"{100 * sum(gaps) / len(gaps):.1f}%",
            "-" if not gaps else f"{100 * max(gaps):.1f}%",
            _seconds(sum(r.time_s for r in mine)),
        )
    return table
