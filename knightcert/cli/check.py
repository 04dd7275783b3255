"""``knightcert check``: re-check a saved answer without solving."""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import replace
from typing import Any

from knightcert.cli.commands import HELP
from knightcert.cli.options import SIDE_FLAGS, add_export_proof, add_side_arguments, square
from knightcert.cli.output import backing_text, export_proof
from knightcert.cli.picture import add_picture_arguments, write_pictures
from knightcert.cli.session import EXIT_FAILED_CHECK, EXIT_OK
from knightcert.cli.text import printable, theirs
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.result import Result

__all__ = ["add_parser", "load_instance", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "check",
        help=HELP["check"],
        description="Re-check every claim of an answer file against an instance, with the independent "
        "checker only. Exit 0: every claim certified (claims resting only on a solver are listed, "
        "and fail only with --strict); 1: a claim is rejected; 2: bad input.",
    )
    parser.add_argument(
        "instance",
        metavar="INSTANCE",
        help="the instance file (knights, tour: a board file or ROWSxCOLS, with --torus, --closed, "
        "--start, --end as when it was solved), or '-' for the instance embedded in the answer",
    )
    parser.add_argument("answer", metavar="ANSWER", help="answer file (--save), or FILE.jsonl#N (--answers)")
    parser.add_argument("--torus", action="store_true", help="knights, tour: the board wraps on both axes")
    parser.add_argument("--closed", action="store_true", help="tour: a closed tour")
    parser.add_argument("--start", type=square, metavar="R,C", help="tour: the fixed first square")
    parser.add_argument("--end", type=square, metavar="R,C", help="tour: the fixed last square")
    for problem in ("knights", "tour", "path"):  # the side constraints, as when it was solved
        add_side_arguments(parser, problem)
    parser.add_argument("--json", action="store_true", help="JSON report")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a claim rests only on a solver")
    add_picture_arguments(parser, certificate=True)
    add_export_proof(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from knightcert.problems.answers import check_answer, instance_for_answer, read_answer

    data = read_answer(args.answer)
    instance = load_instance(args.instance, data, args)
    try:
        result = check_answer(instance, data)
    except CheckFailed as exc:
        return _report(args, data, None, exc)
    checked_against = instance_for_answer(data, instance)
    write_pictures(args, result.problem, checked_against, result)
    code = _report(args, data, result, None)
    if args.export_proof is not None:
        export_proof(args.export_proof, result, checked_against, quiet=args.json)
    return code


def load_instance(spec: str, data: dict[str, Any], args: argparse.Namespace | None = None) -> Any:
    """The instance named on the command line (``None`` for ``-``: the answer's own).

    Only the command line describes it: its flags (``--torus``, ``--closed``, ``--start``,
    ``--end``) are the user's, never read from the answer, which is then compared with it.
    """
    from knightcert.problems.answers import AnswerFileError
    from knightcert.problems.errors import InvalidArgument
    from knightcert.problems.side_constraints import SIDE_FIELDS

    problem = data.get("problem")
    takes = {"knights": ("torus",), "tour": ("torus", "closed", "start", "end")}.get(str(problem), ())
    takes += SIDE_FIELDS.get(str(problem), ())
    named = {dest: flag[2:] for flags in SIDE_FLAGS.values() for flag, dest, *_ in flags}
    for key in ("torus", "closed", "start", "end", *named):  # given, unread
        if getattr(args, key, None) and (spec == "-" or key not in takes):
            why = "with '-' (the answer's instance is checked)" if spec == "-" else f"to a {problem} answer"
            raise InvalidArgument(f"--{named.get(key, key)} does not apply {why}")
    if spec == "-":
        return None
    flags: dict[str, Any] = {key: bool(getattr(args, key, False)) for key in ("torus", "closed")}
    flags |= {key: getattr(args, key, None) for key in ("start", "end")}
    sides: dict[str, Any] = {k: getattr(args, k, None) or () for k in SIDE_FIELDS.get(str(problem), ())}
    if problem == "path":
        from knightcert.problems.lost_knight import read_lost_knight

        return replace(read_lost_knight(spec), **sides)
    if problem == "jump":
        from knightcert.problems.jump_game import read_jump

        return read_jump(spec)
    size = re.fullmatch(r"(\d+)(?:x(\d+))?", spec)
    rows, cols = (int(size[1]), int(size[2] or size[1])) if size else (None, None)
    board_file = None if size else spec
    if problem == "knights":
        from knightcert.problems.independent_knights import knights_instance

        return knights_instance(rows, cols, torus=flags["torus"], board_file=board_file, **sides)
    if problem == "tour":
        from knightcert.problems.tours import tour_instance

        return tour_instance(rows, cols, board_file=board_file, **flags, **sides)
    raise AnswerFileError(f"problem: {problem!r} is not a knightcert problem")


def _report(args: argparse.Namespace, data: dict, result: Result | None, failure: CheckFailed | None) -> int:
    name = args.answer
    if failure is not None:
        code = EXIT_FAILED_CHECK
        if args.json:
            _dump(data, None, {"claim": failure.claim, "reason": failure.reason}, [], code)
        else:
            print(printable(f"{name}: {failure.describe()}"))
        return code
    assert result is not None
    solver_only = [e.claim for e in result.evidence if not e.certified]
    code = EXIT_FAILED_CHECK if args.strict and solver_only else EXIT_OK
    if args.json:
        _dump(data, result, None, solver_only, code)
        return code
    # the verdict first, knightcert's own words; the method's and instance's names after it,
    # quoted as theirs: a name such as "x: every claim certified" cannot open the line
    what = f"method {theirs(result.method or 'answer')} {result.status.value}" + (
        "" if result.objective is None else f" {result.objective}"
    )
    if not result.evidence:
        verdict = "nothing claimed (no answer)"
    elif solver_only:
        verdict = f"{', '.join(solver_only)}: solver only, not independently certified"
    else:
        verdict = "every claim certified"
    fingerprint = ""
    if args.instance == "-":  # everything printed about the instance comes from the data checked
        from knightcert.problems.answers import instance_for_answer, instance_sha256

        fingerprint = f" (sha256 {instance_sha256(instance_for_answer(data))[:16]})"
    print(printable(f"{name}: {verdict}: {what} on {theirs(result.instance)}{fingerprint}"))
    for evidence in result.evidence:
        print(printable(f"  {evidence.claim}: {backing_text(evidence)}"))
    stated = [_untimed(e) for e in data.get("evidence") or [] if isinstance(e, dict)]
    found = [_untimed(e.to_dict()) for e in result.evidence]
    if stated and stated != found:
        print("  (the file stated other evidence; the lines above are the re-check's, the file's is ignored)")
    return code


def _untimed(evidence: dict) -> dict:
    """``evidence`` without the time a check took (``checked in 23.1 s``), which differs run to run."""
    how = evidence.get("how")
    return {**evidence, "how": re.sub(r", checked in [0-9.]+ s", "", how)} if type(how) is str else evidence


def _dump(
    data: dict, result: Result | None, rejected: dict | None, solver_only: list[str], code: int
) -> None:
    report = {
        "problem": data.get("problem"),
        "instance": None if result is None else result.instance,
        "method": data.get("method"),
        "status": data.get("status"),
        "objective": data.get("objective") if isinstance(data.get("objective"), int) else None,
        "verified": bool(result and result.verified),
        "certified": bool(result and result.certified),
        "evidence": [] if result is None else [e.to_dict() for e in result.evidence],
        "solver_only": solver_only,
        "rejected": rejected,
        "exit": code,
    }
    json.dump(report, sys.stdout)
    sys.stdout.write("\n")
