"""``knightcert instance``: write a seeded random instance in the project's text format.

What a foreign program (``exec:COMMAND``) or a colleague's solver reads: the
same instances the random suites of ``knightcert compare`` make.
"""

from __future__ import annotations

import argparse
import sys

from knightcert.cli.commands import HELP
from knightcert.cli.options import board_size, player_count, seed_value
from knightcert.problems.instance_files import DEFAULT_HOLES, DEFAULT_PLAYERS, SUFFIX

__all__ = ["MAX_SQUARES", "add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "instance",
        help=HELP["instance"],
        description="Write a seeded random instance on standard output, in the format the other "
        "commands read: a lost-knight board, a jump game, or a board file for knights and tours. "
        "The same instance as the random suite of 'knightcert compare' with that size, holes and seed.",
    )
    parser.add_argument("problem", choices=list(SUFFIX), help="which problem")
    parser.add_argument("rows", type=board_size, metavar="ROWS", help="board rows")
    parser.add_argument("cols", nargs="?", type=board_size, metavar="COLS", help="columns (default ROWS)")
    parser.add_argument(
        "--holes",
        type=float,
        metavar="P",
        help="share of blocked squares in [0, 1) (default: "
        + ", ".join(f"{problem} {share:g}" for problem, share in DEFAULT_HOLES.items())
        + ")",
    )
    parser.add_argument("--seed", type=seed_value, default=0, help="generator seed (default 0)")
    parser.add_argument(
        "--players",
        type=player_count,
        default=DEFAULT_PLAYERS,
        help=f"players of a jump game (default {DEFAULT_PLAYERS})",
    )
    parser.add_argument("--json", action="store_true", help="the instance's canonical JSON (every field)")
    parser.set_defaults(run=run)


#: Largest board this command writes (squares): 100 MB of text.
MAX_SQUARES = 10**8


def run(args: argparse.Namespace) -> int:
    import json

    from knightcert.problems.errors import InstanceTooLarge
    from knightcert.problems.instance_files import format_instance, random_instance

    cols = args.rows if args.cols is None else args.cols
    if args.rows * cols > MAX_SQUARES:
        raise InstanceTooLarge(f"{args.rows} x {cols} is above the limit of {MAX_SQUARES:,} squares")
    instance = random_instance(
        args.problem, args.rows, cols, holes=args.holes, seed=args.seed, players=args.players
    )
    if args.json:
        from knightcert.problems.answers import instance_to_data

        json.dump({"problem": args.problem, "name": instance.name, **instance_to_data(instance)}, sys.stdout)
        print()
    else:
        sys.stdout.write(format_instance(instance))
    return 0
