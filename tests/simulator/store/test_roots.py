"""Where cassettes are found and written: the search path of set roots (issue #18)."""

from __future__ import annotations

import hashlib
import sysconfig
from pathlib import Path

import pytest

from simulator import Store, VersionBuilder, load_catalog
from simulator.errors import StoreError
from simulator.store import compile_index
from simulator.store.roots import SHIPPED_INDEX, Roots, check_writable, resolve_roots, shipped_root
from tests.support.helpers import build_demo_version, station_records

REPO = Path(__file__).resolve().parents[3]
SHIPPED_HASH = "60ad9f8f"


def _tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def test_explicit_and_env_name_one_directory(tmp_path: Path) -> None:
    r = resolve_roots(tmp_path / "x", environ={"KOPA_CASSETTES": str(tmp_path / "env")})
    assert r.read == (tmp_path / "x",) and r.write == tmp_path / "x" and r.origin == "--cassettes"
    r = resolve_roots(environ={"KOPA_CASSETTES": str(tmp_path / "env")})
    assert r.read == (tmp_path / "env",) and r.origin == "$KOPA_CASSETTES"


def test_default_writes_to_project_cassettes_or_user_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    r = resolve_roots(environ={}, cwd=tmp_path)
    assert r.write == tmp_path / "data" / "kopa-sim" / "cassettes" and r.origin == "user data dir"
    assert r.read[-1] == shipped_root() and "user data dir" in r.describe()
    (tmp_path / "cassettes").mkdir()
    r = resolve_roots(environ={}, cwd=tmp_path)
    assert r.write == tmp_path / "cassettes" and r.origin == "./cassettes"


def test_a_checkout_ships_its_cassettes() -> None:
    assert shipped_root() == REPO / "cassettes"


def test_store_from_any_directory_finds_the_shipped_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KOPA_CASSETTES", raising=False)
    monkeypatch.chdir(tmp_path)
    store = Store()
    assert store.root != REPO / "cassettes" and store.roots.origin == "user data dir"
    [m] = [m for m in store.versions("kopa") if m.version == "v0001"]
    assert m.content_hash.startswith(SHIPPED_HASH)
    assert store.version_dir("kopa", "v0001") == REPO / "cassettes" / "kopa" / "v0001"
    assert "kopa" in store.sets()


def test_a_user_version_layers_over_a_read_only_one(tmp_path: Path) -> None:
    shipped, user = tmp_path / "shipped", tmp_path / "user"
    build_demo_version(shipped, n=10)
    before = _tree_digest(shipped)
    store = Store(roots=Roots(user, (user, shipped), "user data dir"))
    assert [m.version for m in store.versions("kopa")] == ["v0001"]
    b = VersionBuilder(store, "kopa", load_catalog())
    assert b.parent is not None and b.parent.version == "v0001"
    b.add_collection(endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=25",
                     filters={"cityCode": "25"}, fmt="json", total=12, records=station_records(12))
    m = b.publish(recorded_at="2026-11-02T00:00:00Z", source="test")
    assert (m.version, m.parent) == ("v0002", "v0001")
    assert (user / "kopa" / "v0002" / "manifest.json").is_file()
    assert _tree_digest(shipped) == before  # nothing written into the read-only root
    assert [x.version for x in store.versions("kopa")] == ["v0001", "v0002"]
    assert store.open("kopa", "v0001").collections()[0].count == 10
    assert store.open("kopa").collections()[0].count == 12
    assert store.verify("kopa", "v0001") == [] and store.verify("kopa", "v0002") == []


def test_a_prebuilt_index_is_used_in_place(tmp_path: Path) -> None:
    shipped, user, cache = tmp_path / "shipped", tmp_path / "user", tmp_path / "cache"
    build_demo_version(shipped, n=10)
    m = Store(shipped).manifest("kopa")
    prebuilt = shipped / SHIPPED_INDEX / Store(shipped, cache).index_path(m).name
    compile_index(shipped / "kopa" / "v0001", m, prebuilt)
    store = Store(roots=Roots(user, (user, shipped), "user data dir"), cache_dir=cache)
    assert not store.needs_compile(m)
    v = store.open("kopa")
    # Used in place: nothing compiled into the cache (only the integrity stamp is kept there).
    assert v.index.path == prebuilt and not list(cache.rglob("*.sqlite"))
    assert store.open("kopa").index.path == prebuilt  # the stamped second open


def test_missing_set_names_every_root(tmp_path: Path) -> None:
    store = Store(roots=Roots(tmp_path / "a", (tmp_path / "a", tmp_path / "b"), "user data dir"))
    with pytest.raises(Exception, match=r"no cassette set='kopa' in .*'.*a', '.*b'"):
        store.versions("kopa")


def test_installation_directories_are_never_written(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="inside the installation"):
        check_writable(Path(sysconfig.get_paths()["purelib"]) / "cassettes")
    check_writable(tmp_path / "cassettes")  # a directory of one's own is fine
