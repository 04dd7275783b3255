"""Out-of-range options: one usage line at parse time, exit 2."""

from __future__ import annotations

import pytest

from .conftest import assert_one_line, call_cli


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("knights", "8", "--seed", "99999999999999999999999"), ("--seed", "0..2147483647")),
        (("knights", "8", "--seed", "-1"), ("--seed", "0..2147483647")),
        (("knights", "8", "--seed", "x" * 500), ("--seed", "whole number")),
        (("tour", "8", "--budget", str(2**70)), ("--budget", "1..9223372036854775807")),
        (("tour", "8", "--budget", "0"), ("--budget",)),
        (("knights", "8", "--time-limit", "nan"), ("--time-limit",)),
        (("knights", "8", "--time-limit", "-3"), ("--time-limit",)),
        (("compare", "knights", "--dask", "localhost:8786"), ("--dask", "tcp://HOST:PORT")),
        (("compare", "knights", "--dask", "tcp://host:99999"), ("--dask", "tcp://HOST:PORT")),
        (("compare", "knights", "--dask", "tcp://:8786"), ("--dask",)),
        (("compare", "knights", "--repeat", str(10**12)), ("--repeat", "1..100000")),
        (("compare", "knights", "--workers", "0"), ("--workers",)),
        (("tour", "8", "--start", "1,99999999999999999999"), ("start", "off the 8 x 8 board")),
    ],
)
def test_option_out_of_range(args, words):
    done = call_cli(*args)
    assert_one_line(done, 2, *words)
    assert done.stdout == ""
    assert len(done.stderr) < 300  # echoed values are cut


@pytest.mark.heavy
def test_unreachable_dask_scheduler_is_one_line():
    pytest.importorskip("distributed")
    done = call_cli("compare", "knights", "--methods", "greedy", "--dask", "tcp://127.0.0.1:9")
    assert_one_line(done, 2, "--dask", "tcp://127.0.0.1:9", "within 5 s")
