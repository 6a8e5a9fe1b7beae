"""Version life-cycle: shared storage, rm, prune, cache clean, edit-and-publish (issue 18)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from simulator import Resolver, SimRequest, Store, VersionBuilder, load_catalog
from simulator.store import default_cassette_dir

SHIPPED = default_cassette_dir({}) / "kopa"


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


@pytest.fixture
def shipped_copy(tmp_path: Path) -> Store:
    root = tmp_path / "cassettes"
    shutil.copytree(SHIPPED, root / "kopa")
    return Store(root, cache_dir=tmp_path / "cache")


def _change_one_collection(store: Store, version: str = "latest") -> tuple[str, dict]:
    b = VersionBuilder(store, "kopa", load_catalog(), parent=version)
    key = sorted(k for k in b.collections if b.collections[k]["endpoint"].startswith("seoul"))[3]
    entry = b.collections[key]
    entry["records"] = entry["records"][:-1]  # one record gone upstream
    entry["total"] = len(entry["records"])
    b.collections[key] = entry
    b.publish(recorded_at="2026-12-01T00:00:00Z", source="test")
    return key, entry


@pytest.mark.slow
def test_one_changed_collection_adds_only_its_bytes(shipped_copy: Store) -> None:
    store = shipped_copy
    set_dir = store.root / "kopa"
    before = _size(set_dir)
    assert before > 25_000_000
    key, entry = _change_one_collection(store)
    grown = _size(set_dir) - before
    assert grown < 1_000_000, f"the store grew by {grown} bytes"
    assert store.verify("kopa", "v0002") == [] and store.verify("kopa", "v0001") == []
    v2 = store.open("kopa", "v0002")
    assert v2.index.collection(key).count == len(entry["records"])
    v1 = store.open("kopa", "v0001")
    assert v1.content_hash.startswith("60ad9f8f")
    assert v1.index.collection(key).count == len(entry["records"]) + 1
    # A third version on the second shares through it.
    _change_one_collection(store)
    assert _size(set_dir) - before < 2_000_000
    assert store.verify("kopa", "v0003") == []


def test_shared_versions_read_like_copies(tmp_path: Path) -> None:
    from tests.helpers import build_demo_version

    store = build_demo_version(tmp_path / "c", n=300, extra=True)
    first = (tmp_path / "c" / "kopa" / "v0001" / "collections" / "tago.jsonl").stat().st_size
    b = VersionBuilder(store, "kopa", load_catalog())
    key = "tago_stations_by_name?cityCode=34010"
    entry = b.collections[key]
    entry["records"][0]["nodenm"] = "바뀐역"
    b.collections[key] = entry
    m = b.publish(recorded_at="2026-12-01T00:00:00Z", source="test")
    assert "collections/tago.jsonl" in m.segments and not (tmp_path / "c" / "kopa" / m.version / "collections").exists()
    new_bytes = sum(p.stat().st_size for p in (tmp_path / "c" / "kopa" / "objects").rglob("*") if p.is_file())
    assert 0 < new_bytes < first / 20
    assert store.verify("kopa") == []
    r = Resolver(Store(store.root, cache_dir=tmp_path / "cache").open("kopa"))
    url = "https://apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList?serviceKey=x&cityCode=34010&_type=json"
    body = json.loads(r.resolve(SimRequest.from_url(url)).body)
    assert body["response"]["body"]["items"]["item"][0]["nodenm"] == "바뀐역"
