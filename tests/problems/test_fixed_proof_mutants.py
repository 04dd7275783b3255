"""A test that kills a survivor of the mutation runs on the clausal-proof checker code: the
fixed-knights claim backed by a proof (issue 37, ``knights.py`` ``_certify_with_fixed``);
cosmic-ray, core and quiet operators (docs/certificates.md, "Mutation testing"). (The proofs
in cases it also covered were replaced by the balanced lines.)"""

from __future__ import annotations

import re

import pytest

from knightcert.models.knights_sat import prove_upper_bound
from knightcert.problems.checkers import certify
from knightcert.problems.independent_knights import knights_instance, rest_of
from knightcert.problems.result import Backing
from knightcert.solving import solve

FIXED = knights_instance(5, 5, torus=True, fixed=((0, 0),))  # not bipartite: no matching of the checker's


@pytest.fixture(scope="module")
def fixed_proof() -> dict:
    """CaDiCaL's proof that the 5 x 5 torus with a knight fixed on (0, 0) holds no 6 knights
    (the rest's optimum is 4): the entry the solver attaches for a fixed-knights bound."""
    entry, info = prove_upper_bound(rest_of(FIXED), 4)
    assert entry is not None, info
    return entry


def test_a_fixed_knights_bound_backed_by_a_proof_gets_no_rest_aside(fixed_proof):
    """The proof refutes the whole instance's formula (the fixed knight as a unit), not the
    rest's: its evidence names the fixed knight once, without the "board without the fixed
    knights" aside the rest's certificates get."""
    best = solve(FIXED, "cpsat")
    assert best.objective == 5
    evidence = certify(FIXED, best.with_(certificate={"drat": fixed_proof})).evidence
    assert [(e.claim, e.backing) for e in evidence] == [
        ("answer", Backing.CERTIFICATE),
        ("optimal", Backing.PROOF),
    ]
    how = r"LRAT proof \(\d+ lemmas, the 1 fixed knight as units, counted by knight lines, "
    how += r"checked in \d+\.\d s\)"
    assert re.fullmatch(how, evidence[1].how), evidence[1].how
