"""Integrity of a version at open: its manifest, its text and its compiled index agree.

Three checks, all at open (never per lookup, so an exact hit costs what it did):

* the manifest's ``content_hash`` is the hash of its ``files`` list (a manifest whose file
  sha256s were "fixed up" to match edited data, under the genuine content hash, is refused);
* every data file's sha256 is the manifest's (a damaged or deleted file refuses the version
  even when its index is already compiled: the cache never outlives its text);
* the index file's sha256 is the one written beside it when it was compiled from verified
  text (``<index>.sha256``), and its ``meta`` names the same content hash: any other index
  (bit rot, a truncated copy, another version's) is rebuilt from the text.

Hashing is sha256 at about 1.5 GB/s: the shipped 26 MB of text and its 58 MB index cost
about 55 ms at open.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import Iterator

from ..errors import CorruptVersion
from .manifest import Manifest, content_hash_of

__all__ = ["check_manifest", "check_text", "file_sha256", "index_digest_path", "index_intact", "write_index_digest"]

_CHUNK = 1 << 20


def file_sha256(path: Path) -> str:
    """sha256 hex of a file, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def check_manifest(manifest: Manifest, where: Path) -> None:
    """Refuse a manifest whose ``content_hash`` is not the hash of its ``files``."""
    if content_hash_of(manifest.files) != manifest.content_hash:
        raise CorruptVersion(
            f"manifest {str(where)!r}: content_hash does not match its files list (edited or "
            "damaged); restore it from git or record the version again",
            path=str(where),
        )


def _problems(version_dir: Path, manifest: Manifest) -> Iterator[str]:
    from .objects import file_digest

    for rel in sorted(manifest.files):
        try:
            digest = file_digest(version_dir, manifest, rel)
        except FileNotFoundError as exc:
            yield f"file {str(exc.filename or version_dir / rel)!r} listed in the manifest is missing"
            continue
        if digest != manifest.files[rel]:
            yield f"file {str(version_dir / rel)!r} does not match its sha256 in the manifest (damaged or edited)"


def check_text(version_dir: Path, manifest: Manifest) -> None:
    """Raise ``CorruptVersion`` naming the first missing or damaged data file of a version."""
    for problem in _problems(version_dir, manifest):
        raise CorruptVersion(
            f"{problem}; restore it from git (`git checkout -- <file>`) or record the version "
            "again (`simulator verify` lists every problem)",
            path=str(version_dir),
        )


def index_digest_path(index: Path) -> Path:
    """The file beside a compiled index that holds the index's own sha256."""
    return index.with_name(index.name + ".sha256")


def write_index_digest(tmp_index: Path, target: Path) -> None:
    """Write the sha256 of a freshly compiled ``tmp_index`` beside ``target`` (atomically)."""
    side = index_digest_path(target)
    tmp = side.with_name(f".{side.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(file_sha256(tmp_index) + "\n", encoding="ascii")
    os.replace(tmp, side)


def index_intact(index: Path) -> bool:
    """Whether ``index`` is byte for byte the file compiled beside its digest."""
    try:
        want = index_digest_path(index).read_text(encoding="ascii").strip()
        return file_sha256(index) == want
    except OSError:
        return False
