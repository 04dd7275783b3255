"""Certificates for independent knights.

A placement is checked square by square: on the board, usable, distinct, and
no knight a jump away from another. An upper bound ``u`` on the number of
knights (the optimality claim ``u = k``, or a bound) is proven by a
*matching*: knight moves between usable squares that share no square. An
independent set holds at most one end of each, so no placement has more
than ``usable squares - |matching|`` knights, on any board.

On a bipartite knight graph (every plain board, and tori whose sides are
both even) Kőnig's theorem makes this exact: a *maximum* matching gives the
optimum itself. So when no matching is attached, or the attached one does
not prove the claim, the checker computes its own maximum matching
(Hopcroft–Karp with dead-end marking, :mod:`knightcert.problems.knight_matching`) and
either certifies the claim or refutes it. On other boards (tori with an odd
side) the checker finds the optimum itself by branch and bound on boards of
at most ``SEARCH_SQUARES`` usable squares (within ``SEARCH_NODES`` nodes).

On a full torus (no square removed) a *band bound* applies
(:mod:`knightcert.problems.checkers.knights_band`): the most knights a band of a few
rows (or columns) holds, counted by the checker's own dynamic programming, times the
band's translates over its width. An answer may name its band
(``certificate["band"] = {"axis": "rows" | "cols", "width": r}``; checked strictly,
and refused on a board with a removed square); the checker also tries its own band
on full tori with an odd side past its search (before any proof), and where its search
runs out. On a torus with one odd side this bound is the optimum, and the checker's own
placement (:func:`~knightcert.problems.checkers.knights_band.strip_placement`, checked
like any answer's) refutes a lower claim; a band that is the whole torus counts the
optimum itself, and refutes a lower claim too.

Beyond that (a board that is not bipartite: the checker's own matching comes first on
the others), an upper bound ``u`` is certified by an *LRAT proof* attached as
``certificate["drat"]`` (:mod:`knightcert.problems.checkers.clausal_proof`) that refutes
"at least ``K`` independent knights" for some ``K <= u + 1``: the checker builds that
formula itself (:mod:`knightcert.problems.checkers.knights_cnf`, from the board and ``K``
only; a counter past ``MAX_VARIABLES`` refused before it is built) and its own proof
checker (:mod:`knightcert.problems.checkers.lrat`) verifies that the proof refutes it. A
proof that does not check is refused; a proof of a weaker bound (``K > u + 1``) proves
nothing and is left aside.
Without one the claim rests on the solver: reported, never certified.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from knightcert.problems.checkers.clausal_proof import proof_entry
from knightcert.problems.checkers.common import (
    CheckFailed,
    as_squares,
    bound_claim,
    certificate_of,
    certified,
    knight_steps,
    on_usable,
    solver_evidence,
    usable_squares,
)
from knightcert.problems.checkers.fields import int_array
from knightcert.problems.checkers.knights_band import (
    BandBound,
    band_bound,
    best_band,
    check_band,
    full_torus,
    strip_placement,
)
from knightcert.problems.checkers.sides import fixed_fault
from knightcert.problems.independent_knights import KnightsInstance, fixed_conflict, rest_of
from knightcert.problems.moves import KNIGHT_OFFSETS, knight_neighbours
from knightcert.problems.result import Backing, Evidence, Result, Status

__all__ = [
    "MATCHING",
    "SEARCH_NODES",
    "SEARCH_SQUARES",
    "bipartite",
    "certify_knights",
    "check_matching",
    "check_placement",
    "matching_is_maximum",
    "maximum_matching",
    "search_optimum",
]

MATCHING = "matching (Kőnig)"
#: Usable squares up to which the checker finds the optimum of a non-bipartite board itself.
SEARCH_SQUARES = 100
#: Node budget of that search.
SEARCH_NODES = 50_000


def certify_knights(instance: KnightsInstance, result: Result) -> tuple[list[Evidence], dict | None]:
    """Check a placement and its upper bound; return the evidence and the certificate checked
    (a matching, a band or a proof entry; None when none certified the bound).

    Raises
    ------
    CheckFailed
        Naming the claim rejected and why.
    """
    if instance.fixed:
        return _certify_with_fixed(instance, result)
    if result.status is Status.INFEASIBLE:
        raise CheckFailed("placing no knight is always feasible", claim="infeasible")
    evidence: list[Evidence] = []
    if result.solution is not None:
        count = check_placement(instance, result.solution)
        if result.objective != count:
            raise CheckFailed(f"objective {result.objective} but {count} knights are placed")
        evidence.append(certified("answer", "placement checked"))
    claim = "optimal" if result.status is Status.OPTIMAL else "bound"
    matching = certificate_of(result, claim).get("matching")
    named = certificate_of(result, claim).get("band")
    bound = _Bound(instance, result, claim, -1, matching, named)
    if matching is not None:
        bound.size = check_matching(instance, matching, claim)  # checked even if unused
    if named is not None:
        check_band(instance.board, named, claim)  # checked even if unused; counted only when needed
    upper = result.objective if claim == "optimal" else bound_claim(result)
    if upper is None:
        return evidence, None
    bound.upper = int(upper)  # a whole number: check_status_fields ran first
    backed = next(filter(None, (backer(bound) for backer in UPPER_BOUND)))  # the method's word backs the rest
    return [*evidence, backed[0]], backed[1]


@dataclass
class _Bound:
    """An upper bound on the knights to back: the claim, its value and the answer's certificates."""

    instance: KnightsInstance
    result: Result
    claim: str
    upper: int
    matching: Any
    named: Any
    size: int | None = None  # the answer's matching's size, once checked
    spent: str = ""  # what stopped the checker's search

    @property
    def board(self):
        return self.instance.board

    def by_band(self, entry: Any) -> Backed | None:
        band = _band(self.board, entry, self.claim, self.upper)
        if band is not None and band.bound <= self.upper:
            return Evidence(self.claim, Backing.CERTIFICATE, band.how()), {"band": band.entry()}
        return None


