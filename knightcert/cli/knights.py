"""``knightcert knights``: independent knights."""

from __future__ import annotations

import argparse

from knightcert.cli.commands import HELP
from knightcert.cli.count import add_count_arguments, run_count
from knightcert.cli.options import (
    add_board_arguments,
    add_export_model,
    add_export_proof,
    add_side_arguments,
    add_solver_arguments,
    export_model,
    method_options,
)
from knightcert.cli.output import (
    answer_exit,
    check_suffix,
    claim_text,
    export_proof,
    print_json,
    run_and_keep,
    stopped_text,
)
from knightcert.cli.picture import add_picture_arguments
from knightcert.cli.text import printable
from knightcert.problems.independent_knights import KnightsInstance, knights_instance
from knightcert.problems.result import Result, Status
from knightcert.registry import default_method
from knightcert.specs import DEFAULTS

__all__ = ["add_parser", "describe", "draw", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "knights",
        help=HELP["knights"],
        description="Most knights on a board with none attacking another (seed 002).",
    )
    add_board_arguments(parser)
    parser.add_argument("--torus", action="store_true", help="the board wraps on both axes")
    add_side_arguments(parser, "knights")
    add_solver_arguments(
        parser,
        "knights",
        fixed_default=False,
        time_help="seconds for the whole command (cpsat, bnb, csp, greedy+, matching)",
        method_help=f"solving method (default: the first of {', '.join(DEFAULTS['knights'])} that applies: "
        f"{default_method('knights')} on a bipartite board, cpsat on a torus with an odd side)",
    )
    parser.add_argument("--show", action="store_true", help="draw the board: K knight, . empty, x removed")
    add_export_model(parser)
    add_count_arguments(parser, "the placements of the maximum number of knights")
    add_picture_arguments(parser, certificate=True)
    add_export_proof(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    instance = knights_instance(
        args.rows, args.cols, torus=args.torus, board_file=args.board, fixed=args.fixed
    )
    if args.count or args.all:
        return run_count(args, [instance])
    if args.export_model:
        return export_model(args.export_model, instance)
    # the one run path; no --method: the instance's default (cpsat on a torus with an odd side)
    result = run_and_keep(args, "knights", instance, method_options(args.option))
    if args.json:
        print_json([result])
    else:
        print(printable(f"{instance.name}: {describe(result)}{check_suffix(result)}"))
        if args.show and result.solution is not None:
            print(draw(instance, result.solution))
    export_proof(args.export_proof, result, instance, quiet=args.json)
    return answer_exit(result)


def describe(result: Result) -> str:
    """``18 knights (optimal, certified: matching (Kőnig))``, ``14 knights (optimal by CP-SAT;
    not independently certified)``, ``15 knights (greedy: FEASIBLE, not proven optimal)``."""
    if result.status is Status.INFEASIBLE:  # fixed knights that attack each other
        return f"no placement ({claim_text(result)})"
    if result.solution is None:
        return f"no answer ({result.method}: {result.status.value}{stopped_text(result)})"
    text = f"{result.objective} knight{'s' * (result.objective != 1)}"
    who = "" if result.status is Status.OPTIMAL else f"{result.method}: "
    return text + f" ({who}{claim_text(result)})"


def draw(instance: KnightsInstance, solution: list[list[int]]) -> str:
    """The board with K for knights, . for empty usable squares, x for removed ones."""
    board = instance.board
    rows = [["x" if board.blocked[r, c] else "." for c in range(board.cols)] for r in range(board.rows)]
    for r, c in solution:
        rows[r][c] = "K"
    return "\n".join("".join(row) for row in rows)
