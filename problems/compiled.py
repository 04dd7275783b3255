"""Kernels compiled ahead of time: the numba kernels of the default methods and their checks,
built into one extension module when the package is installed.

Loading a numba kernel in a fresh process costs 0.5-1 s of CPU (numba's import, then its
cache), seconds more when the cache is empty or another user's: more than most solves
(docs/benchmarks.md, "Cold start"). So ``pip install`` compiles the kernels of
:data:`KERNELS` (``setup.py``, numba's ``pycc``) into ``knightcert.problems.compiled_kernels``,
which loads in milliseconds and without numba. :func:`kernel` returns one of them, or None
when the module was not built (a checkout run in place, no C compiler at install) or was built
from other sources; the caller then takes its numba kernel (compiled or loaded on first use).
"""

from __future__ import annotations

import importlib
import re
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["KERNELS", "built", "kernel", "kernel_or_numba", "source_stamp"]

_GRID = "i8[:, ::1]"  # a C-ordered int64 grid
_NB, _MATCHING = "i4[:, ::1]", "problems/knight_matching_kernels.py"  # the padded neighbour table
#: Exported name (the numba function's own) -> (its source file under the package, its signature).
KERNELS = {
    "bfs_torus": ("algorithms/path_kernels.py", "i8(u1[:], i8, i8, i8, i8, i4[:])"),
    "rounds_and_keys": ("algorithms/jump_kernels.py", "i8(i8[:], i8, i8, i8, i4[:], i8[:])"),
    "forward_player": (
        "algorithms/jump_kernels.py",
        "UniTuple(i8, 3)(i8[:], i8, i8, i8, i8, i4[:], i4[:], i4[:])",
    ),
    "label_faults": ("problems/checkers/jump_kernel.py", f"b1[:]({_GRID}, {_GRID}, {_GRID})"),
    "label_faults32": ("problems/checkers/jump_kernel.py", f"b1[:]({_GRID}, i4[:, ::1], {_GRID})"),
    "walk_order": ("heuristics/tour_kernels.py", "i4[:](i4[:, ::1], i8)"),
    "order_squares": ("heuristics/tour_kernels.py", "void(i4[:], i8, i4[:, ::1])"),
    "format_grid": ("cli/text_kernels.py", "i8(i8[:, ::1], i8, u1[:])"),
    "scan": ("problems/jump_scan.py", "UniTuple(i8, 2)(u1[:], i8[:], i4[:], i8)"),
    "meet_labels": ("problems/checkers/jump_kernel.py", f"void({_GRID}, i8[:], i8[:], i8[:])"),
    "replay_fault": ("problems/checkers/jump_kernel.py", f"i8({_GRID}, i8[:, ::1])"),
    "first_rise": ("problems/checkers/path_kernel.py", "i8(u1[:], i8[:], i8, i8)"),
    "first_rise32": ("problems/checkers/path_kernel.py", "i8(u1[:], i4[:], i8, i8)"),
    "greedy_matching": (_MATCHING, f"i8({_NB}, i8[:], i8[:])"),
    "hopcroft_karp_phase": (_MATCHING, f"i8({_NB}, i8[:], i8[:], i8[:], i8[:], i8[:], i8[:])"),
    "push_relabel": (_MATCHING, f"Tuple((b1, i8))({_NB}, {', '.join(['i8[:]'] * 7)}, i8, i8)"),
    "koenig_independent": (_MATCHING, f"u1[:]({_NB}, i8[:], i8[:], i8[:], i8[:])"),
}

PACKAGE = Path(__file__).parent.parent


def source_stamp() -> int:
    """CRC-32 of :data:`KERNELS` and the files it names: the module is used only when built from these.

    Examples
    --------
    >>> source_stamp() == source_stamp() > 0
    True
    """
    stamp = zlib.crc32(repr(sorted(KERNELS.items())).encode())
    for name in sorted({file for file, _ in KERNELS.values()}):
        stamp = zlib.crc32((PACKAGE / name).read_bytes(), stamp)
    return stamp


def built(name: str, fits: Callable[[Any], bool]) -> Any:
    """The extension module ``name`` (built at install by ``setup.py``) when ``fits(module)``, which
    compares the stamp of the sources it was built from with theirs here; None when it was not
    built or is stale (a checkout's build after its source changed)."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return module if fits(module) else None


@cache
def _module() -> Any:
    return built("knightcert.problems.compiled_kernels", lambda module: module.stamp() == source_stamp())


def kernel(name: str) -> Callable[..., Any] | None:
    """The kernel ``name`` of :data:`KERNELS` compiled ahead of time, or None (see the module
    docstring). It refuses (TypeError) arrays of another dtype than its signature's, or not
    C-ordered: the compiled code does not check them (it would read their memory as its own)."""
    module = _module()
    if module is None:
        return None
    function, signature = getattr(module, name), KERNELS[name][1]
    arguments = re.findall(r"(\w+)(\[[^]]*\])?", signature[signature.rindex("(") :])  # (type, an array's [:])
    arrays = [(at, np.dtype(code), kind.count(",") + 1) for at, (code, kind) in enumerate(arguments) if kind]

    def checked(*args: Any) -> Any:
        for at, dtype, ndim in arrays:  # a loop, not comprehensions: this runs at every call of a kernel
            given = args[at]
            shaped = type(given) is np.ndarray and given.ndim == ndim and given.dtype == dtype
            if not (shaped and given.flags.c_contiguous):
                wanted = ", ".join(str(a[1]) for a in arrays)
                raise TypeError(f"{name}: expected C-ordered arrays of {wanted}")
        return function(*args)

    return checked


@cache
def kernel_or_numba(name: str, module: str) -> Callable[..., Any]:
    """:func:`kernel` ``name``, else the numba function of that name in ``module`` (the caller's
    own layer: imported only then); looked up once a process."""
    return kernel(name) or getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]
