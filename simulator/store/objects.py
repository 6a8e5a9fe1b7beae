"""Content-addressed data files: a version's file is its own text, or a list of byte ranges
of blobs the set already holds; either may be stored compressed.

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

**Compressed storage (format 3).** Any stored file (a version's whole file, a blob in
``objects/``) may be kept compressed, with the codec's suffix after its name:
``v0001/collections/x.jsonl.gz``, ``objects/ab/cdef….gz``. Everything else is unchanged:
names, hashes, offsets and lengths are those of the *decoded* text, so a version's
``files`` sha256s and content hash do not depend on how it is stored, and a compiled index
(cached by content hash) stays valid across a compaction. A reader finds a file under its
compressed name first, then its plain one (``stored_path``), so one set may mix formats 1,
2 and 3 (a user's old versions and a new one sharing their bytes), and a compaction
interrupted at any point leaves every file readable in one form or the other.

The codec is gzip, level 9, no file name, mtime 0 (``compress_to``): the same text gives the
same bytes on one zlib build (the content hash never depends on them). Files under
``share.COMPRESS_MIN`` (64 KiB) stay plain. Measured on the shipped set (``perf/store_format.py``,
``perf/RESULTS.md``): plain 79.4 MiB, gzip 15.7 MiB, xz (lzma preset 6) 11.8 MiB on disk.
Replay reads the compiled index only, so it is the same in every layout; a cold open (compile)
costs 0.95-1.14x plain's with gzip, up to 1.9x with xz; the first open without a stamp (the first
after an install, or after a file changed), which decodes and hashes the whole version, costs
1.3-1.4x plain's with gzip (+40 to +100 ms) and 2.1-2.8x with xz (+140 to +430 ms). So gzip is
written, and ``.xz`` files are read as well (``simulator compact --codec xz`` trades that time for
a quarter less disk).

A segment is read by decompress-and-skip: the blob is decoded from its start and the bytes
before ``offset`` are dropped. One reader (``file_chunks``) keeps each blob's decoder open
across a file's segments, which take a blob's ranges in increasing order (a later range
continues the same decoder; an earlier one starts it again), so a file costs at most its
blobs' decoded length up to the last byte it reads: 1.00–1.23× the bytes it needs on the
shipped versions (``perf/store_format.py``).
"""

from __future__ import annotations

import gzip
import hashlib
import lzma
import os
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO

from .manifest import Manifest

__all__ = [
    "CODECS",
    "WRITE_CODEC",
    "CorruptBlob",
    "blob_path",
    "compress_to",
    "compressor",
    "decoded_size",
    "file_bytes",
    "file_chunks",
    "file_digest",
    "iter_lines",
    "logical_name",
    "object_path",
    "open_decoded",
    "stored_path",
    "stored_sha256",
]

_CHUNK = 1 << 20
OBJECTS = "objects"

#: Suffix of a compressed stored file → how to open it for decoded reading.
CODECS: dict[str, Callable[[Path], IO[bytes]]] = {
    ".gz": lambda path: gzip.GzipFile(path, mode="rb"),
    ".xz": lambda path: lzma.LZMAFile(path, mode="rb"),  # noqa: SIM115 - the reader closes it
}
#: The codec new files are written with (see the module docstring for the measurement).
WRITE_CODEC = ".gz"
#: What a damaged compressed stream raises while it is decoded.
_DECODE_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile, lzma.LZMAError)


