"""The LRAT proofs of knights bounds (issues 30, 42): produced by CaDiCaL, checked by the checker."""

from __future__ import annotations

import re

import pytest

import knightcert.models.knights_sat as producer
from knightcert.models.knights_sat import prove_upper_bound
from knightcert.problems.checkers import certify
from knightcert.problems.checkers.knights import check_bound_proof, check_placement
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.result import Backing, Status
from knightcert.solving import solve

SEVEN = knights_instance(7, 7, torus=True)


@pytest.fixture(scope="module")
def seven_proof():
    """CaDiCaL refuting 15 knights on the 7 x 7 torus, its child ended: the tests read its
    outcome (``_outcome``, as ``finish`` returns it) under their own limits, one child for all."""
    proof = producer.BoundProof(SEVEN, 15)
    proof.wait()
    yield proof
    proof.finish()


def test_a_true_bound_gets_a_proof_the_checker_accepts(seven_proof):
    entry, placement, info = seven_proof._outcome()
    assert entry is not None and placement is None
    assert entry["knights"] == 15 and info["proof"].startswith("LRAT")
    assert entry["format"] == "lrat-binary"
    assert check_bound_proof(SEVEN.board, entry).startswith("LRAT proof (")


def test_the_proof_child_s_start_is_reported_apart(seven_proof):
    """The child's interpreter start and imports (``proof_start_s``) are measured, within the
    proof's own time; a ``started`` file that holds no finite number is not read as one."""
    import io

    _, _, info = seven_proof._outcome()
    assert 0 < info["proof_start_s"] <= info["proof_solve_s"]
    for text, read in (("12.5", 12.5), ("nan", None), ("inf", None), ("x", None), ("\xff", None), ("", None)):
        assert producer._started(io.BytesIO(text.encode("latin-1"))) == read


def test_without_lrat_there_is_no_proof(monkeypatch, seven_proof):
    """Where python-sat gives no LRAT the checker's numbering maps onto, the producer writes no
    proof (there is no DRAT fallback: the checker reads LRAT only) and says why."""
    import io

    assert producer.line_scale(SEVEN.board) == 2  # the inverse of 4 modulo 7
    monkeypatch.setattr(producer, "_lrat", lambda *args: None)
    with pytest.raises(SystemExit) as ended:
        producer._refute(SEVEN.board, 15, (0, 2, 1), io.BytesIO())
    assert ended.value.code == producer.NO_LRAT
    monkeypatch.setattr(seven_proof.child, "returncode", producer.NO_LRAT)  # ended without LRAT
    entry, placement, info = seven_proof._outcome()
    assert entry is None and placement is None and "writes no LRAT" in info["proof"]


def test_a_proof_past_the_checkers_limits_is_not_attached(monkeypatch, seven_proof):
    """A proof the checker would refuse for its size (past the 2 GiB a proof may have) is
    not attached: no entry, and the info says why."""
    entry, _, info = seven_proof._outcome()
    assert entry is not None
    size = int(info["proof"].split(", ")[1].split(" ")[0])
    monkeypatch.setattr(producer, "MAX_PROOF_BYTES", size - 1)
    entry, _, info = seven_proof._outcome()
    assert entry is None and info["proof"].endswith(f"past the {size - 1} bytes a proof may have")
    monkeypatch.setattr(producer, "MAX_PROOF_BYTES", size)
    monkeypatch.setattr(producer, "MAX_PROOF_TEXT", 10)
    entry, _, info = seven_proof._outcome()
    assert entry is None and info["proof"].endswith("packed, past the 10 characters a proof may have")


def test_a_false_bound_gets_no_proof():
    """A bound below the optimum gets no proof: the solver places a knight more."""
    proof = producer.BoundProof(SEVEN, 14)
    proof.wait()
    entry, placement, info = proof.finish()
    assert entry is None and "placed 14 knights" in info["proof"] and placement is not None
    assert check_placement(SEVEN, placement) == 14


