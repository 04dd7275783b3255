"""An experiment as data: what ``knightcert compare`` runs, recorded so that it can be run again.

An :class:`Experiment` holds the problem, the suites (generator and
parameters, or files), the methods with their options, the time limit, the
number of repeats, the base seed and the number of workers. It is read from
a TOML file (``knightcert compare --experiment study.toml``), built from the
command-line flags, or read back from a report (``--rerun report.json``);
``to_dict`` gives the fully resolved record that every report carries.

Each run gets its own seed, derived from the base seed and the run's key
(instance content hash, method, repeat) with :class:`numpy.random.SeedSequence`:
the same experiment gives every run the same seed on any machine, in any
order and with any number of workers.

Example experiment file::

    problem = "knights"
    time_limit = 10
    repeat = 1
    seed = 0
    workers = 2
    methods = ["greedy", "greedy+", "matching"]

    [[suites]]
    suite = "random"
    sizes = "10..200:5"     # or a list [10, 20, 50]
    seeds = 5               # 5 seeds 0..4, or a list [3, 7]
    holes = 0.2

    [[suites]]              # any instance the solve commands build: RxC sizes, a torus,
    suite = "starts"        # closed tours from every start square, ...
    sizes = ["6x5", 6]
    closed = true           # any other key is a keyword of the problem's instance constructor

A method with options is a table: ``{ name = "cpsat", options = { workers = 1 } }``,
checked against the method's specification (:mod:`knightcert.specs`). A list of
values for an option is a sweep: one variant per combination, each labelled
after its values (``greedy+ iterations=5``); an option whose one value is a list
(``hint``) takes a list of lists. Variants may also be listed by hand, each under its
own ``label`` (the name of its rows everywhere: reports, statistics, plots,
``report A B``)::

    methods = [
        { name = "greedy+", options = { iterations = [5, 50] } },      # two variants
        { name = "cpsat", label = "cpsat 1 worker", options = { workers = 1 } },
    ]

A method may be any form :func:`knightcert.registry.resolve` takes
(``"mymod:solve"``, ``"exec:./solver --fast"``); ``exact = true`` declares a
foreign method exact (its claims still count only as far as they are certified).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from knightcert.compare.suites import (
    SuiteItem,
    SuiteSpec,
    build_suite,
    parse_sizes,
    resolve_suite,
    unique_items,
)
from knightcert.problems.argument_checks import bounded, bounded_seconds
from knightcert.problems.errors import InvalidInstance, InvalidReport, KnightcertError
from knightcert.problems.input_file import load_json, load_toml, read_text

__all__ = [
    "GIVEN",
    "HEADER_TYPES",
    "HOW_NOT_WHAT",
    "KEYS",
    "SUITE_KEYS",
    "Experiment",
    "ExperimentMismatch",
    "MethodSpec",
    "experiment_from_dict",
    "experiment_from_report",
    "parse_seeds",
    "read_experiment",
    "read_report_header",
    "run_seed",
    "same_experiment",
]

#: Keys of an experiment file (and of the recorded experiment).
KEYS = ("problem", "suites", "methods", "time_limit", "wall_limit", "repeat", "seed", "workers")
SUITE_KEYS = ("suite", "sizes", "seeds", "holes", "files")
#: Fields that say *how* an experiment runs, not *what* it runs: a resume may change them.
HOW_NOT_WHAT = ("workers",)
#: The suite of instances handed to the Python API directly (not rebuildable from the record).
GIVEN = "given"


class ExperimentMismatch(KnightcertError):
    """A report holds a different experiment than the one asked for."""


@dataclass(frozen=True)
class MethodSpec:
    """A method name (an opaque string: registry name, ``module:function``, ``exec:...``), its
    options, for a foreign method its declared kind (``exact``; None: as the method declares),
    and the ``label`` that names its rows (None: the name; a sweep gives each variant its own)."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    exact: bool | None = None
    label: str | None = None

    @property
    def row_name(self) -> str:
        """What names this method's rows: its label, else its name."""
        return self.label or self.name

    def to_dict(self) -> str | dict[str, Any]:
        if not self.options and self.exact is None and self.label is None:
            return self.name
        data = {"name": self.name, "label": self.label, "options": dict(self.options), "exact": self.exact}
        return {key: value for key, value in data.items() if value is not None and value != {}}


