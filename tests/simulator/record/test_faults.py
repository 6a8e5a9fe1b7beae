"""Recording from a flaky upstream: transient faults are retried; a permanent failure publishes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator import RecordError, Store, load_catalog
from simulator.record import LiveClient, Plan, Recorder, RetryPolicy
from simulator.sandbox import create_app
from simulator.sandbox.limits import Limits
from tests.support.loopback import serve_in_thread

pytestmark = pytest.mark.integration

PLAN = Plan.model_validate({
    "set": "kopa",
    "seeds": [
        {"endpoint": "molit_apt_trades", "params": {"LAWD_CD": "11680", "DEAL_YMD": "202503"}},
        {"endpoint": "tago_stations_by_name", "params": {"cityCode": "25"}},
        {"endpoint": "nec_election_codes", "params": {}},
    ],
    "fidelity_samples": 0,
})
KEYS = {p: f"sandbox-{p}" for p in ("molit", "tago", "nec")}


def _record(root: Path, limits: Limits | None, attempts: int = 8) -> tuple[str, int]:
    with serve_in_thread(create_app(seed=3, limits=limits)) as base:
        with LiveClient(load_catalog(), dict(KEYS), upstream=base, rate_per_sec={"default": 0},
                        retry=RetryPolicy(attempts=attempts, base_delay=0.0), sleep=lambda s: None) as client:
            r = Recorder(PLAN, store=Store(root), catalog=load_catalog(), client=client, source="sandbox").run(
                recorded_at="2026-11-29T00:00:00Z")
            return r.manifest.content_hash, client.calls


def test_transient_faults_are_retried_to_the_same_content(tmp_path: Path) -> None:
    clean, clean_calls = _record(tmp_path / "clean", None)
    flaky = Limits(fault_rate=0.6, faults=("server_error", "truncated", "reset"))
    faulty, faulty_calls = _record(tmp_path / "flaky", flaky)
    assert faulty == clean
    assert faulty_calls > clean_calls  # the faults happened and were retried


def test_permanent_failure_publishes_nothing(tmp_path: Path) -> None:
    always = Limits(fault_rate=1.0, faults=("server_error",))
    with pytest.raises(RecordError, match="gave up after 3 attempts.*nothing was published"):
        _record(tmp_path, always, attempts=3)
    assert not (tmp_path / "kopa").exists() or Store(tmp_path).versions("kopa") == []
