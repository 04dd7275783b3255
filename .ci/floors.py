"""Print pins that hold every declared dependency at its floor (``name>=V`` becomes ``name==V``).

Reads ``pyproject.toml``: every entry of ``[project] dependencies`` and the entries of the ``dev``
extra named on the command line (the test tools the fast tests need). CI installs the output into
a fresh virtual environment, so the floors in ``pyproject.toml`` are known to be true.

    python .ci/floors.py pytest hypothesis networkx > floors.txt
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

FLOOR = re.compile(r"^\s*([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*>=\s*([0-9][0-9A-Za-z.]*)\s*$")


def floor_pin(requirement: str) -> str:
    """The pin ``name==V`` (extras kept) for a requirement written ``name>=V``."""
    match = FLOOR.match(requirement)
    if match is None:
        raise SystemExit(f"floors.py: {requirement!r} is not of the form name>=version")
    name, extras, version = match.groups()
    return f"{name}{extras or ''}=={version}"


def main(dev_names: list[str]) -> None:
    project = tomllib.loads(Path(__file__).resolve().parent.parent.joinpath("pyproject.toml").read_text())[
        "project"
    ]
    dev = {re.split(r"[\[>=<~ ]", requirement, maxsplit=1)[0]: requirement
           for requirement in project["optional-dependencies"]["dev"]}
    missing = [name for name in dev_names if name not in dev]
    if missing:
        raise SystemExit(f"floors.py: not in the dev extra: {', '.join(missing)}")
    for requirement in [*project["dependencies"], *(dev[name] for name in dev_names)]:
        print(floor_pin(requirement))


if __name__ == "__main__":
    main(sys.argv[1:])
