"""A rich table of harness rows."""

from __future__ import annotations

from collections.abc import Sequence
from textwrap import shorten

from knightcert.compare.harness import Row, grouped
from knightcert.compare.statistics import seconds

__all__ = ["method_summary_table", "row_certified", "rows_table"]


def rows_table(rows: Sequence[Row], title: str = ""):  # -> rich.table.Table
    """A rich Table of one problem's rows: instance, method, status, objective, bound, gap, time."""
    from rich.table import Table

    table = Table(title=shown(title) if title else None, title_justify="left")
    _add_columns(table, ROW_COLUMNS, left=("instance", "method", "status", "certified"), centre=("verified",))
    for row in rows:
        table.add_row(
            shown(row.instance),
            shown(row.method),
            shown(f"{row.status} ({shorten(row.error, 60, placeholder=' …')})" if row.error else row.status),
            _value(row.objective),
            _value(row.bound),
            gap_cell(row),
            seconds(row.time_s),
            "yes" if row.verified else "[bold red]NO[/]" if row.status != "UNKNOWN" else "-",
            shown(row_certified(row)),
        )
    return table


def outcome(row: Row) -> str:
    """What a run of a problem without a gap (``GAPLESS``: tours) gave: ``found``, ``no tour
    (proven)`` or ``unknown`` (``unknown, covered N`` for a dead end that handed over its partial tour)."""
    if row.verified and row.status in ("OPTIMAL", "FEASIBLE"):
        return "found"
    if row.verified and row.status == "INFEASIBLE":
        return "no tour (proven)" if row.problem == "tour" else "none (proven)"
    return "unknown" if row.covered is None else f"unknown, covered {row.covered}"


def gap_cell(row: Row) -> str:
    """The gap of a run in %, or its :func:`outcome` where a gap means nothing (tours, and a
    proof that there is no solution: a 0 % gap there would read as a solution)."""
    from knightcert.compare.statistics import GAPLESS

    if row.problem in GAPLESS or (row.status == "INFEASIBLE" and row.verified):
        return outcome(row)
    return "-" if row.gap is None else f"{100 * row.gap:.1f}%"


def shown(text: object) -> str:
    """A name or message from a report or a foreign method, for a rich table: its markup escaped
    (an instance named ``[red]x.txt`` shows as ``[red]x.txt``, ``[/bold]`` cannot break the table)
    and its control characters written out.

    Examples
    --------
    >>> shown("[red]x.txt")
    '\\\\[red]x.txt'
    """
    from rich.markup import escape

    plain = "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
        for ch in str(text)
    )
    return escape(plain)


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


def _add_columns(table, names: Sequence[str], left: Sequence[str], centre: Sequence[str] = ()) -> None:
    """The columns ``names`` of a rich ``table``: text ``left`` aligned, ``centre`` centred, the
    rest (numbers) right aligned."""
    for name in names:
        justify = "left" if name in left else "center" if name in centre else "right"
        table.add_column(name, justify=justify, overflow="fold")


#: The columns of :func:`rows_table` and :func:`method_summary_table`.
ROW_COLUMNS = ("instance", "method", "status", "objective", "bound", "gap", "time", "verified", "certified")
SUMMARY_COLUMNS = (
    "problem", "method", "kind", "instances", "answered", "proven", "certified", "verified", "failed",
    "mean gap", "worst gap", "total time",
)


def method_summary_table(rows: Sequence[Row], title: str = ""):  # -> rich.table.Table
    """One row per (problem, method): how many answers, proven (OPTIMAL or INFEASIBLE), of those
    certified (every claim backed by a checked certificate, a theorem or the checker's search),
    verified, failed (no checked answer: never hidden), gap, time.

    The gaps are those of checked solutions; where a gap means nothing (tours), the gap cells
    say how many runs found a solution, of how many runs on instances where one exists
    (certified: a run of any method found a checked one), and how many proved there is none."""
    from rich.table import Table

    from knightcert.compare.statistics import solved

    table = Table(title=title or None, title_justify="left")
    _add_columns(table, SUMMARY_COLUMNS, left=("problem", "method", "kind"))
    exists = {r.instance_hash or r.instance for r in rows if solved(r)}
    for (problem, method), mine in grouped(rows, lambda row: (row.problem, row.method)).items():
        table.add_row(shown(problem), shown(method), *_summary_cells(problem, method, mine, exists))
    return table


