"""Compact a set in place: its plain stored files compressed, every manifest format 3.

``simulator compact`` (``compact``) rewrites a set written by an older kopa-sim (formats 1
and 2: JSON Lines stored as plain text) in the compressed storage of format 3
(``simulator.store.objects``), without changing a single hash: a version's ``files`` sha256s,
its segments and its content hash are those of the decoded text, so every version keeps its
name and hash, every pin and every cached index stays valid.

It runs in three phases, each safe to interrupt (a crash, Ctrl-C, a full disk):

1. **write**: each plain file (a version's whole file, a blob in ``objects/``) of
   ``share.COMPRESS_MIN`` bytes or more (a smaller one stays plain, as a new version's) is compressed
   into a hidden temporary file beside it, decoded back and checked against its sha256, and
   renamed to its compressed name (``x.jsonl.gz``). Readers prefer the compressed name and
   fall back to the plain one, so both are valid copies from then on;
2. **swap**: each manifest is rewritten with ``format: 3`` (a temporary file, fsynced, then
   renamed over the old one: a reader sees the old manifest or the new, whole);
3. **remove**: the plain files, each only once its compressed twin is in place and verified.

Interrupted before phase 3 ends, the set still reads (some files in both forms, ``simulator
verify`` clean); running ``compact`` again finishes the job and removes the temporary files
of the interrupted run. The set's lock (``simulator.store.lock``) is held throughout, so no
version is published meanwhile. A plain file that does not match its sha256 stops the
compaction before anything is removed (restore it first; ``simulator verify`` names it).

>>> compact(Store("cassettes"), "kopa")                  # doctest: +SKIP
Compacted(versions=['v0001', ...], compressed=104, bytes_before=80513024, bytes_after=13217792)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import StoreError
from . import share
from .lock import set_lock
from .manifest import CASSETTE_FORMAT
from .objects import (
    CODECS,
    OBJECTS,
    WRITE_CODEC,
    CorruptBlob,
    compress_to,
    fsync_dir,
    stored_sha256,
)
from .oserrors import os_error_message
from .roots import repair_hint
from .store import MANIFEST, Store, read_manifest

__all__ = ["TEMP_PREFIX", "Compacted", "compact"]

#: Temporary files of a compaction start with this (removed by the next run if left behind).
TEMP_PREFIX = ".compact-"


@dataclass
class Compacted:
    """What a compaction did: versions rewritten, files compressed, the set's size before/after."""

    versions: list[str] = field(default_factory=list)
    compressed: int = 0
    bytes_before: int = 0
    bytes_after: int = 0


def _set_size(set_dir: Path) -> int:
    return sum(p.stat().st_size for p in set_dir.rglob("*") if p.is_file() and not p.name.startswith(".lock"))


def _plain_files(set_dir: Path, manifests: dict[str, dict]) -> list[tuple[Path, str]]:
    """(plain stored file, the sha256 of its text) of every file not yet compressed (one of
    ``share.COMPRESS_MIN`` bytes or more: a smaller one stays plain, as a new version writes it)."""
    out: list[tuple[Path, str]] = []
    for name, raw in sorted(manifests.items()):
        segmented = raw.get("segments") or {}
        for rel, sha in sorted(raw["files"].items()):
            if rel not in segmented:
                out.append((set_dir / name / rel, sha))
    out = [(p, sha) for p, sha in out if not p.is_file() or p.stat().st_size >= share.COMPRESS_MIN]
    objects = set_dir / OBJECTS
    if objects.is_dir():
        for p in sorted(objects.glob("*/*")):
            if p.is_file() and p.suffix not in CODECS and not p.name.startswith(".") and p.stat().st_size >= share.COMPRESS_MIN:
                out.append((p, p.parent.name + p.name))
    return out


def _twin(plain: Path, codec: str) -> Path | None:
    """A compressed file of ``plain``'s text already in place (any codec), if any."""
    for suffix in (codec, *CODECS):
        packed = plain.with_name(plain.name + suffix)
        if packed.exists():
            return packed
    return None


def _hashing(path: Path, h: Any) -> Iterator[bytes]:
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
            yield chunk


def _verified(packed: Path, sha: str) -> bool:
    try:
        return stored_sha256(packed) == sha
    except CorruptBlob:
        return False


