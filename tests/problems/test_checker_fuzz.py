"""Differential fuzzing of the checkers against an independent brute-force oracle.

Random small instances of every problem; a valid answer from the exact method;
then one or two random perturbations of its fields (status, objective, bound,
solution; the jump game's winner, round, key and path; a consistent lie: one
element fewer with the objective and bound moved with it). The checker
(``check_answer``, as ``knightcert.check`` runs it) must accept the answer
exactly when the oracle (``tests/oracle.py``, which shares no code with the
package) says the answer is correct and every claim it makes is true.

In the main test certificates are left out: the checker then derives its own,
which is what the oracle's brute force decides too. A second test keeps the
method's certificate (as a saved answer file does): with it intact the verdict
must still be the oracle's, and with the certificate forged too (an array entry
moved, an array cut short or made uniform, a part dropped or garbage) the
checker may refuse the answer but must never accept a false claim. The corpus
(``test_forged_answers.py``, ``test_certificates_corpus.py``) and the mutation
run (``bench/mutation/run.py``) test certificates by hand.

``FUZZ_EXAMPLES`` (environment) sets the examples per problem; the default
command runs 200 per problem, about a thousand in all (the long run,
``python bench/fuzz_checkers.py``, runs 20 000 per problem).
"""

from __future__ import annotations

import base64
import copy
import math
import os
import random
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knightcert.problems.answers import AnswerFileError, answer_fields, check_answer
from knightcert.problems.board import Board
from knightcert.problems.checkers import CheckFailed
from knightcert.problems.errors import InvalidInstance
from knightcert.problems.independent_knights import KnightsInstance
from knightcert.problems.jump_game import parse_jump
from knightcert.problems.lost_knight import parse_lost_knight
from knightcert.problems.tours import TourInstance
from knightcert.solving import solve
from tests.oracle import CORRECT

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))


def knights_case(rng: random.Random):
    rows, cols = rng.randint(1, 4), rng.randint(1, 4)
    torus = rng.random() < 0.3
    blocked = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.2}
    mask = [[(r, c) in blocked for c in range(cols)] for r in range(rows)]
    instance = KnightsInstance(Board(rows, cols, mask, torus), "k")
    return instance, {"rows": rows, "cols": cols, "torus": torus, "blocked": blocked}


def path_case(rng: random.Random):
    rows, cols = rng.randint(1, 5), rng.randint(2, 5)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    start, exit_ = rng.sample(cells, 2)
    blocked = {s for s in cells if s not in (start, exit_) and rng.random() < 0.3}
    text = "".join(
        "".join(
            "C" if (r, c) == start else "S" if (r, c) == exit_ else "x" if (r, c) in blocked else "."
            for c in range(cols)
        )
        + "\n"
        for r in range(rows)
    )
    data = {"rows": rows, "cols": cols, "blocked": blocked, "start": start, "exit": exit_}
    return parse_lost_knight(text), data


def tour_case(rng: random.Random):
    rows, cols = rng.randint(1, 4), rng.randint(1, 4)
    torus = rng.random() < 0.2
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = {s for s in cells if rng.random() < 0.1}
    free = [s for s in cells if s not in blocked] or cells[:1]
    blocked -= {free[0]}
    closed = rng.random() < 0.4
    start = rng.choice(free) if rng.random() < 0.4 else None
    end = rng.choice(free) if rng.random() < 0.3 else None  # closed tours too (the API allows it)
    if end is not None and end == start:
        end = None
    mask = [[(r, c) in blocked for c in range(cols)] for r in range(rows)]
    instance = TourInstance(Board(rows, cols, mask, torus), closed, start, end, "t")
    data = {"rows": rows, "cols": cols, "torus": torus, "blocked": blocked, "closed": closed,
            "start": start, "end": end}  # fmt: skip
    return instance, data


def jump_case(rng: random.Random):
    rows, cols = rng.randint(1, 3), rng.randint(2, 4)
    values = [[rng.randint(0, 3) for _ in range(cols)] for _ in range(rows)]
    values[-1][-1] = 0
    players = rng.randint(1, 3)
    starts = [(rng.randrange(rows), rng.randrange(cols)) for _ in range(players)]
    text = f"{rows} {cols}\n{players}\n" + "".join(" ".join(map(str, row)) + "\n" for row in values)
    text += "".join(f"{r} {c}\n" for r, c in starts)
    return parse_jump(text), {"values": values, "starts": starts}


CASES = {"knights": knights_case, "path": path_case, "tour": tour_case, "jump": jump_case}


