"""The comparison API: methods x instances x repeats, isolated, checked, with gaps, recorded.

>>> from knightcert.compare.comparison import run_comparison
>>> from knightcert.compare.suites import build_suite
>>> rows = run_comparison("knights", build_suite("knights", "seed"), ["greedy", "matching"])
>>> [(r.instance, r.method, r.objective, round(r.gap, 3)) for r in rows if r.instance == "6x6"]
[('6x6', 'greedy', 15, 0.167), ('6x6', 'matching', 18, 0.0)]

An experiment file runs the same way (:func:`run_experiment`), and every
report records what ran: see :mod:`knightcert.compare.experiment`.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from knightcert.compare.experiment import (
    GIVEN,
    Experiment,
    ExperimentMismatch,
    MethodSpec,
    duplicate_row_name,
    same_experiment,
)
from knightcert.compare.harness import Row, fill_gaps, grouped
from knightcert.compare.rechecked import (
    answer_folder,
    answer_link,
    backed_rows,
    certified_optimum,
    reference_backed,
)
from knightcert.compare.report import read_header, read_rows, report_header, write_rows
from knightcert.compare.report_file import report_locks
from knightcert.compare.runner import WARMED, Task, run_isolated, run_with_executor
from knightcert.compare.suites import SuiteItem, SuiteSpec, instance_hash, unique_items
from knightcert.problems.argument_checks import bounded, describe
from knightcert.problems.errors import InvalidArgument
from knightcert.registry import MethodRef, resolve

__all__ = [
    "REFERENCE_METHODS",
    "RESUME_PREFERENCE",
    "ComparisonSettings",
    "ProgressBar",
    "changed_code",
    "check_comparison_arguments",
    "declared",
    "free_path",
    "in_notebook",
    "instance_records",
    "needs_reference",
    "note_references",
    "recorded_references",
    "recorded_warmups",
    "reference_record",
    "reference_task",
    "reference_values",
    "resumable_rows",
    "resume_order",
    "run_comparison",
    "run_experiment",
]


def run_experiment(
    experiment: Experiment,
    *,
    items: Sequence[SuiteItem] | None = None,
    data: Path | None = None,
    executor: Executor | None = None,
    out: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None = None,
    on_row: Callable[[Row], None] | None = None,
    command: Sequence[str] | None = None,
    answers: str | os.PathLike[str] | None = None,
) -> list[Row]:
    """Build the instances (unless given) and run the experiment; see :func:`run_comparison`."""
    recorded = ("time_limit", "repeat", "seed", "workers", "wall_limit", "suites")
    settings = ComparisonSettings(executor=executor, out=out, on_row=on_row, command=command, answers=answers)
    settings = dataclasses.replace(settings, **{name: getattr(experiment, name) for name in recorded})
    items = experiment.build(data) if items is None else items
    return run_comparison(experiment.problem, items, experiment.methods, settings)


def check_comparison_arguments(items: object, methods: object, repeat: object, workers: object) -> None:
    """Types of :func:`run_comparison`'s arguments (InvalidArgument naming the parameter)."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise InvalidArgument(f"items: expected a list of SuiteItem, got {describe(items)}")
    for item in items:
        if not isinstance(item, SuiteItem):
            raise InvalidArgument(f"items: expected SuiteItem entries, got {describe(item)}")
    if isinstance(methods, str) or not isinstance(methods, Sequence):
        raise InvalidArgument(f"methods: expected a list of method names, got {describe(methods)}")
    for method in methods:
        if not isinstance(method, str | MethodSpec | MethodRef) and not callable(method):
            raise InvalidArgument(f"methods: expected names, MethodSpec or callables, got {describe(method)}")
    repeats = bounded(repeat, "repeat")
    bounded(workers, "workers")
    bounded(len(items) * len(methods) * repeats, "runs", "runs (instances x methods x repeats)")


