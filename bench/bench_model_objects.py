"""The model objects' overhead: build time of the sealed ``cpsat()`` of an earlier commit (stopped
at its solve call) against ``KnightsModel`` / ``TourModel``, alternated in one process, the
least of RUNS; and the first lookup of the lazily made variables (``.knight``, ``.step``).

Usage::

    python bench/bench_model_objects.py [RUNS] [REV]    # REV: the sealed version (default 7aeba45)
"""

import gc
import importlib.util
import os
import subprocess
import sys
import tempfile
import time

from knightcert.models.knights_cpsat import KnightsModel
from knightcert.models.tour_cpsat import TourModel
from knightcert.problems.independent_knights import knights_instance
from knightcert.problems.tours import tour_instance


class Stop(Exception):
    pass


def load(name, path):
    spec = importlib.util.spec_from_file_location(f"knightcert.models.{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rev = sys.argv[2] if len(sys.argv) > 2 else "7aeba45"
folder = tempfile.mkdtemp()
for name in ("knights_cpsat", "tour_cpsat"):
    text = subprocess.run(
        ["git", "show", f"{rev}:models/{name}.py"], capture_output=True, text=True, check=True
    ).stdout
    with open(os.path.join(folder, f"old_{name}.py"), "w") as out:
        out.write(text)
old_k = load("old_knights", os.path.join(folder, "old_knights_cpsat.py"))
old_t = load("old_tour", os.path.join(folder, "old_tour_cpsat.py"))


def stop(model, *, began, **_):
    raise Stop(time.perf_counter() - began)


old_k.solve_cpsat = old_t.solve_cpsat = stop


def old(fn, instance):
    try:
        fn(instance, check=False)
    except Stop as s:
        return s.args[0]


def new(builder, instance, lazy):
    began = time.perf_counter()
    m = builder(instance)
    built = time.perf_counter() - began
    began = time.perf_counter()
    getattr(m, lazy)[next(iter(getattr(m, lazy)))]
    first = time.perf_counter() - began
    return built, first


runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
print("| instance | sealed build | model object | ratio | lazily made variables, first lookup |")
print("|---|---:|---:|---:|---|")
for label, oldfn, builder, instance, lazy in (
    ("knights 400x400", old_k.cpsat, KnightsModel, knights_instance(400), "knight"),
    ("tour 100x100 open", old_t.cpsat, TourModel, tour_instance(100, 100), "step"),
    ("tour 100x100 closed", old_t.cpsat, TourModel, tour_instance(100, 100, closed=True), "step"),
):
    before, after, lazy_s = [], [], []
    for _ in range(runs):
        gc.collect()
        before.append(old(oldfn, instance))
        gc.collect()
        b, f = new(builder, instance, lazy)
        after.append(b)
        lazy_s.append(f)
    print(
        f"| {label} | {min(before):.3f} s | {min(after):.3f} s | {min(after) / min(before):.2f} "
        f"| `{lazy}`: {min(lazy_s):.3f} s |"
    )
