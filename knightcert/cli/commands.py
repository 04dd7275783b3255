"""The subcommands of ``knightcert`` and their one-line help, in the order ``--help`` lists them.

The dispatcher (:mod:`knightcert.cli.main`) imports only the module of the
command being run, so ``knightcert --help`` and a small command load nothing
they do not use; each command module takes its help line from here.
"""

from __future__ import annotations

from knightcert.cli.session import (
    EXIT_CRASHED,
    EXIT_FAILED_CHECK,
    EXIT_INTERRUPTED,
    EXIT_KILLED,
    EXIT_OK,
    EXIT_OUT_OF_MEMORY,
    EXIT_TERMINATED,
    EXIT_USAGE,
)

__all__ = ["EXIT_CODES", "EXIT_SUMMARY", "HELP"]

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

_SIGNALS = f"{EXIT_INTERRUPTED} interrupted (Ctrl-C); {EXIT_TERMINATED} stopped by SIGTERM"
#: How a method's run failed, each its own code (knightcert.cli.output.exit_code).
_FAILED = (
    f"{EXIT_CRASHED} the method crashed (raised an error, exited, or its answer could not be read: a "
    f"foreign method raising knightcert's own input errors included); {EXIT_KILLED} the method was "
    f"killed by a signal; {EXIT_OUT_OF_MEMORY} the method ran out of memory (its memory limit)"
)
_SOLVE = (
    f"{EXIT_OK} solved or no answer found in time, every answer checked; {EXIT_FAILED_CHECK} an answer "
    f"or claim was rejected by the checker; {EXIT_USAGE} bad input or usage; {_FAILED}; {_SIGNALS}"
)
#: Exit codes of each command, shown at the end of its --help (and in the README).
EXIT_CODES: dict[str, str] = {
    "demo": f"{EXIT_OK} every answer verified; {EXIT_FAILED_CHECK} an answer was rejected by the checker; "
    f"{EXIT_USAGE} bad usage; {_SIGNALS}",
    "compare": f"{EXIT_OK} every run finished and no answer was rejected (a crash or a timeout is a row "
    "with status UNKNOWN and its reason, not a failure: read the status column); "
    f"{EXIT_FAILED_CHECK} an answer was rejected by the checker; {EXIT_USAGE} bad input or usage, an "
    f"--out report of another experiment, a report in use; {_SIGNALS} (finished runs kept in the report)",
    "report": f"{EXIT_OK} the table (and plots) written; {EXIT_USAGE} a report cannot be read, or bad usage",
    "path": _SOLVE,
    "jump": _SOLVE,
    "knights": _SOLVE,
    "tour": _SOLVE,
    "check": f"{EXIT_OK} the answer holds (every claim certified, or checked); {EXIT_FAILED_CHECK} the "
    "answer or a claim is rejected (with --strict also a claim backed only by a solver); "
    f"{EXIT_USAGE} unreadable file or bad usage",
    "instance": f"{EXIT_OK} the instance was written; {EXIT_USAGE} bad options or an unwritable file",
}
#: The exit codes of every command, in one line (the end of ``knightcert --help``).
EXIT_SUMMARY = (
    f"Exit codes: {EXIT_OK} done (every answer checked); {EXIT_FAILED_CHECK} an answer or claim was "
    f"rejected by the checker; {EXIT_USAGE} bad input or usage; {EXIT_CRASHED} a method crashed (or an "
    f"internal error); {EXIT_KILLED} a method was killed; {EXIT_OUT_OF_MEMORY} a method ran out of "
    f"memory; {EXIT_INTERRUPTED} interrupted (Ctrl-C); {EXIT_TERMINATED} SIGTERM."
)
