"""Exported knights proofs checked by drat-trim's ``lrat-check`` and by the verified cake_lpr,
checkers that share no code with knightcert (issue 42):
``python bench/check_exported_proofs.py SOURCE [--cake CAKE] [SIZES]``.

SOURCE is a folder holding drat-trim's ``lrat-check.c`` (``git clone
https://github.com/marijnheule/drat-trim``); it is built with ``cc -O2`` in a temporary
folder. CAKE, optional, is a folder of cake_lpr (``git clone
https://github.com/tanyongkiam/cake_lpr``: ``basis_ffi.c`` and the compiled ``cake_lpr.S``,
x86-64), built the same way; it must print ``s VERIFIED UNSAT``. For each odd N of SIZES
(default ``5 7 11``) the N x N torus is solved through the command line (``knightcert
knights N --torus --save a.json``); where the answer rests on the checker's own search
(N <= 9: at most 100 squares) the producer's LRAT proof of "no optimum + 1" is attached, so
that every size has a proof. Then ``knightcert check N --torus a.json
--export-proof DIR`` writes DIR/formula.cnf and DIR/proof.lrat, and ``lrat-check
DIR/formula.cnf DIR/proof.lrat`` must print ``c VERIFIED``. Prints a line per size: the
commands' times, the export's own time (in process), the files' sizes, lrat-check's verdict
and time (and cake_lpr's). Exit 1 if a proof is not verified; 2 without a C compiler or
``lrat-check.c``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build(source: Path, folder: Path) -> Path | None:
    """``lrat-check`` compiled from ``source/lrat-check.c`` into ``folder``, or None."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not (source / "lrat-check.c").is_file():
        return None
    binary = folder / "lrat-check"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(source / "lrat-check.c")], check=True)
    return binary


def build_cake(source: Path, folder: Path) -> Path:
    """cake_lpr compiled from ``source`` (its ``basis_ffi.c`` and ``cake_lpr.S``) into ``folder``."""
    binary = folder / "cake_lpr"
    files = [str(source / "basis_ffi.c"), str(source / "cake_lpr.S")]
    subprocess.run(["cc", "-O2", *files, "-o", str(binary), "-std=c99"], check=True, capture_output=True)
    return binary


def verdict(command: list[str], word: str) -> tuple[bool, float]:
    """Whether ``command`` printed the line ``word``, and its wall time."""
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    return word in done.stdout.splitlines(), time.perf_counter() - began


def knightcert(*args: str) -> float:
    """Run ``knightcert ARGS`` from this checkout; its wall time (raises unless it exits 0)."""
    began = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "knightcert", *args]
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"knightcert {' '.join(args)}: exit {done.returncode}: {done.stdout}{done.stderr}")
    return time.perf_counter() - began


def with_proof(size: int, answer: Path) -> None:
    """Attach the producer's proof of "no optimum + 1" where the answer carries none."""
    data = json.loads(answer.read_text())
    if "drat" in (data.get("certificate") or {}):
        return
    from knightcert.models.knights_sat import prove_upper_bound
    from knightcert.problems.answers import check_answer, read_answer, write_answer
    from knightcert.problems.independent_knights import knights_instance

    instance = knights_instance(size, size, torus=True)
    result = check_answer(instance, read_answer(str(answer)))
    entry, info = prove_upper_bound(instance, int(result.objective))
    if entry is None:
        raise RuntimeError(f"{size} x {size}: no proof ({info.get('proof')})")
    write_answer(str(answer), result.with_(certificate={"drat": entry}), instance)


def export_seconds(size: int, answer: Path, folder: Path) -> float:
    """The export alone (in process): the entry decoded, the CNF built, both files written."""
    from knightcert.problems.checkers.lrat_files import export_proof
    from knightcert.problems.independent_knights import knights_instance

    entry = json.loads(answer.read_text())["certificate"]["drat"]
    began = time.perf_counter()
    export_proof(knights_instance(size, size, torus=True).board, entry, str(folder))
    return time.perf_counter() - began


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    cake_source = Path(argv[argv.index("--cake") + 1]) if "--cake" in argv else None
    if cake_source is not None:
        argv = [a for a in argv if a not in ("--cake", str(cake_source))]
    source, sizes = Path(argv[0]), [int(n) for n in argv[1:]] or [5, 7, 11]
    work = Path(tempfile.mkdtemp(prefix="knightcert-exported-"))
    try:
        checker = build(source, work)
        if checker is None:
            print(f"no C compiler, or no lrat-check.c in {source}")
            return 2
        cake = None if cake_source is None else build_cake(cake_source, work)
        print(f"load {os.getloadavg()[0]:.2f}; lrat-check built from {source}; cake_lpr: {cake_source}")
        failed = 0
        for size in sizes:
            answer, folder = work / f"a{size}.json", work / f"p{size}"
            solve_s = knightcert("knights", str(size), "--torus", "--save", str(answer))
            with_proof(size, answer)
            check_s = knightcert("check", str(size), "--torus", str(answer), "--export-proof", str(folder))
            alone = export_seconds(size, answer, work / f"again{size}")
            files = [str(folder / "formula.cnf"), str(folder / "proof.lrat")]
            verified, lrat_s = verdict([str(checker), *files], "c VERIFIED")
            failed += not verified
            cake_text = ""
            if cake is not None:
                accepted, cake_s = verdict([str(cake), *files], "s VERIFIED UNSAT")
                failed += not accepted
                said = "s VERIFIED UNSAT" if accepted else "NOT VERIFIED"
                cake_text = f"; cake_lpr: {said} in {cake_s:.2f} s"
            print(
                f"{size}x{size} torus: solve {solve_s:.1f} s, check + export {check_s:.1f} s, "
                f"export alone {alone:.2f} s; formula.cnf {(folder / 'formula.cnf').stat().st_size:,} B, "
                f"proof.lrat {(folder / 'proof.lrat').stat().st_size:,} B; lrat-check: "
                f"{'c VERIFIED' if verified else 'NOT VERIFIED'} in {lrat_s:.2f} s{cake_text}"
            )
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