@dataclass(frozen=True)
class ComparisonSettings:
    """How a comparison runs: the keywords of :func:`run_comparison` (documented there)."""

    time_limit: float | None = None
    repeat: int = 1
    seed: int | None = 0
    workers: int = 2
    executor: Executor | None = None
    out: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None = None
    on_row: Callable[[Row], None] | None = None
    wall_limit: float | None = None
    suites: Sequence[SuiteSpec] | None = None
    command: Sequence[str] | None = None
    answers: str | os.PathLike[str] | None = None
    reference: bool = True
    progress: bool | None = None

    @property
    def outputs(self) -> list[str | os.PathLike[str]]:
        """The reports to write."""
        out = self.out
        return [] if out is None else [out] if isinstance(out, (str, os.PathLike)) else list(out)

    @property
    def answer_folder(self) -> Path | None:
        """Where the answers go: ``answers``, else ``REPORT.answers/`` beside the first report."""
        if self.answers is not None:
            return Path(self.answers)
        return answer_folder(self.outputs[0]) if self.outputs else None


def run_comparison(
    problem: str,
    items: Sequence[SuiteItem],
    methods: Sequence[str | MethodSpec],
    settings: ComparisonSettings | None = None,
    **given: Any,
) -> list[Row]:
    """Run every method on every instance ``repeat`` times; return rows with gaps.

    Parameters
    ----------
    settings : ComparisonSettings, optional
        The settings below as one record; keywords given beside it replace its fields.
    items : sequence of SuiteItem
        The instances; repeated ones are dropped and different instances that
        share a name are renamed (``name@hash``).
    methods : sequence of str, MethodSpec or callable
        Methods in any form :func:`~knightcert.registry.resolve` takes:
        built-in, registered or plug-in names, ``package.module:function``,
        ``exec:COMMAND``, or Python callables (options with ``MethodSpec``).
        Rows name each as given (a callable by its name); every answer is checked.
    seed : int, optional
        Base seed: each run gets its own seed derived from it and the run's
        (instance content, method, repeat); see :func:`knightcert.compare.experiment.run_seed`.
    executor : concurrent.futures.Executor, optional
        Where to run (a Dask ``Client.get_executor()``, a process pool, ...);
        default: one fresh local process per run, ``workers`` at a time, each
        killed at its wall-clock limit.
    wall_limit : float, optional
        Seconds after which a local run is killed (default: twice the time
        limit plus 30 s, or 600 s without a time limit).
    out : path or sequence of paths, optional
        Reports written after every finished run (``.json``, ``.csv``, ``.md``,
        ``.parquet``), so an interruption keeps what finished. An existing
        ``.json`` report is resumed (runs already in it are not redone) when it
        holds the same experiment (:func:`~knightcert.compare.experiment.same_experiment`).
    suites : sequence of SuiteSpec, optional
        How the items were built, recorded in the report (default: "given").
    command : sequence of str, optional
        The command line, recorded in the report.
    answers : path, optional
        Folder where every run saves its answer, a line of its worker's ``runs-*.jsonl``
        (``knightcert check`` re-checks them); default with ``out``: ``REPORT.answers/`` beside the
        first report. Each row links to its answer (``answer``, ``FILE#LINE``); a resume keeps only
        the runs their answers back (:mod:`knightcert.compare.rechecked`) and runs the others again.
    reference : bool, default True
        When a verified answer has no gap (no method proved the instance's optimum and none is
        published), run the problem's reference method (``REFERENCE_METHODS``: certified exact
        methods) once on that instance, under the same limits, and take its certified optimum as
        the reference. Each instance's reference run is cached in the report's header
        (``references``, by instance hash) and not redone on resume; every row whose gap
        comes from it, or that still has none, says so in ``reference``.
    progress : bool, optional
        Show a progress bar (rich; in a Jupyter notebook it is a live widget). Default: on in
        a notebook, off elsewhere (the command line has its own).

    Raises
    ------
    TypeError
        A keyword that is not a field of :class:`ComparisonSettings`.
    UnknownMethod
        A method name the problem does not have.
    ExperimentMismatch
        ``out`` is a JSON report of a different experiment (the message says what differs).
    InvalidReport
        ``out`` exists but is not a readable report: refused, never overwritten.
    ReportInUse
        Another run is writing ``out`` (one writer per report, an exclusive lock).
    """
    settings = dataclasses.replace(settings or ComparisonSettings(), **given)
    check_comparison_arguments(items, methods, settings.repeat, settings.workers)
    folder = settings.answer_folder
    fresh = folder is not None and not folder.exists()
    with report_locks(settings.outputs):  # one writer per report
        try:
            return _Comparison(problem, items, methods, settings).run()
        except InvalidArgument:  # a report that cannot be written (full disk): none of its answers stay
            if fresh and folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
            raise


