"""On a shared machine nothing planted in a writer's way is followed (issue 28).

A colleague (or an attacker) with write access to the folder plants a symbolic link at a
name knightcert will write: the lock file, a temporary or partial file, the output itself.
The victim file the link points at must stay byte for byte as it was.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from knightcert.compare.report_file import report_lock, write_text_atomic
from knightcert.problems.errors import InvalidArgument, InvalidReport
from knightcert.problems.output_file import atomic_output, open_lock_file, remove_stale_temporaries

from .conftest import assert_one_line, call_cli, leftovers

QUICK = ("compare", "knights", "--methods", "greedy,matching")
SECRET = b"the victim's own data\n"


@pytest.fixture
def victim(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    path = outside / "victim"
    path.write_bytes(SECRET)
    return path


def test_a_link_at_the_lock_file_is_refused_and_the_victim_untouched(tmp_path, victim):
    (tmp_path / "r.json.lock").symlink_to(victim)
    done = call_cli(*QUICK, "--out", tmp_path / "r.json")
    assert_one_line(done, 2, "r.json.lock", "symbolic link")
    assert victim.read_bytes() == SECRET and not (tmp_path / "r.json").exists()


def test_a_hard_link_at_the_lock_file_is_refused(tmp_path, victim):
    os.link(victim, tmp_path / "r.json.lock")
    with pytest.raises(InvalidReport, match="hard link"), report_lock(tmp_path / "r.json"):
        pass
    assert victim.read_bytes() == SECRET


def test_lock_file_that_is_a_folder_is_refused(tmp_path):
    (tmp_path / "r.lock").mkdir()
    with pytest.raises(InvalidArgument):
        os.close(open_lock_file(tmp_path / "r.lock"))


@pytest.mark.parametrize("ending", [".json", ".csv", ".md", ".parquet"])
def test_links_at_every_guessable_temporary_name_are_never_followed(tmp_path, victim, ending):
    if ending == ".parquet":
        pytest.importorskip("pyarrow")
    # the names the writers used before: <out>.part, <out>.tmp<pid> (the writer is this process)
    for name in [f"r{ending}.part", *(f"r{ending}.tmp{pid}" for pid in range(os.getpid(), os.getpid() + 50))]:
        (tmp_path / name).symlink_to(victim)
    done = call_cli(*QUICK, "--out", tmp_path / f"r{ending}")
    assert done.returncode == 0, done.stderr
    assert victim.read_bytes() == SECRET
    assert (tmp_path / f"r{ending}").is_file() and not (tmp_path / f"r{ending}").is_symlink()


def test_a_link_at_the_output_is_replaced_not_followed(tmp_path, victim):
    (tmp_path / "r.json").symlink_to(victim)
    write_text_atomic(tmp_path / "r.json", "{}\n")
    assert victim.read_bytes() == SECRET
    assert not (tmp_path / "r.json").is_symlink() and (tmp_path / "r.json").read_text() == "{}\n"


def test_save_and_answers_never_follow_a_planted_link(tmp_path, victim):
    (tmp_path / f"ans.json.tmp{os.getpid()}").symlink_to(victim)  # the old temporary name (the writer: here)
    (tmp_path / "ans.json").symlink_to(victim)
    done = call_cli("knights", "4", "--save", tmp_path / "ans.json")
    assert done.returncode == 0, done.stderr
    assert victim.read_bytes() == SECRET
    assert json.loads((tmp_path / "ans.json").read_text())["problem"] == "knights"


def test_answers_folder_links_are_not_followed(tmp_path, victim):
    folder = tmp_path / "answers"
    folder.mkdir()
    done = call_cli(*QUICK, "--answers", folder)
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in folder.iterdir())
    assert names
    for path in folder.iterdir():
        path.unlink()
        path.symlink_to(victim)  # every answer file's name now a link to the victim
    done = call_cli(*QUICK, "--answers", folder)
    assert done.returncode == 0, done.stderr
    assert victim.read_bytes() == SECRET
    fresh = [p for p in folder.iterdir() if p.name not in names]  # answers files are never reused
    assert fresh and not any(p.is_symlink() for p in fresh)


def test_plot_output_link_is_replaced_not_followed(tmp_path, victim):
    pytest.importorskip("matplotlib")
    done = call_cli(*QUICK, "--out", tmp_path / "r.json")
    assert done.returncode == 0, done.stderr
    (tmp_path / "p.png").symlink_to(victim)
    done = call_cli("report", tmp_path / "r.json", "--plot", tmp_path / "p.png")
    assert done.returncode == 0, done.stderr
    assert victim.read_bytes() == SECRET
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


def test_npy_output_link_is_replaced_not_followed(tmp_path, victim):
    pytest.importorskip("numpy")
    (tmp_path / "t.npy").symlink_to(victim)
    done = call_cli("tour", "6", "--npy", tmp_path / "t.npy")
    assert done.returncode == 0, done.stderr
    assert victim.read_bytes() == SECRET and (tmp_path / "t.npy").read_bytes()[:6] == b"\x93NUMPY"


def test_a_dead_writers_temporaries_are_removed_by_the_next_writer(tmp_path):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    pid = int(dead.stdout)  # a process that has ended
    stale = [tmp_path / f".r.csv.abc123.{pid}.tmp", tmp_path / f".r.csv.meta.json.x9.{pid}.tmp"]
    for path in stale:
        path.write_text("half a report")
    alive = tmp_path / f".r.csv.zz.{os.getppid()}.tmp"  # a running writer's: kept
    alive.write_text("in progress")
    other = tmp_path / f".s.csv.q.{pid}.tmp"  # another report's: not ours to remove
    other.write_text("x")
    done = call_cli(*QUICK, "--out", tmp_path / "r.csv")
    assert done.returncode == 0, done.stderr
    assert not any(p.exists() for p in stale)
    assert alive.exists() and other.exists()
    assert leftovers(tmp_path) == sorted([alive.name, other.name])


def test_a_stale_temporary_that_is_a_link_is_left_alone(tmp_path, victim):
    (tmp_path / ".r.json.q.999999999.tmp").symlink_to(victim)
    assert remove_stale_temporaries(tmp_path / "r.json") == []
    assert victim.read_bytes() == SECRET


def test_a_failed_write_leaves_nothing_and_names_the_file(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old\n")
    with pytest.raises(RuntimeError), atomic_output(target) as stream:
        stream.write("half")
        raise RuntimeError("the writer failed")
    assert target.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_name_too_long_for_its_temporary_still_writes(tmp_path):
    target = tmp_path / ("n" * 240 + ".json")  # fits the file system; with a prefix and suffix it would not
    write_text_atomic(target, "{}\n")
    assert target.read_text() == "{}\n"


def test_a_name_too_long_for_the_file_system_is_one_line(tmp_path):
    done = call_cli(*QUICK, "--out", tmp_path / ("n" * 300 + ".json"))
    assert_one_line(done, 2, "File name too long")


def _small_files(limit: int):
    """In the child: files may not grow past ``limit`` bytes, and the write fails (EFBIG) instead
    of the process being killed (SIGXFSZ ignored), as a full disk (ENOSPC) fails it."""

    def limit_files() -> None:
        import resource
        import signal

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limit_files


@pytest.mark.parametrize("ending", [".json", ".csv", ".md"])
def test_a_full_disk_is_one_line_and_leaves_nothing(tmp_path, ending):
    from .conftest import command, environment

    failed = subprocess.run(
        command(*QUICK, "--workers", "1", "--out", f"r{ending}"),
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_small_files(200),
    )
    assert_one_line(failed, 2, f"r{ending}", "cannot write")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_save_on_a_full_disk_is_one_line(tmp_path):
    from .conftest import command, environment

    failed = subprocess.run(
        command("knights", "5", "--save", "ans.json"),
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_small_files(100),
    )
    assert_one_line(failed, 2, "ans.json", "cannot write")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
