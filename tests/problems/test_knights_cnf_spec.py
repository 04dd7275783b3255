"""The knights formula rebuilt from its specification in docs/certificates.md ("The knights
formula, clause by clause") alone, in plain Python, and compared clause for clause with the
checker's (issue 42): what a reviewer does before trusting formula.cnf."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from knightcert.problems.board import Board
from knightcert.problems.checkers.knights_cnf import knights_cnf


def spec_formula(
    rows: int,
    cols: int,
    torus: bool,
    removed: set[tuple[int, int]],
    k: int,
    lex: int,
    lines: int,
    fixed=(),
    b=0,
) -> tuple[int, list[list[int]]]:
    """The formula as the specification words it, step by step (section numbers of the docs)."""
    # 1. squares: the usable ones, row-major, are variables 1 .. n
    usable = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in removed]
    x = {square: i + 1 for i, square in enumerate(usable)}
    n = len(usable)
    # 2. independence: one clause per unordered pair of usable squares a jump apart, the
    #    smaller variable first, the clauses ordered by (smaller, larger)
    pairs = set()
    for (r, c), (dr, dc) in itertools.product(usable, [(1, 2), (2, 1), (-1, 2), (-2, 1)]):
        for sr, sc in ((r + dr, c + dc), (r - dr, c - dc)):
            if torus:
                sr, sc = sr % rows, sc % cols
            elif not (0 <= sr < rows and 0 <= sc < cols):
                continue
            if (sr, sc) in x and (sr, sc) != (r, c):
                pairs.add(tuple(sorted((x[(r, c)], x[(sr, sc)]))))
    clauses = [[-u, -v] for u, v in sorted(pairs)]
    # 3. the units: the fixed squares' variables, ascending, each once; with none fixed, on a
    #    torus with no square removed, the unit on square (0, 0), unless b = 1 and m does not
    #    divide the longer side
    full_torus = torus and not removed
    m = min(rows, cols)
    if fixed:
        clauses += [[v] for v in sorted({x[square] for square in fixed})]
    elif full_torus and not (b and max(rows, cols) % m):
        clauses.append([1])
    # 4. more knights than squares: the empty clause, and nothing more
    if k > n:
        return n, [*clauses, []]
    # 5. the counter's order
    if lines == 0:
        order = list(range(1, n + 1))
    else:

        def key(square):
            r, c = square
            t, along = ((r - 2 * c) % m, c) if rows <= cols else ((c - 2 * r) % m, r)
            return ((lines * t) % m, t, along)

        order = [x[square] for square in sorted(usable, key=key)]
    # 6. the counter's variables s(i, j), j = 1 .. k, i = j .. n - k + j, numbered j by j
    s: dict[tuple[int, int], int] = {}
    top = n
    for j in range(1, k + 1):
        for i in range(j, n - k + j + 1):
            top += 1
            s[(i, j)] = top
    # 7. its clauses, in the same order
    for j in range(1, k + 1):
        for i in range(j, n - k + j + 1):
            before = [s[(i - 1, j)]] if (i - 1, j) in s else []
            clauses.append([-s[(i, j)], *before, order[i - 1]])
            if j >= 2:
                clauses.append([-s[(i, j)], *before, s[(i - 1, j - 1)]])
    clauses.append([s[(n, k)]])
    # 7b. the balance units s(j n / m, ceil(j k / m)), j = 1 .. m - 1
    if b:
        clauses += [[s[(j * n // m, -(-j * k // m))]] for j in range(1, m)]
    # 8. the lex-leader comparisons, translation by translation (row shift, then column shift);
    #    with b = 1 only (2d mod m, d), d = 1 .. C - 1 (R <= C), or (d, 2d mod m), d = 1 .. R - 1
    if lex:
        assert full_torus and not fixed
        every = [t for t in itertools.product(range(rows), range(cols)) if t != (0, 0)]
        if b:
            every = [(2 * d % m, d) if rows <= cols else (d, 2 * d % m) for d in range(1, max(rows, cols))]
        for dr, dc in every:
            agree: list[int] = []  # e_(m-1) as a literal list: empty for e_0 (true, left out)
            for p in range(1, lex + 1):
                r, c = divmod(p - 1, cols)
                xm, ym = p, ((r + dr) % rows) * cols + (c + dc) % cols + 1
                clauses.append([*(-e for e in agree), xm, -ym])
                if p == lex:
                    break
                top += 1
                clauses.append([*(-e for e in agree), xm, ym, top])
                clauses.append([*(-e for e in agree), -xm, -ym, top])
                agree = [top]
    return top, clauses


def cases():
    yield 7, 7, True, set(), 15, 30, 2, (), 1  # the producer's choice on 7 x 7 (balanced lines)
    yield 5, 7, True, set(), 12, 0, 4, (), 1  # balanced, 5 does not divide 7: no lex, no unit
    yield 9, 3, True, set(), 12, 20, 1, (), 1  # balanced, columns the shorter side
    yield 5, 10, True, set(), 20, 12, 3, (), 1  # balanced along the lines of a 5 x 10 torus
    yield 3, 3, False, set(), 2, 0, 0, (), 0
    yield 3, 4, False, {(1, 1)}, 4, 0, 1, (), 0
    yield 4, 5, False, set(), 6, 0, 3, (), 0
    yield 1, 3, False, set(), 4, 0, 0, (), 0  # more knights than squares
    yield 5, 5, True, set(), 6, 7, 4, (), 0
    yield 5, 5, True, set(), 6, 25, 0, (), 0
    yield 3, 5, True, set(), 5, 30 // 2, 1, (), 0
    yield 5, 3, True, set(), 5, 4, 2, (), 0  # more rows than columns: lines by rows
    yield 4, 6, True, set(), 9, 6, 3, (), 0
    yield 5, 5, True, {(2, 3)}, 5, 0, 4, (), 0
    yield 7, 7, True, set(), 15, 30, 2, (), 0  # the producer's choice on 7 x 7 before balanced lines
    yield 11, 11, True, set(), 45, 30, 3, (), 0  # the formula of issue 42's 11 x 11 proof (lex 30, lines 3)
    yield 7, 7, True, set(), 14, 0, 2, ((1, 1), (0, 0), (0, 1)), 0  # fixed knights (issue 37): units
    yield 5, 6, False, {(2, 2)}, 9, 0, 1, ((4, 5), (0, 0), (4, 5)), 0  # a plain board, a square twice
    rng = random.Random(42)
    for _ in range(12):
        rows, cols, torus = rng.randint(1, 7), rng.randint(1, 7), rng.random() < 0.6
        removed = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.15}
        full = torus and not removed
        yield (
            rows,
            cols,
            torus,
            removed,
            rng.randint(1, rows * cols + 1),
            rng.randint(1, rows * cols) if full and rng.random() < 0.7 else 0,
            rng.randrange(min(rows, cols)),
            (),
            0,
        )


@pytest.mark.parametrize(
    ("rows", "cols", "torus", "removed", "k", "lex", "lines", "fixed", "b"), list(cases())
)
def test_the_specification_rebuilds_the_checkers_formula(rows, cols, torus, removed, k, lex, lines, fixed, b):
    blocked = np.array([[(r, c) in removed for c in range(cols)] for r in range(rows)], dtype=bool)
    board = Board(rows, cols, blocked, torus=torus)
    spec = spec_formula(rows, cols, torus, removed, k, lex, lines, fixed, b)
    assert knights_cnf(board, k, lex=lex, lines=lines, fixed=fixed, balanced=b) == spec


def test_fixed_knights_take_no_lex_leader_clauses():
    """The translations move a fixed knight: the builder refuses lex-leader clauses with one."""
    with pytest.raises(ValueError, match="no square removed or fixed"):
        knights_cnf(Board(7, 7, torus=True), 14, lex=5, fixed=((0, 0),))
