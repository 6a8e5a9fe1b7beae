"""Compressed storage (format 3) and ``simulator compact``: same hashes, old sets still read,
an interrupted compaction loses nothing, a damaged compressed file is named with its fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from simulator import CorruptVersion, Store, VersionBuilder, load_catalog
from simulator.errors import StoreError
from simulator.store import compact as compact_mod
from simulator.store import share
from simulator.store.compact import compact
from simulator.store.edit import checkout
from simulator.store.index import iter_entries
from simulator.store.manifest import content_hash_of
from simulator.store.objects import CODECS, file_bytes
from tests.support.helpers import build_demo_version, station_records

REPO = Path(__file__).resolve().parents[3]
SHIPPED = REPO / "cassettes" / "kopa"
#: The content hashes of the shipped versions as recorded (plain text, formats 1 and 2, before
#: the set was compacted): compaction must keep every one.
SHIPPED_HASHES = {
    "v0001": "60ad9f8f0e0c14d670b264eaee88c09bd880a7823468dad3036f4d56696746c4",
    "v0002": "9ff46e17dc2a0e2ff985ae2909e1697aa8e7768cfac8a69bee726d5a3817b435",
    "v0003": "1a4715894563261f5ec626fb8cb16189efe279f75be1e6eeca963c4c71ae7545",
    "v0004": "727820a9c1d968e3f33cecca3881f4314f7543d4a21c96018c71b3719379d4a8",
    "v0005": "8e8c607b19e907a413dd6acf203e1e01147a1110b21c892a832812d3db51cf6d",
    "v0006": "5dbc35694252f9cbca6ac4c59be7e2c689f875b2d96716311812f59e80d3fa87",
    "v0007": "b6914a809f20db2ef2a1955438d524a3fd9d1417b11b5ef573b6f2dcd18eda64",
    "v0008": "922e9495f3fd3fee90d91d97de890f793a950ccad1c3fa8d231e9b69abb08e1a",
    "v0009": "61b229347b55a13a948749be441c0b216a7cabbf5ded0e4922679acdc7d4f403",
}


def _next_version(store: Store, city: str, n: int) -> None:
    """A child of the newest version with collection ``city`` recorded anew (``n`` records)."""
    b = VersionBuilder(store, "kopa", load_catalog(), parent="latest")
    b.add_collection(endpoint="tago_stations_by_name", key=f"tago_stations_by_name?cityCode={city}",
                     filters={"cityCode": city}, fmt="json", total=n, records=station_records(n, city))
    b.publish(recorded_at="2026-11-02T00:00:00Z", source="test")


def _three_versions(root: Path) -> Store:
    """v0001 (whole files), v0002 and v0003 (segments into v0001's file and new blobs)."""
    store = build_demo_version(root, n=400, extra=True)
    _next_version(store, "34010", 5)
    _next_version(store, "12", 7)
    return store


def _as_written_by_an_older_kopa_sim(set_dir: Path) -> None:
    """The set as kopa-sim wrote it before format 3: its files plain (they are: see the
    fixture), each manifest format 1, or 2 where it lists segments."""
    for mpath in sorted(set_dir.glob("v*/manifest.json")):
        raw = json.loads(mpath.read_text("utf-8"))
        raw["format"] = 2 if raw.get("segments") else 1
        mpath.write_text(json.dumps(raw, ensure_ascii=False, indent=2) + "\n", "utf-8")


def _stored(set_dir: Path) -> list[Path]:
    return sorted(p for p in set_dir.rglob("*") if p.is_file() and p.name != ".lock")


def _entries(store: Store) -> dict[str, Any]:
    out = {}
    for m in store.versions("kopa"):
        vdir = store.version_dir("kopa", m.version)
        out[m.version] = [list(iter_entries(vdir, m, kind)) for kind in ("interactions", "collections")]
    return out


@pytest.fixture
def old_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    """Three versions as an older kopa-sim stored them (plain text, formats 1 and 2)."""
    monkeypatch.setattr(share, "COMPRESS_MIN", 1 << 62)  # nothing compressed while writing them
    _three_versions(tmp_path / "c")
    _as_written_by_an_older_kopa_sim(tmp_path / "c" / "kopa")
    monkeypatch.setattr(share, "COMPRESS_MIN", 0)  # every file compressed from now on
    return Store(tmp_path / "c", cache_dir=tmp_path / "cache")


def test_a_new_version_is_written_compressed_and_reads_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(share, "COMPRESS_MIN", 0)
    store = _three_versions(tmp_path / "c")
    set_dir = tmp_path / "c" / "kopa"
    assert [m.format for m in store.versions("kopa")] == [3, 3, 3]
    assert all(p.suffix == ".gz" for p in _stored(set_dir) if p.name != "manifest.json")
    assert store.manifest("kopa", "v0003").segments  # shares v0001's compressed file
    for m in store.versions("kopa"):
        assert store.verify("kopa", m.version) == []
        assert store.open("kopa", m.version).index.collection("tago_stations_by_name?cityCode=25").count == 400
    got = checkout(store, "kopa", "v0003", tmp_path / "edit")  # plain JSON Lines to edit
    for rel, sha in got.files.items():
        import hashlib

        assert hashlib.sha256((tmp_path / "edit" / rel).read_bytes()).hexdigest() == sha


def test_below_the_threshold_a_file_stays_plain(tmp_path: Path) -> None:
    m = build_demo_version(tmp_path / "c", n=5).manifest("kopa")
    assert m.format == 3
    assert [p.suffix for p in _stored(tmp_path / "c" / "kopa")] == [".jsonl", ".jsonl", ".json"]


def test_an_old_format_set_reads_and_compacts_with_every_hash_unchanged(old_set: Store) -> None:
    set_dir = old_set.root / "kopa"
    before = {m.version: (m.format, m.content_hash, m.files, m.segments) for m in old_set.versions("kopa")}
    assert [f for f, *_ in before.values()] == [1, 2, 2]
    entries = _entries(old_set)
    for name in before:
        assert old_set.verify("kopa", name) == []
        old_set.open("kopa", name)  # compiles its index from the plain text
    plain = [p for p in _stored(set_dir) if p.name != "manifest.json"]
    assert len(plain) == 4 and all(p.suffix == ".jsonl" or "objects" in p.parts for p in plain)
    out = compact(old_set, "kopa")
    assert out.versions == ["v0001", "v0002", "v0003"] and out.compressed == 4  # v0001's two files, two blobs
    assert out.bytes_after < out.bytes_before
    after = {m.version: (m.format, m.content_hash, m.files, m.segments) for m in old_set.versions("kopa")}
    assert {k: v[1:] for k, v in after.items()} == {k: v[1:] for k, v in before.items()}
    assert {v[0] for v in after.values()} == {3}
    assert not [p for p in _stored(set_dir) if p.suffix not in CODECS and p.name != "manifest.json"]
    assert _entries(old_set) == entries
    for name in before:
        assert old_set.verify("kopa", name) == []
        assert old_set.open("kopa", name).content_hash == before[name][1]  # the cached index still serves
    assert compact(old_set, "kopa").compressed == 0  # nothing left to do


def test_a_new_version_over_an_old_format_parent_shares_its_plain_bytes(old_set: Store) -> None:
    _next_version(old_set, "25", 3)
    m = old_set.manifest("kopa")
    assert m.format == 3 and any(h.startswith("v0001/") for segs in m.segments.values() for *_x, h in segs)
    assert old_set.verify("kopa", m.version) == []
    compact(old_set, "kopa")  # v0001's plain file gives way to its .gz: v0004 finds that instead
    assert old_set.verify("kopa", m.version) == []
    assert old_set.open("kopa", m.version).index.collection("tago_stations_by_name?cityCode=25").count == 3


class Crash(Exception):
    """Stands for the process being killed at that point."""


@pytest.mark.parametrize("at", ["write", "swap", "remove"])
def test_an_interrupted_compaction_loses_nothing_and_a_rerun_finishes(
    old_set: Store, monkeypatch: pytest.MonkeyPatch, at: str
) -> None:
    set_dir = old_set.root / "kopa"
    hashes = {m.version: m.content_hash for m in old_set.versions("kopa")}
    entries = _entries(old_set)
    calls = {"n": 0}
    if at == "write":  # the second file half written into its temporary file
        real = compact_mod.compress_to

        def crash_mid_file(src: Any, dest: Path, codec: str) -> None:
            calls["n"] += 1
            if calls["n"] == 2:
                dest.write_bytes(b"\x1f\x8b\x08\x00partial")
                raise Crash
            real(src, dest, codec)

        monkeypatch.setattr(compact_mod, "compress_to", crash_mid_file)
    elif at == "swap":  # one manifest swapped, then killed
        real_swap = compact_mod.os.replace

        def crash_after_one(src: Any, dst: Any) -> None:
            if str(dst).endswith("manifest.json"):
                calls["n"] += 1
                if calls["n"] == 2:
                    raise Crash
            real_swap(src, dst)

        monkeypatch.setattr(compact_mod.os, "replace", crash_after_one)
    else:  # one plain file removed, then killed
        def crash_in_remove(files: list[Path]) -> None:
            files[0].unlink()
            raise Crash

        monkeypatch.setattr(compact_mod, "_remove_phase", crash_in_remove)
    with pytest.raises(Crash):
        compact(old_set, "kopa")
    monkeypatch.undo()
    monkeypatch.setattr(share, "COMPRESS_MIN", 0)
    # Readable as it is: every version verifies and reads its entries.
    for name, h in hashes.items():
        assert old_set.verify("kopa", name) == [], name
        assert old_set.open("kopa", name).content_hash == h
    assert _entries(old_set) == entries
    out = compact(old_set, "kopa")
    assert {m.format for m in old_set.versions("kopa")} == {3}
    assert {m.version: m.content_hash for m in old_set.versions("kopa")} == hashes
    assert not [p for p in _stored(set_dir) if p.name.startswith(".compact-")]
    assert not [p for p in _stored(set_dir) if p.suffix not in CODECS and p.name != "manifest.json"]
    assert out.versions == sorted(hashes) and _entries(old_set) == entries


@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_a_damaged_compressed_blob_is_named_with_its_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    monkeypatch.setattr(share, "COMPRESS_MIN", 0)
    _three_versions(tmp_path / "c")
    store = Store(tmp_path / "c", cache_dir=tmp_path / "cache")
    m = store.manifest("kopa", "v0002")
    blob = next(p for p in (tmp_path / "c" / "kopa" / "objects").rglob("*.gz")
                if p.parent.name + p.name[:-3] in {s[0] for segs in m.segments.values() for s in segs})
    data = blob.read_bytes()
    blob.write_bytes(data[:20] + bytes([data[20] ^ 0xFF]) + data[21:] if damage == "flip" else data[: len(data) // 2])
    with pytest.raises(CorruptVersion) as err:
        store.open("kopa", "v0002")
    msg = str(err.value)
    assert f"compressed file {str(blob)!r}" in msg and "does not decode" in msg
    assert "remove the version (`simulator rm v0002`) and record it again" in msg  # outside git: no copy
    if damage == "truncate":
        assert "truncated" in msg
    problems = store.verify("kopa", "v0002")
    assert len(problems) == 1 and str(blob) in problems[0] and "does not decode" in problems[0]


def test_compact_refuses_a_damaged_plain_file_and_removes_nothing(old_set: Store) -> None:
    plain = old_set.root / "kopa" / "v0001" / "collections"
    target = next(plain.iterdir())
    target.write_bytes(target.read_bytes().replace(b"DJB", b"XJB", 1))
    with pytest.raises(StoreError, match="does not match its sha256.*nothing was removed"):
        compact(old_set, "kopa")
    assert target.exists() and [m.format for m in old_set.versions("kopa")] == [1, 2, 2]


def test_the_shipped_versions_are_compacted_with_their_recorded_hashes() -> None:
    store = Store(REPO / "cassettes")
    got = {m.version: m for m in store.versions("kopa") if m.version in SHIPPED_HASHES}
    assert {k: m.content_hash for k, m in got.items()} == SHIPPED_HASHES
    for name, m in got.items():
        assert m.format == 3 and content_hash_of(m.files) == m.content_hash
        assert store.verify("kopa", name) == [], name  # every file's decoded sha256
    assert file_bytes(SHIPPED / "v0001", got["v0001"], "collections/tago.jsonl").startswith(b'{"collection"')


def test_audit_reads_a_compressed_file_decoded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gzip

    from simulator.audit import audit_dir

    monkeypatch.setattr(share, "COMPRESS_MIN", 0)
    build_demo_version(tmp_path / "c", n=50)
    vdir = tmp_path / "c" / "kopa" / "v0001"
    assert audit_dir(vdir).ok
    packed = vdir / "collections" / "tago.jsonl.gz"
    text = gzip.decompress(packed.read_bytes()).decode("utf-8")
    assert '"시청1"' in text
    packed.write_bytes(gzip.compress(text.replace('"시청1"', '"lawService.do?oc=user9f3a1c&ID=1"', 1).encode(), mtime=0))
    found = audit_dir(vdir).findings
    assert [(f.file, f.kind) for f in found] == [("collections/tago.jsonl.gz", "key_param")], found
