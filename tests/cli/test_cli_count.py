"""--count and --all on the command line."""

from __future__ import annotations

import json

from knightcert.cli.main import main


def test_tour_count_prints_both_conventions_and_the_counters(capsys):
    assert main(["tour", "5", "--start", "0,0", "--count"]) == 0
    head, counters = capsys.readouterr().out.splitlines()
    assert head.startswith("5x5 open from 0,0: 304 directed, 304 undirected; open tours from (0, 0)")
    assert counters.endswith("agreed: search, cpsat, checker")


def test_all_writes_checked_solutions_as_json_lines(capsys):
    assert main(["tour", "3", "4", "--all", "5"]) == 0
    lines = [json.loads(line)["solution"] for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 5 and all(len(tour) == 12 for tour in lines)


def test_each_line_of_all_is_an_answer_record_check_re_checks(capsys, tmp_path):
    """``--all N`` writes answer records (the schema of ``--save``, the instance embedded, each
    checked): ``knightcert check INSTANCE FILE#K`` and ``check - FILE#K`` certify line K, and a
    line against another instance is refused (a fourth-session reviewer found the lines held only
    the solution: "schema None")."""
    board = tmp_path / "b.txt"
    board.write_text("C....\n.....\n.....\n....S\n")
    runs = [
        (["knights", "4", "--fixed", "0,0", "--all", "2"], ["4", "--fixed", "0,0"]),
        (["tour", "3", "4", "--all", "2"], ["3x4"]),
        (["path", str(board), "--all", "2"], [str(board)]),
    ]
    for solve, instance in runs:
        assert main(solve) == 0
        lines = capsys.readouterr().out.splitlines()
        answers = tmp_path / "all.jsonl"
        answers.write_text("\n".join(lines) + "\n")
        assert len(lines) == 2 and all(json.loads(line)["certified"] for line in lines)
        for k in (1, 2):
            assert main(["check", *instance, f"{answers}#{k}"]) == 0
            assert main(["check", "-", f"{answers}#{k}"]) == 0
            assert "every claim certified" in capsys.readouterr().out
    other = tmp_path / "other.txt"
    other.write_text("C....\n.....\n....S\n.....\n")
    assert main(["check", str(other), f"{answers}#1"]) == 2  # a path line against another board
    assert "the answer is for another instance" in capsys.readouterr().err


def test_knights_and_path_counts(capsys, tmp_path):
    assert main(["knights", "4", "--count"]) == 0
    assert capsys.readouterr().out.startswith("4x4: 6 placements of the maximum number of knights (8)")
    board = tmp_path / "b.txt"
    board.write_text("C....\n.....\n.....\n....S\n")
    assert main(["path", str(board), "--count", "--all", "9"]) == 0
    out = capsys.readouterr().out.splitlines()
    number = int(out[0].split(": ")[1].split()[0])
    assert number == len(out) - 2 and "agreed: search, cpsat" in out[1]


def test_no_count_in_time_exits_0_and_counters_that_disagree_exit_1(capsys, monkeypatch):
    """As every command: 0 for no answer in time, 1 for a claim rejected (a twelfth-session
    reviewer's finding: a count stopped by the time limit exited 1, against ``--help``)."""
    import knightcert.counting as counting

    monkeypatch.setattr(counting, "TOUR_NODES", 1000)  # the checker's search stops at once
    assert main(["tour", "9", "--count", "--time-limit", "0.2"]) == 0
    assert "no count" in capsys.readouterr().out
    monkeypatch.setattr(counting.Count, "disagree", property(lambda self: True))
    assert main(["tour", "5", "--start", "0,0", "--count"]) == 1
    assert "counters disagree" in capsys.readouterr().out


def test_options_of_a_solve_are_refused(capsys):
    assert main(["tour", "5", "--count", "--json"]) == 2
    assert "--json does not go with --count or --all" in capsys.readouterr().err
    assert main(["tour", "5", "--all", "2", "--no-backtracking"]) == 2


def test_side_constraints_from_the_command_line(capsys, tmp_path):
    sides = ["--visit", "2,1@2", "--visit", "4,2@3", "--require-move", "4,4:3,2", "--forbid-move", "2,2:3,0"]
    assert main(["tour", "5", "--start", "0,0", *sides, "--count", "--all", "9"]) == 0
    head, counters, *lines = capsys.readouterr().out.splitlines()
    tours = [json.loads(line)["solution"] for line in lines]
    number = int(head.split(": ")[1].split()[0])
    assert "under visits, forbidden_moves, required_moves" in head and 0 < number == len(tours) < 8
    assert counters.endswith("agreed: search, cpsat, checker") and all(t[1] == [2, 1] for t in tours)
    assert main(["knights", "5", "--fixed", "0,1", "--count", "--all", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "5x5: 2 placements of the maximum number of knights with the fixed knights (12)"
    assert all([0, 1] in json.loads(line)["solution"] for line in out[2:])
    board = tmp_path / "b.txt"
    board.write_text("C........\n" + ".........\n" * 2 + "....S....\n" + ".........\n" * 3)
    assert main(["path", str(board), "--via", "5,5", "--via", "1,1", "--count"]) == 0
    out = capsys.readouterr().out
    assert "54 shortest paths" in out and "through the via squares in order (8 moves)" in out
    assert main(["knights", "5", "--fixed", "0,1", "--fixed", "2,2", "--count"]) == 0
    assert (
        "0 placements of the maximum number of knights with the fixed knights (none exists)"
        in capsys.readouterr().out
    )
    assert main(["tour", "5", "--start", "0,0", "--visit", "0,1@2", "--count"]) == 0
    assert "0 directed, 0 undirected" in capsys.readouterr().out


def test_a_count_past_its_time_limit_is_a_labelled_lower_bound(capsys):
    """``tour 8 --count`` would run for hours: the time limit stops every counter; what they
    found is printed as a lower bound, never as the count (exit 0: no answer in time)."""
    assert main(["tour", "8", "--count", "--time-limit", "0.5"]) == 0
    head, counters = capsys.readouterr().out.splitlines()
    assert head.startswith("8x8 open: no count; at least ") and " directed, a lower bound (stopped) (" in head
    assert "search none (" in counters and "stopped at the time limit: at least" in counters
    assert counters.endswith("agreed: none")


def test_the_time_limit_is_the_whole_commands_from_its_start(capsys, monkeypatch):
    """The count gets what is left of ``--time-limit`` since the command started (start-up and
    loading count against it): a command whose 2 s had passed before its count began gives the
    counters the least slice (1 ms), not 2 s; several instances share one limit."""
    import time

    import knightcert.counting

    given, real = [], knightcert.counting.count

    def count(instance, **options):
        given.append(options["time_limit"])
        return real(instance, **options)

    monkeypatch.setattr(knightcert.counting, "count", count)
    late = time.perf_counter() - 5
    assert main(["tour", "5", "--start", "0,0", "--count", "--time-limit", "2"], started=late) == 0
    assert given == [1e-3]
