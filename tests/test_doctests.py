"""Every docstring example in the package runs (imported as ``knightcert.…``, as users import it)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

SKIP = {"knightcert.__main__", "knightcert.cli.__main__"}


def modules() -> list[str]:
    names = ["knightcert"]
    for layer in ("problems", "algorithms", "models", "heuristics", "compare", "cli"):
        package = importlib.import_module(f"knightcert.{layer}")
        names.append(package.__name__)
        names += [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return [name for name in names if name not in SKIP]


@pytest.mark.parametrize("name", modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0


def test_doctests_were_found():
    finder = doctest.DocTestFinder()
    count = sum(
        len(test.examples) for name in modules() for test in finder.find(importlib.import_module(name))
    )
    assert count >= 10
