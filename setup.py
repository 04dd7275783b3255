"""Build step: the kernels of ``knightcert.problems.compiled.KERNELS`` compiled ahead of time by
numba's ``pycc`` into ``knightcert.problems.compiled_kernels`` (docs/benchmarks.md, "Cold start").

And the checker's fast copy of an answer (``problems/checkers/exact_copy.c``), a C extension.
Everything else is in pyproject.toml. Without a C compiler, or without ``pycc`` (pending
deprecation in numba), the build says so and goes on: the kernels are then compiled by numba
on first use. In a checkout: ``python setup.py build_ext --inplace``.
"""

import importlib
import sys
import zlib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class BuildKernels(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name))
        try:  # any failure: numba compiles the kernels at run time, plain() copies in Python
            if ext.sources:  # the checker's fast copy, in C
                super().build_extension(ext)
            else:
                compile_kernels(target)
        except Exception as exc:
            print(f"knightcert: {ext.name} not compiled ahead of time ({type(exc).__name__}: {exc})")


def compile_kernels(target: Path) -> None:
    import warnings

    sys.path.insert(0, str(ROOT))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc's pending deprecation
        from numba.pycc import CC
    from knightcert.problems import compiled

    cc = CC(target.name.split(".")[0])
    cc.output_dir, cc.output_file = str(target.parent), target.name
    for name, (file, signature) in compiled.KERNELS.items():
        module = importlib.import_module("knightcert." + file[: -len(".py")].replace("/", "."))
        cc.export(name, signature)(getattr(module, name).py_func)
    stamp = compiled.source_stamp()
    cc.export("stamp", "i8()")(lambda: stamp)
    target.parent.mkdir(parents=True, exist_ok=True)
    cc.compile()


COPY = "problems/checkers/exact_copy.c"  # its stamp: plain.py uses the module built from this source only
STAMP = zlib.crc32((ROOT / COPY).read_bytes()) & 0x7FFFFFFF  # a C long everywhere

setup(
    ext_modules=[
        Extension("knightcert.problems.compiled_kernels", sources=[]),
        Extension("knightcert.problems.checkers.exact_copy", [COPY], define_macros=[("STAMP", str(STAMP))]),
    ],
    cmdclass={"build_ext": BuildKernels},
)