Backed = tuple[Evidence, dict | None]


def _answer_matching(b: _Bound) -> Backed | None:
    if b.size is not None and b.board.n_free - b.size <= b.upper:
        return certified(b.claim, MATCHING), {"matching": int_array(b.matching, "certificate 'matching'")}
    return None


def _bands(b: _Bound) -> Backed | None:
    """The answer's band, then the checker's own on a non-bipartite board past its search."""
    own_first = not bipartite(b.board) and b.board.n_free > SEARCH_SQUARES  # the band before a proof
    entries = ([b.named] if b.named is not None else []) + ([None] if own_first else [])
    return next(filter(None, map(b.by_band, entries)), None)


def _proof(b: _Bound) -> Backed | None:
    """The answer's proof; on the rest of fixed knights, it refutes the formula of the instance
    with them (its board, the fixed knights' units, ``K`` counting them)."""
    proof = certificate_of(b.result, b.claim).get("drat")
    entry = None if proof is None else proof_entry(proof, b.claim)
    whole = b.instance.outer or b.instance
    if entry is not None and entry["knights"] <= b.upper + len(whole.fixed) + 1:  # a weaker bound: nothing
        how = check_bound_proof(whole.board, entry, b.claim, whole.fixed)
        return Evidence(b.claim, Backing.PROOF, how), {"drat": entry}
    return None


def _own_search(b: _Bound) -> Backed | None:
    """A non-bipartite board within its size: the checker's search; its band when it runs out."""
    if bipartite(b.board) or b.board.n_free > SEARCH_SQUARES:
        return None
    optimum, nodes = search_optimum(b.board)
    if optimum is None:
        b.spent = f"the checker's search spent {nodes} nodes"
        return b.by_band(None)
    if optimum > b.upper:
        _refute(b.claim, b.upper, f"the checker's exhaustive search places {optimum} knights")
    return Evidence(b.claim, Backing.SEARCH, f"the checker's exhaustive search ({nodes} nodes)"), None


def _own_matching(b: _Bound) -> Backed | None:
    """A bipartite board: the checker's maximum matching (Kőnig), validated first."""
    if not bipartite(b.board):
        return None
    pairs = maximum_matching(b.board)
    if not matching_is_maximum(b.instance, pairs):  # never trusted: the matching code is shared
        b.spent = "the checker's own matching failed its validation"
        return None
    optimum = b.board.n_free - len(pairs)
    if optimum > b.upper:
        _refute(b.claim, b.upper, f"the checker's maximum matching proves {optimum} knights fit (Kőnig)")
    return certified(b.claim, MATCHING), {"matching": pairs}


