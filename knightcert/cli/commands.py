"""The subcommands of ``knightcert`` and their one-line help, in the order ``--help`` lists them.

The dispatcher (:mod:`knightcert.cli.main`) imports only the module of the
command being run, so ``knightcert --help`` and a small command load nothing
they do not use; each command module takes its help line from here.
"""

from __future__ import annotations

__all__ = ["EXIT_CODES", "HELP"]

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

_SIGNALS = "130 interrupted (Ctrl-C); 143 stopped by SIGTERM"
#: How a method's run failed, each its own code (knightcert.cli.output.exit_code).
_FAILED = (
    "3 the method crashed (raised an error, exited, or its answer could not be read: a foreign "
    "method raising knightcert's own input errors included); 4 the method was killed by a signal; "
    "5 the method ran out of memory (its memory limit)"
)
_SOLVE = (
    "0 solved or no answer found in time, every answer checked; 1 an answer or claim was rejected by "
    f"the checker; 2 bad input or usage; {_FAILED}; {_SIGNALS}"
)
#: Exit codes of each command, shown at the end of its --help (and in the README).
EXIT_CODES: dict[str, str] = {
    "demo": f"0 every answer verified; 1 an answer was rejected by the checker; 2 bad usage; {_SIGNALS}",
    "compare": "0 every run finished and no answer was rejected (a crash or a timeout is a row with "
    "status UNKNOWN and its reason, not a failure: read the status column); 1 an answer was rejected "
    "by the checker; 2 bad input or usage, an --out report of another experiment, a report in use; "
    f"{_SIGNALS} (finished runs kept in the report)",
    "report": "0 the table (and plots) written; 2 a report cannot be read, or bad usage",
    "path": _SOLVE,
    "jump": _SOLVE,
    "knights": _SOLVE,
    "tour": _SOLVE,
    "check": "0 the answer holds (every claim certified, or checked); 1 the answer or a claim is "
    "rejected (with --strict also a claim backed only by a solver); 2 unreadable file or bad usage",
    "instance": "0 the instance was written; 2 bad options or an unwritable file",
}
