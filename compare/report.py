"""Writing and reading comparison reports: JSON, CSV, Markdown, Parquet.

Every report carries its header: the resolved experiment, the instances
with their content hashes, the command line, the environment (versions, git
commit, machine, CP-SAT parameters) and the warm-up (compile) time of each
method. Where it goes:

``.json``
    ``{"schema": 2, "experiment": ..., "instances": ..., "command": ...,
    "environment": ..., "warmup_s": ..., "runs": [...]}``.
``.csv``
    Plain RFC 4180 CSV: one header row, then one row per run, no comment
    lines, so ``pandas.read_csv(path)``, R's ``read.csv``, polars and
    spreadsheets read it as is. The header goes to the sidecar file
    ``<path>.meta.json`` (the same JSON object as the JSON report, without runs).
``.md``
    A list of the header's fields, then the runs with numbers rounded for reading.
``.parquet``
    The runs, typed; the header as JSON in the file's key-value metadata
    (key ``knightcert``). Needs pyarrow (``pip install 'knightcert[parquet]'``).

Every format records the experiment, so every format refuses to be
overwritten by another experiment and resumes its own (the JSON report
first, then Parquet, CSV, Markdown: the first one that exists).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import platform
import subprocess
import sys
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import IO, Any

from knightcert.compare.harness import COLUMNS, Row
from knightcert.compare.report_file import read_report_text, write_text_atomic
from knightcert.problems.cores import usable_cores
from knightcert.problems.errors import InvalidInstance, InvalidReport, KnightcertError
from knightcert.problems.input_file import load_json
from knightcert.problems.output_file import atomic_output

__all__ = [
    "FIELDS",
    "FORMATS",
    "PACKAGES",
    "SCHEMA",
    "cpsat_parameters",
    "environment",
    "file_sha256",
    "method_files",
    "pyarrow_modules",
    "read_header",
    "read_rows",
    "report_header",
    "row_from_record",
    "sidecar",
    "source_sha256",
    "to_csv",
    "to_markdown",
    "to_parquet",
    "write_rows",
]

SCHEMA = 2
FIELDS = (
    *COLUMNS,
    "size",
    "repeat",
    "seed",
    "instance_hash",
    "reference",
    "cpu_s",
    "load",
    "warm_s",
    "covered",
    "answer",
)
FORMATS = (".csv", ".json", ".md", ".parquet")
#: Packages whose versions every report records.
PACKAGES = (
    "knightcert",
    "ortools",
    "numpy",
    "scipy",
    "numba",
    "python-constraint2",
    "rich",
    "matplotlib",
    "pyarrow",
)


@cache
def environment() -> dict[str, Any]:
    """Versions, git commit, machine and CP-SAT defaults, recorded with every report.

    Notes
    -----
    ``git`` is the commit of the checkout the code was imported from (with
    ``dirty`` when tracked files differ from it), ``None`` for an installed copy;
    ``source_sha256`` fingerprints the package's Python files either way
    (:func:`source_sha256`), and ``versions["knightcert"]`` is the package version.
    """
    from knightcert.problems.answers import package_version

    versions = {package: package_version(package) for package in PACKAGES}
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable_cores(),
        "memory_gb": _memory_gb(),
        "versions": versions,
        "git": _git_commit(),
        "source_sha256": source_sha256(),
        "cpsat": cpsat_parameters(),
    }


def source_sha256() -> str:
    """SHA-256 over the package's Python files (relative path and bytes, in path order): which
    code ran, for an installed copy without git as for a checkout with local changes."""
    import hashlib

    import knightcert
    from knightcert import compare, heuristics, models, problems

    layers: tuple[Any, ...] = (knightcert, compare, heuristics, models, problems)  # knightcert/ links to them
    roots = {Path(module.__file__).resolve().parent for module in layers}
    digest = hashlib.sha256()
    for root in sorted(roots):
        for path in sorted(root.rglob("*.py")):
            digest.update(f"{root.name}/{path.relative_to(root)}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cpsat_parameters() -> dict[str, Any]:
    """The CP-SAT defaults of ``models/cpsat_solve.py``: every ``DEFAULT_*`` name it defines,
    resolved when it is a function (for instance threads chosen from the cores)."""
    from knightcert.models import cpsat_solve

    defaults: dict[str, Any] = {}
    for name in sorted(vars(cpsat_solve)):
        if not name.lower().startswith("default"):
            continue
        value = getattr(cpsat_solve, name)
        try:
            value = value() if callable(value) else value
            json.dumps(value)
        except Exception:  # a default that needs arguments, or is not plain data
            value = repr(value)
        defaults[name.lower()] = value
    return defaults


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def _memory_gb() -> float | None:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024**3, 1)
    except (ValueError, OSError, AttributeError):
        return None


def _git_commit() -> dict[str, Any] | None:
    here = Path(__file__).resolve().parent

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=here, capture_output=True, text=True, timeout=10, check=True
        ).stdout

    try:
        if not git("ls-files", Path(__file__).name).strip():  # an installed copy, not a checkout
            return None
        commit, dirty = git("rev-parse", "HEAD").strip(), git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": commit, "dirty": bool(dirty.strip())}


def report_header(
    experiment: Mapping[str, Any] | None = None,
    instances: Sequence[Mapping[str, Any]] = (),
    *,
    command: Sequence[str] | None = None,
    methods: Sequence[Any] = (),
) -> dict[str, Any]:
    """Everything a report says besides its runs; ``methods`` (resolved ``MethodRef``) give
    the ``method_files`` of the foreign ones (:func:`method_files`)."""
    header: dict[str, Any] = {"schema": SCHEMA}
    if experiment is not None:
        header["experiment"] = dict(experiment)
        header["instances"] = [dict(i) for i in instances]
    header["command"] = list(command) if command is not None else None
    header["environment"] = environment()
    header["method_files"] = method_files(methods)
    header["warmup_s"] = {}  # filled by the comparison as its warm-ups finish
    return header


def _module_file(module: str) -> str | None:
    """The file of ``module`` on ``sys.path`` and the working folder, found without running it."""
    from importlib.machinery import PathFinder

    parts, path, spec = module.split("."), [*sys.path, os.getcwd()], None
    for k in range(len(parts)):
        spec = PathFinder.find_spec(".".join(parts[: k + 1]), path)
        path = [] if spec is None else list(spec.submodule_search_locations or [])
    return None if spec is None else spec.origin


def file_sha256(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file's bytes."""
    import hashlib

    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def method_files(methods: Sequence[Any]) -> dict[str, list[dict[str, str]]]:
    """The files each foreign method runs, with their SHA-256: a Python method's module file
    (``module:function``, a registered function's module), a program and any file among its
    arguments (``exec:python3 solver.py``). Built-in methods are covered by the package
    version and commit or source hash of ``environment``.
    """
    import inspect
    import shutil

    found: dict[str, list[dict[str, str]]] = {}
    for ref in methods:
        if not getattr(ref, "foreign", False):
            continue
        target = ref.target
        if isinstance(target, tuple):  # a program's command
            program = shutil.which(target[0]) or target[0]
            paths = [program, *(arg for arg in target[1:] if os.path.isfile(arg))]
        else:  # ``module:function`` as the workers import it (the working folder last), none of it run
            module = inspect.getmodule(target) if callable(target) else None
            named = _module_file(target.partition(":")[0]) if isinstance(target, str) else None
            origin = named or getattr(module, "__file__", None)
            paths = [origin] if origin else []
        found[ref.name] = [
            {"path": os.path.abspath(path), "sha256": file_sha256(path)}
            for path in paths
            if os.path.isfile(path)
        ]
    return found


