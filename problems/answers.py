"""Answer files: an answer with its evidence, saved so anyone can re-check it without solving.

An answer file is one JSON object (schema ``knightcert-answer/1``)::

    {
      "schema": "knightcert-answer/1",
      "problem": "knights",
      "instance": {"name": "8x8", "sha256": "...", "fields": {"rows": 8, ...}, "data": {...}},
      "method": "matching",
      "status": "OPTIMAL",
      "objective": 32, "bound": 32,
      "solution": [[0, 0], [0, 2], ...],
      "certificate": {"matching": {"array": "int8", "shape": [32, 2, 2], "zlib": "eJz..."}},
      "evidence": [{"claim": "answer", "backing": "certificate", "how": "placement checked"}, ...],
      "time_s": 0.004, "nodes": null,
      "versions": {"knightcert": "0.2.0", "python": "3.11.9", "numpy": "...", ...},
      "parameters": {"time_limit": null, "seed": null},
      "sha256": "..."
    }

``instance.sha256`` fingerprints the instance's canonical form (sizes, flags,
ends and the raw little-endian bytes of its arrays), so an answer can only be
checked against the instance it was made for; ``fields`` holds its sizes and
flags (torus, closed, fixed ends). The instance itself is embedded (``data``)
when its canonical form is small (at most ``EMBED_BYTES``); the file's
``path`` is recorded when it is known. Large arrays (certificates, long solutions)
are stored compactly: the smallest little-endian integer type that holds
them, zlib-compressed, base64 (``{"array": dtype, "shape": [...], "zlib": text}``;
booleans bit-packed). The top-level ``sha256`` seals the file: it is the
SHA-256 of the canonical JSON of every other field, so any altered byte is
detected even where the altered answer would still be valid.

Nothing read from a file is trusted: :func:`result_from_answer` checks every
field strictly (integers only, the right shapes) and the checker then
re-derives or re-checks every claim (:func:`check_answer`).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import math
import os
import platform
import zlib
from typing import Any

import numpy as np

from knightcert.problems.board import MAX_SQUARES
from knightcert.problems.checkers.clausal_proof import proof_entry
from knightcert.problems.checkers.common import CheckFailed
from knightcert.problems.checkers.knights_band import band_entry
from knightcert.problems.errors import InvalidArgument, InvalidInstance, KnightcertError
from knightcert.problems.instance_types import PROBLEMS, instance_type, problem_of
from knightcert.problems.output_file import atomic_output
from knightcert.problems.result import Backing, Evidence, Result, Status, plain
from knightcert.problems.side_constraints import SIDE_FIELDS, sides_of

__all__ = [
    "COMPACT_SQUARES",
    "DTYPES",
    "EMBED_BYTES",
    "MALFORMED",
    "PROBLEMS",
    "SCHEMA",
    "VALUES_PER_SQUARE",
    "AnswerFileError",
    "InvalidAnswer",
    "answer_fields",
    "answer_to_dict",
    "array_limit",
    "canonical_instance",
    "check_answer",
    "decode_array",
    "describe_instance",
    "encode_array",
    "instance_for_answer",
    "instance_from_data",
    "instance_sha256",
    "instance_to_data",
    "package_version",
    "plain_answer",
    "read_answer",
    "result_from_answer",
    "seal",
    "versions",
    "write_answer",
]

#: Schema name and version written into every answer file.
SCHEMA = "knightcert-answer/1"
#: Canonical instances up to this many bytes of JSON are embedded in the answer.
EMBED_BYTES = 1_000_000
#: Solutions with more squares than this are stored as a compact array.
COMPACT_SQUARES = 4096
#: Integer types an answer file may use for arrays, smallest first.
DTYPES = ("int8", "int16", "int32", "int64")


class InvalidAnswer(CheckFailed):
    """A field of an answer that is not what the schema allows; the message names the field."""


class AnswerFileError(KnightcertError):
    """An answer file that cannot be read at all (missing, not JSON, another schema, another instance)."""


# ----------------------------------------------------------------------------------------- arrays


def encode_array(array: Any) -> dict[str, Any]:
    """A compact JSON form of an integer or boolean array (smallest integer type, zlib, base64).

    Examples
    --------
    >>> data = encode_array(np.array([[0, 1], [2, 300]]))
    >>> data["array"], data["shape"], decode_array(data, "x").tolist()
    ('int16', [2, 2], [[0, 1], [2, 300]])
    """
    array = np.asarray(array)
    if array.dtype == np.bool_:
        packed = np.packbits(array.reshape(-1), bitorder="little")
        return {"array": "bool", "shape": list(array.shape), "zlib": _pack(packed.tobytes())}
    if array.dtype.kind not in "iu":
        raise TypeError(f"only integer or boolean arrays are stored, not {array.dtype}")
    low, high = (int(array.min()), int(array.max())) if array.size else (0, 0)
    dtype = next(d for d in DTYPES if np.iinfo(d).min <= low and high <= np.iinfo(d).max)
    raw = np.ascontiguousarray(array, dtype=np.dtype(dtype).newbyteorder("<")).tobytes()
    return {"array": dtype, "shape": list(array.shape), "zlib": _pack(raw)}


#: Builtin errors that a malformed answer can raise deep in reading it: turned into a refusal.
MALFORMED = (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)
#: Values per square an answer's array may hold (a matching's pairs hold 4 per pair of
#: squares, a tour's order 2 per square; labels 1): declared shapes beyond are refused.
VALUES_PER_SQUARE = 8


def decode_array(data: Any, field: str, claim: str = "answer", max_elements: int | None = None) -> np.ndarray:
    """Decode :func:`encode_array`'s form; InvalidAnswer naming ``field`` if anything is off.

    The declared shape is checked against ``max_elements`` (what the instance allows, default
    :data:`~knightcert.problems.board.MAX_SQUARES`) before anything is decompressed, and the
    decompression stops at the declared size: a small file cannot inflate to gigabytes."""
    if not isinstance(data, dict) or set(data) != {"array", "shape", "zlib"}:
        raise InvalidAnswer(f"{field}: expected an encoded array with keys array, shape, zlib", claim)
    dtype, shape, text = data["array"], data["shape"], data["zlib"]
    if dtype not in (*DTYPES, "bool"):
        raise InvalidAnswer(f"{field}: array type {dtype!r} is not one of {', '.join(DTYPES)}, bool", claim)
    if not (isinstance(shape, list) and len(shape) <= 8 and all(type(s) is int and s >= 0 for s in shape)):
        raise InvalidAnswer(f"{field}: shape {_cut(shape)} is not a list of at most 8 sizes", claim)
    count = math.prod(shape)
    limit = MAX_SQUARES if max_elements is None else max_elements
    if count > limit:
        raise InvalidAnswer(
            f"{field}: shape {_cut(shape)} holds {count} values; the instance allows at most {limit}", claim
        )
    size = (count + 7) // 8 if dtype == "bool" else count * np.dtype(dtype).itemsize
    if not isinstance(text, str):
        raise InvalidAnswer(f"{field}: zlib data is not text", claim)
    from knightcert.problems.input_file import check_memory

    check_memory(3 * size, f"the answer's {field} (shape {_cut(shape)})")  # inflated, copied, converted
    try:
        packed = base64.b64decode(text.encode("ascii"), validate=True)
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, size + 1)
        complete = inflater.eof and not inflater.unused_data
    except (ValueError, UnicodeEncodeError, zlib.error) as exc:
        raise InvalidAnswer(f"{field}: corrupt array data ({exc})", claim) from None
    if len(raw) != size or not complete:
        raise InvalidAnswer(f"{field}: array data holds {len(raw)} bytes, shape {shape} needs {size}", claim)
    if dtype == "bool":
        bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), count=count, bitorder="little")
        return bits.astype(bool).reshape(shape)
    return np.frombuffer(raw, dtype=np.dtype(dtype).newbyteorder("<")).astype(np.int64).reshape(shape)


def _cut(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


def array_limit(instance: Any) -> int | None:
    """Most values an answer's array may hold for ``instance``: :data:`VALUES_PER_SQUARE` per
    square (per square and player in a jump game), plus a little; None without an instance."""
    board = getattr(instance, "board", None)
    if board is not None:
        return VALUES_PER_SQUARE * int(board.rows) * int(board.cols) + 64
    shape = getattr(getattr(instance, "values", None), "shape", None)
    if shape is not None:
        players = max(1, len(getattr(instance, "starts", ()) or ()))
        return VALUES_PER_SQUARE * math.prod(int(n) for n in shape) * players + 64
    return None


def _pack(raw: bytes) -> str:
    return base64.b64encode(zlib.compress(raw, 6)).decode("ascii")


def _is_encoded(value: Any) -> bool:
    return isinstance(value, dict) and "array" in value and "zlib" in value


# -------------------------------------------------------------------------------------- instances


def canonical_instance(instance: Any) -> tuple[str, dict[str, Any], dict[str, np.ndarray]]:
    """``(problem, fields, arrays)``: what identifies an instance, arrays kept apart (for hashing)."""
    try:
        problem = problem_of(instance)
    except InvalidArgument:
        raise InvalidAnswer(f"instance: {type(instance).__name__} is not a knightcert instance") from None
    if problem == "jump":
        starts = [list(map(int, s)) for s in instance.starts]
        fields: dict[str, Any] = {"rows": instance.rows, "cols": instance.cols, "starts": starts}
        return problem, fields, {"values": instance.values}
    board = instance.board
    fields = {"rows": board.rows, "cols": board.cols, "torus": bool(board.torus)}
    if problem == "path":
        fields.update(start=list(instance.start), exit=list(instance.exit))
    elif problem == "tour":
        fields.update(
            closed=bool(instance.closed),
            start=None if instance.start is None else list(map(int, instance.start)),
            end=None if instance.end is None else list(map(int, instance.end)),
        )
    for name, value in sides_of(problem, instance).items():  # only those set: a plain instance's hash stays
        fields[name] = _lists(value)
    return problem, fields, {"blocked": board.blocked}


def instance_sha256(instance: Any) -> str:
    """SHA-256 of an instance's canonical form: fields as sorted JSON, then each array's
    raw little-endian int64 (booleans: one byte) values, in name order.

    Notes
    -----
    O(size of the instance); independent of compression and of how the file was written.
    """
    problem, fields, arrays = canonical_instance(instance)
    digest = hashlib.sha256(json.dumps([problem, fields], sort_keys=True).encode())
    for name in sorted(arrays):
        array = np.asarray(arrays[name])
        kind = np.uint8 if array.dtype == np.bool_ else np.dtype("<i8")
        digest.update(name.encode() + b":" + str(array.shape).encode())
        digest.update(np.ascontiguousarray(array, dtype=kind).tobytes())
    return digest.hexdigest()


def instance_to_data(instance: Any) -> dict[str, Any]:
    """The canonical form as JSON (arrays encoded), embeddable in an answer file."""
    problem, fields, arrays = canonical_instance(instance)
    return {"problem": problem, **fields, **{k: encode_array(v) for k, v in arrays.items()}}


def instance_from_data(data: Any, name: str = "") -> Any:
    """Rebuild an instance from :func:`instance_to_data`'s form (every field checked)."""
    from knightcert.problems.board import Board

    if not isinstance(data, dict) or data.get("problem") not in PROBLEMS:
        raise AnswerFileError("instance 'data': expected an embedded instance with its problem")
    problem = data["problem"]
    kind = instance_type(problem)
    try:
        if problem == "jump":
            size = _int(data.get("rows"), "rows") * _int(data.get("cols"), "cols")
            values = decode_array(data.get("values"), "instance 'values'", max_elements=max(size, 0))
            starts = tuple(_pair(s, "instance 'starts'") for s in _list(data.get("starts"), "starts"))
            return kind(values, starts, name)
        rows, cols = _int(data.get("rows"), "rows"), _int(data.get("cols"), "cols")
        blocked = decode_array(data.get("blocked"), "instance 'blocked'", max_elements=max(rows * cols, 0))
        board = Board(rows, cols, blocked, _bool(data.get("torus"), "torus"))
        sides: dict[str, Any] = {k: tuple(_list(data.get(k, []), k)) for k in SIDE_FIELDS[problem]}
        if problem == "path":
            knight, exit_ = _pair(data["start"], "start"), _pair(data["exit"], "exit")
            return kind(board, knight, exit_, name, **sides)
        if problem == "knights":
            return kind(board, name, **sides)
        start = None if data.get("start") is None else _pair(data["start"], "start")
        end = None if data.get("end") is None else _pair(data["end"], "end")
        return kind(board, _bool(data.get("closed", False), "closed"), start, end, name, **sides)
    except (CheckFailed, InvalidInstance, KeyError, TypeError, ValueError, OverflowError) as exc:
        raise AnswerFileError(f"instance 'data': {exc}") from None


