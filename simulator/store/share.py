"""Writing a version's files so that entries its parent already holds are shared, not copied.

Each entry of a file (an interaction line, or a collection: its header and record lines) is
compared, by the sha256 of its bytes, with the entries of the parent's file of the same name.
Runs of equal entries become byte ranges of the parent's blobs; the rest is written once, as a
new blob under ``<set>/objects/``. A file that shares nothing is written whole in the version
folder. Either is then stored compressed when it holds ``COMPRESS_MIN`` bytes or more
(``x.jsonl.gz``, ``objects/ab/cdef….gz``: format 3); a smaller one stays plain text, where
compression saves no disk block and a git diff of a small edit stays readable (see
``simulator.store.objects`` for the codec and how files are read back).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from .manifest import Manifest
from .objects import (
    CODECS,
    WRITE_CODEC,
    compress_to,
    file_chunks,
    fsync_dir,
    iter_lines,
    object_path,
    stored_path,
)

__all__ = ["COMPRESS_MIN", "ParentBytes", "pack", "place_objects", "write_shared"]

#: Files of at least this many bytes of text are stored compressed (4 KiB disk blocks: a
#: smaller file saves little; it stays plain, readable in a diff). 0.6 MB of the shipped
#: set's 76.8 MB of text is in files below it.
COMPRESS_MIN = 64 * 1024


def _chunks(path: Path) -> Iterable[bytes]:
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            yield chunk


def pack(path: Path, size: int) -> Path:
    """Store the plain file ``path`` (``size`` bytes) compressed if it is large enough: the
    file now holding its text (``path`` + the codec suffix, or ``path``)."""
    if size < COMPRESS_MIN:
        return path
    packed = path.with_name(path.name + WRITE_CODEC)
    compress_to(_chunks(path), packed)
    path.unlink()
    return packed

Segment = tuple[str, int, int, str]


class ParentBytes:
    """Where each entry of a parent version's files sits, found by the sha256 of its bytes."""

    def __init__(self, set_dir: Path, parent: Manifest | None, parent_dir: Path | None = None) -> None:
        self.set_dir = set_dir
        # Bytes are shared within one root only: a parent in a read-only root (the installed
        # package's cassettes) may change under an upgrade, so its entries are copied.
        same_root = parent_dir is None or parent_dir.parent == set_dir
        self.parent = parent if same_root else None
        self._spans: dict[str, dict[bytes, tuple[int, int]]] = {}

    def spans(self, rel: str) -> dict[bytes, tuple[int, int]]:
        """Entry digest → (start, end) byte offsets in the parent's file ``rel`` ({} if none)."""
        if self.parent is None or rel not in self.parent.files:
            return {}
        if rel not in self._spans:
            self._spans[rel] = self._scan(rel)
        return self._spans[rel]

    def _scan(self, rel: str) -> dict[bytes, tuple[int, int]]:
        assert self.parent is not None
        vdir = self.set_dir / self.parent.version
        out: dict[bytes, tuple[int, int]] = {}
        pos, start, left = 0, 0, 0
        h = hashlib.sha256()
        collections = rel.startswith("collections/")
        for line in iter_lines(file_chunks(vdir, self.parent, rel)):
            if left == 0:  # a new entry starts here
                start, h = pos, hashlib.sha256()
                left = 1
                if collections and line.startswith(b'{"collection"'):
                    left += int(json.loads(line).get("n", 0))
            h.update(line)
            pos += len(line)
            left -= 1
            if left == 0:
                out.setdefault(h.digest(), (start, pos))
        return out

    def segments(self, rel: str, start: int, end: int) -> list[Segment]:
        """The blob ranges holding bytes ``[start, end)`` of the parent's file ``rel``."""
        assert self.parent is not None
        segs = self.parent.segments.get(rel)
        if segs is None:
            return [(self.parent.files[rel], start, end - start, f"{self.parent.version}/{rel}")]
        out: list[Segment] = []
        pos = 0
        for sha, off, length, hint in segs:
            lo, hi = max(start, pos), min(end, pos + length)
            if lo < hi:
                out.append((sha, off + lo - pos, hi - lo, hint))
            pos += length
        return out


def _merge(segs: list[Segment]) -> list[Segment]:
    out: list[Segment] = []
    for s in segs:
        if out and out[-1][0] == s[0] and out[-1][1] + out[-1][2] == s[1]:
            last = out[-1]
            out[-1] = (last[0], last[1], last[2] + s[2], last[3])
        else:
            out.append(s)
    return out


def write_shared(
    staging: Path, rel: str, entries: Iterable[str], parent: ParentBytes
) -> tuple[str, list[Segment] | None, tuple[str, Path] | None]:
    """Write file ``rel`` of a staged version from its entries' text.

    Returns (sha256 of the whole file, its segments or None when it is written whole at
    ``staging/rel``, and the new blob ``(sha, staged path)`` to place under ``objects/``).
    """
    spans = parent.spans(rel)
    path = staging / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    whole, new = hashlib.sha256(), hashlib.sha256()
    pieces: list[tuple[str, int, int]] = []  # ("p" parent | "n" new, start, end)
    written = 0
    with open(path, "wb") as fh:
        for text in entries:
            data = text.encode("utf-8")
            whole.update(data)
            span = spans.get(hashlib.sha256(data).digest()) if spans else None
            if span is not None:
                piece = ("p", *span)
            else:
                fh.write(data)
                new.update(data)
                piece = ("n", written, written + len(data))
                written += len(data)
            if pieces and pieces[-1][0] == piece[0] and pieces[-1][2] == piece[1]:
                pieces[-1] = (piece[0], pieces[-1][1], piece[2])
            else:
                pieces.append(piece)
        fh.flush()
        os.fsync(fh.fileno())
    if not any(p[0] == "p" for p in pieces):
        pack(path, written)
        return whole.hexdigest(), None, None
    new_sha = new.hexdigest()
    segs: list[Segment] = []
    for kind, start, end in pieces:
        if kind == "p":
            segs.extend(parent.segments(rel, start, end))
        else:
            segs.append((new_sha, start, end - start, ""))
    if written == 0:
        path.unlink()
        return whole.hexdigest(), _merge(segs), None
    blob = path.with_name(f".blob-{new_sha}")
    os.replace(path, blob)
    blob = pack(blob, written)
    return whole.hexdigest(), _merge(segs), (new_sha, blob)


def place_objects(set_dir: Path, blobs: list[tuple[str, Path]]) -> list[Path]:
    """Move staged blobs (plain or compressed) into ``objects/`` (a blob already there, in
    any form, is kept); the paths created."""
    created: list[Path] = []
    for sha, staged in blobs:
        plain = object_path(set_dir, sha)
        target = plain.with_name(plain.name + staged.suffix) if staged.suffix in CODECS else plain
        if stored_path(plain) is not None:
            staged.unlink(missing_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staged, target)
        created.append(target)
        fsync_dir(target.parent)
    return created
