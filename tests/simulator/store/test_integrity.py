"""Opening a version checks manifest, text and compiled index agree: damage is rebuilt from
verified text or refused, never answered (issue 15 §3)."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from simulator import Resolver, SimRequest, Store
from simulator.errors import StoreError
from simulator.store.integrity import index_digest_path, index_intact
from tests.support.helpers import STATIONS, build_demo_version

EXACT = "https://apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList?serviceKey=x&_type=json"
REQUESTS = [EXACT] + [
    f"{STATIONS}?serviceKey=x&cityCode={c}&numOfRows={n}&pageNo={p}&_type={f}"
    for c, n, p, f in [("25", 10, 1, "json"), ("25", 7, 3, "xml"), ("34010", 100, 1, "json"), ("25", 50, 2, "json")]
]


def _answers(store: Store) -> list[tuple[int, bytes]]:
    r = Resolver(store.open("kopa"))
    return [(x.status, x.body) for x in (r.resolve(SimRequest.from_url(u)) for u in REQUESTS)]


@pytest.fixture
def demo(tmp_path: Path) -> tuple[Store, list[tuple[int, bytes]]]:
    store = build_demo_version(tmp_path / "cassettes", extra=True)
    store = Store(store.root, cache_dir=tmp_path / "cache")
    return store, _answers(store)


def test_hundred_bit_flips_in_the_index_are_rebuilt_never_answered(demo: tuple[Store, list[tuple[int, bytes]]]) -> None:
    store, golden = demo
    index = store.index_path(store.manifest("kopa"))
    rng = random.Random(15)
    pristine = index.read_bytes()
    for trial in range(100):
        data = bytearray(pristine)
        bit = rng.randrange(len(data) * 8)
        data[bit // 8] ^= 1 << (bit % 8)
        index.write_bytes(bytes(data))
        assert _answers(store) == golden, f"trial {trial}: bit {bit} gave a wrong answer"
        assert index.read_bytes() == pristine and index_intact(index)  # rebuilt, same bytes


def test_verify_names_a_damaged_index(demo: tuple[Store, list[tuple[int, bytes]]]) -> None:
    store, _ = demo
    index = store.index_path(store.manifest("kopa"))
    data = bytearray(index.read_bytes())
    data[len(data) // 2] ^= 0x10
    index.write_bytes(bytes(data))
    problems = store.verify("kopa")
    assert len(problems) == 1 and "compiled index is damaged" in problems[0]


def _edit_manifest(fn: Callable[[dict], None]) -> Callable[[Path], None]:
    def apply(vdir: Path) -> None:
        m = json.loads((vdir / "manifest.json").read_text(encoding="utf-8"))
        fn(m)
        (vdir / "manifest.json").write_text(json.dumps(m), encoding="utf-8")

    return apply


def _data(vdir: Path) -> Path:
    return next(p for p in sorted((vdir / "collections").iterdir()))


def _fixed_up(vdir: Path) -> None:
    """Tampered data whose sha256 is fixed up in the manifest, content_hash left genuine."""
    import hashlib

    p = _data(vdir)
    p.write_bytes(p.read_bytes().replace("대전역".encode(), "서울역".encode()))
    m = json.loads((vdir / "manifest.json").read_text(encoding="utf-8"))
    m["files"][f"collections/{p.name}"] = hashlib.sha256(p.read_bytes()).hexdigest()
    (vdir / "manifest.json").write_text(json.dumps(m), encoding="utf-8")


def _outside(rel: str) -> Callable[[Path], None]:
    def apply(vdir: Path) -> None:
        (vdir.parents[2] / "outside.jsonl").write_bytes(_data(vdir).read_bytes())
        p = _data(vdir)

        def fn(m: dict) -> None:
            m["files"][rel] = m["files"].pop(f"collections/{p.name}")

        _edit_manifest(fn)(vdir)

    return apply


def _flip(offset: int) -> Callable[[Path], None]:
    def apply(vdir: Path) -> None:
        p = _data(vdir)
        b = bytearray(p.read_bytes())
        b[offset % len(b)] ^= 0x01
        p.write_bytes(bytes(b))

    return apply


TAMPER: dict[str, Callable[[Path], None]] = {
    "content_hash_changed": _edit_manifest(lambda m: m.update(content_hash="0" * 64)),
    "file_sha_changed": _edit_manifest(lambda m: m["files"].update({k: "1" * 64 for k in list(m["files"])[:1]})),
    "sha_fixed_up_to_tampered_data": _fixed_up,
    "path_traversal": _outside("collections/../../../outside.jsonl"),
    "absolute_path": _outside("/tmp/outside.jsonl"),
    "backslash_path": _outside("collections\\..\\..\\outside.jsonl"),
    "file_entry_removed": _edit_manifest(lambda m: m["files"].pop(sorted(m["files"])[0])),
    "file_entry_added": _edit_manifest(lambda m: m["files"].update({"collections/extra.jsonl": "2" * 64})),
    "manifest_truncated": lambda v: (v / "manifest.json").write_bytes((v / "manifest.json").read_bytes()[:40]),
    "format_changed": _edit_manifest(lambda m: m.update(format=99)),
    "sha_not_hex": _edit_manifest(lambda m: m["files"].update({k: "Z" * 64 for k in list(m["files"])[:1]})),
    "segment_hint_outside": _edit_manifest(
        lambda m: m.update(segments={sorted(m["files"])[0]: [[m["files"][sorted(m["files"])[0]], 0, 10, "../../x"]]})
    ),
    "segment_bad_range": _edit_manifest(
        lambda m: m.update(segments={k: [[m["files"][k], 5, 10**6, ""]] for k in sorted(m["files"])[:1]})
    ),
    "data_deleted": lambda v: _data(v).unlink(),
    "data_truncated": lambda v: _data(v).write_bytes(_data(v).read_bytes()[:-50]),
    "data_line_appended": lambda v: _data(v).write_bytes(_data(v).read_bytes() + b'{"x":1}\n'),
    "data_bit_flip_start": _flip(3),
    "data_bit_flip_middle": _flip(997),
    "data_replaced_by_directory": lambda v: (_data(v).unlink(), (v / "collections" / "tago.jsonl").mkdir()),
    "data_symlinked_elsewhere": lambda v: (
        (v.parents[2] / "other.jsonl").write_bytes(b'{"collection":"x","n":0}\n'),
        _data(v).unlink(),
        (v / "collections" / "tago.jsonl").symlink_to(v.parents[2] / "other.jsonl"),
    ),
}


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
@pytest.mark.parametrize("case", sorted(TAMPER))
def test_manifest_and_text_tampering_is_refused_never_answered(
    demo: tuple[Store, list[tuple[int, bytes]]], case: str, warm: bool
) -> None:
    store, golden = demo
    assert len(TAMPER) >= 20
    if not warm:
        shutil.rmtree(store.cache_dir)
    TAMPER[case](store.root / "kopa" / "v0001")
    try:
        got = _answers(store)
    except StoreError as exc:
        assert "\n" not in str(exc).strip(), f"not a one-line error: {exc}"
        return
    assert got == golden, f"{case}: a tampered version answered differently"
    pytest.fail(f"{case}: tampering was not detected (the answers happened to be right)")


def test_an_unchanged_version_opens_without_hashing_and_a_forged_mtime_is_caught(
    demo: tuple[Store, list[tuple[int, bytes]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    import simulator.store.integrity as integrity
    import simulator.store.objects as objects

    store, golden = demo
    calls = []
    real = integrity.file_sha256
    monkeypatch.setattr(integrity, "file_sha256", lambda p: calls.append(p) or real(p))
    real_digest = objects.file_digest
    monkeypatch.setattr(objects, "file_digest", lambda *a: calls.append(a) or real_digest(*a))
    assert _answers(store) == golden and calls == []  # stamped: nothing hashed
    # Same bytes length, same mtime, different content: the ctime still moves.
    p = _data(store.root / "kopa" / "v0001")
    st = p.stat()
    data = bytearray(p.read_bytes())
    data[100] ^= 0x01
    p.write_bytes(bytes(data))
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    with pytest.raises(StoreError, match="does not match its sha256"):
        store.open("kopa")


def test_a_shared_version_copied_alone_says_to_copy_the_set(tmp_path: Path) -> None:
    # v0003 reads v0001's bytes (segments): its folder copied without the set's other files
    # names the missing bytes and the fix, instead of a bare "objects/…: missing".
    from tests.simulator.store.test_lifecycle import _three_versions

    store = _three_versions(tmp_path)
    m = store.manifest("kopa", "v0003")
    assert m.segments
    shutil.copytree(store.root / "kopa" / "v0003", tmp_path / "alone" / "kopa" / "v0003")
    alone = Store(tmp_path / "alone", cache_dir=tmp_path / "cache2")
    problems = alone.verify("kopa", "v0003")
    assert problems and all("copy or restore the whole set folder" in p for p in problems)
    with pytest.raises(StoreError, match="shares bytes with other versions of the set"):
        alone.open("kopa", "v0003")


def test_a_rebuild_never_leaves_the_index_missing(
    demo: tuple[Store, list[tuple[int, bytes]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While one opener rebuilds an index, the file stays in place for every other reader.

    Two threads opening the same new version both compile it; the second used to unlink the
    index the first had just renamed into place, and the first's ``Index`` then failed with
    ``sqlite3.OperationalError: unable to open database file`` (seen in CI under load in
    ``test_readers_never_see_a_partial_version``). The rebuild must replace the file atomically.
    """
    import simulator.store.store as store_mod

    store, golden = demo
    index = store.index_path(store.manifest("kopa"))
    index_digest_path(index).unlink()  # the next open re-checks the index and rebuilds it
    seen: list[bool] = []
    real = store_mod.compile_index

    def watched(vdir: Path, m: object, target: Path) -> None:
        seen.append(target.exists())  # another reader may be opening it right now
        real(vdir, m, target)

    monkeypatch.setattr(store_mod, "compile_index", watched)
    assert _answers(store) == golden
    assert seen == [True] and index_intact(index)
