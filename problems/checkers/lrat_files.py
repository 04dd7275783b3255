"""A knights proof as standard files a reviewer checks without knightcert (issue 42).

:func:`export_proof` writes, for a certificate entry the checker accepted, the formula it
refutes as DIMACS (``formula.cnf``: exactly the clauses
:func:`~knightcert.problems.checkers.knights_cnf.knights_cnf` builds, in its order, so clause
``i`` has LRAT identifier ``i``), the proof as text LRAT (``proof.lrat``) and a ``README``
naming the commands of two checkers that share no code with knightcert: drat-trim's
``lrat-check`` and the verified ``cake_lpr``. docs/certificates.md specifies the formula.

Text LRAT: an addition is ``id literals 0 hints 0``, a deletion ``id d ids 0`` (the
identifier of a deletion line is the last one added; checkers do not read it).
"""

from __future__ import annotations

import os
from typing import IO

import numpy as np

from knightcert.problems.errors import InvalidArgument
from knightcert.problems.output_file import atomic_output, write_atomic

__all__ = ["README", "dimacs", "export_proof", "lrat_binary_to_text", "lrat_text_to_binary", "occupied"]

#: The files :func:`export_proof` writes.
FORMULA, PROOF, README = "formula.cnf", "proof.lrat", "README"

_README = """\
{what}

formula.cnf  the formula, DIMACS: {variables} variables, {clauses} clauses (clause i is LRAT id i)
proof.lrat   its refutation, text LRAT: {lemmas} additions, the last the empty clause

The formula is specified in knightcert's docs/certificates.md ("The knights formula"): it
can be rebuilt from that text alone and compared with formula.cnf; why its refutation proves
the bound is proved there too ("Why a refutation proves the bound", Theorems 1-5). Check the proof with a
checker that shares no code with knightcert:

  drat-trim's lrat-check (https://github.com/marijnheule/drat-trim, cc -O2 -o lrat-check lrat-check.c):
      lrat-check formula.cnf proof.lrat          # prints "c VERIFIED"
  cake_lpr, the verified checker (https://github.com/tanyongkiam/cake_lpr, make), which reads LRAT:
      cake_lpr formula.cnf proof.lrat            # prints "s VERIFIED UNSAT"

or with knightcert's own: knightcert check ... --export-proof re-checks it before writing.
"""


def _number(u: int) -> bytes:
    out = bytearray()
    while u >= 128:
        out.append((u & 127) | 128)
        u >>= 7
    out.append(u)
    return bytes(out)


def lrat_text_to_binary(text: str) -> bytes:
    """Textual LRAT (``4 1 -2 0 1 3 0`` additions, ``4 d 1 2 0`` deletions) as binary LRAT;
    ValueError if malformed (tests and tools; the checker reads binary only).

    Examples
    --------
    >>> lrat_text_to_binary("5 2 0 1 2 0\\n")
    b'a\\n\\x04\\x00\\x02\\x04\\x00'
    """
    out = bytearray()
    for raw in text.splitlines():
        words = raw.split()
        if not words or words[0] == "c":
            continue
        if len(words) >= 2 and words[1] == "d":
            if words[-1] != "0":
                raise ValueError(f"malformed LRAT deletion: {raw!r}")
            out += b"d" + b"".join(_number(2 * int(w)) for w in words[2:-1]) + b"\x00"
            continue
        numbers = [int(w) for w in words]
        if numbers.count(0) != 2 or numbers[-1] != 0 or numbers[0] <= 0:
            raise ValueError(f"malformed LRAT addition: {raw!r}")
        cut = numbers.index(0, 1)
        clause, hints = numbers[1:cut], numbers[cut + 1 : -1]
        out += b"a" + _number(2 * numbers[0])
        out += b"".join(_number(2 * abs(v) + (v < 0)) for v in clause) + b"\x00"
        out += b"".join(_number(2 * abs(h) + (h < 0)) for h in hints) + b"\x00"
    return bytes(out)