def valid_answer(instance, keep_certificate: bool = False) -> dict:
    try:
        result = solve(instance)
    except InvalidInstance:  # an odd torus: the matching does not apply, the branch and bound does
        result = solve(instance, method="bnb")
    answer = {"problem": result.problem, **answer_fields(result)}
    if not keep_certificate:
        answer["certificate"] = None
    if isinstance(answer["solution"], dict):  # jump: the table and the text are checked elsewhere
        answer["solution"] = {k: answer["solution"][k] for k in ("winner", "round", "key", "path")}
    return answer


def perturb_squares(rng: random.Random, squares: list, rows: int, cols: int) -> list | None:
    squares = copy.deepcopy(squares)
    kind = rng.randrange(8)
    if kind == 0 or not squares:
        return [*squares, [rng.randrange(-1, rows + 1), rng.randrange(-1, cols + 1)]]
    i = rng.randrange(len(squares))
    if kind == 1:
        del squares[i]
    elif kind == 2:
        squares.insert(rng.randrange(len(squares) + 1), list(squares[i]))
    elif kind == 3:
        squares[i] = [rng.randrange(rows), rng.randrange(cols)]
    elif kind == 4:
        j = rng.randrange(len(squares))
        squares[i], squares[j] = squares[j], squares[i]
    elif kind == 5:
        squares.reverse()
    elif kind == 6:
        squares[i] = [squares[i][0] + rng.choice((-1, 1)), squares[i][1]]
    else:
        return None
    return squares


def perturb_number(rng: random.Random, value):
    base = value if type(value) is int else 0
    return rng.choice([base + 1, base - 1, None, -1, base + 0.5, True, str(base), base + 2])


def perturb(rng: random.Random, problem: str, answer: dict, rows: int, cols: int) -> dict:
    answer = copy.deepcopy(answer)
    field = rng.choice(["status", "objective", "bound", "solution", "solution", "solution", "shorter"])
    solution, objective = answer["solution"], answer["objective"]
    if field == "shorter" and isinstance(solution, list) and solution and type(objective) is int:
        # a consistent lie: one element fewer, and the numbers moved with it
        del answer["solution"][rng.randrange(len(answer["solution"]))]
        if answer["bound"] == answer["objective"]:
            answer["bound"] -= 1
        answer["objective"] -= 1
    elif field == "shorter":
        answer["solution"] = None
    elif field == "status":
        answer["status"] = rng.choice(["OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN"])
        if rng.random() < 0.5 and answer["status"] in ("INFEASIBLE", "UNKNOWN"):  # consistent-looking
            answer["solution"] = answer["objective"] = None
            if answer["status"] == "INFEASIBLE":
                answer["bound"] = None
    elif field in ("objective", "bound"):
        current = answer[field] if answer[field] is not None else answer["objective"]
        answer[field] = perturb_number(rng, current)
    elif isinstance(answer["solution"], dict):
        solution = answer["solution"]
        part = rng.choice(["winner", "round", "key", "path", "path"])
        if part == "winner":
            solution["winner"] = rng.choice(["A", "B", "C", "ZZ", None, 0])
        elif part in ("round", "key"):
            solution[part] = perturb_number(rng, solution[part])
        elif solution["path"] is not None:
            solution["path"] = perturb_squares(rng, solution["path"], rows, cols)
    elif answer["solution"] is not None:
        answer["solution"] = perturb_squares(rng, answer["solution"], rows, cols)
    else:
        answer["solution"] = [[rng.randrange(rows), rng.randrange(cols)]]
    return answer


def accepted(instance, answer: dict) -> bool:
    try:
        check_answer(instance, answer)
    except (CheckFailed, AnswerFileError):
        return False
    return True


def run_case(problem: str, seed: int) -> None:
    rng = random.Random(seed)
    instance, data = CASES[problem](rng)
    answer = valid_answer(instance)
    oracle = CORRECT[problem]
    assert accepted(instance, answer) and oracle(data, answer), (problem, data, answer)
    rows = data.get("rows") or len(data["values"])
    cols = data.get("cols") or len(data["values"][0])
    for _ in range(3):
        forged = perturb(rng, problem, answer, rows, cols)
        if rng.random() < 0.3:
            forged = perturb(rng, problem, forged, rows, cols)
        truth = oracle(data, forged)
        assert accepted(instance, forged) == truth, (problem, data, answer, forged, truth)


@pytest.mark.parametrize("problem", sorted(CASES))
@settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_checker_agrees_with_the_oracle(problem, seed):
    run_case(problem, seed)


