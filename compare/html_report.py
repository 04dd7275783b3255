"""``knightcert report R.json --html PAGE``: one self-contained page of a comparison report.

The page needs no network: plots are PNG data URIs, answers inline SVG. It holds the summary
per method, the statistics, the plots (with matplotlib), what was certified and how, one
collapsed group per instance with its runs and pictures of its best and worst answers (read from
the answer files of ``compare --answers DIR``), and the report's provenance.
"""

from __future__ import annotations

import base64
import html
import os
import tempfile
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from knightcert.compare.harness import Row, grouped

__all__ = ["MAX_PICTURED", "html_report"]

#: Instances given pictures of their best and worst answers (the rest keep their runs table).
MAX_PICTURED = 100
_STYLE = (
    "body{font:14px system-ui,sans-serif;margin:2em;max-width:75em}table{border-collapse:collapse;"
    "margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#eee}"
    "details{margin:.3em 0}summary{cursor:pointer}figure{display:inline-block;margin:.5em}"
    "img.plot{max-width:100%}pre{background:#f6f6f6;padding:.5em;white-space:pre-wrap}"
)


def html_report(
    rows: Sequence[Row], header: Mapping[str, Any], source: str, answers: str | None = None
) -> str:
    """The page for ``rows`` of the report ``source`` (``header``: its provenance); pictures from
    the answer files in ``answers`` when given."""
    from knightcert.compare.statistics import default_by, instance_dimensions, stats_table

    dimensions = instance_dimensions(header)
    problem = rows[0].problem
    parts = [
        f"<h1>{html.escape(problem)}: {html.escape(os.path.basename(source))}</h1>",
        f"<p>{len(rows)} runs, {len({r.instance for r in rows})} instances, "
        f"{len({r.method for r in rows})} methods; {sum(r.verified for r in rows)} answers verified, "
        f"{sum(r.certified for r in rows)} certified.</p>",
        "<h2>Summary per method</h2>",
        markdown_html(stats_table(rows, ("method",), "md", dimensions)),
        "<h2>Statistics</h2>",
        markdown_html(stats_table(rows, default_by(rows), "md", dimensions)),
        *_plots(rows, dimensions),
        "<h2>What was certified, and how</h2>",
        _table(
            ["method", "evidence", "runs"],
            [[m, e or "-", n] for (m, e), n in sorted(Counter((r.method, r.evidence) for r in rows).items())],
        ),
        "<h2>Instances</h2>",
        *_instances(rows, answers),
        "<h2>Provenance</h2>",
        f"<pre>{html.escape(_provenance(header))}</pre>",
    ]
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>knightcert report '
        f"{html.escape(os.path.basename(source))}</title><style>{_STYLE}</style></head><body>"
        + "\n".join(parts)
        + "</body></html>\n"
    )


def markdown_html(text: str) -> str:
    """A Markdown table (and the note lines around it) as HTML.

    Examples
    --------
    >>> markdown_html("| a | b |\\n|---|---|\\n| 1 | 2 |\\nnote")
    '<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table><p>note</p>'
    """
    cells = [line.strip().strip("|").split("|") for line in text.splitlines() if line.startswith("|")]
    body = [[c.strip() for c in row] for row in cells if not set("".join(row)) <= set("-: ")]
    notes = "".join(f"<p>{html.escape(line)}</p>" for line in text.splitlines() if line and line[0] != "|")
    return (_table(body[0], body[1:]) if body else "") + notes


def _table(head: Sequence[Any], body: Sequence[Sequence[Any]]) -> str:
    def row(cells: Sequence[Any], tag: str) -> str:
        return "<tr>" + "".join(f"<{tag}>{html.escape(str(c))}</{tag}>" for c in cells) + "</tr>"

    return "<table>" + row(head, "th") + "".join(row(cells, "td") for cells in body) + "</table>"


def _plots(rows: Sequence[Row], dimensions: Any) -> list[str]:
    """The gap and time curves and the performance profiles, as PNG data URIs (matplotlib)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        return [
            "<h2>Plots</h2><p>(no plots: matplotlib is not installed; pip install 'knightcert[plot]')</p>"
        ]
    from knightcert.compare.plots import plot_rows
    from knightcert.compare.profiles import plot_profiles

    out = ["<h2>Plots</h2>"]
    with tempfile.TemporaryDirectory() as folder:
        for name, draw in (
            ("curves", lambda path: plot_rows(rows, path, instances=dimensions)),
            ("profiles", lambda path: plot_profiles(rows, path, title=rows[0].problem)),
        ):
            path = os.path.join(folder, f"{name}.png")
            draw(path)
            with open(path, "rb") as stream:
                data = base64.b64encode(stream.read()).decode()
            out.append(f'<img class="plot" alt="{name}" src="data:image/png;base64,{data}">')
    return out


def _instances(rows: Sequence[Row], answers: str | None) -> list[str]:
    """One collapsed group per instance: its runs, and its best and worst answers drawn."""
    from knightcert.compare.summary import gap_cell, outcome

    out = []
    for index, (name, runs) in enumerate(grouped(rows, lambda row: row.instance).items()):
        head = ["method", "repeat", "outcome", "objective", "gap", "time s", "certified", "evidence"]
        cells = [
            [r.method, r.repeat, outcome(r), r.objective, gap_cell(r), f"{r.time_s:.3g}",
             "yes" if r.certified else "no", r.evidence]
            for r in runs
        ]
        table = _table(head, cells)
        pictures = _pictures(runs, answers) if answers and index < MAX_PICTURED else ""
        out.append(
            f"<details{' open' * (index == 0)}><summary>{html.escape(name)} ({len(runs)} runs)</summary>"
            f"{table}{pictures}</details>"
        )
    return out


def _pictures(runs: Sequence[Row], answers: str) -> str:
    """The best and the worst verified answers of one instance (by gap, then objective)."""
    from knightcert.problems.answers import instance_for_answer, read_answer, result_from_answer
    from knightcert.problems.errors import KnightcertError
    from knightcert.problems.picture import answer_svg

    answered = [r for r in runs if r.verified and r.objective is not None]
    if not answered:
        return ""
    sign = -1 if runs[0].problem == "knights" else 1
    ranked = sorted(answered, key=lambda r: (r.gap if r.gap is not None else 0.0, sign * (r.objective or 0)))
    figures = []
    for label, row in (("best", ranked[0]), ("worst", ranked[-1]))[: 1 if len(ranked) == 1 else 2]:
        try:
            data = read_answer(os.path.join(answers, os.path.basename(row.answer)))
            instance = instance_for_answer(data)
            result = result_from_answer(data, problem=row.problem, instance=instance)
        except (KnightcertError, OSError):
            continue
        svg = answer_svg(row.problem, result.solution, instance, size=320)
        caption = html.escape(f"{label}: {row.method} (repeat {row.repeat}), {row.objective}")
        figures.append(f"<figure>{svg}<figcaption>{caption}</figcaption></figure>")
    return "".join(figures)


def _provenance(header: Mapping[str, Any]) -> str:
    import json
    import shlex

    command = header.get("command")
    lines = [f"command: {shlex.join(map(str, command))}"] if isinstance(command, list) else []
    lines += [
        f"{k}: {json.dumps(header[k], default=str)}" for k in ("experiment", "environment") if k in header
    ]
    return "\n".join(lines)