def test_a_failed_start_leaves_no_file_open(monkeypatch):
    """The child cannot start: the proof's files (nameless: nothing on disk) are closed and the
    error raised."""
    import subprocess
    import tempfile

    made, real = [], tempfile.TemporaryFile

    def temporary(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    def popen(*args, **kwargs):
        raise OSError("no child")

    monkeypatch.setattr(tempfile, "TemporaryFile", temporary)
    monkeypatch.setattr(subprocess, "Popen", popen)
    with pytest.raises(OSError, match="no child"):
        producer.BoundProof(SEVEN, 15)
    assert len(made) == 3 and all(stream.closed for stream in made)


def test_no_time_no_proof():
    entry, info = prove_upper_bound(knights_instance(11, 11, torus=True), 44, time_limit=0.0)
    assert entry is None and info["proof"].startswith("no proof within")


@pytest.fixture(scope="module")
def seven_by_cpsat():
    """CP-SAT's answer on the 7 x 7 torus as if it were past the checker's search, and the
    progress notes heard while it ran (one solve for the tests that read them)."""
    import knightcert.problems.checkers.knights as knights_checker
    from knightcert.problems.progress import listening

    heard: list[str] = []
    with pytest.MonkeyPatch.context() as patch, listening(heard.append):
        patch.setattr(knights_checker, "SEARCH_SQUARES", 10)  # as if 7 x 7 were past the search
        result = solve(SEVEN, method="cpsat")
    return result, heard


def test_cpsat_attaches_a_proof_where_the_checker_has_no_certificate(monkeypatch, seven_by_cpsat):
    import knightcert.problems.checkers.knights as knights_checker

    monkeypatch.setattr(knights_checker, "SEARCH_SQUARES", 10)  # as if 7 x 7 were past the search
    result, _ = seven_by_cpsat
    assert result.status is Status.OPTIMAL and result.objective == 14 and "drat" in result.certificate
    optimal = next(e for e in result.evidence if e.claim == "optimal")
    assert result.certified and optimal.backing is Backing.PROOF
    assert "proof_s" in result.info
    # on a board the checker certifies itself, no proof is made
    plain = solve(knights_instance(7, 7), method="cpsat")
    assert plain.certified and "drat" not in (plain.certificate or {})
    again = certify(SEVEN, result)  # the checked answer checks again, with the same evidence
    assert again.certified
    # the same claims, backings and proof; only the checking time may differ between the two checks
    untimed = re.compile(r", checked in [0-9.]+ s")
    assert [(e.claim, e.backing, untimed.sub("", e.how)) for e in again.evidence] == [
        (e.claim, e.backing, untimed.sub("", e.how)) for e in result.evidence
    ]


def test_odd_square_tori_start_from_the_anti_diagonals(seven_by_cpsat):
    result, _ = seven_by_cpsat
    assert result.info["start"] == "anti-diagonal construction"
    assert result.status is Status.OPTIMAL and result.certified and result.info["placed_by_proof_solver"] == 0


@pytest.mark.heavy
def test_the_proof_solver_places_the_knights_cp_sat_missed(monkeypatch):
    """CP-SAT stopped one knight short: CaDiCaL places one more (checked), then proves that
    none more fits; the answer is optimal on that proof."""
    import knightcert.models.knights_cpsat as model
    import knightcert.problems.checkers.knights as knights_checker
    from knightcert.problems.result import Result

    board = knights_instance(7, 11, torus=True)  # the checker's band does not reach its optimum
    best = model.cpsat(board)
    assert best.status is Status.OPTIMAL

    def short(instance, **options):
        return Result.answer(
            "knights",
            "cpsat",
            status=Status.FEASIBLE,
            objective=best.objective - 1,
            solution=best.solution[1:],
            bound=best.objective + 5,
            time=0.0,
            info={"stopped": "time limit"},
        )

    monkeypatch.setattr(model, "cpsat", short)
    monkeypatch.setattr(knights_checker, "SEARCH_SQUARES", 10)
    result = solve(board, method="cpsat")
    assert result.status is Status.OPTIMAL and result.objective == best.objective == result.bound
    assert result.info["placed_by_proof_solver"] == 1 and "stopped" not in result.info
    assert (
        result.certified and next(e for e in result.evidence if e.claim == "optimal").backing is Backing.PROOF
    )


def test_a_proof_that_runs_out_of_time_leaves_the_answer_feasible(monkeypatch):
    """No time for CaDiCaL (nor for CP-SAT alongside, which stops with it): no proof is
    attached; the answer keeps CP-SAT's word (optimal or a bound) or the checker's own band
    bound (26 on 7 x 11, above the optimum 24), certified."""
    import knightcert.problems.checkers.knights as knights_checker

    monkeypatch.setattr(knights_checker, "SEARCH_SQUARES", 10)
    monkeypatch.setattr(producer, "PROOF_SECONDS", 0.0)  # no time for the proof
    result = solve(knights_instance(7, 11, torus=True), method="cpsat")
    assert "drat" not in (result.certificate or {}) and result.info["proof"].startswith("no proof within")
    assert result.verified and result.objective <= 24
    claims = {e.claim: e.backing for e in result.evidence}
    if result.status is Status.OPTIMAL:  # CP-SAT proved it alongside: its word only
        assert claims["optimal"] is Backing.SOLVER and not result.certified
    else:
        assert result.bound == 26 and claims["bound"] is Backing.CERTIFICATE


def test_the_proof_says_what_it_is_doing(seven_by_cpsat):
    """A listener hears which count is placed and which is being refuted (the command line
    shows these notes on a terminal)."""
    result, heard = seven_by_cpsat
    assert result.status is Status.OPTIMAL
    assert heard == ["14 knights placed (anti-diagonal construction); CaDiCaL is proving that 15 do not fit"]


def test_fixed_knights_are_units_of_the_refuted_formula(monkeypatch):
    """Issue 37: with fixed knights the proof refutes the instance's own formula, the fixed
    squares as units and no translation clause (they would break it); K counts the fixed ones.
    Three fixed knights lower the 7 x 7 torus's optimum to 13: the proof, made through the
    command line's method, certifies it, and is refused against the formula without the units
    (where 14 knights fit)."""
    import knightcert.problems.checkers.knights as knights_checker
    from knightcert.problems.checkers.common import CheckFailed

    monkeypatch.setattr(knights_checker, "SEARCH_SQUARES", 10)  # as if the rest were past the search
    fixed = ((0, 0), (0, 1), (1, 1))
    instance = knights_instance(7, 7, torus=True, fixed=fixed)
    result = solve(instance, method="cpsat")
    entry = result.certificate["drat"]
    assert result.status is Status.OPTIMAL and result.objective == 13 and result.certified
    assert entry["knights"] == 14 and "lex" not in entry
    optimal = next(e for e in result.evidence if e.claim == "optimal")
    assert optimal.backing is Backing.PROOF and "the 3 fixed knights as units" in optimal.how
    assert check_bound_proof(SEVEN.board, entry, "optimal", fixed).startswith("LRAT proof (")
    with pytest.raises(CheckFailed, match="LRAT proof refused"):
        check_bound_proof(SEVEN.board, entry, "optimal", fixed[:2])
    with pytest.raises(CheckFailed, match="LRAT proof refused"):
        check_bound_proof(SEVEN.board, entry)
    with pytest.raises(CheckFailed, match="lex 5 needs a torus with no square removed or fixed"):
        check_bound_proof(SEVEN.board, {**entry, "lex": 5}, "optimal", fixed)


def test_a_search_that_fails_alongside_the_proof_ends_its_child(monkeypatch):
    """CP-SAT raises while CaDiCaL proves alongside: the error reaches the caller, and the
    proof's child is ended and waited for, its files closed (nothing left running)."""
    import knightcert.combined as combined
    import knightcert.problems.checkers.knights as knights_checker

    proofs, real = [], producer.BoundProof

    def recorded(*args, **kwargs):
        proofs.append(real(*args, **kwargs))
        return proofs[-1]

    def failing(self, time_limit, **extra):
        raise RuntimeError("CP-SAT failed alongside the proof")

    monkeypatch.setenv("KNIGHTCERT_THREADS", "2")  # alongside
    monkeypatch.setattr(knights_checker, "SEARCH_SQUARES", 10)
    monkeypatch.setattr(producer, "BoundProof", recorded)
    monkeypatch.setattr(combined._Race, "search", failing)
    with pytest.raises(RuntimeError, match="failed alongside"):
        solve(SEVEN, method="cpsat")
    assert proofs and all(p.child.returncode is not None and all(f.closed for f in p.files) for p in proofs)