def write_rows(
    rows: Sequence[Row], path: str | os.PathLike[str], header: Mapping[str, Any] | None = None
) -> None:
    """Write rows and their header as CSV, JSON, Markdown or Parquet, chosen by the file ending.

    The file is replaced atomically (written beside it, then renamed).

    Raises
    ------
    InvalidInstance
        Unknown file ending.
    KnightcertError
        Parquet without pyarrow installed.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    header = dict(header) if header is not None else report_header()
    if suffix == ".parquet":
        with atomic_output(target, binary=True) as stream:  # never through a planted link
            to_parquet(rows, stream, header)
        return
    if suffix == ".csv":
        write_text_atomic(sidecar(target), json.dumps(header, indent=1) + "\n")
        text = to_csv(rows)
    elif suffix == ".json":
        text = _json_report(header, rows)
    elif suffix == ".md":
        text = to_markdown(rows, header)
    else:
        raise InvalidInstance(f"unknown output format {suffix!r}: use {', '.join(FORMATS)}", str(path))
    write_text_atomic(target, text)


def _json_report(header: Mapping[str, Any], rows: Sequence[Row]) -> str:
    """The header indented, then a line per run: the C encoder writes each line (an indented
    whole went through json's pure-Python encoder, seconds for 20,000 runs)."""
    text = json.dumps({**header, "runs": []}, indent=1)
    cut = text.rindex("[]")  # "runs" is the last key
    runs = ",\n".join("  " + json.dumps(_record(row)) for row in rows)
    return text[:cut] + (f"[\n{runs}\n ]" if rows else "[]") + text[cut + 2 :] + "\n"


def _record(row: Row) -> dict[str, Any]:
    data = row.as_dict()
    return {field: data.get(field) for field in FIELDS}


def sidecar(path: str | os.PathLike[str]) -> Path:
    """Where a CSV report keeps its header: ``runs.csv`` -> ``runs.csv.meta.json``."""
    return Path(os.fspath(path) + ".meta.json")


def to_csv(rows: Sequence[Row]) -> str:
    """The runs as plain RFC 4180 CSV: one header row, fields quoted where needed, CRLF line ends.

    Examples
    --------
    >>> from knightcert.compare.harness import failed_row
    >>> text = to_csv([failed_row("path", "board#1, big.txt", "bfs", "crashed", 0.5)])
    >>> text.splitlines()[1][:27]
    'path,"board#1, big.txt",bfs'
    """
    buffer = io.StringIO()
    writer: csv.DictWriter[str] = csv.DictWriter(buffer, fieldnames=FIELDS, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in _record(row).items()})
    return buffer.getvalue()


