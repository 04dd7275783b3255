"""What a report read back can be believed: recomputed figures, named inconsistencies, labels.

``knightcert report`` works from a file someone may have edited. :func:`audit_rows` does not take
the derived figures as written: from each run's own data (status, objective, bound, the checker's
``verified``) and the report's references it recomputes the certified flags and the gaps, so that
the counts and gaps of the statistics follow from the runs. What cannot be recomputed — whether
the answers behind ``verified`` were checked, the objectives themselves — is re-checked from each
run's answer file (:mod:`knightcert.compare.rechecked`); the runs their answers do not back (no
answer file beside the report, or an edited run) are counted and said to be taken as written
(:func:`audit_notes`).

A gap with no reference value in the report to recompute it from (no certified optimum, no
reference run, no published optimum) is kept as written, and said so.

Inconsistent runs are named and corrected for the statistics: ``certified`` without ``verified``,
``verified`` without an answer, an unknown status; a gap as written that differs from the
recomputed one (an edited gap, a negative one) is named too.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from knightcert.compare.experiment import run_seed
from knightcert.compare.harness import Row, fill_gaps
from knightcert.compare.rechecked import backed_rows, reference_backed
from knightcert.problems.result import Status

__all__ = ["Audit", "audit_notes", "audit_rows"]

#: Runs named per kind of problem in a note (the rest counted).
NAMED = 5


@dataclass
class Audit:
    """The rows with their derived figures recomputed, and what was found on the way."""

    rows: list[Row]
    total: int
    unbacked: int
    references_backed: bool
    inconsistent: list[str] = field(default_factory=list)
    gaps_changed: list[str] = field(default_factory=list)
    gaps_as_written: list[str] = field(default_factory=list)


def _who(row: Row) -> str:
    return f"{row.instance}/{row.method}" + (f"#{row.repeat}" if row.repeat else "")


def _answer_problem(row: Row) -> str | None:
    statuses = {s.value for s in Status}
    if row.status not in statuses:
        return f"unknown status {row.status[:20]!r}"
    answered = row.status == Status.INFEASIBLE.value or row.objective is not None
    if row.verified and (row.status == Status.UNKNOWN.value or not answered):
        return "verified without an answer"
    return "certified but not verified" if row.certified and not row.verified else None


def _run_problem(row: Row, base_seed: Any, seen: set) -> str | None:
    """A run the experiment does not hold: given twice, or with a seed not derived from its own."""
    if (key := (row.instance, row.instance_hash, row.method, row.repeat)) in seen:
        return "the same run given twice"
    seen.add(key)
    if isinstance(base_seed, int) and row.seed != run_seed(base_seed, *key[1:]):
        return f"seed {row.seed} is not the one the experiment derives"
    return None


def _references(header: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Instance name -> published optimum; instance name -> the reference runs' certified value."""
    records = [r for r in header.get("instances") or () if isinstance(r, Mapping)]
    known = {
        str(r.get("name")): r["known_optimum"]
        for r in records
        if isinstance(r.get("known_optimum"), (int, float)) and not isinstance(r.get("known_optimum"), bool)
    }
    by_hash, proven = {r.get("sha256"): str(r.get("name")) for r in records}, {}
    references = header.get("references")
    for digest, record in references.items() if isinstance(references, Mapping) else ():
        value = record.get("value") if isinstance(record, Mapping) else None
        if digest in by_hash and isinstance(value, (int, float)) and not isinstance(value, bool):
            proven[by_hash[digest]] = value
    return known, proven