def lrat_binary_to_text(binary: bytes, stream: IO[bytes]) -> int:
    """Write binary LRAT as text LRAT to the binary ``stream``; return the additions written.

    Raises
    ------
    ValueError
        The binary is malformed (:func:`~knightcert.problems.checkers.lrat.read_lrat`).

    Examples
    --------
    >>> import io
    >>> out = io.BytesIO()
    >>> lrat_binary_to_text(lrat_text_to_binary("5 -2 0 1 2 0\\n5 d 1 0\\n6 0 5 3 4 0\\n"), out)
    2
    >>> out.getvalue().decode()
    '5 -2 0 1 2 0\\n5 d 1 0\\n6 0 5 3 4 0\\n'
    """
    from knightcert.problems.checkers.lrat import read_lrat

    read = read_lrat([], binary)
    if isinstance(read, int):
        raise ValueError(f"the proof is malformed at byte {read}")
    lits, ids = read.lits, read.ids
    signed = np.where(lits & 1, -(lits >> 1), lits >> 1).tolist()
    named, lcut, hcut = read.hints.tolist(), read.lstart.tolist(), read.hstart.tolist()
    last, added = 0, 0
    for r, kind in enumerate(read.kinds.tolist()):
        reasons = named[hcut[r] : hcut[r + 1]]
        if kind == 1:
            words = [last, "d", *reasons, 0]
        else:
            last, added = int(ids[r]), added + 1
            words = [last, *signed[lcut[r] : lcut[r + 1]], 0, *reasons, 0]
        stream.write((" ".join(map(str, words)) + "\n").encode("ascii"))
    return added


def dimacs(variables: int, clauses: list[list[int]], stream: IO[bytes]) -> None:
    """Write the formula in DIMACS (``p cnf variables clauses``, a clause a line) to ``stream``."""
    stream.write(f"p cnf {variables} {len(clauses)}\n".encode("ascii"))
    stream.write("".join(" ".join(map(str, [*clause, 0])) + "\n" for clause in clauses).encode("ascii"))


def occupied(folder: str) -> str | None:
    """The first of the proof's files already in ``folder`` (somebody's: never replaced), or None."""
    taken = [name for name in (FORMULA, PROOF, README) if os.path.lexists(os.path.join(folder, name))]
    return taken[0] if taken else None


def export_proof(board, entry: dict, folder: str, fixed: tuple = ()) -> str:
    """Write ``formula.cnf``, ``proof.lrat`` and ``README`` for the proof ``entry`` (a
    certificate entry the checker accepted, :func:`~knightcert.problems.checkers.clausal_proof.proof_entry`)
    of a bound on ``board`` with the ``fixed`` knights into ``folder`` (made if missing); return a
    line saying what was written.

    Examples
    --------
    >>> import tempfile
    >>> from knightcert.problems.board import Board
    >>> from knightcert.problems.checkers.clausal_proof import encode_proof
    >>> proof = lrat_text_to_binary("2 0 1 0\\n")  # 3 knights on 2 squares: the empty clause
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     export_proof(Board(1, 2), encode_proof(proof, 3), folder).split(":")[1]
    ' formula.cnf (2 variables, 1 clauses), proof.lrat (1 additions), README'
    """
    from knightcert.problems.checkers.clausal_proof import decode_proof
    from knightcert.problems.checkers.knights_cnf import knights_cnf

    knights, named = entry["knights"], {key: entry.get(key, 0) for key in ("lex", "lines", "balanced")}
    variables, clauses = knights_cnf(board, knights, fixed=fixed, **named)
    os.makedirs(folder, exist_ok=True)
    if (taken := occupied(folder)) is not None:
        raise InvalidArgument(f"{os.path.join(folder, taken)} exists: export the proof into another folder")
    with atomic_output(os.path.join(folder, FORMULA), binary=True) as stream:  # no link followed
        dimacs(variables, clauses, stream)
    with atomic_output(os.path.join(folder, PROOF), binary=True) as stream:
        lemmas = lrat_binary_to_text(decode_proof(entry), stream)
    torus = " torus" if board.torus else ""
    removed = int(board.size - board.n_free)
    what = (
        f"A refutation of 'at least {knights} independent knights' on the {board.rows} x "
        f"{board.cols}{torus} board{f' with {removed} squares removed' if removed else ''}"
        f"{f', knights fixed on {list(fixed)}' if fixed else ''}"
        f" (lex {named['lex']}, lines {named['lines']}, balanced {named['balanced']}): no placement "
        f"holds {knights} knights{' with them' if fixed else ''}, so at most {knights - 1} fit."
    )
    text = _README.format(what=what, variables=variables, clauses=len(clauses), lemmas=lemmas)
    write_atomic(os.path.join(folder, README), text)
    files = f"{FORMULA} ({variables} variables, {len(clauses)} clauses), {PROOF} ({lemmas} additions)"
    return f"proof exported to {folder}: {files}, {README}"