@dataclass(frozen=True)
class Experiment:
    """One experiment, every default resolved.

    Parameters
    ----------
    problem : str
    suites : tuple of SuiteSpec
    methods : tuple of MethodSpec
    time_limit : float, optional
        Seconds per run given to each method.
    wall_limit : float, optional
        Seconds after which a local run is killed (default from the time limit).
    repeat : int
        Timed runs of each (instance, method).
    seed : int, optional
        Base seed; each run's seed is derived from it (:meth:`run_seed`).
        ``None``: the methods' own defaults.
    workers : int
        Local worker processes (how the experiment runs; a resume may change it).
    """

    problem: str
    suites: tuple[SuiteSpec, ...]
    methods: tuple[MethodSpec, ...]
    time_limit: float | None = None
    wall_limit: float | None = None
    repeat: int = 1
    seed: int | None = 0
    workers: int = 2

    @property
    def method_names(self) -> list[str]:
        """The names of the rows: each method's label, else its name."""
        return [m.row_name for m in self.methods]

    def method_options(self) -> dict[str, dict[str, Any]]:
        """Options by row name (label, else name)."""
        return {m.row_name: dict(m.options) for m in self.methods if m.options}

    def to_dict(self) -> dict[str, Any]:
        """The resolved record (plain JSON values), as stored in every report."""
        record = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        return record | {
            "suites": [s.to_dict() for s in self.suites],
            "methods": [m.to_dict() for m in self.methods],
        }

    def build(self, data: Path | None = None) -> list[SuiteItem]:
        """The instances of all suites, named uniquely, each with its content hash.

        Raises
        ------
        ExperimentMismatch
            The experiment was run on instances given from Python (nothing to rebuild).
        """
        if any(spec.suite == GIVEN for spec in self.suites):
            raise ExperimentMismatch(
                "this experiment ran on instances given from Python; run it again from Python"
            )
        return unique_items([item for s in self.suites for item in build_suite(self.problem, s, data=data)])

    def run_seed(self, sha256: str, method: str, repeat: int) -> int | None:
        """The seed of one run (``method``: its row name, the label if any); see :func:`run_seed`."""
        return run_seed(self.seed, sha256, method, repeat)


def run_seed(base: int | None, sha256: str, method: str, repeat: int) -> int | None:
    """Seed of the run (instance ``sha256``, ``method``, ``repeat``) under base seed ``base``.

    The key is hashed to 128 bits and handed to :class:`numpy.random.SeedSequence`
    as its spawn key, with ``base`` as entropy; the first 31 bits of its state
    are the seed (CP-SAT takes a signed 32-bit seed).

    Examples
    --------
    >>> run_seed(0, "ab", "greedy", 0) == run_seed(0, "ab", "greedy", 0)
    True
    >>> len({run_seed(0, "ab", "greedy", k) for k in range(10)})
    10
    >>> run_seed(None, "ab", "greedy", 0) is None
    True
    """
    if base is None:
        return None
    words = np.frombuffer(hashlib.sha256(f"{sha256}|{method}|{repeat}".encode()).digest()[:16], dtype="<u4")
    sequence = np.random.SeedSequence(int(base), spawn_key=tuple(int(w) for w in words))
    return int(sequence.generate_state(1, dtype=np.uint32)[0] >> 1)


def parse_seeds(value: int | str | Sequence[int]) -> list[int]:
    """Generator seeds: a count ``K`` (seeds 0..K-1), a range ``A..B`` or a list ``3,7,11``.

    Raises
    ------
    InvalidInstance
        Anything else.

    Examples
    --------
    >>> parse_seeds(3), parse_seeds("4..6"), parse_seeds("3,7"), parse_seeds([1, 2])
    ([0, 1, 2], [4, 5, 6], [3, 7], [1, 2])
    """
    expected = "seeds expects a count K, a range A..B or a list S1,S2,..."
    if isinstance(value, bool):
        raise InvalidInstance(f"{expected}, got {value!r}")
    if isinstance(value, int):
        return list(range(bounded(value, "seed count", "seeds: the count", error=InvalidInstance)))
    if isinstance(value, str):
        if ".." in value:
            try:
                low, high = (int(p) for p in value.split(".."))
            except ValueError:
                raise InvalidInstance(f"{expected}, got {value!r}") from None
            if low > high:
                raise InvalidInstance(f"{expected} (A <= B), got {value!r}")
            bounded(low, "seed", "seeds: the first seed", error=InvalidInstance)
            bounded(high - low + 1, "seed count", "seeds: the count", error=InvalidInstance)
            return list(range(low, high + 1))
        try:
            parts = [int(p) for p in value.split(",") if p.strip()]
        except ValueError:
            raise InvalidInstance(f"{expected}, got {value!r}") from None
        return parse_seeds(parts[0] if len(parts) == 1 and "," not in value else parts)
    if (
        isinstance(value, Sequence)
        and value
        and all(isinstance(s, int) and not isinstance(s, bool) for s in value)
    ):
        bounded(len(value), "seed count", "seeds: the count", error=InvalidInstance)
        return [bounded(s, "seed", "seeds: a seed", error=InvalidInstance) for s in value]
    raise InvalidInstance(f"{expected}, got {value!r}")


