"""Recording a default-plan-style job (seeds + a crawl) twice from a sandbox with the same seed
gives the same content hash; a changed sandbox seed gives a new version whose drift report
names exactly the collections that changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from simulator import Store, load_catalog
from simulator.record import LiveClient, Plan, Recorder
from simulator.record.recorder import RecordResult
from simulator.sandbox import create_app, default_keys
from simulator.store import Version
from tests.support.loopback import serve_in_thread
from tests.support.record import RECORDED_AT, SMALL_PLAN, SMALL_PLAN_COLLECTIONS, verify_version

pytestmark = pytest.mark.integration


def _record(cassettes: Path, sandbox_seed: int) -> RecordResult:
    """One job against a fresh sandbox app (nothing shared with an earlier run)."""
    catalog = load_catalog()
    with serve_in_thread(create_app(seed=sandbox_seed)) as base:
        with LiveClient(catalog, default_keys(catalog), upstream=base, rate_per_sec={"default": 0},
                        sleep=lambda _s: None) as client:
            return Recorder(Plan.model_validate(SMALL_PLAN), store=Store(cassettes), catalog=catalog,
                            client=client, source="sandbox").run(recorded_at=RECORDED_AT)


def _records(v: Version) -> dict[str, list[str]]:
    out = {}
    for c in v.collections():
        rows = v.index.records(c.id, 0, c.count)
        out[c.key] = [json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows]
    return out


def test_same_seed_same_hash_other_seed_drift(tmp_path: Path) -> None:
    cassettes = tmp_path / "cassettes"
    first = _record(cassettes, 0)
    assert first.collections == SMALL_PLAN_COLLECTIONS and first.drift is None
    second = _record(cassettes, 0)
    assert second.manifest.content_hash == first.manifest.content_hash
    assert second.manifest.files == first.manifest.files
    # The same content again is not a new version (publishing is idempotent).
    assert not second.published and second.manifest.version == "v0001" and second.drift is None
    # A fresh store (no parent to carry over) records the same bytes too.
    alone = _record(tmp_path / "alone", 0)
    assert alone.manifest.content_hash == first.manifest.content_hash

    third = _record(cassettes, 1)
    m = third.manifest
    assert (m.version, m.parent) == ("v0002", "v0001")
    assert m.content_hash != first.manifest.content_hash
    assert verify_version(cassettes, "v0002") == m.content_hash
    drift = third.drift
    assert drift is not None and not drift.empty

    # What really changed, read back from the two versions, is what the report says.
    store = Store(cassettes)
    a, b = _records(store.open("kopa", "v0001")), _records(store.open("kopa", "v0002"))
    changed = sorted(k for k in set(a) & set(b) if a[k] != b[k])
    added = sorted(set(b) - set(a))
    assert changed, "seed 1 changes the seeded collections"
    assert added, "seed 1's crawl follows other station ids"
    assert sorted(c.key for c in drift.collections_changed) == changed
    assert drift.collections_added == added
    assert drift.collections_removed == []  # the parent's crawled collections are carried over
    md = drift.to_markdown()
    assert md.startswith("# Drift kopa@v0001 → kopa@v0002")
    for key in changed:
        cd = next(c for c in drift.collections_changed if c.key == key)
        row = f"| `{key}` | {cd.added} | {cd.removed} | {cd.changed} | {cd.total_before} | {cd.total_after} |"
        assert row in md
        assert cd.added + cd.removed + cd.changed > 0
        before, after = a[key], b[key]
        assert (cd.total_before, cd.total_after) == (_total(store, "v0001", key), _total(store, "v0002", key))
        assert len(before) - cd.removed - cd.changed == len(after) - cd.added - cd.changed
    for key in added:
        assert key in md


def _total(store: Store, version: str, key: str) -> Any:
    (c,) = [c for c in store.open("kopa", version).collections() if c.key == key]
    return c.total
