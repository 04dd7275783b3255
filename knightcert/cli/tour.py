"""``knightcert tour``: knight's tours."""

from __future__ import annotations

import argparse

from knightcert.cli.commands import HELP
from knightcert.cli.count import add_count_arguments, run_count
from knightcert.cli.options import (
    add_board_arguments,
    add_export_model,
    add_side_arguments,
    add_solver_arguments,
    export_model,
    method_options,
    node_budget,
    square,
)
from knightcert.cli.output import (
    answer_exit,
    backing_text,
    check_suffix,
    evidence_for,
    print_json,
    run_and_keep,
)
from knightcert.cli.picture import add_picture_arguments
from knightcert.cli.tour_output import numbered_text
from knightcert.problems.errors import InvalidArgument
from knightcert.problems.result import Result, Status
from knightcert.problems.tours import TourInstance, format_mostra, numbered, tour_instance
from knightcert.registry import default_method

__all__ = ["add_parser", "render", "run", "save_npy", "summary"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "tour",
        help=HELP["tour"],
        description="A knight's tour of the board (seeds 001 and 003): the numbered board, or 'No'.",
    )
    add_board_arguments(parser)
    parser.add_argument("--closed", action="store_true", help="the last square must be a move from the first")
    parser.add_argument("--start", type=square, metavar="R,C", help="first square (0-indexed)")
    parser.add_argument("--end", type=square, metavar="R,C", help="last square of an open tour (0-indexed)")
    parser.add_argument("--torus", action="store_true", help="the board wraps on both axes")
    add_side_arguments(parser, "tour")
    add_solver_arguments(
        parser,
        "tour",
        fixed_default=False,
        time_help="seconds for the whole command",
        method_help=f"solving method (default: {default_method('tour')}: theorem, construction, then search; "
        "cpsat with a side constraint)",
    )
    parser.add_argument(
        "--budget",
        type=node_budget,
        metavar="NODES",
        help="node budget of the Warnsdorff backtracking (default 2000000); "
        f"{taking('budget')} only (another method refuses it)",
    )
    parser.add_argument(
        "--no-backtracking",
        action="store_true",
        help=f"pure Warnsdorff: stop at the first dead end; {taking('backtracking')} only",
    )
    parser.add_argument("--show", action="store_true", help="print a summary line above the board")
    add_export_model(parser)
    parser.add_argument(
        "--npy",
        metavar="FILE",
        help="write the tour as an (n, 2) int32 NumPy array of [row, col] squares (the fastest output) "
        "and print only the summary line",
    )
    add_count_arguments(parser, "the tours under the flags given (directed and undirected)")
    add_picture_arguments(parser)
    parser.set_defaults(run=run)


def taking(option: str) -> str:
    """The tour methods that take ``option``, from their specifications (knightcert/specs.py)."""
    from knightcert.specs import FACTS

    return ", ".join(name for name, facts in FACTS["tour"].items() if option in facts.option_names())


def run(args: argparse.Namespace) -> int:
    # the instance's fields, each from the flag of the same name
    names = ("closed", "start", "end", "torus", "visits", "forbidden_moves", "required_moves")
    fields = {name: getattr(args, name) for name in names}
    instance = tour_instance(args.rows, args.cols, board_file=args.board, **fields)
    if args.count or args.all:
        return run_count(args, [instance])
    if args.export_model:
        return export_model(args.export_model, instance)
    args.method = args.method or default_method("tour", instance)
    # given only when asked for: a method that does not take one refuses it
    options = method_options(args.option)
    given = {"budget": args.budget, "backtracking": False if args.no_backtracking else None}
    given = {name: value for name, value in given.items() if value is not None}
    if clash := sorted(given.keys() & options.keys()):
        raise InvalidArgument(f"--option {clash[0]}=... and its own flag both given: give one of them")
    options.update(given)
    result = run_and_keep(args, "tour", instance, options)
    if args.json:
        print_json([result])
    elif args.npy:
        if result.solution is not None:
            save_npy(args.npy, result.solution)
        print(summary(instance, result))
    else:
        if args.show:
            print(summary(instance, result))
        print(render(instance, result, args.time_limit), end="")
    return answer_exit(result)


def render(instance: TourInstance, result: Result, time_limit: float | None = None) -> str:
    """The numbered board (seed 003's layout for cenpl), ``No``, or why there is no answer."""
    if result.status is Status.INFEASIBLE:
        if check_suffix(result):
            return f"No{check_suffix(result)}\n"
        evidence = evidence_for(result, "infeasible")
        named = instance.visits or instance.forbidden_moves or instance.required_moves  # a variant: say why
        note = (
            "" if evidence is None or (evidence.certified and not named) else f"# {backing_text(evidence)}\n"
        )
        return f"No\n{note}"
    if result.solution is None:
        ran_out = time_limit is not None and result.time >= 0.9 * time_limit  # said only when true
        limit = f"no answer within the time limit of {time_limit:g} s" if ran_out else "no reason given"
        why = result.record.stopped or limit
        return f"no tour found ({result.method}: {result.status.value}, {why})\n"
    if result.method == "cenpl":
        text = format_mostra(numbered(instance.board, result.solution))
    else:
        text = numbered_text(instance.board, result.solution, start=1) + "\n"
    return text + (check_suffix(result).strip() + "\n" if check_suffix(result) else "")


def save_npy(path: str, squares) -> None:
    """Write ``squares`` as an (n, 2) int32 ``.npy`` file, all or nothing.

    Raises
    ------
    InvalidArgument
        The file cannot be written (the message names it).
    """
    import numpy as np

    from knightcert.problems.output_file import atomic_output

    with atomic_output(path, binary=True) as stream:  # created exclusively, renamed: no link followed
        np.save(stream, np.asarray(squares, dtype=np.int32))


def summary(instance: TourInstance, result: Result) -> str:
    nodes = "" if result.nodes is None else f", {result.nodes} node{'s' * (result.nodes != 1)}"
    backtracks = result.info.get("backtracks")
    extra = "" if backtracks is None else f", {backtracks} backtracks"
    rule = f" ({result.info['rule']})" if "rule" in result.info else ""
    return (
        f"{instance.name}: {result.method}{rule} {result.status.value}, {result.time:.3f} s{nodes}{extra}, "
        f"verified: {'yes' if result.verified else 'no' if 'check_error' in result.info else 'no answer'}"
        + "".join(f"; {e.claim} {backing_text(e)}" for e in result.evidence if e.claim != "answer")
    )
