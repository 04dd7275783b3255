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

Sizes are board sides ``n`` or rectangles ``"RxC"``. A generated suite of
knights or tours takes the instance fields of the solve commands (``torus``,
``closed``, ``start``, ``end``, and any other keyword the problem's instance
constructor takes): every member is built by that constructor
(:func:`~knightcert.problems.independent_knights.knights_instance`,
:func:`~knightcert.problems.tours.tour_instance`), so a new field of an
instance needs no code here. ``starts`` runs every usable start square of
each board, open or closed, on rectangles and tori alike.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
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
    "board_sides",
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
    fields : tuple of (str, value)
        Keywords of the problem's instance constructor (``torus``, ``closed``, ``start``, ...).
    """

    suite: str
    sizes: tuple[int | str, ...] = ()
    seeds: tuple[int, ...] = ()
    holes: float | None = None
    files: tuple[str, ...] = field(default=())
    fields: tuple[tuple[str, Any], ...] = ()

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
        data.update((key, _nested(value, list)) for key, value in self.fields)
        return data


def resolve_suite(
    problem: str,
    suite: str,
    *,
    sizes: Sequence[int | str] | None = None,
    seeds: Sequence[int] | None = None,
    holes: float | None = None,
    files: Sequence[str] = (),
    fields: Mapping[str, Any] | None = None,
) -> SuiteSpec:
    """Check a suite's parameters and fill in its defaults.

    Raises
    ------
    InvalidInstance
        Unknown suite, or a parameter the suite does not take (``--holes`` on
        the jump game, ``--seeds`` on a full-board scaling suite, sizes on the
        seed suite), or a value out of range, or a field the problem's instances do not have.
    """
    chosen = _fields(problem, suite, fields or {})
    if suite in ("files", "seed"):
        if sizes or seeds or holes is not None or (suite == "files") != bool(files):
            raise InvalidInstance(
                "a files suite takes instance files and nothing else"
                if suite == "files"
                else "the seed suite is fixed: sizes, seeds and holes apply to scaling and random"
            )
        return SuiteSpec(suite, files=tuple(str(f) for f in files))
    if suite not in SUITES:
        raise InvalidInstance(f"unknown suite {suite!r}: choose one of {', '.join(SUITES)}, files")
    default_seeds, default_holes = _check_generated(problem, suite, seeds, holes)
    if sizes is None:
        sizes = size_range(*(STARTS_SIZES if suite == "starts" else DEFAULT_SIZES[problem]))
    return SuiteSpec(
        suite,
        sizes=tuple(r if r == c else f"{r}x{c}" for r, c in _checked_boards(sizes)),
        seeds=tuple(int(s) for s in (seeds or default_seeds)),
        holes=None if default_holes is None else float(default_holes if holes is None else holes),
        fields=chosen,
    )


def _check_generated(
    problem: str, suite: str, seeds: Sequence[int] | None, holes: float | None
) -> tuple[tuple[int, ...], float | None]:
    """The default seeds and holes of a generated suite, once its seeds and holes are checked."""
    if suite == "starts" and problem != "tour":
        raise InvalidInstance("the starts suite is for tours (every start square of a board)")
    default_seeds, default_holes = GENERATOR_DEFAULTS[problem, suite]
    if seeds and not default_seeds:
        raise InvalidInstance(f"the {problem} {suite} suite is not random: seeds apply to the random suite")
    if holes is not None and default_holes is None:
        raise InvalidInstance(f"the {problem} {suite} suite has no holes")
    if holes is not None and not 0 <= holes < 1:
        raise InvalidInstance(f"holes must be a fraction in [0, 1), got {holes}")
    if seeds is not None and any(int(s) != s or s < 0 for s in seeds):
        raise InvalidInstance(f"generator seeds must be whole numbers >= 0, got {list(seeds)}")
    return default_seeds, default_holes


def _checked_boards(sizes: Sequence[int | str]) -> list[tuple[int, int]]:
    """The boards of ``sizes``, smallest first, duplicates removed, the largest within ``MAX_SQUARES``."""
    if len(sizes) == 0:
        raise InvalidInstance("sizes: give at least one size")
    boards = sorted({board_sides(n) for n in sizes}, key=lambda b: (b[0] * b[1], b))
    rows, cols = boards[-1]
    if rows * cols > MAX_SQUARES:  # checked before a suite board is generated
        raise InstanceTooLarge(
            f"--sizes: a {rows} x {cols} board is above the limit of {MAX_SQUARES} "
            "squares; give a smaller upper size"
        )
    return boards


def board_sides(size: Any) -> tuple[int, int]:
    """``n`` -> ``(n, n)``; ``"RxC"`` -> ``(R, C)``.

    Raises
    ------
    InvalidInstance
        Anything else, or a side below 1.

    Examples
    --------
    >>> board_sides(5), board_sides("6x5")
    ((5, 5), (6, 5))
    """
    try:
        if isinstance(size, str):
            rows, cols = (int(part) for part in size.lower().split("x"))
        elif isinstance(size, int) and not isinstance(size, bool):
            rows = cols = size
        else:
            raise ValueError
    except ValueError:
        raise InvalidInstance(f"a size is a side N or a rectangle RxC, got {size!r}") from None
    for side in (rows, cols):
        bounded(side, "size", "sizes: a side", error=InvalidInstance)
    return rows, cols


def _constructor(problem: str) -> Any:
    """The solve commands' instance constructor of ``problem`` (None: its suites take no fields)."""
    from knightcert.problems.independent_knights import knights_instance
    from knightcert.problems.tours import tour_instance

    return {"knights": knights_instance, "tour": tour_instance}.get(problem)


