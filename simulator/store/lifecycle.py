"""A set's versions over time: remove one, prune to the newest N, clean the index cache.

Versions share bytes (``simulator.store.objects``), so removing one never removes data another
version reads: a plain file of the removed version that another version's segments point at is
moved into the set's ``objects/`` first (a rename: no copy; a compressed file keeps its
codec suffix, ``objects/ab/cdef….gz``), and an object no remaining version
reads is deleted. Every change holds the set's lock (``simulator.store.lock``) and a removed
version disappears in one rename, so readers see it whole or not at all.

>>> from simulator.store import Store                                  # doctest: +SKIP
>>> remove_version(Store(), "kopa", "v0002")                            # doctest: +SKIP
>>> prune(Store(), "kopa", keep=3)                                      # doctest: +SKIP
"""

from __future__ import annotations

import os
import shutil
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import StoreError
from .integrity import index_digest_path
from .lock import set_lock
from .manifest import Manifest
from .objects import (
    OBJECTS,
    CorruptBlob,
    fsync_dir,
    logical_name,
    object_path,
    stored_path,
    stored_sha256,
)
from .oserrors import os_error_message
from .roots import repair_hint
from .store import Store

__all__ = ["CacheCleaned", "Removed", "clean_cache", "prune", "remove_version"]


@dataclass
class Removed:
    """What removing versions did: the versions gone, blobs kept for others, bytes freed."""

    versions: list[str] = field(default_factory=list)
    kept_blobs: int = 0
    freed_bytes: int = 0


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else 0


def _referenced(manifests: list[Manifest]) -> set[str]:
    return {seg[0] for m in manifests for segs in m.segments.values() for seg in segs}


def _keep_shared(set_dir: Path, gone: Manifest, others: list[Manifest]) -> int:
    """Move the plain files of ``gone`` that ``others`` read into ``objects/``; how many."""
    wanted = _referenced(others)
    moved = 0
    for rel, sha in sorted(gone.files.items()):
        if rel in gone.segments or sha not in wanted or stored_path(object_path(set_dir, sha)) is not None:
            continue
        src = stored_path(set_dir / gone.version / rel) or set_dir / gone.version / rel
        try:
            intact = src.is_file() and stored_sha256(src) == sha
        except CorruptBlob:
            intact = False
        if not intact:
            raise StoreError(
                f"cannot remove {gone.set}@{gone.version}: {str(src)!r}, which another version "
                f"reads, is missing or damaged; {repair_hint(src)} first (`simulator verify` "
                "names every damaged file)"
            )
        plain = object_path(set_dir, sha)
        target = plain.with_name(plain.name + src.name[len(logical_name(src).name):])
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, target)
        fsync_dir(target.parent)
        moved += 1
    return moved


def _collect_garbage(set_dir: Path, remaining: list[Manifest]) -> int:
    """Delete objects no remaining version reads; the bytes freed."""
    root = set_dir / OBJECTS
    if not root.is_dir():
        return 0
    wanted = _referenced(remaining)
    freed = 0
    for p in sorted(root.glob("*/*")):
        if p.is_file() and p.parent.name + logical_name(p).name not in wanted:
            freed += p.stat().st_size
            p.unlink()
    for d in root.iterdir():
        if d.is_dir() and not any(d.iterdir()):
            d.rmdir()
    return freed


def _remove_locked(store: Store, set_name: str, name: str, out: Removed) -> None:
    set_dir = store.set_dir(set_name)
    versions = store.versions(set_name)
    gone = next((m for m in versions if m.version == name), None)
    if gone is None:
        store.manifest(set_name, name)  # raises VersionNotFound with the known versions
        raise StoreError(f"no version={name!r} in set={set_name!r}")
    # Blobs are shared within one root only (``simulator.store.share``): a version of another
    # root (the shipped, read-only one) reads its own root's files, never this one's, so it
    # keeps nothing here alive.
    others = [
        m for m in versions
        if m.version != name and store.version_dir(set_name, m.version).parent == set_dir
    ]
    vdir = set_dir / gone.version
    if not (vdir / "manifest.json").exists():
        raise StoreError(
            f"{set_name}@{name} is in a read-only root ({str(store.version_dir(set_name, name))!r}, "
            "the installed package's cassettes): it cannot be removed; your versions can"
        )
    out.kept_blobs += _keep_shared(set_dir, gone, others)
    out.freed_bytes += _size(vdir)
    doomed = set_dir / f".removing-{uuid.uuid4().hex}"
    os.rename(vdir, doomed)  # gone for readers in one step
    fsync_dir(set_dir)
    shutil.rmtree(doomed)
    out.freed_bytes += _collect_garbage(set_dir, others)
    out.versions.append(gone.version)


def remove_version(store: Store, set_name: str, version: str, *, wait: float = 0.0) -> Removed:
    """Remove one version of a set, keeping every byte the others read.

    A version that is another's parent may be removed: the child keeps its data (its
    ``parent`` then names a version that is gone, which ``simulator versions`` shows).
    """
    out = Removed()
    set_dir = store.set_dir(set_name)
    try:
        with set_lock(set_dir, set_name, purpose=f"removing {version}", wait=wait):
            _remove_locked(store, set_name, store.manifest(set_name, version).version, out)
    except OSError as exc:
        raise StoreError(os_error_message(exc, f"remove {set_name}@{version}", set_dir)) from None
    return out


def prune(store: Store, set_name: str, keep: int, *, wait: float = 0.0) -> Removed:
    """Remove all but the newest ``keep`` versions (oldest first), keeping what those read."""
    if keep < 1:
        raise StoreError(f"keep={keep!r}: keep at least 1 version (to remove a set, delete its folder)")
    out = Removed()
    set_dir = store.set_dir(set_name)
    try:
        with set_lock(set_dir, set_name, purpose=f"pruning to {keep}", wait=wait):
            versions = store.versions(set_name)
            for m in versions[: max(len(versions) - keep, 0)]:
                if (set_dir / m.version / "manifest.json").exists():  # read-only roots stay
                    _remove_locked(store, set_name, m.version, out)
    except OSError as exc:
        raise StoreError(os_error_message(exc, f"prune set={set_name!r}", set_dir)) from None
    return out


@dataclass
class CacheCleaned:
    """What cleaning the index cache removed."""

    files: list[str] = field(default_factory=list)
    freed_bytes: int = 0


def clean_cache(store: Store, *, everything: bool = False) -> CacheCleaned:
    """Remove compiled indexes no version of ``store`` uses (other formats, versions removed,
    temp files of interrupted compiles); ``everything`` removes them all (they are rebuilt
    from the text at the next open)."""
    out = CacheCleaned()
    root = store.cache_dir / "index"
    if not root.is_dir():
        return out
    live: set[str] = set()
    if not everything:
        for set_name in store.sets():
            try:
                for m in store.versions(set_name):
                    live.add(store.index_path(m).name)
            except StoreError:
                continue  # an unreadable set keeps nothing alive; its versions fail to open anyway
        live |= {index_digest_path(root / n).name for n in live}
    try:
        for p in sorted(root.iterdir()):
            if p.name in live:
                continue
            size = _size(p) if p.is_dir() else p.stat().st_size
            shutil.rmtree(p) if p.is_dir() else p.unlink()
            out.files.append(p.name)
            out.freed_bytes += size
    except OSError as exc:
        raise StoreError(os_error_message(exc, "clean the index cache", root)) from None
    return out

