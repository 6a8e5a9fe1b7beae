"""The cassette store: text format, atomic publish, verify, compiled index."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from simulator import CorruptVersion, SimRequest, SimResponse, Store, VersionBuilder, VersionNotFound, load_catalog
from simulator.catalog import Catalog
from simulator.errors import FormatVersionError, StoreError
from simulator.store.manifest import validate_name


def _publish(root: Path, n: int = 3, *, parent: str | None = "latest", secret: str = "") -> Store:
    store = Store(root)
    b = VersionBuilder(store, "demo", Catalog([]), parent=parent, secrets=[secret] if secret else [])
    for i in range(n):
        req = SimRequest.from_url(f"https://example.go.kr/api/items?id={i}&serviceKey={secret or 'x'}")
        b.add_interaction(req, SimResponse(200, [("content-type", "application/json")], f'{{"id":{i}}}'.encode()))
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    return store


def test_publish_writes_text_with_hashes_and_opens(cassette_root: Path) -> None:
    store = _publish(cassette_root)
    (m,) = store.versions("demo")
    assert m.version == "v0001" and m.seq == 1 and m.parent is None
    vdir = cassette_root / "demo" / "v0001"
    for rel, sha in m.files.items():
        assert hashlib.sha256((vdir / rel).read_bytes()).hexdigest() == sha
    lines = (vdir / "interactions" / "_other.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    assert [json.loads(x)["fp"] for x in lines] == sorted(json.loads(x)["fp"] for x in lines)
    v = store.open("demo")
    assert v.content_hash == m.content_hash
    assert store.verify("demo") == []


def test_same_content_same_hash_and_child_versions(cassette_root: Path, tmp_path: Path) -> None:
    a = _publish(cassette_root).versions("demo")[0]
    b = _publish(tmp_path / "other").versions("demo")[0]
    assert a.content_hash == b.content_hash
    store = _publish(cassette_root, n=4)
    v1, v2 = store.versions("demo")
    assert v2.parent == "v0001" and v2.seq == 2
    assert v2.content_hash != v1.content_hash


def test_keys_never_written(cassette_root: Path, api_key: str) -> None:
    store = Store(cassette_root)
    b = VersionBuilder(store, "demo", Catalog([]), secrets=[api_key])
    req = SimRequest.from_url(
        f"https://example.go.kr/api/x?serviceKey={api_key}&q=1",
        headers={"Authorization": f"Bearer {api_key}"},
    )
    body = f'{{"link":"/DRF/lawService.do?OC={api_key}&MST=1","echo":"{api_key}"}}'.encode()
    b.add_interaction(req, SimResponse(200, [("set-cookie", api_key), ("content-type", "json")], body))
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    store.open("demo")
    for path in list(cassette_root.rglob("*")) + list(store.cache_dir.rglob("*")):
        if path.is_file():
            assert api_key.encode() not in path.read_bytes(), path


@pytest.mark.parametrize("damage", ["flip", "truncate", "delete"])
def test_verify_names_damaged_file_and_open_refuses(cassette_root: Path, damage: str) -> None:
    store = _publish(cassette_root)
    target = cassette_root / "demo" / "v0001" / "interactions" / "_other.jsonl"
    data = target.read_bytes()
    if damage == "flip":
        target.write_bytes(data[:10] + bytes([data[10] ^ 0x01]) + data[11:])
    elif damage == "truncate":
        target.write_bytes(data[: len(data) // 2])
    else:
        target.unlink()
    problems = store.verify("demo")
    assert problems and str(target) in problems[0]
    with pytest.raises(CorruptVersion) as info:
        store.open("demo")
    assert str(target) in str(info.value)


def test_damaged_index_is_rebuilt_from_text(cassette_root: Path) -> None:
    store = _publish(cassette_root)
    v = store.open("demo")
    idx = store.index_path(v.manifest)
    v.index.close()
    idx.write_bytes(b"garbage" * 100)
    v2 = store.open("demo")
    assert len(v2.index.interaction_requests(None)) == 3


def test_old_format_fails_with_hint(cassette_root: Path) -> None:
    store = _publish(cassette_root)
    mpath = cassette_root / "demo" / "v0001" / "manifest.json"
    raw = json.loads(mpath.read_text())
    raw["format"] = 99
    mpath.write_text(json.dumps(raw))
    with pytest.raises(FormatVersionError, match="format"):
        store.open("demo")


def test_unknown_set_and_version_messages(cassette_root: Path) -> None:
    store = _publish(cassette_root)
    with pytest.raises(VersionNotFound, match="known sets: demo"):
        store.open("nope")
    with pytest.raises(VersionNotFound, match="known: v0001"):
        store.open("demo", "v0042")


@pytest.mark.parametrize("bad", ["../etc", "a/b", ".hidden", "", "x" * 80])
def test_names_reject_path_traversal(bad: str) -> None:
    with pytest.raises(ValueError):
        validate_name("version", bad)
    with pytest.raises(VersionNotFound):
        Store("/nonexistent").open(bad)


def test_failed_publish_leaves_nothing(cassette_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _publish(cassette_root)
    before = {p: p.read_bytes() for p in cassette_root.rglob("*") if p.is_file()}
    b = VersionBuilder(store, "demo", Catalog([]))
    b.add_interaction(SimRequest.from_url("https://example.go.kr/api/y"), SimResponse(200, [], b"{}"))
    import simulator.store.builder as builder_mod

    def boom(*a: object, **k: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(builder_mod.os, "rename", boom)
    with pytest.raises(StoreError, match="cannot publish into set='demo'"):
        b.publish(recorded_at="2026-11-02T00:00:00Z", source="test")
    after = {p: p.read_bytes() for p in cassette_root.rglob("*") if p.is_file()}
    assert after == before
    assert [m.version for m in store.versions("demo")] == ["v0001"]


def _collection_version(root: Path) -> Store:

    store = Store(root)
    b = VersionBuilder(store, "demo", load_catalog(), parent=None)
    recs = [{"nodeid": f"N{i}", "nodenm": "역", "nodeno": i} for i in range(4)]
    recs.append({"nodeid": "X", "extra": None})  # a record with other keys stays an object
    b.add_collection(endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=25",
                     filters={"cityCode": "25"}, fmt="json", total=5, records=recs)
    b.publish(recorded_at="2026-11-01T00:00:00Z", source="test")
    return store


def test_collection_text_is_one_record_per_line_and_round_trips(cassette_root: Path) -> None:
    store = _collection_version(cassette_root)
    lines = (cassette_root / "demo" / "v0001" / "collections" / "tago.jsonl").read_text("utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["collection"] == "tago_stations_by_name?cityCode=25" and head["n"] == 5
    assert head["fields"] == ["nodeid", "nodenm", "nodeno"]
    assert json.loads(lines[1]) == ["N0", "역", 0]
    assert json.loads(lines[5]) == {"nodeid": "X", "extra": None}
    v = store.open("demo")
    (c,) = v.collections()
    assert v.index.records(c.id, 3, 10) == [{"nodeid": "N3", "nodenm": "역", "nodeno": 3}, {"nodeid": "X", "extra": None}]
    # A child version carries the collection over unchanged.
    child = VersionBuilder(store, "demo", load_catalog())
    child.publish(recorded_at="2026-11-02T00:00:00Z", source="test")
    a, b = store.versions("demo")
    assert a.content_hash == b.content_hash


def test_collection_with_missing_record_lines_is_corrupt(cassette_root: Path) -> None:
    store = _collection_version(cassette_root)
    vdir = cassette_root / "demo" / "v0001"
    path = vdir / "collections" / "tago.jsonl"
    path.write_text("".join(path.read_text("utf-8").splitlines(keepends=True)[:-1]), "utf-8")
    m = json.loads((vdir / "manifest.json").read_text())
    m["files"]["collections/tago.jsonl"] = hashlib.sha256(path.read_bytes()).hexdigest()
    from simulator.store.manifest import content_hash_of

    m["content_hash"] = content_hash_of(m["files"])
    (vdir / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(CorruptVersion, match="declares 5 records"):
        store.open("demo")