def _fields(problem: str, suite: str, fields: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The instance fields of a suite, checked against the constructor's keywords (lists become tuples)."""
    if not fields:
        return ()
    import inspect

    make = _constructor(problem)
    if make is None or suite in ("seed", "files"):
        where = f"the {problem} suites" if make is None else f"the {suite} suite"
        raise InvalidInstance(f"{where} take no instance fields, got {', '.join(fields)}")
    known = [p for p in inspect.signature(make).parameters if p not in ("rows", "cols", "board_file")]
    for key in fields:
        if key not in known:
            raise InvalidInstance(f"a {problem} instance has no field {key!r} (fields: {', '.join(known)})")
    return tuple(sorted((key, _nested(value, tuple)) for key, value in fields.items()))


def _nested(value: Any, kind: type) -> Any:
    """``value`` with every list or tuple in it made a ``kind`` (tuples inside, lists in records)."""
    return kind(_nested(v, kind) for v in value) if isinstance(value, (list, tuple)) else value


def parse_sizes(text: str, where: str = "--sizes") -> list[int | str]:
    """Sizes from the command line (``where``: the flag, or an experiment file's key, for messages).

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
    >>> parse_sizes("8,16,32"), parse_sizes("5x7,7x9,6x6")
    ([8, 16, 32], ['5x7', 6, '7x9'])
    """
    expected = f"{where} expects A..B[:COUNT[:linear|geometric]] or a list N1,RxC,..."
    if ".." not in text:
        parts = [part.strip() for part in text.split(",")]
        bounded(len(parts), "size count", f"{where}: the number of sizes", error=InvalidInstance)
        try:
            boards = {board_sides(int(p) if p.isdigit() else p) for p in parts}
        except InvalidInstance as exc:  # the reason too (a side out of range)
            raise InvalidInstance(f"{expected}, got {text!r} ({exc})") from None
        return [r if r == c else f"{r}x{c}" for r, c in sorted(boards, key=lambda b: (b[0] * b[1], b))]
    span, _, rest = text.partition(":")
    count_text, _, spacing = rest.partition(":")
    try:
        low, high = (int(p) for p in span.split(".."))
        count = int(count_text) if count_text else DEFAULT_COUNT
    except ValueError:
        raise InvalidInstance(f"{expected} (A..B two whole numbers), got {text!r}") from None
    if not 1 <= low <= high:
        raise InvalidInstance(f"{where} expects 1 <= A <= B, got {text!r}")
    if spacing not in ("", *SPACINGS):
        raise InvalidInstance(f"{expected}, got {text!r}")
    bounded(high, "size", f"{where}: the largest size", error=InvalidInstance)
    bounded(count, "size count", f"{where}: the number of sizes", error=InvalidInstance)
    return list(size_range(low, high, count, spacing or "geometric"))


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
    sizes: Sequence[int | str] | None = None,
    data: Path | None = None,
    *,
    seeds: Sequence[int] | int | None = None,
    holes: float | None = None,
    files: Sequence[str] = (),
    fields: Mapping[str, Any] | None = None,
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
    fields : mapping, optional
        With a suite name: instance fields (``{"torus": True}``, ``{"closed": True}``, ...).

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
        if sizes is not None or seeds is not None or holes is not None or files or fields:
            raise InvalidInstance("a resolved SuiteSpec already holds its sizes, seeds, holes and files")
        spec = suite
    else:
        listed: Sequence[int] | None = None if isinstance(seeds, bool) else seeds  # type: ignore[assignment]
        if isinstance(seeds, int) and not isinstance(seeds, bool):
            listed = list(range(bounded(seeds, "seed count", "seeds: the count", error=InvalidInstance)))
        spec = resolve_suite(
            problem, suite, sizes=sizes, seeds=listed, holes=holes, files=files, fields=fields
        )
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

    read: Any = {
        "path": read_lost_knight,
        "jump": read_jump,
        "knights": lambda name: knights_instance(board_file=name),
    }.get(problem, lambda name: tour_instance(board_file=name))
    instances = [read(name) for name in files]
    return [SuiteItem(i, i.rows * i.cols if problem == "jump" else i.board.rows) for i in instances]


def _boards(spec: SuiteSpec) -> list[tuple[int, int, int]]:
    """(rows, cols, generator seed) of a generated suite, sizes first (seed -1: not random)."""
    return [(*board_sides(size), s) for size in spec.sizes for s in (spec.seeds or (-1,))]


def _random_name(problem: str, spec: SuiteSpec, base: Any, rows: int, cols: int, seed: int) -> str:
    """``knights-8x8-h0.1-s3``; with fields, what the constructor names them too
    (``knights-8x8-torus-h0.1-s3``)."""
    tag = base.name.removeprefix(f"{rows}x{cols}").strip().replace(" ", "-") if spec.fields else ""
    return f"{problem}-{rows}x{cols}{'-' + tag if tag else ''}-h{spec.holes:g}-s{seed}"


def _holed(problem: str, spec: SuiteSpec, base: Any, seed: int, keep: Sequence[Any] = ()) -> Any:
    """``base`` (built by the constructor) with the random holes of generator ``seed``
    (the squares in ``keep``, a tour's ends, stay usable)."""
    board = base.board
    assert spec.holes is not None
    blocked = np.random.default_rng(seed).random((board.rows, board.cols)) < spec.holes
    for square in keep:
        if square is not None:
            blocked[square] = False
    name = _random_name(problem, spec, base, board.rows, board.cols, seed)
    return dataclasses.replace(base, board=dataclasses.replace(board, blocked=blocked), name=name)


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
                np.random.default_rng(s), r, c, spec.holes, f"path-{r}x{c}-h{spec.holes:g}-s{s}"
            ),
            r,
            generator_seed=s,
        )
        for r, c, s in _boards(spec)
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
            random_jump(
                np.random.default_rng(s), r, c, players, min(r, c) // 2, f"jump-{r}x{c}-j{players}-s{s}"
            ),
            r * c,
            generator_seed=s,
        )
        for r, c, s in _boards(spec)
    ]


