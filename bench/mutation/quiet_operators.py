"""Quiet mutation operators for cosmic-ray (provider ``quiet``).

cosmic-ray's core operators flip comparisons, swap ``and``/``or``, drop ``not``, move numbers by
one and flip ``True``/``False``. A checker's faults are often quieter: one condition of a test
forgotten, one move missing from a table, the first item of a loop never looked at, a returned
check inverted, a validation that no longer raises. Each operator below makes one such change:

``quiet/DropCondition``
    ``a and b and c`` -> ``a and c`` (each operand in turn; ``or`` likewise).
``quiet/DropTableEntry``
    a tuple or list of at least three pairs loses one entry (a move or direction table).
``quiet/SkipFirstIteration``
    ``for x in xs:`` -> ``for x in list(xs)[1:]:``.
``quiet/NegateReturn``
    ``return x < y`` -> ``return not (x < y)`` (a returned comparison or boolean expression).
``quiet/DropRaise``
    ``raise ...`` -> ``pass`` (a validation dropped).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import parso
from cosmic_ray.operators.operator import Example, Operator
from parso.python import tree

__all__ = ["QuietOperators"]

Position = tuple[tuple[int, int], tuple[int, int]]


def _expression(code: str, prefix: str) -> tree.BaseNode:
    """``code`` parsed as one expression node carrying ``prefix`` (the replaced node's spacing)."""
    node = parso.parse(code).children[0]
    node.get_first_leaf().prefix = prefix
    return node


def _prefix(node: tree.NodeOrLeaf) -> str:
    """The spacing before ``node``."""
    return node.get_first_leaf().prefix


def _operands(node: tree.NodeOrLeaf) -> list[tree.NodeOrLeaf]:
    """The operands of an ``and``/``or`` chain (empty for any other node)."""
    if node.type not in ("and_test", "or_test"):
        return []
    return [child for child in node.children if child.type != "keyword"]


class DropCondition(Operator):
    """Drop one operand of an ``and``/``or`` chain."""

    def mutation_positions(self, node) -> Iterator[Position]:
        for operand in _operands(node):
            yield operand.start_pos, operand.end_pos

    def mutate(self, node, index):
        operands = _operands(node)
        kept = [operand.get_code(include_prefix=False) for k, operand in enumerate(operands) if k != index]
        keyword = f" {node.children[1].value} "
        return _expression(f"({keyword.join(kept)})", _prefix(node))

    @classmethod
    def examples(cls):
        return (
            Example("x = a and b", "x = (b)", occurrence=0),
            Example("x = a or b or c", "x = (a or c)", occurrence=1),
        )


def _pair(node: tree.NodeOrLeaf) -> bool:
    """A parenthesised or bracketed literal of exactly two items."""
    if node.type != "atom" or len(node.children) != 3 or node.children[1].type != "testlist_comp":
        return False
    items = [child for child in node.children[1].children if child.type != "operator"]
    return len(items) == 2


def _table_items(node: tree.NodeOrLeaf) -> list[tree.NodeOrLeaf]:
    """The entries of a tuple or list literal of at least three pairs (else empty)."""
    if node.type != "atom" or len(node.children) != 3 or node.children[1].type != "testlist_comp":
        return []
    items = [child for child in node.children[1].children if child.type != "operator"]
    return items if len(items) >= 3 and all(map(_pair, items)) else []


class DropTableEntry(Operator):
    """Delete one entry of a table of pairs."""

    def mutation_positions(self, node) -> Iterator[Position]:
        for item in _table_items(node):
            yield item.start_pos, item.end_pos

    def mutate(self, node, index):
        items = _table_items(node)
        kept = [item.get_code(include_prefix=False) for k, item in enumerate(items) if k != index]
        opening, closing = node.children[0].value, node.children[2].value
        return _expression(f"{opening}{', '.join(kept)}{closing}", _prefix(node))

    @classmethod
    def examples(cls):
        return (Example("T = ((1, 2), (2, 1), (3, 4))", "T = ((1, 2), (3, 4))", occurrence=1),)


class SkipFirstIteration(Operator):
    """Skip a ``for`` loop's first iteration."""

    def mutation_positions(self, node) -> Iterator[Position]:
        if isinstance(node, tree.ForStmt):
            iterable = node.children[3]
            yield iterable.start_pos, iterable.end_pos

    def mutate(self, node, index):
        iterable = node.children[3]
        code = iterable.get_code(include_prefix=False)
        node.children[3] = _expression(f"list({code})[1:]", _prefix(iterable))
        return node

    @classmethod
    def examples(cls):
        return (Example("for x in xs:\n    pass\n", "for x in list(xs)[1:]:\n    pass\n"),)


class NegateReturn(Operator):
    """Negate a returned comparison or boolean expression."""

    TYPES = ("comparison", "and_test", "or_test", "not_test")

    def mutation_positions(self, node) -> Iterator[Position]:
        if node.type == "return_stmt" and len(node.children) == 2 and node.children[1].type in self.TYPES:
            value = node.children[1]
            yield value.start_pos, value.end_pos

    def mutate(self, node, index):
        value = node.children[1]
        node.children[1] = _expression(f"not ({value.get_code(include_prefix=False)})", _prefix(value))
        return node

    @classmethod
    def examples(cls):
        return (Example("def f(x):\n    return x < 1\n", "def f(x):\n    return not (x < 1)\n"),)


class DropRaise(Operator):
    """Replace a ``raise`` statement by ``pass``."""

    def mutation_positions(self, node) -> Iterator[Position]:
        bare = node.type == "keyword" and node.value == "raise" and node.parent.type != "raise_stmt"
        if node.type == "raise_stmt" or bare:
            yield node.start_pos, node.end_pos

    def mutate(self, node, index):
        return tree.Keyword("pass", node.start_pos, _prefix(node))

    @classmethod
    def examples(cls):
        return (
            Example("if x:\n    raise ValueError(x)\n", "if x:\n    pass\n"),
            Example("try:\n    f()\nexcept E:\n    raise\n", "try:\n    f()\nexcept E:\n    pass\n"),
        )


class QuietOperators:
    """The provider cosmic-ray loads from the entry point ``cosmic_ray.operator_providers``."""

    OPERATORS: ClassVar[dict[str, type[Operator]]] = {
        op.__name__: op for op in (DropCondition, DropTableEntry, SkipFirstIteration, NegateReturn, DropRaise)
    }

    def __iter__(self):
        return iter(self.OPERATORS)

    def __getitem__(self, name: str) -> type[Operator]:
        return self.OPERATORS[name]