def _lists(value: Any) -> Any:
    """Tuples of ints as JSON lists (side constraints)."""
    return [_lists(v) for v in value] if isinstance(value, tuple | list) else int(value)


def _bool(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise AnswerFileError(f"instance '{field}': {value!r} is not a JSON boolean (true or false)")
    return value


def _int(value: Any, field: str) -> int:
    if type(value) is not int:
        raise AnswerFileError(f"instance '{field}': {value!r} is not an integer")
    return value


def _pair(value: Any, field: str) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(type(x) is int for x in value)):
        raise AnswerFileError(f"instance '{field}': {value!r} is not a [row, col] pair")
    return (value[0], value[1])


def _list(value: Any, field: str) -> list:
    if not isinstance(value, list):
        raise AnswerFileError(f"instance '{field}': expected a list")
    return value


# ---------------------------------------------------------------------------------------- answers


def answer_to_dict(
    result: Result,
    instance: Any,
    *,
    parameters: dict[str, Any] | None = None,
    instance_path: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """The answer file's content for ``result`` on ``instance`` (sealed with ``sha256``).

    Parameters
    ----------
    result : Result
        Any result; save what :func:`knightcert.problems.checkers.certify` returned
        to include the evidence and the certificate that was checked.
    instance : instance object
        What ``result`` answers; embedded when its canonical form is small.
    parameters : dict, optional
        How the method was run (time limit, seed, options), JSON-able.
    instance_path : path, optional
        The instance file, recorded when the instance is too large to embed.
    """
    problem, fields, _ = canonical_instance(instance)
    if result.problem and result.problem != problem:
        raise InvalidAnswer(f"problem: the result is for {result.problem!r}, the instance for {problem!r}")
    described: dict[str, Any] = {
        "name": getattr(instance, "name", "") or "",
        "sha256": instance_sha256(instance),
        "fields": fields,
    }
    data = instance_to_data(instance)
    if len(json.dumps(data)) <= EMBED_BYTES:
        described["data"] = data
    if instance_path is not None:
        described["path"] = os.fspath(instance_path)
    answer = {
        "schema": SCHEMA,
        "problem": problem,
        "instance": described,
        **answer_fields(result),
        "evidence": [e.to_dict() for e in result.evidence],
        "verified": bool(result.verified),
        "certified": bool(result.certified),
        "versions": versions(),
        "parameters": _jsonable(parameters or {}),
    }
    answer["sha256"] = seal(answer)
    return answer


def answer_fields(result: Result) -> dict[str, Any]:
    """The answer part of an answer file (no instance, no seal): plain JSON values, arrays
    stored compactly; :func:`result_from_answer` reads it back. How a worker process hands its
    answer to the parent, which checks it again."""
    return {
        "method": result.method,
        "status": result.status.value,
        "objective": plain(result.objective),
        "bound": plain(result.bound),
        "solution": _solution_out(result.solution),
        "certificate": _certificate_out(result.certificate),
        "time_s": round(float(result.time), 6),
        "nodes": plain(result.nodes),
        "info": _jsonable(result.info),
    }


def write_answer(
    path: str | os.PathLike[str],
    result: Result,
    instance: Any,
    *,
    parameters: dict[str, Any] | None = None,
    instance_path: str | os.PathLike[str] | None = None,
) -> None:
    """Write :func:`answer_to_dict` to ``path`` atomically (a temporary file, synced, then a
    rename: :func:`~knightcert.problems.output_file.atomic_output`).

    Raises
    ------
    InvalidArgument
        The file cannot be written (full disk, name too long); the message names it.
    """
    answer = answer_to_dict(result, instance, parameters=parameters, instance_path=instance_path)
    with atomic_output(path) as stream:  # created exclusively, renamed: no link followed
        # one string (json.dump encodes in pure Python, a write per token); a NaN a method
        # wrote is kept, then rejected
        stream.write(json.dumps(answer, separators=(",", ":")) + "\n")


def read_answer(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read an answer file: the JSON object, its schema checked. ``FILE#N`` (no file of that
    name) is line N of the JSON Lines file ``FILE``, a comparison's answers file.

    Raises
    ------
    AnswerFileError
        Unreadable, not JSON, not an object, another schema, or no such line.
    """
    from knightcert.problems.input_file import load_json, read_text

    file, _, line = os.fspath(path).rpartition("#")
    try:  # the one reader: regular files or '-', size capped, UTF-8, JSON depth capped
        if file and line.isascii() and line.isdigit() and not os.path.lexists(path):
            info = os.stat(file) if os.path.exists(file) else None  # missing: read_text says so
            version = info and (info.st_size, info.st_mtime_ns, info.st_ino)
            # kept while it is the next run's (up to 2 MB: a larger file holds one large answer)
            lines = (_lines if info and info.st_size < 2**21 else _lines.__wrapped__)(file, version)
            if not 0 < int(line) <= len(lines):
                raise AnswerFileError(f"{file}: has no answer on line {line}")
            text = lines[int(line) - 1]
        else:
            text, _ = read_text(path, "answer file")
        data = load_json(text, os.fspath(path), "JSON answer file")
    except InvalidInstance as exc:
        raise AnswerFileError(str(exc)) from None
    if not isinstance(data, dict):
        raise AnswerFileError(f"{os.fspath(path)}: an answer file holds one JSON object")
    if data.get("schema") != SCHEMA:
        raise AnswerFileError(f"{os.fspath(path)}: schema {data.get('schema')!r}, expected {SCHEMA!r}")
    return data


@functools.lru_cache(maxsize=16)  # a resume reads every line of the answers files in turn
def _lines(path: str, version: tuple[int, ...] | None) -> list[str]:
    """The lines of the answers file ``path`` as it is at ``version`` (its size and times)."""
    from knightcert.problems.input_file import read_text

    return read_text(path, "answer file")[0].removesuffix("\n").split("\n")  # the last ends with it


def seal(answer: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of every field but ``sha256`` itself."""
    body = {k: v for k, v in answer.items() if k != "sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def result_from_answer(
    data: dict[str, Any], *, problem: str, instance: Any = None, max_elements: int | None = None
) -> Result:
    """The :class:`Result` an answer (file content, or a program's JSON output) states, fields checked.

    ``schema``, ``sha256`` and ``instance`` are optional here (a program's
    output may omit them); when present they must be right. Evidence read
    from the answer is kept but not trusted: :func:`~knightcert.problems.checkers.certify`
    recomputes it.

    Raises
    ------
    InvalidAnswer
        A field that is missing, of the wrong type, not a finite integer, or
        of the wrong shape; the message names it (``"objective: 2.5 is not an integer"``).
        The file's seal does not match its content.

    With ``instance``, every encoded array's declared shape is checked against it
    (:func:`array_limit`) before anything is decompressed.
    """
    limit = array_limit(instance) if max_elements is None else max_elements
    from knightcert.problems.checkers.fields import optional_integer

    status, method = _answer_header(data, problem)
    claim = {"OPTIMAL": "optimal", "INFEASIBLE": "infeasible"}.get(status.value, "bound")
    try:
        objective = optional_integer(data.get("objective"), "objective")
        bound = optional_integer(data.get("bound"), "bound", claim="bound")
        nodes = optional_integer(data.get("nodes"), "nodes")
        solution = _solution_in(data.get("solution"), problem, limit)
        certificate = _certificate_in(data.get("certificate"), claim, limit)
    except InvalidAnswer:
        raise
    except CheckFailed as exc:
        raise InvalidAnswer(exc.reason, exc.claim) from None
    elapsed = data.get("time_s", 0.0)
    if not (isinstance(elapsed, int | float) and not isinstance(elapsed, bool) and math.isfinite(elapsed)):
        raise InvalidAnswer(f"time_s: {elapsed!r} is not a number of seconds")
    info = data.get("info") or {}
    if not isinstance(info, dict):
        raise InvalidAnswer("info: expected an object")
    described = data.get("instance")
    name = str(described.get("name", "")) if isinstance(described, dict) else ""
    evidence = _evidence_in(data.get("evidence"))
    return Result(
        problem, method, status, objective, bound, solution, float(elapsed), instance=name, nodes=nodes,
        certificate=certificate, info=info, evidence=evidence,
    )  # fmt: skip


def _answer_header(data: Any, problem: str) -> tuple[Status, str]:
    """An answer's schema, seal, problem, status and method, checked: ``(status, method)``."""
    if not isinstance(data, dict):
        raise InvalidAnswer("answer: expected a JSON object")
    if problem not in PROBLEMS:
        raise InvalidAnswer(f"problem: {problem!r} is not one of {', '.join(PROBLEMS)}")
    if "schema" in data and data["schema"] != SCHEMA:
        raise InvalidAnswer(f"schema: {data['schema']!r}, expected {SCHEMA!r}")
    if "sha256" in data and data["sha256"] != seal(data):
        raise InvalidAnswer("sha256: the answer was altered after it was written (its seal does not match)")
    if data.get("problem", problem) != problem:
        raise InvalidAnswer(f"problem: the answer is for {data['problem']!r}, not {problem!r}")
    status = data.get("status")
    if status not in {s.value for s in Status}:
        raise InvalidAnswer(f"status: {status!r} is not one of {', '.join(s.value for s in Status)}")
    method = data.get("method", "")
    if not isinstance(method, str):
        raise InvalidAnswer(f"method: {method!r} is not a name")
    return Status(status), method


def _solution_in(solution: Any, problem: str, limit: int | None) -> Any:
    """An answer's solution, checked: squares, or the jump game's dict; arrays decoded."""
    from knightcert.problems.checkers.fields import squares

    if _is_encoded(solution):
        solution = decode_array(solution, "solution", max_elements=limit).tolist()
    if solution is not None and problem != "jump":
        squares(solution, "solution")
    if problem == "jump" and solution is not None and not isinstance(solution, dict):
        raise InvalidAnswer("solution: expected the jump game's dict (winner, round, key, path)")
    return solution


def _certificate_in(certificate: Any, claim: str, limit: int | None) -> dict[str, Any] | None:
    """An answer's certificate, every entry checked (a proof, a band, integer arrays)."""
    from knightcert.problems.checkers.fields import int_array

    if certificate is None:
        return None
    if not isinstance(certificate, dict):
        raise InvalidAnswer("certificate: expected an object", claim)

    def entry(key: str, value: Any) -> Any:
        if key == "drat":
            return proof_entry(value, claim)
        if key == "band":
            return band_entry(value, claim)
        if _is_encoded(value):
            return decode_array(value, f"certificate '{key}'", claim, limit)
        return int_array(value, f"certificate '{key}'", claim=claim)

    return {key: entry(key, value) for key, value in certificate.items()}


def plain_answer(value: Result | dict[str, Any]) -> dict[str, Any]:
    """A method's answer — a :class:`Result` (of any subclass) or an answer dict — as an answer
    dict of exact plain JSON values, ready for :func:`result_from_answer`.

    The value goes once through JSON: lists, dicts, numbers and strings come back as exact
    built-in types whatever subclasses the method used (a ``list`` that lies about its
    length, an ``int`` that lies about its value, a ``Result`` whose ``certified`` always
    says yes); numpy values are turned into plain ones; a Result's stored fields are read,
    never its properties. A NaN stays NaN (and is refused by :func:`result_from_answer`).

    Raises
    ------
    InvalidAnswer
        A value JSON cannot hold, or nesting deeper than Python can encode.
    """
    if isinstance(value, Result):
        stored = vars(value)
        status = stored.get("status")
        value = {
            "method": stored.get("method"),
            "status": status.value if isinstance(status, Status) else status,
            "objective": stored.get("objective"),
            "bound": stored.get("bound"),
            "solution": stored.get("solution"),
            "certificate": stored.get("certificate"),
            "nodes": stored.get("nodes"),
            "time_s": stored.get("time"),
            "info": stored.get("info"),
        }
    elif isinstance(value, dict):
        value = dict.copy(value)
    try:
        return json.loads(json.dumps(value, default=_json_default))
    except (TypeError, ValueError, RecursionError) as exc:
        why = f"{type(exc).__name__}: {str(exc)[:80]}"
        raise InvalidAnswer(f"answer: not plain JSON values ({why})") from None


def _json_default(value: Any) -> Any:
    if isinstance(value, np.ndarray | np.generic | Status | tuple):
        return plain(value)
    raise TypeError(f"{type(value).__name__} is not an answer value")


def _evidence_in(value: Any) -> tuple[Evidence, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InvalidAnswer("evidence: expected a list of {claim, backing, how}")
    out = []
    for i, item in enumerate(value):
        if not (
            isinstance(item, dict)
            and isinstance(item.get("claim"), str)
            and isinstance(item.get("how", ""), str)
        ):
            raise InvalidAnswer(f"evidence[{i}]: expected {{claim, backing, how}}")
        try:
            out.append(Evidence(item["claim"], Backing(item.get("backing")), item.get("how", "")))
        except ValueError:
            raise InvalidAnswer(f"evidence[{i}]: backing {item.get('backing')!r} is unknown") from None
    return tuple(out)


def instance_for_answer(data: dict[str, Any], instance: Any = None) -> Any:
    """The instance to check ``data`` against: ``instance``, which must be the one the answer
    describes, else the one embedded in the answer.

    Given an instance, every instance-describing field of the answer is compared with it —
    each of ``fields`` (sizes, torus, closed, start, end, starts), the embedded ``data`` and
    the fingerprint ``sha256`` — and any difference is refused, naming the field: an answer
    is only ever checked against the instance the user gave, and reported under that
    instance's own name (the answer's ``name`` is a label, never printed). Without one, the
    embedded data is the instance, named from that data alone (never from the answer's
    ``name``), so everything printed about it comes from what is checked.

    Raises
    ------
    AnswerFileError
        The answer is for another instance (the field is named), or names none and none is given.
    """
    described = data.get("instance")
    if described is not None and not isinstance(described, dict):
        raise AnswerFileError("instance: expected an object with name and sha256")
    described = described or {}
    embedded = instance_from_data(described["data"]) if "data" in described else None
    if instance is None:
        if embedded is None:
            path = described.get("path")
            where = f" (it was read from {path!r})" if isinstance(path, str) else ""
            raise AnswerFileError(f"the answer does not embed its instance{where}: give the instance file")
        instance = instance_from_data(described["data"], describe_instance(embedded))
    else:
        _same_instance(described, instance, embedded)
    expected = described.get("sha256")
    if expected is not None and expected != instance_sha256(instance):
        raise AnswerFileError(
            f"instance 'sha256': the answer is for another instance ({str(expected)[:12]}..., "
            f"this one {instance_sha256(instance)[:12]}...)"
        )
    return instance


def describe_instance(instance: Any) -> str:
    """A name made from an instance's content only: ``8x8``, ``8x8 torus``, ``8x8, 32 removed``,
    ``8x8 closed from (0, 0)``, ``jump 5x5, 3 players``."""
    problem, fields, arrays = canonical_instance(instance)
    text = f"{fields['rows']}x{fields['cols']}"
    if problem == "jump":
        return f"jump {text}, {len(fields['starts'])} players"
    if fields.get("torus"):
        text += " torus"
    removed = int(np.count_nonzero(arrays["blocked"]))
    if removed and problem != "path":
        text += f", {removed} removed"
    if problem == "tour":
        text += " closed" if fields["closed"] else " open"
        if fields["start"] is not None:
            text += f" from {tuple(fields['start'])}"
        if fields["end"] is not None:
            text += f" to {tuple(fields['end'])}"
    sides = [f"{len(fields[k])} {k.replace('_', ' ')}" for k in SIDE_FIELDS[problem] if k in fields]
    return text + "".join(f", {side}" for side in sides)


def _same_instance(described: dict[str, Any], instance: Any, embedded: Any) -> None:
    """Refuse, naming the field, any way in which the answer's instance differs from ``instance``."""
    problem, fields, _ = canonical_instance(instance)
    stated_fields = described.get("fields")
    if stated_fields is not None:
        if not isinstance(stated_fields, dict):
            raise AnswerFileError("instance 'fields': expected an object")
        sides = SIDE_FIELDS.get(problem, ())  # a side constraint not set is an empty list
        for key in sorted(set(map(str, stated_fields)) | set(sides)):
            if key not in fields and key not in sides:
                raise AnswerFileError(f"instance 'fields' {key!r}: not a field of a {problem} instance")
            stated, given = stated_fields.get(key, []), fields.get(key, [])
            if not _equal_json(stated, given):
                raise AnswerFileError(
                    f"instance '{key}': the answer is for another instance (it says "
                    f"{_short(stated)}, the instance given has {_short(given)})"
                )
    if embedded is not None and instance_sha256(embedded) != instance_sha256(instance):
        raise AnswerFileError("instance 'data': the answer is for another instance (its data differ)")


def _equal_json(a: Any, b: Any) -> bool:
    """Equal as JSON values with exact types: ``true`` is not ``1``, ``"false"`` is not ``false``."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_equal_json(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_answer(
    instance: Any, answer: dict[str, Any] | str | os.PathLike[str], *, raising: bool = True
) -> Result:
    """Re-check a saved answer without solving: ``knightcert.check``.

    Parameters
    ----------
    instance : instance object or None
        The instance the answer is for (its fingerprint must match the
        answer's); ``None`` uses the instance embedded in the answer.
    answer : dict or path
        An answer file's content, or its path.
    raising : bool, default True
        False: a rejected claim is returned, unverified, the reason in ``info["check_error"]``
        (:func:`~knightcert.problems.checkers.certify`), as it was when the answer was made.

    Returns
    -------
    Result
        The answer with ``verified``, ``evidence`` (what backs each claim, as
        re-derived by the checker) and ``certified``.

    Raises
    ------
    CheckFailed
        A claim is rejected (with ``raising``; ``InvalidAnswer`` for a malformed field, always);
        ``claim`` says which, the message why.
    AnswerFileError
        The file cannot be read, or is for another instance.

    Examples
    --------
    >>> from knightcert.problems.independent_knights import knights_instance
    >>> from knightcert.problems.checkers import certify
    >>> placement = [[r, c] for r in range(3) for c in range(3) if (r + c) % 2 == 0]
    >>> claim = Result("knights", "mine", Status.OPTIMAL, 5, 5, placement, 0.0)
    >>> data = answer_to_dict(claim, knights_instance(3))
    >>> checked = check_answer(None, data)
    >>> checked.certified, [e.how for e in checked.evidence]
    (True, ['placement checked', 'matching (Kőnig)'])
    """
    from knightcert.problems.checkers import certify, check

    if isinstance(answer, Result):  # an answer in memory: checked against the instance given
        if instance is None:
            raise AnswerFileError("a Result does not carry its instance: give the instance")
        return check(instance, answer.with_(instance=getattr(instance, "name", "") or answer.instance))
    try:
        data = answer if isinstance(answer, dict) else read_answer(answer)
        problem = data.get("problem")
        if problem not in PROBLEMS:
            raise AnswerFileError(f"problem: {_short(problem)} is not one of {', '.join(PROBLEMS)}")
        instance = instance_for_answer(data, instance)
        result = result_from_answer(data, problem=problem, instance=instance)
    except KnightcertError:
        raise
    except MALFORMED as exc:  # a shape of file no check anticipated: refused, never an internal error
        raise AnswerFileError(f"answer: malformed ({type(exc).__name__}: {str(exc)[:100]})") from None
    return (check if raising else certify)(
        instance, result.with_(instance=getattr(instance, "name", "") or result.instance)
    )


@functools.cache  # read once per process: 10,000 answer files would read them 60,000 times
def versions() -> dict[str, str]:
    """Versions of knightcert, Python and the libraries that make or check answers (do not change it)."""
    names = ("knightcert", "numpy", "scipy", "numba", "ortools", "python-sat")
    return {"python": platform.python_version(), **{n: package_version(n) or "not installed" for n in names}}


def package_version(name: str) -> str | None:
    """The installed version of the distribution ``name``, or None."""
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _solution_out(solution: Any) -> Any:
    if isinstance(solution, np.ndarray):
        solution = solution.tolist()
    if isinstance(solution, list) and len(solution) > COMPACT_SQUARES:
        try:
            return encode_array(np.asarray(solution, dtype=np.int64))
        except (TypeError, ValueError):
            return _jsonable(solution)
    return _jsonable(solution)


def _certificate_out(certificate: Any) -> Any:
    if not isinstance(certificate, dict):  # None included
        return _jsonable(certificate)
    out = {}
    for key, value in certificate.items():
        array = np.asarray(value)
        # an empty array keeps its shape too (an empty matching is (0, 2, 2), not [])
        out[key] = encode_array(array) if array.dtype.kind in "biu" else _jsonable(value)
    return out


def _jsonable(value: Any) -> Any:
    """Plain JSON values; anything else written as its text."""
    return plain(value, str)
