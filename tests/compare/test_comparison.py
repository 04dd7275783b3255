from __future__ import annotations

import json
from pathlib import Path

import pytest

from knightcert.cli.main import main
from knightcert.compare.comparison import run_comparison
from knightcert.compare.experiment import ExperimentMismatch
from knightcert.compare.harness import failed_row, fill_gaps
from knightcert.compare.report import FIELDS, read_rows, write_rows
from knightcert.compare.runner import Task, run_isolated, run_task
from knightcert.compare.suites import SuiteItem, build_suite, parse_sizes, size_range
from knightcert.problems.errors import InvalidInstance, UnknownMethod
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.tours import tour_instance


@pytest.fixture(scope="module")
def seed_rows():
    return run_comparison(
        "knights", build_suite("knights", "seed"), ["greedy", "greedy+", "matching", "cpsat"]
    )


def test_rows_have_every_column(seed_rows):
    record = seed_rows[0].as_dict()
    for column in (
        "problem",
        "instance",
        "method",
        "status",
        "objective",
        "bound",
        "gap",
        "time_s",
        "peak_mb",
        "nodes",
        "verified",
        "error",
    ):
        assert column in record
    assert all(row.verified for row in seed_rows) and all(row.peak_mb > 0 for row in seed_rows)


def test_gaps_on_hand_computed_cases(seed_rows):
    by = {(row.instance, row.method): row for row in seed_rows}
    assert by["6x6", "greedy"].objective == 15
    assert by["6x6", "greedy"].gap == pytest.approx(3 / 18)  # |15 - 18| / 18
    assert by["6x6", "greedy+"].gap == 0 and by["6x6", "matching"].gap == 0
    assert by["3x3", "greedy"].gap == 0 and by["4x4", "cpsat"].gap == 0


def test_exact_methods_gap_is_to_their_own_bound():
    rows = [failed_row("knights", "a", "greedy", "", 0.0), failed_row("knights", "a", "cpsat", "", 0.0)]
    rows[0].status, rows[0].objective, rows[0].verified = "FEASIBLE", 90, True
    rows[1].status, rows[1].objective, rows[1].bound, rows[1].verified = "FEASIBLE", 95, 100, True
    fill_gaps(rows, {"a": 100})
    assert rows[0].gap == pytest.approx(0.10) and rows[1].gap == pytest.approx(0.05)


def _unchecked_knights(**fields):
    """A KnightsInstance built past its constructor's checks (as a buggy caller could)."""
    instance = KnightsInstance.__new__(KnightsInstance)
    for name, value in fields.items():
        object.__setattr__(instance, name, value)
    return instance


def test_timeouts_and_crashes_become_unknown_rows():
    tasks = [
        # killed by the wall clock: no proof of the 17 x 17 torus's optimum comes in half a second
        Task("knights", knights_instance(17, torus=True), "cpsat", wall=0.5),
        Task("knights", _unchecked_knights(board=None, name="broken"), "greedy"),  # a crash inside
        Task("knights", None, "greedy+"),  # refused: not an instance
        Task("knights", knights_instance(7), "csp"),  # refused (size limit)
        Task("knights", knights_instance(4), "matching"),
    ]
    rows = {row.method: row for row in run_isolated(tasks, workers=2)}
    assert rows["cpsat"].status == "UNKNOWN" and rows["cpsat"].error.startswith(
        "time limit: the method's call had not returned"
    )
    assert rows["greedy"].status == "UNKNOWN" and rows["greedy"].error.startswith("crash: AttributeError")
    assert rows["greedy+"].status == "UNKNOWN" and rows["greedy+"].error.startswith("refused: instance:")
    assert rows["csp"].status == "UNKNOWN" and rows["csp"].error.startswith("refused: csp handles up to 36")
    assert rows["matching"].status == "OPTIMAL" and rows["matching"].verified