def _summary_cells(problem: str, method: str, mine: list[Row], exists: set[str]) -> list[str]:
    """The cells of one method's row of :func:`method_summary_table` after its problem and name."""
    from knightcert.registry import is_exact

    answered = [r for r in mine if r.status != "UNKNOWN"]
    proven = [r for r in mine if r.status in ("OPTIMAL", "INFEASIBLE")]
    return [
        mine[0].kind or ("exact" if is_exact(problem, method) else "heuristic"),
        str(len(mine)),
        str(len(answered)),
        str(len(proven)),
        str(sum(r.certified for r in proven)),
        f"{sum(r.verified for r in answered)}/{len(answered)}",
        str(sum(not (r.verified and r.status != "UNKNOWN") for r in mine)),
        *_gap_cells(problem, mine, exists),
        seconds(sum(r.time_s for r in mine)),
    ]


def _gap_cells(problem: str, mine: list[Row], exists: set[str]) -> tuple[str, str]:
    """A method's mean and worst gap; where a gap means nothing (tours), how many runs found a
    solution, of those on instances where one exists, and how many proved there is none."""
    from knightcert.compare.statistics import GAPLESS, solved

    gaps = [r.gap for r in mine if solved(r) and r.gap is not None and problem not in GAPLESS]
    if gaps:
        return f"{100 * sum(gaps) / len(gaps):.1f}%", f"{100 * max(gaps):.1f}%"
    if problem not in GAPLESS:
        return "-", "-"
    none = sum(r.verified and r.status == "INFEASIBLE" for r in mine)
    where = sum((r.instance_hash or r.instance) in exists for r in mine)
    found = f"found {sum(solved(r) for r in mine)} of {where}" + (f", none {none}" if none else "")
    return found, found


def to_dataframe(rows: Sequence[Row], header=None):  # -> pandas.DataFrame
    """The runs as a pandas DataFrame: one row per run, the report's columns (``time_s``,
    ``cpu_s``, ``load``, ... as in a CSV report), plus, with a report ``header``
    (:func:`~knightcert.compare.report.read_header`), each instance's ``suite``, ``holes`` and
    ``generator_seed``.

    Raises
    ------
    KnightcertError
        pandas is not installed.

    Examples
    --------
    >>> from knightcert.compare.harness import failed_row
    >>> frame = to_dataframe([failed_row("knights", "8x8", "greedy", "crashed", 0.5)])
    >>> frame.loc[0, "instance"], frame.loc[0, "status"], float(frame.loc[0, "time_s"])
    ('8x8', 'UNKNOWN', 0.5)
    """
    try:
        import pandas
    except ImportError:
        from knightcert.problems.errors import KnightcertError

        raise KnightcertError("to_dataframe needs pandas: pip install pandas") from None
    from knightcert.compare.report import FIELDS

    data = [{field: row.as_dict().get(field) for field in FIELDS} for row in rows]
    frame = pandas.DataFrame(data, columns=list(FIELDS))
    if header:
        from knightcert.compare.statistics import instance_dimensions

        records = instance_dimensions(header)
        for name in ("suite", "holes", "generator_seed"):
            frame[name] = [records.get(row.instance, {}).get(name) for row in rows]
    return frame


class TextProgress:
    """A progress line in plain text (``compare knights: 12/60 runs, 8x8 greedy``), rewritten in
    place with ``\\r``: what a notebook shows when the widget packages (ipywidgets) are not
    installed, with the same calls as the rich bar (``advance(row)``, ``stop()``)."""

    def __init__(self, problem: str, total: int, done: int = 0, stream=None) -> None:
        import sys

        self.problem, self.total, self.done = problem, total, done
        self.stream = stream if stream is not None else sys.stdout
        self._show("")

    def _show(self, last: str) -> None:
        text = f"compare {self.problem}: {self.done}/{self.total} runs" + (f", {last}" if last else "")
        self.stream.write("\r" + text.ljust(78))
        self.stream.flush()

    def advance(self, row: Row) -> None:
        """One more run finished."""
        self.done += 1
        self._show(f"{row.instance} {row.method}")

    def stop(self) -> None:
        """End the line."""
        self.stream.write("\n")
        self.stream.flush()


def widgets_available() -> bool:
    """Whether rich can draw its live widget in a notebook (ipywidgets installed)."""
    import importlib.util

    return importlib.util.find_spec("ipywidgets") is not None
