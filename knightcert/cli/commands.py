"""The subcommands of ``knightcert`` and their one-line help, in the order ``--help`` lists them.

The dispatcher (:mod:`knightcert.cli.main`) imports only the module of the
command being run, so ``knightcert --help`` and a small command load nothing
they do not use; each command module takes its help line from here.
"""

from __future__ import annotations

HELP: dict[str, str] = {
    "demo": "run every seed problem, heuristics against exact methods, and print a summary",
    "compare": "run methods side by side on a suite; gaps, times, memory, all answers checked",
    "report": "statistics of a compare report: per group runs, success, gap with 95 %% CI, time, memory",
    "path": "fewest knight moves from C to S on a toroidal board",
    "jump": "who wins the jump game",
    "knights": "most knights that attack no other",
    "tour": "open or closed knight's tours",
    "check": "re-check a saved answer (from --save) without solving",
    "instance": "write a seeded random instance (for your own method)",
}
