"""The CNF the knights checker refutes: "at least ``k`` independent knights on this board".

The checker builds this formula itself, from the instance and the claimed bound
only (a formula read from an answer file is never used), and checks an LRAT
refutation of it (:mod:`knightcert.problems.checkers.lrat`): if the formula is
unsatisfiable, no placement of ``k`` knights exists, so ``k - 1`` is an upper bound.

Variables
    ``1 .. n`` are the usable squares in row-major order (``x_i``: a knight on
    square ``i``); ``n + 1 ..`` are the counter's (below).
Independence
    ``(-x_u | -x_v)`` for every pair of distinct usable squares a knight's jump
    apart. The jumps are the eight ``(±1, ±2), (±2, ±1)`` steps, taken modulo the
    sides on a torus, written out here (not read from the move tables the methods use).
Cardinality, "at least ``k`` of ``x_1 .. x_n``" (a sequential counter)
    The counter takes the squares in an order ``o_1 .. o_n`` (row-major,
    ``o_i = i``, unless ``lines`` below says otherwise);
    ``s(i, j)`` ("at least ``j`` of ``x_(o_1) .. x_(o_i)`` are true") for ``1 <= j <= k``
    and ``j <= i <= n - k + j`` (elsewhere it is false by counting: too few
    squares so far, or too few left). Clauses, only the direction the refutation
    needs (``s`` implies the count)::

        -s(i, j) | s(i-1, j) | x_(o_i)       (s(i-1, j) left out where it is false)
        -s(i, j) | s(i-1, j) | s(i-1, j-1)   (for j >= 2)

    and the unit ``s(n, k)``. Any placement of ``k`` knights satisfies it with
    ``s(i, j)`` = "at least ``j`` of the first ``i``", so the formula is satisfiable
    whenever ``k`` independent knights fit.
Fixed knights (``fixed``, a side constraint)
    The unit ``x_f`` of every fixed square ``f`` (ascending, each once): the formula is then
    "at least ``k`` independent knights, the fixed ones among them". Translations move the
    fixed squares, so neither the unit below nor the lex-leader clauses go with them.
Symmetry (``translate``)
    On a torus without removed squares every translation maps placements to
    placements, and any nonempty placement can be moved so that a knight stands on
    square ``(0, 0)``: the unit ``x_(0,0)`` then keeps the formula satisfiable
    whenever ``k >= 1`` knights fit. The builder adds it only on such boards, and
    only when no knight is fixed.
Symmetry, stronger (``lex``: the lex-leader constraints of the translations)
    On the same boards, order the squares row-major (``x_1`` is square (0, 0)) and
    compare placements as 0/1 words, a knight above no knight. Let ``P`` be any
    placement of ``k`` knights and ``P*`` the largest word among its translates (a
    placement, since translations are automorphisms, and of ``k`` knights). For every
    translation ``t`` other than the identity, ``P*`` is at least its translate: with
    ``y_m = x_(t(m))`` (the square ``m`` moved by ``t``), ``x_1 .. x_L >= y_1 .. y_L``
    as words for every prefix length ``L``. The builder writes that comparison over the
    first ``lex`` squares, for each of the ``rows * cols - 1`` translations, with
    fresh variables ``e_m`` ("the words agree on their first ``m`` letters")::

        -e_(m-1) | x_m | -y_m                 (m = 1 .. L; e_0 is true and left out)
        -e_(m-1) | x_m | y_m | e_m            (m = 1 .. L - 1)
        -e_(m-1) | -x_m | -y_m | e_m

    ``P*`` with ``e_m`` = "the first ``m`` letters agree" and the counter's variables
    as above satisfies every clause, and also the unit ``x_(0,0)`` (some translate of
    a nonempty placement has a knight on (0, 0), so the largest word starts with 1):
    the formula is satisfiable whenever ``k`` knights fit, so its refutation proves
    ``k - 1`` as before. Nothing of these clauses is read from an answer: the checker
    builds them from the board and the number ``lex``, which only says how many
    letters each comparison covers (``1 <= lex <= rows * cols``), and refuses ``lex``
    on a board that translations do not map onto itself.
Balanced lines (``balanced``: 1, with ``lines`` prime to the shorter side ``m``, odd)
    On the same boards the counter takes the ``m`` knight lines whole, ``n / m`` squares
    each, in the order ``lines * t`` (mod ``m``). A translation by ``d`` along the shorter side
    moves line ``t`` to ``t + d``: the lines' counts of knights, read in the counter's order,
    turn round as a cycle, and every turn is some translation's. By the cycle lemma one
    turn has every prefix at or above the average: the first ``j`` lines hold at least
    ``j k / m`` knights, for every ``j``. The builder writes the units
    ``s(j n / m, ceil(j k / m))``, ``j = 1 .. m - 1``; the lex-leader clauses (``lex``) then
    compare only the translations along the lines, ``(2 d mod m, d)`` (rows the shorter
    side; ``(d, 2 d mod m)`` else), which keep every line's count, and exist only when ``m``
    divides the longer side (else there is neither ``lex`` nor the unit ``x_(0,0)``). The
    unit ``x_(0,0)`` stays: the first line, which holds ``(0, 0)``, has a knight, and the
    translations along it move any of its squares to ``(0, 0)``.
"""