def experiment_from_dict(data: Mapping[str, Any], source: str = "experiment") -> Experiment:
    """Check and resolve an experiment record (from a TOML file or a report).

    Raises
    ------
    InvalidInstance
        A missing or unknown key, a value of the wrong kind, an unknown suite
        or method; the message names ``source`` and the key.
    """
    from knightcert.registry import problem_names

    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise InvalidInstance(f"{source}: unknown key {unknown[0]!r} (valid keys: {', '.join(KEYS)})")
    problem = data.get("problem")
    if problem not in problem_names():
        choices = ", ".join(problem_names())
        raise InvalidInstance(f"{source}: problem must be one of {choices}, got {problem!r}")
    suites_data = data.get("suites") or [{"suite": "seed"}]
    if not isinstance(suites_data, list) or not all(isinstance(s, Mapping) for s in suites_data):
        raise InvalidInstance(f"{source}: suites must be a list of tables ([[suites]])")
    suites = tuple(_suite(problem, s, f"{source}: suites[{i}]") for i, s in enumerate(suites_data))
    methods_data = data.get("methods")
    if methods_data is None:
        from knightcert.registry import method_names

        methods_data = method_names(problem)
    if not isinstance(methods_data, list) or not methods_data:
        raise InvalidInstance(f"{source}: methods must be a non-empty list")
    methods = tuple(
        variant
        for i, m in enumerate(methods_data)
        for variant in sweep(problem, _method(m, f"{source}: methods[{i}]"), f"{source}: methods[{i}]")
    )
    instances = sum(max(1, len(spec.sizes)) * max(1, len(spec.seeds)) for spec in suites)
    repeat = _count(data, "repeat", 1, source)
    bounded(instances * len(methods) * repeat, "runs", f"{source}: runs (instances x methods x repeats)")
    if (twice := duplicate_row_name(methods)) is not None:
        raise InvalidInstance(f"{source}: {twice}")
    return Experiment(
        problem=problem,
        suites=suites,
        methods=methods,
        time_limit=_number(data, "time_limit", source),
        wall_limit=_number(data, "wall_limit", source),
        repeat=repeat,
        seed=_seed(data, source),
        workers=_count(data, "workers", 2, source),
    )


def sweep(problem: str, method: MethodSpec, where: str) -> list[MethodSpec]:
    """The variants of ``method``: one per combination of its options' listed values (an option
    whose kind takes a list, ``hint``, sweeps over a list of them), each checked against the
    method's specification and labelled ``name option=value ...``.

    Raises
    ------
    UnknownMethod, InvalidArgument
        An unknown method, an option it does not take, a value out of its bounds.

    Examples
    --------
    >>> [m.row_name for m in sweep("knights", MethodSpec("greedy+", (("iterations", [5, 50]),)), "here")]
    ['greedy+ iterations=5', 'greedy+ iterations=50']
    """
    import itertools

    from knightcert.problems.errors import InvalidArgument
    from knightcert.registry import resolve

    facts = resolve(problem, method.name).facts  # UnknownMethod lists the valid names and forms
    kinds = {option.name: option.kind for option in facts.options or ()}
    swept = {
        name
        for name, value in method.options
        if isinstance(value, list) and (kinds.get(name) != "squares" or _nested(value))
    }
    choices = [value if name in swept else [value] for name, value in method.options]
    variants = []
    for values in itertools.product(*choices):
        options = tuple(zip((name for name, _ in method.options), values, strict=True))
        try:
            facts.check_options(dict(options))
        except InvalidArgument as exc:
            raise InvalidArgument(f"{where}: {exc}") from None
        shown = [f"{name}={_shown(value)}" for name, value in options if name in swept]
        label = " ".join([method.row_name, *shown]) if swept else method.label
        variants.append(MethodSpec(method.name, options, method.exact, label))
    return variants


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def _nested(value: list[Any]) -> bool:
    """A list of squares lists (``hint`` swept): its first element is a list of lists."""
    return bool(value) and isinstance(value[0], list) and bool(value[0]) and isinstance(value[0][0], list)