def _write_phase(todo: list[tuple[Path, str]], codec: str, out: Compacted) -> list[Path]:
    """Compress each plain file beside itself; the plain files now safe to remove."""
    removable: list[Path] = []
    for plain, sha in todo:
        twin = _twin(plain, codec)
        if twin is not None and _verified(twin, sha):
            if plain.exists():
                removable.append(plain)
            continue
        if not plain.exists():
            raise StoreError(f"cannot compact: {str(plain)!r} is missing and has no intact compressed copy; "
                             f"{repair_hint(plain)} (`simulator verify` names every problem)")
        tmp = plain.with_name(f"{TEMP_PREFIX}{plain.name}{codec}")
        h = hashlib.sha256()
        compress_to(_hashing(plain, h), tmp, codec)
        if h.hexdigest() != sha:
            tmp.unlink()
            raise StoreError(f"cannot compact: {str(plain)!r} does not match its sha256 (damaged or edited); "
                             f"{repair_hint(plain)}, then run `simulator compact` again: nothing was removed")
        if not _verified(tmp, sha):
            tmp.unlink()
            raise StoreError(f"cannot compact: {str(tmp)!r} did not decode back to {str(plain)!r} "
                             "(please report this as a bug): nothing was removed")
        os.replace(tmp, plain.with_name(plain.name + codec))
        fsync_dir(plain.parent)
        out.compressed += 1
        removable.append(plain)
    return removable


def _swap_phase(set_dir: Path, manifests: dict[str, dict]) -> None:
    """Rewrite each manifest as format 3, atomically (its hashes as they are)."""
    for name, raw in sorted(manifests.items()):
        if raw.get("format") == CASSETTE_FORMAT:
            continue
        raw["format"] = CASSETTE_FORMAT
        vdir = set_dir / name
        tmp = vdir / f"{TEMP_PREFIX}{MANIFEST}"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(raw, ensure_ascii=False, indent=2) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, vdir / MANIFEST)
        fsync_dir(vdir)


def _remove_phase(plain_files: list[Path]) -> None:
    dirs = set()
    for p in plain_files:
        p.unlink(missing_ok=True)
        dirs.add(p.parent)
    for d in sorted(dirs):
        fsync_dir(d)


def _clean_temps(set_dir: Path) -> None:
    for p in set_dir.rglob(f"{TEMP_PREFIX}*"):
        if p.is_file():
            p.unlink()


def compact(store: Store, set_name: str, *, codec: str = WRITE_CODEC, wait: float = 0.0) -> Compacted:
    """Compress every plain stored file of ``set_name`` in ``store``'s own root and rewrite its
    manifests as format 3, in place (see the module docstring); what it did.

    Versions in read-only roots (the installed package's cassettes) are not touched. Every
    version's content hash is checked to be unchanged before returning.
    """
    if codec not in CODECS:
        raise StoreError(f"unknown codec {codec!r}: use one of {', '.join(s.lstrip('.') for s in CODECS)}")
    set_dir = store.set_dir(set_name)
    if not set_dir.is_dir():
        raise StoreError(f"no cassette set={set_name!r} in {str(store.root)!r}: pass --cassettes DIR (the folder "
                         "holding the set's folder)")
    out = Compacted()
    try:
        with set_lock(set_dir, set_name, purpose="compacting", wait=wait):
            _clean_temps(set_dir)
            out.bytes_before = _set_size(set_dir)
            manifests: dict[str, dict] = {}
            hashes: dict[str, str] = {}
            for vdir in sorted(p for p in set_dir.iterdir() if (p / MANIFEST).is_file() and not p.name.startswith(".")):
                m = read_manifest(vdir)  # refuses an unreadable format or a damaged manifest
                manifests[vdir.name] = json.loads((vdir / MANIFEST).read_text(encoding="utf-8"))
                hashes[vdir.name] = m.content_hash
            removable = _write_phase(_plain_files(set_dir, manifests), codec, out)
            _swap_phase(set_dir, manifests)
            _remove_phase(removable)
            for name, content_hash in hashes.items():
                m = read_manifest(set_dir / name)
                if m.content_hash != content_hash or m.format != CASSETTE_FORMAT:
                    raise StoreError(f"compacting changed {set_name}@{name}'s manifest (please report this as a bug)")
            out.versions = sorted(hashes)
            out.bytes_after = _set_size(set_dir)
    except OSError as exc:
        raise StoreError(os_error_message(exc, f"compact set={set_name!r}", set_dir)) from None
    return out
