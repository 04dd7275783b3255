"""``/dev/shm`` and the memory limit of a foreign method (issue 28): what the method writes there
counts against ``--memory-limit`` and is gone after the run, whichever containment layer is in
force (a cgroup, a private mount namespace, the keeper's watchdog); a layer the machine refuses
is skipped quietly, and the layers in force are reported (``info["containment"]``)."""

from __future__ import annotations

import json
import os
import sys

import pytest

from knightcert import contained
from knightcert.contained import run_contained

from .conftest import run_cli

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.path.isdir("/dev/shm"), reason="Linux /dev/shm"
)

FILLER = '''
import os

def filling(instance, time_limit=None, seed=None):
    """Write 1 GB to /dev/shm, the name read from shm-name.txt."""
    with open("shm-name.txt") as handle:
        name = handle.read()
    with open("/dev/shm/" + name, "wb") as out:
        for _ in range(1024):
            out.write(b"x" * 2**20)
    return {"status": "UNKNOWN"}
'''

LIMIT_MB = 150


def _cgroup_possible() -> bool:
    return any(hierarchy == "v2" or name == "memory" for hierarchy, _, name in contained._cgroup_bases())


def _expected(layers: str) -> str:
    allowed = layers.split(",") if layers else list(contained.LAYERS)
    used = [layer for layer in ("cgroup", "namespace") if layer in allowed]
    return "+".join([*used, "watchdog"])


LAYER_CASES = [
    pytest.param("", id="every-layer"),
    pytest.param("cgroup", id="cgroup"),
    pytest.param("namespace", id="namespace"),
    pytest.param("watchdog", id="watchdog"),
]


@pytest.mark.parametrize("layers", LAYER_CASES)
def test_a_method_filling_dev_shm_is_stopped_out_of_memory_and_leaves_nothing(tmp_path, monkeypatch, layers):
    if "cgroup" in (layers or "cgroup") and not _cgroup_possible():
        if layers == "cgroup":
            pytest.skip("no writable memory cgroup on this machine")
        layers = "namespace"
    name = f"knightcert-test-{os.getpid()}-{tmp_path.name}"
    (tmp_path / "shm-name.txt").write_text(name)
    (tmp_path / "filler.py").write_text(FILLER)
    monkeypatch.setenv(contained.LAYERS_VARIABLE, layers or ",".join(contained.LAYERS))
    mounts = _shm_mounts()
    try:
        done = run_cli(tmp_path, "knights", "6", "--method", "filler:filling",
                       "--memory-limit", str(LIMIT_MB), "--json")  # fmt: skip
        answer = json.loads(done.stdout)
        assert done.returncode == 5, done.stderr  # out of memory
        assert answer["status"] == "UNKNOWN" and answer["info"]["stopped"].startswith("memory limit:")
        assert answer["info"]["containment"] == _expected(layers), answer["info"]
        assert not os.path.exists("/dev/shm/" + name)  # nothing left behind
        assert _shm_mounts() == mounts  # the private tmpfs was the method's only
        assert _leaked_cgroups() == []
    finally:
        if os.path.exists("/dev/shm/" + name):
            os.unlink("/dev/shm/" + name)


def _fill_shm_at(path: str, megabytes: int):
    def call():
        with open(path, "wb") as out:
            for _ in range(megabytes):
                out.write(b"x" * 2**20)
        return os.path.getsize(path)

    return call


def test_a_private_dev_shm_is_bounded_and_vanishes(tmp_path, monkeypatch):
    monkeypatch.setenv(contained.LAYERS_VARIABLE, "namespace")
    path = f"/dev/shm/knightcert-test-{os.getpid()}-private"
    small = run_contained(_fill_shm_at(path, 8), memory_limit=400 * 2**20)
    if small.containment != "namespace+watchdog":
        pytest.skip("no mount namespace on this machine")
    assert small.value == 8 * 2**20 and not os.path.exists(path)  # written there, gone with the tree
    assert small.peak_mb is not None and small.peak_mb >= 8  # /dev/shm counted with the memory


def test_without_a_namespace_the_files_the_tree_held_are_counted_and_removed(tmp_path, monkeypatch):
    monkeypatch.setenv(contained.LAYERS_VARIABLE, "watchdog")
    path = f"/dev/shm/knightcert-test-{os.getpid()}-held"
    try:
        over = run_contained(_fill_shm_at(path, 1024), memory_limit=LIMIT_MB * 2**20, wall_limit=60)
        assert over.containment == "watchdog"
        assert over.stopped is not None and over.stopped.startswith("memory limit:"), over
        assert not os.path.exists(path)
    finally:
        if os.path.exists(path):
            os.unlink(path)


def test_a_layer_the_machine_refuses_falls_back_quietly(monkeypatch, tmp_path):
    monkeypatch.delenv(contained.LAYERS_VARIABLE, raising=False)
    monkeypatch.setattr(contained, "_CLONE_NEWNS", -1)  # unshare refuses: EINVAL (invalid flags)
    monkeypatch.setattr(contained, "_CLONE_NEWUSER", 0)
    not_ours = str(tmp_path / "no-such-cgroup-hierarchy")
    contained._cgroup_bases.cache_clear()
    monkeypatch.setattr(contained, "_cgroup_bases", lambda: (("v1", not_ours, "memory"),))
    mounts = _shm_mounts()
    outcome = run_contained(lambda: 42, memory_limit=LIMIT_MB * 2**20)
    assert (outcome.value, outcome.stopped, outcome.containment) == (42, None, "watchdog")
    assert _shm_mounts() == mounts  # nothing was mounted here


