"""Rows anyone can verify: each run of a report links to its saved answer file, and reading the
report back re-checks that answer with the checker (what ``knightcert check`` does).

A report is a plain file: anyone who can write it can change a row to ``verified: true`` with
another objective, or a reference value. So a row read back counts only as far as its answer
backs it: the answer file (``answer``, relative to the report's folder; by default in
``REPORT.answers/``) is re-checked against the instance — the comparison's own copy on resume,
else the answer's embedded instance, whose fingerprint must be the report's — and the row's
status, objective, bound, check flags, squares covered, method, seed and repeat must be what
that answer gives (an answer backs one row). A row that claims nothing (no answer, no objective,
no bound, no squares covered) needs no file. Nothing rests on a key: whoever
holds the report and its answers can verify every row.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from knightcert.compare.harness import Row, row_from_result
from knightcert.problems.errors import KnightcertError

__all__ = [
    "ANSWER_LINE",
    "CHECKED_FIELDS",
    "answer_folder",
    "answer_link",
    "backed",
    "backed_rows",
    "certified_optimum",
    "rechecked_row",
    "reference_backed",
]

#: The fields of a row that its re-checked answer must give again.
CHECKED_FIELDS = (
    "status", "objective", "bound", "verified", "certified", "covered", "method", "seed", "repeat"
)  # fmt: skip


def answer_folder(report: str | os.PathLike[str]) -> Path:
    """Where a report's answer files go by default: ``study.json`` -> ``study.answers/``."""
    path = Path(report)
    return path.with_name(path.stem + ".answers")


#: How a run names its answer: a line of one of its worker's answers files (``save_run_answer``).
ANSWER_LINE = re.compile(r"runs-[a-z0-9_]+\.jsonl#[1-9][0-9]*")


def answer_link(folder: str | os.PathLike[str], line: str, report: str | os.PathLike[str] | None) -> str:
    """The answer ``line`` (``FILE#N`` in ``folder``, as the run named it) as a row links it:
    relative to the report's folder (absolute without a report); ``""`` for anything else."""
    if not (isinstance(line, str) and ANSWER_LINE.fullmatch(line)):  # the worker's word: maybe not text
        return ""
    where = os.path.abspath(os.path.join(folder, line))
    return where if report is None else os.path.relpath(where, os.path.dirname(os.path.abspath(report)))


def rechecked_row(link: str, base: Path, instance: Any = None, sha256: str = "") -> Row | None:
    """The row of the answer file ``link`` (under ``base``) as the checker re-derives it, against
    ``instance`` (else the embedded one, whose fingerprint must be ``sha256``), a rejected answer's
    row as rejected; None when the file is missing, unreadable, malformed or for another instance."""
    from knightcert.problems.answers import check_answer, instance_for_answer, instance_sha256, read_answer

    if not link:
        return None
    try:
        data = read_answer(base.absolute() / link)  # "-" a file here, never standard input
        if instance is None and instance_sha256(instance := instance_for_answer(data)) != sha256:
            return None
        row = row_from_result(check_answer(instance, data, raising=False), instance=instance, checked=True)
        parameters: dict = data["parameters"] if isinstance(data.get("parameters"), dict) else {}
        seed, repeat = parameters.get("seed"), parameters.get("repeat")
        row.seed, row.repeat = (seed if type(seed) is int else None), (repeat if type(repeat) is int else -1)
        return row
    except (KnightcertError, OSError, ValueError):
        return None


def certified_optimum(row: Row) -> float | int | None:
    """The value a reference run gives: its objective when proven optimal and certified."""
    return row.objective if row.status == "OPTIMAL" and row.verified and row.certified else None


def reference_backed(record: Mapping[str, Any], base: Path, instance: Any = None, sha256: str = "") -> bool:
    """Whether a report's reference record claims no value, or its answer file re-checks to it."""
    if record.get("value") is None:
        return True
    again = rechecked_row(str(record.get("answer") or ""), base, instance, sha256)
    return again is not None and certified_optimum(again) == record["value"]


def _same(a: Any, b: Any) -> bool:
    numbers = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))
    if numbers and float in (type(a), type(b)):  # a float as a report keeps it; integers exact
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def backed(row: Row, base: Path, instance: Any = None) -> bool:
    """Whether ``row`` claims nothing, or its answer file re-checks to the same claims."""
    nothing = row.status == "UNKNOWN" and row.objective is None and row.bound is None and not row.verified
    if nothing and row.covered is None:  # a dead end's squares are its partial tour, replayed
        return True
    again = rechecked_row(row.answer, base, instance, row.instance_hash)
    return again is not None and all(_same(getattr(row, f), getattr(again, f)) for f in CHECKED_FIELDS)


def backed_rows(
    rows: Sequence[Row], base: Path, instances: Mapping[str, Any] | None = None
) -> tuple[list[Row], list[Row]]:
    """``(backed, others)``: the rows their answers back (:func:`backed`; ``instances`` by name, the
    comparison's own copies), and the others (no answer file, edited, or another instance)."""
    good: list[Row] = []
    bad: list[Row] = []
    used: set[str] = set()  # an answer backs one run
    for row in rows:
        fresh = not row.answer or row.answer not in used
        if fresh and backed(row, base, (instances or {}).get(row.instance)):
            used.add(row.answer)
            good.append(row)
        else:
            bad.append(row)
    return good, bad
