"""``kopa@v0005``: v0004 and breadth for EDGE synthesis (#20), recorded from world edition 4.

v0005 is additive: it carries every v0004 collection unchanged and adds the crawls of
``simulator/record/plans/v0005_extra.yaml`` (the other 24 Seoul districts' officetel and
row-house trades of 2024-07, more high schools' class lists and majors), the chains KOPA-Bench does not use, so a 1,000-example synthesis run is not bounded by
drawing the same few recorded chains again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from simulator import Resolver, Store, load_catalog
from tests.simulator.record.test_world_v0004 import _answers, rerecorded_hash, shipped_hash

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "cassettes" / "kopa"
PLAN = ROOT / "simulator" / "record" / "plans" / "v0005_extra.yaml"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return Store(cache_dir=tmp_path_factory.mktemp("world-v5-cache"))


def test_v0005_is_the_newest_and_every_tool_has_data(store: Store) -> None:
    m = store.open("kopa").manifest
    assert (m.version, m.parent, m.source) == ("v0005", "v0004", "sandbox")
    assert m.content_hash.startswith("8e8c607b")
    assert len(m.endpoints) == len(load_catalog().endpoints) == 2696
    assert all(e.records > 0 for e in m.endpoints.values())
    drift = (ROOT / "docs" / "drift-v0005.md").read_text(encoding="utf-8")
    assert "# Drift kopa@v0004 → kopa@v0005" in drift and "Collections changed" not in drift


def test_v0005_adds_only_its_plans_crawls(store: Store) -> None:
    v4, v5 = store.open("kopa", "v0004"), store.open("kopa")
    keys4 = {c.key: (c.count, c.total) for c in v4.collections()}
    keys5 = {c.key: (c.count, c.total) for c in v5.collections()}
    assert {k: keys5[k] for k in keys4} == keys4  # the seeds re-recorded are v0004's bytes
    added = set(keys5) - set(keys4)
    assert len(added) == 197
    plan = yaml.safe_load(PLAN.read_text(encoding="utf-8"))
    targets = {c["to"] for c in plan["crawls"]}
    assert {k.split("?")[0] for k in added} == targets
    offi = {k for k in keys5 if k.startswith("molit_offi_trades?DEAL_YMD=202407&LAWD_CD=11")}
    assert len(offi) == 25  # every Seoul district, not 강남구 alone


def test_v0005_answers_v0004s_requests_byte_for_byte(store: Store) -> None:
    """Every 40th v0004 collection and each of the crawled tools' v0004 collections, first and
    last page in both formats: the same status, headers and bytes from both versions."""
    v4, v5 = store.open("kopa", "v0004"), store.open("kopa")
    crawled = {c["to"] for c in yaml.safe_load(PLAN.read_text(encoding="utf-8"))["crawls"]}
    cols = sorted(v4.index.collections(), key=lambda c: c.key)
    sample = [c for i, c in enumerate(cols) if i % 40 == 0 or c.endpoint in crawled]
    catalog = load_catalog()
    a, b = _answers(Resolver(v4, catalog), sample), _answers(Resolver(v5, catalog), sample)
    assert len(a) > 200 and all(status == 200 for status, _h, _b in a.values())
    assert b == a


@pytest.mark.slow
@pytest.mark.integration
def test_recording_v0005_again_gives_its_hash(tmp_path: Path) -> None:
    """The v0005 plan from a fresh edition-4 sandbox onto v0001–v0004 publishes the shipped v0005."""
    assert rerecorded_hash(tmp_path, PLAN, "v0005", "2026-12-04T00:00:00Z") == shipped_hash("v0005")