def _solver_word(b: _Bound) -> Backed:
    """No certificate: the checker's strip refutes a low claim on a full odd torus; else the word."""
    _refute_by_strip(b.board, b.upper, b.claim)
    return solver_evidence(b.claim, b.result.method, b.spent), None


#: Who backs an upper bound on the knights (the optimality claim or a bound), in the order
#: tried: the first that answers backs it, and any may refute the claim (CheckFailed).
UPPER_BOUND: tuple[Callable[[_Bound], Backed | None], ...] = (
    _answer_matching,
    _bands,
    _own_matching,
    _proof,
    _own_search,
    _solver_word,
)


def _certify_with_fixed(instance: KnightsInstance, result: Result) -> tuple[list[Evidence], dict | None]:
    """Fixed knights: a placement holds them; no placement exists when two attack each other;
    else every claim is the rest's (:func:`~knightcert.problems.independent_knights.rest_of`),
    shifted by the fixed knights, certified on the rest as any answer (Kőnig's matching there), but
    a clausal proof, which refutes the instance's own formula (:func:`_proof`)."""
    conflict = fixed_conflict(instance)
    if result.status is Status.INFEASIBLE:
        if conflict is None:
            raise CheckFailed("the fixed knights alone are a placement", claim="infeasible")
        return [Evidence("infeasible", Backing.CERTIFICATE, conflict)], None
    fixed = len(instance.fixed)
    rest = result
    if result.solution is not None:
        squares = as_squares(result.solution)
        check_placement(instance, squares)
        fault = fixed_fault(instance, squares)
        if fault is not None:
            raise CheckFailed(fault)
        kept = [sq for sq in squares.tolist() if tuple(sq) not in set(instance.fixed)]
        rest = result.with_(solution=kept)
    elif conflict is not None:  # no placement exists: any bound holds
        return [Evidence("bound", Backing.CERTIFICATE, conflict)] if result.bound is not None else [], None
    shifted = {
        k: getattr(result, k) - fixed for k in ("objective", "bound") if getattr(result, k) is not None
    }
    evidence, checked = certify_knights(rest_of(instance), rest.with_(**shifted))
    aside = f" (the board without the {fixed} fixed knight{'s' * (fixed != 1)} and the squares they attack)"
    hows = [e.how + aside * (e.claim != "answer" and e.backing is not Backing.PROOF) for e in evidence]
    return [Evidence(e.claim, e.backing, how) for e, how in zip(evidence, hows, strict=True)], checked


def _refute(claim: str, upper: int, why: str) -> NoReturn:
    """Reject an optimality claim or a bound ``upper`` that a placement of more knights refutes."""
    what = f"bound {upper} is below the optimum: " if claim == "bound" else ""
    raise CheckFailed(what + why, claim)


def _band(board, named: Any, claim: str, upper: int) -> BandBound | None:
    """The named band's bound (refused when malformed or not applicable), else the checker's
    own band on a full torus (None elsewhere). A band that is the whole torus counts its
    optimum exactly: more than ``upper`` knights refutes the claim."""
    band = best_band(board) if named is None else band_bound(board, named, claim)
    if band is not None and band.whole and band.holds > upper:
        _refute(claim, upper, f"the checker's count of the whole torus places {band.holds} knights")
    return band


def _refute_by_strip(board, upper: int, claim: str) -> None:
    """Refute ``upper`` on a full torus with one odd side when the checker's own strip
    placement (:func:`~knightcert.problems.checkers.knights_band.strip_placement`), checked
    as any answer's placement, holds more knights."""
    if not full_torus(board):
        return
    strip = strip_placement(board.rows, board.cols)
    if strip is None or len(strip) <= upper:
        return
    placed = check_placement(KnightsInstance(board), strip)  # never trusted: checked square by square
    if placed > upper:
        _refute(claim, upper, f"the checker's own placement holds {placed} knights")


