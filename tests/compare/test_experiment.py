"""Experiments a colleague can re-run: the file, the record, the seeds, resume, rerun."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from knightcert.cli.main import main
from knightcert.compare.experiment import (
    experiment_from_dict,
    parse_seeds,
    read_experiment,
    run_seed,
    same_experiment,
)
from knightcert.compare.suites import build_suite, instance_hash, parse_sizes, resolve_suite
from knightcert.problems.errors import InvalidInstance

STUDY = """
# a miniature of docs/experiments.md's study
problem = "knights"
seed = 7
repeat = 2
methods = ["greedy", "greedy+", {{ name = "matching" }}]

[[suites]]
suite = "random"
sizes = [6, 9]
seeds = "3..3"
holes = {holes}
"""


@pytest.fixture
def study(tmp_path):
    path = tmp_path / "study.toml"
    path.write_text(STUDY.format(holes=0.2))
    return path


def outcome(path):
    """What must not change between two runs of one experiment: answers, seeds, instances."""
    data = json.loads(path.read_text())
    runs = sorted(
        (r["instance"], r["method"], r["repeat"], r["status"], r["objective"], r["seed"], r["instance_hash"])
        for r in data["runs"]
    )
    experiment = {k: v for k, v in data["experiment"].items() if k != "workers"}  # how, not what
    return experiment, data["instances"], runs


def test_same_file_twice_gives_the_same_answers_and_seeds(study, tmp_path, capsys):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["compare", "--experiment", str(study), "--out", str(first), "--quiet"]) == 0
    assert (
        main(["compare", "--experiment", str(study), "--out", str(second), "--quiet", "--workers", "1"]) == 0
    )
    experiment, instances, runs = outcome(first)
    assert outcome(second) == (experiment, instances, runs)
    assert len(runs) == 2 * 3 * 2 and len({r[5] for r in runs}) == len(runs)  # one seed per run
    assert experiment["suites"] == [{"suite": "random", "sizes": [6, 9], "seeds": [3], "holes": 0.2}]
    assert [i["name"] for i in instances] == ["knights-6x6-h0.2-s3", "knights-9x9-h0.2-s3"]
    hashes = {i["name"]: i["sha256"] for i in instances}
    assert all(r[6] == hashes[r[0]] and r[5] is not None for r in runs)
    header = json.loads(first.read_text())
    assert header["command"][:3] == ["knightcert", "compare", "--experiment"]
    assert header["environment"]["cpsat"] and set(header["warmup_s"]) <= {"greedy", "greedy+", "matching"}


def test_rerun_reproduces(study, tmp_path, capsys):
    first, again = tmp_path / "a.json", tmp_path / "again.json"
    assert main(["compare", "--experiment", str(study), "--out", str(first), "--quiet"]) == 0
    assert main(["compare", "--rerun", str(first), "--out", str(again), "--quiet"]) == 0
    assert outcome(again) == outcome(first)
    data = json.loads(first.read_text())
    data["instances"][1]["sha256"] = "0" * 64  # as if the generator had changed since
    first.write_text(json.dumps(data))
    assert main(["compare", "--rerun", str(first), "--quiet"]) == 2
    assert "cannot repeat the experiment exactly: instance knights-9x9-h0.2-s3 has different content" in (
        capsys.readouterr().err
    )


def test_a_changed_parameter_refuses_to_resume(study, tmp_path, capsys):
    out = tmp_path / "a.json"
    assert main(["compare", "--experiment", str(study), "--out", str(out), "--quiet"]) == 0
    before = out.read_text()
    study.write_text(STUDY.format(holes=0.3))
    assert main(["compare", "--experiment", str(study), "--out", str(out), "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "different experiment (suites" in error
    assert out.read_text() == before
    # asked for: written beside it
    assert main(["compare", "--experiment", str(study), "--out", str(out), "--quiet", "--new-file"]) == 0
    assert json.loads((tmp_path / "a-2.json").read_text())["experiment"]["suites"][0]["holes"] == 0.3
    assert out.read_text() == before


def test_resume_runs_only_what_is_missing(study, tmp_path, capsys):
    out = tmp_path / "a.json"
    assert main(["compare", "--experiment", str(study), "--out", str(out), "--quiet"]) == 0
    data = json.loads(out.read_text())
    complete = outcome(out)
    data["runs"] = data["runs"][:5]
    out.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["compare", "--experiment", str(study), "--out", str(out), "--workers", "1"]) == 0
    progress = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[")]
    assert len(progress) == 12 - 5 and progress[0].startswith("[6/12]")
    assert outcome(out) == complete


def test_flags_and_file_describe_the_same_experiment(study, tmp_path):
    flags = tmp_path / "flags.json"
    argv = ["compare", "knights", "--suite", "random", "--sizes", "6,9", "--seeds", "3,", "--holes", "0.2"]
    argv += ["--methods", "greedy,greedy+,matching", "--repeat", "2", "--seed", "7", "--quiet"]
    assert main([*argv, "--out", str(flags)]) == 0
    recorded = json.loads(flags.read_text())
    current = {"experiment": read_experiment(study).to_dict(), "instances": recorded["instances"]}
    assert same_experiment(recorded, current) is None


def test_quiet_and_progress_lines(capsys):
    argv = ["compare", "knights", "--methods", "greedy"]
    assert main([*argv, "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert main(argv) == 0
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and lines[0].startswith("[1/3] ") and "FEASIBLE" in " ".join(lines)


def test_files_with_the_same_name_do_not_collide(tmp_path, capsys):
    for folder, text in (("a", "...\n...\n...\n"), ("b", "....\n.x..\n....\n....\n")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "board.txt").write_text(text)
    files = [str(tmp_path / "a" / "board.txt"), str(tmp_path / "b" / "board.txt")]
    out = tmp_path / "r.json"
    argv = ["compare", "knights", "--instances", *files, "--methods", "greedy,matching", "--quiet"]
    assert main([*argv, "--out", str(out)]) == 0
    names = [i["name"] for i in json.loads(out.read_text())["instances"]]
    assert len(set(names)) == 2 and all(name.startswith("board.txt@") for name in names)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('problem = "knights"\nmethods = = 3\n', "study.toml:2:11: "),
        ('problem = "knights"\ntime_limt = 3\n', "unknown key 'time_limt'"),
        ('problem = "knights"\n[[suites]]\nsuite = "random"\nholes = 1.5\n', "holes must be a fraction"),
        ('problem = "jump"\n[[suites]]\nsuite = "random"\nholes = 0.1\n', "has no holes"),
        ('problem = "knights"\nmethods = ["greedy", "nope"]\n', "unknown method 'nope'"),
        ('problem = "knights"\nrepeat = 0\n', "repeat must be in 1..100000, got 0"),
        ('problem = "knights"\nmethods = ["greedy+", "greedy+"]\n', "method 'greedy+' is listed twice"),
        ('problem = "knights"\nmethods = ["greedy", {name = "greedy", options = {}}]\n', "own label"),
        ('problem = "knights"\nmethods = [{name = "greedy", label = ""}]\n', "label must be"),
    ],
)
def test_bad_experiment_files(tmp_path, capsys, text, words):
    path = tmp_path / "study.toml"
    path.write_text(text)
    assert main(["compare", "--experiment", str(path)]) == 2
    error = capsys.readouterr().err
    assert words in error and error.count("\n") == 1


def test_experiment_flags_cannot_contradict_the_file(study, capsys):
    assert main(["compare", "--experiment", str(study), "--time-limit", "3"]) == 2
    assert "drop time-limit" in capsys.readouterr().err
    assert main(["compare"]) == 2
    assert "give a problem" in capsys.readouterr().err


def test_run_seeds_depend_on_every_part_of_the_key():
    seeds = {
        run_seed(base, h, m, k) for base in (0, 1) for h in ("a", "b") for m in ("x", "y") for k in (0, 1)
    }
    assert len(seeds) == 16 and all(0 <= s < 2**31 for s in seeds)
    assert run_seed(3, "a", "x", 0) == run_seed(3, "a", "x", 0)


def test_sizes_and_seeds_syntax():
    assert parse_sizes("10..200") == [10, 18, 33, 60, 110, 200]
    assert parse_sizes("10..200:5:linear") == [10, 58, 105, 152, 200]
    assert parse_sizes("10..200:3:geometric") == [10, 45, 200]
    assert parse_sizes("50,10,10") == [10, 50]
    assert (
        parse_seeds("5") == [0, 1, 2, 3, 4] and parse_seeds("7,") == [7] and parse_seeds("2..4") == [2, 3, 4]
    )
    for bad in ("10..", "a..b", "10..20:x", "10..20:3:cubic", "0,5"):
        with pytest.raises(InvalidInstance):
            parse_sizes(bad)
    with pytest.raises(InvalidInstance, match=r"got '1000000' \(sizes: a side must be in 1\.\.100000"):
        parse_sizes("1000000")  # the reason, not only the syntax
    for bad in ("x", "4..2", 0, True, []):
        with pytest.raises(InvalidInstance):
            parse_seeds(bad)
    for bad, why in (("0..-3", "expects 1 <= A <= B"), ("5..1000000000", "the largest size")):
        data = {"problem": "knights", "suites": [{"suite": "random", "sizes": bad}]}
        with pytest.raises(InvalidInstance, match=f"^e.toml: suites\\[0\\]: sizes:? {why}"):
            experiment_from_dict(data, "e.toml")


def test_suite_parameters_and_content_hashes():
    spec = resolve_suite("knights", "random", sizes=[8], seeds=[3, 4], holes=0.25)
    items = build_suite("knights", spec)
    assert [i.name for i in items] == ["knights-8x8-h0.25-s3", "knights-8x8-h0.25-s4"]
    assert all(i.sha256 == instance_hash(i.instance) for i in items) and items[0].sha256 != items[1].sha256
    blocked = items[0].instance.board.blocked
    assert 0 < blocked.mean() < 0.6
    with pytest.raises(InvalidInstance, match="not random"):
        resolve_suite("knights", "scaling", seeds=[1])
    with pytest.raises(InvalidInstance, match="seed suite is fixed"):
        resolve_suite("path", "seed", sizes=[10])
    assert resolve_suite("tour", "random").holes == 0.05
    for bad in ({"sizes": []}, {"seeds": [-1]}, {"holes": 1.0}):
        with pytest.raises(InvalidInstance):
            resolve_suite("knights", "random", **bad)


def test_experiment_record_round_trips():
    record = {
        "problem": "knights",
        "suites": [{"suite": "random", "sizes": "6..12:2", "seeds": [1], "holes": 0.1}],
        "methods": ["greedy", {"name": "greedy+", "options": {"iterations": 5}}],
        "time_limit": 2,
    }
    experiment = experiment_from_dict(record)
    assert experiment_from_dict(experiment.to_dict()) == experiment
    assert experiment.to_dict()["suites"][0]["sizes"] == [6, 12]
    assert experiment.method_options() == {"greedy+": {"iterations": 5}}


def test_the_documented_study_runs_in_miniature():
    from dataclasses import replace
    from pathlib import Path

    from knightcert.compare.comparison import run_experiment

    root = Path(__file__).resolve().parents[2]
    experiment = read_experiment(root / "docs" / "data" / "study.toml")
    assert (
        f"```toml\n{(root / 'docs' / 'data' / 'study.toml').read_text()}```"
        in (root / "docs" / "experiments.md").read_text()
    )
    small = replace(experiment, suites=(replace(experiment.suites[0], sizes=(10, 18), seeds=(0, 1)),))
    rows = run_experiment(small)
    assert len(rows) == 2 * 2 * 4 * experiment.repeat and all(row.verified for row in rows)
    assert {row.method for row in rows if row.status == "OPTIMAL"} >= {"matching"}
    assert all(row.gap is not None for row in rows)


@given(
    field=st.sampled_from(["time_limit", "wall_limit", "repeat", "seed", "problem", "methods", "suites"]),
    value=st.one_of(st.integers(0, 50), st.floats(0.1, 50), st.text(max_size=5)),
    workers=st.integers(1, 8),
)
def test_same_experiment_is_every_field_but_workers(field, value, workers):
    record = experiment_from_dict(
        {"problem": "knights", "methods": ["greedy"], "suites": [{"suite": "random", "sizes": [5]}]}
    ).to_dict()
    base = {"experiment": record, "instances": [{"name": "a", "sha256": "1"}]}
    other = {**base, "experiment": {**record, "workers": workers}}
    assert same_experiment(base, other) is None
    changed = {**base, "experiment": {**record, field: value}}
    assert (same_experiment(base, changed) is None) == (record[field] == value)
    renamed = {**base, "instances": [{"name": "a", "sha256": "2"}]}
    assert "different content" in same_experiment(base, renamed)


@given(st.lists(st.tuples(st.sampled_from(["a", "b", "a@x"]), st.integers(3, 5)), max_size=8))
def test_instance_names_are_unique_and_contents_kept(specs):
    from knightcert.compare.suites import SuiteItem, unique_items
    from knightcert.problems.independent_knights import KnightsInstance, knights_instance

    items = [
        SuiteItem(inst, n, sha256=instance_hash(inst))
        for name, n in specs
        for inst in [KnightsInstance(knights_instance(n).board, name)]
    ]
    kept = unique_items(items)
    assert len({item.name for item in kept}) == len(kept)

    def original(item):
        name, _, tail = item.name.rpartition("@")
        return name if tail == item.sha256[:8] else item.name

    assert {(i.instance.name, i.sha256) for i in items} == {(original(i), i.sha256) for i in kept}


SWEEP = """
problem = "knights"
repeat = 1
methods = [
    { name = "greedy+", label = "greedy+ x1", options = { iterations = 1 } },
    { name = "greedy+", label = "greedy+ x40", options = { iterations = 40 } },
    "matching",
]