def _knights(spec: SuiteSpec, data: Path | None) -> list[SuiteItem]:
    from knightcert.problems.independent_knights import closed_form, knights_instance

    if spec.suite == "seed":  # seed 002's boards
        return [SuiteItem(knights_instance(n), n, closed_form(n, n)) for n in (3, 4, 6)]
    fields = dict(spec.fields)
    if spec.suite == "scaling":  # the published values hold for plain full boards only
        return [
            SuiteItem(knights_instance(r, c, **fields), r, None if fields else closed_form(r, c))
            for r, c, _ in _boards(spec)
        ]
    return [
        SuiteItem(_holed("knights", spec, knights_instance(r, c, **fields), s), r, generator_seed=s)
        for r, c, s in _boards(spec)
    ]


def _tour(spec: SuiteSpec, data: Path | None) -> list[SuiteItem]:
    from knightcert.problems.tours import tour_instance

    if spec.suite == "seed":  # seed 003's boards and seed 001's failures
        boards = [tour_instance(n) for n in (2, 5, 8)] + [
            tour_instance(31, start=(0, 0)),
            tour_instance(100, start=(2, 3)),
        ]
        return [SuiteItem(b, b.board.rows, _tour_known(b)) for b in boards]
    fields = dict(spec.fields)
    if spec.suite == "starts":
        return start_suite(spec.sizes, fields)
    if spec.suite == "scaling":
        made = [tour_instance(r, c, **{"start": (0, 0), **fields}) for r, c, _ in _boards(spec)]
        return [SuiteItem(b, b.board.rows, _tour_known(b)) for b in made]
    items = []
    for r, c, s in _boards(spec):
        base = tour_instance(r, c, **{"start": (0, 0), **fields})
        holed = _holed("tour", spec, base, s, keep=(base.start, base.end))
        items.append(SuiteItem(holed, r, generator_seed=s))
    return items