def _differs(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return (a is None) != (b is None)
    # a Markdown report keeps 4 digits
    return a != b if math.isinf(a) or math.isinf(b) else abs(a - b) > 1e-3 * max(abs(a), abs(b)) + 1e-9


def audit_rows(rows: Sequence[Row], header: Mapping[str, Any], base: Path | None = None) -> Audit:
    """Recompute the certified flags and gaps of ``rows`` (copies) from their own data, and
    re-check their answer files (under ``base``, the report's folder) against the instances
    the header records.

    Returns
    -------
    Audit
        The corrected copies, how many runs their answers do not back, whether the references'
        answers back them, the inconsistent runs and the runs whose gap as written differs from
        the recomputed one.
    """
    base = base or Path.cwd()
    records = [r for r in header.get("instances") or () if isinstance(r, Mapping)]
    hashes = {str(r.get("name")): r.get("sha256") for r in records}
    listed = [row for row in rows if hashes.get(row.instance, row.instance_hash) == row.instance_hash]
    references = header.get("references")
    backed = all(
        reference_backed(record, base, None, digest)
        for digest, record in (references.items() if isinstance(references, Mapping) else ())
        if isinstance(record, Mapping)
    )
    copies = [dataclasses.replace(row) for row in rows]
    audit = Audit(copies, len(rows), len(rows) - len(backed_rows(listed, base)[0]), backed)
    experiment, seen = header.get("experiment"), set[tuple]()
    base_seed = experiment.get("seed") if isinstance(experiment, Mapping) else None
    for row in copies:
        why = _answer_problem(row) or _run_problem(row, base_seed, seen)
        if why is not None:
            audit.inconsistent.append(f"{_who(row)} ({why})")
            row.verified = row.verified and why == "certified but not verified"
            row.certified = row.certified and row.verified
    _recompute_gaps(audit, header)
    return audit


def _recompute_gaps(audit: Audit, header: Mapping[str, Any]) -> None:
    """Recompute the gaps of ``audit.rows`` from the header's references, noting those that differ
    from the gaps as written and those kept as written (nothing to recompute them from)."""
    written = [row.gap for row in audit.rows]
    fill_gaps(audit.rows, *_references(header))
    for row, before in zip(audit.rows, written, strict=True):
        dead_end = row.problem == "tour" and row.objective is None and row.covered is None  # an older report
        if dead_end or (row.gap is None and before is not None and row.verified):
            row.gap = before  # nothing to recompute it from: kept, and said to rest on the file
            if not dead_end:
                audit.gaps_as_written.append(_who(row))
        elif _differs(before, row.gap):
            now = "none" if row.gap is None else f"{row.gap:.4g}"
            audit.gaps_changed.append(
                f"{_who(row)} ({'none' if before is None else f'{before:.4g}'} -> {now})"
            )


def _listed(items: list[str]) -> str:
    return "; ".join(items[:NAMED]) + (f"; and {len(items) - NAMED} more" if len(items) > NAMED else "")


def audit_notes(audit: Audit, source: str) -> list[str]:
    """One line per finding, for standard error (none for a consistent report whose answers back it)."""
    notes = []
    if audit.unbacked:
        notes.append(
            f"knightcert: note: {source}: {audit.unbacked} of {audit.total} runs have no answer file that "
            "re-checks to them (received without its answers, or edited): their status, objective and "
            "checks are taken as written; certified flags, gaps and counts are recomputed from them"
        )
    if not audit.references_backed and audit.unbacked == 0 and audit.total:
        notes.append(
            f"knightcert: note: {source}: the reference values are not backed by answer files that "
            "re-check: gaps rest on them as written"
        )
    if audit.inconsistent:
        notes.append(
            f"knightcert: note: {source}: inconsistent runs, corrected here: {_listed(audit.inconsistent)}"
        )
    if audit.gaps_changed:
        notes.append(
            f"knightcert: note: {source}: gaps as written differ from those the runs and the header's "
            "references give, recomputed: "
            f"{_listed(audit.gaps_changed)}"
        )
    if audit.gaps_as_written:
        notes.append(
            f"knightcert: note: {source}: {len(audit.gaps_as_written)} gap(s) have no reference value in "
            f"the report to recompute them from and are taken as written: {_listed(audit.gaps_as_written)}"
        )
    return notes
