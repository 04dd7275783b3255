"""knightcert.count: two counters, which agreed, the conventions, checked solutions."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

import knightcert
from knightcert import counting
from knightcert.models.count_cpsat import Enumeration
from knightcert.problems.board import Board
from knightcert.problems.checkers import CheckFailed
from knightcert.problems.errors import InvalidArgument, InvalidInstance
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.jump_game import parse_jump
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.tours import TourInstance


def test_three_counters_agree_on_a_corner_start():
    tally = knightcert.count(knightcert.tour_instance(5, start=(0, 0)), keep=3)
    assert (tally.count, tally.directed, tally.undirected) == (304, 304, 304)
    assert tally.agreed == ("search", "cpsat", "checker")
    assert "from (0, 0)" in tally.convention and len(tally.solutions) == 3
    assert len({tuple(map(tuple, s)) for s in tally.solutions}) == 3


def test_conventions_of_closed_tours():
    for start, end in ((None, None), ((0, 0), None), (None, (0, 0))):
        tally = knightcert.count(TourInstance(Board(1, 3, torus=True), True, start, end), keep=2)
        assert (tally.directed, tally.undirected) == (2, 1) and "cycles" in tally.convention
        assert len(tally.solutions) == 2 and all(s[-1] == [0, 0] for s in tally.solutions if end)
    tally = knightcert.count(TourInstance(Board(1, 3, torus=True), True, (0, 0), (0, 1)))
    assert (tally.directed, tally.undirected) == (1, 1) and "directed = undirected" in tally.convention


def test_a_disagreement_gives_no_count(monkeypatch):
    monkeypatch.setattr(
        counting.count_cpsat, "enumerate_tours", lambda *a: Enumeration(count=15, complete=True)
    )
    tally = knightcert.count(knightcert.tour_instance(3, 4))
    assert tally.disagree and tally.count is None and tally.agreed == ()


def test_a_counter_that_stops_is_not_counted(monkeypatch):
    monkeypatch.setattr(counting, "TOUR_NODES", 1000)
    tally = knightcert.count(knightcert.tour_instance(9, 9), time_limit=0.2)
    assert tally.count is None and [c.count for c in tally.counters] == [None, None, None]
    assert "at most 64" in tally.counters[0].note and "time limit" in tally.counters[1].note
    assert "over its budget (1,000 tour nodes" in tally.counters[2].note


def test_paths_and_knights():
    path = knightcert.count(LostKnightInstance(Board(5, 7, torus=True), (0, 0), (3, 4)), keep=1)
    assert (
        path.count is not None
        and path.agreed == ("search", "cpsat", "checker")
        and path.optimum == len(path.solutions[0]) - 1
    )
    knights = knightcert.count(knightcert.knights_instance(4, torus=True))
    assert knights.count == 2 and knights.optimum == 8 and knights.agreed == ("cpsat", "checker")


def test_the_jump_game_has_nothing_to_count():
    with pytest.raises(InvalidInstance, match="nothing to count"):
        knightcert.count(parse_jump("1 3\n1\n1 1 0\n0 0\n"))


def test_a_second_counter_with_another_optimum_disagrees(monkeypatch):
    """A path enumeration that sees a shorter walk, a knights enumeration with another maximum:
    no count, whatever the numbers."""
    path = LostKnightInstance(Board(5, 7, torus=True), (0, 0), (3, 4))
    number = knightcert.count(path, second=False).count
    assert number is not None
    shorter = Enumeration(count=number, complete=True, shorter=True)
    monkeypatch.setattr(counting.count_cpsat, "enumerate_paths", lambda *a: shorter)
    tally = knightcert.count(path)
    assert tally.disagree and tally.count is None and "fewer than" in tally.counters[1].note
    other = Enumeration(count=6, complete=True, optimum=7)
    monkeypatch.setattr(counting.count_cpsat, "enumerate_knights", lambda *a: other)
    tally = knightcert.count(knightcert.knights_instance(4))
    assert tally.disagree and tally.count is None and "maximum is 7, not 8" in tally.counters[1].note


def test_a_side_constraint_the_counters_do_not_know_is_refused():
    @dataclasses.dataclass(frozen=True, eq=False)
    class Visiting(TourInstance):
        visit: tuple = ()

    assert knightcert.count(Visiting(Board(3, 4))).count == 16
    with pytest.raises(InvalidInstance, match="does not know the field 'visit' of the instance"):
        knightcert.count(Visiting(Board(3, 4), visit=((0, 1, 2),)))


def test_side_constraints_of_each_problem_are_counted_and_checked():
    visits = ((2, 1, 2), (4, 2, 3))
    tour = TourInstance(Board(5, 5), False, (0, 0), visits=visits, required_moves=(((4, 4), (3, 2)),))
    tally = knightcert.count(tour, keep=8)
    assert (tally.count, tally.agreed) == (8, ("search", "cpsat", "checker"))
    assert "under visits, required_moves" in tally.convention
    assert len(tally.solutions) == 8 and all(s[1:3] == [[2, 1], [4, 2]] for s in tally.solutions)
    path = LostKnightInstance(Board(7, 9, torus=True), (0, 0), (3, 4), via=((5, 5), (1, 1)))
    tally = knightcert.count(path, keep=60)
    assert (tally.count, tally.optimum, len(tally.solutions)) == (54, 8, 54)
    assert tally.agreed == ("search", "cpsat", "checker") and "through the via squares" in tally.convention
    knights = knightcert.count(KnightsInstance(Board(5, 5), fixed=((0, 1),)), keep=2)
    assert (knights.count, knights.optimum, knights.agreed) == (2, 12, ("search", "cpsat", "checker"))
    assert all([0, 1] in placement for placement in knights.solutions)
    closed = knightcert.count(TourInstance(Board(5, 6), True, forbidden_moves=(((0, 0), (1, 2)),)))
    assert (closed.directed, closed.undirected, len(closed.agreed)) == (0, 0, 3)  # the corner's other move
    no = knightcert.count(TourInstance(Board(5, 5), False, (0, 0), visits=((0, 1, 2),)))
    assert no.count == 0 and no.agreed == ("search", "cpsat", "checker")


def test_a_forged_solution_that_breaks_a_side_constraint_is_rejected(monkeypatch):
    """Each solution handed back is checked with the instance's side constraints: a counter that
    hands back a solution of the base problem only is caught, whatever it counted."""
    tours = knightcert.count(TourInstance(Board(3, 4)), keep=16).solutions
    first = tours[0]
    move = (tuple(first[0]), tuple(first[1]))
    other = next(t for t in tours if t[1] != first[1] and t[0] != first[1])
    without = next(
        t for t in tours if not any(sorted([a, b]) == sorted(first[:2]) for a, b in itertools.pairwise(t))
    )
    cases = [
        (TourInstance(Board(3, 4), visits=((*first[1], 2),)), other, "visits"),
        (TourInstance(Board(3, 4), forbidden_moves=(move,)), first, "forbidden_moves"),
        (TourInstance(Board(3, 4), required_moves=(move,)), without, "required_moves"),
    ]
    for instance, forged, field in cases:
        found = Enumeration(count=1, complete=True, solutions=[forged])
        monkeypatch.setattr(counting.count_cpsat, "enumerate_tours", lambda *a: found)  # noqa: B023
        with pytest.raises(CheckFailed, match=field):
            knightcert.count(instance, keep=1)
    placements = knightcert.count(KnightsInstance(Board(4, 4)), keep=6).solutions
    forged = next(p for p in placements if [0, 1] not in p)
    monkeypatch.setattr(counting.count_cpsat, "enumerate_knights", lambda *a: Enumeration(1, True, [forged]))
    with pytest.raises(CheckFailed, match="fixed"):
        knightcert.count(KnightsInstance(Board(4, 4), fixed=((0, 1),)), keep=1)
    shortest = next(
        counting.counting.shortest_paths(LostKnightInstance(Board(7, 9, torus=True), (0, 0), (3, 4)))
    )
    path = LostKnightInstance(Board(7, 9, torus=True), (0, 0), (3, 4), via=((6, 8),))
    assert [6, 8] not in shortest
    monkeypatch.setattr(counting.counting, "shortest_paths", lambda instance: iter([shortest]))
    with pytest.raises(CheckFailed, match="via"):
        knightcert.count(path, keep=1)


def test_a_time_limit_stops_every_counter_and_gives_a_labelled_lower_bound():
    """8x8 open tours are never counted in half a second (on any machine): no count, only a
    lower bound, from the counters that stopped (the labelling, not the time, is tested)."""
    tally = knightcert.count(knightcert.tour_instance(8, 8), time_limit=0.5)
    search, cpsat, checker = tally.counters
    assert tally.count is None and tally.directed is None and tally.agreed == ()
    assert search.count is None and search.note == f"stopped at the time limit: at least {search.at_least}"
    assert cpsat.count is None and cpsat.note.startswith("stopped at the time limit: at least")
    assert checker.count is None and checker.at_least is None and "time limit" in checker.note
    assert tally.at_least == max(search.at_least, cpsat.at_least) >= 0


def test_ctrl_c_stops_the_count_with_what_it_found(monkeypatch):
    """Ctrl-C in the exact search: its tours so far as a lower bound, the other counters not run."""
    import signal
    import threading
    import time

    main_thread, started = threading.get_ident(), threading.Event()
    real = counting.counting.count_hamiltonian_paths

    def kernel(*args):
        started.set()
        return real(*args)

    monkeypatch.setattr(counting.counting, "count_hamiltonian_paths", kernel)

    def ctrl_c() -> None:  # once the search runs (and the main thread waits for it)
        started.wait()
        time.sleep(0.5)
        signal.pthread_kill(main_thread, signal.SIGINT)

    threading.Thread(target=ctrl_c).start()
    tally = knightcert.count(knightcert.tour_instance(8, 8), time_limit=None)
    (search,) = tally.counters
    assert search.note == f"interrupted: at least {search.at_least}" and tally.at_least == search.at_least
    assert tally.count is None


def test_the_checkers_compiled_tour_count_stops_at_its_deadline_and_on_ctrl_c(monkeypatch):
    """The checker's tour search reads a stop flag (set at the deadline, or on Ctrl-C) every
    16,384 nodes: with no node budget to stop it, the 3.3 million nodes of the 6 x 6 closed tours
    are not searched (the search itself says UNDECIDED); Ctrl-C, whenever it lands (here as the
    search starts, and a moment later), is a ``KeyboardInterrupt`` from the count once the search
    has stopped: no search is left running."""
    import signal
    import threading
    import time

    from knightcert.problems.checkers import tour_search
    from knightcert.problems.checkers.tour import count_tours_searched

    closed = TourInstance(Board(6, 6), closed=True)
    assert count_tours_searched(TourInstance(Board(3, 4)), 10**12, deadline=time.perf_counter() + 60) == 16
    main_thread, started, real, outcomes = threading.get_ident(), threading.Event(), tour_search.search, []

    def search(*args):
        started.set()
        outcomes.append(real(*args))
        return outcomes[-1]

    monkeypatch.setattr(tour_search, "search", search)
    assert count_tours_searched(closed, 10**12, deadline=time.perf_counter()) is None
    for delay in (0.0, 0.2):
        started.clear()

        def ctrl_c(delay: float = delay) -> None:
            if started.wait(30):
                time.sleep(delay)
                signal.pthread_kill(main_thread, signal.SIGINT)

        threading.Thread(target=ctrl_c, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            count_tours_searched(closed, 10**12)
        assert "stoppable" not in [thread.name for thread in threading.enumerate()]
    assert [outcome[0] for outcome in outcomes] == [tour_search.UNDECIDED] * 3


def test_a_ctrl_c_that_lands_as_the_helper_thread_starts_stops_its_work(monkeypatch):
    """``run_stoppable`` holds SIGINT off while it starts its helper thread: a Ctrl-C that comes
    then (sent here inside ``Thread.start`` itself) waits until the thread runs, and then stops
    its work, answered as interrupted, instead of leaving the work running behind an error."""
    import signal
    import threading

    from knightcert.problems import stopping

    real_start, stop = threading.Thread.start, threading.Event()

    def start(thread: threading.Thread) -> None:
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        real_start(thread)

    monkeypatch.setattr(threading.Thread, "start", start)
    try:
        answer = stopping.run_stoppable(lambda: stop.wait(30), stop.set)
    except KeyboardInterrupt:
        stop.set()
        pytest.fail("the Ctrl-C escaped run_stoppable, its work left running")
    assert answer == (True, True)


def test_required_moves_stopped_bound_nothing():
    """Tours with a required move are a signed sum (inclusion and exclusion): stopped, no bound."""
    import time

    from knightcert.algorithms.counting import CountStopped, count_tours

    board = Board(8, 8)
    with pytest.raises(CountStopped) as stopped:
        count_tours(TourInstance(board, required_moves=(((0, 0), (1, 2)),)), time.perf_counter())
    assert stopped.value.args == ("stopped at the time limit", None)  # no "at least None"
    with pytest.raises(CountStopped) as stopped:
        count_tours(TourInstance(board), time.perf_counter())
    assert stopped.value.args[1] is not None


def test_solutions_alone_do_not_wait_for_the_tour_count():
    """With only solutions asked for, the exact search (hours on 8 x 8) stops at once."""
    tally = knightcert.count(knightcert.tour_instance(8, 8), keep=1, second=False, time_limit=None)
    assert len(tally.solutions) == 1 and len(tally.solutions[0]) == 64
    assert tally.counters[0].note.startswith("stopped at the time limit")


@pytest.mark.parametrize("limit", ["abc", [1], -1, 0, float("nan")])
def test_a_time_limit_that_is_no_positive_number_is_refused(limit):
    from knightcert.problems.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match="time limit"):
        knightcert.count(TourInstance(Board(5, 5)), time_limit=limit)


@pytest.mark.parametrize("keep", [-1, 2.5, "3", True, None])
def test_solutions_kept_must_be_a_whole_number_from_zero(keep):
    """``count(keep=...)``: the solutions handed back; a negative number, a fraction, a string, a
    bool or None is refused before any counter runs."""
    with pytest.raises(InvalidArgument, match="keep"):
        counting.count(knightcert.knights_instance(3), keep=keep)