class CorruptBlob(OSError):
    """A compressed stored file does not decode (truncated, bit rot, not that codec)."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{str(path)!r} does not decode ({why})")
        self.filename = str(path)
        self.why = why


def object_path(set_dir: Path, sha: str) -> Path:
    """Where the set keeps the blob ``sha`` under ``objects/`` (its plain name; the file
    itself may carry a codec suffix: ``stored_path``)."""
    return set_dir / OBJECTS / sha[:2] / sha[2:]


def stored_path(path: Path) -> Path | None:
    """The file holding the text of ``path`` (a plain name): ``path`` + a codec suffix, else
    ``path`` itself; ``None`` when neither exists."""
    for suffix in CODECS:
        packed = path.with_name(path.name + suffix)
        if packed.exists():
            return packed
    return path if path.exists() else None


def logical_name(path: Path) -> Path:
    """The plain name of a stored file (its codec suffix dropped)."""
    return path.with_suffix("") if path.suffix in CODECS else path


def blob_path(set_dir: Path, sha: str, hint: str) -> Path:
    """The file holding blob ``sha``: in ``objects/``, else the plain file ``hint`` names
    (either possibly compressed); the plain ``objects/`` name when neither exists."""
    obj = object_path(set_dir, sha)
    found = stored_path(obj)
    if found is None and hint:
        found = stored_path(set_dir / hint)
    return found or obj  # moved into objects/ meanwhile (``simulator rm``), or truly missing


def open_decoded(path: Path) -> IO[bytes]:
    """``path`` opened for reading its decoded text (a plain file as it is)."""
    codec = CODECS.get(path.suffix)
    return open(path, "rb") if codec is None else codec(path)


def _decode_error(path: Path, exc: BaseException) -> CorruptBlob:
    if isinstance(exc, EOFError):
        return CorruptBlob(path, "the compressed stream ends early: truncated")
    return CorruptBlob(path, f"{type(exc).__name__}: {exc}")


def _read(fh: IO[bytes], path: Path, n: int) -> bytes:
    try:
        return fh.read(n)
    except _DECODE_ERRORS as exc:
        raise _decode_error(path, exc) from None


def compressor(raw: IO[bytes], suffix: str = WRITE_CODEC) -> IO[bytes]:
    """A writer compressing into the open binary file ``raw`` with codec ``suffix``.

    gzip: level 9, no file name, mtime 0 (the same text, the same bytes); xz: preset 6, CRC64.
    """
    if suffix == ".gz":
        return gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0)
    if suffix == ".xz":
        return lzma.LZMAFile(raw, mode="wb", preset=6)
    raise ValueError(f"unknown codec {suffix!r}: one of {', '.join(CODECS)}")


def compress_to(src: Iterable[bytes], dest: Path, suffix: str = WRITE_CODEC) -> None:
    """Write the chunks of ``src`` to ``dest`` compressed with codec ``suffix``, fsynced."""
    with open(dest, "wb") as raw:
        with compressor(raw, suffix) as out:
            for chunk in src:
                out.write(chunk)
        raw.flush()
        os.fsync(raw.fileno())


def _whole(path: Path) -> Iterator[bytes]:
    with open_decoded(path) as fh:
        while chunk := _read(fh, path, _CHUNK):
            yield chunk


def stored_sha256(path: Path) -> str:
    """sha256 hex of the decoded text of a stored file (raises ``CorruptBlob``)."""
    h = hashlib.sha256()
    for chunk in _whole(path):
        h.update(chunk)
    return h.hexdigest()


def decoded_size(path: Path) -> int:
    """Bytes of text a stored file decodes to (a gzip file's trailer says it: no decoding)."""
    if path.suffix == ".gz":
        with open(path, "rb") as fh:
            fh.seek(-4, os.SEEK_END)
            return int.from_bytes(fh.read(4), "little")  # modulo 2**32: files here are smaller
    if path.suffix in CODECS:
        return sum(len(c) for c in _whole(path))
    return path.stat().st_size


class _Cursors:
    """Open decoders of the blobs one file reads, each at the decoded offset it reached."""

    def __init__(self) -> None:
        self._open: dict[Path, tuple[IO[bytes], int]] = {}

    def seek(self, path: Path, offset: int) -> None:
        """Have ``path``'s decoder at decoded byte ``offset`` (decompress and skip; a range
        before where it is starts it again)."""
        fh, pos = self._open.pop(path, (None, 0))
        if fh is not None and pos > offset:
            fh.close()
            fh = None
        if fh is None:
            fh, pos = open_decoded(path), 0
        try:
            if path.suffix not in CODECS:
                fh.seek(offset)
                pos = offset
            while pos < offset:
                got = len(_read(fh, path, min(_CHUNK, offset - pos)))
                if not got:
                    raise OSError(f"{str(path)!r} ends before byte {offset} (truncated blob)")
                pos += got
        except BaseException:
            fh.close()
            raise
        self._open[path] = (fh, pos)

    def take(self, path: Path, length: int) -> Iterator[bytes]:
        """The next ``length`` decoded bytes of ``path`` (after ``seek``)."""
        fh, pos = self._open[path]
        left = length
        while left > 0:
            chunk = _read(fh, path, min(_CHUNK, left))
            if not chunk:
                raise OSError(f"{str(path)!r} ends before byte {pos + length} (truncated blob)")
            left -= len(chunk)
            yield chunk
        self._open[path] = (fh, pos + length)

    def close(self) -> None:
        for fh, _pos in self._open.values():
            fh.close()
        self._open.clear()


def file_chunks(version_dir: Path, manifest: Manifest, rel: str) -> Iterator[bytes]:
    """The decoded bytes of data file ``rel`` of a version, in chunks (not verified: see
    ``file_digest``).

    Raises ``FileNotFoundError`` when the file (or a blob it reads) is missing, and
    ``CorruptBlob`` (an ``OSError``) when a compressed one does not decode. A file found
    plain that is gone when opened is looked for again once: ``simulator compact`` removes a
    plain file only after its compressed twin is in place.
    """
    segments = manifest.segments.get(rel)
    if segments is None:
        segments = [("", 0, -1, "")]
    set_dir = version_dir.parent
    cursors = _Cursors()
    try:
        for sha, offset, length, hint in segments:
            for attempt in (0, 1):
                path = blob_path(set_dir, sha, hint) if sha else stored_path(version_dir / rel) or version_dir / rel
                try:
                    cursors.seek(path, offset)
                    break
                except FileNotFoundError:
                    if attempt:
                        raise
            if length < 0:  # a whole file
                fh, _pos = cursors._open[path]
                while chunk := _read(fh, path, _CHUNK):
                    yield chunk
            else:
                yield from cursors.take(path, length)
    finally:
        cursors.close()


def file_digest(version_dir: Path, manifest: Manifest, rel: str) -> str:
    """sha256 hex of data file ``rel`` as a reader sees it (compare with ``manifest.files``).

    A missing file raises ``FileNotFoundError``, a compressed one that does not decode
    ``CorruptBlob`` (both name the file); any other read error is said in the result.
    """
    h = hashlib.sha256()
    try:
        for chunk in file_chunks(version_dir, manifest, rel):
            h.update(chunk)
    except OSError as exc:
        if isinstance(exc, (FileNotFoundError, CorruptBlob)):
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
