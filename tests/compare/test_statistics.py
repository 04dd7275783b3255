"""Statistics, tables, plots and performance profiles of comparison reports."""

from __future__ import annotations

import csv
import io
import json
import math
import re

import numpy as np
import pytest

from knightcert.cli.main import main
from knightcert.compare.comparison import run_comparison
from knightcert.compare.harness import failed_row
from knightcert.compare.profiles import performance_ratios, profile
from knightcert.compare.report import read_header, read_rows, write_rows
from knightcert.compare.statistics import group_stats, stats_table, t_interval
from knightcert.compare.suites import build_suite, resolve_suite
from knightcert.compare.summary import method_summary_table as method_summary


def row(instance, method, status="FEASIBLE", gap=0.0, time_s=0.01, size=10, repeat=0):
    r = failed_row("knights", instance, method, "", time_s)
    r.status, r.verified, r.gap, r.size, r.repeat, r.peak_mb = (
        status,
        status != "UNKNOWN",
        gap,
        size,
        repeat,
        100.0,
    )
    if status == "UNKNOWN":
        r.gap = None
    if status in ("FEASIBLE", "OPTIMAL"):
        r.objective = 10  # a verified answer has a value (a report read back is checked for it)
    return r


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "r.json"
    spec = resolve_suite("knights", "random", sizes=[6, 10], seeds=[0, 1, 2])
    run_comparison("knights", build_suite("knights", spec), ["greedy", "matching"], out=path, suites=[spec])
    return path


def test_group_statistics_by_hand():
    rows = [
        row(f"i{k}", "greedy", gap=g, time_s=t)
        for k, (g, t) in enumerate([(0, 1), (0.1, 2), (0.2, 3), (0, 4)])
    ]
    rows.append(row("i4", "greedy", status="UNKNOWN", time_s=10))
    [stats] = group_stats(rows, ("method",))
    assert (stats.runs, stats.answered, stats.gaps) == (5, 4, 4)
    assert stats.success == pytest.approx(2 / 5) and stats.gap_mean == pytest.approx(0.075)
    assert stats.gap_median == pytest.approx(0.05)
    assert (stats.time_q1, stats.time_median, stats.time_q3) == (2, 3, 4)
    # Student-t over the 4 instances with a gap: 0.075 ± t(0.975, 3) * s / 2, cut at 0
    assert stats.gap_mean_ci == pytest.approx((0.0, 0.075 + 3.182446 * np.std([0, 0.1, 0.2, 0], ddof=1) / 2))
    assert stats.gap_median_ci is None and stats.few  # 4 instances: no median interval, flagged
    assert (stats.failed, stats.none_proven, stats.gap_spread) == (1, 0, None)
    assert group_stats(rows, ("method",)) == [stats]


def test_small_samples_are_not_made_to_look_precise(capsys):
    """The t-interval is wider than the percentile bootstrap at n = 4, and the table says so."""
    gaps = [0.02, 0.05, 0.11, 0.04]
    [stats] = group_stats([row(f"i{k}", "h", gap=g) for k, g in enumerate(gaps)], ("method",))
    low, high = stats.gap_mean_ci
    from scipy import stats as scipy_stats

    percentile = scipy_stats.bootstrap((np.array(gaps),), np.mean, method="percentile", rng=0)
    p_low, p_high = percentile.confidence_interval
    assert high - low > 1.5 * (p_high - p_low)
    table = stats_table([row(f"i{k}", "h", gap=g) for k, g in enumerate(gaps)], ("method",))
    assert "| h | 4 | 4 †" in table and "fewer than 10 instances" in table and "Student-t" in table
    many = [row(f"i{k}", "h", gap=0.01 * k) for k in range(12)]
    assert "†" not in stats_table(many, ("method",))