def decode(field: dict) -> np.ndarray:
    """The answer files' array form (dtype, shape, zlib + base64), read here on its own."""
    raw = zlib.decompress(base64.b64decode(field["zlib"]))
    if field["array"] == "bool":
        count = math.prod(field["shape"])
        bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")[:count]
        return bits.astype(bool).reshape(field["shape"])
    return np.frombuffer(raw, np.dtype(field["array"]).newbyteorder("<")).reshape(field["shape"]).copy()


def encode(array: np.ndarray) -> dict:
    if array.dtype == bool:
        raw = np.packbits(array.reshape(-1), bitorder="little").tobytes()
        kind = "bool"
    else:
        raw, kind = array.astype("<i8").tobytes(), "int64"
    return {"array": kind, "shape": list(array.shape), "zlib": base64.b64encode(zlib.compress(raw)).decode()}


def perturb_certificate(rng: random.Random, certificate, objective=None):
    """One change to a certificate: an entry of one of its arrays moved, flipped, set (to the
    claimed objective too, as a forger aiming at a false claim would), an array cut short,
    grown by a copy of its first row or made uniform, a part dropped or replaced by garbage."""
    certificate = copy.deepcopy(certificate)
    if not isinstance(certificate, dict) or not certificate or rng.random() < 0.1:
        return rng.choice([None, {}, {"bogus": 1}, []])
    key = rng.choice(sorted(certificate))
    value = certificate[key]
    if not (isinstance(value, dict) and set(value) == {"array", "shape", "zlib"}):
        certificate[key] = rng.choice([None, 0, [], "x"])
        return certificate
    array = decode(value)
    kind = rng.randrange(8)
    if kind == 6 and array.ndim and array.shape[0]:
        array = np.concatenate([array, array[:1]])
    elif kind == 7 and array.size and array.dtype != bool and type(objective) is int:
        array.reshape(-1)[rng.randrange(array.size)] = objective
    elif kind == 0 and array.size:
        flat = array.reshape(-1)
        i = rng.randrange(flat.size)
        flat[i] = (not flat[i]) if array.dtype == bool else flat[i] + rng.choice((-1, 1, 2, -2))
    elif kind == 1 and array.size:
        flat = array.reshape(-1)
        flat[rng.randrange(flat.size)] = rng.choice((0, 1)) if array.dtype == bool else rng.randrange(-1, 9)
    elif kind == 2 and array.ndim and array.shape[0]:
        array = array[:-1]
    elif kind == 3:
        array = np.full_like(array, rng.choice((0, 1)) if array.dtype == bool else rng.randrange(-1, 4))
    elif kind == 4:
        del certificate[key]
        return certificate
    else:
        certificate[key] = rng.choice([None, 0, [], "x", {"array": "int8", "shape": [1], "zlib": "eJw="}])
        return certificate
    certificate[key] = encode(array)
    return certificate


