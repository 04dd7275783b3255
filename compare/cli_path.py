"""``knightcert path``: the lost knight."""

from __future__ import annotations

import argparse

from knightcert.compare.arguments import add_solver_arguments
from knightcert.compare.cli import solve_each
from knightcert.compare.memory import check_fits
from knightcert.compare.output import check_suffix, exit_code, print_json
from knightcert.compare.registry import get_method
from knightcert.compare.render import numbered_board
from knightcert.problems.lost_knight import read_lost_knight
from knightcert.problems.result import Result, Status


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "path",
        help="fewest knight moves from C to S on a toroidal board",
        description="Fewest knight moves from C to S on toroidal boards read from FILEs.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="board files ('.', 'x', 'C', 'S')")
    add_solver_arguments(parser, "path", json_help="JSON output: one object, or a list for several files")
    parser.add_argument("--show", action="store_true", help="draw each board with the path numbered")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    instances = [read_lost_knight(path) for path in args.files]  # all errors before any output
    solve = get_method("path", args.method)
    for inst in instances:
        check_fits("path", args.method, inst)
    results, interrupted = solve_each(solve, instances, time_limit=args.time_limit, seed=args.seed)
    if args.json:
        if results:
            print_json(results)
    else:
        for inst, result in zip(instances, results, strict=False):
            print(f"{inst.name}: {describe(result)}{check_suffix(result)}")
            if args.show and result.solution is not None:
                print(numbered_board(inst.board, result.solution))
    if interrupted:
        raise KeyboardInterrupt  # after printing the answers found so far
    return exit_code(results)


def describe(result: Result) -> str:
    """``68 moves``, ``unreachable``, or what is known short of that."""
    if result.status is Status.INFEASIBLE:
        return "unreachable"
    if result.status is Status.UNKNOWN:
        bound = f", at least {result.bound} moves" if result.bound is not None else ""
        stopped = ", interrupted" if result.info.get("interrupted") else ""
        return f"no answer ({result.method}: UNKNOWN{bound}{stopped})"
    text = f"{result.objective} moves"
    if result.status is Status.FEASIBLE:
        text += f" ({result.method}: FEASIBLE, not proven shortest)"
    return text
