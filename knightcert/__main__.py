"""``python -m knightcert`` and the ``knightcert`` console script start the command line.

Ctrl-C and SIGTERM are held while the command line is imported (numpy turns
an interrupt inside its import into an ``ImportError``) and honoured right
after, with the same one line and exit code as later on.
"""

import os
import signal
import sys
import time

_STARTED = time.perf_counter()  # --time-limit counts from here (see knightcert.cli.session.time_left)

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
    return main(started=_STARTED)


if __name__ == "__main__":
    raise SystemExit(run())
