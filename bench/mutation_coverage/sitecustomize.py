"""Coverage in the test suite's child processes, labelled with the test that started them.

Put on ``PYTHONPATH`` by ``bench/mutation.py --collect`` only (never installed): a child
``python`` the tests start (the command line, foreign methods, the proof writer) starts
coverage from ``COVERAGE_PROCESS_START`` and records its lines under the test's node id, which
``kc_cov_plugin`` leaves in ``KC_COV_TEST``.
"""

import os

if os.environ.get("COVERAGE_PROCESS_START") and os.environ.get("KC_COV_TEST"):
    import coverage

    _cov = coverage.process_startup()
    if _cov is not None and os.environ.get("KC_COV_TEST"):
        _cov.switch_context(os.environ["KC_COV_TEST"])
