"""Which methods solve which problem, and how any other method gets in.

The built-in methods form one ordered registry per problem; the first is the
default. They are resolved lazily (``"module:function"``) so that the command
line starts fast.

A method can also come from outside (:func:`resolve`), in four ways, all with
one contract (docs/your-own-method.md):

``registered``
    a function given a name with :func:`register_method`;
``plug-in``
    a function an installed distribution declares in the entry-point group
    ``knightcert.methods``, named ``PROBLEM.NAME`` (``knights.rgreedy = "pkg.mod:solve"``);
``python``
    a Python callable, or a ``package.module:function`` path;
``program``
    an external program in any language, ``exec:COMMAND`` (:mod:`knightcert.program`).

A foreign method is a suspect, not a witness: it is called as
``function(instance, time_limit=..., seed=..., **options)`` and may return a
:class:`~knightcert.problems.result.Result` or an answer dict (the answer-file
schema); its time is measured here, its answer is stamped with the name the
user gave and the instance's own name, and the checker certifies it. What the
checker cannot certify of its claims is reported as *unproven*
(``Backing.NONE``), never as a solver's proof, and never used as a reference
optimum by the harness.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from knightcert.problems.errors import InvalidArgument, UnknownMethod
from knightcert.problems.method import Method
from knightcert.problems.result import Result
from knightcert.problems.run_record import cpu_seconds
from knightcert.specs import FACTS, MethodFacts, default_for, facts_of, foreign_facts

__all__ = [
    "ENTRY_POINT_GROUP",
    "EXACT",
    "ORIGINS",
    "REGISTRY",
    "MethodRef",
    "as_result",
    "available",
    "default_method",
    "get_method",
    "import_problem",
    "is_exact",
    "method_names",
    "plugin_methods",
    "problem_names",
    "register_method",
    "resolve",
    "unregister_method",
]

#: problem -> {method name: "module:function"}; the first entry is the default. Read from the
#: methods' specifications (:data:`knightcert.specs.FACTS`), where every fact of a method is written.
REGISTRY: dict[str, dict[str, str]] = {
    problem: {name: facts.target for name, facts in methods.items()} for problem, methods in FACTS.items()
}

#: Methods whose answers are proven optimal (or infeasible) when they finish.
EXACT: dict[str, set[str]] = {
    problem: {name for name, facts in methods.items() if facts.exact} for problem, methods in FACTS.items()
}


def problem_names() -> list[str]:
    """Names of the registered problems."""
    return list(REGISTRY)


def method_names(problem: str) -> list[str]:
    """Built-in method names of ``problem``, the default first."""
    return list(_problem(problem))


def default_method(problem: str, instance: Any = None) -> str:
    """The default method of ``problem``; with ``instance``, the default for that instance
    (:func:`knightcert.specs.default_for`: knights on a torus with an odd side: ``cpsat``)."""
    _problem(problem)
    return default_for(problem, instance)


#: Entry-point group of installed plug-in methods.
ENTRY_POINT_GROUP = "knightcert.methods"
#: Where a method comes from (see the module docstring).
ORIGINS = ("built-in", "registered", "plug-in", "python", "program")


@dataclass(frozen=True)
class MethodRef:
    """A resolved method: what to call, under which name, of which declared kind.

    Calling it runs the method with the common call shape
    ``ref(instance, *, time_limit=None, seed=None, check=True, **options)`` and
    returns the checked :class:`Result`.

    Attributes
    ----------
    problem : str
    name : str
        The name rows and answers carry: as the user gave it.
    exact : bool
        Declared exact (built-ins: :data:`EXACT`; foreign methods: as declared).
    origin : str
        One of :data:`ORIGINS`.
    target : str, callable or tuple of str
        ``"module:function"``, the function itself, or a program's command.
    """

    problem: str
    name: str
    exact: bool
    origin: str
    target: Any

    @property
    def kind(self) -> str:
        """``"exact"`` or ``"heuristic"``."""
        return "exact" if self.exact else "heuristic"

    @property
    def facts(self) -> MethodFacts:
        """Its specification (:mod:`knightcert.specs`): a built-in's own, a foreign method's
        safe defaults with what it declares."""
        if not self.foreign:  # a name without facts (a test's stand-in): undeclared options
            return facts_of(self.problem, self.name) or MethodFacts(self.problem, self.name, options=None)
        function = None if self.origin == "program" else self.function()
        return replace(foreign_facts(self.problem, self.name, self.origin, function), exact=self.exact)

    @property
    def foreign(self) -> bool:
        """Whether it comes from outside the project (a suspect: see the module docstring)."""
        return self.origin != "built-in"

    def function(self) -> Callable[..., Any]:
        """The Python function behind it (imported on first use; a module path is imported here,
        so on a Dask worker it is imported there)."""
        return self.target if callable(self.target) else _import_function(self.target, self.name)

    def __call__(
        self,
        instance: Any,
        *,
        time_limit: float | None = None,
        seed: int | None = None,
        check: bool = True,
        **options: Any,
    ) -> Result:
        if not self.foreign:
            return self.function()(instance, time_limit=time_limit, seed=seed, check=check, **options)
        from knightcert.problems.checkers import certify
        from knightcert.problems.method import check_arguments

        check_arguments(self.problem, instance, time_limit, seed)
        # in this process: the run path (knightcert.solving.run) sends it to a worker first
        result = self._call_here(instance, time_limit, seed, options)
        result = result.with_(
            problem=self.problem,
            method=self.name,
            instance=getattr(instance, "name", "") or "",
            verified=False,
            evidence=(),
        ).with_record(foreign=self.origin)
        return certify(instance, result) if check else result

    def _call_here(
        self, instance: Any, time_limit: float | None, seed: int | None, options: dict[str, Any]
    ) -> Result:
        """Call the method in this process (a worker); what it raises or returns that is not an
        answer is an ``UNKNOWN`` answer saying "crash: ..."."""
        if self.origin == "program":
            from knightcert.program import run_program

            answer = run_program(
                self.target, self.problem, instance, time_limit=time_limit, seed=seed, options=options
            )
            return answer.with_(info={**keep_apart(answer.info, self.origin, None)})
        import copy
        import traceback

        try:
            # a copy: what the method does to it cannot change what its answer is checked against
            function, given = self.function(), copy.deepcopy(instance)
            cpu_began, began = cpu_seconds(), time.perf_counter()  # the call alone (no copy, no reading)
            value = function(given, time_limit=time_limit, seed=seed, **options)
            spent, cpu = time.perf_counter() - began, cpu_seconds() - cpu_began
            answer = as_result(value, self.problem).with_(time=spent, cpu_time=cpu)
        except MemoryError:
            raise
        except Exception as exc:  # the project's input errors too: the input was checked before the call
            last = traceback.extract_tb(exc.__traceback__)[-1:]
            where = f" ({os.path.basename(last[0].filename)}:{last[0].lineno})" if last else ""
            stopped = f"crash: {type(exc).__name__}: {str(exc)[:300]}{where}"
            return Result.empty(self.problem, self.name, 0.0, stopped=stopped)
        return answer.with_(info=keep_apart(answer.info, self.origin, None))


#: Keys of a program's info set by knightcert's own code in the runner (:mod:`knightcert.program`).
PROGRAM_INFO = ("stderr", "stopped", "method_info")


def keep_apart(info: dict[str, Any], origin: str, peak_mb: float | None) -> dict[str, Any]:
    """The info of a foreign method's answer: whatever the method wrote kept under its own key,
    ``method_info``, never beside the keys knightcert sets (``stopped``, ``gap``, ``interrupted``,
    ``peak_mb``); a program's answer went through :func:`knightcert.program.run_program`, which
    already put the program's info there.

    Examples
    --------
    >>> keep_apart({"stopped": "forged", "gap": 0}, "python", 12.5)
    {'method_info': {'stopped': 'forged', 'gap': 0}, 'peak_mb': 12.5}
    """
    if origin == "program":
        own = {key: info[key] for key in PROGRAM_INFO if key in info}
    else:
        own = {"method_info": dict(info)} if info else {}
    return {**own, "peak_mb": peak_mb}


def as_result(value: Any, problem: str) -> Result:
    """A foreign method's return value as a Result: a Result, or an answer dict (checked strictly).

    Raises
    ------
    InvalidAnswer
        An answer dict with a field the schema does not allow (the message names it).
    TypeError
        Anything else.
    """
    from knightcert.problems.answers import plain_answer, result_from_answer

    if isinstance(value, Result | dict):
        # copied into exact plain types first: no object of the method's is read again
        return result_from_answer(plain_answer(value), problem=problem)
    raise TypeError(f"a method must return a Result or an answer dict, not {type(value).__name__}")


#: problem -> name -> method given with register_method()
_REGISTERED: dict[str, dict[str, MethodRef]] = {}


def register_method(problem: str, name: str, function: Callable[..., Any], exact: bool = False) -> MethodRef:
    """Give a Python function a method name, usable wherever a built-in name is.

    Parameters
    ----------
    problem : {"path", "jump", "knights", "tour"}
    name : str
        A new name: not a built-in one, no ``:`` (that form is a module path).
    function : callable
        Called as ``function(instance, time_limit=..., seed=..., **options)``;
        returns a :class:`Result` or an answer dict.
    exact : bool
        Declared exact: rows say ``kind = exact``; its claims still count
        only as far as the checker certifies them.

    Returns
    -------
    MethodRef

    Raises
    ------
    UnknownMethod
        An unknown problem.
    InvalidArgument
        A name that is taken by a built-in method or malformed, or a function that is not callable.

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> def corners(instance, time_limit=None, seed=None):
    ...     return {"status": "FEASIBLE", "objective": 1, "solution": [[0, 0]]}
    >>> _ = register_method("knights", "corner", corners)
    >>> result = get_method("knights", "corner")(knights_instance(3))
    >>> (result.method, result.objective, result.verified, result.certified)
    ('corner', 1, True, True)
    """
    _problem(problem)
    if not isinstance(name, str) or not name or ":" in name or name != name.strip():
        raise InvalidArgument(f"name: expected a method name without ':' or spaces at the ends, got {name!r}")
    if name in REGISTRY[problem]:
        raise InvalidArgument(f"name: {name!r} is a built-in method of {problem}; choose another")
    if not callable(function):
        raise InvalidArgument(f"function: expected a callable, got {type(function).__name__}")
    ref = MethodRef(problem, name, bool(exact), "registered", function)
    _REGISTERED.setdefault(problem, {})[name] = ref
    return ref


def unregister_method(problem: str, name: str) -> None:
    """Forget a method given with :func:`register_method` (nothing if there is none)."""
    _REGISTERED.get(problem, {}).pop(name, None)


def resolve(problem: str, method: str | Callable[..., Any] | MethodRef | None = None) -> MethodRef:
    """The method ``method`` names, from wherever it comes (see the module docstring).

    In order: None (the default), a built-in name, a registered name,
    ``exec:COMMAND``, ``module:function``, a plug-in name; a callable is a
    ``python`` method named after it (``module:qualname`` when its plain name
    is a built-in one). A declared ``exact = True`` attribute on a foreign
    function makes it exact.

    Raises
    ------
    UnknownMethod
        Unknown problem; unknown name (the message lists the valid ones and
        the other forms); a module or function that cannot be imported; a
        program that cannot be found.
    """
    methods = _problem(problem)
    if isinstance(method, MethodRef):
        return method
    method = next(iter(methods)) if method is None else method
    if callable(method):
        name = getattr(method, "__name__", None) or type(method).__name__
        if name in methods or name in _REGISTERED.get(problem, {}) or name == "<lambda>":
            name = f"{getattr(method, '__module__', '?')}:{getattr(method, '__qualname__', name)}"
        return MethodRef(problem, name, bool(getattr(method, "exact", False)), "python", method)
    if not isinstance(method, str):
        raise InvalidArgument(f"method: expected a name or a callable, got {type(method).__name__}")
    if method in methods:
        return MethodRef(problem, method, method in EXACT.get(problem, set()), "built-in", methods[method])
    if method in _REGISTERED.get(problem, {}):
        return _REGISTERED[problem][method]
    from knightcert.program import PREFIX, parse_command, program_missing

    if method.startswith(PREFIX):
        argv = parse_command(method)
        missing = program_missing(argv[0])
        if missing:
            raise UnknownMethod(f"method {method!r}: {missing}")
        return MethodRef(problem, method, False, "program", argv)
    if ":" in method:
        function = _import_function(method, method)
        return MethodRef(problem, method, bool(getattr(function, "exact", False)), "python", method)
    plugin = plugin_methods(problem).get(method)
    if plugin is not None:
        function = plugin.function()  # a broken plug-in says so here, once
        return MethodRef(problem, method, bool(getattr(function, "exact", False)), "plug-in", plugin.target)
    raise UnknownMethod(
        f"unknown method {method!r} for {problem}: choose one of {', '.join(available(problem))}, "
        "or give package.module:function or exec:COMMAND"
    )


def get_method(problem: str, name: str | Callable[..., Any] | None = None) -> Method:
    """The solving function of ``name`` (the default method when None): any form :func:`resolve` takes.

    A built-in method is returned as it is (a decorated function); any other as its
    :class:`MethodRef`, which has the same call shape.

    Raises
    ------
    UnknownMethod
        Unknown problem or method; the message lists the valid names.
    """
    ref = resolve(problem, name)
    return ref.function() if not ref.foreign else ref


def available(problem: str) -> list[str]:
    """Every name ``problem`` answers to: built-in (default first), registered, plug-in."""
    return [*_problem(problem), *_REGISTERED.get(problem, {}), *plugin_methods(problem)]


def is_exact(problem: str, name: str) -> bool:
    """Whether the built-in or registered method ``name`` is exact (False for any other name)."""
    if name in EXACT.get(problem, set()):
        return True
    ref = _REGISTERED.get(problem, {}).get(name)
    return bool(ref is not None and ref.exact)


def plugin_methods(problem: str) -> dict[str, MethodRef]:
    """Methods of ``problem`` that installed distributions declare in :data:`ENTRY_POINT_GROUP`.

    An entry point ``PROBLEM.NAME = "package.module:function"`` gives the method
    ``NAME``; names of built-in methods are ignored (a plug-in cannot replace one).
    """
    from importlib.metadata import entry_points

    found = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        owner, _, name = point.name.partition(".")
        if owner == problem and name and name not in REGISTRY[problem]:
            found[name] = MethodRef(problem, name, False, "plug-in", point.value)
    return found


def _import_function(path: str, name: str) -> Callable[..., Any]:
    """``package.module:function`` imported (the working folder is searched too, last).

    Raises
    ------
    UnknownMethod
        The module cannot be imported or has no such callable; the message says why.
    """
    module_name, _, attribute = path.partition(":")
    if not module_name or not attribute:
        raise UnknownMethod(f"method {name!r}: expected package.module:function")
    try:
        module = _import_module(module_name)
    except ImportError as exc:
        raise UnknownMethod(f"method {name!r}: cannot import {module_name!r} ({exc})") from None
    except Exception as exc:  # the user's module fails while importing
        raise UnknownMethod(
            f"method {name!r}: importing {module_name!r} failed: {type(exc).__name__}: {exc}"
        ) from None
    target: Any = module
    for part in attribute.split("."):
        target = getattr(target, part, None)
    if not callable(target):
        raise UnknownMethod(f"method {name!r}: {module_name!r} has no function {attribute!r}")
    return target


def import_problem(path: str) -> str | None:
    """Why ``package.module:function`` cannot be imported here (None when it can): run on
    Dask workers before a comparison starts."""
    try:
        _import_function(path, path)
    except UnknownMethod as exc:
        return str(exc).split(": ", 1)[-1]
    return None


def _import_module(module_name: str) -> Any:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        if exc.name != module_name.split(".")[0] or here in sys.path:
            raise
        sys.path.append(here)  # the console script does not search the working folder by itself
        return importlib.import_module(module_name)


def _problem(problem: str) -> dict[str, str]:
    if problem not in REGISTRY:
        raise UnknownMethod(f"unknown problem {problem!r}: choose one of {', '.join(REGISTRY)}")
    return REGISTRY[problem]
