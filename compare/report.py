"""Writing and reading comparison results: CSV, JSON, Markdown, plots."""

from __future__ import annotations

import csv
import io
import json
import os
import platform
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from knightcert.compare.harness import COLUMNS, Row
from knightcert.compare.report_file import read_report_text, resume_mismatch, write_text_atomic
from knightcert.problems.errors import InvalidReport

SCHEMA = 1
FIELDS = (*COLUMNS, "size", "repeat")
FORMATS = (".csv", ".json", ".md")


def environment() -> dict[str, Any]:
    """Versions and machine, recorded with every JSON report."""
    from importlib import metadata

    versions = {}
    for package in ("knightcert", "ortools", "numpy", "scipy", "numba", "python-constraint2"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "versions": versions,
    }


def write_rows(rows: Sequence[Row], path: str | os.PathLike[str]) -> None:
    """Write rows as CSV, JSON or Markdown, chosen by the file ending; atomically
    (a temporary file unique to this writer, renamed over the report)."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".csv":
        text = to_csv(rows)
    elif suffix == ".json":
        text = (
            json.dumps(
                {"schema": SCHEMA, "environment": environment(), "runs": [_record(r) for r in rows]}, indent=1
            )
            + "\n"
        )
    elif suffix == ".md":
        text = to_markdown(rows)
    else:
        from knightcert.problems.errors import InvalidInstance

        raise InvalidInstance(f"unknown output format {suffix!r}: use .csv, .json or .md", str(path))
    write_text_atomic(target, text)


def _record(row: Row) -> dict[str, Any]:
    data = row.as_dict()
    return {field: data.get(field) for field in FIELDS}


def to_csv(rows: Sequence[Row]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in _record(row).items()})
    return buffer.getvalue()


def to_markdown(rows: Sequence[Row]) -> str:
    lines = ["| " + " | ".join(FIELDS) + " |", "|" + "---|" * len(FIELDS)]
    for row in rows:
        cells = ["" if v is None else str(v).replace("|", "\\|") for v in _record(row).values()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def read_rows(path: str | os.PathLike[str]) -> list[Row]:
    """Read rows back from a CSV, JSON or Markdown report written by :func:`write_rows`.

    Raises
    ------
    InvalidReport
        The file is not a readable report (empty, truncated, binary, another
        program's file, a folder or device); the message names the file and why.
    """
    target = Path(path)
    text = read_report_text(target)
    suffix = target.suffix.lower()
    if suffix not in FORMATS:
        raise InvalidReport(f"unknown report format {suffix!r}", str(path))
    try:
        records = _records(text, suffix)
        return [_row(record) for record in records]
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError) as exc:
        why = f"a run has no {exc.args[0]!r} field" if isinstance(exc, KeyError) and exc.args else exc
        raise InvalidReport(f"not a knightcert report: {str(why)[:80]}", str(path)) from None


def _records(text: str, suffix: str) -> list[dict[str, Any]]:
    if not text.strip():
        raise ValueError("the file is empty")
    if suffix == ".json":
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("runs"), list):
            raise ValueError("no 'runs' list")
        records = data["runs"]
    elif suffix == ".csv":
        records = list(csv.DictReader(io.StringIO(text)))
        if not records and text.splitlines()[0].split(",")[:1] != ["problem"]:
            raise ValueError("no header row")
    else:
        lines = [line for line in text.splitlines() if line.startswith("|")][2:]
        records = [dict(zip(FIELDS, _split_md(line), strict=True)) for line in lines]
    if not all(isinstance(record, dict) for record in records):
        raise ValueError("a run is not a record")
    return records


def _split_md(line: str) -> list[str]:
    cells, current, escaped = [], "", False
    for ch in line.strip()[1:-1]:
        if escaped:
            current += ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "|":
            cells.append(current.strip())
            current = ""
        else:
            current += ch
    cells.append(current.strip())
    return cells


def _row(record: dict[str, Any]) -> Row:
    def value(name: str, kind: type):
        raw = record.get(name)
        if raw is None or raw == "":
            return None
        if kind is bool:
            return raw if isinstance(raw, bool) else str(raw) == "True"
        number = float(raw)
        return (
            int(number)
            if kind is int or (kind is float and number.is_integer() and name in ("objective", "bound"))
            else number
        )

    return Row(
        problem=str(record["problem"]),
        instance=str(record["instance"]),
        method=str(record["method"]),
        status=str(record["status"]),
        objective=value("objective", float),
        bound=value("bound", float),
        gap=value("gap", float),
        time_s=value("time_s", float) or 0.0,
        peak_mb=value("peak_mb", float),
        nodes=value("nodes", int),
        verified=bool(value("verified", bool)),
        certified=bool(value("certified", bool)),
        evidence=str(record.get("evidence") or ""),
        error=str(record.get("error") or ""),
        size=value("size", int),
        repeat=value("repeat", int) or 0,
    )


def resume_rows(path: str | os.PathLike[str] | None, problem: str) -> list[Row]:
    """The finished runs of an existing report ``path`` that a run of ``problem`` resumes.

    Returns ``[]`` when there is no report yet.

    Raises
    ------
    InvalidReport
        The file is not a readable report, or it belongs to another
        experiment (:func:`~knightcert.compare.report_file.resume_mismatch`): it is
        refused, never overwritten.
    """
    if path is None or not os.path.lexists(path):
        return []
    rows = read_rows(path)
    for found in dict.fromkeys(row.problem for row in rows):
        why = resume_mismatch({"problem": found}, {"problem": problem})
        if why is not None:
            raise InvalidReport(f"cannot resume: {why}; choose another --out", os.fspath(path))
    return rows


def plot_rows(rows: Sequence[Row], path: str | os.PathLike[str]) -> None:
    """Gap against size and time against size (log scale), one line per method."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from knightcert.problems.errors import KnightcertError

        raise KnightcertError("--plot needs matplotlib: pip install 'knightcert[plot]'") from None
    figure, (gap_axis, time_axis) = plt.subplots(1, 2, figsize=(11, 4.2))
    for method in dict.fromkeys(r.method for r in rows):
        mine = sorted((r for r in rows if r.method == method and r.size is not None), key=lambda r: r.size)
        if not mine:
            continue
        with_gap = [r for r in mine if r.gap is not None]
        gap_axis.plot([r.size for r in with_gap], [100 * r.gap for r in with_gap], marker="o", label=method)
        time_axis.plot([r.size for r in mine], [max(r.time_s, 1e-6) for r in mine], marker="o", label=method)
    problem = rows[0].problem if rows else ""
    gap_axis.set(xlabel="size", ylabel="gap to best proven value (%)", title=f"{problem}: gap")
    time_axis.set(xlabel="size", ylabel="time (s)", yscale="log", title=f"{problem}: time")
    for axis in (gap_axis, time_axis):
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
