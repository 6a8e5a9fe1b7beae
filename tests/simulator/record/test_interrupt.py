"""An interrupted recording: ``simulator record`` killed with SIGKILL at seeded points leaves the
previous version byte for byte intact, and a rerun resumes from the checkpoint and publishes a
version with the content hash of an uninterrupted run.

The default suite runs 5 trials; ``test_interrupted_recording_many_trials`` (marked ``slow``)
runs 20 with kill points stratified over the job and is skipped unless selected with
``-m slow`` or ``KOPA_SLOW=1`` (CI sets it).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from simulator.sandbox import Limits, create_app
from tests.support.loopback import serve_in_thread
from tests.support.record import (
    ROOT,
    SMALL_PLAN_COLLECTIONS,
    cli_env,
    latest_hash,
    record_argv,
    record_in_process,
    tree_digest,
    verify_version,
    versions,
    write_plan,
)

pytestmark = pytest.mark.integration

#: Every answer of the slow upstream waits this long, so a kill can land mid-collection.
SLOW_SECONDS = 0.04


@dataclass
class Setup:
    plan: Path
    base: Path  # cassettes holding v0001 (sandbox seed 0): the previous version
    slow: str  # sandbox seed 1, slow answers: the job that gets killed
    fast: str  # sandbox seed 1, no faults: reruns and the reference
    ref_hash: str  # content hash of an uninterrupted run of the job
    ref_calls: int
    tmp: Path


@dataclass
class Trial:
    index: int
    mode: str
    checkpoint_lines: int
    killed: bool
    published_before_kill: bool
    resumed: int
    calls: int


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    tmp = tmp_path_factory.mktemp("interrupt")
    plan = write_plan(tmp / "plan.yaml")
    slow_limits = Limits(fault_rate=1.0, faults=("slow",), slow_seconds=SLOW_SECONDS)
    with serve_in_thread(create_app(seed=0)) as seed0, serve_in_thread(create_app(seed=1)) as fast, \
            serve_in_thread(create_app(seed=1, limits=slow_limits)) as slow:
        base = tmp / "base"
        record_in_process(seed0, base, plan)
        assert versions(base) == ["v0001"]
        ref = tmp / "ref"
        shutil.copytree(base, ref)
        result = record_in_process(fast, ref, plan)
        assert result.collections == SMALL_PLAN_COLLECTIONS and result.resumed == 0
        assert versions(ref) == ["v0001", "v0002"]
        ref_hash = latest_hash(ref)
        assert ref_hash == result.manifest.content_hash
        assert ref_hash != verify_version(ref, "v0001"), "seed 1 must record other data than seed 0"
        yield Setup(plan, base, slow, fast, ref_hash, result.calls, tmp)


def _checkpoint_lines(cassettes: Path) -> int:
    """Complete lines of the job's checkpoint (a torn last line does not count)."""
    n = 0
    for ck in (cassettes / "kopa").glob(".record-*/checkpoint.jsonl"):
        data = ck.read_bytes()
        n += data.count(b"\n")
    return n