[[suites]]
suite = "random"
sizes = [9, 12]
seeds = 2
holes = 0.2
"""


def test_a_sweep_gives_rows_for_every_labelled_variant(tmp_path, capsys):
    path = tmp_path / "sweep.toml"
    path.write_text(SWEEP)
    experiment = read_experiment(path)
    assert experiment.method_names == ["greedy+ x1", "greedy+ x40", "matching"]
    assert experiment_from_dict(experiment.to_dict()) == experiment
    out = tmp_path / "sweep.json"
    assert main(["compare", "--experiment", str(path), "--out", str(out), "--quiet"]) == 0
    runs = json.loads(out.read_text())["runs"]
    by_label: dict[str, list] = {}
    for run in runs:
        by_label.setdefault(run["method"], []).append(run)
    assert set(by_label) == {"greedy+ x1", "greedy+ x40", "matching"}
    assert all(len(mine) == 4 and all(r["verified"] for r in mine) for mine in by_label.values())
    assert all(r["kind"] == "heuristic" for r in by_label["greedy+ x40"])
    # each variant ran with its own options: the rows match direct calls with them and the run's seed
    from knightcert.heuristics.knights_greedy import greedy_plus

    boards = {item.name: item.instance for item in experiment.build()}
    for label, iterations in (("greedy+ x1", 1), ("greedy+ x40", 40)):
        for run in by_label[label]:
            direct = greedy_plus(boards[run["instance"]], seed=run["seed"], iterations=iterations)
            assert direct.objective == run["objective"]
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    assert "greedy+ x40" in capsys.readouterr().out


def test_a_method_spec_records_only_the_fields_it_sets():
    """``MethodSpec.to_dict``: the name alone when nothing else is set; else the fields set, in
    the order name, label, options, exact (no empty options, no None)."""
    from knightcert.compare.experiment import MethodSpec

    assert MethodSpec("greedy").to_dict() == "greedy"
    assert MethodSpec("greedy", label="g").to_dict() == {"name": "greedy", "label": "g"}
    spec = MethodSpec("cpsat", {"workers": 1}, exact=True)
    assert list(spec.to_dict().items()) == [("name", "cpsat"), ("options", {"workers": 1}), ("exact", True)]


def test_jump_games_read_from_files_are_sized_by_their_cells(tmp_path):
    """``instances_from_files``: a jump game's size is its cells (rows x cols), a board's its rows."""
    from knightcert.compare.suites import instances_from_files

    game = tmp_path / "g.in"
    game.write_text("2 3\n1\n1 1 1\n1 1 0\n0 0\n")
    board = tmp_path / "b.txt"
    board.write_text("....\n....\n....\n")
    assert [item.size for item in instances_from_files("jump", [str(game)])] == [6]
    assert [item.size for item in instances_from_files("knights", [str(board)])] == [3]
