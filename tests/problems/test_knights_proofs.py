"""The knights formula the checker refutes, and the LRAT proof entries of knights bounds
(issues 30, 42): the formula's satisfiability, its counter and lex-leader clauses, and proofs
accepted only for the formula they refute."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from knightcert.problems.board import Board
from knightcert.problems.checkers import certify, check
from knightcert.problems.checkers.clausal_proof import (
    MAX_PROOF_BYTES,
    decode_proof,
    encode_proof,
    proof_entry,
)
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.knights import check_bound_proof, search_optimum
from knightcert.problems.checkers.knights_cnf import knights_cnf, translation_applies
from knightcert.problems.checkers.lrat import check_lrat
from knightcert.problems.checkers.lrat_files import lrat_text_to_binary
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.result import Backing, Result, Status


def test_entries_are_checked_before_inflating():
    entry = encode_proof(b"a\x04\x00\x00", 3)
    assert decode_proof(entry) == b"a\x04\x00\x00"
    with pytest.raises(CheckFailed, match="keys"):
        proof_entry({**entry, "extra": 1})
    with pytest.raises(CheckFailed, match="format"):
        proof_entry({**entry, "format": "lrat"})
    with pytest.raises(CheckFailed, match="a DRAT proof, which knightcert no longer checks"):
        proof_entry({**entry, "format": "drat-binary"})
    with pytest.raises(CheckFailed, match="bytes must be"):
        proof_entry({**entry, "bytes": MAX_PROOF_BYTES + 1})
    with pytest.raises(CheckFailed, match="bytes must be"):
        proof_entry({**entry, "bytes": True})
    with pytest.raises(CheckFailed, match="knights must be"):
        proof_entry({**entry, "knights": 0})
    for field, values in (("knights", (2.0, True, "3", None)), ("bytes", (-1, 4.0, "4")), ("xz", (None, 7))):
        for value in values:  # every field of the entry: an exact plain type, in range, named
            with pytest.raises(CheckFailed, match=f"{field} must be"):
                proof_entry({**entry, field: value})
    bomb = encode_proof(bytes(10_000_000), 3)
    with pytest.raises(CheckFailed, match="does not inflate to the declared 100 bytes"):
        decode_proof({**bomb, "bytes": 100})
    with pytest.raises(CheckFailed, match=r"corrupt|does not inflate"):
        decode_proof({**entry, "xz": entry["xz"][:-8] + "AAAAAAA="})
    with pytest.raises(CheckFailed, match="corrupt"):
        decode_proof({**entry, "xz": "not base64!"})


# ----------------------------------------------------------------------------- the knights formula


def optimum_by_sat(board, k: int, lines: int = 0) -> bool:
    from pysat.solvers import Solver

    _, clauses = knights_cnf(board, k, lines=lines)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        return bool(solver.solve())


@pytest.mark.parametrize(
    "board",
    [
        Board(3, 3),
        Board(4, 5),
        Board(5, 5, torus=True),
        Board(3, 5, torus=True),
        Board(6, 6, torus=True),
        Board(5, 5, np.array([[(r * 5 + c) % 7 == 3 for c in range(5)] for r in range(5)]), torus=True),
        Board(1, 3),
    ],
)
def test_the_formula_is_satisfiable_exactly_up_to_the_optimum(board):
    """Whatever order the counter takes the squares in (row-major, or by knight lines with
    every scale the board allows)."""
    optimum, _ = search_optimum(board, 10**6)
    assert optimum is not None
    for lines in range(min(board.rows, board.cols)):
        assert optimum_by_sat(board, optimum, lines), lines
        assert not optimum_by_sat(board, optimum + 1, lines), lines


def own_order(board, lines: int) -> list[int]:
    """The test's own reading of the module notes: the usable squares (numbered row-major
    from 1) line by line, lines ``t = r - 2c (mod rows)`` taken by column when
    ``rows <= cols``, else ``t = c - 2r (mod cols)`` taken by row, ordered by ``lines * t``."""
    rows, cols = board.rows, board.cols
    free = np.asarray(board.free, dtype=bool)
    squares = [(r, c) for r in range(rows) for c in range(cols) if free[r, c]]
    number = {square: i + 1 for i, square in enumerate(squares)}
    if lines == 0:
        return [number[square] for square in squares]
    m = min(rows, cols)

    def key(square: tuple[int, int]) -> tuple[int, int, int]:
        r, c = square
        t, along = ((r - 2 * c) % m, c) if rows <= cols else ((c - 2 * r) % m, r)
        return ((lines * t) % m, t, along)

    return [number[square] for square in sorted(squares, key=key)]


def test_the_counter_takes_the_squares_in_the_order_the_notes_define():
    import random

    from knightcert.problems.checkers.knights_cnf import counter_order, line_scale

    rng = random.Random(31)
    for _ in range(60):
        rows, cols = rng.randint(1, 9), rng.randint(1, 9)
        blocked = np.array([[rng.random() < 0.2 for _ in range(cols)] for _ in range(rows)])
        board = Board(rows, cols, blocked, torus=rng.random() < 0.7)
        for lines in range(min(rows, cols)):
            assert counter_order(board, lines).tolist() == own_order(board, lines), (rows, cols, lines)
        for bad in (-1, min(rows, cols), min(rows, cols) + 3):
            if bad:
                with pytest.raises(ValueError, match="lines"):
                    counter_order(board, bad)
    # the scale the producer writes: 4's inverse modulo an odd shorter side, else none
    assert [line_scale(Board(m, m + 2)) for m in (1, 2, 3, 4, 5, 7, 17, 21)] == [0, 0, 1, 0, 4, 2, 13, 16]
    assert line_scale(Board(19, 17, torus=True)) == 13


def test_the_counter_reads_its_squares_in_that_order():
    """Each counter clause ``-s(i, j) | s(i-1, j) | x`` names the ``i``-th square of the
    order (the test's own), and no other clause names a square."""
    board = Board(5, 7, torus=True)
    k = 9
    for lines in (0, 1, 2, 4):
        n, clauses = knights_cnf(board, k, translate=False, lines=lines)
        squares = board.rows * board.cols
        counted = [c for c in clauses if any(abs(v) > squares for v in c)]
        firsts = [c for c in counted if any(0 < v <= squares for v in c)]
        assert all(len([v for v in c if 0 < abs(v) <= squares]) == 1 for c in firsts)
        order = own_order(board, lines)
        # s(i, 1 .. k) each read square o_i once per level j: the squares in order, level by level
        expected = [order[i - 1] for j in range(1, k + 1) for i in range(j, squares - k + j + 1)]
        assert [next(v for v in c if 0 < v <= squares) for c in firsts] == expected, lines
        assert n == squares + k * (squares - k + 1)


def test_translation_only_on_a_full_torus():
    full = Board(5, 5, torus=True)
    holed = Board(5, 5, np.array([[r == 2 and c == 2 for c in range(5)] for r in range(5)]), torus=True)
    assert translation_applies(full) and not translation_applies(holed)
    assert not translation_applies(Board(5, 5))
    assert [1] in knights_cnf(full, 3)[1]
    assert [1] not in knights_cnf(holed, 3)[1] and [1] not in knights_cnf(Board(5, 5), 3)[1]


def test_the_formula_has_one_clause_per_jump():
    clauses = knights_cnf(Board(3, 3), 1, translate=False)[1]
    pairs = sorted(tuple(sorted(-v for v in c)) for c in clauses if len(c) == 2 and all(v < 0 for v in c))
    # the 3 x 3 board's eight moves, numbered row-major from 1
    assert pairs == [(1, 6), (1, 8), (2, 7), (2, 9), (3, 4), (3, 8), (4, 9), (6, 7)]
    assert knights_cnf(Board(1, 2), 3)[1][-1] == []


def proof_for(board, k: int) -> bytes:
    """The producer's LRAT refutation of the plain formula (no lex-leader clauses, row-major counter)."""
    from knightcert.models.knights_sat import _lrat

    proof = _lrat(knights_cnf(board, k)[1])
    assert proof is not None
    return proof


SEVEN = knights_instance(7, 7, torus=True)


def seven_placement():
    from pysat.solvers import Solver

    _, clauses = knights_cnf(SEVEN.board, 14)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        assert solver.solve()
        model = set(solver.get_model())
    return [[i // 7, i % 7] for i in range(49) if i + 1 in model]


def test_a_knights_bound_is_certified_by_its_proof_and_refused_otherwise():
    proof = proof_for(SEVEN.board, 15)
    entry = encode_proof(proof, 15)
    placement = seven_placement()
    assert len(placement) == 14
    good = Result("knights", "t", Status.OPTIMAL, 14, 14, placement, 0.0, certificate={"drat": entry})
    checked = check(SEVEN, good)
    assert checked.certified and checked.certificate == {"drat": entry}
    optimal = next(e for e in checked.evidence if e.claim == "optimal")
    assert optimal.backing is Backing.PROOF and optimal.how.startswith("LRAT proof (")
    assert "LRAT proof (" in check_bound_proof(SEVEN.board, entry)
    # (cut, of another board, of another bound: tests/problems/test_lrat.py)
    # attached to a false optimum (13 of 14 knights) as a proof of "no 14": refused
    false = good.with_(
        objective=13, bound=13, solution=placement[:13], certificate={"drat": {**entry, "knights": 14}}
    )
    refused = certify(SEVEN, false)
    assert not refused.verified and not refused.certified
    assert refused.info["check_error"].startswith("optimal claim rejected: LRAT proof refused")


def test_a_proof_of_a_weaker_bound_is_left_aside():
    entry = encode_proof(proof_for(SEVEN.board, 15), 15)
    placement = seven_placement()
    # the claim "at most 13" needs "no 14": the proof of "no 15" does not give it, and the
    # checker's own search refutes the claim
    false = Result("knights", "t", Status.OPTIMAL, 13, 13, placement[:13], 0.0, certificate={"drat": entry})
    assert "exhaustive search places 14" in certify(SEVEN, false).info["check_error"]
    # a weaker claim (at most 20) is proven by the proof of "no 15"
    weak = Result("knights", "t", Status.FEASIBLE, 14, 20, placement, 0.0, certificate={"drat": entry})
    assert next(e for e in check(SEVEN, weak).evidence if e.claim == "bound").backing is Backing.PROOF


def test_forged_lemmas_are_refused():
    proof = proof_for(SEVEN.board, 15)
    records = proof.split(b"\x00a")
    # drop lemmas from the middle: some later lemma (or the empty clause) no longer follows
    forged = b"\x00a".join(records[:5] + records[len(records) // 2 :])
    formula = knights_cnf(SEVEN.board, 15)[1]
    assert not check_lrat(formula, forged).refuted
    # a proof of just the empty clause, without hints or naming the formula's first clauses
    for hints in ("", "1 2 3"):
        empty = lrat_text_to_binary(f"{len(formula) + 1} 0 {hints} 0\n")
        assert not check_lrat(formula, empty).refuted


def test_a_holed_board_without_symmetry():
    blocked = np.array([[(r, c) == (1, 3) for c in range(5)] for r in range(5)])
    holed = KnightsInstance(Board(5, 5, blocked, torus=True))
    optimum, _ = search_optimum(holed.board, 10**6)
    entry = encode_proof(proof_for(holed.board, optimum + 1), optimum + 1)
    assert check_bound_proof(holed.board, entry)


# ----------------------------------------------------------------------------- lex-leader symmetry


def satisfiable(clauses: list[list[int]]) -> bool:
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        return bool(solver.solve())


@pytest.mark.parametrize(("rows", "cols"), [(3, 5), (5, 5), (4, 5), (5, 6), (3, 7)])
def test_the_lex_formula_is_satisfiable_exactly_up_to_the_optimum(rows, cols):
    """Lex-leader clauses of every length keep "at least the optimum" satisfiable (the test's
    own exhaustive optimum) and "one more" unsatisfiable."""
    from tests.oracle import knights_optimum

    board = Board(rows, cols, torus=True)
    optimum = knights_optimum({"rows": rows, "cols": cols, "torus": True, "blocked": []})
    for lex in sorted({1, 2, cols, cols + 1, rows * cols}):
        assert satisfiable(knights_cnf(board, optimum, lex=lex)[1]), lex
        assert not satisfiable(knights_cnf(board, optimum + 1, lex=lex)[1]), lex


def lex_values(rows: int, cols: int, placement: set[tuple[int, int]]) -> tuple[dict[int, bool], list[int]]:
    """The test's own assignment of the lex clauses' variables for the largest translate of
    ``placement``: the squares, then e_m = "the first m letters agree", translation by translation
    in the builder's order (row shift, then column shift)."""
    words = []
    for dr in range(rows):
        for dc in range(cols):
            moved = {((r + dr) % rows, (c + dc) % cols) for r, c in placement}
            words.append([int((r, c) in moved) for r in range(rows) for c in range(cols)])
    best = max(words)
    return {m + 1: bool(best[m]) for m in range(rows * cols)}, best


def test_the_largest_translate_satisfies_every_lex_clause():
    """Each lex clause, evaluated by the test on the largest translate of random placements
    (independent or not: the clauses speak of translations only), with its agreement
    variables set by their meaning."""
    import random

    rng = random.Random(30)
    for _ in range(40):
        rows, cols = rng.randint(3, 6), rng.randint(3, 6)
        n = rows * cols
        placement = {(rng.randrange(rows), rng.randrange(cols)) for _ in range(rng.randint(1, n))}
        length = rng.randint(1, n)
        squares, word = lex_values(rows, cols, placement)
        board = Board(rows, cols, torus=True)
        top, base = knights_cnf(board, 1)
        lex_top, clauses = knights_cnf(board, 1, lex=length)
        lex_clauses = clauses[len(base) :]
        assert clauses[: len(base)] == base and len(lex_clauses) == (n - 1) * (3 * length - 2)
        values = dict(squares)
        values.update({v: True for v in range(n + 1, top + 1)})  # unused here: the counter's
        for dr in range(rows):  # the agreement variables, in the builder's order
            for dc in range(cols):
                if dr == dc == 0:
                    continue
                moved = [
                    word[((r + dr) % rows) * cols + (c + dc) % cols] for r in range(rows) for c in range(cols)
                ]
                for m in range(length - 1):
                    top += 1
                    values[top] = word[: m + 1] == moved[: m + 1]
        for clause in lex_clauses:
            assert any(values[abs(v)] == (v > 0) for v in clause), (rows, cols, length, clause)
        assert max(values) == top == lex_top


def test_lex_needs_a_full_torus_and_a_length_in_range():
    holed = Board(5, 5, np.array([[r == 2 and c == 2 for c in range(5)] for r in range(5)]), torus=True)
    full = Board(5, 5, torus=True)
    for board, lex in ((holed, 3), (Board(5, 5), 3), (full, 26), (full, -1)):
        with pytest.raises(ValueError, match="lex"):
            knights_cnf(board, 3, lex=lex)


def test_a_proof_text_past_the_limit_is_refused_before_it_is_read(monkeypatch):
    import knightcert.problems.checkers.clausal_proof as drat_module

    entry = encode_proof(b"a\x04\x00\x00", 3)
    monkeypatch.setattr(drat_module, "MAX_PROOF_TEXT", len(entry["xz"]) - 1)
    with pytest.raises(CheckFailed, match="xz must be text of at most"):
        proof_entry(entry)
    monkeypatch.setattr(drat_module, "MAX_PROOF_TEXT", len(entry["xz"]))
    assert proof_entry(entry)["xz"] == entry["xz"]


@pytest.fixture(scope="module")
def seven_entry():
    """CaDiCaL's proof entry that 15 knights do not fit on the 7 x 7 torus (one child for the tests)."""
    from knightcert.models.knights_sat import prove_upper_bound

    return prove_upper_bound(knights_instance(7, 7, torus=True), 14)[0]


def test_a_proof_entry_names_its_lex_length_truthfully(seven_entry):
    """A proof of the lex formula checks only against that formula: the entry's lex removed,
    changed or given on a holed board is refused, as is a lex that is not a positive integer."""
    seven, entry = knights_instance(7, 7, torus=True), seven_entry
    assert entry is not None and entry["lex"] >= 1
    assert check_bound_proof(seven.board, entry).startswith("LRAT proof (")
    assert "lex-leader" in check_bound_proof(seven.board, entry)
    without = {k: v for k, v in entry.items() if k != "lex"}
    for forged in (without, {**entry, "lex": entry["lex"] - 1}, {**entry, "lex": 49}):
        with pytest.raises(CheckFailed, match="proof refused"):
            check_bound_proof(seven.board, forged)
    for bad in (0, -3, 2.0, True, "30", None):
        with pytest.raises(CheckFailed, match="lex must be an integer"):
            check_bound_proof(seven.board, {**entry, "lex": bad})
    holed = Board(7, 7, np.array([[r == c == 3 for c in range(7)] for r in range(7)]), torus=True)
    with pytest.raises(CheckFailed, match="lex 30 needs a torus with no square removed"):
        check_bound_proof(holed, entry)
    with pytest.raises(CheckFailed, match="needs a torus"):
        check_bound_proof(seven.board, {**entry, "lex": 50})


def test_a_proof_entry_names_its_counter_order_truthfully(seven_entry):
    """Likewise the counter's order: ``lines`` removed or changed, the proof is refused; a
    ``lines`` that is not a positive integer, or not below the shorter side, is refused as such."""
    seven, entry = knights_instance(7, 7, torus=True), seven_entry
    assert entry is not None and entry["lines"] == 2  # 4 * 2 = 1 (mod 7)
    assert "counted by knight lines" in check_bound_proof(seven.board, entry)
    without = {k: v for k, v in entry.items() if k != "lines"}
    for forged in (without, {**entry, "lines": 1}, {**entry, "lines": 5}):
        with pytest.raises(CheckFailed, match=r"proof refused|balanced lines need"):
            check_bound_proof(seven.board, forged)
    for bad in (0, -2, 2.0, True, "2", None):
        with pytest.raises(CheckFailed, match="lines must be an integer"):
            check_bound_proof(seven.board, {**entry, "lines": bad})
    for past in (7, 8, 10**6):
        with pytest.raises(CheckFailed, match="must be below the board's shorter side"):
            check_bound_proof(seven.board, {**entry, "lines": past})


def test_a_proof_entry_names_its_balanced_lines_truthfully(seven_entry):
    """Likewise the balanced lines: removed, the proof is refused; a value other than 1, a
    board where they do not apply (squares removed, lines not prime to the side) is refused
    as such; and a proof in cases (written for a day before them) is refused with advice."""
    seven, entry = knights_instance(7, 7, torus=True), seven_entry
    assert entry is not None and entry["balanced"] == 1
    assert "the lines balanced" in check_bound_proof(seven.board, entry)
    with pytest.raises(CheckFailed, match="proof refused"):
        check_bound_proof(seven.board, {k: v for k, v in entry.items() if k != "balanced"})
    for bad in (0, -1, 1.0, True, "1", None):
        with pytest.raises(CheckFailed, match="balanced must be an integer"):
            check_bound_proof(seven.board, {**entry, "balanced": bad})
    with pytest.raises(CheckFailed, match="balanced 2 needs 0, or 1"):
        check_bound_proof(seven.board, {**entry, "balanced": 2})
    holed = Board(7, 7, np.array([[r == c == 3 for c in range(7)] for r in range(7)]), torus=True)
    with pytest.raises(CheckFailed, match="no square removed"):
        check_bound_proof(holed, {k: v for k, v in entry.items() if k != "lex"})
    nine = Board(9, 9, torus=True)
    with pytest.raises(CheckFailed, match="lines prime to it, not 3"):
        check_bound_proof(nine, {**entry, "lines": 3})
    with pytest.raises(CheckFailed, match="a proof in cases, which knightcert no longer checks: re-solve"):
        check_bound_proof(seven.board, {**entry, "level": 24, "thresholds": [7], "cases": [{}, {}]})


# ----------------------------------------------------------------------------- balanced lines


@pytest.mark.parametrize(("rows", "cols"), [(3, 5), (5, 5), (3, 6), (5, 6), (7, 3)])
def test_the_balanced_formula_is_satisfiable_exactly_up_to_the_optimum(rows, cols):
    """Balanced lines (with every allowed scale of the lines, with and without lex-leader
    clauses along them) keep "at least the optimum" satisfiable and "one more" not."""
    import math

    from tests.oracle import knights_optimum

    board, m = Board(rows, cols, torus=True), min(rows, cols)
    optimum = knights_optimum({"rows": rows, "cols": cols, "torus": True, "blocked": []})
    lexes = (0, 1, 4, rows * cols) if max(rows, cols) % m == 0 else (0,)
    for lines, lex in itertools.product([s for s in range(1, m) if math.gcd(s, m) == 1], lexes):
        named = {"lex": lex, "lines": lines, "balanced": 1}
        for k in range(1, optimum + 2):  # every count of knights, not only the optimum's two
            assert satisfiable(knights_cnf(board, k, **named)[1]) == (k <= optimum), (k, named)


def test_balanced_lines_need_a_shorter_side_of_three_or_more():
    with pytest.raises(ValueError, match="odd shorter side"):
        knights_cnf(Board(1, 5, torus=True), 1, balanced=1)


def test_a_counter_past_the_variable_limit_is_refused_before_it_is_built(monkeypatch):
    import knightcert.problems.checkers.knights_cnf as cnf

    entry = encode_proof(b"a\x04\x00\x00", 4000)  # 4,000 knights on 99 x 99: 23 M counter variables
    with pytest.raises(CheckFailed, match="need a counter over 16777216 variables"):
        check_bound_proof(Board(99, 99, torus=True), entry)
    monkeypatch.setattr(cnf, "MAX_VARIABLES", 49 + 15 * 35)  # 7 x 7's squares and counter for 15
    assert knights_cnf(SEVEN.board, 15)[0] >= cnf.MAX_VARIABLES  # the limit itself is allowed
    monkeypatch.setattr(cnf, "MAX_VARIABLES", 49 + 15 * 35 - 1)
    with pytest.raises(ValueError, match="15 knights on 49 squares"):
        knights_cnf(SEVEN.board, 15)


def test_on_a_bipartite_board_the_checkers_matching_backs_the_bound_before_any_proof():
    """The checker's own maximum matching is exact there: an attached proof is never built
    (a forged K could ask for a formula of any size) nor needed."""
    six = knights_instance(6)
    placement = [[r, c] for r in range(6) for c in range(6) if (r + c) % 2 == 0]
    junk = encode_proof(b"a\x04\x00\x00", 19)  # not a refutation of anything
    answer = Result("knights", "t", Status.OPTIMAL, 18, 18, placement, 0.0, certificate={"drat": junk})
    checked = check(six, answer)
    optimal = next(e for e in checked.evidence if e.claim == "optimal")
    assert checked.certified and optimal.backing is Backing.CERTIFICATE and "matching" in checked.certificate


def balanced_values(rows: int, cols: int, placement, lines: int, lex: int) -> dict[int, bool]:
    """The test's own assignment of every variable of the balanced formula for ``placement``,
    by Theorem 5's proof: the turn of the torus the cycle lemma picks, then its largest
    translate along the lines; the counter's variables and the agreement variables by their
    meaning, numbered as the specification numbers them."""
    m, n, k = min(rows, cols), rows * cols, len(placement)
    swap = rows > cols  # lines by rows: the roles of rows and columns swapped

    def line(r: int, c: int) -> int:
        return (lines * (((c - 2 * r) if swap else (r - 2 * c)) % m)) % m

    counts = [sum(line(r, c) == u for r, c in placement) for u in range(m)]
    prefix = [sum(counts[:j]) * m - j * k for j in range(m)]  # m (A_j), kept integral
    q = prefix.index(min(prefix))
    turn = next(d for d in range(m) if lines * d % m == q)  # (turn, 0) moves line u to u - q
    turned = {((r - turn * (not swap)) % rows, (c - turn * swap) % cols) for r, c in placement}
    along = [(2 * d % m, d) if not swap else (d, 2 * d % m) for d in range(max(rows, cols))]
    along = along if max(rows, cols) % m == 0 else along[:1]

    def word(shift, squares) -> list[int]:
        dr, dc = shift
        moved = {((r + dr) % rows, (c + dc) % cols) for r, c in squares}
        return [int((r, c) in moved) for r in range(rows) for c in range(cols)]

    best = max(word(shift, turned) for shift in along)
    values = {v + 1: bool(best[v]) for v in range(n)}
    order = own_order(Board(rows, cols, torus=True), lines)
    top = n
    for j in range(1, k + 1):  # s(i, j) = at least j of the first i, numbered j by j
        for i in range(j, n - k + j + 1):
            top += 1
            values[top] = sum(best[o - 1] for o in order[:i]) >= j
    for dr, dc in along[1:] if lex else []:
        moved = [best[((r + dr) % rows) * cols + (c + dc) % cols] for r in range(rows) for c in range(cols)]
        for p in range(lex - 1):
            top += 1
            values[top] = best[: p + 1] == moved[: p + 1]
    return values


def test_the_balanced_turn_satisfies_every_clause():
    """Theorem 5's placement, built by the test from random independent placements on odd
    tori (the cycle lemma's turn, then the largest translate along the lines), satisfies every
    clause of the balanced formula: the balance units, the lex-leader clauses along the lines
    and the translation unit included."""
    import math
    import random

    rng = random.Random(42)
    for _ in range(60):
        rows, cols = rng.choice([(5, 5), (7, 7), (5, 10), (9, 3), (7, 5), (9, 9), (3, 11), (11, 11)])
        m = min(rows, cols)
        lines = rng.choice([s for s in range(1, m) if math.gcd(s, m) == 1])
        placement: set[tuple[int, int]] = set()
        for r, c in rng.sample([(r, c) for r in range(rows) for c in range(cols)], rows * cols):
            steps = [(a, b) for a, b in itertools.permutations((1, 2, -1, -2), 2) if abs(a) != abs(b)]
            jumps = {((r + a) % rows, (c + b) % cols) for a, b in steps}
            if not jumps & placement and rng.random() < 0.8:
                placement.add((r, c))
        lex = rng.randint(1, rows * cols) if max(rows, cols) % m == 0 else 0
        top, clauses = knights_cnf(
            Board(rows, cols, torus=True), len(placement), lex=lex, lines=lines, balanced=1
        )
        values = balanced_values(rows, cols, placement, lines, lex)
        assert max(values) == top
        for clause in clauses:
            assert any(values[abs(v)] == (v > 0) for v in clause), (rows, cols, lines, lex, clause)
