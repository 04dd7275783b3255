"""Writing results: JSON and the one-line summaries."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TextIO

from knightcert.problems.result import Result


def print_json(results: Sequence[Result], stream: TextIO | None = None) -> None:
    """One JSON object for one result, a list for several."""
    import numpy as np

    stream = stream or sys.stdout
    payload = [r.to_dict() for r in results]
    arrays = {}
    for i, record in enumerate(payload):  # tours as (n, 2) arrays: written by the fast formatter
        if isinstance(record.get("solution"), np.ndarray):
            arrays[f'"__knightcert_array_{i}__"'] = record["solution"]
            record["solution"] = f"__knightcert_array_{i}__"
    text = json.dumps(payload[0] if len(payload) == 1 else payload, indent=None)
    for marker, squares in arrays.items():
        head, text = text.split(marker, 1)
        stream.write(head)
        from knightcert.compare.tour_output import squares_json

        for chunk in squares_json(squares):
            stream.write(chunk)
    stream.write(text)
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