def _trial(s: Setup, seed: int, index: int, n: int) -> Trial:
    rng = random.Random(f"{seed}:{index}")
    work = s.tmp / f"trial-{seed}-{index}"
    shutil.copytree(s.base, work)
    before = tree_digest(work / "kopa" / "v0001")
    cache = s.tmp / f"cache-{seed}-{index}"
    log = work.parent / f"trial-{seed}-{index}.log"
    # Kill points: after the k-th finished collection plus a few ms (mid next collection),
    # or after a plain delay (before the job starts, mid-job, during or after publishing).
    # Stratified, so that few trials spread over the job: with enough trials the checkpoint
    # trials take the depths 1..10 in turn, and the clock trials one delay from each of equal
    # slices of 0.2-6 s.
    mode = "checkpoint" if index % 2 == 0 else "clock"
    slot, slots = index // 2, max(1, n // 2)
    with open(log, "wb") as fh:
        proc = subprocess.Popen(record_argv(s.slow, work, s.plan), cwd=ROOT, env=cli_env(cache),
                                stdout=fh, stderr=subprocess.STDOUT)
        try:
            if mode == "checkpoint":
                depths = SMALL_PLAN_COLLECTIONS - 1  # 1..10: every depth once slots allow it, else drawn
                target = 1 + (slot if slots >= depths else rng.randrange(depths)) % depths
                deadline = time.monotonic() + 120
                while _checkpoint_lines(work) < target and proc.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.002)
                time.sleep(rng.uniform(0, 3 * SLOW_SECONDS))
            else:
                deadline = time.monotonic() + 0.2 + 5.8 * (slot % slots + rng.random()) / slots
                while proc.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.005)
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
            rc = proc.wait(60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    killed = rc == -signal.SIGKILL
    assert killed or rc == 0, f"trial {index}: record failed on its own ({rc}):\n{log.read_text()}"

    # The previous version is untouched, byte for byte; readers see only whole versions.
    assert tree_digest(work / "kopa" / "v0001") == before, f"trial {index}: v0001 changed"
    seen = versions(work)
    assert seen in (["v0001"], ["v0001", "v0002"]), f"trial {index}: versions {seen}"
    for v in seen:
        h = verify_version(work, v)
        if v == "v0002":
            assert h == s.ref_hash, f"trial {index}: a published v0002 differs from the uninterrupted run"
    lines = _checkpoint_lines(work)

    # The rerun (the same job, here in-process) resumes from the checkpoint and publishes
    # what an uninterrupted run would. (test_record_keys reruns the command itself.)
    result = record_in_process(s.fast, work, s.plan)
    resumed, calls = result.resumed, result.calls
    assert result.collections == SMALL_PLAN_COLLECTIONS
    assert resumed == lines, f"trial {index}: checkpoint had {lines} collections, rerun resumed {resumed}"
    if resumed:
        assert calls < s.ref_calls, f"trial {index}: resumed {resumed} but made {calls} calls"
    assert result.manifest.content_hash == s.ref_hash, f"trial {index}: resumed version differs"
    assert latest_hash(work) == s.ref_hash
    # A job killed after publishing is not published again on the rerun (no duplicate v0003).
    assert versions(work) == ["v0001", "v0002"], f"trial {index}: versions {versions(work)}"
    assert result.published == (seen[-1] != "v0002")
    assert tree_digest(work / "kopa" / "v0001") == before
    assert not list((work / "kopa").glob(".record-*")), "the checkpoint outlived a published job"
    shutil.rmtree(work)
    shutil.rmtree(cache, ignore_errors=True)
    return Trial(index, mode, lines, killed, seen[-1] == "v0002", resumed, calls)


def _run_trials(s: Setup, seed: int, n: int, workers: int) -> list[Trial]:
    with ThreadPoolExecutor(workers) as pool:
        trials = list(pool.map(lambda i: _trial(s, seed, i, n), range(n)))
    mid_job = [t for t in trials if t.killed and t.checkpoint_lines > 0 and not t.published_before_kill]
    assert mid_job, f"no trial was killed mid-job: {trials}"
    depths = Counter(t.checkpoint_lines for t in trials if t.killed and not t.published_before_kill)
    print(f"\n{n} kill trials: killed {sum(t.killed for t in trials)}, mid-job {len(mid_job)}, after publishing "
          f"{sum(t.published_before_kill for t in trials)}; checkpointed collections at the kill: {sorted(depths.items())}")
    return trials


def test_interrupted_recording_keeps_previous_version_and_resumes(setup: Setup) -> None:
    trials = _run_trials(setup, seed=20261102, n=5, workers=2)
    assert len(trials) == 5


@pytest.mark.slow
def test_interrupted_recording_many_trials(setup: Setup) -> None:
    """20 trials, stratified: a kill after each of the 10 checkpoint depths and one in each
    of 10 slices of the clock (60 random ones until their kill points were spread by hand)."""
    trials = _run_trials(setup, seed=7, n=20, workers=max(2, min(6, os.cpu_count() or 2)))
    # Kill points spread over the job: before any collection, mid-job at many depths.
    depths = {t.checkpoint_lines for t in trials if t.killed and not t.published_before_kill}
    assert len(depths) >= 5, f"kill points too bunched: {sorted(depths)}"
