"""Instance suites for ``knightcert compare``: built-in generators with parameters (``seed``,
``scaling``, ``random``, ``starts``), or files.

A suite is described by a :class:`SuiteSpec` (which generator, which sizes,
which generator seeds, what fraction of holes) and resolved into a list of
:class:`SuiteItem`. Sizes are board sides (the jump game's sizes are sides
too; its ``size`` column is the number of cells). Every generated instance
is named after its parameters (``knights-50x50-h0.2-s3``) and every item
carries the SHA-256 of its content, so that two different files with the
same name never stand for each other.

Suites
------
``seed``
    The seeds' instances (``../shared/data`` for path and jump).
``scaling``
    One instance per size: full boards for knights and tours, one generator
    seed for path and jump.
``random``
    Random boards with holes (path, knights, tour) or random values (jump),
    one per size and generator seed.
``files``
    Instance files given by the user.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from knightcert.problems.argument_checks import bounded
from knightcert.problems.board import MAX_SQUARES
from knightcert.problems.errors import InstanceTooLarge, InvalidInstance
from knightcert.problems.instance_files import DEFAULT_HOLES, DEFAULT_PLAYERS

__all__ = [
    "DEFAULT_COUNT",
    "DEFAULT_SIZES",
    "GENERATOR_DEFAULTS",
    "JUMP_PLAYERS",
    "SPACINGS",
    "STARTS_SIZES",
    "SUITES",
    "SuiteItem",
    "SuiteSpec",
    "build_suite",
    "instance_hash",
    "instances_from_files",
    "parse_sizes",
    "resolve_suite",
    "size_range",
    "start_suite",
    "unique_items",
]

SUITES = ("seed", "scaling", "random", "starts")
SPACINGS = ("geometric", "linear")
DEFAULT_SIZES = {"path": (10, 200), "jump": (10, 500), "knights": (4, 64), "tour": (5, 60)}
#: Default number of sizes of a range ``A..B``.
DEFAULT_COUNT = 6

#: Generator seeds and hole fractions when the user gives none: (seeds, holes) per (problem, suite).
#: ``None`` holes: the suite has no holes; an empty seed tuple: the suite is not random.
GENERATOR_DEFAULTS: dict[tuple[str, str], tuple[tuple[int, ...], float | None]] = {
    ("path", "scaling"): ((2021,), 0.2),
    ("path", "random"): ((0, 1, 2), DEFAULT_HOLES["path"]),
    ("jump", "scaling"): ((7,), None),
    ("jump", "random"): ((0, 1, 2), None),
    ("knights", "scaling"): ((), None),
    ("knights", "random"): ((0, 1, 2), DEFAULT_HOLES["knights"]),
    ("tour", "scaling"): ((), None),
    ("tour", "random"): ((0,), DEFAULT_HOLES["tour"]),
    ("tour", "starts"): ((), None),
}
#: Board sides of the ``starts`` suite when none are given (every start square of each).
STARTS_SIZES = (5, 8)
#: Players of the generated jump games.
JUMP_PLAYERS = {"scaling": 10, "random": DEFAULT_PLAYERS}


@dataclass(frozen=True)
class SuiteItem:
    """One instance of a suite: the instance, its size, a known optimum, its content hash, and
    the experiment dimensions it comes from (suite, fraction of holes, generator seed)."""

    instance: Any
    size: int | None
    known_optimum: float | int | None = None
    sha256: str = ""
    suite: str = ""
    holes: float | None = None
    generator_seed: int | None = None

    @property
    def name(self) -> str:
        return getattr(self.instance, "name", "")


@dataclass(frozen=True)
class SuiteSpec:
    """What a suite is, fully resolved (every default filled in, so it can be recorded).

    Parameters
    ----------
    suite : str
        ``seed``, ``scaling``, ``random`` or ``files``.
    sizes : tuple of int
        Board sides (generated suites only).
    seeds : tuple of int
        Generator seeds (random suites; path and jump scaling).
    holes : float, optional
        Fraction of blocked squares (path, knights and tour random suites; path scaling).
    files : tuple of str
        Instance files (the ``files`` suite).
    """

    suite: str
    sizes: tuple[int, ...] = ()
    seeds: tuple[int, ...] = ()
    holes: float | None = None
    files: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """The fields that apply to this suite, as plain JSON/TOML values."""
        data: dict[str, Any] = {"suite": self.suite}
        if self.suite == "files":
            data["files"] = list(self.files)
            return data
        if self.suite != "seed":
            data["sizes"] = list(self.sizes)
        if self.seeds:
            data["seeds"] = list(self.seeds)
        if self.holes is not None:
            data["holes"] = self.holes
        return data


def resolve_suite(
    problem: str,
    suite: str,
    *,
    sizes: Sequence[int] | None = None,
    seeds: Sequence[int] | None = None,
    holes: float | None = None,
    files: Sequence[str] = (),
) -> SuiteSpec:
    """Check a suite's parameters and fill in its defaults.

    Raises
    ------
    InvalidInstance
        Unknown suite, or a parameter the suite does not take (``--holes`` on
        the jump game, ``--seeds`` on a full-board scaling suite, sizes on the
        seed suite), or a value out of range.
    """
    if suite == "files":
        if not files or sizes or seeds or holes is not None:
            raise InvalidInstance("a files suite takes instance files and nothing else")
        return SuiteSpec("files", files=tuple(str(f) for f in files))
    if suite not in SUITES:
        raise InvalidInstance(f"unknown suite {suite!r}: choose one of {', '.join(SUITES)}, files")
    if suite == "seed":
        if sizes or seeds or holes is not None:
            raise InvalidInstance(
                "the seed suite is fixed: sizes, seeds and holes apply to scaling and random"
            )
        return SuiteSpec("seed")
    if suite == "starts" and problem != "tour":
        raise InvalidInstance("the starts suite is for tours (every start square of a board)")
    default_seeds, default_holes = GENERATOR_DEFAULTS[problem, suite]
    if seeds and not default_seeds:
        raise InvalidInstance(f"the {problem} {suite} suite is not random: seeds apply to the random suite")
    if holes is not None and default_holes is None:
        raise InvalidInstance(f"the {problem} {suite} suite has no holes")
    if holes is not None and not 0 <= holes < 1:
        raise InvalidInstance(f"holes must be a fraction in [0, 1), got {holes}")
    if sizes is None:
        sizes = size_range(*(STARTS_SIZES if suite == "starts" else DEFAULT_SIZES[problem]))
    if len(sizes) == 0 or any(int(n) != n or n < 1 for n in sizes):
        raise InvalidInstance(f"sizes must be whole numbers >= 1, got {list(sizes)}")
    if max(sizes) ** 2 > MAX_SQUARES:  # checked before a suite board is generated
        raise InstanceTooLarge(
            f"--sizes: a {max(sizes)} x {max(sizes)} board is above the limit of {MAX_SQUARES} "
            "squares; give a smaller upper size"
        )
    if seeds is not None and any(int(s) != s or s < 0 for s in seeds):
        raise InvalidInstance(f"generator seeds must be whole numbers >= 0, got {list(seeds)}")
    return SuiteSpec(
        suite,
        sizes=tuple(sorted({int(n) for n in sizes})),
        seeds=tuple(int(s) for s in (seeds or default_seeds)),
        holes=None if default_holes is None else float(default_holes if holes is None else holes),
    )


def parse_sizes(text: str) -> list[int]:
    """Sizes from the command line.

    ``A..B`` (six sizes spaced geometrically), ``A..B:K`` (K sizes),
    ``A..B:K:linear`` or ``A..B:K:geometric``, or a list ``10,20,50``.

    Raises
    ------
    InvalidInstance
        Anything else, or ``A > B``, or a size below 1.

    Examples
    --------
    >>> parse_sizes("10..200:5:linear")
    [10, 58, 105, 152, 200]
    >>> parse_sizes("8,16,32")
    [8, 16, 32]
    """
    expected = "--sizes expects A..B[:COUNT[:linear|geometric]] or a list N1,N2,..."
    if ".." not in text:
        try:
            sizes = [int(part) for part in text.split(",")]
        except ValueError:
            raise InvalidInstance(f"{expected}, got {text!r}") from None
        bounded(len(sizes), "size count", "--sizes: the number of sizes", error=InvalidInstance)
        for size in sizes:
            bounded(size, "size", "--sizes: a size", error=InvalidInstance)
        return sorted(set(sizes))
    span, _, rest = text.partition(":")
    count_text, _, spacing = rest.partition(":")
    try:
        low, high = (int(p) for p in span.split(".."))
        count = int(count_text) if count_text else DEFAULT_COUNT
    except ValueError:
        raise InvalidInstance(f"{expected} (A..B two whole numbers), got {text!r}") from None
    if not 1 <= low <= high:
        raise InvalidInstance(f"--sizes expects 1 <= A <= B, got {text!r}")
    if spacing not in ("", *SPACINGS):
        raise InvalidInstance(f"{expected}, got {text!r}")
    bounded(high, "size", "--sizes: the largest size", error=InvalidInstance)
    bounded(count, "size count", "--sizes: the number of sizes", error=InvalidInstance)
    return size_range(low, high, count, spacing or "geometric")


def size_range(low: int, high: int, count: int = DEFAULT_COUNT, spacing: str = "geometric") -> list[int]:
    """``count`` sizes from ``low`` to ``high``, rounded, duplicates removed.

    Examples
    --------
    >>> size_range(4, 64)
    [4, 7, 12, 21, 37, 64]
    """
    points = np.geomspace(low, high, count) if spacing == "geometric" else np.linspace(low, high, count)
    return sorted({round(float(x)) for x in points})


def build_suite(
    problem: str,
    suite: str | SuiteSpec,
    sizes: Sequence[int] | None = None,
    data: Path | None = None,
    *,
    seeds: Sequence[int] | int | None = None,
    holes: float | None = None,
    files: Sequence[str] = (),
) -> list[SuiteItem]:
    """The instances of a suite, each with its content hash.

    Parameters
    ----------
    suite : str or SuiteSpec
        A suite name (defaults for everything) or a resolved spec (:func:`resolve_suite`).
    sizes : sequence of int, optional
        With a suite name: the sizes (default: six sizes over the problem's range).
    data : Path, optional
        Folder of the seed instances (default ``../shared/data``).
    seeds : sequence of int or int, optional
        With a suite name: the generator seeds of a random suite (a count ``K``: seeds 0..K-1),
        as ``--seeds`` and an experiment file's ``seeds``; recorded per instance as
        ``generator_seed`` (the report field ``seed`` of a run is the run's own derived seed).
    holes : float, optional
        With a suite name: the fraction of squares removed (``--holes``).
    files : sequence of str, optional
        With the suite ``"files"``: the instance files.

    Raises
    ------
    InvalidInstance
        Unknown suite, a bad parameter, or the ``seed`` suite of a problem
        whose instances live in ``../shared/data`` when that folder is absent.

    Examples
    --------
    >>> [item.name for item in build_suite("knights", "random", sizes=[8], seeds=2, holes=0.1)]
    ['knights-8x8-h0.1-s0', 'knights-8x8-h0.1-s1']
    """
    if isinstance(suite, SuiteSpec):
        if sizes is not None or seeds is not None or holes is not None or files:
            raise InvalidInstance("a resolved SuiteSpec already holds its sizes, seeds, holes and files")
        spec = suite
    else:
        listed: Sequence[int] | None = None if isinstance(seeds, bool) else seeds  # type: ignore[assignment]
        if isinstance(seeds, int) and not isinstance(seeds, bool):
            listed = list(range(bounded(seeds, "seed count", "seeds: the count", error=InvalidInstance)))
        spec = resolve_suite(problem, suite, sizes=sizes, seeds=listed, holes=holes, files=files)
    if spec.suite == "files":
        items = instances_from_files(problem, spec.files)
    else:
        builder = {"path": _path, "jump": _jump, "knights": _knights, "tour": _tour}[problem]
        items = builder(spec, data)
    return [
        dataclasses.replace(item, sha256=instance_hash(item.instance), suite=spec.suite, holes=spec.holes)
        for item in items
    ]


def unique_items(items: Sequence[SuiteItem]) -> list[SuiteItem]:
    """Drop repeated instances (same name, same content); rename different contents that share a name.

    A clashing name gets ``@`` and the first 8 hex digits of its content hash
    (``board.txt@1a2b3c4d``), so that rows, gaps and resumes never mix two instances.
    """
    seen: dict[str, set[str]] = {}
    for item in items:
        seen.setdefault(item.name, set()).add(item.sha256)
    result, kept = [], set()
    for item in items:
        if (item.name, item.sha256) in kept:
            continue
        kept.add((item.name, item.sha256))
        if len(seen[item.name]) > 1:
            renamed = dataclasses.replace(item.instance, name=f"{item.name}@{item.sha256[:8]}")
            item = dataclasses.replace(item, instance=renamed)
        result.append(item)
    return result


def instance_hash(instance: Any) -> str:
    """SHA-256 of an instance's content, its name left out: the answer file's canonical
    hash (:func:`knightcert.problems.answers.instance_sha256`), so that a report and an answer
    file name the same board by the same hash.

    Any other object (not a knightcert instance) is hashed from its fields.

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> a, b = knights_instance(5), knights_instance(5)
    >>> instance_hash(a) == instance_hash(b) != instance_hash(knights_instance(6))
    True
    """
    from knightcert.problems.answers import InvalidAnswer, instance_sha256

    try:
        return instance_sha256(instance)
    except InvalidAnswer:
        digest = hashlib.sha256(type(instance).__name__.encode())
        _feed(digest, instance)
        return digest.hexdigest()


def _feed(digest: Any, value: Any) -> None:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            if item.name != "name" and item.init:
                digest.update(f"|{item.name}=".encode())
                _feed(digest, getattr(value, item.name))
    elif isinstance(value, np.ndarray):
        little = np.ascontiguousarray(value, dtype=value.dtype.newbyteorder("<"))  # same hash on any machine
        digest.update(f"{little.dtype.str}{little.shape}".encode())
        digest.update(little.tobytes())
    elif isinstance(value, (tuple, list)):
        digest.update(b"(")
        for element in value:
            _feed(digest, element)
            digest.update(b",")
        digest.update(b")")
    else:
        digest.update(repr(value.item() if isinstance(value, np.generic) else value).encode())


def instances_from_files(problem: str, files: Sequence[str]) -> list[SuiteItem]:
    """Read instance files of ``problem`` (a lost-knight case, a jump game, a board)."""
    from knightcert.problems.independent_knights import knights_instance
    from knightcert.problems.jump_game import read_jump
    from knightcert.problems.lost_knight import read_lost_knight
    from knightcert.problems.tours import tour_instance

    items = []
    for name in files:
        if problem == "path":
            inst = read_lost_knight(name)
            items.append(SuiteItem(inst, inst.board.rows))
        elif problem == "jump":
            game = read_jump(name)
            items.append(SuiteItem(game, game.rows * game.cols))
        elif problem == "knights":
            knights = knights_instance(board_file=name)
            items.append(SuiteItem(knights, knights.board.rows))
        else:
            tour = tour_instance(board_file=name)
            items.append(SuiteItem(tour, tour.board.rows))
    return items


def _path(spec: SuiteSpec, data: Path | None) -> list[SuiteItem]:
    from knightcert.problems.generators import random_lost_knight
    from knightcert.problems.lost_knight import read_lost_knight

    if spec.suite == "seed":
        folder = _shared(data, "lost-knight")
        expected = read_expected(folder / "expected.json")
        files = sorted(folder.glob("caso*.txt"), key=lambda p: int(p.stem[4:]))
        return [
            SuiteItem(read_lost_knight(f), read_lost_knight(f).board.rows, expected.get(f.name))
            for f in files
        ]
    assert spec.holes is not None
    return [
        SuiteItem(
            random_lost_knight(
                np.random.default_rng(s), n, n, spec.holes, f"path-{n}x{n}-h{spec.holes:g}-s{s}"
            ),
            n,
            generator_seed=s,
        )
        for n in spec.sizes
        for s in spec.seeds
    ]


def _jump(spec: SuiteSpec, data: Path | None) -> list[SuiteItem]:
    from knightcert.problems.generators import random_jump
    from knightcert.problems.jump_game import read_jump

    if spec.suite == "seed":
        folder = _shared(data, "jump-game")
        return [SuiteItem(g, g.rows * g.cols) for g in (read_jump(f) for f in sorted(folder.glob("EX*.in")))]
    players = JUMP_PLAYERS[spec.suite]
    return [
        SuiteItem(
            random_jump(np.random.default_rng(s), n, n, players, n // 2, f"jump-{n}x{n}-j{players}-s{s}"),
            n * n,
            generator_seed=s,
        )
        for n in spec.sizes
        for s in spec.seeds
    ]


def _knights(spec: SuiteSpec, data: Path | None) -> list[SuiteItem]:
    from knightcert.problems.board import Board
    from knightcert.problems.independent_knights import KnightsInstance, closed_form, knights_instance

    if spec.suite == "seed":  # seed 002's boards
        return [SuiteItem(knights_instance(n), n, closed_form(n, n)) for n in (3, 4, 6)]
    if spec.suite == "scaling":
        return [SuiteItem(knights_instance(n), n, closed_form(n, n)) for n in spec.sizes]
    assert spec.holes is not None
    items = []
    for n in spec.sizes:
        for s in spec.seeds:
            blocked = np.random.default_rng(s).random((n, n)) < spec.holes
            name = f"knights-{n}x{n}-h{spec.holes:g}-s{s}"
            items.append(SuiteItem(KnightsInstance(Board(n, n, blocked), name), n, generator_seed=s))
    return items


def _tour(spec: SuiteSpec, data: Path | None) -> list[SuiteItem]:
    from knightcert.problems.board import Board
    from knightcert.problems.tours import TourInstance, open_tour_exists, tour_instance

    if spec.suite == "seed":  # seed 003's boards and seed 001's failures
        boards = [tour_instance(n) for n in (2, 5, 8)] + [
            tour_instance(31, start=(0, 0)),
            tour_instance(100, start=(2, 3)),
        ]
        return [
            SuiteItem(
                b, b.board.rows, b.board.n_free if open_tour_exists(b.board.rows, b.board.cols) else None
            )
            for b in boards
        ]
    if spec.suite == "starts":
        return start_suite(spec.sizes)
    if spec.suite == "scaling":
        return [
            SuiteItem(tour_instance(n, start=(0, 0)), n, n * n if open_tour_exists(n, n) else None)
            for n in spec.sizes
        ]
    assert spec.holes is not None
    items = []
    for n in spec.sizes:
        for s in spec.seeds:
            blocked = np.random.default_rng(s).random((n, n)) < spec.holes
            blocked[0, 0] = False
            name = f"tour-{n}x{n}-h{spec.holes:g}-s{s}"
            items.append(
                SuiteItem(TourInstance(Board(n, n, blocked), False, (0, 0), None, name), n, generator_seed=s)
            )
    return items


def start_suite(sizes: Sequence[int]) -> list[SuiteItem]:
    """Open tours of ``n x n`` from every start square, for each ``n``: the ``starts`` suite.

    The known optimum is ``n * n`` where the theorems (colour, outer rows) allow
    a tour from that start; the report's ``success where one exists`` counts the starts
    where a run found a checked tour.
    """
    from knightcert.problems.tours import full_board_reason, tour_instance

    return [
        SuiteItem(
            tour_instance(n, start=(r, c)),
            n,
            n * n if full_board_reason(n, n, closed=False, start=(r, c)) is None else None,
        )
        for n in sizes
        for r in range(n)
        for c in range(n)
    ]


def read_expected(path: Path) -> dict[str, int]:
    """The known optima of a data folder's ``expected.json``: file name -> whole number (keys
    starting ``_`` are comments).

    Raises
    ------
    InvalidInstance
        Not a readable JSON object of whole numbers (one line naming the file and the key).
    """
    from knightcert.problems.errors import InvalidInstance
    from knightcert.problems.input_file import load_json, read_text

    text, source = read_text(path, "expected values")
    data = load_json(text, source, "expected-values file")
    if not isinstance(data, dict):
        raise InvalidInstance("expected a JSON object of file name -> known optimum", source)
    known: dict[str, int] = {}
    for name, value in data.items():
        if name.startswith("_") or value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < -1:
            shown = repr(value)[:40]
            why = f"{name!r}: expected a whole number (the known optimum), got {shown}"
            raise InvalidInstance(why, source)
        known[name] = value
    return known


def find_shared_data(explicit: str | None = None) -> Path | None:
    """The ``shared/data`` folder: ``explicit``, else ``../shared/data`` from the
    working directory or from the source checkout."""
    candidates = (
        [Path(explicit)]
        if explicit
        else [
            Path.cwd().parent / "shared" / "data",
            Path(__file__).resolve().parents[2] / "shared" / "data",
        ]
    )
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


def _shared(data: Path | None, folder: str) -> Path:
    root = find_shared_data(str(data) if data else None)
    if root is None or not (root / folder).is_dir():
        raise InvalidInstance(
            f"the seed suite needs ../shared/data/{folder} (or --data DIR); give --instances instead"
        )
    return root / folder