class _Comparison:
    """One comparison in named steps: the methods checked, the instances and the report's header
    (``__init__``), what a resumed report backs (``resume``), the runs, the reference runs,
    every report saved after each finished run."""

    def __init__(
        self, problem: str, items: Sequence[SuiteItem], methods: Sequence[Any], settings: ComparisonSettings
    ) -> None:
        self.problem, self.settings = problem, settings
        refs = [
            resolve(problem, m.name if isinstance(m, MethodSpec) else m) for m in methods
        ]  # before any work
        self.specs = [
            m if isinstance(m, MethodSpec) else MethodSpec(ref.name)
            for m, ref in zip(methods, refs, strict=True)
        ]
        if (twice := duplicate_row_name(self.specs)) is not None:
            raise InvalidArgument(f"methods: {twice}")
        # an option a method does not take: refused before any work
        for spec, ref in zip(self.specs, refs, strict=True):
            ref.facts.check_options(dict(spec.options))
        self.ref_of = {
            spec.row_name: declared(ref, spec.exact) for spec, ref in zip(self.specs, refs, strict=True)
        }
        s = settings
        self.experiment = Experiment(
            problem,
            tuple(s.suites) if s.suites else (SuiteSpec(GIVEN),),
            tuple(self.specs),
            time_limit=None if s.time_limit is None else float(s.time_limit),
            wall_limit=None if s.wall_limit is None else float(s.wall_limit),
            repeat=s.repeat,
            seed=s.seed,
            workers=s.workers,
        )
        self.items = unique_items(
            [
                item if item.sha256 else dataclasses.replace(item, sha256=instance_hash(item.instance))
                for item in items
            ]
        )
        records = instance_records(self.items)
        self.header = report_header(self.experiment.to_dict(), records, command=s.command, methods=refs)
        self.answers, self.outputs = s.answer_folder, s.outputs
        self.tasks = [
            self.task(item, spec, k) for item in self.items for spec in self.specs for k in range(s.repeat)
        ]
        self.known = {item.name: item.known_optimum for item in self.items if item.known_optimum is not None}
        self.next_save = 0.0

    def task(self, item: SuiteItem, spec: MethodSpec, repeat: int) -> Task:
        """The run of ``spec`` on ``item`` (a label names the rows of a sweep's variant)."""
        s = self.settings
        seed = self.experiment.run_seed(item.sha256, spec.row_name, repeat)
        answers = None if self.answers is None else os.fspath(self.answers)
        return Task(
            self.problem, item.instance, spec.row_name, s.time_limit, seed, repeat, item.size,
            item.known_optimum, s.wall_limit, answers, spec.options, item.sha256, self.ref_of[spec.row_name],
        )  # fmt: skip

    def resume(self) -> list[Task]:
        """The rows a resumed report's answers back, its references and warm-ups; the tasks left."""
        self.rows = resumable_rows(self.outputs, self.header, self.items)
        self.warmed_before = recorded_warmups(self.outputs) if self.rows else {}
        self.header["references"] = recorded_references(self.outputs, self.items) if self.rows else {}
        finished = {row.key for row in self.rows}
        return [task for task in self.tasks if task.key not in finished]

    def save(self, now: bool = True) -> None:
        """Every report written with the rows so far, their gaps and references noted; while runs
        arrive (``now`` False), only once the last write's cost is a thirtieth of the time since it
        (every row of a small report; 10,000 cheap rows are not written 10,000 times)."""
        began = time.perf_counter()
        if not now and began < self.next_save:
            return
        references = self.header["references"]
        note_references(self.rows, references, self.items)  # a partial report has its gaps too
        fill_gaps(self.rows, self.known, reference_values(references, self.items))
        warmed = {
            s.row_name: round(WARMED[self.problem, self.ref_of[s.row_name].name], 4)
            for s in self.specs
            if (self.problem, self.ref_of[s.row_name].name) in WARMED
        }
        self.header["warmup_s"] = {**self.warmed_before, **warmed}  # a resumed report keeps earlier ones
        for path in self.outputs:
            write_rows(self.rows, path, self.header)
        self.next_save = time.perf_counter() + 29 * (time.perf_counter() - began)

    def run(self) -> list[Row]:
        """The runs left, then the reference runs; the rows in the order of the tasks."""
        s = self.settings
        todo = self.resume()
        report = self.outputs[0] if self.outputs else None
        source = run_with_executor(todo, s.executor) if s.executor else run_isolated(todo, s.workers)
        total = len(self.tasks)
        wanted = in_notebook() if s.progress is None else s.progress
        bar = progress_display(self.problem, total, total - len(todo)) if wanted else None
        try:
            for row in source:
                if self.answers is not None:
                    row.answer = answer_link(self.answers, row.answer, report)
                self.rows.append(row)
                self.save(now=False)
                if bar is not None:
                    bar.advance(row)
                if s.on_row is not None:
                    s.on_row(row)
            if s.reference:  # gaps no listed method can give: one reference run per instance
                fill_gaps(self.rows, self.known)
                folder = None if self.answers is None else (self.answers / "references", report)
                references = self.header["references"]
                references.update(run_references(self.problem, self.items, self.rows, references, s, folder))
        finally:
            if bar is not None:
                bar.stop()
            close = getattr(source, "close", None)  # a generator's, stopping its runs
            if close is not None:
                close()
            order = {task.key: i for i, task in enumerate(self.tasks)}
            self.rows.sort(key=lambda row: order.get(row.key, len(order)))
            self.save()
        return self.rows


