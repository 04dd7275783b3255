"""knightcert: knight problems solved exactly and heuristically, with independent certificates.

This package is the front door: :func:`solve`, :func:`check`, :func:`certify`,
:func:`register_method` and the method registry, with the :class:`Result`,
:class:`Status` and error types re-exported. Its modules, one concept each:

``knightcert.solving``     :func:`solve`: any instance, any method, the answer checked;
``knightcert.registry``    the built-in methods in order (the first is the default), and how any
                           other method gets in (names, callables, ``module:function``,
                           ``exec:``, plug-ins);
``knightcert.program``     running an external program as a method (``exec:COMMAND``);
``knightcert.memory``      the methods' memory estimates, checked before a run;
``knightcert.combined``    methods that start an exact model from a heuristic (knights);
``knightcert.tour_auto``   the default tour method, a dispatcher over the tour methods;
``knightcert.cli``         the command line (the top layer; nothing imports it).

The layers below and above are subpackages too, kept as folders at the top of a
checkout (``[tool.setuptools.package-dir]`` maps them; an installed wheel holds
them inside this package):

``knightcert.problems``    (folder ``problems/``) instances, parsers, moves, checkers, certificates;
``knightcert.models``      (folder ``models/``) exact methods: CP-SAT, python-constraint, exact searches;
``knightcert.heuristics``  (folder ``heuristics/``) fast methods;
``knightcert.compare``     (folder ``compare/``) the harness: runs, suites, experiments, reports.

Dependencies flow one way: cli -> compare -> this front door -> models,
heuristics -> problems (``tests/test_layers.py`` checks it, and that no
module is part of an import circle).

The names below are loaded on first use, so that ``import knightcert`` (and
``knightcert --help``) stays fast.

Examples
--------
>>> import knightcert
>>> from knightcert.problems.independent_knights import knights_instance
>>> result = knightcert.solve(knights_instance(4))
>>> (result.status, result.objective, result.verified)
(<Status.OPTIMAL: 'OPTIMAL'>, 8, True)
>>> knightcert.problem_names()
['path', 'jump', 'knights', 'tour']
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
    "solve": "knightcert.solving:solve",
    "check": "knightcert.problems.answers:check_answer",
    "certify": "knightcert.problems.checkers:certify",
    "CheckFailed": "knightcert.problems.checkers.failure:CheckFailed",
    "get_method": "knightcert.registry:get_method",
    "register_method": "knightcert.registry:register_method",
    "resolve_method": "knightcert.registry:resolve",
    "method_names": "knightcert.registry:method_names",
    "problem_names": "knightcert.registry:problem_names",
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
    "problem_names",
    "register_method",
    "resolve_method",
    "solve",
]

if TYPE_CHECKING:  # pragma: no cover
    from knightcert.problems.answers import check_answer as check
    from knightcert.problems.checkers import certify
    from knightcert.problems.checkers.failure import CheckFailed
    from knightcert.problems.errors import InvalidArgument, InvalidInstance, KnightcertError, UnknownMethod
    from knightcert.problems.result import Result, Status
    from knightcert.registry import get_method, method_names, problem_names, register_method
    from knightcert.registry import resolve as resolve_method
    from knightcert.solving import solve


#: subpackages, importable as attributes too (``knightcert.problems`` is always the subpackage)
_SUBPACKAGES = ("problems", "models", "heuristics", "compare", "cli")


def __getattr__(name: str) -> Any:
    import importlib

    if name in _SUBPACKAGES:
        return importlib.import_module(f"knightcert.{name}")  # the import sets the attribute
    if name not in _LAZY:
        raise AttributeError(f"module 'knightcert' has no attribute {name!r}")
    module, attribute = _LAZY[name].split(":")
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_SUBPACKAGES))