def check_bound_proof(board, proof: Any, claim: str = "optimal", fixed: tuple = ()) -> str:
    """Check an LRAT refutation of "at least ``proof["knights"]`` knights on ``board``"; return
    the evidence text (``LRAT proof (180 k lemmas, checked in 23.1 s)``).

    The formula is the checker's own (:func:`~knightcert.problems.checkers.knights_cnf.knights_cnf`),
    built from the board, its ``fixed`` knights, the number of knights, the length ``lex`` of
    its lex-leader comparisons (absent: none), the counter's order ``lines`` (absent: row-major)
    and ``balanced`` (absent: no balanced lines); nothing but the proof and those numbers is
    read from the answer, and the numbers only say which formula to build.

    Raises
    ------
    CheckFailed
        The entry is malformed or over the size limits, or the proof does not refute the formula.
    """
    from knightcert.problems.checkers.clausal_proof import decode_proof
    from knightcert.problems.checkers.knights_cnf import knights_cnf
    from knightcert.problems.checkers.lrat import check_lrat

    entry = proof_entry(proof, claim)
    named = {key: entry.get(key, 0) for key in ("lex", "lines", "balanced")}
    binary = decode_proof(entry, claim)  # data that is not a proof refused before a formula is built
    try:  # the numbers are checked where the formula is built
        _, clauses = knights_cnf(board, entry["knights"], fixed=fixed, **named)
    except ValueError as exc:
        raise CheckFailed(f"certificate 'drat': {exc}", claim) from None
    checked = check_lrat(clauses, binary)
    del binary
    if not checked.refuted:
        raise CheckFailed(f"LRAT proof refused: {checked.reason}", claim)
    symmetry = ", the lines balanced" if named["balanced"] else ""
    along = " along the lines" if named["balanced"] else ""
    symmetry += f", translations{along} broken by lex-leader clauses" if named["lex"] else ""
    symmetry += f", the {len(fixed)} fixed knight{'s' * (len(fixed) != 1)} as units" if fixed else ""
    order = ", counted by knight lines" if named["lines"] else ""
    lemmas = f"{round(checked.lemmas / 1000)} k" if checked.lemmas >= 10_000 else str(checked.lemmas)
    return f"LRAT proof ({lemmas} lemmas{symmetry}{order}, checked in {checked.seconds:.1f} s)"


def check_placement(instance: KnightsInstance, solution: Any) -> int:
    """Check that ``solution`` is a list of non-attacking knights on usable squares; return how many."""
    board = instance.board
    squares, index = usable_squares(board, solution, "square {1} is off the board or removed")
    occupied = np.zeros(board.size, dtype=bool)
    occupied[index] = True
    if np.count_nonzero(occupied) != len(index):
        counts = np.bincount(index, minlength=board.size)
        raise CheckFailed(f"square {board.square(int(np.flatnonzero(counts > 1)[0]))} holds two knights")
    if not board.torus and len(index) * 4 >= board.size and not _attacks_on_grid(occupied, board):
        return len(index)  # a dense placement: four shifted passes over a byte per square
    # the eight jumps of the knights only (O(knights), no table of the whole board); also
    # where the grid pass found an attack, to name the same knight as ever
    rows, cols = squares[:, 0], squares[:, 1]
    for dr, dc in KNIGHT_OFFSETS:
        tr, tc = rows + dr, cols + dc
        if board.torus:
            tr, tc = tr % board.rows, tc % board.cols
        inside = (tr.view(np.uint64) < board.rows) & (tc.view(np.uint64) < board.cols)  # negatives: huge
        target = (tr * board.cols + tc)[inside]
        hit = occupied[target] & (target != index[inside])  # on a small torus a jump may come back
        if hit.any():
            victim = int(target[hit][0])
            raise CheckFailed(f"the knight on {board.square(victim)} is attacked")
    return int(occupied.sum())


