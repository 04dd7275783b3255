"""The band bound for independent knights on full tori (problems/checkers/knights_band.py).

The checker's count of a band (dynamic programming around it, max-plus matrix powers) is
tested against oracles written here from the definition: a band's knight graph built
square by square and its largest independent set found by brute force (tiny bands) or by
CP-SAT (bands of 6 and 8 rows); the whole-torus band against the exhaustive search on
small tori. Then the checker: what a band certifies, what it refuses, and that it never
certifies a bound below the optimum.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import knightcert
from knightcert.problems.answers import InvalidAnswer, read_answer, result_from_answer, write_answer
from knightcert.problems.board import Board
from knightcert.problems.checkers import certify, check
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.knights import search_optimum
from knightcert.problems.checkers.knights_band import (
    MAX_BAND_WIDTH,
    band_bound,
    band_columns,
    band_knights,
    best_band,
    strip_placement,
)
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.result import Backing, Result, Status
from tests.oracle import knights_optimum

SIX_ROWS = {"axis": "rows", "width": 6}
JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


def band_graph(across: int, width: int, around: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Squares ``(i, c)``, ``i < width``, ``c < around`` of a torus ``across x around``, and
    each square's neighbours in the band as a bit mask (from the definition of a move)."""
    squares = [(i, c) for i in range(width) for c in range(around)]
    index = {s: k for k, s in enumerate(squares)}
    masks = []
    for i, c in squares:
        mask = 0
        for dr, dc in JUMPS:
            target = ((i + dr) % across, (c + dc) % around)
            if target in index and target != (i, c):
                mask |= 1 << index[target]
        masks.append(mask)
    return squares, masks


def brute_force(masks: list[int]) -> int:
    """The largest independent set: take the lowest free square or not."""
    best = 0

    def grow(free: int, size: int) -> None:
        nonlocal best
        if size + free.bit_count() <= best:
            return
        if not free:
            best = size
            return
        low = free & -free
        v = low.bit_length() - 1
        grow(free & ~masks[v] & ~low, size + 1)
        grow(free & ~low, size)

    grow((1 << len(masks)) - 1, 0)
    return best


def cpsat_band(across: int, width: int, around: int) -> int:
    from ortools.sat.python import cp_model

    _, masks = band_graph(across, width, around)
    model = cp_model.CpModel()
    x = [model.new_bool_var(f"x{k}") for k in range(len(masks))]
    for k, mask in enumerate(masks):
        for j in range(k + 1, len(masks)):
            if mask >> j & 1:
                model.add_bool_or([x[k].Not(), x[j].Not()])
    model.maximize(sum(x))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    assert solver.solve(model) == cp_model.OPTIMAL
    return round(solver.objective_value)


def placement_answer(solution, status=Status.OPTIMAL, bound=None, certificate=None) -> Result:
    solution = [list(map(int, s)) for s in solution]
    bound = len(solution) if bound is None and status is Status.OPTIMAL else bound
    return Result.answer(
        "knights",
        "mine",
        status=status,
        objective=len(solution),
        bound=bound,
        solution=solution,
        time=0.0,
        certificate=certificate,
    )


# ------------------------------------------------------------------------- the band's count


def _tiny_bands(most_across: int):
    """``(across, width, around)`` of the bands small enough for the brute force."""
    for across in range(1, most_across + 1):
        for width in range(1, min(across, 4) + 1):
            for around in range(3, 8):
                if width * around <= 24:
                    yield across, width, around


def test_the_count_of_tiny_bands_is_the_brute_force_one():
    for across, width, around in _tiny_bands(8):
        _, masks = band_graph(across, width, around)
        assert band_knights(across, width, around) == brute_force(masks), (across, width, around)


