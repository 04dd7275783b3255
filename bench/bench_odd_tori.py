"""Independent knights on odd tori through the command line: solved, proven, saved, re-checked.

Usage::

    python bench/bench_odd_tori.py                         # 11x11 13x13 11x13 13x15 15x15 17x17
    python bench/bench_odd_tori.py --tori 17x17,19x19 --time-limit 1200
    python bench/bench_odd_tori.py --tori 13x15 --repeat 3

Each torus runs exactly as a user runs it, in a child process:
``python -m knightcert knights R C --torus --save A.json --json`` (the default method,
``cpsat``: CaDiCaL's proof of the bound alongside CP-SAT), then
``python -m knightcert check RxC --torus A.json --strict`` (the checker alone, on the saved
file). One row per run: the status and value, what backs the optimum, the whole process's wall
time, its CPU time (user + system of the process and its children: what the load inflates
least) and peak memory (the largest of the process and its children), the answer file's size,
the re-check's wall and CPU time and memory, and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TORI = "11x11,13x13,11x13,13x15,15x15,17x17"


def timed(command: list[str]) -> tuple[int, str, str, float, float, float]:
    """Run ``command``; (exit code, stdout, stderr, wall s, CPU s, peak MB) of that process and
    the children it waited for (``os.wait4``: its own resource usage, not this script's)."""
    began = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(command, stdout=out, stderr=err, cwd=ROOT)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(), err.read().decode()
    cpu = usage.ru_utime + usage.ru_stime
    return child.returncode, text, errors, wall, cpu, usage.ru_maxrss / 1024  # ru_maxrss: KB on Linux


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def run(rows: int, cols: int, limit: float | None, folder: Path) -> dict:
    answer = folder / f"knights-{rows}x{cols}.json"
    solve = [sys.executable, "-m", "knightcert", "knights", str(rows), str(cols), "--torus"]
    solve += ["--save", str(answer), "--json"] + ([] if limit is None else ["--time-limit", str(limit)])
    row: dict = {"torus": f"{rows}x{cols}", "load_before": load()}
    code, out, err, row["wall_s"], row["cpu_s"], row["peak_mb"] = timed(solve)
    if code != 0:
        row["error"] = (err.strip().splitlines() or ["?"])[-1]
        return row
    report = json.loads(out)
    optimal = next((e for e in report["evidence"] if e["claim"] in ("optimal", "bound")), None)
    row.update(
        status=report["status"],
        objective=report["objective"],
        bound=report["bound"],
        backing=None if optimal is None else optimal["how"],
        method_s=report["time_s"],
        proof_s=report["info"].get("proof_s"),  # CaDiCaL's child, renumbering, trimming, its own check
        proof=report["info"].get("proof"),
        answer_mb=round(answer.stat().st_size / 1e6, 1) if answer.exists() else None,
    )
    check = [
        sys.executable,
        "-m",
        "knightcert",
        "check",
        f"{rows}x{cols}",
        "--torus",
        str(answer),
        "--strict",
    ]
    row["check_exit"], _, _, row["check_wall_s"], row["check_cpu_s"], row["check_peak_mb"] = timed(check)
    row["load_after"] = load()
    answer.unlink(missing_ok=True)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tori", default=DEFAULT_TORI, help="RxC,RxC,... (default %(default)s)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per solve (default: none)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    tori = [tuple(int(v) for v in t.split("x")) for t in args.tori.split(",")]
    print(
        "| torus | status | value | bound | backed by | proof | proof s | wall s | CPU s | peak MB "
        "| answer MB | check wall s | check CPU s | check MB | check exit | load before/after |"
    )
    print("|---|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory(prefix="knightcert-bench-") as folder:
        for rows, cols in tori:
            for _ in range(args.repeat):
                r = run(rows, cols, args.time_limit, Path(folder))
                if "error" in r:
                    print(
                        f"| {r['torus']} | error: {r['error']} | | | | {r['wall_s']:.1f} | {r['cpu_s']:.1f} |"
                    )
                    continue
                print(
                    f"| {r['torus']} | {r['status']} | {r['objective']} | {r['bound']} | {r['backing']} "
                    f"| {r['proof']} | {r['proof_s']} "
                    f"| {r['wall_s']:.1f} | {r['cpu_s']:.1f} | {r['peak_mb']:.0f} | {r['answer_mb']} "
                    f"| {r['check_wall_s']:.1f} | {r['check_cpu_s']:.1f} | {r['check_peak_mb']:.0f} "
                    f"| {r['check_exit']} | {r['load_before']}/{r['load_after']} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
