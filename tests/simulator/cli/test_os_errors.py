"""Disk full, read-only, permission and misplaced-directory failures are one-line errors
naming the path and the fix, and a failed publish leaves nothing behind (issue 15 §7)."""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from simulator import Store, VersionBuilder, load_catalog
from simulator.errors import StoreError
from tests.support.helpers import build_demo_version, station_records


@contextmanager
def tmpfs(path: Path, size: str, *, read_only: bool = False) -> Iterator[Path]:
    """A small tmpfs at ``path`` (root only; skips the test where mounting is not allowed)."""
    path.mkdir(parents=True, exist_ok=True)
    opts = f"size={size}" + (",ro" if read_only else "")
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(path)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs needs root (the monkeypatched tests below cover the same paths)")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def _big_builder(store: Store, n: int = 20000) -> VersionBuilder:
    b = VersionBuilder(store, "kopa", load_catalog(), parent=None)
    b.add_collection(endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=25",
                     filters={"cityCode": "25"}, fmt="json", total=n, records=station_records(n))
    return b


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and p.name != ".lock")


def _one_line(exc: BaseException, *words: str) -> None:
    text = str(exc)
    assert "\n" not in text and all(w in text for w in words), text


def test_disk_full_publish_and_compile_on_a_tiny_tmpfs(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "small", "1m") as small:
        store = Store(small / "cassettes", cache_dir=tmp_path / "cache")
        with pytest.raises(StoreError) as info:
            _big_builder(store).publish(recorded_at="2026-11-01T00:00:00Z", source="test")
        _one_line(info.value, "the disk is full", str(small / "cassettes"), "free space")
        assert _files(small) == [] and not store.versions("kopa")
        # A version that fits, with its cache on the full disk.
        fits = build_demo_version(tmp_path / "ok", n=40000)
        cache_store = Store(fits.root, cache_dir=small / "cache")
        with pytest.raises(StoreError) as info:
            cache_store.open("kopa")
        _one_line(info.value, "cannot compile the index", "the disk is full")
        assert _files(small) == []  # no orphan temp index


def test_read_only_cassette_dir_on_a_read_only_mount(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro", "1m", read_only=True) as ro:
        with pytest.raises(StoreError) as info:
            _big_builder(Store(ro, cache_dir=tmp_path / "cache"), 10).publish(recorded_at="2026-11-01T00:00:00Z", source="test")
        _one_line(info.value, "read-only", str(ro), "--cassettes")


@pytest.mark.parametrize("code,words", [
    (errno.ENOSPC, ("the disk is full", "free space")),
    (errno.EROFS, ("read-only", "KOPA_CACHE")),
    (errno.EACCES, ("permission denied", "permissions")),
])
def test_publish_failures_are_one_line_and_leave_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, words: tuple[str, ...]
) -> None:
    store = build_demo_version(tmp_path / "c")
    before = _files(tmp_path / "c")
    import simulator.store.share as share

    import builtins

    real = builtins.open

    def failing(path: object, mode: str = "r", *a: object, **k: object) -> object:
        if "w" in mode:
            raise OSError(code, os.strerror(code), str(path))
        return real(path, mode, *a, **k)  # type: ignore[call-overload]

    monkeypatch.setattr(share, "open", failing, raising=False)
    b = VersionBuilder(store, "kopa", load_catalog())
    b.add_collection(endpoint="tago_stations_by_name", key="tago_stations_by_name?cityCode=9",
                     filters={"cityCode": "9"}, fmt="json", total=1, records=station_records(1))
    with pytest.raises(StoreError) as info:
        b.publish(recorded_at="2026-11-02T00:00:00Z", source="test")
    _one_line(info.value, "cannot publish into set='kopa'", *words)
    assert _files(tmp_path / "c") == before and [m.version for m in store.versions("kopa")] == ["v0001"]


def test_cache_failures_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = build_demo_version(tmp_path / "c")
    cached = Store(store.root, cache_dir=tmp_path / "cache")
    target = cached.index_path(cached.manifest("kopa"))
    target.mkdir(parents=True)  # a directory where the index file should be
    with pytest.raises(StoreError) as info:
        cached.open("kopa")
    _one_line(info.value, "a directory is where the index file should be", str(target), "remove that directory")
    target.rmdir()
    import simulator.store.index as index

    def read_only(*_a: object, **_k: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(target.parent))

    monkeypatch.setattr(index.sqlite_utils if hasattr(index, "sqlite_utils") else __import__("sqlite_utils"), "Database", read_only)
    with pytest.raises(StoreError) as info:
        cached.open("kopa")
    _one_line(info.value, "cannot compile the index", "read-only", "KOPA_CACHE")
    assert not any(p.name.endswith(".tmp") for p in target.parent.iterdir())


def test_cli_names_the_problem_without_a_traceback(tmp_path: Path) -> None:
    store = build_demo_version(tmp_path / "c")
    cache = tmp_path / "cache"
    Store(store.root, cache_dir=cache).index_path(store.manifest("kopa")).mkdir(parents=True)
    env = {**os.environ, "KOPA_CACHE": str(cache)}
    proc = subprocess.run(["python", "-m", "simulator", "inspect", "--cassettes", str(store.root)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "a directory is where the index file should be" in proc.stderr