def duplicate_row_name(methods: Sequence[MethodSpec]) -> str | None:
    """Why ``methods`` cannot run together (two name their rows alike), or None.

    Examples
    --------
    >>> print(duplicate_row_name([MethodSpec("greedy+"), MethodSpec("greedy+", (("iterations", 5),))]))
    method 'greedy+' is listed twice: give each variant its own label, e.g. { name = 'greedy+', ...
    >>> duplicate_row_name([MethodSpec("greedy+"), MethodSpec("greedy+", label="greedy+ x5")]) is None
    True
    """
    seen: set[str] = set()
    for method in methods:
        if method.row_name in seen:
            what = f"label {method.label!r}" if method.label else f"method {method.name!r}"
            return (
                f"{what} is listed twice: give each variant its own label, e.g. "
                f"{{ name = {method.name!r}, label = '{method.row_name} v2', options = {{...}} }}"
            )
        seen.add(method.row_name)
    return None


def read_experiment(path: str | Path) -> Experiment:
    """Read an experiment file (TOML).

    Raises
    ------
    InvalidInstance
        Unreadable file, TOML syntax (``file:line:column: ...``), or a bad record.
    """
    text, source = read_text(path, "experiment file")  # the one reader: knightcert.problems.input_file
    return experiment_from_dict(load_toml(text, source, "experiment file"), source)


def read_report_header(path: str | Path) -> dict[str, Any]:
    """Everything in a JSON report but its runs.

    Raises
    ------
    InvalidInstance
        Not a readable JSON report.
    """
    text, source = read_text(path, "report", InvalidReport)  # the one reader
    data = load_json(text, source, "knightcert JSON report", InvalidReport)
    if not isinstance(data, dict) or "runs" not in data:
        raise InvalidReport("not a knightcert JSON report (no 'runs')", source)
    check_header(data, source)
    return {key: value for key, value in data.items() if key != "runs"}


def check_header(data: Mapping[str, Any], source: str, what: str = "knightcert JSON report") -> None:
    """Refuse a report header (of any format: JSON, a CSV sidecar, Parquet metadata) whose read-back
    fields are of the wrong type.

    Raises
    ------
    InvalidReport
        A field of :data:`HEADER_TYPES` of another type, or an instance without its name or hash.
    """
    for key, kind in HEADER_TYPES.items():
        if key in data and data[key] is not None and not isinstance(data[key], kind):
            raise InvalidReport(f"not a {what}: header field {key!r} is of the wrong type", source)
    instances = data.get("instances") or ()
    for record in instances if isinstance(instances, list) else ():
        if not (isinstance(record, dict) and all(isinstance(record.get(k), str) for k in ("name", "sha256"))):
            raise InvalidReport(f"not a {what}: an instance lacks its name or hash", source)


#: Types of the report header's fields that are read back (a hand-edited header is refused).
HEADER_TYPES: dict[str, type | tuple[type, ...]] = {
    "experiment": dict,
    "warmup_s": dict,
    "instances": list,
    "schema": int,
    "problem": str,
    "references": dict,
    "method_files": dict,
}


def experiment_from_report(path: str | Path) -> Experiment:
    """The experiment recorded in a JSON report (for ``--rerun``).

    Raises
    ------
    InvalidInstance
        The report has no experiment record (written before schema 2).
    """
    header = read_report_header(path)
    if "experiment" not in header:
        raise InvalidInstance("the report records no experiment (written by an older knightcert)", str(path))
    return experiment_from_dict(header["experiment"], f"{path}: experiment")