@pytest.mark.parametrize("problem", sorted(CASES))
@settings(max_examples=max(1, EXAMPLES // 4), suppress_health_check=list(HealthCheck), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_forged_certificate_never_certifies_a_false_claim(problem, seed):
    """Answers that carry certificates (as saved answer files do): the answer with its own
    certificate is accepted exactly when the oracle agrees, whatever its claims were changed
    to; with the certificate forged as well, the checker may refuse it, but accepts it only
    when the oracle says every claim is true."""
    rng = random.Random(seed)
    instance, data = CASES[problem](rng)
    answer = valid_answer(instance, keep_certificate=True)
    oracle = CORRECT[problem]
    assert accepted(instance, answer), (problem, data, answer)
    rows = data.get("rows") or len(data["values"])
    cols = data.get("cols") or len(data["values"][0])
    for _ in range(3):
        claimed = perturb(rng, problem, answer, rows, cols) if rng.random() < 0.7 else copy.deepcopy(answer)
        truth = oracle(data, claimed)
        assert accepted(instance, claimed) == truth, (problem, data, answer, claimed, truth)
        certificate = perturb_certificate(rng, answer["certificate"], claimed["objective"])
        forged = {**claimed, "certificate": certificate}
        if accepted(instance, forged):
            assert truth, (problem, data, answer, forged)


def test_the_oracle_can_say_no():
    """The oracle is not a rubber stamp: on a known instance it refuses an answer one short."""
    data = {"rows": 3, "cols": 3, "torus": False, "blocked": set()}
    placement = [[r, c] for r in range(3) for c in range(3) if (r + c) % 2 == 0]
    good = {"status": "OPTIMAL", "objective": 5, "bound": 5, "solution": placement}
    assert CORRECT["knights"](data, good)
    assert not CORRECT["knights"](data, {**good, "objective": 4, "bound": 4, "solution": placement[:4]})


# ------------------------------------------------------------------------------- LRAT proofs


def odd_torus_case(rng: random.Random):
    """A small torus with an odd side (no Kőnig certificate), some squares removed."""
    rows, cols = rng.choice((3, 5)), rng.randint(3, 7)
    holes = rng.random() < 2 / 3  # a full torus a third of the time: lex-leader proofs
    blocked = {(r, c) for r in range(rows) for c in range(cols) if holes and rng.random() < 0.1}
    mask = [[(r, c) in blocked for c in range(cols)] for r in range(rows)]
    instance = KnightsInstance(Board(rows, cols, mask, True), "k")
    return instance, {"rows": rows, "cols": cols, "torus": True, "blocked": blocked}


def lrat_entry(board, knights: int) -> dict | None:
    """CaDiCaL's LRAT proof (renumbered by the producer) that ``knights`` knights do not fit,
    of the formula the producer refutes (lex-leader clauses and balanced lines on a full torus)."""
    from knightcert.models.knights_sat import _lrat, formula_of
    from knightcert.problems.checkers.clausal_proof import encode_proof
    from knightcert.problems.checkers.knights_cnf import knights_cnf

    named = dict(zip(("lex", "lines", "balanced"), formula_of(board), strict=True))
    try:
        proof = _lrat(knights_cnf(board, knights, **named)[1])
    except SystemExit:  # the producer's child exits so when the knights fit
        return None
    return None if proof is None else encode_proof(proof, knights, **named)


def perturb_proof(rng: random.Random, entry: dict, other: dict | None) -> dict:
    """One change to a proof entry: a byte flipped, the proof cut short or records dropped,
    another board's proof, the bound it refutes moved, the length of its lex-leader
    comparisons changed, or its balanced lines removed."""
    import lzma

    from knightcert.problems.checkers.clausal_proof import encode_proof

    binary = bytearray(lzma.decompress(base64.b64decode(entry["xz"])))
    kind = rng.randrange(6)
    if kind == 5 and "balanced" in entry and rng.random() < 0.3:  # the balanced lines removed
        return {k: v for k, v in entry.items() if k != "balanced"}
    if kind == 5:  # the lex-leader comparisons' length removed, moved or added
        lex = entry.get("lex", 0) + rng.choice((-1, 1, 2))
        return {k: v for k, v in entry.items() if k != "lex"} | ({"lex": lex} if lex > 0 else {})
    if kind == 0 and binary:
        binary[rng.randrange(len(binary))] ^= 1 << rng.randrange(8)
    elif kind == 1:
        binary = binary[: rng.randrange(len(binary) + 1)]
    elif kind == 2:
        records = bytes(binary).split(b"\x00a")
        i = rng.randrange(len(records))
        binary = bytearray(b"\x00a".join(records[:i] + records[i + rng.randint(1, 4) :]))
    elif kind == 3 and other is not None:
        return other
    else:
        return {**entry, "knights": max(1, entry["knights"] + rng.choice((-2, -1, 1)))}
    named = {key: entry.get(key, 0) for key in ("lex", "lines", "balanced")}
    return encode_proof(bytes(binary), entry["knights"], **named)


@settings(max_examples=max(25, EXAMPLES // 40), suppress_health_check=list(HealthCheck), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_forged_proof_never_certifies_a_false_claim(seed):
    """Odd tori with an LRAT proof of the optimum's bound: intact, the answer is accepted exactly
    when the oracle agrees (whatever its claims were changed to); with the proof forged (a bit
    flipped, cut, records dropped, another board's, another bound), accepted only when every
    claim is true."""
    rng = random.Random(seed)
    instance, data = odd_torus_case(rng)
    result = solve(instance, method="bnb")
    answer = {"problem": "knights", **answer_fields(result), "certificate": None}
    entry = lrat_entry(instance.board, result.objective + 1)
    assert entry is not None
    answer["certificate"] = {"drat": entry}
    oracle = CORRECT["knights"]
    assert accepted(instance, answer) and oracle(data, answer), (data, answer)
    other_instance, _ = odd_torus_case(rng)
    other = lrat_entry(other_instance.board, result.objective + 1)
    for _ in range(3):
        claimed = perturb(rng, "knights", answer, data["rows"], data["cols"])
        truth = oracle(data, claimed)
        assert accepted(instance, claimed) == truth, (data, answer, claimed, truth)
        forged = {**claimed, "certificate": {"drat": perturb_proof(rng, entry, other)}}
        if accepted(instance, forged):
            assert truth, (data, forged)