from __future__ import annotations

import math

import numpy as np

from knightcert.problems.checkers.clausal_proof import MAX_VARIABLES

__all__ = [
    "KNIGHT_JUMPS",
    "LEX_SQUARES",
    "counter_order",
    "knights_cnf",
    "line_scale",
    "translation_applies",
    "translations_along",
]

#: The knight's eight jumps (row, column), written out for the checker.
KNIGHT_JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
#: Squares each lex-leader comparison covers in the proofs the producer writes (a
#: measured choice: longer comparisons add clauses without shortening the refutations).
LEX_SQUARES = 30


def translation_applies(board) -> bool:
    """Whether every translation maps the board onto itself: a torus with no square removed."""
    return bool(board.torus) and bool(np.asarray(board.free).all())


def line_scale(board) -> int:
    """The ``lines`` the producer writes on ``board``: the inverse of 4 modulo the shorter
    side ``m`` when ``m`` is odd and at least 3, else 0 (the counter in row-major order)."""
    m = min(int(board.rows), int(board.cols))
    return pow(4, -1, m) if m >= 3 and m % 2 else 0


def counter_order(board, lines: int = 0) -> np.ndarray:
    """The squares' variables (``1 .. n``, row-major among the usable squares) in the order
    the counter takes them: row-major for ``lines = 0``, else knight line by knight line
    (see the module notes).

    Raises
    ------
    ValueError
        ``lines`` outside ``0`` and ``1 .. m - 1`` (``m`` the shorter side).

    Examples
    --------
    >>> from knightcert.problems.board import Board
    >>> counter_order(Board(3, 4), 1).tolist()  # m = 3 rows; lines r - 2c (mod 3), by column
    [1, 10, 7, 4, 5, 2, 11, 8, 9, 6, 3, 12]
    """
    rows, cols = int(board.rows), int(board.cols)
    usable = np.flatnonzero(np.asarray(board.free, dtype=bool).reshape(-1))
    if lines == 0:
        return np.arange(1, usable.size + 1, dtype=np.int64)
    m = min(rows, cols)
    if not 1 <= lines < m:
        raise ValueError(f"lines {lines} must be below the board's shorter side ({m}) and positive")
    r, c = np.divmod(usable, cols)
    t, along = ((r - 2 * c) % m, c) if rows <= cols else ((c - 2 * r) % m, r)
    ranks = np.lexsort((along, t, (lines * t) % m))  # the last key sorts first
    return (ranks + 1).astype(np.int64)