def same_experiment(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> str | None:
    """Why two report headers describe different experiments, or ``None`` when they are the same.

    This is THE definition of "same experiment" for resuming a report. Two
    headers (``{"experiment": ..., "instances": ...}``) are the same
    experiment when every field of the resolved experiment is equal except
    those in ``HOW_NOT_WHAT`` (the number of workers), and the instances are
    the same names with the same content hashes, in the same order.

    Returns
    -------
    str or None
        A one-line reason naming the first field that differs, e.g.
        ``time_limit 5.0 -> 1.0``.

    Examples
    --------
    >>> a = {"experiment": {"problem": "knights", "time_limit": 5.0, "workers": 2}, "instances": []}
    >>> same_experiment(a, {**a, "experiment": {**a["experiment"], "workers": 1}}) is None
    True
    >>> same_experiment(a, {**a, "experiment": {**a["experiment"], "time_limit": 1.0}})
    'time_limit 5.0 -> 1.0'
    """
    if "experiment" not in recorded:
        return "the report records no experiment (written by an older knightcert)"
    old, new = recorded["experiment"], current["experiment"]
    for key in dict.fromkeys([*old, *new]):
        if key not in HOW_NOT_WHAT and old.get(key) != new.get(key):
            return f"{key} {_short(old.get(key))} -> {_short(new.get(key))}"
    old_instances = [(i["name"], i["sha256"]) for i in recorded.get("instances", [])]
    new_instances = [(i["name"], i["sha256"]) for i in current.get("instances", [])]
    if old_instances != new_instances:
        for (name, digest), (other, other_digest) in zip(old_instances, new_instances, strict=False):
            if name != other:
                return f"instance {name} -> {other}"
            if digest != other_digest:
                return f"instance {name} has different content (sha256 {digest[:8]} -> {other_digest[:8]})"
        return f"{len(old_instances)} instances -> {len(new_instances)}"
    return None


def _short(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 60 else text[:57] + "..."


def _suite(problem: str, data: Mapping[str, Any], where: str) -> SuiteSpec:
    suite = data.get("suite", "seed")
    if suite == GIVEN:
        return SuiteSpec(GIVEN)
    sizes = data.get("sizes")
    if isinstance(sizes, str):
        sizes = parse_sizes(sizes, f"{where}: sizes")
    elif sizes is not None and not isinstance(sizes, list):
        raise InvalidInstance(
            f"{where}: sizes must be a list of sides N or 'RxC', or 'A..B[:COUNT[:spacing]]'"
        )
    if isinstance(sizes, list):
        bounded(len(sizes), "size count", f"{where}: the number of sizes")
    fields = {key: value for key, value in data.items() if key not in SUITE_KEYS}
    try:
        seeds = parse_seeds(data["seeds"]) if "seeds" in data else None
    except KnightcertError as exc:
        raise InvalidInstance(f"{where}: {exc}") from None
    holes = data.get("holes")
    if holes is not None and (isinstance(holes, bool) or not isinstance(holes, (int, float))):
        raise InvalidInstance(f"{where}: holes must be a number in [0, 1)")
    files = data.get("files", [])
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise InvalidInstance(f"{where}: files must be a list of paths")
    try:
        return resolve_suite(
            problem, suite, sizes=sizes, seeds=seeds, holes=holes, files=files, fields=fields
        )
    except InvalidInstance as exc:
        raise InvalidInstance(f"{where}: {exc}") from None


def _method(data: Any, where: str) -> MethodSpec:
    if isinstance(data, str):
        return MethodSpec(data)
    table = isinstance(data, Mapping) and isinstance(data.get("name"), str)
    if table and set(data) <= {"name", "options", "exact", "label"}:
        options = data.get("options", {})
        label = data.get("label")
        if label is not None and not (isinstance(label, str) and label.strip()):
            raise InvalidInstance(f"{where}: label must be a non-empty string")
        if not isinstance(options, Mapping):
            raise InvalidInstance(f"{where}: options must be a table")
        exact = data.get("exact")
        if exact is not None and not isinstance(exact, bool):
            raise InvalidInstance(f"{where}: exact must be true or false")
        return MethodSpec(data["name"], tuple(sorted(options.items())), exact, label)
    raise InvalidInstance(
        f"{where}: a method is a name or a table "
        "{ name = ..., label = ..., options = {...}, exact = true|false }"
    )


def _number(data: Mapping[str, Any], key: str, source: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
        raise InvalidInstance(f"{source}: {key} must be a positive number of seconds, got {value!r}")
    return bounded_seconds(value, key.replace("_", " "), f"{source}: {key}", error=InvalidInstance)


def _count(data: Mapping[str, Any], key: str, default: int, source: str) -> int:
    return bounded(data.get(key, default), key, f"{source}: {key}")  # the flags' own bounds


def _seed(data: Mapping[str, Any], source: str) -> int | None:
    value = data.get("seed", 0)
    return None if value is None else bounded(value, "seed", f"{source}: seed", error=InvalidInstance)
