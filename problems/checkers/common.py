"""What all checkers share: the status rules, the evidence texts (the rejection is in ``failure``)."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from knightcert.problems.checkers.failure import CheckFailed
from knightcert.problems.checkers.fields import optional_integer, squares
from knightcert.problems.result import Backing, Evidence, Result, Status

__all__ = [
    "MINIMISE",
    "SOLVER_NAMES",
    "as_squares",
    "bound_claim",
    "certificate_of",
    "certified",
    "check_knight_path",
    "check_status_fields",
    "knight_steps",
    "on_usable",
    "solver_evidence",
    "usable_squares",
]

#: Whether a problem's objective is minimised (its bound is a lower bound) or maximised.
MINIMISE = {"path": True, "jump": True, "knights": False, "tour": False}
#: How the evidence names a method whose proof is its own (SOLVER backing).
SOLVER_NAMES = {"cpsat": "CP-SAT", "bnb": "branch and bound", "csp": "python-constraint"}


@cache  # one immutable Evidence for each claim and proof, made once (a frozen dataclass is slow to make)
def certified(claim: str, how: str) -> Evidence:
    """The evidence of ``claim`` proven by a certificate the checker verified (``how``)."""
    return Evidence(claim, Backing.CERTIFICATE, how)


def certificate_of(result: Result, claim: str) -> dict[str, Any]:
    """The attached certificate as a dict (empty when none); CheckFailed if it is not a dict."""
    certificate = result.certificate
    if certificate is None:
        return {}
    if not isinstance(certificate, dict):
        raise CheckFailed(f"certificate: expected a dict, got {type(certificate).__name__}", claim=claim)
    return certificate


def check_status_fields(result: Result, *, no_winner_solution: bool = False) -> Result:
    """Check the fields every answer shares; return the result with an ``OPTIMAL`` bound filled in.

    ``objective`` and ``bound`` are ``None`` or integers >= 0; ``OPTIMAL``
    carries a solution and ``bound == objective`` (a missing bound is the
    objective); ``INFEASIBLE`` carries no objective, no bound and no solution
    (the jump game's table of a game without a winner excepted, with
    ``no_winner_solution``); ``FEASIBLE`` carries a solution and an objective;
    ``UNKNOWN`` carries neither; a bound lies on the right side of the objective. ``result`` is
    :func:`~knightcert.problems.checkers.plain.exact_result`'s copy (its status a :class:`Status`).
    """
    objective = optional_integer(result.objective, "objective")
    bound = optional_integer(result.bound, "bound", claim="bound")
    status = result.status
    if status is Status.OPTIMAL:
        if result.solution is None or objective is None:
            raise CheckFailed("OPTIMAL needs a solution and an objective", claim="optimal")
        if bound is None:
            bound = objective
        if bound != objective:
            raise CheckFailed(f"OPTIMAL needs bound == objective, got bound {bound}, objective {objective}")
    elif status is Status.INFEASIBLE:
        if objective is not None or bound is not None:
            raise CheckFailed("INFEASIBLE carries no objective and no bound", claim="infeasible")
        if result.solution is not None and not no_winner_solution:
            raise CheckFailed("INFEASIBLE carries no solution", claim="infeasible")
    elif status is Status.FEASIBLE:
        if result.solution is None or objective is None:
            raise CheckFailed("FEASIBLE needs a solution and an objective")
    elif result.solution is not None or objective is not None:
        raise CheckFailed("UNKNOWN carries no solution and no objective (an answer found is FEASIBLE)")
    if bound is not None and objective is not None:
        minimise = MINIMISE.get(result.problem, True)
        if (bound > objective) if minimise else (bound < objective):
            side = "exceeds" if minimise else "is below"
            raise CheckFailed(f"bound {bound} {side} the answer's own value {objective}", claim="bound")
    unchanged = objective is result.objective and bound is result.bound  # a copy only when a field changes
    return result if unchanged else result.with_(objective=objective, bound=bound)


def bound_claim(result: Result) -> int | None:
    """The bound to certify as its own claim: a bound that is not already the optimality claim."""
    # a whole number: check_status_fields ran first
    return None if result.status is Status.OPTIMAL or result.bound is None else int(result.bound)


def solver_evidence(claim: str, method: str, detail: str = "") -> Evidence:
    """Evidence of a claim resting only on the method's own proof (never certified)."""
    how = SOLVER_NAMES.get(method) or (f"{method}'s own search" if method else "the method's own word")
    return Evidence(claim, Backing.SOLVER, how + (f"; {detail}" if detail else ""))


def knight_steps(board, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether each ``a[i] -> b[i]`` is a knight move (modulo the size on a torus); vectorised.

    Each step is compared by the distance it covers along each axis, around the cycle on a torus
    (:func:`_around`: equal for two steps exactly when they agree up to sign modulo the size)."""
    rows, cols = (board.rows, board.cols) if board.torus else (0, 0)
    dr, dc = _around(b[:, 0] - a[:, 0], rows), _around(b[:, 1] - a[:, 1], cols)
    one, two = (_around(1, rows), _around(1, cols)), (_around(2, rows), _around(2, cols))
    return ((dr == one[0]) & (dc == two[1])) | ((dr == two[0]) & (dc == one[1]))


def check_knight_path(board, squares: np.ndarray) -> None:
    """CheckFailed naming the first step of ``squares`` (an (n, 2) array) that is not a knight move."""
    bad = ~knight_steps(board, squares[:-1], squares[1:])
    if bad.any():
        step = int(np.argmax(bad)) + 1
        a, b = tuple(squares[step - 1].tolist()), tuple(squares[step].tolist())
        raise CheckFailed(f"step {step}: {a} -> {b} is not a knight move")


def _around(d: Any, n: int) -> Any:
    """``min(d mod n, -d mod n)``: the distance ``d`` covers around a cycle of ``n`` (``|d|`` for 0)."""
    return np.minimum(d % n, -d % n) if n else abs(d)


def on_usable(board, squares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(flat indices, mask of squares on the board and not removed) of an (n, 2) int64 array;
    an index is meaningful only where the mask is true."""
    r, c = squares[:, 0], squares[:, 1]
    inside = (r.view(np.uint64) < board.rows) & (c.view(np.uint64) < board.cols)  # negatives: huge
    index = r * board.cols
    index += c
    blocked = board.blocked.reshape(-1)
    if blocked.any():  # a board with removed squares: each square's own byte (no board-sized ~)
        inside &= ~blocked[np.where(inside, index, 0)]
    return index, inside


def usable_squares(board, solution: Any, words: str) -> tuple[np.ndarray, np.ndarray]:
    """``solution`` as an (n, 2) array of squares (:func:`as_squares`) and their flat indices;
    CheckFailed (``words`` with the entry and its square) at the first off the board or removed."""
    squares = as_squares(solution)
    index, usable = on_usable(board, squares)
    if not usable.all():
        k = int(np.argmin(usable))
        raise CheckFailed(words.format(k, tuple(squares[k].tolist())))
    return squares, index


def as_squares(solution: Any, field: str = "solution") -> np.ndarray:
    """A list of ``[row, col]`` pairs as an (n, 2) integer array; CheckFailed if it is not one."""
    if not isinstance(solution, list | tuple | np.ndarray):
        raise CheckFailed(f"{field}: the answer must be a list of [row, col] squares")
    return squares(solution, field)
