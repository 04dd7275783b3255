"""The one result shape every method returns."""

from __future__ import annotations

import enum
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from knightcert.problems.run_record import INFO_KEYS, RunRecord

__all__ = ["Backing", "Evidence", "Result", "Status"]


class Status(enum.Enum):
    """Outcome of a method run.

    ``OPTIMAL``
        The objective is proven optimal (by a solver proof or a checked certificate).
    ``FEASIBLE``
        A valid answer whose optimality is not proven.
    ``INFEASIBLE``
        Proven that no answer exists.
    ``UNKNOWN``
        Nothing proven and no answer found (time limit, interruption, crash).
    """

    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    INFEASIBLE = "INFEASIBLE"
    UNKNOWN = "UNKNOWN"

    def __str__(self) -> str:
        return self.value


class Backing(enum.Enum):
    """What backs a claim of an answer (see :class:`Evidence`).

    Only the first four are *certified*: checked by the project's own checker,
    independently of the method that produced the answer.

    ``CERTIFICATE``
        A certificate (distance labelling, matching, closed set, ...) that the checker verified.
    ``THEOREM``
        A named published theorem whose hypotheses the checker verified.
    ``SEARCH``
        The checker's own exhaustive search.
    ``PROOF``
        A clausal proof (LRAT) that the checker's own proof checker verified against the
        formula it built itself.
    ``SOLVER``
        Only the method's own proof (CP-SAT, branch and bound): reported, never certified.
    ``NONE``
        Nothing backs the claim.
    """

    CERTIFICATE = "certificate"
    THEOREM = "theorem"
    SEARCH = "search"
    PROOF = "proof"
    SOLVER = "solver"
    NONE = "none"

    def __str__(self) -> str:
        return self.value

    @property
    def certified(self) -> bool:
        return self in (Backing.CERTIFICATE, Backing.THEOREM, Backing.SEARCH, Backing.PROOF)


@dataclass(frozen=True)
class Evidence:
    """What backs one claim of an answer.

    Attributes
    ----------
    claim : str
        ``"answer"`` (the solution is valid), ``"optimal"``, ``"infeasible"`` or ``"bound"``.
    backing : Backing
        What kind of proof backs it.
    how : str
        Which one, in words: ``"distance labelling"``, ``"matching (Kőnig)"``,
        ``"Schwenk 1991"``, ``"CP-SAT"``, ...
    """

    claim: str
    backing: Backing
    how: str = ""

    @property
    def certified(self) -> bool:
        return self.backing.certified

    def to_dict(self) -> dict[str, str]:
        return {"claim": self.claim, "backing": self.backing.value, "how": self.how}