def _attacks_on_grid(occupied: np.ndarray, board: Any) -> bool:
    """Whether two knights on a plain board attack each other: the occupancy grid ANDed with
    itself shifted by four of the eight jumps (the other four are the same pairs reversed).
    O(board) bytes of work, no index arrays: at 1000 x 1000 with half a million knights
    about a tenth of the per-knight jumps' time."""
    grid = occupied.reshape(board.rows, board.cols)
    rows, cols = board.rows, board.cols
    for dr, dc in ((1, 2), (2, 1), (1, -2), (2, -1)):
        if dr >= rows or abs(dc) >= cols:
            continue
        top = grid[: rows - dr]
        bottom = grid[dr:]
        a, b = (top[:, : cols - dc], bottom[:, dc:]) if dc > 0 else (top[:, -dc:], bottom[:, : cols + dc])
        if (a & b).any():
            return True
    return False


def check_matching(instance: KnightsInstance, matching: Any, claim: str = "optimal") -> int:
    """Check a matching of knight moves between usable squares (vectorised); return its size.

    ``matching`` is a list of ``[[r1, c1], [r2, c2]]`` pairs of integers.
    """
    board = instance.board
    if isinstance(matching, list | tuple | np.ndarray) and len(matching) == 0:
        return 0  # the empty matching (a board without knight moves), however it was written
    pairs = int_array(matching, "certificate 'matching'", (None, 2, 2), claim=claim)
    a, b = pairs[:, 0], pairs[:, 1]
    index, usable = (x.reshape(-1, 2) for x in on_usable(board, pairs.reshape(-1, 2)))
    (ia, ib), usable = index.T, usable[:, 0] & usable[:, 1]
    good = usable & (ia != ib) & knight_steps(board, a, b)
    if not good.all():
        k = int(np.flatnonzero(~good)[0])
        pair = (tuple(a[k].tolist()), tuple(b[k].tolist()))
        raise CheckFailed(
            f"matching pair {pair[0]} - {pair[1]} is not a knight move between usable squares", claim
        )
    matched = np.zeros(board.size, dtype=bool)  # a byte per square, no int64 counts
    matched[ia] = True
    matched[ib] = True
    if np.count_nonzero(matched) != 2 * len(pairs):
        counts = np.bincount(np.concatenate([ia, ib]), minlength=board.size)
        raise CheckFailed(
            f"square {board.square(int(np.flatnonzero(counts > 1)[0]))} is matched twice", claim
        )
    return len(pairs)


