"""Independent knights on square tori of odd side, placed on whole anti-diagonals (a construction).

On the ``n x n`` torus the map ``(r, c) -> (r + c) mod n`` sends every knight's jump to a
step of ``±1`` or ``±3``: ``(1, 2)`` and ``(2, 1)`` add 3, ``(1, -2)`` and ``(2, -1)`` take
1 away, and so on. So knights on every square of the anti-diagonals whose indices form a
set ``T`` of residues, no two of them 1 or 3 apart (mod ``n``), attack no other. For odd
``n >= 5`` the set ``T = {0, 2, ..., n - 7} ∪ {n - 2}`` is such a set of ``(n - 3) / 2``
residues (even residues are never 1 or 3 apart, and ``n - 2`` is 2 from 0, 5 from ``n - 7``
and an odd distance of at least 5 from every other), which places ``n (n - 3) / 2``
knights — the optimum on every odd square torus measured (7 to 17; docs/independent-knights.md),
though this module proves nothing: it is a starting placement, and the exact method
proves (or improves) it.
"""

from __future__ import annotations

__all__ = ["diagonal_placement", "diagonal_residues"]


def diagonal_residues(n: int) -> list[int]:
    """The anti-diagonal indices ``T`` for the ``n x n`` torus (module notes); ``n`` odd, ``>= 5``.

    Examples
    --------
    >>> diagonal_residues(13)
    [0, 2, 4, 6, 11]
    """
    if n < 5 or n % 2 == 0:
        raise ValueError(f"the diagonal construction needs an odd side of at least 5, not {n}")
    return [*range(0, n - 6, 2), n - 2]


def diagonal_placement(rows: int, cols: int) -> list[list[int]] | None:
    """Knights on the anti-diagonals :func:`diagonal_residues` of a square torus of odd side;
    None for any other shape (rows != cols, an even side, a side below 5).

    Returns
    -------
    list of [row, col] or None
        ``n (n - 3) / 2`` squares, row by row; not checked here (the caller's checker does).

    Examples
    --------
    >>> len(diagonal_placement(7, 7)), diagonal_placement(7, 7)[:3]
    (14, [[0, 0], [0, 5], [1, 4]])
    >>> diagonal_placement(7, 9) is None
    True
    """
    if rows != cols or rows < 5 or rows % 2 == 0:
        return None
    n = rows
    residues = diagonal_residues(n)
    return sorted([r, (t - r) % n] for r in range(n) for t in residues)