def run_references(
    problem: str,
    items: Sequence[SuiteItem],
    rows: list[Row],
    done: Mapping[str, Any],
    settings: ComparisonSettings,
    answers: tuple[Path, Any] | None = None,
) -> dict[str, Any]:
    """The reference runs of the instances whose verified answers still have no gap (and no
    reference run recorded in ``done``), each under the comparison's time and wall limits, on its
    executor or workers (``settings``), by the same run path as every run: instance hash -> its
    record. With ``answers`` (folder, report) each saves its answer file there and its record links it."""
    mine = grouped(rows, lambda row: row.instance)
    wanted = [item for item in items if item.sha256 not in done and needs_reference(mine.get(item.name, []))]
    folder = None if answers is None else os.fspath(answers[0])
    limits = (settings.time_limit, settings.wall_limit)
    tasks = [dataclasses.replace(reference_task(problem, item, *limits), answers=folder) for item in wanted]
    executor, workers = settings.executor, settings.workers
    run = run_with_executor(tasks, executor) if executor is not None else run_isolated(tasks, workers)
    records = {}
    for item, found in zip(wanted, _in_order(run, tasks), strict=True):
        records[item.sha256] = reference_record(found)
        if answers is not None:
            records[item.sha256]["answer"] = answer_link(answers[0], found.answer, answers[1])
    return records


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (an IPython shell that is not a terminal)."""
    import sys

    shell = getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()
    return type(shell).__name__ == "ZMQInteractiveShell"


def progress_display(problem: str, total: int, done: int = 0) -> Any:
    """The rich bar, or a plain text line in a notebook without ipywidgets (rich's notebook
    widget needs them)."""
    from knightcert.compare.summary import TextProgress, widgets_available

    if in_notebook() and not widgets_available():
        return TextProgress(problem, total, done)
    return ProgressBar(problem, total, done)


class ProgressBar:
    """A rich progress bar of a comparison: runs done out of ``total``, the last run's name (on
    ``console``, rich's default: standard output; ``transient``: gone once stopped)."""

    def __init__(
        self, problem: str, total: int, done: int = 0, console: Any = None, transient: bool = False
    ) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        self.bar = Progress(*columns, console=console, transient=transient)
        self.task = self.bar.add_task(f"compare {problem}", total=total, completed=done)
        self.bar.start()

    def advance(self, row: Row) -> None:
        """One more run finished."""
        from knightcert.compare.summary import shown

        self.bar.update(self.task, advance=1, description=shown(f"{row.instance} {row.method}"))

    def stop(self) -> None:
        """Show the final state and stop refreshing."""
        self.bar.stop()