@pytest.mark.parametrize(
    ("across", "width", "around"),
    [
        (100, 6, 7),
        (100, 6, 8),
        (100, 6, 9),
        (100, 6, 13),
        (8, 6, 11),
        (7, 6, 9),
        (6, 6, 9),
        (9, 5, 10),
        (100, 8, 7),
        (5, 5, 12),
        (100, 6, 5),
        (100, 6, 4),
        (100, 6, 3),
    ],
)
def test_the_count_of_wide_bands_is_cp_sat_s(across, width, around):
    assert band_knights(across, width, around) == cpsat_band(across, width, around)


def test_the_count_s_own_placement_is_independent_and_holds_the_count():
    for across, width, around in ((1, 1, 3), (4, 3, 5), (5, 4, 7), (8, 4, 6), (100, 6, 9), (7, 6, 11)):
        columns = band_columns(across, width, around)
        assert columns is not None and len(columns) == around
        squares, masks = band_graph(across, width, around)
        chosen = {(i, c) for c in range(around) for i in range(width) if int(columns[c]) >> i & 1}
        taken = sum(1 << k for k, s in enumerate(squares) if s in chosen)
        assert all(not (masks[k] & taken) for k, s in enumerate(squares) if s in chosen)
        assert len(chosen) == band_knights(across, width, around)


def test_six_row_bands_around_an_odd_number_of_columns_hold_three_per_column_but_six():
    # the measured 3(C - 2), here on to a thousand columns: the count, not a formula, is the bound
    for around in (*range(7, 20, 2), 39, 101, 1001):
        assert band_knights(100, 6, around) == 3 * (around - 2)
    assert band_knights(100, 6, 20) == 60  # an even length: half the squares


def test_a_band_that_is_the_whole_torus_counts_its_optimum():
    # the checker's own exhaustive search on tori with a side of at most 6
    for rows, cols in itertools.product(range(3, 7), range(3, 17)):
        if rows * cols > 60:
            continue
        optimum, _ = search_optimum(Board(rows, cols, torus=True), budget=10**6)
        bound = band_bound(Board(rows, cols, torus=True), {"axis": "rows", "width": rows})
        assert bound.whole and bound.holds == bound.bound == optimum, (rows, cols)
        flipped = band_bound(Board(cols, rows, torus=True), {"axis": "cols", "width": rows})
        assert flipped.bound == optimum


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(1, 9), st.integers(1, 4), st.integers(3, 7))
def test_any_small_band_counts_as_the_brute_force(across, width, around):
    width = min(width, across)
    _, masks = band_graph(across, width, around)
    assert band_knights(across, width, around) == brute_force(masks)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(3, 7), st.integers(3, 7), st.integers(1, 6), st.sampled_from(["rows", "cols"]))
def test_no_band_bounds_a_small_torus_below_its_optimum(rows, cols, width, axis):
    board = Board(rows, cols, torus=True)
    if width > (rows if axis == "rows" else cols):
        return
    optimum = knights_optimum({"rows": rows, "cols": cols, "torus": True, "blocked": set()})
    assert band_bound(board, {"axis": axis, "width": width}).bound >= optimum


def test_odd_by_odd_tori_get_a_valid_bound_never_below_the_optimum():
    for n, m in ((5, 5), (5, 7), (7, 7), (7, 9), (9, 9), (9, 11)):
        optimum, _ = search_optimum(Board(n, m, torus=True), budget=10**6)
        band = best_band(Board(n, m, torus=True))
        assert band is not None and band.bound >= optimum


def test_out_of_range_counts_are_refused():
    for across, width, around in ((6, 7, 9), (100, 0, 9), (100, MAX_BAND_WIDTH + 1, 9), (100, 6, 2)):
        with pytest.raises(ValueError, match="out of range"):
            band_knights(across, width, around)


# ------------------------------------------------------------ the kernels, against their definitions


