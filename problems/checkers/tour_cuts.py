"""The compiled passes of the separator checks (numba): pieces and cut squares.

Both read the move table ``knight_neighbours(board)`` (each row the distinct usable squares
one move away, ``-1`` padding) and a mask of the squares kept; both are linear in the table.
:func:`label_pieces` is what the checker's verdict counts with; :func:`cut_pieces` only
proposes separators, which the verdict then checks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["cut_pieces", "label_pieces"]


@njit(cache=True, nogil=True)
def label_pieces(nb, keep, label):  # pragma: no cover - numba
    """Label the pieces of the squares with ``keep`` (breadth first over the move table
    ``nb``; ``label`` preset to -1 is filled in); return how many there are."""
    n = nb.shape[0]
    queue = np.empty(n, dtype=np.int32)
    count = 0
    for s in range(n):
        if not keep[s] or label[s] >= 0:
            continue
        label[s] = count
        queue[0] = s
        head = 0
        tail = 1
        while head < tail:
            v = queue[head]
            head += 1
            for j in range(nb.shape[1]):
                w = nb[v, j]
                if w >= 0 and keep[w] and label[w] < 0:
                    label[w] = count
                    queue[tail] = w
                    tail += 1
        count += 1
    return count


@njit(cache=True, nogil=True)
def cut_pieces(nb, keep):  # pragma: no cover - numba
    """Tarjan's depth-first search (iterative) over the squares with ``keep``.

    Returns ``(pieces, label, count)``: ``pieces[u]`` is the number of pieces that ``u``'s
    own piece falls into without ``u`` (a cut square has 2 or more; 0 for an isolated
    square), ``label`` the piece of every kept square (-1 elsewhere), ``count`` the pieces.
    The move table lists each neighbour once (``knight_neighbours``), so a move back to the
    parent square is the tree edge itself.
    """
    n = nb.shape[0]
    width = nb.shape[1]
    disc = np.full(n, -1, dtype=np.int32)
    low = np.zeros(n, dtype=np.int32)
    parent = np.full(n, -1, dtype=np.int32)
    slot = np.zeros(n, dtype=np.int32)
    pieces = np.zeros(n, dtype=np.int32)
    label = np.full(n, -1, dtype=np.int32)
    stack = np.empty(n, dtype=np.int32)
    clock = 0
    count = 0
    for root in range(n):
        if not keep[root] or disc[root] >= 0:
            continue
        disc[root] = clock
        low[root] = clock
        clock += 1
        label[root] = count
        top = 0
        stack[0] = root
        while top >= 0:
            v = stack[top]
            if slot[v] < width:
                w = nb[v, slot[v]]
                slot[v] += 1
                if w < 0 or not keep[w]:
                    continue
                if disc[w] < 0:
                    parent[w] = v
                    disc[w] = clock
                    low[w] = clock
                    clock += 1
                    label[w] = count
                    top += 1
                    stack[top] = w
                elif w != parent[v] and disc[w] < low[v]:
                    low[v] = disc[w]
            else:
                top -= 1
                p = parent[v]
                if p >= 0:
                    if low[v] < low[p]:
                        low[p] = low[v]
                    if low[v] >= disc[p]:
                        pieces[p] += 1  # the subtree of v is cut off from the rest by p
        count += 1
    for v in range(n):
        if keep[v] and parent[v] >= 0:
            pieces[v] += 1  # the part holding the parent's side stays one piece
    return pieces, label, count
