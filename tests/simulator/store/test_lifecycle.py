"""Version life-cycle: shared storage, rm, prune, cache clean, edit-and-publish (issue 18)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from simulator import Resolver, SimRequest, Store, VersionBuilder, load_catalog

SHIPPED = Path(__file__).resolve().parents[3] / "cassettes" / "kopa"


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


@pytest.fixture
def shipped_copy(tmp_path: Path) -> Store:
    # The shipped set as it was at v0001 (26.7 MB of text, 3.9 MB stored gzip'd): v0002 and the
    # objects it shares bytes through are left out, so the tests below start from one version.
    root = tmp_path / "cassettes"
    shutil.copytree(SHIPPED / "v0001", root / "kopa" / "v0001")
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
    assert before > 3_500_000
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
    # Pruning the shipped version keeps the bytes the newest reads (moved, not copied).
    from simulator.store.lifecycle import prune

    assert prune(store, "kopa", keep=1).versions == ["v0001", "v0002"]
    assert store.verify("kopa") == [] and _size(set_dir) < before + 1_000_000


def test_shared_versions_read_like_copies(tmp_path: Path) -> None:
    from tests.support.helpers import build_demo_version

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


def _three_versions(root: Path) -> Store:
    """v0001 plain; v0002 and v0003 each change one collection and share the rest."""
    from tests.support.helpers import build_demo_version

    store = Store(build_demo_version(root / "c", n=300, extra=True).root, cache_dir=root / "cache")
    for i, key in enumerate(["tago_stations_by_name?cityCode=34010", "tago_stations_by_name?cityCode=25"]):
        b = VersionBuilder(store, "kopa", load_catalog())
        entry = b.collections[key]
        entry["records"][0]["nodenm"] = f"바뀐역{i}"
        b.collections[key] = entry
        b.publish(recorded_at=f"2026-12-0{i + 1}T00:00:00Z", source="test")
    return store


URLS = [
    "https://apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList?serviceKey=x&cityCode=34010&_type=json",
    "https://apis.data.go.kr/1613000/BusSttnInfoInqireService/getSttnNoList?serviceKey=x&cityCode=25&numOfRows=50&pageNo=2&_type=json",
    "https://apis.data.go.kr/1613000/BusRouteInfoInqireService/getCtyCodeList?serviceKey=x&_type=json",
]


def _answers(store: Store, version: str) -> list[bytes]:
    r = Resolver(store.open("kopa", version))
    return [r.resolve(SimRequest.from_url(u)).body for u in URLS]


def test_rm_keeps_what_other_versions_read(tmp_path: Path) -> None:
    from simulator.store.lifecycle import remove_version

    store = _three_versions(tmp_path)
    before = {v: _answers(store, v) for v in ("v0002", "v0003")}
    out = remove_version(store, "kopa", "v0001")  # the parent every other version reads
    assert out.versions == ["v0001"] and out.kept_blobs >= 1
    assert [m.version for m in store.versions("kopa")] == ["v0002", "v0003"]
    for v in ("v0002", "v0003"):
        assert store.verify("kopa", v) == []
        assert _answers(Store(store.root, cache_dir=tmp_path / f"fresh-{v}"), v) == before[v]


def test_prune_keeps_the_newest_and_frees_the_rest(tmp_path: Path) -> None:
    from simulator.store.lifecycle import prune

    store = _three_versions(tmp_path)
    newest = _answers(store, "v0003")
    size = _size(store.root)
    out = prune(store, "kopa", keep=1)
    assert out.versions == ["v0001", "v0002"] and out.freed_bytes > 0
    assert [m.version for m in store.versions("kopa")] == ["v0003"]
    assert store.verify("kopa") == [] and _answers(Store(store.root, cache_dir=tmp_path / "fresh"), "v0003") == newest
    assert _size(store.root) < size
    # Only blobs v0003 reads are left.
    m = store.manifest("kopa")
    wanted = {seg[0] for segs in m.segments.values() for seg in segs}
    left = {p.parent.name + p.name for p in (store.root / "kopa" / "objects").rglob("*") if p.is_file()}
    assert left <= wanted
    with pytest.raises(Exception, match="keep at least 1"):
        prune(store, "kopa", keep=0)


def test_cache_clean_removes_what_no_version_uses(tmp_path: Path) -> None:
    from simulator.store.lifecycle import clean_cache, remove_version

    store = _three_versions(tmp_path)
    for v in ("v0001", "v0002", "v0003"):
        store.open("kopa", v)
    index = store.cache_dir / "index"
    (index / ".stale.sqlite.123.tmp").write_bytes(b"x" * 100)  # an interrupted compile
    old = store.index_path(store.manifest("kopa", "v0001"))
    remove_version(store, "kopa", "v0001")
    out = clean_cache(store)
    assert old.name in out.files and ".stale.sqlite.123.tmp" in out.files and out.freed_bytes > 0
    assert all(store.index_path(store.manifest("kopa", v)).exists() for v in ("v0002", "v0003"))
    assert clean_cache(store).files == []
    everything = clean_cache(store, everything=True)
    assert len(everything.files) == 4 and not any(index.iterdir())  # two indexes and their digests
    assert _answers(store, "v0003")  # rebuilt at the next open


def test_cli_rm_prune_and_cache_clean(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from simulator.cli import app

    store = _three_versions(tmp_path)
    env = {"KOPA_CACHE": str(store.cache_dir)}
    run = CliRunner().invoke
    res = run(app, ["rm", "v0002", "--cassettes", str(store.root)], env=env)
    assert res.exit_code == 0 and "removed kopa@v0002" in res.output, res.output
    res = run(app, ["rm", "v0009", "--cassettes", str(store.root)], env=env)
    assert res.exit_code == 1 and "no version='v0009'" in res.output and "Traceback" not in res.output
    res = run(app, ["prune", "--keep", "1", "--cassettes", str(store.root)], env=env)
    assert res.exit_code == 0 and "removed v0001" in res.output, res.output
    res = run(app, ["cache", "clean", "--cassettes", str(store.root)], env=env)
    assert res.exit_code == 0 and "removed" in res.output, res.output
    assert [m.version for m in store.versions("kopa")] == ["v0003"] and store.verify("kopa") == []


def test_checkout_edit_publish_is_a_new_version_sharing_the_rest(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from simulator.cli import app

    store = _three_versions(tmp_path)
    env = {"KOPA_CACHE": str(store.cache_dir)}
    run = CliRunner().invoke
    edit = tmp_path / "edit"
    res = run(app, ["checkout", "v0002", str(edit), "--cassettes", str(store.root)], env=env)
    assert res.exit_code == 0, res.output
    path = edit / "collections" / "tago.jsonl"
    text = path.read_text(encoding="utf-8")
    assert "바뀐역0" in text
    path.write_text(text.replace("바뀐역0", "고친역"), encoding="utf-8")  # a one-line edit
    objects_before = _size(store.root / "kopa" / "objects")
    res = run(app, ["publish", str(edit), "--cassettes", str(store.root)], env=env)
    assert res.exit_code == 0 and "published kopa@v0004" in res.output and "parent v0002" in res.output, res.output
    m = store.manifest("kopa", "v0004")
    assert m.parent == "v0002" and m.recorded_at == store.manifest("kopa", "v0002").recorded_at
    assert store.verify("kopa", "v0004") == []
    assert _size(store.root / "kopa" / "objects") - objects_before < 2_000  # one collection's bytes
    body = Resolver(store.open("kopa", "v0004")).resolve(SimRequest.from_url(URLS[0])).body
    assert "고친역" in body.decode()
    # Publishing the same edit again adds nothing; a broken line is named.
    res = run(app, ["publish", str(edit), "--cassettes", str(store.root)], env=env)
    assert res.exit_code == 0 and "nothing new to publish" in res.output, res.output
    path.write_text(path.read_text(encoding="utf-8").replace("고친역", '"broken'), encoding="utf-8")
    res = run(app, ["publish", str(edit), "--cassettes", str(store.root)], env=env)
    assert res.exit_code == 1 and "is not JSON" in res.output and "Traceback" not in res.output, res.output


def test_rm_of_a_user_version_keeps_nothing_for_a_read_only_root(tmp_path: Path) -> None:
    # A user version copied from a shipped one has the same file sha256s that the shipped
    # versions' segments read; those read the shipped root's files, so removing the user copy
    # must free its bytes, not park them in the user root's objects/ for good.
    from simulator.store.lifecycle import remove_version
    from simulator.store.roots import Roots

    shipped = _three_versions(tmp_path / "shipped").root
    user = tmp_path / "user"
    store = Store(roots=Roots(user, (user, shipped), "user data dir"), cache_dir=tmp_path / "cache")
    VersionBuilder(store, "kopa", load_catalog(), parent="v0001").publish(
        recorded_at="2026-12-04T00:00:00Z", source="test")
    assert (user / "kopa" / "v0004" / "manifest.json").is_file()
    out = remove_version(store, "kopa", "v0004")
    assert out.versions == ["v0004"] and out.kept_blobs == 0 and out.freed_bytes > 0
    assert not [p for p in (user / "kopa").rglob("*") if p.is_file() and p.name != ".lock"]
    assert [m.version for m in store.versions("kopa")] == ["v0001", "v0002", "v0003"]
    assert store.verify("kopa", "v0003") == []


def test_rm_refuses_when_a_shared_file_is_damaged_and_names_the_fix(tmp_path: Path) -> None:
    """A file another version reads is damaged: rm changes nothing and says how to repair it
    where the set lives (here a folder outside git: remove and record again, not git)."""
    from simulator.errors import StoreError
    from simulator.store.lifecycle import remove_version

    store = _three_versions(tmp_path)
    v1 = store.root / "kopa" / "v0001"
    shared = next(p for p in sorted((v1 / "collections").iterdir()) if p.is_file())
    shared.write_bytes(shared.read_bytes()[:-3])
    listing = sorted(str(p.relative_to(store.root)) for p in store.root.rglob("*"))
    with pytest.raises(StoreError) as err:
        remove_version(store, "kopa", "v0001")
    msg = str(err.value)
    assert "missing or damaged" in msg and "record it again" in msg and "git" not in msg
    assert sorted(str(p.relative_to(store.root)) for p in store.root.rglob("*")) == listing


def test_publishing_an_unedited_checkout_of_an_older_version_publishes_nothing(tmp_path: Path) -> None:
    # It published v0004 with v0001's content hash (only the newest version was compared),
    # which then became the version every command reads by default.
    from typer.testing import CliRunner

    from simulator.cli import app

    store = _three_versions(tmp_path)
    env = {"KOPA_CACHE": str(store.cache_dir)}
    run = CliRunner().invoke
    edit = tmp_path / "edit"
    assert run(app, ["checkout", "v0001", str(edit), "--cassettes", str(store.root)], env=env).exit_code == 0
    res = run(app, ["publish", str(edit), "--cassettes", str(store.root)], env=env)
    assert res.exit_code == 0 and "nothing new to publish: kopa@v0001 already holds this content" in res.output, res.output
    assert [m.version for m in store.versions("kopa")] == ["v0001", "v0002", "v0003"]