def _shm_mounts() -> list[str]:
    with open("/proc/self/mounts") as handle:
        return [line for line in handle if " /dev/shm " in line]


def test_the_user_namespace_path_works_without_privileges_too():
    """The route an unprivileged user takes (a user namespace, then the mount namespace)."""
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        code = 1
        try:
            if contained._private_shm(16 * 2**20, user=True):
                info = os.statvfs("/dev/shm")
                code = 0 if info.f_blocks * info.f_frsize == 16 * 2**20 else 2
            else:
                code = 3
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    if os.WEXITSTATUS(status) == 3:
        pytest.skip("no user namespaces on this machine")
    assert os.WEXITSTATUS(status) == 0


def test_which_layers_a_run_may_try(monkeypatch):
    monkeypatch.setenv(contained.LAYERS_VARIABLE, "namespace")
    assert contained.containment_layers() == ("namespace", "watchdog")
    monkeypatch.setenv(contained.LAYERS_VARIABLE, "")
    assert contained.containment_layers() == contained.LAYERS


def _leaked_cgroups() -> list[str]:
    """Cgroups of runs whose keeper has ended (those still running belong to other tests)."""
    leaked = []
    for _, base, _ in contained._cgroup_bases():
        with os.scandir(base) as entries:
            for entry in entries:
                if entry.name.startswith("knightcert-") and entry.is_dir():
                    pid = entry.name.removeprefix("knightcert-")
                    if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                        leaked.append(entry.path)
    return leaked


def test_a_dead_runs_cgroups_are_removed_by_the_next_run():
    bases = contained._cgroup_bases()
    if not bases:
        pytest.skip("no writable cgroup on this machine")
    gone = os.fork()  # a process that has ended: its pid names the dead run's cgroups
    if gone == 0:  # pragma: no cover - the child
        os._exit(0)
    os.waitpid(gone, 0)
    stale = [os.path.join(base, f"knightcert-{gone}") for _, base, _ in bases]
    for folder in stale:
        os.mkdir(folder, 0o700)
    try:
        assert run_contained(lambda: 7, wall_limit=30).value == 7
        assert not any(os.path.exists(folder) for folder in stale)
    finally:
        for folder in stale:
            if os.path.exists(folder):
                os.rmdir(folder)


def test_a_file_the_tree_closed_before_any_poll_is_removed_when_the_cgroup_still_holds_it(monkeypatch):
    """Under a memory cgroup without a private ``/dev/shm``: a file made and closed between
    two polls (so never seen held) is still charged to the cgroup, and removed; a file that
    was there before the run, though the method wrote to it, is left."""
    if not _cgroup_possible():
        pytest.skip("no writable memory cgroup on this machine")
    monkeypatch.setenv(contained.LAYERS_VARIABLE, "cgroup")
    made = f"/dev/shm/knightcert-test-{os.getpid()}-made"
    kept = f"/dev/shm/knightcert-test-{os.getpid()}-kept"
    with open(kept, "wb") as out:
        out.write(b"before")
    try:
        monkeypatch.setattr(contained, "POLL_SECONDS", 30.0)  # no poll sees the file held
        both = _fill_shm_at(made, 4), _fill_shm_at(kept, 4)  # each written and closed
        outcome = run_contained(lambda: [call() for call in both], memory_limit=400 * 2**20, wall_limit=60)
        assert outcome.value == [4 * 2**20, 4 * 2**20] and outcome.containment == "cgroup+watchdog"
        assert not os.path.exists(made)
        assert os.path.getsize(kept) == 4 * 2**20  # not made during the run: not the run's to remove
    finally:
        for path in (made, kept):
            if os.path.exists(path):
                os.unlink(path)


def test_the_method_is_the_first_the_kernel_kills_when_memory_runs_out():
    """At a memory cgroup's limit, tmpfs pages being no process's resident memory, the kernel
    would choose between the keeper and the runner (two copies of one interpreter): the runner
    and all it starts carry ``oom_score_adj`` 1000, the keeper its caller's."""

    def scores():
        with open("/proc/self/oom_score_adj") as handle:
            own = handle.read().strip()
        with open(f"/proc/{os.getppid()}/oom_score_adj") as handle:
            return own, handle.read().strip()

    with open("/proc/self/oom_score_adj") as handle:
        caller = handle.read().strip()
    assert run_contained(scores, wall_limit=30).value == ["1000", caller]


def test_the_runner_is_in_the_cgroup_and_its_keeper_is_not():
    """The keeper stays out of the memory it bounds: with the runner killed at the limit and
    its ``/dev/shm`` pages still charged, the kernel would kill a keeper inside for its next
    page (the run then ends "keeper lost", and what the method left stays)."""
    if not _cgroup_possible():
        pytest.skip("no writable memory cgroup on this machine")

    def groups():
        def read(pid: str) -> list[str]:
            with open(f"/proc/{pid}/cgroup") as handle:
                return sorted(line.strip() for line in handle if "knightcert-" in line)

        return read("self"), read(str(os.getppid()))

    outcome = run_contained(groups, memory_limit=400 * 2**20, wall_limit=30)
    assert outcome.containment is not None and outcome.containment.startswith("cgroup")
    own, keeper = outcome.value
    assert own and keeper == []
