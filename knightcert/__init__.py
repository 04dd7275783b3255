"""knightcert: knight problems solved exactly and heuristically, with independent certificates.

The distribution installs this one package. Its layers are subpackages:

``knightcert.problems``
    what a problem is: instances, parsers, moves, checkers and certificates;
``knightcert.models``
    exact methods (CP-SAT, python-constraint, exact searches);
``knightcert.heuristics``
    fast methods;
``knightcert.compare``
    the harness, the reports and the command line.

In a source checkout the four layers are folders at the top of the repository,
beside this one; an installed wheel holds them inside this package. Either way
they are imported as ``knightcert.<layer>``.

The names below are loaded on first use, so that ``import knightcert`` (and
``knightcert --help``) stays fast.

Examples
--------
>>> import knightcert
>>> from knightcert.problems.independent_knights import knights_instance
>>> result = knightcert.solve(knights_instance(4))
>>> (result.status, result.objective, result.verified)
(<Status.OPTIMAL: 'OPTIMAL'>, 8, True)
"""

from __future__ import annotations

import os as _os
from typing import TYPE_CHECKING, Any

# In a checkout, knightcert/ holds only this file and the layers stand beside it:
# let the package look there too (an installed wheel has them inside).
_HERE = _os.path.dirname(__file__)
if not _os.path.isdir(_os.path.join(_HERE, "problems")):
    _checkout = _os.path.dirname(_HERE)
    if _os.path.isfile(_os.path.join(_checkout, "problems", "__init__.py")):
        __path__.append(_checkout)

__version__ = "0.2.0"

#: public name -> "module:attribute", imported on first use
_LAZY = {
    "Result": "knightcert.problems.result:Result",
    "Status": "knightcert.problems.result:Status",
    "KnightcertError": "knightcert.problems.errors:KnightcertError",
    "InvalidInstance": "knightcert.problems.errors:InvalidInstance",
    "InvalidArgument": "knightcert.problems.errors:InvalidArgument",
    "UnknownMethod": "knightcert.problems.errors:UnknownMethod",
    "solve": "knightcert.compare.api:solve",
    "check": "knightcert.problems.answers:check_answer",
    "certify": "knightcert.problems.checkers:certify",
    "CheckFailed": "knightcert.problems.checkers.common:CheckFailed",
    "get_method": "knightcert.compare.registry:get_method",
    "register_method": "knightcert.compare.registry:register_method",
    "resolve_method": "knightcert.compare.registry:resolve",
    "method_names": "knightcert.compare.registry:method_names",
    "problems": "knightcert.compare.registry:problems",
}

__all__ = [
    "CheckFailed",
    "InvalidArgument",
    "InvalidInstance",
    "KnightcertError",
    "Result",
    "Status",
    "UnknownMethod",
    "certify",
    "check",
    "get_method",
    "method_names",
    "problems",
    "register_method",
    "resolve_method",
    "solve",
]

if TYPE_CHECKING:  # pragma: no cover
    from knightcert.compare.api import solve
    from knightcert.compare.registry import get_method, method_names, problems, register_method
    from knightcert.compare.registry import resolve as resolve_method
    from knightcert.problems.answers import check_answer as check
    from knightcert.problems.checkers import certify
    from knightcert.problems.checkers.common import CheckFailed
    from knightcert.problems.errors import InvalidArgument, InvalidInstance, KnightcertError, UnknownMethod
    from knightcert.problems.result import Result, Status


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'knightcert' has no attribute {name!r}")
    import importlib

    module, attribute = _LAZY[name].split(":")
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