def test_resume_skips_finished_runs(tmp_path):
    out = tmp_path / "runs.json"
    items = build_suite("knights", "seed")
    first = run_comparison("knights", items, ["greedy", "matching"], out=out)
    assert len(first) == 6
    data = json.loads(out.read_text())
    data["runs"] = data["runs"][:4]  # as if interrupted after four runs
    out.write_text(json.dumps(data))
    calls = []
    second = run_comparison("knights", items, ["greedy", "matching"], out=out, on_row=calls.append)
    assert len(calls) == 2 and len(second) == 6 and json.loads(out.read_text())["schema"] == 2
    assert [r.as_dict() for r in second] == [r.as_dict() for r in read_rows(out)]


def test_resume_refuses_another_experiment(tmp_path):
    out = tmp_path / "runs.json"
    items = build_suite("knights", "seed")
    run_comparison("knights", items, ["greedy"], out=out)
    with pytest.raises(ExperimentMismatch, match=r"different experiment \(methods"):
        run_comparison("knights", items, ["greedy", "matching"], out=out)
    with pytest.raises(ExperimentMismatch, match=r"time_limit null -> 5.0"):
        run_comparison("knights", items, ["greedy"], out=out, time_limit=5)
    assert len(read_rows(out)) == 3  # untouched


@pytest.mark.parametrize("suffix", [".csv", ".json", ".md", ".parquet"])
def test_reports_round_trip(seed_rows, tmp_path, suffix):
    path = tmp_path / f"report{suffix}"
    write_rows(seed_rows, path)
    again = read_rows(path)
    if suffix == ".md":  # rounded for reading
        for row in (*again, *seed_rows):
            row.time_s, row.gap = float(f"{row.time_s:.4g}"), float(f"{row.gap:.4g}")
            row.cpu_s = None if row.cpu_s is None else float(f"{row.cpu_s:.4g}")
            row.check_s = None if row.check_s is None else float(f"{row.check_s:.4g}")
            row.warm_s = None if row.warm_s is None else float(f"{row.warm_s:.4g}")
    assert [r.as_dict() for r in again] == [r.as_dict() for r in seed_rows]


def test_json_report_records_the_environment(seed_rows, tmp_path):
    path = tmp_path / "r.json"
    write_rows(seed_rows, path)
    data = json.loads(path.read_text())
    assert set(data) == {"schema", "command", "environment", "method_files", "warmup_s", "runs"}
    environment = data["environment"]
    assert environment["cores"] >= 1 and "ortools" in environment["versions"]
    assert (
        environment["cpu"] and environment["memory_gb"] > 0 and environment["cpsat"]["default_workers"] >= 1
    )
    assert set(data["runs"][0]) == set(FIELDS)


