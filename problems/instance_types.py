"""The four problems and their instance types: the one table every layer reads.

Examples
--------
>>> from knightcert.problems.independent_knights import knights_instance
>>> problem_of(knights_instance(4)), instance_type("tour").__name__
('knights', 'TourInstance')
"""

from __future__ import annotations

import importlib
import sys
from functools import cache
from typing import Any

from knightcert.problems.errors import InvalidArgument

__all__ = ["INSTANCE_TYPES", "PROBLEMS", "instance_type", "load", "problem_of"]

#: problem -> the module and class of its instances (imported when first asked for)
INSTANCE_TYPES = {
    "path": "knightcert.problems.lost_knight:LostKnightInstance",
    "jump": "knightcert.problems.jump_game:JumpInstance",
    "knights": "knightcert.problems.independent_knights:KnightsInstance",
    "tour": "knightcert.problems.tours:TourInstance",
}
#: the problems' names, in the order every list shows them
PROBLEMS = tuple(INSTANCE_TYPES)


def load(spec: str) -> Any:
    """What ``"package.module:name"`` names, its module imported when first asked for."""
    module, name = spec.split(":")
    return getattr(importlib.import_module(module), name)


@cache
def instance_type(problem: str) -> type:
    """The class of ``problem``'s instances (``"path"`` -> ``LostKnightInstance``)."""
    return load(INSTANCE_TYPES[problem])  # type: ignore[no-any-return]


def problem_of(instance: Any) -> str:
    """The problem an instance belongs to (``"path"``, ``"jump"``, ``"knights"``, ``"tour"``).

    Raises
    ------
    InvalidArgument
        ``instance`` is not one of the project's instance types.
    """
    for problem, spec in INSTANCE_TYPES.items():  # a module not imported has no instances to match
        if spec.split(":")[0] in sys.modules and isinstance(instance, instance_type(problem)):
            return problem
    names = ", ".join(spec.split(":")[1] for spec in INSTANCE_TYPES.values())
    raise InvalidArgument(f"instance: expected one of {names}, got {type(instance).__name__}")