def test_each_line_s_attack_masks_are_the_jumps_landing_one_and_two_columns_on():
    """``_attacked_rows``: for a knight on line ``i`` of the band, the band's lines it attacks
    in the column one step on (``near``) and two steps on (``far``), from the definition: the
    lines ``(i + dr) mod across`` of the jumps ``(dr, dc)`` that land ``dc mod around`` = 1 (2)
    columns on. On 3 columns around a jump one column back lands two on, and two back one on:
    those belong to the masks too (the counts of tiny bands do not show a missing one, as
    the same pair of squares is also joined from the other column)."""
    from knightcert.problems.checkers.knights_band import _attacked_rows

    for across in range(1, 11):
        for width in range(1, min(across, MAX_BAND_WIDTH) + 1):
            for around in range(3, 8):
                near, far = _attacked_rows(across, width, around)
                for i in range(width):
                    for step, masks in ((1, near), (2, far)):
                        lines = {(i + dr) % across for dr, dc in JUMPS if dc % around == step}
                        expected = sum(1 << line for line in lines if line < width)
                        assert int(masks[i]) == expected, (across, width, around, i, step)


def _maxplus(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The test's max-plus product: ``max_k a[i, k] + b[k, j]`` over the ``k`` where both are
    finite (above ``NEG``), ``NEG`` where there is none."""
    from knightcert.problems.checkers.knights_band_kernel import NEG

    out = np.full((a.shape[0], b.shape[1]), NEG, dtype=np.int64)
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            sums = [int(a[i, k]) + int(b[k, j]) for k in range(a.shape[1]) if a[i, k] > NEG and b[k, j] > NEG]
            if sums:
                out[i, j] = max(sums)
    return out


def test_the_max_plus_kernels_are_their_definition():
    """``maxplus_product`` and ``maxplus_diagonal`` against the test's own product on random
    matrices with "no walk" (``NEG``) entries: every entry, ``NEG`` exactly where no ``k`` has
    both terms finite (a finite term plus ``NEG`` is no walk, whatever the row or column), and
    products of products (the powers the band's count takes)."""
    from knightcert.problems.checkers.knights_band_kernel import NEG, maxplus_diagonal, maxplus_product

    rng = np.random.default_rng(30)

    def draw(n: int, m: int) -> np.ndarray:
        finite = rng.integers(0, 9, size=(n, m))
        return np.where(rng.random((n, m)) < 0.4, NEG, finite).astype(np.int32)

    for _ in range(150):
        n, k, m = (int(x) for x in rng.integers(1, 6, size=3))
        a, b = draw(n, k), draw(k, m)
        assert maxplus_product(a, b).tolist() == _maxplus(a, b).tolist(), (a, b)
        square, other = draw(n, n), draw(n, n)
        twice = maxplus_product(maxplus_product(square, other), other)
        assert twice.tolist() == _maxplus(_maxplus(square, other), other).tolist()
        expected = np.diagonal(_maxplus(square, other)).tolist()
        assert maxplus_diagonal(square, other).tolist() == expected, (square, other)


def test_a_closed_walk_from_every_state_is_a_placement_of_its_value():
    """``closed_walk`` from each state of a tiny band, not only from the one ``band_columns``
    starts at: its columns put no two knights a move apart (the test's own moves on the
    band) and hold the walk's value; the best of the values is the brute force's count."""
    from knightcert.problems.checkers.knights_band import _band
    from knightcert.problems.checkers.knights_band_kernel import NEG, closed_walk

    for across, width, around in _tiny_bands(7):
        squares, masks = band_graph(across, width, around)
        (matrix, keys, near, far, weight), _ = _band(across, width, around)
        best = 0
        for start in range(len(keys)):
            value, columns = closed_walk(width, near, far, weight, keys, matrix, start, around)
            if value <= NEG:  # no closed walk from this state
                continue
            chosen = {(i, c) for c in range(around) for i in range(width) if int(columns[c]) >> i & 1}
            taken = sum(1 << k for k, s in enumerate(squares) if s in chosen)
            apart = all(not (masks[k] & taken) for k, s in enumerate(squares) if s in chosen)
            assert apart and len(chosen) == value, (across, width, around, start, columns.tolist())
            best = max(best, int(value))
        assert best == brute_force(masks), (across, width, around)


# ------------------------------------------------------------------------- the strip placement


@pytest.mark.parametrize(("rows", "cols"), [(2, 3), (4, 5), (6, 7), (8, 13), (10, 101), (7, 6), (3, 2)])
def test_the_strip_is_a_placement_of_half_of_all_columns_but_two(rows, cols):
    strip = strip_placement(rows, cols)
    assert strip is not None
    even, odd = (rows, cols) if rows % 2 == 0 else (cols, rows)
    instance = knights_instance(rows, cols, torus=True)
    checked = check(instance, placement_answer(strip, Status.FEASIBLE))
    assert checked.objective == even * (odd - 2) // 2


def test_the_strip_is_only_for_tori_with_one_odd_side():
    assert strip_placement(7, 7) is None and strip_placement(8, 8) is None and strip_placement(4, 1) is None


# ------------------------------------------------------------------------- the checker


def test_even_by_odd_tori_are_certified_by_a_band_both_ways():
    for rows, cols in ((8, 13), (13, 8), (10, 11), (100, 1001)):
        strip = strip_placement(rows, cols)
        result = check(knights_instance(rows, cols, torus=True), placement_answer(strip))
        (optimal,) = [e for e in result.evidence if e.claim == "optimal"]
        assert optimal.backing is Backing.CERTIFICATE and optimal.how.startswith("band bound: a 6-")
        assert result.certificate == {"band": {"axis": "rows" if rows % 2 == 0 else "cols", "width": 6}}
    eight = check(knights_instance(8, 13, torus=True), placement_answer(strip_placement(8, 13)))
    (optimal,) = [e for e in eight.evidence if e.claim == "optimal"]
    assert optimal.how == (
        "band bound: a 6-row band holds at most 33 knights (the checker's own count), "
        "8 translates: at most 44"
    )


def test_a_claimed_optimum_below_the_true_one_is_refused():
    instance = knights_instance(8, 13, torus=True)
    short = strip_placement(8, 13)[:-1]
    with pytest.raises(CheckFailed, match="own placement holds 44 knights") as refused:
        check(instance, placement_answer(short))
    assert refused.value.claim == "optimal"
    named = placement_answer(short, certificate={"band": {"axis": "rows", "width": 6}})
    with pytest.raises(CheckFailed, match="own placement holds 44"):
        check(instance, named)
    with pytest.raises(CheckFailed, match="bound 43 is below the optimum"):
        check(instance, placement_answer(short, Status.FEASIBLE, bound=43))
    # the whole torus's count refutes a claim on a thin torus, where the strip falls short
    thin = knights_instance(4, 101, torus=True)
    count = band_knights(4, 4, 101)
    assert count == len(strip_placement(4, 101))
    with pytest.raises(CheckFailed, match=f"whole torus places {count} knights"):
        check(thin, placement_answer(strip_placement(4, 101)[:-1]))
    # 12 x 5 (60 squares): within the checker's search, which refutes the strip's 18 first
    with pytest.raises(CheckFailed, match="exhaustive search places 20"):
        check(knights_instance(12, 5, torus=True), placement_answer(strip_placement(12, 5)))


def test_where_the_checker_s_search_runs_out_its_own_band_decides(monkeypatch):
    # 5 x 20: 100 squares, within the search's size but past its node budget (here a smaller
    # one, which runs out sooner on the same path: 3 searches of 50 000 nodes take a minute)
    import knightcert.problems.checkers.knights as knights_checker

    monkeypatch.setattr(knights_checker, "SEARCH_NODES", 5_000)
    instance = knights_instance(5, 20, torus=True)
    board = instance.board
    assert search_optimum(board)[0] is None
    columns = band_columns(5, 5, 20)
    placement = [[i, c] for c in range(20) for i in range(5) if int(columns[c]) >> i & 1]
    result = check(instance, placement_answer(placement))
    assert result.objective == 30 and result.certificate == {"band": {"axis": "rows", "width": 5}}
    with pytest.raises(CheckFailed, match="count of the whole torus places 30 knights"):
        check(instance, placement_answer(placement[:-1]))


def test_a_band_certifies_a_feasible_answers_bound_and_no_more():
    instance = knights_instance(8, 13, torus=True)
    few = strip_placement(8, 13)[:30]
    for bound in (44, 50):
        result = check(instance, placement_answer(few, Status.FEASIBLE, bound=bound))
        (claim,) = [e for e in result.evidence if e.claim == "bound"]
        assert claim.backing is Backing.CERTIFICATE and "band bound" in claim.how
    # on an odd torus the band proves 49 on 11 x 11 (optimum 44), not less
    odd = knights_instance(11, 11, torus=True)
    some = [[0, 0], [0, 1]]
    assert best_band(odd.board).bound == 49
    proven = certify(odd, placement_answer(some, Status.FEASIBLE, bound=49))
    assert proven.certified
    unproven = certify(odd, placement_answer(some, Status.FEASIBLE, bound=48))
    assert unproven.verified and not unproven.certified
    assert [e.backing for e in unproven.evidence if e.claim == "bound"] == [Backing.SOLVER]


def test_an_odd_by_odd_claim_below_the_optimum_is_never_certified():
    # 11 x 11 (optimum 44, past the checker's search): a greedy placement claimed optimal; the
    # band proves 49, so the claim is not certified (the checker cannot refute it either)
    odd = knights_instance(11, torus=True)
    greedy = knightcert.solve(odd, method="greedy")
    assert greedy.objective < 44
    result = certify(odd, placement_answer(greedy.solution))
    assert result.verified and not result.certified and result.certificate is None
    assert [e.backing for e in result.evidence if e.claim == "optimal"] == [Backing.SOLVER]


def test_a_torus_with_a_hole_gets_no_band_certificate():
    blocked = np.zeros((8, 13), dtype=bool)
    blocked[0, 0] = True  # the strip leaves column 0 empty: the placement stays valid
    holed = KnightsInstance(Board(8, 13, blocked, torus=True), "holed")
    strip = strip_placement(8, 13)
    plain = certify(holed, placement_answer(strip))
    assert plain.verified and not plain.certified and plain.certificate is None
    with pytest.raises(CheckFailed, match="band bound needs a torus with no square removed") as refused:
        check(holed, placement_answer(strip, certificate={"band": {"axis": "rows", "width": 6}}))
    assert "certificate 'band'" in str(refused.value)
    with pytest.raises(CheckFailed, match="band bound needs a torus "):
        check(knights_instance(8), placement_answer([[0, 0]], certificate={"band": SIX_ROWS}))


@pytest.mark.parametrize(
    ("band", "words"),
    [
        ([6], "certificate 'band': expected an object with keys axis, width"),
        ({"axis": "rows"}, "expected an object with keys axis, width"),
        ({"axis": "rows", "width": 6, "bound": 44}, "expected an object with keys axis, width"),
        ({"axis": "diagonal", "width": 6}, "certificate 'band' axis: 'diagonal' is not one of rows, cols"),
        ({"axis": 0, "width": 6}, "certificate 'band' axis: 0 is not one of"),
        ({"axis": "rows", "width": 6.0}, "certificate 'band' width: 6.0 is not an integer"),
        ({"axis": "rows", "width": True}, "certificate 'band' width: True is not an integer"),
        ({"axis": "rows", "width": "6"}, "certificate 'band' width: '6' is not an integer"),
        ({"axis": "rows", "width": float("nan")}, "certificate 'band' width: NaN is not an integer"),
        ({"axis": "rows", "width": 0}, "certificate 'band' width: 0 is below 1"),
        ({"axis": "rows", "width": 9}, "certificate 'band' width: 9 is above the checker's limit 8"),
        ({"axis": "cols", "width": 8}, "certificate 'band' width: 8 is above the torus's 7 columns"),
    ],
)
def test_malformed_band_entries_are_refused_naming_the_field(band, words):
    instance = knights_instance(6, 7, torus=True)
    with pytest.raises(CheckFailed, match=words.replace("(", r"\(").replace(")", r"\)")):
        check(instance, placement_answer(strip_placement(6, 7), certificate={"band": band}))
    # also when nothing needs it: a FEASIBLE answer without a bound
    with pytest.raises(CheckFailed, match="certificate 'band'"):
        check(instance, placement_answer([[0, 0]], Status.FEASIBLE, certificate={"band": band}))


def test_a_band_that_does_not_go_around_three_lines_is_refused():
    with pytest.raises(CheckFailed, match="must go around at least 3 columns; this torus has 2"):
        check(
            knights_instance(6, 2, torus=True),
            placement_answer([[0, 0]], Status.FEASIBLE, bound=6, certificate={"band": SIX_ROWS}),
        )


def test_a_weak_named_band_is_left_aside():
    # a 4-row band proves less than 44 on 8 x 13: the checker's own band proves it instead
    instance = knights_instance(8, 13, torus=True)
    weak = band_bound(instance.board, {"axis": "rows", "width": 4})
    assert weak.bound > 44
    result = check(instance, placement_answer(strip_placement(8, 13), certificate={"band": weak.entry()}))
    assert result.certified and result.certificate == {"band": {"axis": "rows", "width": 6}}
    # and a weak band with a bound it does prove
    proven = check(instance, placement_answer([[0, 1]], Status.FEASIBLE, weak.bound, {"band": weak.entry()}))
    assert proven.certified and "4-row band" in proven.evidence[-1].how


def test_an_answer_file_carries_the_band_and_refuses_a_malformed_one(tmp_path):
    instance = knights_instance(10, 11, torus=True)
    result = knightcert.solve(instance)
    assert result.certified and result.certificate == {"band": {"axis": "rows", "width": 6}}
    path = tmp_path / "answer.json"
    write_answer(path, result, instance)
    again = knightcert.check(instance, str(path))
    assert again.certified and again.evidence[-1].how.startswith("band bound: a 6-row band holds at most 27")
    data = read_answer(path)
    del data["sha256"]  # the seal is optional in a program's output; the fields are not
    data["certificate"]["band"]["width"] = 6.5
    with pytest.raises(InvalidAnswer, match=r"certificate 'band' width: 6\.5 is not an integer"):
        result_from_answer(data, problem="knights", instance=instance)


# ------------------------------------------------------------------------- the method


def test_the_default_method_answers_even_by_odd_tori_from_the_band_at_once():
    for rows, cols in ((8, 13), (13, 8), (10, 101), (100, 1001)):
        result = knightcert.solve(knights_instance(rows, cols, torus=True))
        assert result.method == "cpsat" and result.status is Status.OPTIMAL and result.certified
        assert result.objective == (rows * (cols - 2) if rows % 2 == 0 else cols * (rows - 2)) // 2
        assert result.info["construction"] == "strip" and "constraints" not in result.info  # no model


def test_where_the_strip_falls_short_the_whole_torus_band_places_its_count():
    for rows, cols, optimum in ((12, 5, 20), (1000, 3, 1000), (5, 6, 10)):
        result = knightcert.solve(knights_instance(rows, cols, torus=True))
        assert result.status is Status.OPTIMAL and result.objective == optimum and result.certified
        assert result.info["construction"] == "band" and "constraints" not in result.info


def test_past_the_walk_s_table_cp_sat_gets_the_whole_torus_count(monkeypatch):
    import knightcert.problems.checkers.knights_band as knights_band

    monkeypatch.setattr(knights_band, "WITNESS_CELLS", 0)
    result = knightcert.solve(knights_instance(12, 5, torus=True), seed=0)
    assert result.status is Status.OPTIMAL and result.objective == 20 and result.certified
    assert result.info["upper_bound"] == 20 and "constraints" in result.info
    assert result.info["bound_source"].startswith("band bound: a 5-column band (the whole torus)")
    assert result.certificate == {"band": {"axis": "cols", "width": 5}}