#: The method that gives an instance its reference value when the comparison proved none:
#: exact, and its optimum certified by the checker (a tour found by ``auto`` is optimal).
REFERENCE_METHODS = {"path": "bfs", "jump": "bfs", "knights": "matching", "tour": "auto"}


def needs_reference(rows: Sequence[Row]) -> bool:
    """Whether a verified answer among an instance's ``rows`` has no gap, or a gap no certified
    optimum among them gives (nothing here certified the optimum: published and solvers' values are
    only cross-checks then); a certified tour is the optimum."""
    proved = any(r.certified and (r.status == "OPTIMAL" or r.problem == "tour") for r in rows)
    return not proved and any(r.verified and r.status in ("OPTIMAL", "FEASIBLE") for r in rows)


def reference_task(problem: str, item: SuiteItem, time_limit: float | None, wall_limit: float | None) -> Task:
    """The reference run of ``item`` (seed 0, repeat 0, the comparison's limits)."""
    method, limits = REFERENCE_METHODS[problem], (time_limit, 0, 0, item.size, None, wall_limit)
    return Task(problem, item.instance, method, *limits, sha256=item.sha256)


def _in_order(rows: Any, tasks: Sequence[Task]) -> list[Row]:
    """The rows of ``tasks`` in the order of the tasks (executors yield them as they finish)."""
    found = {row.instance: row for row in rows}
    return [found[task.name] for task in tasks]


def reference_record(row: Row) -> dict[str, Any]:
    """What the report keeps of a reference run."""
    value = certified_optimum(row)
    why = "" if value is not None else f"{row.method} gave {row.status}" + f" ({row.error})" * bool(row.error)
    return {
        "method": row.method,
        "status": row.status,
        "objective": row.objective,
        "certified": row.certified,
        "time_s": round(row.time_s, 4),
        "value": value,
        "why_none": why or None,
    }


def reference_values(
    references: Mapping[str, Mapping[str, Any]], items: Sequence[SuiteItem]
) -> dict[str, Any]:
    """Instance name -> certified reference value, from the report's ``references``."""
    by_hash = {item.sha256: item.name for item in items}
    return {
        by_hash[digest]: record["value"]
        for digest, record in references.items()
        if digest in by_hash and record.get("value") is not None
    }


def note_references(
    rows: Sequence[Row], references: Mapping[str, Mapping[str, Any]], items: Sequence[SuiteItem]
) -> None:
    """Say in each row's ``reference`` where its gap's reference value came from, or why it has none."""
    hashes = {item.name: item.sha256 for item in items}
    for row in rows:
        record = references.get(hashes.get(row.instance, ""))
        if record is None:
            row.reference = ""
        elif record.get("value") is not None:
            row.reference = f"reference run: {record['method']}, certified optimum {record['value']}"
        else:
            row.reference = f"no reference: {record.get('why_none')}"


def recorded_references(
    outputs: Sequence[str | os.PathLike[str]], items: Sequence[SuiteItem]
) -> dict[str, Any]:
    """The reference runs an existing report among ``outputs`` recorded (``{}`` when none), each
    kept only when its answer file re-checks to its value (others are run again, never trusted)."""
    by_hash = {item.sha256: item.instance for item in items}
    for path in resume_order(outputs):
        recorded = read_header(path).get("references")
        kept = {}
        for digest, record in (recorded if isinstance(recorded, dict) else {}).items():
            if digest in by_hash and reference_backed(record, path.parent, by_hash[digest]):
                kept[digest] = record
        return kept
    return {}


def recorded_warmups(outputs: Sequence[str | os.PathLike[str]]) -> dict[str, float]:
    """The warm-up seconds an existing report among ``outputs`` recorded (``{}`` when none)."""
    for path in resume_order(outputs):
        recorded = read_header(path).get("warmup_s")
        return dict(recorded) if isinstance(recorded, dict) else {}
    return {}


