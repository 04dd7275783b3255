"""``knightcert jump``: the jump game."""

from __future__ import annotations

import argparse

from knightcert.cli.commands import HELP
from knightcert.cli.options import add_solver_arguments
from knightcert.cli.output import check_suffix, claim_text, exit_code, print_json, solve_files, stopped_text
from knightcert.cli.picture import add_picture_arguments
from knightcert.cli.text import printable
from knightcert.problems.jump_game import JumpInstance, read_jump
from knightcert.problems.result import Result

__all__ = ["add_parser", "explain", "print_answers", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "jump",
        help=HELP["jump"],
        description="Winner of the jump game (seed 004) for each FILE, in the official output format.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="instance files (N M / J / board / starts)")
    add_solver_arguments(
        parser, "jump", json_help="JSON output with a per-player table (rounds, tie key, path)"
    )
    parser.add_argument(
        "--explain", action="store_true", help="print every player's best path and the final round's order"
    )
    add_picture_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    instances, results, interrupted = solve_files(args, "jump", read_jump)
    if args.json:
        if results:
            print_json(results)
    else:
        print_answers(args, instances, results)
    if interrupted:
        raise KeyboardInterrupt  # after printing the answers found so far
    return exit_code(results)


def print_answers(args: argparse.Namespace, instances: list[JumpInstance], results: list[Result]) -> None:
    """The official output of each answered instance (``==> name <==`` headers for several)."""
    for inst, result in zip(instances, results, strict=False):
        if len(instances) > 1:
            print(f"==> {inst.name} <==")
        if result.solution is None:
            why = f"{result.status.value}{stopped_text(result)}"
            print(printable(f"no answer ({result.method}: {why}){check_suffix(result)}"))
            continue
        print(result.solution["output"], end="")
        if check_suffix(result) or not result.certified:
            print(printable(f"# {claim_text(result)}{check_suffix(result)}"))
        if args.explain:
            print(explain(inst, result))


def explain(instance: JumpInstance, result: Result) -> str:
    """Each player's fastest path and tie key, then the order of the deciding round."""
    solution = result.solution
    lines = [f"# {claim_text(result)}"]
    players = solution.get("players")
    if players is None:
        lines.append(f"({result.method} follows only the winner)")
        winner = {"player": solution["winner"], "rounds": solution["round"]}
        winner |= {"key": solution["key"], "path": solution["path"]}
        players = [winner] if solution["winner"] is not None else []
    for row in players:
        if row["rounds"] is None:
            lines.append(f"{row['player']}: never reaches the goal")
            continue
        key = "" if row["key"] is None else f", jump {row['key']} in round {row['rounds'] - 1}"
        path = " -> ".join(f"({r},{c})" for r, c in row["path"])
        lines.append(f"{row['player']}: {row['rounds']} round{'s' * (row['rounds'] != 1)}{key}: {path}")
    round_ = solution["round"]
    if round_ is None:
        lines.append("nobody reaches the goal: SEM VENCEDORES")
    elif round_ == 0:
        lines.append("round 0: players already on the goal win in input order")
    else:
        finishers = [row for row in players if row["rounds"] == round_]
        if round_ == 1:
            order = finishers
            rule = "round 1 is played in input order"
        else:
            order = sorted(finishers, key=lambda row: row["key"])  # stable: input order breaks ties
            rule = f"shorter jump in round {round_ - 1} moves first, ties in input order"
        names = ", ".join(
            row["player"] + ("" if row["key"] is None else f" (jump {row['key']})") for row in order
        )
        lines.append(f"round {round_}: players arriving, in move order ({rule}): {names}")
    return "\n".join(lines)
