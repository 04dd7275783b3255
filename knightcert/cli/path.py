"""``knightcert path``: the lost knight."""

from __future__ import annotations

import argparse
from dataclasses import replace

from knightcert.cli.commands import HELP
from knightcert.cli.count import add_count_arguments, run_count
from knightcert.cli.options import add_export_model, add_side_arguments, add_solver_arguments, export_model
from knightcert.cli.output import check_suffix, claim_text, exit_code, print_json, solve_files, stopped_text
from knightcert.cli.picture import add_picture_arguments
from knightcert.cli.render import numbered_board
from knightcert.cli.text import printable
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.lost_knight import LostKnightInstance, read_lost_knight
from knightcert.problems.result import Result, Status

__all__ = ["add_parser", "describe", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "path",
        help=HELP["path"],
        description="Fewest knight moves from C to S on toroidal boards read from FILEs.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="board files ('.', 'x', 'C', 'S')")
    add_solver_arguments(parser, "path", json_help="JSON output: one object, or a list for several files")
    add_side_arguments(parser, "path")
    parser.add_argument("--show", action="store_true", help="draw each board with the path numbered")
    add_export_model(parser)
    add_count_arguments(parser, "the shortest paths")
    add_picture_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    def read(path: str) -> LostKnightInstance:
        instance = read_lost_knight(path)
        return replace(instance, via=tuple(args.via)) if args.via else instance

    if args.count or args.all:
        return run_count(args, [read(path) for path in args.files])
    if args.export_model:
        if len(args.files) != 1:
            raise InvalidArgument(f"--export-model: one FILE, not {len(args.files)}")
        return export_model(args.export_model, read(args.files[0]))
    instances, results, interrupted = solve_files(args, "path", read)
    if args.json:
        if results:
            print_json(results)
    else:
        for inst, result in zip(instances, results, strict=False):
            print(printable(f"{inst.name}: {describe(result)}{check_suffix(result)}"))
            if args.show and result.solution is not None:
                print(numbered_board(inst.board, result.solution))
    if interrupted:
        raise KeyboardInterrupt  # after printing the answers found so far
    return exit_code(results)


def describe(result: Result) -> str:
    """``68 moves (optimal, certified: distance labelling)``, ``unreachable (...)``, or what is
    known short of that."""
    if result.status is Status.INFEASIBLE:
        return f"unreachable ({claim_text(result).removeprefix('none exists').lstrip(', ')})"
    if result.status is Status.UNKNOWN:
        bound = f", {claim_text(result)}" if result.bound is not None else ""
        stopped = ", interrupted" if result.record.interrupted else stopped_text(result)
        return f"no answer ({result.method}: UNKNOWN{bound}{stopped})"
    text = f"{result.objective} move{'s' * (result.objective != 1)}"
    if result.status is Status.FEASIBLE:
        return (
            text
            + f" ({result.method}: {claim_text(result).replace('not proven optimal', 'not proven shortest')})"
        )
    return text + f" ({claim_text(result)})"
