"""Print the package's code lines: Python lines that are neither blank, comments nor docstrings,
in the six layer folders (the lean-and-legible budget counts these).

    python bench/count_lines.py            # a line per folder, then the total
    python bench/count_lines.py --files    # every file, largest first
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

LAYERS = ("problems", "algorithms", "models", "heuristics", "knightcert", "compare")
ROOT = Path(__file__).resolve().parent.parent


def docstring_lines(tree: ast.AST) -> set[int]:
    """The line numbers of every module, class and function docstring in ``tree``."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            is_text = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            if is_text and isinstance(first.value.value, str):  # type: ignore[attr-defined]
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def code_lines(path: Path) -> int:
    """The lines of ``path`` that are code."""
    text = path.read_text(encoding="utf-8")
    skip = docstring_lines(ast.parse(text))
    return sum(
        1
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip() and not line.strip().startswith("#") and number not in skip
    )


def layer_files(layer: str) -> list[Path]:
    """The Python files of one layer folder, not following the links knightcert/ holds."""

    def linked(path: Path) -> bool:
        parts = path.relative_to(ROOT).parts
        return any((ROOT.joinpath(*parts[:end])).is_symlink() for end in range(1, len(parts)))

    return sorted(path for path in (ROOT / layer).rglob("*.py") if not linked(path))


def main(argv: list[str]) -> int:
    counts = {path: code_lines(path) for layer in LAYERS for path in layer_files(layer)}
    if "--files" in argv:
        for path, count in sorted(counts.items(), key=lambda item: -item[1]):
            print(f"{count:6d}  {path.relative_to(ROOT)}")
    for layer in LAYERS:
        print(f"{layer:12s} {sum(n for p, n in counts.items() if p.relative_to(ROOT).parts[0] == layer):6d}")
    print(f"{'total':12s} {sum(counts.values()):6d}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
