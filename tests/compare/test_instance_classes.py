"""Every instance class the solve commands build is a suite member: RxC sizes, tori, closed
tours, fixed ends, every start square, and whatever keyword the instance constructors take."""

from __future__ import annotations

import json

import pytest

import knightcert.problems.independent_knights as knights_module
from knightcert.cli.main import main
from knightcert.compare.experiment import experiment_from_dict
from knightcert.compare.suites import build_suite, instance_hash
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.tours import tour_instance


def test_rectangles_and_tori_are_built_by_the_solve_commands_constructor():
    items = build_suite("knights", "scaling", sizes=["7x9", 6, "5x7"], fields={"torus": True})
    assert [item.name for item in items] == ["5x7 torus", "6x6 torus", "7x9 torus"]
    assert [item.sha256 for item in items] == [
        instance_hash(knights_instance(r, c, torus=True)) for r, c in ((5, 7), (6, 6), (7, 9))
    ]
    assert all(item.known_optimum is None for item in items)  # the published values are of plain boards
    [plain] = build_suite("knights", "scaling", sizes=["5x7"])
    assert plain.known_optimum == 18 and not plain.instance.board.torus


@pytest.mark.parametrize(("fields", "expected"), [({"closed": True}, 30), ({"torus": True}, 30), ({}, 30)])
def test_every_start_square_of_a_rectangle_open_closed_or_torus(fields, expected):
    items = build_suite("tour", "starts", sizes=["6x5"], fields=fields)
    assert len(items) == expected
    made = [tour_instance(6, 5, start=(r, c), **fields) for r in range(6) for c in range(5)]
    assert [item.sha256 for item in items] == [instance_hash(i) for i in made]
    assert len({item.name for item in items}) == expected


def test_random_holes_keep_the_tours_ends_and_the_fields():
    items = build_suite("tour", "random", sizes=["5x6"], seeds=3, holes=0.3, fields={"end": [4, 5]})
    for item in items:
        assert item.instance.end == (4, 5) and item.instance.start == (0, 0)
        assert not item.instance.board.blocked[4, 5] and not item.instance.board.blocked[0, 0]
    assert items[0].name == "tour-5x6-open-from-0,0-to-4,5-h0.3-s0"
    [old] = build_suite("knights", "random", sizes=[8], seeds=1, holes=0.1)
    assert old.name == "knights-8x8-h0.1-s0"  # plain suites keep their names (reports resume)


def test_an_experiment_file_suite_passes_its_other_keys_to_the_constructor():
    record = {
        "problem": "tour",
        "methods": ["auto"],
        "suites": [{"suite": "starts", "sizes": ["6x5"], "closed": True}],
    }
    experiment = experiment_from_dict(record)
    assert experiment.to_dict()["suites"] == [{"suite": "starts", "sizes": ["6x5"], "closed": True}]
    assert experiment_from_dict(experiment.to_dict()) == experiment  # a report's record reads back
    assert all(item.instance.closed for item in experiment.build())
    with pytest.raises(InvalidInstance, match=r"suites\[0\]: a tour instance has no field 'colsed'"):
        experiment_from_dict({**record, "suites": [{"suite": "starts", "colsed": True}]})
    with pytest.raises(InvalidInstance, match="the jump suites take no instance fields"):
        experiment_from_dict({"problem": "jump", "suites": [{"suite": "random", "torus": True}]})


def test_a_new_constructor_keyword_needs_no_harness_code(monkeypatch):
    seen = []

    def with_side_constraint(rows=None, cols=None, *, torus=False, board_file=None, fixed=()):
        seen.append(tuple(fixed))
        return knights_instance(rows, cols, torus=torus, board_file=board_file)

    monkeypatch.setattr(knights_module, "knights_instance", with_side_constraint)
    build_suite("knights", "scaling", sizes=[5], fields={"fixed": [[0, 0]]})
    assert seen == [((0, 0),)]


def test_the_command_line_builds_the_same_classes(capsys):
    code = main(
        ["compare", "knights", "--sizes", "5x7,7x9", "--torus", "--methods", "greedy", "--quiet", "--json"]
    )
    assert code == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["instance"] for r in rows] == ["5x7 torus", "7x9 torus"] and all(r["verified"] for r in rows)
    code = main(
        [
            "compare",
            "tour",
            "--sizes",
            "6x5",
            "--closed",
            "--all-starts",
            "--methods",
            "auto",
            "--quiet",
            "--json",
        ]
    )
    rows = json.loads(capsys.readouterr().out)
    assert code == 0 and len(rows) == 30 and rows[0]["instance"] == "6x5 closed from 0,0"
    assert main(["compare", "knights", "--sizes", "5", "--closed"]) == 2
    assert "a knights instance has no field 'closed'" in capsys.readouterr().err
    assert main(["compare", "tour", "--suite", "random", "--all-starts"]) == 2


def test_the_tour_command_takes_a_torus_as_the_suites_do(capsys):
    assert main(["tour", "5", "--torus", "--closed", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    answer = answer[0] if isinstance(answer, list) else answer
    assert answer["verified"] and answer["instance"] == "5x5 torus closed"


def test_many_runs_print_a_row_per_method_not_per_run(monkeypatch, capsys):
    """Past ``ROWS_SHOWN`` runs the table has a row per method, and says where every run is."""
    from knightcert.cli import compare

    argv = ["compare", "knights", "--suite", "random", "--sizes", "5", "--seeds", "3", "--methods", "greedy"]
    monkeypatch.setattr(compare, "ROWS_SHOWN", 2)
    assert main([*argv, "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "3 runs, a row per method" in out and "every run: --out FILE" in out
    assert "knights-5x5-h0.2-s0" not in out  # no row per run
    monkeypatch.setattr(compare, "ROWS_SHOWN", 3)
    assert main([*argv, "--workers", "1", "--quiet"]) == 0
    assert "knights-5x5-h0.2-s0" in capsys.readouterr().out