def to_markdown(rows: Sequence[Row], header: Mapping[str, Any] | None = None) -> str:
    """The header as a list, then the runs as a table with numbers rounded for reading."""
    lines = []
    if header:
        lines += ["# knightcert compare report", ""]
        lines += [f"- {key}: `{json.dumps(value, separators=(', ', ': '))}`" for key, value in header.items()]
        lines.append("")
    lines += ["| " + " | ".join(FIELDS) + " |", "|" + "---|" * len(FIELDS)]
    lines += ["| " + " | ".join(_cell(v) for v in _record(row).values()) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return f"{value:.4g}" if isinstance(value, float) else str(value).replace("|", "\\|")


def to_parquet(
    rows: Sequence[Row], path: str | os.PathLike[str] | IO[bytes], header: Mapping[str, Any]
) -> None:
    """The runs as a typed Parquet table (to a file name or a binary stream); the header in its
    metadata under ``knightcert``."""
    pa, parquet = pyarrow_modules()
    types = {float: pa.float64(), int: pa.int64(), bool: pa.bool_(), str: pa.string()}
    schema = pa.schema([(name, types[_KINDS[name]]) for name in FIELDS]).with_metadata(
        {"knightcert": json.dumps(dict(header))}
    )
    records = [_record(row) for row in rows]
    columns = {name: [r[name] for r in records] for name in FIELDS}
    where = path if hasattr(path, "write") else os.fspath(path)  # type: ignore[arg-type]
    parquet.write_table(pa.table(columns, schema=schema), where)


def _checked_header(data: Any, source: str, what: str) -> dict[str, Any]:
    """A header read from a sidecar or Parquet metadata: an object whose fields have their types."""
    from knightcert.compare.experiment import check_header

    if not isinstance(data, dict):
        raise InvalidReport(f"not a {what}: not a JSON object", source)
    check_header(data, source, what)
    return data


def pyarrow_modules():
    """``(pyarrow, pyarrow.parquet)``.

    Raises
    ------
    KnightcertError
        pyarrow is not installed (the message names the extra).
    """
    try:
        import pyarrow as pa
        import pyarrow.parquet as parquet
    except ImportError:
        raise KnightcertError("Parquet reports need pyarrow: pip install 'knightcert[parquet]'") from None
    return pa, parquet


def read_header(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The header of a report (empty for a report written before schema 2)."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".json":
        from knightcert.compare.experiment import read_report_header

        return read_report_header(target)
    if suffix == ".parquet":
        _, parquet = pyarrow_modules()
        metadata = parquet.read_schema(str(target)).metadata or {}
        raw = metadata.get(b"knightcert", b"{}").decode("utf-8", errors="replace")
        data = load_json(raw, str(target), "knightcert Parquet header", InvalidReport)
        return _checked_header(data, str(target), "knightcert Parquet header")
    if suffix == ".csv":
        meta = sidecar(target)
        if meta.exists():
            data = load_json(read_report_text(meta), str(meta), "knightcert CSV sidecar", InvalidReport)
            return _checked_header(data, str(meta), "knightcert CSV sidecar")
        header = {}
        for line in read_report_text(target).splitlines():  # a report written before the sidecar
            if not line.startswith("# "):
                break
            key, _, value = line[2:].partition(": ")
            header[key] = json.loads(value)
        return header
    if suffix == ".md":
        header = {}
        for line in read_report_text(target).splitlines():
            if line.startswith("|"):
                break
            if line.startswith("- ") and ": `" in line and line.endswith("`"):
                key, _, value = line[2:-1].partition(": `")
                try:
                    header[key] = json.loads(value)
                except ValueError:
                    continue
        return header
    return {}


def read_rows(path: str | os.PathLike[str]) -> list[Row]:
    """Read rows back from a report written by :func:`write_rows`.

    Raises
    ------
    InvalidReport
        The file is not a readable report (empty, truncated, binary, another
        program's file, a folder or device, an unknown ending); the message
        names the file and why.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in FORMATS:
        raise InvalidReport(f"unknown report format {suffix!r}: use {', '.join(FORMATS)}", str(path))
    try:
        if suffix == ".parquet":
            _, parquet = pyarrow_modules()
            records = parquet.read_table(str(target)).to_pylist()
        else:
            records = _records(read_report_text(target), suffix, str(path))
        return [row_from_record(record) for record in records]
    except InvalidReport:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError, OSError) as exc:
        why = f"a run has no {exc.args[0]!r} field" if isinstance(exc, KeyError) and exc.args else exc
        raise InvalidReport(f"not a knightcert report: {str(why)[:80]}", str(path)) from None


def _records(text: str, suffix: str, source: str = "report") -> list[dict[str, Any]]:
    if not text.strip():
        raise ValueError("the file is empty")
    if suffix == ".json":
        data = load_json(text, source, "knightcert report", InvalidReport)
        if not isinstance(data, dict) or not isinstance(data.get("runs"), list):
            raise ValueError("no 'runs' list")
        records = data["runs"]
    elif suffix == ".csv":
        lines = text.splitlines(keepends=True)
        while lines and lines[0].startswith("# "):  # the header lines of a report written before the sidecar
            lines.pop(0)
        body = "".join(lines)
        records = list(csv.DictReader(io.StringIO(body, newline="")))
        if not records and body.splitlines()[:1] and body.splitlines()[0].split(",")[:1] != ["problem"]:
            raise ValueError("no header row")
    else:
        lines = [line for line in text.splitlines() if line.startswith("|")]
        names = _split_md(lines[0]) if lines else list(FIELDS)
        records = [dict(zip(names, _split_md(line), strict=True)) for line in lines[2:]]
    if not all(isinstance(record, dict) for record in records):
        raise ValueError("a run is not a record")
    return records


def _split_md(line: str) -> list[str]:
    """The cells of a Markdown table line (``\\|`` a ``|`` within a cell)."""
    cells = next(csv.reader([line.strip()[1:-1]], delimiter="|", escapechar="\\", quoting=csv.QUOTE_NONE))
    return [cell.strip() for cell in cells]


#: The type of each report field as read back: a Row field's annotation, the widest of its kinds.
_KINDS = {
    name: next(
        kind for kind in (bool, float, int, str) if kind.__name__ in str(Row.__dataclass_fields__[name].type)
    )
    for name in FIELDS
}
#: Fields every run has (the others may be absent from a report written before they were recorded).
_REQUIRED = ("problem", "instance", "method", "status")


def row_from_record(record: dict[str, Any]) -> Row:
    """The row a report's record holds, each field of its type (ValueError, KeyError: not a row)."""

    def value(name: str, kind: type) -> Any:  # a ``kind`` (int for whole objectives), or None
        raw = record[name] if name in _REQUIRED else record.get(name)
        if kind is str:
            return str(raw or "")
        if raw is None or raw == "":
            return None
        if kind is bool:  # strictly: an edited "yes" is refused, not read as false
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw in ("True", "False"):
                return raw == "True"
            raise ValueError(f"field {name!r} must be true or false, got {str(raw)[:20]!r}")
        number = float(raw)
        if number != number:  # NaN from a typed column
            return None
        whole = kind is int or (kind is float and number.is_integer() and name in ("objective", "bound"))
        return int(number) if whole else number

    data = {name: value(name, kind) for name, kind in _KINDS.items()}
    for name, empty in (("time_s", 0.0), ("repeat", 0), ("verified", False), ("certified", False)):
        data[name] = data[name] or empty
    return Row(**data)
