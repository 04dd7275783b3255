"""A notebook user's loop: suites with seeds, progress without widgets, a DataFrame, a Figure."""

from __future__ import annotations

import pytest

from knightcert.compare import comparison, summary
from knightcert.compare.comparison import run_comparison
from knightcert.compare.suites import build_suite, resolve_suite
from knightcert.problems.errors import InvalidInstance


def test_build_suite_takes_seeds_and_holes_like_resolve_suite():
    items = build_suite("knights", "random", sizes=[6, 8], seeds=[3, 4], holes=0.2)
    spec = resolve_suite("knights", "random", sizes=[6, 8], seeds=[3, 4], holes=0.2)
    assert [i.name for i in items] == [i.name for i in build_suite("knights", spec)]
    assert [i.generator_seed for i in items] == [3, 4, 3, 4]
    assert len(build_suite("knights", "random", sizes=[6], seeds=3)) == 3  # a count, as --seeds 3
    with pytest.raises(InvalidInstance, match="already holds"):
        build_suite("knights", spec, seeds=[1])


def test_the_loop_in_a_notebook_without_widgets(monkeypatch, capsys):
    pandas = pytest.importorskip("pandas")
    matplotlib = pytest.importorskip("matplotlib")
    monkeypatch.setattr(comparison, "in_notebook", lambda: True)
    monkeypatch.setattr(summary, "widgets_available", lambda: False)
    items = build_suite("knights", "random", sizes=[6, 9], seeds=2)
    rows = run_comparison("knights", items, ["greedy", "matching"], repeat=1)
    shown = capsys.readouterr().out
    assert "\rcompare knights: 8/8 runs" in shown and shown.endswith("\n")
    frame = summary.to_dataframe(rows, {"instances": comparison.instance_records(items)})
    assert isinstance(frame, pandas.DataFrame) and len(frame) == 8
    assert {"time_s", "cpu_s", "load", "generator_seed"} <= set(frame.columns)
    assert (
        frame.groupby("method")["objective"].sum()["matching"]
        >= frame.groupby("method")["objective"].sum()["greedy"]
    )
    assert rows[0].time == rows[0].time_s  # Result.time and the report's time_s are one number
    from knightcert.compare.plots import plot_rows

    figure = plot_rows(rows)  # no file: the Figure only
    assert isinstance(figure, matplotlib.figure.Figure) and len(figure.axes) == 2
