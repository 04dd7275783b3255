"""Which methods solve which problem: one ordered registry per problem.

The first method of a problem is its default. Methods are resolved lazily
(``"module:function"``) so that the command line starts fast.
"""

from __future__ import annotations

import importlib

from knightcert.problems.errors import UnknownMethod
from knightcert.problems.method import Method

#: problem -> {method name: "module:function"}; the first entry is the default.
REGISTRY: dict[str, dict[str, str]] = {
    "path": {
        "bfs": "knightcert.heuristics.knight_path_search:bfs",
        "astar": "knightcert.heuristics.knight_path_search:astar",
        "greedy": "knightcert.heuristics.knight_path_search:greedy",
        "cpsat": "knightcert.models.path_cpsat:cpsat",
        "csp": "knightcert.models.path_csp:csp",
    },
    "jump": {
        "bfs": "knightcert.heuristics.jump_search:bfs",
        "bfs-player": "knightcert.heuristics.jump_search:bfs_player",
        "cpsat": "knightcert.models.jump_cpsat:cpsat",
        "csp": "knightcert.models.jump_csp:csp",
    },
    "knights": {
        "matching": "knightcert.heuristics.knights_search:matching",
        "greedy": "knightcert.heuristics.knights_search:greedy",
        "greedy+": "knightcert.heuristics.knights_search:greedy_plus",
        "cpsat": "knightcert.compare.wiring:knights_cpsat",
        "bnb": "knightcert.compare.wiring:knights_bnb",
        "csp": "knightcert.models.knights_csp:csp",
    },
    "tour": {
        "auto": "knightcert.compare.tour_auto:auto",
        "warnsdorff": "knightcert.heuristics.tour_warnsdorff:warnsdorff",
        "marginality": "knightcert.heuristics.tour_warnsdorff:marginality",
        "roth": "knightcert.heuristics.tour_warnsdorff:roth",
        "cenpl": "knightcert.heuristics.tour_warnsdorff:cenpl",
        "divide": "knightcert.heuristics.tour_divide:divide",
        "cpsat": "knightcert.models.tour_cpsat:cpsat",
        "csp": "knightcert.models.tour_csp:csp",
    },
}

#: Methods whose answers are proven optimal (or infeasible) when they finish.
EXACT: dict[str, set[str]] = {
    "path": {"bfs", "astar", "cpsat", "csp"},
    "jump": {"bfs", "bfs-player", "cpsat", "csp"},
    "knights": {"matching", "cpsat", "bnb", "csp"},
    "tour": {"cpsat", "csp"},
}


def problems() -> list[str]:
    """Names of the registered problems."""
    return list(REGISTRY)


def method_names(problem: str) -> list[str]:
    """Method names of ``problem``, the default first."""
    return list(_problem(problem))


def default_method(problem: str) -> str:
    return method_names(problem)[0]


def get_method(problem: str, name: str | None = None) -> Method:
    """The solving function registered as ``name`` (default method when None).

    Raises
    ------
    UnknownMethod
        Unknown problem or method; the message lists the valid names.
    """
    methods = _problem(problem)
    name = name or next(iter(methods))
    if name not in methods:
        raise UnknownMethod(f"unknown method {name!r} for {problem}: choose one of {', '.join(methods)}")
    module, function = methods[name].split(":")
    return getattr(importlib.import_module(module), function)


def is_exact(problem: str, name: str) -> bool:
    return name in EXACT.get(problem, set())


def _problem(problem: str) -> dict[str, str]:
    if problem not in REGISTRY:
        raise UnknownMethod(f"unknown problem {problem!r}: choose one of {', '.join(REGISTRY)}")
    return REGISTRY[problem]