@dataclass(frozen=True, repr=False)  # its own __repr__ below
class Result:
    """What a method found, how sure it is, and how long it took.

    Attributes
    ----------
    problem : str
        Problem name (``"path"``, ``"jump"``, ``"knights"``, ``"tour"``).
    method : str
        Registry name of the method that produced it.
    status : Status
        See :class:`Status`.
    objective : int or float or None
        Value of the answer (moves, knights, rounds, ...); ``None`` without one.
    bound : int or float or None
        Best proven bound on the optimum (equal to ``objective`` when optimal).
    solution : object
        The answer itself in plain JSON-able form (lists of ``[row, col]``).
    time : float
        Wall-clock seconds of the method's call, measured by the run path
        (:func:`knightcert.solving.run`) around it; a method function called directly leaves
        0.0 or its own reading (the composite methods and CP-SAT model objects keep one).
    verified : bool
        True when the problem's independent checker
        (:func:`knightcert.problems.checkers.certify`) accepted the answer and
        found no claim wrong. Whether each claim is *proven* independently is
        in ``evidence`` / :attr:`certified`.
    instance : str
        Name of the instance, for reports.
    nodes : int or None
        Search nodes / expansions, where the method counts them.
    certificate : object
        Proof object (labelling, closed set, matching, ...): the method's, or,
        after the checker ran, the one it checked (possibly its own). Not in
        :meth:`to_dict`; saved in answer files (:mod:`knightcert.problems.answers`).
    info : dict
        Method-specific extras (serialised).
    evidence : tuple of Evidence
        What backs each claim, one entry per claim; set by the checker.
    check_time : float or None
        Seconds the independent check took (reported beside ``time``, never in it); None
        before the check.
    cpu_time : float or None
        CPU seconds of the method's call (its process, all threads, and the child processes
        it waited for), measured by the run path around the call; None when not measured.
    """

    problem: str
    method: str
    status: Status
    objective: int | float | None
    bound: int | float | None
    solution: Any
    time: float
    verified: bool = False
    instance: str = ""
    nodes: int | None = None
    certificate: Any = field(default=None, repr=False, compare=False)
    info: dict[str, Any] = field(default_factory=dict)
    evidence: tuple[Evidence, ...] = ()
    check_time: float | None = field(default=None, compare=False)
    cpu_time: float | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for label in ("objective", "bound", "nodes"):  # counts are plain ints, whatever the method used
            value = getattr(self, label)
            if not isinstance(value, (int, float, type(None))) and isinstance(value, numbers.Integral):
                object.__setattr__(self, label, int(value))

    @classmethod
    def empty(
        cls,
        problem: str,
        method: str,
        time: float = 0.0,
        *,
        status: Status = Status.UNKNOWN,
        bound: int | float | None = None,
        nodes: int | None = None,
        info: dict[str, Any] | None = None,
        evidence: tuple[Evidence, ...] = (),
        certificate: Any = None,
        stopped: str | None = None,
    ) -> Result:
        """A result without an answer (no objective, no solution): ``UNKNOWN`` by default, or
        ``INFEASIBLE`` with what proves it; ``stopped`` says why there is none (``record.stopped``).

        Examples
        --------
        >>> Result.empty("tour", "roth", 0.5, stopped="node budget spent").summary()
        'tour by roth: UNKNOWN, 0.5 s, not verified, no solution'
        """
        if stopped is not None:
            info = {**(info or {}), "stopped": stopped}
        return cls.answer(
            problem,
            method,
            status=status,
            objective=None,
            solution=None,
            time=time,
            bound=bound,
            nodes=nodes,
            info=info,
            evidence=evidence,
            certificate=certificate,
        )

    @classmethod
    def answer(
        cls,
        problem: str,
        method: str,
        *,
        status: Status,
        objective: int | float | None,
        solution: Any,
        time: float = 0.0,
        bound: int | float | None = None,
        nodes: int | None = None,
        info: dict[str, Any] | None = None,
        evidence: tuple[Evidence, ...] = (),
        certificate: Any = None,
    ) -> Result:
        """A result with an answer, every field named."""
        return cls(
            problem,
            method,
            status,
            objective,
            bound,
            solution,
            time,
            nodes=nodes,
            certificate=certificate,
            info=dict(info or {}),
            evidence=evidence,
        )

    @property
    def certified(self) -> bool:
        """True when the checker accepted the answer and every claim is certified (a bound, too:
        one that no evidence backs leaves the answer uncertified)."""
        bound = self.bound is not None and self.status in (Status.FEASIBLE, Status.UNKNOWN)
        backed = not bound or any(e.claim == "bound" for e in self.evidence)
        return self.verified and bool(self.evidence) and backed and all(e.certified for e in self.evidence)

    def with_(self, **changes: Any) -> Result:
        """Return a copy with some fields replaced (a field's name checked; a few microseconds,
        a third of :func:`dataclasses.replace`'s)."""
        if not changes.keys() <= self.__dataclass_fields__.keys():
            return replace(self, **changes)  # which raises TypeError naming the field
        copied = object.__new__(type(self))
        copied.__dict__.update(self.__dict__, **changes)
        copied.__post_init__()
        return copied

    @property
    def record(self) -> RunRecord:
        """How the run went (:class:`~knightcert.problems.run_record.RunRecord`): why it
        stopped, its times, its memory, where the method came from."""
        return RunRecord.of(self)

    def with_record(self, **entries: Any) -> Result:
        """A copy with entries of :attr:`record` set (``stopped``, ``interrupted``, ``warm_s``,
        ``peak_mb``, ``foreign``), kept in ``info`` under those names; the flag ``interrupted`` is
        kept only while True."""
        unknown = sorted(set(entries) - set(INFO_KEYS))
        if unknown:
            raise TypeError(f"not entries of the run record: {', '.join(unknown)}")
        info = {**self.info, **entries}
        if not info.get("interrupted", True):
            del info["interrupted"]
        return replace(self, info=info)

    def summary(self) -> str:
        """One line: instance, method, status, value, bound, time, checks; the solution left out.

        Examples
        --------
        >>> r = Result("knights", "greedy", Status.FEASIBLE, 30, None, [[0, 0]] * 30, 0.0123, True, "8x8")
        >>> r.summary()
        'knights 8x8 by greedy: FEASIBLE 30, 0.0123 s, verified, solution of 30 items'
        """
        where = f" {self.instance}" if self.instance else ""
        value = "" if self.objective is None else f" {self.objective}"
        bound = "" if self.bound is None or self.bound == self.objective else f" (bound {self.bound})"
        checks = "certified" if self.certified else "verified" if self.verified else "not verified"
        size = len(self.solution) if isinstance(self.solution, (list, tuple)) else None
        solution = (
            "no solution"
            if self.solution is None
            else f"solution of {size} items"
            if size is not None
            else "solution"
        )
        return (
            f"{self.problem}{where} by {self.method}: {self.status.value}{value}{bound}, "
            f"{self.time:.3g} s, {checks}, {solution}"
        )

    def __repr__(self) -> str:
        """Short at any size: ``<Result knights 300x300 by matching: OPTIMAL 45000, ...>``
        (``to_dict()`` and ``.solution`` have the whole answer)."""
        return f"<Result {self.summary()}>"

    def _repr_svg_(self) -> str | None:
        """For notebooks: the picture of the answer (:func:`~knightcert.problems.picture.answer_svg`),
        on the board named by ``instance``; None without one."""
        from knightcert.problems.picture import answer_svg

        return (
            answer_svg(self.problem, self.solution, self.instance, certificate=self.certificate, size=480)
            or None
        )

    def _repr_html_(self) -> str:
        """For notebooks: the summary line above the picture of the answer."""
        import html

        return f"<div><code>{html.escape(self.summary())}</code><br>{self._repr_svg_() or ''}</div>"

    def to_dict(self, arrays: bool = False) -> dict[str, Any]:
        """Plain JSON (lists, dicts, str, int, float, bool, None) with the fields the CLI and
        harness report: a solution held as an array is written as lists of ``[row, col]``
        (``arrays=True``: kept as the array, for a writer that formats it faster itself)."""
        return {
            "problem": self.problem,
            "instance": self.instance,
            "method": self.method,
            "status": self.status.value,
            "objective": plain(self.objective),
            "bound": plain(self.bound),
            "solution": self.solution if arrays and hasattr(self.solution, "shape") else plain(self.solution),
            "time_s": round(self.time, 6),
            "check_s": None if self.check_time is None else round(self.check_time, 6),
            "cpu_s": None if self.cpu_time is None else round(self.cpu_time, 6),
            "verified": self.verified,
            "certified": self.certified,
            "evidence": [e.to_dict() for e in self.evidence],
            "nodes": plain(self.nodes),
            **({"info": plain(self.info)} if self.info else {}),
        }


def plain(value: Any, other: Callable[[Any], Any] | None = None) -> Any:
    """``value`` in plain JSON types: arrays and tuples as lists, numpy scalars as Python
    numbers, a whole float as an int where a count is meant is left as it is; any other value
    kept as it is, or given to ``other`` (``str``: written as its text).

    Examples
    --------
    >>> import numpy as np
    >>> plain({"tour": np.array([[0, 0], [1, 2]], dtype=np.int32), "n": np.int64(3), "t": (1, 2)})
    {'tour': [[0, 0], [1, 2]], 'n': 3, 't': [1, 2]}
    """
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, dict):
        return {str(key): plain(item, other) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item, other) for item in value]
    tolist = getattr(value, "tolist", None)  # numpy arrays and scalars
    if callable(tolist):
        return tolist()
    return value.value if isinstance(value, enum.Enum) else value if other is None else other(value)
