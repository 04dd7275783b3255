"""knightcert: knight problems solved exactly and heuristically, with independent certificates.

This package is the front door: :func:`solve`, :func:`model`, :func:`check`, :func:`certify`,
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
checkout and linked into this package (``knightcert/problems -> ../problems``, ...,
relative symbolic links that every editor, type checker and Python itself
follow; an installed wheel holds real folders):

``knightcert.problems``    (folder ``problems/``) instances, parsers, moves, checkers, certificates;
``knightcert.algorithms``  (folder ``algorithms/``) exact combinatorial algorithms: BFS, A*, matching, B&B;
``knightcert.models``      (folder ``models/``) exact models: CP-SAT and python-constraint;
``knightcert.heuristics``  (folder ``heuristics/``) fast methods that do not prove;
``knightcert.compare``     (folder ``compare/``) the harness: runs, suites, experiments, reports.

Dependencies flow one way: cli -> compare -> this front door -> models,
heuristics -> algorithms -> problems (``tests/test_layers.py`` checks it, and
that no module is part of an import circle).

The names below are loaded on first use, so that ``import knightcert`` (and
``knightcert --help``) stays fast.

Examples
--------
>>> import knightcert
>>> result = knightcert.solve(knightcert.knights_instance(4))
>>> (result.status, result.objective, result.verified)
(<Status.OPTIMAL: 'OPTIMAL'>, 8, True)
>>> knightcert.problem_names()
['path', 'jump', 'knights', 'tour']
"""

from __future__ import annotations

import importlib as _importlib
import typing as _typing

#: public name -> "module:attribute", imported on first use
_LAZY = {
    # solving, checking, certifying
    "solve": "knightcert.solving:solve",
    "model": "knightcert.solving:model",
    "check": "knightcert.problems.answers:check_answer",
    "certify": "knightcert.problems.checkers:certify",
    "count": "knightcert.counting:count",
    # the method registry
    "get_method": "knightcert.registry:get_method",
    "register_method": "knightcert.registry:register_method",
    "unregister_method": "knightcert.registry:unregister_method",
    "resolve_method": "knightcert.registry:resolve",
    "method_names": "knightcert.registry:method_names",
    "problem_names": "knightcert.registry:problem_names",
    "default_method": "knightcert.registry:default_method",
    # results and what backs them
    "Result": "knightcert.problems.result:Result",
    "Status": "knightcert.problems.result:Status",
    "Evidence": "knightcert.problems.result:Evidence",
    "Backing": "knightcert.problems.result:Backing",
    # instances: types, constructors, readers
    "LostKnightInstance": "knightcert.problems.lost_knight:LostKnightInstance",
    "parse_lost_knight": "knightcert.problems.lost_knight:parse_lost_knight",
    "read_lost_knight": "knightcert.problems.lost_knight:read_lost_knight",
    "JumpInstance": "knightcert.problems.jump_game:JumpInstance",
    "parse_jump": "knightcert.problems.jump_game:parse_jump",
    "read_jump": "knightcert.problems.jump_game:read_jump",
    "KnightsInstance": "knightcert.problems.independent_knights:KnightsInstance",
    "knights_instance": "knightcert.problems.independent_knights:knights_instance",
    "TourInstance": "knightcert.problems.tours:TourInstance",
    "tour_instance": "knightcert.problems.tours:tour_instance",
    "random_instance": "knightcert.problems.instance_files:random_instance",
    # the error hierarchy
    "KnightcertError": "knightcert.problems.errors:KnightcertError",
    "InvalidInstance": "knightcert.problems.errors:InvalidInstance",
    "InstanceTooLarge": "knightcert.problems.errors:InstanceTooLarge",
    "InvalidArgument": "knightcert.problems.errors:InvalidArgument",
    "UnknownMethod": "knightcert.problems.errors:UnknownMethod",
    "SizeLimitExceeded": "knightcert.problems.errors:SizeLimitExceeded",
    "SolverError": "knightcert.problems.errors:SolverError",
    "InvalidReport": "knightcert.problems.errors:InvalidReport",
    "ReportInUse": "knightcert.problems.errors:ReportInUse",
    "CheckFailed": "knightcert.problems.checkers.failure:CheckFailed",
    "AnswerFileError": "knightcert.problems.answers:AnswerFileError",
}

__all__ = [
    "AnswerFileError",
    "Backing",
    "CheckFailed",
    "Evidence",
    "InstanceTooLarge",
    "InvalidArgument",
    "InvalidInstance",
    "InvalidReport",
    "JumpInstance",
    "KnightcertError",
    "KnightsInstance",
    "LostKnightInstance",
    "ReportInUse",
    "Result",
    "SizeLimitExceeded",
    "SolverError",
    "Status",
    "TourInstance",
    "UnknownMethod",
    "__version__",
    "certify",
    "check",
    "count",
    "default_method",
    "get_method",
    "knights_instance",
    "method_names",
    "model",
    "parse_jump",
    "parse_lost_knight",
    "problem_names",
    "random_instance",
    "read_jump",
    "read_lost_knight",
    "register_method",
    "resolve_method",
    "solve",
    "tour_instance",
    "unregister_method",
]

#: the installed version, from the package metadata (read on first use)
__version__: str

if _typing.TYPE_CHECKING:  # pragma: no cover
    from knightcert.counting import count
    from knightcert.problems.answers import AnswerFileError
    from knightcert.problems.answers import check_answer as check
    from knightcert.problems.checkers import certify
    from knightcert.problems.checkers.failure import CheckFailed
    from knightcert.problems.errors import (
        InstanceTooLarge,
        InvalidArgument,
        InvalidInstance,
        InvalidReport,
        KnightcertError,
        ReportInUse,
        SizeLimitExceeded,
        SolverError,
        UnknownMethod,
    )
    from knightcert.problems.independent_knights import KnightsInstance, knights_instance
    from knightcert.problems.instance_files import random_instance
    from knightcert.problems.jump_game import JumpInstance, parse_jump, read_jump
    from knightcert.problems.lost_knight import LostKnightInstance, parse_lost_knight, read_lost_knight
    from knightcert.problems.result import Backing, Evidence, Result, Status
    from knightcert.problems.tours import TourInstance, tour_instance
    from knightcert.registry import (
        default_method,
        get_method,
        method_names,
        problem_names,
        register_method,
        unregister_method,
    )
    from knightcert.registry import resolve as resolve_method
    from knightcert.solving import model, solve


def _package_version() -> str:
    """The installed distribution's version (one source: pyproject.toml, through the metadata)."""
    from importlib import metadata

    try:
        return metadata.version("knightcert")
    except metadata.PackageNotFoundError:  # a checkout that was never installed
        return "0+unknown"


#: the layers below the front door, reachable as attributes too (``knightcert.problems`` is
#: always the subpackage); the harness and the command line are imported by name
_SUBPACKAGES = {
    "problems": "knightcert.problems",
    "algorithms": "knightcert.algorithms",
    "models": "knightcert.models",
    "heuristics": "knightcert.heuristics",
}


def __getattr__(name: str) -> _typing.Any:
    if name == "__version__":
        value: _typing.Any = _package_version()
    elif name in _SUBPACKAGES:
        return _importlib.import_module(_SUBPACKAGES[name])  # the import sets the attribute
    elif name in _LAZY:
        module, attribute = _LAZY[name].split(":")
        value = getattr(_importlib.import_module(module), attribute)
    else:
        raise AttributeError(f"module 'knightcert' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)
