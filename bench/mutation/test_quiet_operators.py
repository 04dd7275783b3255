"""Each quiet operator makes exactly the change its examples show (run: pytest bench/mutation)."""

import pytest
from cosmic_ray.mutating import mutate_code
from quiet_operators import QuietOperators

CASES = [(name, example) for name, op in QuietOperators.OPERATORS.items() for example in op.examples()]


@pytest.mark.parametrize(("name", "example"), CASES, ids=[f"{n}-{k}" for k, (n, _) in enumerate(CASES)])
def test_operator_example(name, example):
    operator = QuietOperators()[name]()
    assert mutate_code(example.pre_mutation_code, operator, example.occurrence) == example.post_mutation_code


def test_the_first_sites_of_the_checkers_mutate_to_valid_python():
    """Each operator finds sites in the tour checker or the move tables, and each of its first
    20 mutants there is new, valid Python."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sources = [(root / name).read_text() for name in ("problems/checkers/tour.py", "problems/moves.py")]
    for name in QuietOperators.OPERATORS:
        operator = QuietOperators()[name]()
        found = 0
        for source in sources:
            for occurrence in range(20):
                mutated = mutate_code(source, operator, occurrence)
                if mutated is None:
                    break
                assert mutated != source, (name, occurrence)
                ast.parse(mutated)
                found += 1
        assert found > 0, name
