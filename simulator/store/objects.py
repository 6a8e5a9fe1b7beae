"""Content-addressed data files: a version's file is its own text, or a list of byte ranges
of blobs the set already holds.

A version built on a parent shares the parent's bytes instead of copying them. Its manifest
lists, for a file that reuses anything, ``segments``: ``[blob sha256, offset, length, hint]``
ranges whose concatenation is the file (the manifest's ``files`` sha256 of the whole file, and
so the version's content hash, are exactly what they would be for a plain copy). A blob is

* ``<set>/objects/<sha[:2]>/<sha[2:]>``: new bytes of a version (only the entries it changed);
* or a plain file of another version of the set (``hint``, e.g. ``v0001/collections/x.jsonl``,
  whose whole-file sha256 is the blob's): the shipped set's text is shared in place.

Removing a version moves any of its plain files another version still reads into
``objects/`` first (``simulator rm``/``prune``), so no version ever loses its data. Every
read of a segmented file is checked against the manifest's sha256 of the whole file, like a
plain one.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from .manifest import Manifest

__all__ = ["blob_path", "file_bytes", "file_chunks", "file_digest", "iter_lines", "object_path"]

_CHUNK = 1 << 20
OBJECTS = "objects"


def object_path(set_dir: Path, sha: str) -> Path:
    """Where the set keeps the blob ``sha`` under ``objects/``."""
    return set_dir / OBJECTS / sha[:2] / sha[2:]


def blob_path(set_dir: Path, sha: str, hint: str) -> Path:
    """The file holding blob ``sha``: in ``objects/``, else the plain file ``hint`` names."""
    obj = object_path(set_dir, sha)
    if obj.exists() or not hint:
        return obj
    hinted = set_dir / hint
    if hinted.exists():
        return hinted
    return obj  # moved into objects/ meanwhile (``simulator rm``), or truly missing


def _read_range(path: Path, offset: int, length: int) -> Iterator[bytes]:
    with open(path, "rb") as fh:
        fh.seek(offset)
        left = length
        while left > 0:
            chunk = fh.read(min(_CHUNK, left))
            if not chunk:
                raise OSError(f"{str(path)!r} ends before byte {offset + length} (truncated blob)")
            left -= len(chunk)
            yield chunk


def file_chunks(version_dir: Path, manifest: Manifest, rel: str) -> Iterator[bytes]:
    """The bytes of data file ``rel`` of a version, in chunks (not verified: see ``file_digest``).

    Raises ``FileNotFoundError`` when the file (or a blob it reads) is missing.
    """
    segments = manifest.segments.get(rel)
    if segments is None:
        with open(version_dir / rel, "rb") as fh:
            while chunk := fh.read(_CHUNK):
                yield chunk
        return
    set_dir = version_dir.parent
    for sha, offset, length, hint in segments:
        yield from _read_range(blob_path(set_dir, sha, hint), offset, length)


def file_digest(version_dir: Path, manifest: Manifest, rel: str) -> str:
    """sha256 hex of data file ``rel`` as a reader sees it (compare with ``manifest.files``)."""
    h = hashlib.sha256()
    try:
        for chunk in file_chunks(version_dir, manifest, rel):
            h.update(chunk)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        return f"unreadable: {exc}"
    return h.hexdigest()


def file_bytes(version_dir: Path, manifest: Manifest, rel: str) -> bytes:
    """The whole of data file ``rel`` (small files, audits)."""
    return b"".join(file_chunks(version_dir, manifest, rel))


def iter_lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """JSON Lines' own lines of a byte stream: split at ``b"\\n"`` only, each kept with its
    ``\\n`` (the last one may lack it)."""
    rest = b""
    for chunk in chunks:
        data = rest + chunk if rest else chunk
        start = 0
        while (nl := data.find(b"\n", start)) != -1:
            yield data[start : nl + 1]
            start = nl + 1
        rest = data[start:]
    if rest:
        yield rest


def fsync_dir(path: Path) -> None:
    """fsync a directory, so a rename into it survives a crash."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
