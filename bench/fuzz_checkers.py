"""The long run of the checker fuzzer: ``python bench/fuzz_checkers.py [EXAMPLES]``.

Runs ``tests/problems/test_checker_fuzz.py`` with EXAMPLES random instances per problem
(default 20 000; the test command runs 200), each with three perturbed answers judged
by the independent oracle in ``tests/oracle.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

if __name__ == "__main__":
    examples = sys.argv[1] if len(sys.argv) > 1 else "20000"
    env = {**os.environ, "FUZZ_EXAMPLES": examples}
    command = [sys.executable, "-m", "pytest", "-q", "tests/problems/test_checker_fuzz.py"]
    raise SystemExit(subprocess.call(command, cwd=ROOT, env=env))
