"""The recorder against a real loopback upstream: whole collections, checkpoints, atomic publish."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from simulator import RecordError, Resolver, SimTransport, Store, load_catalog
from simulator.record import LiveClient, Plan, Recorder
from simulator.server import create_app
from tests.support.helpers import STATIONS, build_demo_version, station_records
from tests.support.loopback import serve_in_thread

pytestmark = pytest.mark.integration

PLAN = {
    "set": "kopa",
    "seeds": [{"endpoint": "tago_stations_by_name", "params": {"cityCode": "25"}}],
    "crawls": [],
    "fidelity_samples": 2,
}


def _client(upstream: str, key: str) -> LiveClient:
    return LiveClient(load_catalog(), {"tago": key}, upstream=upstream, rate_per_sec={"default": 0}, sleep=lambda s: None)


def test_records_whole_collection_and_replays_it(tmp_path: Path, api_key: str) -> None:
    build_demo_version(tmp_path / "up", n=2345)
    upstream_app = create_app(Resolver(Store(tmp_path / "up").open("kopa")))
    out = Store(tmp_path / "out")
    with serve_in_thread(upstream_app) as base:
        with _client(base, api_key) as client:
            result = Recorder(Plan.model_validate(PLAN), store=out, catalog=load_catalog(), client=client,
                              source="sandbox").run(recorded_at="2026-11-02T00:00:00Z")
    m = result.manifest
    assert m.source == "sandbox" and m.endpoints["tago_stations_by_name"].records == 2345
    assert result.calls >= 3  # 2,345 records at ≤1,000 per page, plus fidelity samples
    assert result.fidelity["tago_stations_by_name"] == 1.0
    c = httpx.Client(transport=SimTransport(Resolver(out.open("kopa"))))
    r = c.get(STATIONS, params={"cityCode": "25", "_type": "json", "pageNo": 3, "numOfRows": 1000})
    items = r.json()["response"]["body"]["items"]["item"]
    assert [i["nodeid"] for i in items] == [s["nodeid"] for s in station_records(2345)[2000:]]
    for p in (tmp_path / "out").rglob("*"):
        if p.is_file():
            assert api_key.encode() not in p.read_bytes()


def test_same_upstream_same_content_hash_and_drift(tmp_path: Path, api_key: str) -> None:
    build_demo_version(tmp_path / "up", n=120)
    out = Store(tmp_path / "out")
    hashes = []
    for _ in range(2):
        with serve_in_thread(create_app(Resolver(Store(tmp_path / "up").open("kopa")))) as base:
            with _client(base, api_key) as client:
                r = Recorder(Plan.model_validate(PLAN), store=out, catalog=load_catalog(), client=client,
                             source="sandbox").run(recorded_at="2026-11-02T00:00:00Z")
            hashes.append(r.manifest.content_hash)
    assert hashes[0] == hashes[1]
    assert not r.published and r.drift is None  # the same content is not published twice
    assert [m.version for m in out.versions("kopa")] == ["v0001"]
    build_demo_version(tmp_path / "up2", n=130)
    with serve_in_thread(create_app(Resolver(Store(tmp_path / "up2").open("kopa")))) as base:
        with _client(base, api_key) as client:
            r = Recorder(Plan.model_validate(PLAN), store=out, catalog=load_catalog(), client=client,
                         source="sandbox").run(recorded_at="2026-11-03T00:00:00Z")
    assert r.drift is not None and not r.drift.empty
    (cd,) = r.drift.collections_changed
    assert (cd.added, cd.total_before, cd.total_after) == (10, 120, 130)


def test_failed_job_publishes_nothing_and_resumes(tmp_path: Path, api_key: str) -> None:
    build_demo_version(tmp_path / "up", n=50, extra=True)
    out = Store(tmp_path / "out")
    plan = Plan.model_validate({**PLAN, "seeds": PLAN["seeds"] + [
        {"endpoint": "tago_stations_by_name", "params": {"cityCode": "34010"}},
        {"endpoint": "tago_stations_by_name", "params": {"cityCode": "99999"}},  # not upstream: fails
    ], "fidelity_samples": 0})
    with serve_in_thread(create_app(Resolver(Store(tmp_path / "up").open("kopa")))) as base:
        with _client(base, api_key) as client:
            client.retry.attempts = 2
            rec = Recorder(plan, store=out, catalog=load_catalog(), client=client, source="sandbox")
            with pytest.raises(RecordError, match="nothing was published"):
                rec.run(recorded_at="2026-11-02T00:00:00Z")
    assert not (tmp_path / "out" / "kopa").exists() or out.versions("kopa") == []
    # Resume with a plan whose failing seed is fixed: the finished collections come from the checkpoint.
    with _client("http://127.0.0.1:9", api_key) as client:
        rec2 = Recorder(plan, store=out, catalog=load_catalog(), client=client, source="sandbox")
        assert rec2._load_checkpoint() == 2


def test_query_fidelity_compares_masked_with_masked(tmp_path: Path) -> None:
    """law.go.kr's search records echo the key (``OC=`` in each link); the recorded records are
    masked, so the live samples must be masked too before they are compared, or every sample
    differs and the fidelity of a correct query tier reads 0.00."""
    from simulator.sandbox import create_app as sandbox_app
    from simulator.sandbox import default_keys

    catalog = load_catalog()
    plan = Plan.model_validate({"set": "kopa", "seeds": [{"endpoint": "lawgokr_law_search", "params": {}}],
                                "crawls": [], "fidelity_samples": 2})
    with serve_in_thread(sandbox_app(seed=0), health="/_sandbox/health") as base:
        with LiveClient(catalog, default_keys(catalog), upstream=base, rate_per_sec={"default": 0},
                        sleep=lambda _s: None) as client:
            result = Recorder(plan, store=Store(tmp_path), catalog=catalog, client=client,
                              source="sandbox").run(recorded_at="2026-11-02T00:00:00Z")
    assert result.fidelity == {"lawgokr_law_search": 1.0}


def test_replace_tiers_records_a_tier_anew_and_carries_the_rest(tmp_path: Path) -> None:
    """A plan with ``replace_tiers: [generated]`` carries its parent's curated collections over
    unchanged and none of its generated ones but those it records again (how kopa@v0006 left
    v0005's placeholder-keyed collections behind); without it, every parent collection stays."""
    from tests.support.record import record_plan

    curated = {"endpoint": "tago_stations_by_name", "params": {"cityCode": "25"}}
    gen_a = {"endpoint": "airkorea_abr_wst_dsf_cls_cd_info", "params": {}}
    gen_b = {"endpoint": "tago_train_info_get_cty_code_list", "params": {}}
    base = {"set": "kopa", "rate_per_sec": {"default": 0}, "fidelity_samples": 0}
    for replace, kept in (([], {"tago_stations_by_name?cityCode=25", "airkorea_abr_wst_dsf_cls_cd_info",
                                 "tago_train_info_get_cty_code_list"}),
                          (["generated"], {"tago_stations_by_name?cityCode=25", "tago_train_info_get_cty_code_list"})):
        root = tmp_path / f"r{len(replace)}"
        record_plan(root, {**base, "seeds": [curated, gen_a, gen_b]}, 5)
        record_plan(root, {**base, "replace_tiers": replace, "seeds": [gen_b]}, 5)
        store = Store(root, cache_dir=root / "cache")
        v1, v2 = store.open("kopa", "v0001"), store.open("kopa")  # without: nothing new to publish
        assert v2.manifest.version == ("v0002" if replace else "v0001")
        assert {c.key for c in v2.collections()} == kept
        assert v2.manifest.files["collections/tago.jsonl"] == v1.manifest.files["collections/tago.jsonl"]


def test_replace_tiers_names_the_tiers(tmp_path: Path) -> None:
    from simulator.record import load_plan

    path = tmp_path / "plan.yaml"
    path.write_text("set: kopa\nreplace_tiers: [generatd]\nseeds: []\n", encoding="utf-8")
    with pytest.raises(RecordError, match="(?s)replace_tiers.*'curated', 'generated' or 'inferred'"):
        load_plan(path)
