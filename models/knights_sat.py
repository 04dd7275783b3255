"""An LRAT proof of an upper bound on independent knights, by a SAT solver (CaDiCaL 1.9.5).

Where the checker has no certificate of its own for an upper bound ``u`` (a torus
with an odd side past its exhaustive search), the bound can still be certified:
the formula "at least ``u + 1`` independent knights" that the checker builds
itself (:func:`knightcert.problems.checkers.knights_cnf.knights_cnf`) is refuted
by CaDiCaL (python-sat), which writes an LRAT proof; the proof is stored,
compressed, in the answer's certificate (``{"drat": ...}``,
:mod:`knightcert.problems.checkers.clausal_proof`) and the checker's own LRAT checker
(:mod:`knightcert.problems.checkers.lrat`) verifies it against the formula it rebuilds.
Nothing the solver says is trusted: a proof that does not check is refused.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import time
from typing import IO, Any

import numpy as np

from knightcert.problems.checkers.clausal_proof import MAX_PROOF_BYTES, MAX_PROOF_TEXT, encode_proof
from knightcert.problems.checkers.knights_cnf import (
    LEX_SQUARES,
    knights_cnf,
    line_scale,
    translation_applies,
    translations_along,
)
from knightcert.problems.independent_knights import KnightsInstance

__all__ = ["PROOF_SECONDS", "SOLVER", "BoundProof", "formula_of", "prove_upper_bound", "refute_or_place"]

#: The python-sat solver that writes the proof.
SOLVER = "cadical195"
#: Seconds a proof may take when the caller gives no time limit.
PROOF_SECONDS = 1800.0


def formula_of(board: Any, fixed: tuple = ()) -> tuple[int, int, int]:
    """The refuted formula's ``lex``, ``lines`` and ``balanced`` on ``board``
    (:func:`~knightcert.problems.checkers.knights_cnf.knights_cnf`): the counter by knight
    lines where the shorter side is odd; on a torus with no square removed or fixed, the lines
    balanced, and lex-leader comparisons over :data:`LEX_SQUARES` squares of the translations
    along the lines where there are some (the shorter side divides the longer)."""
    lines = line_scale(board)
    balanced = int(bool(lines) and translation_applies(board) and not fixed)
    along = balanced and bool(translations_along(board.rows, board.cols, lines))
    return min(LEX_SQUARES, board.rows * board.cols) * along, lines, balanced


def prove_upper_bound(
    instance: KnightsInstance, upper: int, *, time_limit: float | None = None
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """An LRAT refutation of "at least ``upper + 1`` knights on the instance's board".

    :func:`refute_or_place` with the placement the solver may find left out (a wrong
    bound is said in ``info["proof"]``).

    Parameters
    ----------
    instance : KnightsInstance
    upper : int
        The bound to prove (no placement has more knights).
    time_limit : float, optional
        Seconds for the proof (default :data:`PROOF_SECONDS`); the solver runs in a child
        process (python-sat cannot interrupt CaDiCaL), ended when they run out.

    Returns
    -------
    (entry, info)
        ``entry`` is the certificate entry (:func:`~knightcert.problems.checkers.clausal_proof.encode_proof`),
        ``None`` when the solver found ``upper + 1`` knights (the bound is wrong) or ran out
        of time; ``info`` says which, with the solver's time and the proof's size.
    """
    entry, _, info = refute_or_place(instance, upper + 1, time_limit=time_limit)
    return entry, info


def refute_or_place(
    instance: KnightsInstance, knights: int, *, time_limit: float | None = None
) -> tuple[dict[str, Any] | None, list[list[int]] | None, dict[str, Any]]:
    """Refute "at least ``knights`` independent knights" with a proof, or place them.

    Parameters
    ----------
    instance : KnightsInstance
    knights : int
        Knights to place (``>= 1``).
    time_limit : float, optional
        Seconds for the solver (default :data:`PROOF_SECONDS`); it runs in a child process
        (python-sat cannot interrupt CaDiCaL), ended when they run out.

    Returns
    -------
    (entry, placement, info)
        ``entry``: the certificate entry proving at most ``knights - 1``
        (:func:`~knightcert.problems.checkers.clausal_proof.encode_proof`), or None; ``placement``:
        the solver's ``knights`` squares as ``[row, col]`` when the formula is satisfiable
        (unchecked: the caller's checker checks it), or None; ``info``: what happened, the
        solver's time and the proof's size.
    """
    proof = BoundProof(instance, knights, time_limit=time_limit)
    try:
        proof.wait()
    finally:  # an interruption (Ctrl-C) of the caller ends the solver too
        outcome = proof.finish()
    return outcome


class BoundProof:
    """CaDiCaL refuting "at least ``knights`` knights" (or placing them) in a child process,
    started at once, so that the caller can work alongside (:func:`refute_or_place` waits).

    ``done()`` says whether the child has ended; ``wait(seconds)`` waits for it, at most
    until the time limit; ``finish()`` ends it if it still runs and returns
    ``(entry, placement, info)`` as :func:`refute_or_place` does.
    """

    def __init__(self, instance: KnightsInstance, knights: int, *, time_limit: float | None = None) -> None:
        import subprocess
        import tempfile

        # the rest of fixed knights (knightcert.variants): refute the whole instance's formula
        self.instance, self.knights, whole = instance, int(knights), instance.outer or instance
        board = self.board = whole.board
        self.fixed = whole.fixed
        self.formula = formula_of(board, self.fixed)
        self.began, self.began_wall = time.perf_counter(), time.time()
        self.limit = PROOF_SECONDS if time_limit is None else max(float(time_limit), 0.0)
        # the task, the child's start time and its answer: files without a name, the child's by
        # descriptor, so nothing is left behind however the two processes end (kill -9 included)
        self.closing = contextlib.ExitStack()
        self.files = [self.closing.enter_context(tempfile.TemporaryFile()) for _ in range(3)]  # noqa: SIM115
        task, self.started, self.answer = self.files
        try:
            sizes = [board.rows, board.cols, int(bool(board.torus)), self.knights + len(self.fixed)]
            np.savez(
                task,
                sizes=np.array([*sizes, *self.formula]),
                blocked=np.asarray(board.blocked, dtype=bool),
                fixed=np.array(self.fixed, dtype=np.int64).reshape(-1, 2),
            )
            task.flush()
            # a fresh interpreter running this module (not multiprocessing, which would import
            # the caller's main script again: a script without `if __name__ == "__main__"`)
            quiet: dict[str, Any] = dict.fromkeys(("stdin", "stdout", "stderr"), subprocess.DEVNULL)
            fds = [stream.fileno() for stream in self.files]  # and its CPU seconds: an orphan ends too
            command = [sys.executable, "-m", __name__, str(math.ceil(self.limit) + 1), *map(str, fds)]
            self.child = subprocess.Popen(command, **quiet, env=_child_environment(), pass_fds=fds)
        except BaseException:
            self.closing.close()
            raise

    def left(self) -> float:
        """Seconds left of the proof's time limit."""
        return max(self.limit - (time.perf_counter() - self.began), 0.0)

    def _ended(self) -> bool:
        """Whether the child has ended."""
        return self.child.poll() is not None

    def done(self) -> bool:
        """Whether the solver has ended (or its time is up)."""
        return self._ended() or self.left() <= 0

    def wait(self, seconds: float | None = None) -> None:
        """Wait for the solver, at most ``seconds`` and never past the time limit."""
        until = time.perf_counter() + min(self.left(), float("inf") if seconds is None else max(seconds, 0.0))
        while not self._ended() and (left := until - time.perf_counter()) > 0:
            time.sleep(min(left, 0.1))  # a tenth of a second late at most

    def finish(self) -> tuple[dict[str, Any] | None, list[list[int]] | None, dict[str, Any]]:
        """End the solver if it still runs; its outcome (see :func:`refute_or_place`)."""
        try:
            return self._outcome()
        finally:
            self.closing.close()

    def _outcome(self) -> tuple[dict[str, Any] | None, list[list[int]] | None, dict[str, Any]]:
        upper, ended = self.knights - 1, self._ended()
        self.child.kill()  # nothing to one that has ended
        exitcode = self.child.wait()
        info: dict[str, Any] = {
            "proof_solver": f"CaDiCaL 1.9.5 (python-sat {SOLVER})",
            "proof_solve_s": round(time.perf_counter() - self.began, 3),
        }
        started = _started(self.started)
        if started is not None:  # the child's interpreter start and imports, apart
            info["proof_start_s"] = round(min(max(started - self.began_wall, 0.0), info["proof_solve_s"]), 3)
        if not ended or (exitcode < 0 and self.left() <= 0):  # killed by its own CPU limit: time is up too
            info["proof"] = f"no proof within {self.limit:g} s" if self.left() <= 0 else "stopped"
            return None, None, info
        if exitcode == SATISFIABLE:
            info["proof"] = f"the solver placed {upper + 1} knights: the bound {upper} is wrong"
            return None, _placement(self.board, self.answer, self.fixed), info
        if exitcode == NO_LRAT:
            info["proof"] = "no proof: this python-sat writes no LRAT that maps onto the checker's formula"
            return None, None, info
        if exitcode != 0:
            info["proof"] = f"the proof's solver process failed (exit code {exitcode})"
            return None, None, info
        packed = json.loads(_read(self.answer))  # packed by the child
        size = f"LRAT, {packed['bytes']} bytes"
        if packed["bytes"] > MAX_PROOF_BYTES:  # the checker would refuse it
            info["proof"] = f"{size}: past the {MAX_PROOF_BYTES} bytes a proof may have"
            return None, None, info
        if len(packed["xz"]) > MAX_PROOF_TEXT:
            info["proof"] = f"{size}: packed, past the {MAX_PROOF_TEXT} characters a proof may have"
            return None, None, info
        lex, lines, balanced = self.formula
        entry = encode_proof(packed, upper + 1 + len(self.fixed), lex=lex, lines=lines, balanced=balanced)
        info["proof"] = size
        info["proof_s"] = round(time.perf_counter() - self.began, 3)
        return entry, None, info


def _read(stream: IO[bytes], size: int = -1) -> bytes:
    """What the child wrote to ``stream`` (from its start: the two processes share its offset)."""
    stream.seek(0)
    return stream.read(size)


def _started(stream: IO[bytes]) -> float | None:
    """When the child was ready to solve (seconds since the epoch, which it writes to ``stream``
    once its interpreter started and its modules are imported), or None: not yet, or not one
    finite number."""
    try:
        value = float(_read(stream, 64).decode("ascii"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return value if math.isfinite(value) else None


def _placement(board: Any, stream: IO[bytes], fixed: tuple = ()) -> list[list[int]] | None:
    """The squares but the ``fixed`` ones the solver's model puts a knight on (written by the
    child to ``stream``), or None."""
    data = _read(stream)
    chosen = np.frombuffer(data, dtype=np.int64, count=len(data) // 8)
    usable = np.flatnonzero(np.asarray(board.free, dtype=bool).reshape(-1))
    if chosen.size == 0 or chosen.min() < 0 or chosen.max() >= usable.size:
        return None
    rows, cols = divmod(usable[chosen], int(board.cols))
    return [sq for sq in np.stack([rows, cols], axis=1).tolist() if tuple(sq) not in fixed]


def _save_model(stream: IO[bytes] | None, model: list[int] | None, squares: int) -> None:  # pragma: no cover
    """Write the squares (0-based, among the usable ones) a model sets true to ``stream``
    (when given), then exit :data:`SATISFIABLE`."""
    if stream is not None:
        stream.write(np.array([v - 1 for v in (model or [])[:squares] if v > 0], dtype=np.int64).tobytes())
    sys.exit(SATISFIABLE)


#: Exit code of the solver's process when the formula is satisfiable.
SATISFIABLE = 10
#: Exit code of the solver's process when python-sat gives no LRAT proof the checker can read.
NO_LRAT = 11


def _child_environment() -> dict[str, str]:
    """The environment of the solver's process: this one, with the folder this package is
    imported from first on ``PYTHONPATH`` (a checkout run without installing)."""
    from pathlib import Path

    root = str(Path(__file__).absolute().parents[2])  # <root>/knightcert/models/knights_sat.py
    rest = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": root + (os.pathsep + rest if rest else "")}


def _main(seconds: str, *files: str) -> None:  # pragma: no cover - child
    """The solver's process, at most ``seconds`` of CPU: read the board and the numbers
    :class:`BoundProof` wrote to the first of its three ``files`` (descriptors), write the time
    it was ready to the second, refute the formula, and write to the third the packed proof (exit
    0) or the model's knights (exit :data:`SATISFIABLE`); exit :data:`NO_LRAT` when python-sat
    cannot give a proof."""
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (int(seconds), int(seconds)))
    task, started, answer = (os.fdopen(int(fd), "r+b", buffering=0) for fd in files)  # each write whole
    started.write(repr(time.time()).encode("ascii"))
    from knightcert.problems.board import Board

    task.seek(0)
    with np.load(task) as data:
        rows, cols, torus, knights, lex, lines, balanced = (int(v) for v in data["sizes"])
        blocked, fixed = data["blocked"], [(int(r), int(c)) for r, c in data["fixed"]]
    _refute(Board(rows, cols, blocked, bool(torus)), knights, (lex, lines, balanced), answer, fixed)


def _refute(board: Any, knights: int, formula: tuple, answer: IO[bytes], fixed: list | tuple = ()) -> None:
    """In the child: refute "at least ``knights`` knights" (the ``formula``'s ``lex``, ``lines``,
    ``balanced``); see :func:`_main`."""
    from knightcert.problems.checkers.clausal_proof import pack_proof

    lex, lines, balanced = formula
    _, clauses = knights_cnf(board, knights, lex=lex, lines=lines, balanced=balanced, fixed=fixed)
    proof = _lrat(clauses, answer, int(np.asarray(board.free, dtype=bool).sum()))
    if proof is None:
        sys.exit(NO_LRAT)
    answer.write(json.dumps(pack_proof(proof)).encode("ascii"))  # packed here, in the child


def _lrat(  # pragma: no cover - child process
    clauses: list[list[int]], answer: IO[bytes] | None = None, squares: int = 0
) -> bytes | None:
    """CaDiCaL's binary LRAT proof of the unsatisfiable ``clauses``, numbered as the checker
    numbers them (clause ``i`` is ``i + 1``); writes the model's knights to ``answer`` and exits
    :data:`SATISFIABLE` when they are satisfiable; None when this python-sat cannot write
    LRAT or its identifiers cannot be mapped (then there is no proof). Not checked here: the
    checker checks it where the answer leaves the method (a 23 x 23 proof's check, 1.5 min,
    was done twice)."""
    import tempfile

    from pysat.solvers import Solver

    from knightcert.models.lrat_numbering import trim

    try:
        import pysolvers  # python-sat's extension module

        solver = Solver(name=SOLVER)
        backend: Any = solver.solver  # Cadical195 (python-sat types it as any of its solvers)
        backend.configure({"lrat": 1, "binary": 1})
        trace = tempfile.TemporaryFile()  # noqa: SIM115 - open while the solver writes it
        handle = pysolvers.cadical195_tracepr(backend.cadical, trace)
    except (ImportError, AttributeError, RuntimeError, TypeError, ValueError):
        return None
    for clause in clauses:
        solver.add_clause(clause)
    if solver.solve():
        _save_model(answer, solver.get_model(), squares)
    pysolvers.flushpr(handle)
    trace.seek(0)
    binary = trace.read()
    solver.delete()
    # the checker's numbering, the lemmas the empty clause rests on; checked by the checker alone
    return trim(binary, len(clauses))


if __name__ == "__main__":  # pragma: no cover - the solver's process (BoundProof)
    _main(*sys.argv[1:])
