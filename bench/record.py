"""Run a bench script and keep what it printed as one JSON record for docs/benchmarks.md.

Usage (from the repository root)::

    PYTHONPATH=. nice -n 10 python bench/record.py NAME bench/bench_path_c.py --repeats 7

runs the script in a child process (its output passes through), then writes
``bench/results/NAME.json``: the command as run, the date (UTC), the commit, the machine
(CPU model, cores, memory, Python and the numerical libraries' versions), the nice level, the
load average before and after, the wall time, and what the script printed: each Markdown table
(the line before it as its title, its header, alignments and rows) and the other lines as notes.
``python bench/make_page.py`` renders the page from these records.

A figure that cannot be re-run here (hours, or gigabytes) may be kept as a record written by hand
in the same shape with a ``"by_hand"`` field naming its source (command, date, load); the page
marks it "recorded by hand".
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
LIBRARIES = ("numpy", "ortools", "numba", "networkx", "python-igraph")


def machine() -> dict[str, object]:
    """The CPU model, cores, memory (GiB) and the versions of Python and the libraries measured."""
    cpuinfo = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    models = [line.split(":", 1)[1].strip() for line in cpuinfo.splitlines() if line.startswith("model name")]
    pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    versions = {}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {
        "cpu": models[0] if models else platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "memory_gib": round(pages / 2**30),
        "python": platform.python_version(),
        **versions,
    }


def parse(output: str) -> tuple[list[dict[str, object]], list[str]]:
    """Markdown tables (title, header, align, rows) and the other non-empty lines of ``output``."""
    tables: list[dict[str, object]] = []
    notes: list[str] = []
    lines = [line.rstrip() for line in output.splitlines()]
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("|") and index + 1 < len(lines) and lines[index + 1].startswith("|---"):
            cells = [split_row(lines[index]), split_row(lines[index + 1])]
            index += 2
            while index < len(lines) and lines[index].startswith("|"):
                cells.append(split_row(lines[index]))
                index += 1
            title = notes.pop().lstrip("# ") if notes and notes[-1].startswith("#") else ""
            tables.append({"title": title, "header": cells[0], "align": cells[1], "rows": cells[2:]})
            continue
        if line.strip():
            notes.append(line)
        index += 1
    return tables, notes


def split_row(line: str) -> list[str]:
    """The cells of one Markdown table row."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def dump(record: dict[str, object]) -> str:
    """``record`` as JSON with a line per field and per table row (small diffs when re-measured)."""

    def compact(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    fields = [f" {compact(key)}: {compact(value)}" for key, value in record.items() if key != "tables"]
    tables = []
    for table in record.get("tables", []):  # type: ignore[attr-defined]
        rows = ",\n".join(f"    {compact(row)}" for row in table["rows"])
        head = ", ".join(f"{compact(key)}: {compact(table[key])}" for key in ("title", "header", "align"))
        tables.append(f'  {{{head},\n   "rows": [\n{rows}\n  ]}}')
    return "{\n" + ",\n".join([*fields, ' "tables": [\n' + ",\n".join(tables) + "\n ]"]) + "\n}\n"


def commit() -> str:
    """The checkout's short commit, with ``+`` when its tracked files have changes."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    return git("rev-parse", "--short", "HEAD") + ("+" if git("status", "--porcelain", "-uno") else "")


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print((__doc__ or "").split("\n\n")[1], file=sys.stderr)
        return 2
    name, script = argv[0], argv[1:]
    prefix = "PYTHONPATH=. " if os.environ.get("PYTHONPATH", "") in (".", str(ROOT)) else ""
    record: dict[str, object] = {
        "command": prefix + " ".join(["python", *script]),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": commit(),
        "machine": machine(),
        "nice": os.nice(0),
        "load_before": [round(value, 2) for value in os.getloadavg()],
    }
    began = time.perf_counter()
    child = subprocess.Popen([sys.executable, *script], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdout is not None
    lines = []
    for line in child.stdout:
        sys.stdout.write(line)
        lines.append(line)
    if child.wait():
        print(f"record.py: {script[0]} exited with {child.returncode}; no record written", file=sys.stderr)
        return child.returncode
    record["wall_s"] = round(time.perf_counter() - began, 1)
    record["load_after"] = [round(value, 2) for value in os.getloadavg()]
    record["tables"], record["notes"] = parse("".join(lines))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.json").write_text(dump(record))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
