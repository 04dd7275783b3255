"""A DRAT proof of an upper bound on independent knights, by a SAT solver (CaDiCaL 1.9.5).

Where the checker has no certificate of its own for an upper bound ``u`` (a torus
with an odd side past its exhaustive search), the bound can still be certified:
the formula "at least ``u + 1`` independent knights" that the checker builds
itself (:func:`knightcert.problems.checkers.knights_cnf.knights_cnf`) is refuted
by CaDiCaL (python-sat), which writes a DRAT proof; the proof is stored,
compressed, in the answer's certificate (``{"drat": ...}``) and the checker's own
DRAT checker (:mod:`knightcert.problems.checkers.drat`) verifies it against the
formula it rebuilds. Nothing the solver says is trusted: a proof that does not
check is refused.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from knightcert.problems.checkers.drat import encode_proof, text_to_binary
from knightcert.problems.checkers.knights_cnf import knights_cnf
from knightcert.problems.independent_knights import KnightsInstance

__all__ = ["PROOF_SECONDS", "SOLVER", "prove_upper_bound"]

#: The python-sat solver that writes the proof.
SOLVER = "cadical195"
#: Seconds a proof may take when the caller gives no time limit.
PROOF_SECONDS = 1800.0


def prove_upper_bound(
    instance: KnightsInstance, upper: int, *, time_limit: float | None = None
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """A DRAT refutation of "at least ``upper + 1`` knights on the instance's board".

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
        ``entry`` is the certificate entry (:func:`~knightcert.problems.checkers.drat.encode_proof`),
        ``None`` when the solver found ``upper + 1`` knights (the bound is wrong) or ran out
        of time; ``info`` says which, with the solver's time and the proof's size.
    """
    import multiprocessing
    import tempfile

    begin = time.perf_counter()
    limit = PROOF_SECONDS if time_limit is None else max(float(time_limit), 0.0)
    info: dict[str, Any] = {"proof_solver": f"CaDiCaL 1.9.5 (python-sat {SOLVER})"}
    # python-sat cannot interrupt CaDiCaL: the solver runs in a child process, ended at the limit
    with tempfile.TemporaryDirectory(prefix="knightcert-drat-") as folder:
        path = os.path.join(folder, "proof.drat")
        child = multiprocessing.get_context("spawn").Process(
            target=_refute, args=(instance.board, upper + 1, path), daemon=True
        )
        child.start()
        child.join(max(limit - (time.perf_counter() - begin), 0.0))
        if child.is_alive():
            child.kill()
            child.join()
            info["proof"] = f"no proof within {limit:g} s"
            return None, info
        info["proof_solve_s"] = round(time.perf_counter() - begin, 3)
        if child.exitcode == SATISFIABLE:
            info["proof"] = f"the solver placed {upper + 1} knights: the bound {upper} is wrong"
            return None, info
        if child.exitcode != 0:
            info["proof"] = f"the proof's solver process failed (exit code {child.exitcode})"
            return None, info
        with open(path, "rb") as stream:
            kind = stream.read(1)
            binary = stream.read()
    proof_format = "lrat-binary" if kind == b"L" else "drat-binary"
    entry = encode_proof(binary, upper + 1, proof_format)
    info["proof"] = f"{proof_format.split('-')[0].upper()}, {len(binary)} bytes"
    info["proof_s"] = round(time.perf_counter() - begin, 3)
    return entry, info


#: Exit code of the solver's process when the formula is satisfiable.
SATISFIABLE = 10


def _refute(board: Any, knights: int, path: str) -> None:  # pragma: no cover - child process
    """In a child process: solve "at least ``knights`` knights"; write the proof to ``path``
    (binary LRAT renumbered to the checker's numbering, else binary DRAT, one byte ``L``
    or ``D`` first) and exit 0, or exit :data:`SATISFIABLE`."""
    _, clauses = knights_cnf(board, knights)
    proof = _lrat(clauses)
    if proof is not None:
        with open(path, "wb") as stream:
            stream.write(b"L" + proof)
        return
    from pysat.solvers import Solver

    with Solver(name=SOLVER, bootstrap_with=clauses, with_proof=True) as solver:
        if solver.solve():
            sys.exit(SATISFIABLE)
        binary = _binary_trace(solver)
        if binary is None:  # python-sat turns CaDiCaL's binary trace into text lines, slowly
            text = ("\n".join(solver.get_proof() or []) + "\n").encode("ascii")
            binary = text_to_binary(text)
    with open(path, "wb") as stream:
        stream.write(b"D" + binary)


def _lrat(clauses: list[list[int]]) -> bytes | None:  # pragma: no cover - child process
    """CaDiCaL's binary LRAT proof of the unsatisfiable ``clauses``, numbered as the checker
    numbers them (clause ``i`` is ``i + 1``); exits :data:`SATISFIABLE` when they are
    satisfiable; None when this python-sat cannot write LRAT or the numbering cannot be
    mapped (the caller falls back to DRAT)."""
    import tempfile

    from pysat.solvers import Solver

    from knightcert.models.lrat_numbering import renumber, trim
    from knightcert.problems.checkers.lrat import check_lrat

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
        sys.exit(SATISFIABLE)
    pysolvers.flushpr(handle)
    trace.seek(0)
    binary = trace.read()
    solver.delete()
    proof = renumber(binary, len(clauses))
    if proof is not None:  # only the lemmas the empty clause rests on, no deletions
        proof = trim(proof)
    if proof is None or not check_lrat(clauses, proof).refuted:  # not CaDiCaL's plain numbering
        return None
    return proof


def _binary_trace(solver: Any) -> bytes | None:  # pragma: no cover - child process
    """CaDiCaL's binary DRAT trace as python-sat 1.9 keeps it (its ``prfile``), or None
    when this python-sat keeps it otherwise. The checker reads it strictly either way."""
    backend = getattr(solver, "solver", None)
    trace, handle = getattr(backend, "prfile", None), getattr(backend, "prfp", None)
    if trace is None or handle is None:
        return None
    try:
        import pysolvers  # python-sat's extension module

        pysolvers.flushpr(handle)
        trace.seek(0)
        return bytes(trace.read())
    except (ImportError, AttributeError, OSError):
        return None