def _tour_known(instance: Any) -> int | None:
    """The number of squares where the theorems allow a tour of a full plain board (None: not
    known, or none)."""
    from knightcert.problems.tours import full_board_reason

    board = instance.board
    if board.torus or board.n_free != board.rows * board.cols:
        return None
    reason = full_board_reason(
        board.rows, board.cols, closed=instance.closed, start=instance.start, end=instance.end
    )
    return board.n_free if reason is None else None


def start_suite(sizes: Sequence[int | str], fields: Mapping[str, Any] | None = None) -> list[SuiteItem]:
    """Tours of each board from every start square: the ``starts`` suite (``fields``: the
    constructor's other keywords, e.g. ``closed``, ``torus``).

    The known optimum is the number of squares where the theorems (colour, outer rows) allow
    a tour from that start; the report's ``success where one exists`` counts the starts
    where a run found a checked tour.
    """
    from knightcert.problems.tours import tour_instance

    boards = [board_sides(size) for size in sizes]
    starts = [(rows, cols, (r, c)) for rows, cols in boards for r in range(rows) for c in range(cols)]
    made = [tour_instance(rows, cols, start=start, **(fields or {})) for rows, cols, start in starts]
    return [SuiteItem(instance, instance.board.rows, _tour_known(instance)) for instance in made]


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
    beside = [Path.cwd().parent / "shared" / "data", Path(__file__).resolve().parents[2] / "shared" / "data"]
    return next((folder for folder in ([Path(explicit)] if explicit else beside) if folder.is_dir()), None)


def _shared(data: Path | None, folder: str) -> Path:
    root = find_shared_data(str(data) if data else None)
    if root is None or not (root / folder).is_dir():
        raise InvalidInstance(
            f"the seed suite needs ../shared/data/{folder} (or --data DIR); give --instances instead"
        )
    return root / folder
