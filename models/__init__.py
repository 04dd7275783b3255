"""Exact models: CP-SAT (OR-Tools) and python-constraint models of every problem.

Exact combinatorial algorithms (BFS, A*, matching, branch and bound) are in
:mod:`knightcert.algorithms`.
"""

if __name__ != "knightcert.models":  # pragma: no cover - the folder imported under another name
    raise ImportError(f"{__name__} is part of knightcert: import knightcert.models")



def _cp_model_with_pandas_deferred() -> None:
    """Import OR-Tools' ``cp_model`` with pandas loaded on its first use, not at the import.

    ``cp_model`` imports pandas for its ``*_series`` helpers only, which no model here calls;
    pandas (and pyarrow with it) is most of the import: 0.8 s of CPU, 2.9 s at load 8 on 2
    cores, more than a ``--time-limit 2``. While ``cp_model`` is imported, ``pandas`` names a
    stand-in holding the two classes it reads at import; then its ``pd`` imports the real one
    on first use, and so does anyone's later ``import pandas``.
    """
    import sys
    import types

    if "pandas" in sys.modules or "ortools.sat.python.cp_model" in sys.modules:
        return

    class Deferred(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            import pandas

            return getattr(pandas, name)

    stand_in = types.ModuleType("pandas")
    stand_in.Index, stand_in.Series = type("Index", (), {}), type("Series", (), {})  # type: ignore[attr-defined]
    sys.modules["pandas"] = stand_in
    try:
        from ortools.sat.python import cp_model

        cp_model.pd = Deferred("pandas")  # type: ignore[attr-defined]
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]


_cp_model_with_pandas_deferred()