def matching_is_maximum(instance: KnightsInstance, pairs: np.ndarray) -> bool:
    """Whether ``pairs`` is a matching of knight moves that a Kőnig vertex cover proves maximum.

    The pairs are checked like any answer's matching (knight moves between usable squares, no
    square twice); then the cover ``(L - Z) + (R & Z)``, with ``Z`` the squares that alternating
    paths reach from the unmatched squares of colour ``L``, must touch every knight move and have
    as many squares as the matching has pairs. A cover that small proves that no matching is
    larger, whatever code found ``pairs``: the reachability is scipy's breadth-first search, not
    the project's matching code.

    Notes
    -----
    O(board) time and memory (scipy ``breadth_first_order`` on a sparse graph of the moves).
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order

    board = instance.board
    try:
        size = check_matching(instance, pairs)
    except CheckFailed:
        return False
    n = board.size
    free = board.free.reshape(-1)
    colour = (np.add.outer(np.arange(board.rows), np.arange(board.cols)) % 2).reshape(-1)
    left, right = free & (colour == 0), free & (colour == 1)
    mate = np.full(n, -1, dtype=np.int64)
    if size:
        flat = np.asarray(pairs, dtype=np.int64).reshape(-1, 2, 2)
        a = flat[:, 0, 0] * board.cols + flat[:, 0, 1]
        b = flat[:, 1, 0] * board.cols + flat[:, 1, 1]
        mate[a], mate[b] = b, a
    neighbours = knight_neighbours(board).astype(np.int64)
    u = np.repeat(np.arange(n), neighbours.shape[1])
    v = neighbours.reshape(-1)
    edge = (v >= 0) & left[u]
    u, v = u[edge], v[edge]
    if not right[v].all():
        return False  # a move between squares of one colour: the board is not bipartite by colour
    free_arc = mate[u] != v  # L -> R along moves outside the matching
    matched = np.flatnonzero(right & (mate >= 0))  # R -> L along the matching
    sources = np.flatnonzero(left & (mate < 0))
    tails = np.concatenate([u[free_arc], matched, np.full(sources.size, n)])
    heads = np.concatenate([v[free_arc], mate[matched], sources])
    graph = csr_matrix((np.ones(tails.size, dtype=np.int8), (tails, heads)), shape=(n + 1, n + 1))
    reached = np.zeros(n + 1, dtype=bool)
    reached[breadth_first_order(graph, n, directed=True, return_predecessors=False)] = True
    cover = (left & ~reached[:n]) | (right & reached[:n])
    return int(cover.sum()) == size and bool((cover[u] | cover[v]).all())


def bipartite(board) -> bool:
    """Whether the knight graph is bipartite by colour: plain boards, and tori with both sides even."""
    return not board.torus or (board.rows % 2 == 0 and board.cols % 2 == 0)


def maximum_matching(board) -> np.ndarray:
    """The checker's own maximum matching of the knight graph of a bipartite board.

    Returns
    -------
    numpy.ndarray of int64, shape (k, 2, 2)
        ``k`` disjoint knight moves ``[[r1, c1], [r2, c2]]`` (white square first), ``k`` maximum.

    Notes
    -----
    Hopcroft–Karp with dead-end marking (:mod:`knightcert.problems.knight_matching`):
    O(E sqrt(V)) with E <= 4 V in the worst case (scipy's ``maximum_bipartite_matching``
    is exponential on layered graphs, scipy issue #26147, so the checker does not use it).
    """
    from knightcert.problems.knight_matching import MatchingRun

    if not bipartite(board):
        raise ValueError("the knight graph of this board is not bipartite by colour")
    run = MatchingRun(board, knight_neighbours(board))
    while run.phase():
        pass
    pairs = run.pairs()
    return np.stack(np.divmod(pairs, board.cols), axis=-1).astype(np.int64)  # (pair, square, row / col)


class _Spent(Exception):
    pass


def search_optimum(board, budget: int | None = None) -> tuple[int | None, int]:
    """The most independent knights on ``board`` by the checker's own branch and bound.

    Sets of squares are Python integers used as bit sets. A square with at
    most one free neighbour is always taken (some optimum contains it);
    otherwise the search branches on a square of most neighbours (taken, or
    not). A branch is cut when the knights placed plus the free squares
    minus a greedy matching among them cannot beat the best found.

    Returns
    -------
    (optimum, nodes)
        ``optimum`` is ``None`` when the budget (default ``SEARCH_NODES``) ran out first.

    Notes
    -----
    Exponential in the worst case; on the knight graphs of odd tori up to
    9 x 9 it takes at most a few thousand nodes (0.3 s in Python).
    """
    budget = SEARCH_NODES if budget is None else budget
    usable = [int(i) for i in np.flatnonzero(board.free.reshape(-1))]
    position = {square: k for k, square in enumerate(usable)}
    table = knight_neighbours(board)
    neighbours = [sum(1 << position[int(j)] for j in table[i] if j >= 0) for i in usable]
    best, nodes = [0], [0]

    def bound(free: int) -> int:
        left, matched = free, 0
        while left:
            v = (left & -left).bit_length() - 1
            left &= ~(1 << v)
            partner = neighbours[v] & left
            if partner:
                left &= ~(partner & -partner)
                matched += 1
        return free.bit_count() - matched

    def solve(free: int, size: int) -> None:
        nodes[0] += 1
        if nodes[0] > budget:
            raise _Spent
        while True:  # take every square with at most one free neighbour
            if not free:
                best[0] = max(best[0], size)
                return
            pick, most, most_degree = -1, -1, -1
            rest = free
            while rest:
                v = (rest & -rest).bit_length() - 1
                rest &= rest - 1
                degree = (neighbours[v] & free).bit_count()
                if degree <= 1:
                    pick = v
                    break
                if degree > most_degree:
                    most, most_degree = v, degree
            if pick < 0:
                break
            free &= ~(neighbours[pick] | (1 << pick))
            size += 1
        if size + bound(free) <= best[0]:
            return
        solve(free & ~(neighbours[most] | (1 << most)), size + 1)
        solve(free & ~(1 << most), size)

    try:
        solve((1 << len(usable)) - 1, 0)
    except _Spent:
        return None, nodes[0]
    return best[0], nodes[0]
