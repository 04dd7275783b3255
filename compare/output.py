"""Writing results: JSON and the one-line summaries."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TextIO

from knightcert.problems.result import Result


def print_json(results: Sequence[Result], stream: TextIO | None = None) -> None:
    """One JSON object for one result, a list for several."""
    stream = stream or sys.stdout
    payload = [r.to_dict() for r in results]
    json.dump(payload[0] if len(payload) == 1 else payload, stream, indent=None)
    stream.write("\n")


def check_suffix(result: Result) -> str:
    """`` [NOT VERIFIED: why]`` for a rejected answer, else nothing."""
    if result.verified or result.status.value == "UNKNOWN":
        return ""
    return f" [NOT VERIFIED: {result.info.get('check_error', 'checker rejected the answer')}]"


def exit_code(results: Sequence[Result]) -> int:
    """1 when a checker rejected an answer, else 0."""
    failed = any(not r.verified and r.status.value != "UNKNOWN" for r in results)
    return 1 if failed else 0
