"""The run record: read as attributes, kept on disk under the names earlier versions wrote."""

from __future__ import annotations

import pytest

from knightcert.problems.answers import answer_fields, result_from_answer
from knightcert.problems.result import Result, Status


def test_an_answer_saved_by_an_earlier_version_reads_into_the_record():
    # what an earlier version wrote: the stop reason and the memory in "info", by string key
    saved = {
        "method": "mine",
        "status": "UNKNOWN",
        "objective": None,
        "bound": None,
        "solution": None,
        "time_s": 2.5,
        "info": {"stopped": "memory limit: the method's processes used 900 MB", "peak_mb": 900, "gap": 0},
    }
    record = result_from_answer(saved, problem="knights").record
    assert (record.stopped, record.peak_mb, record.time_s, record.failure) == (
        "memory limit: the method's processes used 900 MB",
        900.0,
        2.5,
        "memory",
    )


def test_the_record_written_is_the_info_an_earlier_reader_expects():
    result = Result.empty("tour", "roth", 1.0, stopped="node budget spent").with_record(warm_s=0.5)
    fields = answer_fields(result)
    assert fields["info"] == {"stopped": "node budget spent", "warm_s": 0.5}
    assert result_from_answer(fields, problem="tour").record == result.record


def test_an_interrupted_flag_is_kept_only_while_set_and_other_keys_are_refused():
    caught = Result("knights", "bnb", Status.FEASIBLE, 3, None, [[0, 0]] * 3, 0.1).with_record(
        interrupted=True
    )
    assert caught.record.interrupted and caught.info == {"interrupted": True}
    stopped = caught.with_record(interrupted=False, stopped="time limit: ...")
    assert not stopped.record.interrupted and stopped.info == {"stopped": "time limit: ..."}
    with pytest.raises(TypeError, match="gap"):
        caught.with_record(gap=0)


def test_a_stop_reason_that_is_not_text_is_no_reason():
    result = Result.empty("path", "x", info={"stopped": 7, "peak_mb": "much", "interrupted": 1})
    assert (result.record.stopped, result.record.peak_mb, result.record.interrupted) == (None, None, True)
