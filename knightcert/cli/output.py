"""Writing results: JSON, the one-line summaries, what backs each claim, and answer files."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

from knightcert.problems.result import Backing, Evidence, Result, Status

__all__ = [
    "REDIRECTED_TABLE_WIDTH",
    "answer_exit",
    "backing_text",
    "check_suffix",
    "claim_text",
    "evidence_for",
    "exit_code",
    "export_proof",
    "keep_answer",
    "print_json",
    "run_and_keep",
    "solve_files",
    "stopped_text",
    "table_console",
]

#: Width of tables written to a file or a pipe: a summary of eleven short columns fits
#: unfolded; longer cells (errors, long instance names) still fold past it.
REDIRECTED_TABLE_WIDTH = 160


def table_console():  # -> rich.console.Console
    """The console that prints result tables: the terminal's width, or
    ``REDIRECTED_TABLE_WIDTH`` when the output is not a terminal."""
    from rich.console import Console

    return Console(width=None if Console().is_terminal else REDIRECTED_TABLE_WIDTH)


def print_json(results: Sequence[Result], stream: TextIO | None = None) -> None:
    """One JSON object for one result, a list for several."""
    import numpy as np

    out: TextIO = stream or sys.stdout
    payload = [r.to_dict(arrays=True) for r in results]
    arrays = {}
    for i, record in enumerate(payload):  # tours as (n, 2) arrays: written by the fast formatter
        if isinstance(record.get("solution"), np.ndarray):
            arrays[f'"__knightcert_array_{i}__"'] = record["solution"]
            record["solution"] = f"__knightcert_array_{i}__"
    import json  # only here: 2.5 ms a command without --json spares

    text = json.dumps(payload[0] if len(payload) == 1 else payload, indent=None)
    for marker, squares in arrays.items():
        head, text = text.split(marker, 1)
        out.write(head)
        from knightcert.cli.tour_output import squares_json

        out.writelines(squares_json(squares))
    print(text, file=out)


def check_suffix(result: Result) -> str:
    """`` [NOT VERIFIED: why]`` for a rejected answer, else nothing."""
    if result.verified or "check_error" not in result.info:
        return ""
    return f" [NOT VERIFIED: {result.info['check_error']}]"


def stopped_text(result: Result) -> str:
    """``, <why it stopped>`` for an answer that stopped without one (a program's failure, a
    limit), or ``""``."""
    stopped = result.record.stopped
    return f", {stopped}" if stopped else ""


def exit_code(results: Sequence[Result]) -> int:
    """1 when a checker rejected an answer; else 5, 4 or 3 when a method ran out of memory, was
    killed or crashed (``record.failure``, the first such run's); else 0 (solved, or no answer
    in time)."""
    from knightcert.cli import session

    if any("check_error" in r.info for r in results):
        return session.EXIT_FAILED_CHECK
    failures = [session.FAILURE_EXITS[r.record.failure] for r in results if r.record.failure is not None]
    return failures[0] if failures else session.EXIT_OK


def evidence_for(result: Result, claim: str) -> Evidence | None:
    """The evidence of ``claim`` (``"optimal"``, ``"infeasible"``, ``"bound"``, ``"answer"``), if any."""
    return next((e for e in result.evidence if e.claim == claim), None)


def backing_text(evidence: Evidence | None) -> str:
    """``certified: matching (Kőnig)`` / ``by CP-SAT; not independently certified`` / ``unproven``.

    Examples
    --------
    >>> backing_text(Evidence("optimal", Backing.CERTIFICATE, "distance labelling"))
    'certified: distance labelling'
    >>> backing_text(Evidence("optimal", Backing.SOLVER, "CP-SAT"))
    'by CP-SAT; not independently certified'
    """
    if evidence is None or evidence.backing is Backing.NONE:
        return "unproven"
    if evidence.certified:
        return f"certified: {evidence.how}"
    name, _, detail = evidence.how.partition("; ")
    return f"by {name}; not independently certified" + (f" ({detail})" if detail else "")


def claim_text(result: Result) -> str:
    """What the status claims and what backs it, in words, for the CLI lines.

    ``optimal, certified: matching (Kőnig)``; ``optimal by CP-SAT; not
    independently certified``; ``none exists, certified: Schwenk (1991) ...``;
    ``FEASIBLE, not proven optimal``; ``FEASIBLE, at most 18 (certified: matching (Kőnig))``.
    """
    if "check_error" in result.info and result.status in (Status.OPTIMAL, Status.INFEASIBLE):
        return "claimed " + ("optimal" if result.status is Status.OPTIMAL else "none exists")
    if result.status in (Status.OPTIMAL, Status.INFEASIBLE):
        optimal = result.status is Status.OPTIMAL
        claim = "optimal" if optimal else "none exists"
        text = backing_text(evidence_for(result, "optimal" if optimal else "infeasible"))
        if text == "unproven":  # a foreign method's word: never shown as a proof
            return f"claimed {claim}; unproven"
        return claim + (", " + text if text.startswith("certified") else " " + text)
    words = {"path": "at least", "jump": "at least", "knights": "at most", "tour": "at most"}
    if result.bound is not None:
        bound = f"{words.get(result.problem, 'bound')} {result.bound}"
        return f"{result.status.value}, {bound} ({backing_text(evidence_for(result, 'bound'))})"
    return f"{result.status.value}, not proven optimal" if result.status is Status.FEASIBLE else "UNKNOWN"


def solve_files(args: Any, problem: str, read: Any) -> tuple[list[Any], list[Result], bool]:
    """Read every FILE first (all errors before any output), solve each, ``--save`` the answer.

    Returns the instances, the results finished so far (each certified) and whether an
    interrupt stopped the loop (the caller prints what it has, then exits 130).

    Raises
    ------
    InvalidArgument
        ``--save`` with more than one FILE (an answer file holds one answer).
    InstanceTooLarge
        A board whose memory estimate for the method exceeds the memory available.
    """
    from knightcert.cli.options import method_options
    from knightcert.cli.session import solve_each
    from knightcert.cli.watched import run_watched
    from knightcert.problems.errors import InvalidArgument
    from knightcert.solving import prepare

    for option in ("save", "svg", "png"):
        if getattr(args, option, None) and len(args.files) > 1:
            raise InvalidArgument(f"--{option} writes one answer: give one FILE")
    instances = [read(path) for path in args.files]
    given = method_options(args.option)
    refs = {id(i): prepare(problem, args.method, i, given)[0] for i in instances}  # all before any work

    def solve(instance: Any, **options: Any) -> Result:
        # --time-limit bounds the whole command: each instance gets what is left of it, a built-in
        # overrunning it is stopped (knightcert.cli.watched); the answer reported is checked
        ref = refs[id(instance)]
        return run_watched(problem, ref, instance, time_limit=args.time_limit, options=given, **options)

    results, interrupted = solve_each(solve, instances, seed=args.seed)
    if results and not interrupted:
        keep_answer(args, problem, instances[0], results[0], given, args.files[0])
    return instances, results, interrupted


def run_and_keep(args: Any, problem: str, instance: Any, options: dict[str, Any]) -> Result:
    """The one run path of a single instance (options checked, fit, the budget kept: a built-in
    overrunning it is stopped, :mod:`knightcert.cli.watched`; the answer reported is checked),
    then its pictures and answer file (:func:`keep_answer`)."""
    from knightcert.cli.watched import run_watched

    result = run_watched(
        problem, args.method, instance, time_limit=args.time_limit, seed=args.seed, options=options
    )
    keep_answer(args, problem, instance, result, options, args.board)
    return result


def keep_answer(
    args: Any, problem: str, instance: Any, result: Result, options: dict[str, Any], instance_path: str | None
) -> None:
    """``--svg``, ``--png``: the pictures of ``result``; ``--save``: its answer file, with the time
    limit, seed and method ``options`` it was solved with."""
    from knightcert.cli.picture import write_pictures

    write_pictures(args, problem, instance, result)
    if args.save is None:
        return
    from knightcert.problems.answers import write_answer

    parameters = {"time_limit": args.time_limit, "seed": args.seed, **options}
    write_answer(args.save, result, instance, parameters=parameters, instance_path=instance_path)


def answer_exit(result: Result) -> int:
    """The exit code of a command that printed ``result``, after Ctrl-C the best answer so far:
    then 130 (:class:`KeyboardInterrupt`)."""
    from knightcert.cli.session import stop_requested

    if stop_requested():
        raise KeyboardInterrupt
    return exit_code([result])


def export_proof(folder: str | None, result: Result, instance: Any, *, quiet: bool = False) -> None:
    """``--export-proof``: where ``result``'s checked evidence is a clausal proof, write it and
    its formula into ``folder`` (:func:`~knightcert.problems.checkers.lrat_files.export_proof`);
    say what was written, or that there was nothing to write (on stderr when ``quiet``: the
    standard output is JSON)."""
    if folder is None:
        return
    from knightcert.problems.checkers.lrat_files import export_proof as write_files

    entry = (result.certificate or {}).get("drat")
    proven = any(e.backing is Backing.PROOF for e in result.evidence)
    if entry is None or not proven:
        line = f"--export-proof: nothing written to {folder}: no claim rests on a clausal proof"
    else:
        line = write_files(instance.board, entry, folder, getattr(instance, "fixed", ()))
    print(line, file=sys.stderr if quiet else sys.stdout)
