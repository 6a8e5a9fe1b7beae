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
about 55 ms. Data files are hashed as decoded text (a compressed file, ``simulator.store.objects``,
is decoded on the way), so the sha256s do not depend on storage; decoding makes the first full
check of the newest shipped version 0.34 s gzip'd against 0.24 s as plain text
(``perf/RESULTS.md``). After a full check, a stamp of every file's size, mtime, ctime and inode
is kept beside the index; an open that finds every file as stamped skips the hashing (under
1 ms), and any change (a write always moves the ctime) hashes everything again. ``simulator verify``
always hashes in full.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any, Iterator

from ..errors import CorruptVersion
from .manifest import Manifest, content_hash_of
from .roots import repair_hint

__all__ = [
    "check_manifest",
    "check_text",
    "file_sha256",
    "index_digest_path",
    "index_intact",
    "source_paths",
    "undecodable",
    "stamp_matches",
    "write_index_digest",
    "write_stamp",
]

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
            f"damaged); {repair_hint(where)}",
            path=str(where),
        )


def shared_hint(manifest: Manifest, rel: str) -> str:
    """What to add when a file of ``rel`` is missing: a segmented file reads bytes another
    version of the set holds, so a version folder copied alone lacks them."""
    if rel not in manifest.segments:
        return ""
    return (f" ({rel!r} shares bytes with other versions of the set: copy or restore the whole "
            "set folder, not one version folder)")


def undecodable(exc: OSError, rel: str) -> str:
    """What to say about a compressed file (``objects.CorruptBlob``) that does not decode."""
    path = Path(exc.filename or rel)
    return (f"compressed file {str(path)!r} (read for {rel!r}) does not decode "
            f"({getattr(exc, 'why', exc)}): it is damaged; {repair_hint(path)}")


def _problems(version_dir: Path, manifest: Manifest) -> Iterator[str]:
    from .objects import CorruptBlob, file_digest

    for rel in sorted(manifest.files):
        try:
            digest = file_digest(version_dir, manifest, rel)
        except FileNotFoundError as exc:
            yield (f"file {str(exc.filename or version_dir / rel)!r} listed in the manifest is "
                   f"missing{shared_hint(manifest, rel)}")
            continue
        except CorruptBlob as exc:
            yield undecodable(exc, rel)
            continue
        if digest != manifest.files[rel]:
            yield f"file {str(version_dir / rel)!r} does not match its sha256 in the manifest (damaged or edited)"


def source_paths(version_dir: Path, manifest: Manifest) -> list[Path]:
    """Every file a version's data is read from: its own files and the blobs it shares (as
    stored: ``x.jsonl.gz`` where compressed)."""
    from .objects import blob_path, stored_path

    out: list[Path] = [version_dir / "manifest.json"]
    for rel in sorted(manifest.files):
        segs = manifest.segments.get(rel)
        if segs is None:
            out.append(stored_path(version_dir / rel) or version_dir / rel)
        else:
            out.extend(dict.fromkeys(blob_path(version_dir.parent, sha, hint) for sha, _o, _n, hint in segs))
    return out


def check_text(version_dir: Path, manifest: Manifest) -> None:
    """Raise ``CorruptVersion`` naming the first missing or damaged data file of a version."""
    for problem in _problems(version_dir, manifest):
        raise CorruptVersion(
            f"{problem}; {repair_hint(version_dir)} (`simulator verify` lists every problem)",
            path=str(version_dir),
        )


def index_digest_path(index: Path) -> Path:
    """The file beside a compiled index that holds the index's own sha256 (and the stamp)."""
    return index.with_name(index.name + ".sha256")


def _write_side(index: Path, record: dict[str, Any], side: Path | None = None) -> None:
    side = side or index_digest_path(index)
    side.parent.mkdir(parents=True, exist_ok=True)
    tmp = side.with_name(f".{side.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(record, sort_keys=True) + "\n", encoding="ascii")
    os.replace(tmp, side)


def _read_side(index: Path, side: Path | None = None) -> dict[str, Any]:
    try:
        data = json.loads((side or index_digest_path(index)).read_text(encoding="ascii"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_index_digest(tmp_index: Path, target: Path) -> None:
    """Write the sha256 of a freshly compiled ``tmp_index`` beside ``target`` (atomically)."""
    _write_side(target, {"sha256": file_sha256(tmp_index)})


def index_intact(index: Path) -> bool:
    """Whether ``index`` is byte for byte the file compiled beside its digest."""
    want = _read_side(index).get("sha256")
    try:
        return isinstance(want, str) and file_sha256(index) == want
    except OSError:
        return False


def _stats(paths: list[Path]) -> dict[str, list[int]]:
    out = {}
    for p in paths:
        st = p.stat()
        out[str(p)] = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
    return out


def stamp_matches(index: Path, sources: list[Path], side: Path | None = None) -> bool:
    """Whether the index and every source file are unchanged since they were last verified.

    The stamp holds each file's size, mtime, ctime and inode as seen right after a full
    sha256 check. Any write, rename or replacement changes the ctime (which no user-space
    call can set back), so a file that matches its stamp is the file that was verified; one
    that does not is hashed again (``check_text``, ``index_intact``). ``side`` is where the
    stamp is kept (default: beside the index, with its digest).
    """
    seen = _read_side(index, side).get("seen")
    if not isinstance(seen, dict):
        return False
    try:
        return _stats([index, *sources]) == seen
    except OSError:
        return False


def write_stamp(index: Path, sources: list[Path], side: Path | None = None) -> None:
    """Record, after a full check, what the index and its source files look like now."""
    record = _read_side(index, side)
    try:
        record["seen"] = _stats([index, *sources])
        _write_side(index, record, side)
    except OSError:
        pass  # a read-only cache: every open hashes in full, which is only slower