def _jump_pairs(board) -> np.ndarray:
    """Pairs ``(u, v)``, ``u < v``, of usable squares (row-major numbers) a jump apart; each once."""
    rows, cols = int(board.rows), int(board.cols)
    free = np.asarray(board.free, dtype=bool).reshape(rows, cols)
    r, c = np.nonzero(free)
    pairs = []
    for dr, dc in KNIGHT_JUMPS:
        tr, tc = r + dr, c + dc
        if board.torus:
            tr, tc = tr % rows, tc % cols
            inside = np.ones(r.size, dtype=bool)
        else:
            inside = (tr >= 0) & (tr < rows) & (tc >= 0) & (tc < cols)
        a = r[inside] * cols + c[inside]
        b = tr[inside] * cols + tc[inside]
        keep = free.reshape(-1)[b] & (a != b)
        pairs.append(np.stack([a[keep], b[keep]], axis=1))
    both = np.concatenate(pairs).astype(np.int64)
    both.sort(axis=1)
    return np.unique(both, axis=0)


def knights_cnf(
    board, k: int, *, translate: bool = True, lex: int = 0, lines: int = 0, fixed=(), balanced: int = 0
) -> tuple[int, list[list[int]]]:
    """The CNF "at least ``k`` independent knights on ``board``" (see the module notes).

    Parameters
    ----------
    board : Board
        The instance's board (plain or torus, squares possibly removed).
    k : int
        Knights to place, ``k >= 1``.
    translate : bool
        Add the unit ``x_(0,0)`` where translations justify it (:func:`translation_applies`).
    lex : int
        Add the lex-leader comparisons of every translation over the first ``lex``
        squares (0: none). Only on boards where :func:`translation_applies`.
    lines : int
        The counter's order (:func:`counter_order`): 0 row-major, else knight lines
        ordered by ``lines * t``.
    fixed : sequence of (row, col)
        Usable squares that must hold a knight (the instance's side constraint): their
        units replace the translation unit, and no ``lex`` goes with them.
    balanced : int
        1: the knight lines balanced (see the module notes): every first ``j`` lines hold at
        least ``ceil(j k / m)`` knights, and ``lex`` compares only the translations along the
        lines. Needs ``lines`` prime to ``m``, on a torus with no square removed or fixed.

    Returns
    -------
    (variables, clauses)
        The number of variables and the clauses as lists of nonzero DIMACS literals.

    Raises
    ------
    ValueError
        ``k < 1``; ``lex`` out of range, or given on a board translations do not map onto
        itself; ``lines`` out of range; ``balanced`` not 0 or 1, or where it does not apply;
        a counter of more than :data:`MAX_VARIABLES` variables (refused before it is built).

    Examples
    --------
    >>> from knightcert.problems.board import Board
    >>> n, clauses = knights_cnf(Board(1, 3), 3)
    >>> n, clauses[-1]
    (6, [6])
    >>> n, clauses = knights_cnf(Board(5, 5, torus=True), 6, lex=2)
    >>> clauses[-4:]  # the last translation, (4, 4): square 1 against 25, then 2 against 21
    [[1, -25], [1, 25, 169], [-1, -25, 169], [-169, 2, -21]]
    """
    if k < 1:
        raise ValueError("the formula needs k >= 1 knights")
    rows, cols = int(board.rows), int(board.cols)
    if lex and not (translation_applies(board) and 1 <= lex <= rows * cols and not fixed):
        raise ValueError(
            f"lex {lex} needs a torus with no square removed or fixed and 1 <= lex <= {rows * cols}"
        )
    if balanced not in (0, 1) or (balanced and (fixed or not translation_applies(board))):
        raise ValueError(f"balanced {balanced} needs 0, or 1 on a torus with no square removed or fixed")
    order = counter_order(board, lines)
    shifts = translations_along(rows, cols, lines) if balanced else None  # None: every translation
    if lex and shifts == []:
        raise ValueError(f"lex {lex} needs translations along the lines, and {rows} x {cols} has none")
    usable = np.flatnonzero(np.asarray(board.free, dtype=bool).reshape(-1))
    n = int(usable.size)
    number = np.zeros(rows * cols, dtype=np.int64)
    number[usable] = np.arange(1, n + 1)
    clauses: list[list[int]] = [[-int(number[u]), -int(number[v])] for u, v in _jump_pairs(board)]
    units = sorted({int(number[r * cols + c]) for r, c in fixed})
    if translate and translation_applies(board) and n and not units and shifts != []:
        units = [int(number[0])]
    clauses += [[u] for u in units]
    if k > n:
        clauses.append([])  # more knights than squares: the empty clause
        return n, clauses
    if n + k * (n - k + 1) > MAX_VARIABLES:  # the counter's variables, before any is made
        raise ValueError(f"{k} knights on {n} squares need a counter over {MAX_VARIABLES} variables")
    top = _counter(n, k, order, clauses)
    m = min(rows, cols)
    clauses += [[_s(n, k, j * n // m, -(-j * k // m))] for j in range(1, m * bool(balanced))]
    if lex:
        top = _lex_leader(rows, cols, lex, top, clauses, shifts)
    return top, clauses


def translations_along(rows: int, cols: int, lines: int) -> list[tuple[int, int]]:
    """The translations ``(dr, dc)`` along the knight lines but the identity: ``(2 d mod m, d)``
    (``(d, 2 d mod m)`` when the columns are the shorter side), when the shorter side ``m``
    divides the longer (else none: they would move squares to other lines)."""
    m, longer = min(rows, cols), max(rows, cols)
    if not (m % 2 and m > 1 and math.gcd(lines, m) == 1):  # lines in 1 .. m - 1 (counter_order)
        raise ValueError(f"balanced lines need an odd shorter side and lines prime to it, not {lines}")
    along = [(2 * d % m, d) for d in range(1, longer)] if longer % m == 0 else []
    return along if rows <= cols else [(d, e) for e, d in along]


def _s(n: int, k: int, i: int, j: int) -> int:
    """The variable of the counter's ``s(i, j)``: numbered from ``n + 1``, column ``j`` by column."""
    return n + (j - 1) * (n - k + 1) + i - j + 1


def _counter(n: int, k: int, order: np.ndarray, clauses: list[list[int]]) -> int:
    """Append the sequential counter "at least ``k`` of the ``n`` squares in ``order``" (see
    the module notes): variables ``s(i, j)`` numbered by :func:`_s`; return the last variable used."""

    def s(i: int, j: int) -> int:  # variable of s(i, j), or 0 when it is false by counting
        return _s(n, k, i, j) if 1 <= j <= k and j <= i <= n - k + j else 0

    for j in range(1, k + 1):
        for i in range(j, n - k + j + 1):
            here, before, lower = s(i, j), s(i - 1, j), s(i - 1, j - 1)
            clauses.append([v for v in (-here, before, int(order[i - 1])) if v])
            if j > 1:
                if lower == 0:  # s(i-1, j-1) false: s(i, j) needs s(i-1, j)
                    clauses.append([v for v in (-here, before) if v])
                else:
                    clauses.append([v for v in (-here, before, lower) if v])
    clauses.append([s(n, k)])
    return n + k * (n - k + 1)


def _lex_leader(rows: int, cols: int, length: int, top: int, clauses: list[list[int]], shifts) -> int:
    """Append the lex-leader comparisons over the first ``length`` squares of the translations
    ``shifts`` (see the module notes); return the last variable used. Square ``(r, c)`` is
    variable ``r * cols + c + 1`` (a full board: every square usable)."""
    every = ((dr, dc) for dr in range(rows) for dc in range(cols) if dr or dc)
    for dr, dc in every if shifts is None else shifts:
        agree = 0  # e_(m-1); 0 stands for e_0, which is true
        for m in range(length):
            r, c = divmod(m, cols)
            x, y = m + 1, ((r + dr) % rows) * cols + (c + dc) % cols + 1
            clauses.append([v for v in (-agree, x, -y) if v])
            if m == length - 1:
                break
            top += 1
            clauses.append([v for v in (-agree, x, y, top) if v])
            clauses.append([v for v in (-agree, -x, -y, top) if v])
            agree = top
    return top
