"""One specification per method: every fact about a method, written once.

Each built-in method has one :class:`MethodFacts` in :data:`FACTS`: its problem
and name, where its function lives, whether it is exact and which claims it
can prove, the options it takes (each checked against the one bounds table,
:data:`knightcert.problems.argument_checks.BOUNDS`), the instances it applies
to, its memory estimate and the compiled kernels it loads. The registry
(:mod:`knightcert.registry`), :func:`knightcert.solve`, the command line's
choices and help, the memory check (:mod:`knightcert.memory`), the warm-up
(:mod:`knightcert.warming`) and the harness read it from here.

The default method of an instance is the first of :data:`DEFAULTS` that
applies to it (knights: ``matching`` on a bipartite board, ``cpsat`` on a
torus with an odd side), the same for the API and the command line.

A foreign method (registered, plug-in, ``package.module:function``,
``exec:COMMAND``) gets safe defaults (:func:`foreign_facts`): heuristic unless
it declares ``exact = True``, proves nothing the checker does not certify,
takes the options it declares in an ``options`` attribute (a sequence of
names; without one, whatever it is given is passed to it, and what it
refuses is its own failure), the default memory estimate, no kernels.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from knightcert.problems.argument_checks import BOUNDS, bounded, describe
from knightcert.problems.errors import InvalidArgument, InvalidInstance
from knightcert.problems.moves import TIE_BREAKS, move_order

__all__ = [
    "DEFAULTS",
    "DEFAULT_BYTES_PER_SQUARE",
    "FACTS",
    "MethodFacts",
    "Option",
    "default_for",
    "facts_of",
    "foreign_facts",
]

#: Bytes per square of a method without a measured estimate (docs/benchmarks-archive.md, "Memory per square").
DEFAULT_BYTES_PER_SQUARE = 1000


@dataclass(frozen=True)
class Option:
    """One keyword option a method takes.

    Attributes
    ----------
    name : str
        The keyword.
    kind : {"whole", "flag", "choice", "order", "squares", "any"}
        A whole number inside ``BOUNDS[bound]``; a bool; one of ``choices``; a permutation of the
        eight knight moves (:func:`~knightcert.problems.moves.move_order`, text or pairs); a list of
        ``[row, col]`` squares (a solution hint); anything (a foreign method's declared option).
    bound : str
        Key of :data:`~knightcert.problems.argument_checks.BOUNDS` (``kind="whole"``).
    choices : tuple of str
        The valid values (``kind="choice"``), the default first.
    help : str
        One line, for the docs and the command line.
    """

    name: str
    kind: str
    bound: str = ""
    choices: tuple[str, ...] = ()
    help: str = ""

    def check(self, value: Any, where: str) -> Any:
        """``value`` checked; InvalidArgument naming ``where`` otherwise."""
        if self.kind == "whole":
            return bounded(value, self.bound, where)
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise InvalidArgument(f"{where}: expected True or False, got {describe(value)}")
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise InvalidArgument(
                    f"{where}: expected one of {', '.join(self.choices)}, got {describe(value)}"
                )
            return value
        if self.kind == "any":
            return value
        if self.kind == "order":
            return move_order(value, where)
        if value is not None and (isinstance(value, (str, bytes)) or not isinstance(value, Sequence)):
            raise InvalidArgument(f"{where}: expected a list of [row, col] squares, got {describe(value)}")
        return value


def _whole(name: str, bound: str, text: str) -> Option:
    return Option(name, "whole", bound=bound, help=text)


WORKERS = _whole("workers", "workers", "CP-SAT search workers")
BUDGET = _whole("budget", "node budget", "node budget of the backtracking search")
BACKTRACKING = Option("backtracking", "flag", help="backtrack at dead ends (False: pure Warnsdorff)")
ITERATIONS = _whole("iterations", "iterations", "swap local search steps")
ORDER = Option("order", "order", help="jump priority: 8 digits naming KNIGHT_OFFSETS, or 8 dr,dc pairs")
HINT = Option("hint", "squares", help="a solution hint: [row, col] squares")


def _warnsdorff(tie_break: str, backtracking: bool = True) -> tuple[Option, ...]:
    """The options of the Warnsdorff family, its default tie-break first."""
    ties = (tie_break, *(t for t in TIE_BREAKS if t != tie_break))
    tie = Option("tie_break", "choice", choices=ties, help="ties in onward moves (random: by --seed)")
    return (BACKTRACKING, BUDGET, ORDER, tie) if backtracking else (BUDGET, ORDER, tie)


def _formulation(*choices: str) -> Option:
    return Option("formulation", "choice", choices=choices, help="the CP-SAT model")


@dataclass(frozen=True)
class MethodFacts:
    """Every fact about one method (see the module docstring).

    Attributes
    ----------
    problem, name : str
    target : str
        ``"module:function"`` (built-in methods; ``""`` for a foreign one).
    exact : bool
        Proves its answers optimal (or infeasible) when it finishes.
    proves : tuple of str
        The claims it can prove: ``"optimal"``, ``"infeasible"``, ``"bound"``.
    options : tuple of Option, or None
        The options it takes; None: not declared (a foreign method), passed through as given.
    bytes_per_square : int
        Peak memory per square (cell), checker included (:mod:`knightcert.memory`).
    kernels : tuple of str
        Modules of the compiled (numba) kernels it runs.
    compiled_from : int
        Squares (cells) from which it takes its compiled path (smaller boards run plain
        Python): its warm-up uses a board of at least this size, so that a timed run never
        loads the kernels (:mod:`knightcert.warming`); 0: compiled at any size.
    applies : callable or None
        ``applies(instance)`` -> why the method does not apply to it (None: it does).
    summary : str
        One line for the help and the docs.
    origin : str
        ``"built-in"`` or where a foreign method comes from.
    honours : tuple of str
        The side constraints (:data:`~knightcert.problems.side_constraints.SIDE_FIELDS`) it
        honours itself; those of :data:`~knightcert.variants.BY_REDUCTION` every method honours.
        Any other side constraint of an instance makes it refuse the instance.
    """

    problem: str
    name: str
    target: str = ""
    exact: bool = False
    proves: tuple[str, ...] = ()
    options: tuple[Option, ...] | None = ()
    bytes_per_square: int = DEFAULT_BYTES_PER_SQUARE
    kernels: tuple[str, ...] = ()
    compiled_from: int = 0
    applies: Callable[[Any], str | None] | None = field(default=None, compare=False)
    summary: str = ""
    origin: str = "built-in"
    honours: tuple[str, ...] = ()

    def warm_squares(self) -> int:
        """Squares of the board this method is warmed on: past its plain-Python sizes when it has
        compiled kernels (so the warm-up loads every code path a timed run takes)."""
        return self.compiled_from + 1 if self.kernels and self.compiled_from else 0

    @property
    def kind(self) -> str:
        """``"exact"`` or ``"heuristic"``."""
        return "exact" if self.exact else "heuristic"

    def option_names(self) -> list[str]:
        return [option.name for option in self.options or ()]

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options checked: an option the method does not take, or a value out of its
        bounds, is an InvalidArgument naming the method and the option.

        Examples
        --------
        >>> FACTS["tour"]["divide"].check_options({"budget": 5})
        Traceback (most recent call last):
        knightcert.problems.errors.InvalidArgument: tour divide takes no option 'budget' (it takes none)
        """
        if self.options is None:  # undeclared: the method's own business
            return dict(options)
        mine = {option.name: option for option in self.options}
        checked = {}
        for name, value in options.items():
            if name not in mine:
                takes = f"it takes: {', '.join(mine)}" if mine else "it takes none"
                raise InvalidArgument(f"{self.problem} {self.name} takes no option {name!r} ({takes})")
            checked[name] = mine[name].check(value, f"{self.name} option {name}")
        return checked

    def why_not(self, instance: Any) -> str | None:
        """Why the method does not apply to ``instance`` (None: it does): a side constraint it
        does not honour, or its own condition (``applies``)."""
        from knightcert.problems.side_constraints import sides_of
        from knightcert.variants import BY_REDUCTION

        for name in sides_of(self.problem, instance):
            if name not in self.honours + BY_REDUCTION.get(self.problem, ()):
                able = [f.name for f in FACTS.get(self.problem, {}).values() if name in f.honours]
                return (
                    f"{self.problem} {self.name} does not honour the side constraint {name!r} "
                    f"(methods that do: {', '.join(able) or 'none'})"
                )
        return None if self.applies is None else self.applies(instance)

    def check_applies(self, instance: Any) -> None:
        """Raise InvalidInstance when the method does not apply to ``instance``."""
        if (reason := self.why_not(instance)) is not None:
            raise InvalidInstance(reason)


def _bipartite(instance: Any) -> str | None:
    board = instance.board
    if board.torus and (board.rows % 2 or board.cols % 2):
        return (
            f"matching needs a bipartite knight graph; a {board.rows} x {board.cols} torus with an odd "
            "side is not bipartite (use cpsat)"
        )
    return None


def _full_board(instance: Any) -> str | None:
    if instance.board.blocked.any() or instance.end is not None:
        return "divide builds tours of full boards without a fixed end"
    return None


_CPSAT = "CP-SAT model"
_CSP = "python-constraint model (small boards)"

#: problem -> method -> its facts; the order is the registry's order, the default first.
FACTS: dict[str, dict[str, MethodFacts]] = {}


def _add(*facts: MethodFacts) -> None:
    for fact in facts:
        FACTS.setdefault(fact.problem, {})[fact.name] = fact


_EXACT = ("optimal", "infeasible")
_PATH_KERNELS = ("knightcert.algorithms.path_kernels",)
_JUMP_KERNELS = ("knightcert.algorithms.jump_kernels",)
_KNIGHTS_KERNELS = ("knightcert.heuristics.knights_kernels",)
_MATCHING_KERNELS = ("knightcert.problems.knight_matching_kernels",)
_TOUR_KERNELS = ("knightcert.heuristics.tour_kernels",)
_WALK = 50_000  # heuristics.tour_divide.PYTHON_WALK: the construction's walk
_OPTIMAL = ("optimal",)
_INFEASIBLE = ("infeasible",)
_KNIGHTS_CPSAT = (
    WORKERS,
    _formulation("star", "pairwise"),
    Option("cuts", "choice", choices=("auto", "none"), help="redundant constraints"),
    Option("search", "choice", choices=("colour", "solver"), help="search strategy"),
)
# each method: its problem, name and "module:function", then by keyword what differs from the defaults
# fmt: off
_add(
    MethodFacts("path", "bfs", "knightcert.algorithms.path_search:bfs", exact=True, proves=_EXACT,
                bytes_per_square=200, kernels=_PATH_KERNELS,
                compiled_from=4096,  # algorithms.path_search.PLAIN_BFS_SQUARES
                summary="breadth-first search"),
    MethodFacts("path", "astar", "knightcert.algorithms.path_search:astar", exact=True, proves=_EXACT,
                bytes_per_square=200, kernels=_PATH_KERNELS, summary="A* with a knight-distance bound"),
    MethodFacts("path", "greedy", "knightcert.heuristics.path_greedy:greedy", bytes_per_square=200,
                summary="greedy walk towards S"),
    MethodFacts("path", "cpsat", "knightcert.models.path_cpsat:cpsat", exact=True, proves=_EXACT,
                options=(WORKERS, _formulation("distance")), bytes_per_square=4000, summary=_CPSAT),
    MethodFacts("path", "csp", "knightcert.models.path_csp:csp", exact=True, proves=_EXACT, summary=_CSP),
    MethodFacts("jump", "bfs", "knightcert.algorithms.jump_search:bfs", exact=True, proves=_EXACT,
                bytes_per_square=200, kernels=_JUMP_KERNELS, summary="round-by-round search of every player"),
    MethodFacts("jump", "bfs-player", "knightcert.algorithms.jump_search:bfs_player", exact=True,
                proves=_EXACT, bytes_per_square=200, kernels=_JUMP_KERNELS, summary="one search per player"),
    MethodFacts("jump", "cpsat", "knightcert.models.jump_cpsat:cpsat", exact=True, proves=_EXACT,
                options=(WORKERS, _formulation("layers")), summary=_CPSAT),
    MethodFacts("jump", "csp", "knightcert.models.jump_csp:csp", exact=True, proves=_EXACT, summary=_CSP),
    MethodFacts("knights", "matching", "knightcert.algorithms.knights_matching:matching", exact=True,
                proves=_OPTIMAL, bytes_per_square=800, kernels=_MATCHING_KERNELS,
                compiled_from=1024,  # algorithms.knights_matching.PLAIN_MATCHING_SQUARES
                applies=_bipartite, summary="maximum matching and Kőnig's theorem (bipartite boards)"),
    MethodFacts("knights", "greedy", "knightcert.heuristics.knights_greedy:greedy", bytes_per_square=200,
                kernels=_KNIGHTS_KERNELS, summary="fewest-removed greedy"),
    MethodFacts("knights", "greedy+", "knightcert.heuristics.knights_greedy:greedy_plus",
                options=(ITERATIONS,), bytes_per_square=200, kernels=_KNIGHTS_KERNELS,
                summary="greedy with swap local search"),
    MethodFacts("knights", "cpsat", "knightcert.combined:knights_cpsat", exact=True,
                proves=("optimal", "bound"), options=_KNIGHTS_CPSAT, bytes_per_square=4000,
                kernels=_KNIGHTS_KERNELS,
                summary="CP-SAT (bounded by a matching, or a band); odd tori: proven by CaDiCaL (LRAT)"),
    MethodFacts("knights", "bnb", "knightcert.combined:knights_bnb", exact=True, proves=_OPTIMAL,
                bytes_per_square=800, kernels=_KNIGHTS_KERNELS,
                summary="branch and bound from the greedy placement"),
    MethodFacts("knights", "csp", "knightcert.models.knights_csp:csp", exact=True, proves=_OPTIMAL,
                summary=_CSP),
    MethodFacts("tour", "auto", "knightcert.tour_auto:auto", proves=_INFEASIBLE, bytes_per_square=400,
                kernels=_TOUR_KERNELS, compiled_from=_WALK, summary="theorem, construction, then search"),
    MethodFacts("tour", "warnsdorff", "knightcert.heuristics.tour_warnsdorff:warnsdorff",
                proves=_INFEASIBLE, options=_warnsdorff("first"), bytes_per_square=400,
                kernels=_TOUR_KERNELS, summary="Warnsdorff's rule with backtracking"),
    MethodFacts("tour", "marginality", "knightcert.heuristics.tour_warnsdorff:marginality",
                proves=_INFEASIBLE, options=_warnsdorff("marginality"), bytes_per_square=400,
                kernels=_TOUR_KERNELS, summary="Warnsdorff, ties by distance to the edge"),
    MethodFacts("tour", "roth", "knightcert.heuristics.tour_warnsdorff:roth",
                proves=_INFEASIBLE, options=_warnsdorff("roth"), bytes_per_square=400,
                kernels=_TOUR_KERNELS, summary="Warnsdorff, ties by Roth's rule"),
    MethodFacts("tour", "cenpl", "knightcert.heuristics.tour_warnsdorff:cenpl",
                proves=_INFEASIBLE, options=_warnsdorff("centre", backtracking=False), bytes_per_square=400,
                kernels=_TOUR_KERNELS, summary="seed 003's search"),
    MethodFacts("tour", "divide", "knightcert.heuristics.tour_divide:divide", proves=_INFEASIBLE,
                bytes_per_square=400, kernels=_TOUR_KERNELS, compiled_from=_WALK, applies=_full_board,
                summary="linear-time construction (full boards)"),
    MethodFacts("tour", "cpsat", "knightcert.combined:tour_cpsat", exact=True, proves=_EXACT,
                options=(WORKERS, HINT, _formulation("circuit")), bytes_per_square=4000,
                kernels=_TOUR_KERNELS, honours=("visits", "forbidden_moves", "required_moves"),
                summary="CP-SAT from the construction's tour or Warnsdorff's path"),
    MethodFacts("tour", "csp", "knightcert.models.tour_csp:csp", exact=True, proves=_EXACT, summary=_CSP),
)
# fmt: on

#: problem -> its default methods, in order: an instance's default is the first that applies.
DEFAULTS: dict[str, tuple[str, ...]] = {
    "path": ("bfs",),
    "jump": ("bfs",),
    "knights": ("matching", "cpsat"),
    "tour": ("auto", "cpsat"),  # cpsat: where a side constraint rules the others out
}

assert set(BOUNDS) >= {o.bound for p in FACTS.values() for f in p.values() for o in f.options or ()} - {""}


def default_for(problem: str, instance: Any = None) -> str:
    """The default method of ``problem`` for ``instance`` (its first default without an
    instance): the first of :data:`DEFAULTS` that applies to it.

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> default_for("knights", knights_instance(8)), default_for("knights", knights_instance(11, torus=True))
    ('matching', 'cpsat')
    """
    names = DEFAULTS[problem]
    fits = (n for n in names if instance is None or FACTS[problem][n].why_not(instance) is None)
    return next(fits, names[-1])


def facts_of(problem: str, name: str) -> MethodFacts | None:
    """The facts of the built-in method ``name`` (None for any other name)."""
    return FACTS.get(problem, {}).get(name)


def foreign_facts(problem: str, name: str, origin: str, function: Any = None) -> MethodFacts:
    """Safe defaults for a foreign method, with what it declares: ``exact`` (a bool),
    ``options`` (a sequence of names, each then taken as it is given) and ``honours`` (the
    side constraints it honours, a sequence of names)."""
    exact = bool(getattr(function, "exact", False))
    honours = getattr(function, "honours", ())
    honours = (
        tuple(map(str, honours)) if isinstance(honours, Sequence) and not isinstance(honours, str) else ()
    )
    declared = getattr(function, "options", None)
    options: tuple[Option, ...] | None = None
    if isinstance(declared, Sequence) and not isinstance(declared, str):
        options = tuple(Option(str(o), "any") for o in declared)
    return MethodFacts(problem, name, exact=exact, options=options, origin=origin, honours=honours)
