"""Lost knight as a CP-SAT model (exact): distance labels.

``"distance"`` (the one formulation; the unit flow, which found nothing in 60 s where this one
proved caso550 in 21 s, was dropped: docs/benchmarks-archive.md), the dual of the shortest path problem
    Data: the distinct knight arcs between free squares of the torus.
    Variables: one integer ``d[v]`` in [0, F] per free square (F = free squares).
    Constraints: ``d[C] = 0`` and ``d[v] <= d[u] + 1`` for every arc ``u -> v``.
    Objective: maximise ``d[S]`` (it was the sum of every label, a linear constraint over
    all of them propagated at every decision). Every label is at most its distance
    (induction along a shortest path) and the distances satisfy every constraint, so the
    maximum of ``d[S]`` is the fewest moves, or F when S cannot be reached; in any
    labelling that reaches it the labels along a shortest path are tight, and the path
    follows tight arcs (``d[v] = d[u] + 1``) back from S. CP-SAT's bound propagation of
    ``d[v] <= d[u] + 1`` from ``d[C] = 0`` is a Bellman-Ford pass, so the bound is found
    at the root; a decision strategy that sets each label to its largest value then
    finds the optimum without a backtrack.
The model knows nothing of breadth-first search; but by default (``bound="bfs"``) the
``distance`` model is handed breadth-first search's distances as a complete hint and stops at
the first labelling whose ``d[S]`` reaches the distance found: no labelling goes past it, so
that labelling is optimal, and the distances go with the answer as its certificate (the
checker validates them). Proving the same bound by propagation alone took CP-SAT 7-50 s on
caso550 (docs/benchmarks-archive.md); ``bound="none"`` still does that.
"""

from __future__ import annotations

import functools

import numpy as np

from knightcert.models.cpsat_labels import LABEL_PARAMETERS, maximise_labels
from knightcert.models.cpsat_model import BuildStopped, CpsatModel, VariableMap, check_choice
from knightcert.models.cpsat_solve import CpSatRun
from knightcert.problems.deadline import Deadline
from knightcert.problems.errors import SizeLimitExceeded
from knightcert.problems.lost_knight import LostKnightInstance
from knightcert.problems.method import method
from knightcert.problems.moves import knight_arcs
from knightcert.problems.result import Result, Status

__all__ = ["FORMULATIONS", "MAX_CPSAT_SQUARES", "PathModel", "cpsat"]

#: The formulations, the default first (chosen by ``bench/bench_cpsat.py``).
FORMULATIONS = ("distance",)
#: Free squares above which the model is refused (about 8 Booleans per square).
MAX_CPSAT_SQUARES = 250_000


class PathModel(CpsatModel):
    """The exact model of a lost-knight instance (module docstring).

    ``dist[r, c]`` is the label of free square ``(r, c)`` (at most its distance from C, the
    distance itself at the optimum). ``bound="bfs"`` hints breadth-first search's labelling
    and stops at the first labelling that reaches its length.

    Examples
    --------
    >>> from knightcert.problems.lost_knight import parse_lost_knight
    >>> model = PathModel(parse_lost_knight("C.....\\n......\\n....S.\\n......\\n......\\n......\\n"))
    >>> model.solve(check=lambda path: len(path) == 3).objective
    2
    >>> model.cp.add(model.dist[2, 4] >= 3)  # S at least 3 moves away?  # doctest: +ELLIPSIS
    <...>
    >>> result = model.solve()
    >>> result.status.value, [(e.claim, e.backing.value) for e in result.evidence]
    ('INFEASIBLE', [('infeasible', 'solver')])
    """

    problem = "path"

    def __init__(
        self,
        instance: LostKnightInstance,
        *,
        formulation: str = "distance",
        bound: str = "bfs",
        clock: Deadline | None = None,
    ) -> None:
        check_choice("formulation", formulation, FORMULATIONS)
        check_choice("bound", bound, ("bfs", "none"))
        board = self.board = instance.board
        SizeLimitExceeded.check("cpsat", board.n_free, MAX_CPSAT_SQUARES, "free squares")
        super().__init__(instance, clock)
        self.searched = None
        if bound == "bfs":
            from knightcert.algorithms.path_search import bfs

            self.searched = bfs(instance, check=False)
        # data: the knight arcs between free squares
        self.tails, self.heads = knight_arcs(board)
        self._stop_building()
        self.usable = np.flatnonzero(board.free.reshape(-1))
        self.n = len(self.usable)
        self._distance()
        self._built()
        self.info.update(formulation=formulation, constraints=len(self.cp.proto.constraints))

    def _distance(self) -> None:
        """Variables ``d[v]`` in [0, n] (n: unreachable) with ``d[C] = 0``; ``d[head] - d[tail] <= 1``
        on every arc into a square other than C; maximise ``d[S]``."""
        label_of = np.full(self.board.size, -1, dtype=np.int64)
        label_of[self.usable] = np.arange(self.n)
        n, proto = self.n, self.cp.proto
        start, self.goal = int(label_of[self.instance.start_index]), int(label_of[self.instance.exit_index])
        self.heads_var, self.tails_var = label_of[self.heads], label_of[self.tails]
        keep = self.heads_var != start
        # both written as protobuf text and parsed in one call: 1.2 s of CPU for caso550's 218 000
        # constraints, against 2.2 s for a Python call per field (measured in one process)
        text = [f"variables{{domain:0 domain:{n}}}"] * n
        text[start] = "variables{domain:0 domain:0}"
        text += [
            f"constraints{{linear{{vars:{v} vars:{u} coeffs:1 coeffs:-1 domain:{-n} domain:1}}}}"
            for v, u in zip(self.heads_var[keep].tolist(), self.tails_var[keep].tolist(), strict=True)
        ]
        self._stop_building()  # building looks at the clock between its steps
        proto.merge_text_format("".join(text))
        self._stop_building()
        # objective: maximise the label of S (the other labels are decided at their largest values)
        maximise_labels(proto, n, self.goal)
        self.parameters = LABEL_PARAMETERS
        searched = self.searched
        if searched is None:
            return
        if searched.status is Status.OPTIMAL and searched.objective is not None:
            self.stop_at = int(searched.objective)  # BFS's labels, capped at the length
            hinted = np.asarray(searched.certificate["labels"]).reshape(-1)[self.usable]
        else:
            self.stop_at = n
            # 0 on the squares C reaches, n elsewhere: feasible, as no move leaves the closed set
            hinted = np.where(np.asarray(searched.certificate["closed"]).reshape(-1)[self.usable], 0, n)
        proto.solution_hint.vars.extend(range(n))
        proto.solution_hint.values.extend(hinted.tolist())
        self.info.update(hint="breadth-first distances", bound_source="breadth-first search")

    @functools.cached_property
    def dist(self) -> VariableMap:
        """The label of every free square ``(r, c)`` (distance formulation)."""
        rows, cols = np.divmod(self.usable, self.board.cols)
        return VariableMap(
            self.cp, dict(zip(zip(rows.tolist(), cols.tolist(), strict=True), range(self.n), strict=True))
        )

    def _extract(self, solved: CpSatRun) -> Result:
        label = self.values(solved)[: self.n]
        goal, stop_at = self.goal, self.stop_at
        optimal = solved.status is Status.OPTIMAL or (stop_at is not None and label[goal] == stop_at)
        certificate = self.searched.certificate if self.searched is not None else None
        if label[goal] >= self.n:  # S is unreachable (proven when the labelling is optimal)
            status = Status.INFEASIBLE if optimal else Status.UNKNOWN
            kept = None if status is Status.UNKNOWN else certificate
            return Result.empty("path", "cpsat", status=status, certificate=kept)
        path = _path_from_labels(self.board.cols, self.usable, self.tails_var, self.heads_var, label, goal)
        if path is None:  # an extension bounded the labels (lower bounds): no path to read, nothing claimed
            return Result.empty("path", "cpsat")
        length = len(path) - 1
        optimal = optimal and length == label[goal]
        return Result.answer(
            "path",
            "cpsat",
            status=Status.OPTIMAL if optimal else Status.FEASIBLE,
            objective=length,
            bound=length if optimal else None,
            solution=path,
            time=0.0,
            certificate=certificate if optimal else None,
        )


