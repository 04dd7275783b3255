"""What a received report may run: nothing foreign unless asked, and only the files it recorded.

A report names its methods; some are foreign code (``exec:COMMAND``, ``module:function``).
Repeating its experiment (``knightcert compare --rerun report.json``) would run that code on
this machine. :func:`check_received_methods` is the gate, applied before any method is resolved
(resolving ``module:function`` imports the module, which runs it):

* without ``trusted`` (``--trust-methods``) a report naming a foreign method is refused, the
  methods named;
* with it, every file the report recorded for a method (``method_files``: path and SHA-256,
  written by :func:`knightcert.compare.report.method_files`) must hold the same bytes now, and a
  program or module must resolve to the recorded file; a difference is refused with the file named.

Built-in methods and installed plug-ins (code the user installed) are not gated.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from typing import Any

from knightcert.compare.report import file_sha256
from knightcert.problems.errors import KnightcertError

__all__ = ["UntrustedMethod", "check_received_methods", "foreign_names"]


class UntrustedMethod(KnightcertError):
    """A received report would run foreign code not asked for, or not the code it recorded."""


def foreign_names(experiment: Mapping[str, Any]) -> list[str]:
    """The methods of an experiment record that are foreign code (``exec:...``, ``module:function``)."""
    from knightcert.program import PREFIX

    names = [m.get("name", "") if isinstance(m, Mapping) else str(m) for m in experiment.get("methods") or ()]
    return [name for name in names if name.startswith(PREFIX) or ":" in name]


def _current_files(name: str) -> list[str] | None:
    """The files the method ``name`` would run now, found without running or importing anything
    but parent packages of a dotted module (None: cannot tell)."""
    from knightcert.program import PREFIX, parse_command

    if name.startswith(PREFIX):
        argv = parse_command(name)
        program = shutil.which(argv[0]) or argv[0]
        return [os.path.abspath(p) for p in (program, *argv[1:]) if os.path.isfile(p)]
    import importlib.util

    module = name.partition(":")[0]
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    origin = getattr(spec, "origin", None)
    return [os.path.abspath(origin)] if origin and os.path.isfile(origin) else None


def check_received_methods(source: str, header: Mapping[str, Any], trusted: bool) -> None:
    """Refuse to run the foreign methods of the report ``source`` unless ``trusted`` and unchanged.

    Parameters
    ----------
    source : str
        The report's name, for messages.
    header : mapping
        The report's header (``experiment``, ``method_files``).
    trusted : bool
        The user asked for the report's foreign methods to run (``--trust-methods``).

    Raises
    ------
    UntrustedMethod
        A foreign method without ``trusted``; with it, a recorded file that is missing or changed,
        or a method that now resolves to other files than those recorded.
    """
    foreign = foreign_names(header.get("experiment") or {})
    if not foreign:
        return
    if not trusted:
        shown = ", ".join(repr(name) for name in foreign[:3]) + (" ..." if len(foreign) > 3 else "")
        raise UntrustedMethod(
            f"{source}: the report names foreign methods ({shown}) that would run code on this machine; "
            "check them and give --trust-methods to run them"
        )
    recorded = header.get("method_files") or {}
    if not isinstance(recorded, Mapping):
        raise UntrustedMethod(f"{source}: method_files is not a table of files and hashes")
    for name in foreign:
        files = recorded.get(name)
        if not isinstance(files, list) or not all(
            isinstance(f, Mapping) and isinstance(f.get("path"), str) and isinstance(f.get("sha256"), str)
            for f in files
        ):
            raise UntrustedMethod(f"{source}: method {name!r} has no recorded file hashes; cannot check it")
        for record in files:
            try:
                now = file_sha256(record["path"])
            except OSError:
                raise UntrustedMethod(f"{source}: method {name!r}: {record['path']} is missing now") from None
            if now != record["sha256"]:
                raise UntrustedMethod(
                    f"{source}: method {name!r}: {record['path']} changed since the report was written "
                    f"(sha256 {now[:12]}..., recorded {record['sha256'][:12]}...)"
                )
        current = _current_files(name)
        wanted = sorted(os.path.abspath(f["path"]) for f in files)
        if current is not None and sorted(current) != wanted:
            extra = sorted(set(current) - set(wanted)) or sorted(set(wanted) - set(current))
            raise UntrustedMethod(
                f"{source}: method {name!r} now runs other files than recorded ({', '.join(extra)})"
            )