#: Which existing report a run resumes from, best first (the Markdown one has rounded numbers).
RESUME_PREFERENCE = (".json", ".parquet", ".csv", ".md")


def resume_order(outputs: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The existing reports among ``outputs``, in the order of ``RESUME_PREFERENCE``."""
    existing = [Path(p) for p in outputs if Path(p).exists()]
    rank = {suffix: k for k, suffix in enumerate(RESUME_PREFERENCE)}
    return sorted(existing, key=lambda p: rank.get(p.suffix.lower(), len(rank)))


def declared(ref: MethodRef, exact: bool | None) -> MethodRef:
    """A foreign method with the kind its experiment declares (a built-in keeps its own)."""
    return dataclasses.replace(ref, exact=exact) if exact is not None and ref.foreign else ref


def instance_records(items: Sequence[SuiteItem]) -> list[dict[str, Any]]:
    """What a report records of each instance: name, content hash, size, known optimum, and the
    suite, fraction of holes and generator seed it comes from (``None`` where they do not apply)."""
    fields = ("sha256", "size", "known_optimum", "suite", "holes", "generator_seed")
    records = [{"name": item.name, **{field: getattr(item, field) for field in fields}} for item in items]
    return [record | {"suite": record["suite"] or None} for record in records]


def resumable_rows(
    outputs: Sequence[str | os.PathLike[str]], header: Mapping[str, Any], items: Sequence[SuiteItem] = ()
) -> list[Row]:
    """Finished runs of the same experiment in the existing reports among ``outputs``.

    Every existing report, whatever its format, must hold the same experiment;
    the runs come from the first one in ``RESUME_PREFERENCE`` order, and only those their
    answers back count (:func:`resume_split`): a run without its answer, or edited, is run again.

    Raises
    ------
    ExperimentMismatch
        An existing report holds a different experiment, or records none (a
        CSV without its ``.meta.json`` sidecar, a file written by an older
        knightcert); the message names the file and the first difference.
    """
    return resume_split(outputs, header, items)[0]


def resume_split(
    outputs: Sequence[str | os.PathLike[str]], header: Mapping[str, Any], items: Sequence[SuiteItem] = ()
) -> tuple[list[Row], list[Row]]:
    """``(backed, others)`` runs of the report a run resumes: only runs whose answer files re-check
    against the instances ``items`` count as finished (:mod:`knightcert.compare.rechecked`); the
    others (no answer file, edited) are run again. Checks the experiment like :func:`resumable_rows`."""
    existing = resume_order(outputs)
    for path in existing:
        reason = same_experiment(recorded := read_header(path), header) or changed_code(recorded, header)
        if reason is not None:
            raise ExperimentMismatch(
                f"{path} holds a different experiment ({reason}); "
                "give another --out, or --new-file to write beside it"
            )
    if not existing:
        return [], []
    instances = {item.name: item.instance for item in items}
    return backed_rows(read_rows(existing[0]), existing[0].parent, instances)


def changed_code(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> str | None:
    """What code changed since a report's runs ran (a resume would mix two programs in one
    report that names one): knightcert's source (``source_sha256``) or a foreign method's files."""
    old, new = _code(recorded), _code(current)
    changed = [what for what in old if None not in (old[what], new.get(what)) and old[what] != new[what]]
    return f"{changed[0]} changed since its runs" if changed else None


def _code(header: Mapping[str, Any]) -> dict[str, Any]:
    environment, files = header.get("environment"), header.get("method_files")
    source = environment.get("source_sha256") if isinstance(environment, Mapping) else None
    methods = {f"the files of {name}": v for name, v in files.items()} if isinstance(files, Mapping) else {}
    return {"knightcert's source (source_sha256)": source, **methods}


def free_path(path: str | os.PathLike[str]) -> Path:
    """``path`` if it does not exist, else the first free ``name-2.ext``, ``name-3.ext``, ..."""
    target = Path(path)
    k = 2
    while target.exists():
        target = Path(path).with_name(f"{Path(path).stem}-{k}{Path(path).suffix}")
        k += 1
    return target
