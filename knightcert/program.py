"""External programs as methods: ``exec:COMMAND``, in any language.

The contract (docs/your-own-method.md):

* the program is started as ``COMMAND... INSTANCE_FILE``: the instance in the
  project's text format (:mod:`knightcert.problems.instance_files`), with
  standard input closed;
* its environment holds ``KNIGHTCERT_PROBLEM`` (path, jump, knights, tour),
  ``KNIGHTCERT_INSTANCE`` (the same file), ``KNIGHTCERT_INSTANCE_JSON`` (the
  instance's canonical JSON, every field included), ``KNIGHTCERT_TIME_LIMIT``
  (seconds, empty for none), ``KNIGHTCERT_SEED`` (empty for none),
  ``KNIGHTCERT_TORUS`` and ``KNIGHTCERT_CLOSED`` (``0``/``1``),
  ``KNIGHTCERT_START`` and ``KNIGHTCERT_END`` (``r,c`` or empty) and
  ``KNIGHTCERT_OPTIONS`` (the method's options as a JSON object);
* it prints one answer JSON object on standard output: ``status`` and, as the
  status needs, ``objective``, ``bound``, ``solution``, ``certificate`` (the
  answer-file schema of :mod:`knightcert.problems.answers`, without what it
  cannot know); exit code 0.

Whatever else happens is one ``UNKNOWN`` answer with the reason in
``record.stopped``: a non-zero exit (with the tail of its standard error),
output that is not one JSON answer, more than :data:`MAX_OUTPUT_BYTES` on
standard output, or running past the time limit plus :func:`knightcert.workers.grace` (then the
program and everything it started are killed). The program runs in its own
process group, below its worker (:mod:`knightcert.workers`), which kills it when it goes.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from knightcert.problems.errors import UnknownMethod
from knightcert.problems.result import Result
from knightcert.workers import time_budget

__all__ = [
    "EXIT_POLL_SECONDS",
    "MAX_OUTPUT_BYTES",
    "PREFIX",
    "STDERR_TAIL",
    "parse_command",
    "program_missing",
    "run_program",
]

#: The prefix that makes a method name a command line.
PREFIX = "exec:"
#: Largest answer a program may print (bytes); past it the program is killed.
MAX_OUTPUT_BYTES = 64 * 2**20
#: How often a running program is looked at (seconds): once it has ended, its pipes are read
#: to what is written and closed, even when a process it started keeps them open.
EXIT_POLL_SECONDS = 0.05
#: Characters of a program's standard error kept for the reason of a failure.
STDERR_TAIL = 400


def parse_command(name: str) -> tuple[str, ...]:
    """``exec:./solver --fast`` -> ``("./solver", "--fast")``.

    Raises
    ------
    UnknownMethod
        No command after ``exec:``, or unbalanced quotes.
    """
    try:
        argv = tuple(shlex.split(name[len(PREFIX) :]))
    except ValueError as exc:
        raise UnknownMethod(f"method {name!r}: cannot split the command ({exc})") from None
    if not argv:
        raise UnknownMethod(f"method {name!r}: no command after {PREFIX!r}")
    return argv


def program_missing(program: str) -> str | None:
    """Why ``program`` cannot be started from here (None when it can)."""
    if os.sep in program or (os.altsep and os.altsep in program):
        if not os.path.isfile(program):
            return f"program {program!r} not found (from {os.getcwd()})"
        if not os.access(program, os.X_OK):
            return f"program {program!r} is not executable (chmod +x)"
        return None
    return f"program {program!r} not found on PATH" if shutil.which(program) is None else None


def run_program(
    argv: tuple[str, ...],
    problem: str,
    instance: Any,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    wall_limit: float | None = None,
) -> Result:
    """Run one external program on ``instance``; its answer as a (not yet checked) Result.

    Parameters
    ----------
    argv : tuple of str
        The command, without the instance file (appended).
    wall_limit : float, optional
        Seconds after which the program is killed; default: the time limit
        plus :func:`knightcert.workers.grace`, none without a time limit.

    Returns
    -------
    Result
        What the program printed (fields checked strictly, nothing believed:
        the caller certifies it), or ``UNKNOWN`` with ``record.stopped``
        saying what went wrong. ``info["stderr"]`` holds the tail of its
        standard error when it wrote any.
    """
    from knightcert.problems.answers import InvalidAnswer, instance_to_data, result_from_answer
    from knightcert.problems.input_file import load_json
    from knightcert.problems.instance_files import SUFFIX, format_instance, instance_flags

    wall_limit = time_budget(time_limit) if wall_limit is None else wall_limit
    with tempfile.TemporaryDirectory(prefix="knightcert-") as folder:
        path = os.path.join(folder, "instance" + SUFFIX[problem])
        Path(path).write_text(format_instance(instance), encoding="ascii")
        json_path = os.path.join(folder, "instance.json")
        record = {"problem": problem, "name": getattr(instance, "name", ""), **instance_to_data(instance)}
        Path(json_path).write_text(json.dumps(record), encoding="ascii")
        flags = instance_flags(instance)
        env = {
            **os.environ,
            "KNIGHTCERT_PROBLEM": problem,
            "KNIGHTCERT_INSTANCE": path,
            "KNIGHTCERT_INSTANCE_JSON": json_path,
            "KNIGHTCERT_TIME_LIMIT": "" if time_limit is None else repr(float(time_limit)),
            "KNIGHTCERT_SEED": "" if seed is None else str(int(seed)),
            "KNIGHTCERT_OPTIONS": json.dumps(options or {}, default=str),
            **{f"KNIGHTCERT_{key.upper()}": value for key, value in flags.items()},
        }
        began = time.perf_counter()  # its time: from its exec to its exit
        stdout, stderr, code, stopped = _communicate([*argv, path], env, wall_limit)
        spent = time.perf_counter() - began
    tail = _tail(stderr)
    info: dict[str, Any] = {"stderr": tail} if tail else {}
    if stopped is None and code != 0:
        how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"  # exit 4 or 3
        stopped = f"crash: the program {how}" + (f": {tail}" if tail else "")
    if stopped is None:
        try:
            data = load_json(stdout.decode("utf-8"), "standard output", "JSON answer")
            result = result_from_answer(data, problem=problem, instance=instance)
        except (UnicodeDecodeError, ValueError) as exc:
            why = exc.reason if isinstance(exc, InvalidAnswer) else getattr(exc, "message", str(exc))
            stopped = f"crash: unreadable answer on standard output ({why[:160]})" + (
                f"; stderr: {tail}" if tail else ""
            )
        else:
            theirs = {"method_info": dict(result.info)} if result.info else {}
            return result.with_(info={**theirs, **info}, time=spent)  # the program's info apart from ours
    return Result.empty(problem, "", spent, info=info, stopped=stopped)


def _communicate(
    argv: list[str], env: dict[str, str], wall_limit: float | None
) -> tuple[bytes, bytes, int, str | None]:
    """Run ``argv``; (stdout, stderr, exit code, why it was stopped or None)."""
    began = time.monotonic()
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,  # its own group: killed whole, and Ctrl-C is ours to handle
        )
    except OSError as exc:
        return b"", b"", -1, f"crash: cannot start the program: {exc.strerror or exc}"
    assert process.stdout is not None and process.stderr is not None  # both are pipes
    out, err = bytearray(), bytearray()
    stopped = None
    selector = selectors.DefaultSelector()
    try:
        for stream in (process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)
            selector.register(stream, selectors.EVENT_READ, "out" if stream is process.stdout else "err")
        while selector.get_map():
            left = None if wall_limit is None else wall_limit - (time.monotonic() - began)
            if left is not None and left <= 0:
                stopped = f"time limit: the program ran past {wall_limit:.1f} s and was killed"
                break
            if process.poll() is not None:  # ended: what it left running may hold its output open
                _drain(selector, out, err)
                break
            for key, _ in selector.select(
                timeout=EXIT_POLL_SECONDS if left is None else min(left, EXIT_POLL_SECONDS)
            ):
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.fileobj is process.stdout:
                    out += chunk
                    if len(out) > MAX_OUTPUT_BYTES:
                        stopped = f"crash: the program printed more than {MAX_OUTPUT_BYTES >> 20} MB, killed"
                        break
                else:
                    err += chunk
                    del err[: max(0, len(err) - 8 * STDERR_TAIL)]
            if stopped:
                break
        if stopped is None:
            left = None if wall_limit is None else max(0.0, wall_limit - (time.monotonic() - began))
            try:
                process.wait(timeout=left)
            except subprocess.TimeoutExpired:
                stopped = f"time limit: the program ran past {wall_limit:.1f} s and was killed"
    finally:
        selector.close()
        _kill_group(process)  # a program stopped early, or what it left running in its group
        process.wait()
        for stream in (process.stdout, process.stderr):
            stream.close()
    return bytes(out), bytes(err), process.returncode, stopped


def _drain(selector: selectors.BaseSelector, out: bytearray, err: bytearray) -> None:
    """Read what is already written on the program's pipes, without waiting for their end."""
    for key, _ in selector.select(timeout=0):
        with contextlib.suppress(BlockingIOError, OSError):
            while chunk := os.read(key.fd, 1 << 16):
                if key.data == "out" and len(out) <= MAX_OUTPUT_BYTES:
                    out += chunk
                elif key.data == "err":
                    err += chunk
                    del err[: max(0, len(err) - 8 * STDERR_TAIL)]
                else:
                    break


def _kill_group(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


def _tail(stderr: bytes) -> str:
    """The last lines of standard error, on one line, at most STDERR_TAIL characters."""
    text = " | ".join(line.strip() for line in stderr.decode("utf-8", "replace").splitlines() if line.strip())
    return text if len(text) <= STDERR_TAIL else "..." + text[-STDERR_TAIL:]
