"""One set, several recorders: an exclusive lock, the parent read under it, idempotent
publishing (issue 15 §4)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from simulator.sandbox import create_app
from simulator.store import Store
from simulator.store.lock import set_lock
from tests.support.loopback import serve_in_thread
from tests.support.record import ROOT, SMALL_PLAN, cli_env, record_argv, record_in_process, versions, write_plan

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    with serve_in_thread(create_app(seed=0)) as base:
        yield base


def _plan(tmp: Path, name: str, seeds: slice) -> Path:
    return write_plan(tmp / f"{name}.yaml", {**SMALL_PLAN, "seeds": SMALL_PLAN["seeds"][seeds], "crawls": [],
                                             "fidelity_samples": 0})


def _keys(cassettes: Path, cache: Path) -> set[str]:
    return {c.key for c in Store(cassettes, cache_dir=cache).open("kopa").collections()}


def test_two_concurrent_recorders_lose_nothing_and_duplicate_nothing(upstream: str, tmp_path: Path) -> None:
    plans = {"a": _plan(tmp_path, "a", slice(0, 4)), "b": _plan(tmp_path, "b", slice(4, 8))}
    cassettes = tmp_path / "cassettes"
    # Different plans started together, twice each (the same plan twice is a duplicate).
    procs = [
        subprocess.Popen(record_argv(upstream, cassettes, plans[name], rate=0) + ["--wait", "240"], cwd=ROOT,
                         env=cli_env(tmp_path / f"cache-{i}"), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
        for i, name in enumerate(["a", "b", "a", "b"])
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outs
    got = versions(cassettes)
    assert len(got) == 2, got  # a and b once each: the reruns found their content published
    assert sum("nothing new to publish" in err for _out, err in outs) == 2
    # The newest version holds both recordings: no lost update.
    alone = {}
    for name, plan in plans.items():
        record_in_process(upstream, tmp_path / f"alone-{name}", plan)
        alone[name] = _keys(tmp_path / f"alone-{name}", tmp_path / "cache-x")
    assert alone["a"] and alone["b"]
    assert _keys(cassettes, tmp_path / "cache-y") == alone["a"] | alone["b"]


def test_a_held_lock_is_a_clear_error_naming_the_holder(upstream: str, tmp_path: Path) -> None:
    plan = _plan(tmp_path, "a", slice(0, 1))
    cassettes = tmp_path / "cassettes"
    with set_lock(cassettes / "kopa", "kopa", purpose="a test"):
        proc = subprocess.run(record_argv(upstream, cassettes, plan), cwd=ROOT, env=cli_env(tmp_path / "c"),
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    err = " ".join(proc.stderr.split())
    assert f"is locked by pid {os.getpid()}" in err and "(a test)" in err and "--wait" in err, err
    assert "Traceback" not in proc.stderr
    assert not (cassettes / "kopa").exists() or versions(cassettes) == []


def test_kill_between_publish_and_checkpoint_cleanup_publishes_no_duplicate(
    upstream: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import simulator.record.recorder as recorder

    plan = _plan(tmp_path, "a", slice(0, 3))
    cassettes = tmp_path / "cassettes"

    def killed(*_a: object, **_k: object) -> None:
        raise KeyboardInterrupt("killed after publishing, before the checkpoint was removed")

    monkeypatch.setattr(recorder.shutil, "rmtree", killed)
    with pytest.raises(KeyboardInterrupt):
        record_in_process(upstream, cassettes, plan)
    monkeypatch.undo()
    assert versions(cassettes) == ["v0001"]
    assert any(p.name.startswith(".record-") for p in (cassettes / "kopa").iterdir())
    result = record_in_process(upstream, cassettes, plan)
    assert versions(cassettes) == ["v0001"] and not result.published and result.drift is None
    assert result.resumed > 0 and any("already holds exactly this content" in w for w in result.warnings)
    assert not any(p.name.startswith(".record-") for p in (cassettes / "kopa").iterdir())