def test_success_and_time_are_per_instance_and_the_seed_spread_shows():
    # instance a: two repeats, one a success; instance b: one success. Per run: 2/3; per instance: 3/4
    rows = [
        row("a", "r", gap=0.0, time_s=1.0, repeat=0),
        row("a", "r", gap=0.2, time_s=3.0, repeat=1),
        row("b", "r", gap=0.0, time_s=10.0),
    ]
    [stats] = group_stats(rows, ("method",))
    assert stats.success == pytest.approx(0.75)
    assert stats.time_median == pytest.approx(6.0)  # median of the instance means 2 and 10
    assert stats.gap_spread == pytest.approx(np.sqrt(0.02))  # pooled within-instance SD
    assert stats.cpu_median is None  # rows without cpu_s (an older report)


def test_tours_have_no_gap_and_success_counts_only_tours():
    def tour(instance, status, verified=True, gap=0.0):
        r = failed_row("tour", instance, "warnsdorff", "", 0.5)
        r.status, r.verified, r.gap, r.size = status, verified, gap, 5
        return r

    rows = [tour("5x5", "INFEASIBLE"), tour("6x6", "FEASIBLE"), tour("7x7", "UNKNOWN", False, 0.3)]
    rows[1].objective = 36
    [stats] = group_stats(rows, ("method",))
    assert stats.gapless and stats.gap_mean is None and stats.gaps == 0
    assert stats.success == pytest.approx(1 / 3)  # the board without a tour is no success
    assert stats.success_exists == 1.0  # but every board where a tour exists has one
    assert (stats.answered - stats.none_proven, stats.none_proven, stats.failed) == (1, 1, 1)
    table = stats_table(rows, ("method",))
    assert "found | none proven | unknown | rejected" in table and "0.00 %" not in table and "No gap" in table
    assert "| 1 | 1 | 1 | 0 |" in table
    refused = stats_table([*rows, tour("8x8", "INFEASIBLE", False)], ("method",))  # a 'No' refused
    assert "| 1 | 1 | 1 | 1 |" in refused  # rejected, not unknown
    assert "| success | success where one exists |" in table and "| 33 % | 100 % |" in table
    import rich.console

    from knightcert.compare.summary import rows_table

    console = rich.console.Console(width=200, record=True)
    console.print(rows_table(rows))
    console.print(method_summary(rows))
    text = console.export_text()
    assert "0.0%" not in text and "no tour (proven)" in text and "found" in text


def test_groups_are_ordered_by_size_then_method_order():
    rows = [
        row("a", "m2", size=20),
        row("b", "m1", size=10),
        row("c", "m1", size=20),
        row("d", "m2", size=10),
    ]
    assert [s.key for s in group_stats(rows, ("size", "method"))] == [
        (10, "m2"),
        (10, "m1"),
        (20, "m2"),
        (20, "m1"),
    ]


def test_performance_ratios_and_profiles():
    rows = [
        row("a", "x", time_s=1.0),
        row("a", "y", time_s=4.0),
        row("b", "x", status="UNKNOWN", time_s=9.0),
        row("b", "y", time_s=2.0, gap=0.5),
    ]
    ratios = performance_ratios(rows, "time")
    assert ratios["x"].tolist() == [1.0, math.inf] and ratios["y"].tolist() == [4.0, 1.0]
    assert profile(ratios["y"], np.array([1.0, 3.9, 4.0])).tolist() == [0.5, 0.5, 1.0]
    gaps = performance_ratios(rows, "gap")
    assert gaps["x"].tolist() == [1.0, math.inf] and gaps["y"].tolist() == [1.0, 1.5]


def test_tables_in_three_formats(report):
    rows = read_rows(report)
    markdown = stats_table(rows, ("size", "method"), "md")
    assert markdown.splitlines()[0].startswith("| size | method | runs | instances | repeats | answered |")
    table_lines = [line for line in markdown.splitlines() if line.startswith("|")]
    assert len(table_lines) == 2 + 4 and not re.search(r"\d\.\d{3,}", markdown)  # rounded
    table = list(csv.DictReader(io.StringIO(stats_table(rows, ("method",), "csv"))))
    assert [t["method"] for t in table] == ["greedy", "matching"] and table[1]["success"] == "1.0"
    assert float(table[0]["gap_mean_low"]) <= float(table[0]["gap_mean"]) <= float(table[0]["gap_mean_high"])
    latex = stats_table(rows, ("method",), "latex")
    assert latex.startswith("\\begin{tabular}") and "\\%" in latex and "\\bottomrule" in latex


