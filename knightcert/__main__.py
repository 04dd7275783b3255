"""``python -m knightcert`` and the ``knightcert`` console script start the command line.

Ctrl-C and SIGTERM are held while the command line is imported (numpy turns
an interrupt inside its import into an ``ImportError``) and honoured right
after, with the same one line and exit code as later on. ``--time-limit`` counts
from the process's start, the interpreter's own start included; the command ends
without the interpreter's teardown.
"""

import atexit
import contextlib
import os
import signal
import sys
import time


def _process_start() -> float:
    """The ``time.perf_counter()`` reading when this process started (``/proc/self/stat``; under
    load the interpreter's start takes 0.2-0.5 s), or now where that cannot be read."""
    now = time.perf_counter()
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/stat", "rb") as stat:
        ticks = int(stat.read().rsplit(b")", 1)[1].split()[19])
        return now - max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK"))
    return now


_STARTED = _process_start()  # --time-limit counts from here (see knightcert.cli.session.time_left)

_held: list[int] = []
_previous = {
    number: signal.signal(number, lambda n, frame: _held.append(n))
    for number in (signal.SIGINT, signal.SIGTERM)
}
try:
    from knightcert.cli.main import main
finally:
    for _number, _handler in _previous.items():
        signal.signal(_number, _handler)
if _held:
    sys.stderr.write("knightcert: interrupted" + (" (SIGTERM)" if signal.SIGTERM in _held else "") + "\n")
    raise SystemExit(143 if signal.SIGTERM in _held else 130)


def run() -> int:
    """The console script's entry point (this module's import holds the signals, as above).

    Python puts the script's folder first on ``sys.path``: the environment's ``bin/``, whose
    ``models.py``, ``fm.py``, ... (python-sat's scripts) would shadow a user's module. The
    working folder takes its place, as under ``python -m knightcert``."""
    script = os.path.dirname(os.path.abspath(sys.argv[0]))
    if sys.path and os.path.abspath(sys.path[0] or os.curdir) == script != os.getcwd():
        sys.path[0] = os.getcwd()
    code = main(started=_STARTED, own_process=True)
    if sys.getprofile() or sys.gettrace():  # under a profiler or debugger: its report at the end
        return code
    # the exit handlers run and the output is flushed; the teardown that frees every module and
    # object (0.4 s, 2 s after a 400 x 400 board, under load) is skipped: the time limit holds
    atexit._run_exitfuncs()
    with contextlib.suppress(Exception):  # a closed pipe: nothing more to write (stderr: unbuffered)
        sys.stdout.flush()
    os._exit(code)


if __name__ == "__main__":
    raise SystemExit(run())