@method("path", "cpsat")
def cpsat(
    instance: LostKnightInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    workers: int | None = None,
    formulation: str = "distance",
    bound: str = "bfs",
) -> Result:
    """Shortest knight path by a CP-SAT model of distance labels (:class:`PathModel`).

    Parameters
    ----------
    instance : LostKnightInstance
    time_limit : float, optional
        Seconds for the CP-SAT search.
    seed : int, optional
        CP-SAT ``random_seed``.
    workers : int, optional
        CP-SAT ``num_workers`` (default ``knightcert.models.cpsat_solve.default_workers()``).
    formulation : {"distance"}
        The model (module docstring); recorded as ``info["formulation"]``.
    bound : {"bfs", "none"}
        ``"bfs"`` (default): breadth-first search's distances from C
        (capped at the length found) are the hint, a complete labelling that is optimal, and
        the search stops at the first labelling whose ``d[S]`` reaches the distance found
        (no labelling goes past it: every label is at most its distance). Optimality then
        rests on that search, recorded as ``info["bound_source"]``, with the labelling as
        the certificate (the checker validates it, or a closed set for an unreachable S).
        ``"none"``: the model alone proves the optimum by its own propagation.

    Returns
    -------
    Result
        ``OPTIMAL`` or ``INFEASIBLE`` with the solver's proof; under a time
        limit ``FEASIBLE`` (a path, ``bound`` = best proven bound) or ``UNKNOWN``.

    Raises
    ------
    SizeLimitExceeded
        More than ``MAX_CPSAT_SQUARES`` free squares.
    ValueError
        An unknown ``formulation``.

    Notes
    -----
    One integer per free square, one two-variable inequality per arc.
    """
    clock = Deadline(time_limit)
    try:
        model = PathModel(instance, formulation=formulation, bound=bound, clock=clock)
    except BuildStopped:
        stopped = f"time limit of {time_limit:g} s reached while building the model"
        return Result.empty("path", "cpsat", clock.elapsed(), stopped=stopped)
    return model.run(began=clock.began, time_limit=time_limit, seed=seed, workers=workers)


def _path_from_labels(
    cols: int, usable: np.ndarray, tails: np.ndarray, heads: np.ndarray, label: np.ndarray, goal: int
) -> list[list[int]] | None:
    """From S back to C along tight arcs (``label[head] = label[tail] + 1``); None where none leads on."""
    tight = label[heads] == label[tails] + 1
    into: dict[int, int] = dict(zip(heads[tight].tolist(), tails[tight].tolist(), strict=True))
    walk = [goal]
    while label[walk[-1]] > 0:
        if walk[-1] not in into:
            return None
        walk.append(into[walk[-1]])
    return [list(divmod(int(usable[v]), cols)) for v in reversed(walk)]