def test_report_command(report, tmp_path, capsys):
    plot, profiles = tmp_path / "p.png", tmp_path / "prof.png"
    assert main(["report", str(report), "--plot", str(plot), "--profile", str(profiles)]) == 0
    out = capsys.readouterr().out
    assert "| 10 | matching | 3 | 3 † | 1 | 3 | 0 | 3 | 100 % | 3 |" in out and "Student-t" in out
    assert plot.read_bytes()[:4] == b"\x89PNG" and profiles.read_bytes()[:4] == b"\x89PNG"
    assert main(["report", str(report), "--by", "instance,method", "--format", "csv"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1 + 6 * 2
    assert main(["report", str(report), "--by", "colour"]) == 2
    assert "--by takes fields among" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.json")]) == 2


def test_parquet_for_pandas_with_the_header(report, tmp_path):
    pandas = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    rows, header = read_rows(report), read_header(report)
    path = tmp_path / "r.parquet"
    write_rows(rows, path, header)
    frame = pandas.read_parquet(path)
    assert len(frame) == len(rows) and frame["verified"].dtype == bool and frame["seed"].notna().all()
    assert read_header(path)["experiment"] == json.loads(report.read_text())["experiment"]
    assert [r.as_dict() for r in read_rows(path)] == [r.as_dict() for r in rows]


@pytest.mark.parametrize("argv", [["--help"], ["report", "--help"], ["compare", "--help"]])
def test_help_pages(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0 and "usage: knightcert" in capsys.readouterr().out


def test_missing_optional_packages_are_refused_before_any_run(monkeypatch, tmp_path, capsys):
    import builtins

    real_import = builtins.__import__

    def no_pyarrow(name, *args, **kwargs):
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    out = tmp_path / "r.parquet"
    assert main(["compare", "knights", "--methods", "greedy", "--out", str(out), "--quiet"]) == 2
    assert "knightcert[parquet]" in capsys.readouterr().err and not out.exists()


def test_repeats_are_averaged_within_an_instance_before_the_interval():
    """Two identical repeats must not narrow the interval: instances are the unit of sampling."""
    gaps = [0.0, 0.05, 0.1, 0.02, 0.08, 0.0, 0.12, 0.03]
    once = [row(f"i{k}", "greedy", gap=g) for k, g in enumerate(gaps)]
    twice = [row(f"i{k}", "greedy", gap=g, repeat=r) for r in (0, 1) for k, g in enumerate(gaps)]
    [a], [b] = group_stats(once, ("method",)), group_stats(twice, ("method",))
    assert (b.runs, b.instances, b.repeats, b.gaps) == (16, 8, 2, 16)
    assert b.gap_mean == a.gap_mean and b.gap_mean_ci == a.gap_mean_ci  # not narrower
    # the old way (runs as samples) would have given a narrower interval
    runs_as_samples = t_interval(np.array(gaps * 2))
    assert runs_as_samples[1] - runs_as_samples[0] < a.gap_mean_ci[1] - a.gap_mean_ci[0]
    # repeats that differ are averaged: one value per instance
    noisy = [row("i0", "r", gap=0.1, repeat=0), row("i0", "r", gap=0.3, repeat=1), row("i1", "r", gap=0.0)]
    [stats] = group_stats(noisy, ("method",))
    assert (stats.instances, stats.repeats) == (2, 2) and stats.gap_mean == pytest.approx(0.1)


def test_report_groups_by_suite_holes_and_generator_seed(tmp_path, capsys):
    path = tmp_path / "r.json"
    specs = [resolve_suite("knights", "random", sizes=[6], seeds=[0, 1], holes=h) for h in (0.1, 0.3)] + [
        resolve_suite("knights", "scaling", sizes=[6, 8])
    ]
    items = [item for spec in specs for item in build_suite("knights", spec)]
    run_comparison("knights", items, ["greedy"], out=path, suites=specs)
    for by, expected in (
        ("holes", ["0.1", "0.3", ""]),
        ("suite", ["random", "scaling"]),
        ("seed", ["0", "1", ""]),
    ):
        assert main(["report", str(path), "--by", f"{by},method", "--format", "csv"]) == 0
        table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
        assert [t[by] for t in table] == expected, by
        assert {t["method"] for t in table} == {"greedy"}


def test_two_reports_compared_by_a_paired_test(tmp_path, capsys):
    """``knightcert report A B``: per method, paired by instance, Wilcoxon on gaps and times."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    old = [row(f"i{k}", "h", gap=0.1 + 0.01 * k, time_s=1.0) for k in range(10)]
    new = [row(f"i{k}", "h", gap=0.05 + 0.01 * k, time_s=1.0) for k in range(10)]
    new += [row("only-in-b", "h", gap=0.9)]  # not shared: left out of the pairs
    write_rows(old, a)
    write_rows(new, b)
    assert main(["report", str(a), str(b), "--format", "csv"]) == 0
    table = {t["measure"]: t for t in csv.DictReader(io.StringIO(capsys.readouterr().out))}
    gap, time = table["gap"], table["time"]
    assert gap["pairs"] == "10" and gap["verdict"] == "B better" and float(gap["effect"]) == -1.0
    assert float(gap["p"]) < 0.01 and float(gap["diff_median"]) == pytest.approx(-0.05)
    assert time["verdict"] == "same"
    assert main(["report", str(b), str(a)]) == 0
    assert "A better" in capsys.readouterr().out
    other = tmp_path / "c.json"
    write_rows([row("i0", "other")], other)
    assert main(["report", str(a), str(other)]) == 2
    assert "no method in common" in capsys.readouterr().err


@pytest.mark.heavy
def test_a_changed_method_file_is_said_and_time_verdicts_need_a_comparable_machine(
    tmp_path, monkeypatch, capsys
):
    """``report A B`` names a method file that changed between A and B; wall-time verdicts are
    withheld when the load differs; p-values are Holm-corrected and the output says so."""
    import shutil
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "rgreedy.py"
    shutil.copy(example, tmp_path / "mygreedy.py")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    argv = ["compare", "knights", "--suite", "scaling", "--sizes", "6,8", "--quiet"]
    assert main([*argv, "--methods", "greedy,mygreedy:solve", "--out", "a.json"]) == 0
    with open("mygreedy.py", "a") as handle:
        handle.write("\n# tuned\n")
    assert main([*argv, "--methods", "greedy,mygreedy:solve", "--out", "b.json"]) == 0
    capsys.readouterr()
    assert main(["report", "a.json", "b.json"]) == 0
    out = capsys.readouterr().out
    assert "warning: method mygreedy:solve: its file" in out and "mygreedy.py changed (sha256" in out
    assert "corrected for" in out and "Holm" in out and "| cpu |" in out

    # the same rows, B on a loaded machine: no verdict on wall time without a warning
    rows = read_rows("a.json")
    slow = [row(f"i{k}", "h", gap=0.1, time_s=1.0 + 0.1 * k) for k in range(12)]
    fast = [row(f"i{k}", "h", gap=0.1, time_s=0.5 + 0.05 * k) for k in range(12)]
    for r in slow:
        r.load, r.cpu_s = 0.1, 0.5
    for r in fast:
        r.load, r.cpu_s = 1.9, 0.5
    header = read_header("a.json")
    write_rows(slow, "la.json", header)
    write_rows(fast, "lb.json", header)
    assert main(["report", "la.json", "lb.json"]) == 0
    out = capsys.readouterr().out
    assert "better" not in out and "| h | time | 12 |" in out and "not comparable (B lower)" in out
    assert "warning: a busy machine" in out and "| h | cpu | 12 |" in out and rows


def test_a_method_whose_median_run_takes_half_the_time_limit_is_budget_bound():
    """``budget_bound``: at least half the experiment's limit (the boundary included) marks a
    method whose CPU time measures the machine's share, not its speed."""
    from knightcert.compare.paired import budget_bound

    rows = [row("a", "half", time_s=1.0), row("b", "half", time_s=1.0), row("a", "less", time_s=0.99)]
    assert budget_bound({"experiment": {"time_limit": 2}}, rows) == {"half"}
    assert budget_bound({"experiment": {}}, rows) == set()
