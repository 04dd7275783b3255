"""Seed 002's branch and bound for independent knights (the historical baseline).

Squares are decided in row-major order: first *no knight*, then *knight*
(which removes the squares it attacks). A branch is pruned when the knights
placed plus the squares still undecided and free cannot beat the best
placement known; the seed used its greedy value as first incumbent (passed in by
``knightcert.combined``, since models do not import heuristics). Depth-first here
(the seed used a queue), with the same branching and pruning.
"""

from __future__ import annotations

import numpy as np

from knightcert.problems import stopping
from knightcert.problems.deadline import Deadline
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_neighbours
from knightcert.problems.result import Result, Status

__all__ = ["bnb"]

#: Seconds before the time limit at which the search stops (at most 2 % of the limit).
_STOP_MARGIN = 0.1
_CHECK_EVERY = 4096


@method("knights", "bnb")
def bnb(
    instance: KnightsInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    incumbent: list[list[int]] | None = None,
) -> Result:
    """Maximum independent knights by seed 002's branch and bound (exact, slow).

    Parameters
    ----------
    incumbent : list of [row, col], optional
        A valid placement to start from; its size prunes from the first node.
        The registered ``bnb`` method passes seed 002's greedy placement, as the
        seed did (``knightcert.combined``).

    Returns
    -------
    Result
        ``OPTIMAL`` when the search finishes; ``FEASIBLE`` with the best
        placement when ``time_limit`` runs out or on Ctrl-C. ``nodes`` counts
        the branches explored.

    Notes
    -----
    Exponential; the bound (placed + free undecided squares) is weak, which is
    why the seed needed 220 s on 6 x 6. Squares are Python-int bitsets.
    """
    board = instance.board
    n = board.size
    free = board.free.reshape(-1)
    nb = knight_neighbours(board)
    attack = [sum(1 << int(j) for j in nb[i] if j >= 0) for i in range(n)]
    start = [board.index(int(r), int(c)) for r, c in (incumbent or [])]
    best = [len(start), sum(1 << i for i in start)]
    all_free = int.from_bytes(np.packbits(free, bitorder="little").tobytes(), "little")
    nodes = 0
    interrupted = False
    # stop a little early: reading the answer back and the caller's wrapping come after
    clock = Deadline(None if time_limit is None else time_limit - min(_STOP_MARGIN, 0.02 * time_limit))
    # stack of (next square, still-available squares, placed knights bitset, count)
    stack = [(0, all_free, 0, 0)]
    try:
        while stack:
            square, available, placed, count = stack.pop()
            nodes += 1
            if nodes % _CHECK_EVERY == 0 and clock.expired():
                interrupted = True
                break
            rest = available >> square
            if count + rest.bit_count() <= best[0]:
                continue  # cannot beat the incumbent
            if rest == 0:
                continue
            square += (rest & -rest).bit_length() - 1  # next available square
            bit = 1 << square
            # push "knight" last so it is explored first? the seed explores "no knight" first
            with_knight = (square + 1, available & ~bit & ~attack[square], placed | bit, count + 1)
            without = (square + 1, available & ~bit, placed, count)
            if with_knight[3] > best[0]:
                best = [with_knight[3], with_knight[2]]
            stack.append(with_knight)
            stack.append(without)
    except KeyboardInterrupt:
        stopping.caught()  # the signal, not this answer, tells a driver to stop
        interrupted = True
    bits = np.unpackbits(np.frombuffer(best[1].to_bytes(n // 8 + 1, "little"), np.uint8), bitorder="little")
    placed_squares = np.stack(np.divmod(np.flatnonzero(bits[:n]), board.cols), axis=1).tolist()
    status = Status.FEASIBLE if interrupted else Status.OPTIMAL
    bound = None if interrupted else best[0]
    return Result.answer(
        "knights",
        "bnb",
        status=status,
        objective=best[0],
        solution=placed_squares,
        bound=bound,
        nodes=nodes,
        info={"incumbent": len(start)},
    )