def test_plot_is_written(seed_rows, tmp_path):
    from knightcert.compare.plots import plot_rows

    plot_rows(seed_rows, tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


def test_unknown_methods_and_bad_sizes_are_rejected():
    with pytest.raises(UnknownMethod, match="choose one of"):
        run_comparison("knights", build_suite("knights", "seed"), ["greedy", "nope"])
    with pytest.raises(InvalidInstance, match=r"A\.\.B"):
        parse_sizes("4-10")
    assert size_range(4, 64) == [4, 7, 12, 21, 37, 64]


def test_every_suite_builds(shared_data):
    for problem in ("path", "jump", "knights", "tour"):
        for suite in ("seed", "scaling", "random"):
            items = build_suite(problem, suite, None if suite == "seed" else [5, 12])
            assert items and all(isinstance(item, SuiteItem) for item in items)


def test_compare_cli_writes_outputs(tmp_path, capsys):
    out, plot = tmp_path / "k.csv", tmp_path / "k.png"
    assert (
        main(
            [
                "compare",
                "knights",
                "--suite",
                "scaling",
                "--sizes",
                "4..8",
                "--methods",
                "greedy,matching",
                "--out",
                str(out),
                "--plot",
                str(plot),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "knightcert compare knights" in text and "answers verified" in text
    lines = out.read_text().splitlines()
    assert lines[0] == ",".join(FIELDS) and plot.exists()  # plain CSV: the header row first
    assert json.loads(Path(f"{out}.meta.json").read_text())["schema"] == 2  # the metadata beside it


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["compare", "knights", "--methods", "greedy,bogus"], "unknown method 'bogus'"),
        (["compare", "knights", "--sizes", "9..3"], "1 <= A <= B"),
        (["compare", "knights", "--out", "x.txt"], "--out must end in"),
        (["compare", "chess"], "invalid choice"),
    ],
)
def test_compare_cli_errors(argv, words, capsys):
    assert main(argv) == 2
    assert words in capsys.readouterr().err


@pytest.mark.heavy
def test_dask_local_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        rows = run_comparison(
            "knights", build_suite("knights", "seed"), ["greedy", "matching"], executor=client.get_executor()
        )
        assert len(rows) == 6 and all(row.verified for row in rows)
        assert (
            main(
                [
                    "compare",
                    "knights",
                    "--methods",
                    "matching",
                    "--dask",
                    cluster.scheduler_address,
                    "--out",
                    str(tmp_path / "d.json"),
                ]
            )
            == 0
        )
        assert len(json.loads((tmp_path / "d.json").read_text())["runs"]) == 3


def test_interruption_keeps_the_finished_runs(tmp_path):
    out = tmp_path / "partial.json"
    seen = []

    def stop_after_two(row):
        seen.append(row)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_comparison(
            "knights",
            build_suite("knights", "seed"),
            ["greedy", "matching"],
            out=out,
            on_row=stop_after_two,
            workers=1,
        )
    runs = json.loads(out.read_text())["runs"]
    assert len(runs) == 2 and all(run["verified"] for run in runs)
    resumed = run_comparison("knights", build_suite("knights", "seed"), ["greedy", "matching"], out=out)
    assert len(resumed) == 6


def test_repeats_are_rows_and_the_table_shows_their_median(capsys):
    from knightcert.compare.harness import median_of_repeats

    rows = run_comparison("knights", build_suite("knights", "seed"), ["greedy"], repeat=3)
    assert len(rows) == 9 and sorted({row.repeat for row in rows}) == [0, 1, 2]
    merged = median_of_repeats(rows)
    assert len(merged) == 3 and all(row.verified for row in merged)
    assert main(["compare", "knights", "--methods", "greedy", "--repeat", "2"]) == 0
    assert "median time of 2 runs" in capsys.readouterr().out


def test_tour_gap_is_the_share_of_squares_a_dead_end_left_out():
    from knightcert.compare.harness import row_from_result
    from knightcert.heuristics.tour_warnsdorff import warnsdorff

    inst = tour_instance(25, start=(0, 0))
    dead_end = warnsdorff(inst, backtracking=False)
    tour = warnsdorff(inst)
    rows = [row_from_result(dead_end, instance=inst), row_from_result(tour, instance=inst)]
    fill_gaps(rows, {inst.name: 625})
    assert dead_end.status.value == "UNKNOWN" and rows[0].covered == dead_end.info["covered"] < 625
    assert rows[0].covered == len(dead_end.certificate["partial"])  # the replayed partial tour
    assert rows[0].gap == pytest.approx(1 - rows[0].covered / 625) and rows[0].gap > 0
    assert tour.verified and rows[1].gap == 0


def test_a_dead_end_covers_squares_in_the_harness_too():
    """The harness's rows, in process and from a worker, replay a dead end's partial tour too."""
    from knightcert.heuristics.tour_warnsdorff import warnsdorff

    inst = tour_instance(25, start=(0, 0))
    task = Task("tour", inst, "warnsdorff", options=(("backtracking", False),))
    rows = [run_task(task), *run_isolated([task], workers=1)]
    assert [row.covered for row in rows] == [warnsdorff(inst, backtracking=False).info["covered"]] * 2
    fill_gaps(rows, {inst.name: 625})
    assert rows[0].gap == rows[1].gap > 0


def test_a_dead_end_covers_squares_in_a_report_read_back(tmp_path, capsys):
    """The report keeps ``covered``: a resume keeps the dead end's gap; an edited count is not backed."""
    from knightcert.compare.rechecked import backed_rows

    out = tmp_path / "r.json"
    argv = ["compare", "tour", "--suite", "scaling", "--sizes", "25", "--methods", "warnsdorff"]
    assert main([*argv, "--option", "backtracking=false", "--out", str(out), "--quiet"]) == 0
    assert main([*argv, "--option", "backtracking=false", "--out", str(out), "--quiet"]) == 0
    [row] = read_rows(out)
    assert 0 < row.covered < 625 and row.gap == pytest.approx(1 - row.covered / 625)
    assert backed_rows([row], tmp_path)[0] == [row]
    row.covered += 1
    assert backed_rows([row], tmp_path)[1] == [row]


def test_a_dead_end_coverage_is_replayed_never_read_from_info():
    """A method that finds nothing but says it covered every square gets no coverage (issue 19);
    nor does a partial tour that is not one (a jump that is no knight move, a square twice)."""
    from knightcert.compare.harness import row_from_result
    from knightcert.problems.result import Result, Status

    inst = tour_instance(5, start=(0, 0))
    boasts = Result("tour", "liar", Status.UNKNOWN, None, None, None, 0.0, info={"covered": 25})
    wrong = {"partial": [[0, 0], [1, 2], [1, 2]]}
    jumps = {"partial": [[0, 0], [0, 1]]}
    text = Result("tour", "liar", Status.UNKNOWN, None, None, None, 0.0, info={"covered": "all"})
    for result in (boasts, boasts.with_(certificate=wrong), boasts.with_(certificate=jumps), text):
        row = row_from_result(result, instance=inst)
        fill_gaps([row], {inst.name: 25})
        assert row.covered is None and row.gap is None


def test_starts_suite_runs_a_heuristic_from_every_start():
    from knightcert.compare.statistics import group_stats

    items = build_suite("tour", "starts", (5, 6))
    assert len(items) == 25 + 36 and items[0].instance.start == (0, 0)
    assert sum(item.known_optimum is not None for item in items) == 13 + 36  # majority colour on 5 x 5
    from knightcert.compare.harness import row_from_result
    from knightcert.heuristics.tour_warnsdorff import warnsdorff
    from knightcert.tour_auto import auto

    rows = [row_from_result(m(item.instance)) for item in items for m in (auto, warnsdorff)]
    for row, item in zip(rows, [item for item in items for _ in range(2)], strict=True):
        row.instance, row.size = item.name, item.size
    stats = {(g.key[1], g.key[0]): g for g in group_stats(rows, ("size", "method"))}
    # a complete method: 13 of 25 starts of 5 x 5 over all starts, every start where a tour exists
    assert stats["auto", 5].success == pytest.approx(13 / 25) and stats["auto", 5].success_exists == 1.0
    assert stats["auto", 6].success == stats["auto", 6].success_exists == 1.0
    assert stats["warnsdorff", 6].runs == 36 and stats["warnsdorff", 5].success_exists <= 1.0
    with pytest.raises(InvalidInstance, match="starts suite is for tours"):
        build_suite("knights", "starts")


def test_an_interruption_without_a_report_shows_the_finished_runs(capsys, monkeypatch):
    """A twelfth-session reviewer's finding: Ctrl-C without --out printed nothing of the runs done."""
    from knightcert.cli import compare

    advance = compare.Progress.advance

    def stop_after_two(self, row):
        advance(self, row)
        if len(self.rows) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(compare.Progress, "advance", stop_after_two)
    assert main(["compare", "knights", "--methods", "greedy,matching", "--json", "--workers", "1"]) == 130
    shown = json.loads(capsys.readouterr().out)
    assert len(shown) == 2 and all(run["verified"] for run in shown)
