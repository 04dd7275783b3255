"""Warming a method up before timed runs: every code path a timed run takes is loaded first.

A method with compiled (numba) kernels runs plain Python on small boards and
its kernels from a size on (:attr:`knightcert.specs.MethodFacts.compiled_from`);
loading the kernels costs far more than a run on a mid-sized board. So a
method is warmed on a board past that size (a tiny one when it has no such
threshold), once per process, its answer checked as a timed run's is (which
warms the checker at that size too). The seconds of the first warm-up of
each method in a process are kept in :data:`WARMED` (forked workers inherit
it): reports record them apart from the runs.

Foreign methods are never warmed here (a suspect may hang or crash; only its
timed run, within its limits, calls it).
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterable
from typing import Any

from knightcert.problems import stopping
from knightcert.problems.errors import KnightcertError

__all__ = ["WARMED", "ensure_warm", "warm_instance", "warm_up"]

#: (problem, method) -> seconds its first warm-up took in this process (forked workers inherit it).
WARMED: dict[tuple[str, str], float] = {}

#: Seconds a warm-up run may take.
WARM_SECONDS = 5.0


def warm_instance(problem: str, squares: int = 0) -> Any:
    """A small instance of ``problem`` with at least ``squares`` squares (a tiny one for 0)."""
    from knightcert.problems.independent_knights import knights_instance
    from knightcert.problems.jump_game import parse_jump
    from knightcert.problems.lost_knight import parse_lost_knight
    from knightcert.problems.tours import tour_instance

    if squares <= 0:
        return {
            "path": lambda: parse_lost_knight("C.S\n...\n.x.\n"),
            "jump": lambda: parse_jump("2 2\n1\n1 1\n1 0\n0 0\n"),
            "knights": lambda: knights_instance(3),
            "tour": lambda: tour_instance(6, closed=True),
        }[problem]()
    side = max(6, math.isqrt(squares - 1) + 1)
    side += side % 2  # even: a bipartite torus, a closed tour
    if problem == "path":
        rows = ["." * side for _ in range(side)]
        rows[0] = "C" + "." * (side - 1)
        rows[side // 2] = "." * (side // 2) + "S" + "." * (side - side // 2 - 1)
        return parse_lost_knight("\n".join(rows) + "\n", name=f"warm-{side}")
    if problem == "jump":
        values = "\n".join(" ".join(str(1 + (r + c) % 3) for c in range(side)) for r in range(side))
        return parse_jump(f"{side} {side}\n2\n{values}\n0 0\n1 1\n", name=f"warm-{side}")
    return knights_instance(side) if problem == "knights" else tour_instance(side, side, closed=True)


def ensure_warm(problem: str, method: Any) -> None:
    """Warm ``method`` (a name or a resolved method) in this process unless done already."""
    if (problem, getattr(method, "name", method)) not in WARMED:
        warm_up(problem, [method])


def warm_up(problem: str, methods: Iterable[Any], *, again: bool = False) -> None:
    """Run each built-in method once, checked, on its warm-up instance (:func:`warm_instance`
    of its :meth:`~knightcert.specs.MethodFacts.warm_squares`), in this process.

    A method that fails there is still counted as warmed: its failure shows in its timed
    runs. ``again``: warm even if warmed before (the first warm-up's time is kept).
    ``methods``: names or resolved methods; foreign ones are skipped.

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C or SIGTERM arrived during a warm-up.
    """
    from knightcert.registry import MethodRef, resolve

    for method in methods:
        with contextlib.suppress(KnightcertError):  # an unknown name shows in its timed run
            method = resolve(problem, method)
        if not isinstance(method, MethodRef) or method.foreign:
            continue
        if (problem, method.name) in WARMED and not again:
            continue
        began = time.perf_counter()
        mark = stopping.current()
        with contextlib.suppress(Exception):  # any failure shows again in the timed run
            instance = warm_instance(problem, method.facts.warm_squares())
            method.function()(instance, time_limit=WARM_SECONDS)
        if stopping.since(mark):
            raise KeyboardInterrupt
        WARMED.setdefault((problem, method.name), time.perf_counter() - began)
