"""The compiled index: one SQLite file per version content hash, built once with sqlite-utils.

Lookups are primary-key point reads (interactions by fingerprint, collections by key) and
range reads (records ``[offset, offset+limit)`` of a collection), so their cost does not
depend on the version's size. The file is written to a temporary name and renamed into
place, so a reader never sees a half-built index; a damaged one is rebuilt from the text.
"""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from pydantic import ValidationError

from ..errors import CorruptVersion
from .integrity import write_index_digest
from .manifest import MAX_RECORDS, CollectionEntry, InteractionEntry, Manifest
from .roots import repair_hint

__all__ = [
    "CollectionInfo", "Index", "collection_lines", "compile_index", "invalid_entry", "iter_entries", "iter_located",
    "INDEX_FORMAT",
]

#: Bump when the table layout changes: old cache files are then ignored and rebuilt.
INDEX_FORMAT = 1


@dataclass(frozen=True)
class CollectionInfo:
    id: int
    key: str
    endpoint: str
    filters: dict[str, str]
    fmt: str
    total: int
    count: int
    envelope: dict[str, Any]


def _verified_lines(version_dir: Path, manifest: Manifest, kind: str) -> Iterator[tuple[Path, int, str]]:
    """(file, line number, line) of a version's ``kind`` files, each file's sha256 checked first.

    Lines are JSON Lines' own: split at ``\n`` only (a trailing ``\r`` is dropped). Never
    ``str.splitlines()``, which also splits at U+2028, U+2029, U+0085 and other separators
    that a JSON string may hold raw. A file is hashed in a first pass (so memory stays flat
    whatever the version's size), and again while it is read: a file that changes between
    the two passes is refused at its end, before its last entry is yielded.
    """
    import hashlib

    from .integrity import undecodable
    from .objects import CorruptBlob, file_chunks, file_digest, iter_lines

    for rel in sorted(manifest.files):
        if not rel.startswith(kind + "/"):
            continue
        path = version_dir / rel
        try:
            digest = file_digest(version_dir, manifest, rel)
        except FileNotFoundError as exc:
            raise CorruptVersion(
                f"file {str(exc.filename or path)!r} listed in the manifest is missing; "
                f"{repair_hint(path)}",
                path=str(path),
            ) from None
        except CorruptBlob as exc:
            raise CorruptVersion(f"{undecodable(exc, rel)} (`simulator verify` lists every problem)",
                                 path=str(exc.filename)) from None
        if digest != manifest.files[rel]:
            raise CorruptVersion(
                f"file {str(path)!r} does not match its sha256 in the manifest (damaged or "
                f"edited); {repair_hint(path)}",
                path=str(path),
            )
        h = hashlib.sha256()
        pending: tuple[Path, int, str] | None = None
        for lineno, raw in enumerate(iter_lines(file_chunks(version_dir, manifest, rel)), 1):
            h.update(raw)
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as exc:
                raise CorruptVersion(f"{str(path)!r} line {lineno} is not UTF-8 text (byte {exc.start + 1} of the "
                                     "line): JSON Lines are UTF-8", path=str(path)) from None
            if line.strip():
                if pending is not None:
                    yield pending
                pending = (path, lineno, line)
        if h.hexdigest() != manifest.files[rel]:
            raise CorruptVersion(f"file {str(path)!r} changed while it was read; open it again", path=str(path))
        if pending is not None:
            yield pending


def _json_line(path: Path, lineno: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise CorruptVersion(f"{str(path)!r} line {lineno} is not JSON: {exc}", path=str(path)) from None


def iter_entries(version_dir: Path, manifest: Manifest, kind: str) -> Iterator[dict[str, Any]]:
    """Read and verify every entry of a version's ``kind`` files (sha256 checked while reading).

    Interactions are one JSON object per line. A collection is a header line (an object with
    ``"collection": key`` and ``"fields"``) followed by ``n`` record lines: a JSON array of
    values in ``fields`` order, or a JSON object for a record with other keys. One record per
    line keeps a changed record a one-line diff, and naming fields once keeps files small.
    """
    for _path, _lineno, entry in iter_located(version_dir, manifest, kind):
        yield entry


def iter_located(
    version_dir: Path, manifest: Manifest, kind: str, fix: Callable[[Path], str] = repair_hint
) -> Iterator[tuple[Path, int, dict[str, Any]]]:
    """``iter_entries`` with where each entry starts: (file, line number, entry), so a reader
    that refuses an entry names its file and line. A collection header's own shape (its record
    count ``n`` and ``fields``) is checked here; the entry's values by its pydantic model.
    ``fix(path)`` says how to repair a damaged file (a checkout's is edited, not restored)."""
    lines = _verified_lines(version_dir, manifest, kind)
    if kind != "collections":
        for path, lineno, line in lines:
            entry = _json_line(path, lineno, line)
            if not isinstance(entry, dict):
                raise CorruptVersion(f"{str(path)!r} line {lineno} is not a JSON object (one interaction "
                                     f"per line): {fix(path)}", path=str(path))
            yield path, lineno, entry
        return
    for path, lineno, line in lines:
        head = _json_line(path, lineno, line)
        if not isinstance(head, dict) or "collection" not in head:
            raise CorruptVersion(
                f"{str(path)!r} line {lineno} should start a collection (an object with "
                f"'collection'); the file is damaged: {fix(path)}",
                path=str(path),
            )
        fields = head.pop("fields", [])
        n = head.pop("n", None)
        if type(n) is not int or not 0 <= n <= MAX_RECORDS:
            raise CorruptVersion(
                f"{str(path)!r} line {lineno}: collection {head['collection']!r} has n={n!r}; "
                f"it must be its number of record lines (an integer 0..{MAX_RECORDS})",
                path=str(path),
            )
        if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields) or len(set(fields)) < len(fields):
            raise CorruptVersion(
                f"{str(path)!r} line {lineno}: collection {head['collection']!r} has fields={fields!r}; "
                "it must be a list of distinct field names",
                path=str(path),
            )
        records: list[dict[str, Any]] = []
        for _ in range(n):
            try:
                rpath, rno, rline = next(lines)
            except StopIteration:
                raise CorruptVersion(
                    f"{str(path)!r}: collection {head['collection']!r} declares {n} records but "
                    f"the file ends after {len(records)}",
                    path=str(path),
                ) from None
            row = _json_line(rpath, rno, rline)
            if isinstance(row, list):
                if len(row) != len(fields):
                    raise CorruptVersion(
                        f"{str(rpath)!r} line {rno}: {len(row)} values for {len(fields)} fields",
                        path=str(rpath),
                    )
                records.append(dict(zip(fields, row)))
            elif isinstance(row, dict) and "collection" not in row:
                records.append(row)
            else:
                raise CorruptVersion(f"{str(rpath)!r} line {rno} is not a record", path=str(rpath))
        head["key"] = head.pop("collection")
        head["records"] = records
        yield path, lineno, head


def invalid_entry(path: Path, lineno: int, what: str, exc: ValidationError) -> str:
    """One line naming the file, the line and the first wrong field of an invalid entry."""
    err = exc.errors()[0]
    loc = ".".join(str(x) for x in err["loc"]) or "the entry"
    value = f" (got {err['input']!r:.60})" if "input" in err and err["loc"] else ""
    return f"{str(path)!r} line {lineno}: {what} is invalid: {loc}: {err['msg']}{value}"


def collection_lines(entry: dict[str, Any]) -> list[str]:
    """The text lines of one collection entry (inverse of ``iter_entries``)."""
    records = entry["records"]
    fields = list(records[0]) if records else []
    head = {"collection": entry["key"], **{k: v for k, v in entry.items() if k not in ("key", "records")}}
    head["fields"] = fields
    head["n"] = len(records)
    out = [_dump(head)]
    for r in records:
        out.append(_dump([r[f] for f in fields]) if list(r) == fields else _dump(r))
    return out


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def compile_index(version_dir: Path, manifest: Manifest, target: Path) -> None:
    """Build the SQLite index of a version at ``target`` (atomically)."""
    import sqlite_utils

    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    if tmp.exists():
        tmp.unlink()
    try:
        db = sqlite_utils.Database(str(tmp))
        try:
            _compile(version_dir, manifest, tmp, db)
        finally:
            db.conn.close()
        write_index_digest(tmp, target)
        os.replace(tmp, target)
    finally:  # a failed compile (damaged text, disk full) leaves no temp file behind
        tmp.unlink(missing_ok=True)


def _compile(version_dir: Path, manifest: Manifest, tmp: Path, db: Any) -> None:
    db.conn.execute("PRAGMA journal_mode=OFF")
    db.conn.execute("PRAGMA synchronous=OFF")
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["interactions"].create(
        {"fp": str, "endpoint": str, "request": str, "status": int, "headers": str, "body": bytes},
        pk="fp",
    )
    db["collections"].create(
        {
            "id": int,
            "key": str,
            "endpoint": str,
            "filters": str,
            "fmt": str,
            "total": int,
            "n": int,
            "envelope": str,
            "cardinality": str,
        },
        pk="id",
    )
    db.conn.execute(
        "CREATE TABLE records (coll INTEGER, idx INTEGER, data TEXT, PRIMARY KEY (coll, idx))"
        " WITHOUT ROWID"
    )

    seen: dict[str, tuple[Path, int]] = {}

    def once(key: str, what: str, path: Path, lineno: int) -> None:
        """Two entries for one key: a reader would answer one and hide the other, so refuse both."""
        if key in seen:
            first, line = seen[key]
            raise CorruptVersion(f"{what} {key!r} is in {str(first)!r} line {line} and again in {str(path)!r} "
                                 f"line {lineno}: keep one; {repair_hint(path)}", path=str(path))
        seen[key] = (path, lineno)

    def interactions() -> Iterator[dict[str, Any]]:
        for path, lineno, raw in iter_located(version_dir, manifest, "interactions"):
            try:
                e = InteractionEntry.model_validate(raw)
            except ValidationError as exc:
                raise CorruptVersion(invalid_entry(path, lineno, "an interaction", exc), path=str(path)) from None
            once(e.fp, "interaction", path, lineno)
            body = (
                base64.b64decode(e.body_b64)
                if e.body_b64 is not None
                else (e.body or "").encode("utf-8")
            )
            yield {
                "fp": e.fp,
                "endpoint": e.endpoint,
                "request": e.request,
                "status": e.status,
                "headers": json.dumps(e.headers, ensure_ascii=False),
                "body": body,
            }

    db["interactions"].insert_all(interactions(), batch_size=500)
    next_id = 1
    seen.clear()
    for path, lineno, raw in iter_located(version_dir, manifest, "collections"):
        try:
            c = CollectionEntry.model_validate(raw)
        except ValidationError as exc:
            raise CorruptVersion(invalid_entry(path, lineno, f"collection {raw.get('key')!r}", exc),
                                 path=str(path)) from None
        once(c.key, "collection", path, lineno)
        db["collections"].insert(
            {
                "id": next_id,
                "key": c.key,
                "endpoint": c.endpoint,
                "filters": json.dumps(c.filters, ensure_ascii=False, sort_keys=True),
                "fmt": c.fmt,
                "total": c.total,
                "n": len(c.records),
                "envelope": json.dumps(c.envelope, ensure_ascii=False),
                "cardinality": json.dumps(c.cardinality, ensure_ascii=False),
            }
        )
        db.conn.executemany(
            "INSERT INTO records (coll, idx, data) VALUES (?, ?, ?)",
            (
                (next_id, i, json.dumps(r, ensure_ascii=False, separators=(",", ":")))
                for i, r in enumerate(c.records)
            ),
        )
        next_id += 1
    db["collections"].create_index(["key"], unique=True)
    db["collections"].create_index(["endpoint"])
    db["interactions"].create_index(["endpoint"])
    db["meta"].insert_all(
        [
            {"key": "index_format", "value": str(INDEX_FORMAT)},
            {"key": "content_hash", "value": manifest.content_hash},
        ]
    )
    db.conn.commit()


_INTERACTION_SQL = "SELECT status, headers, body FROM interactions WHERE fp=?"
_RECORDS_SQL = "SELECT data FROM records WHERE coll=? AND idx>=? AND idx<? ORDER BY idx"
#: The largest integer SQLite binds (a window bound past it is clamped to it).
_SQLITE_MAX = 2**63 - 1
#: Distinct decoded header lists an index keeps (cleared when full).
_HEADERS_CACHE_MAX = 1024


def _decode_records(texts: list[str]) -> list[dict[str, Any]]:
    """``[json.loads(t) for t in texts]``, decoded in one call as one JSON array.

    The same decoder reads the same values; one call instead of one per record halves the
    cost of a page. Text that does not decode to one value per record (damaged) is decoded
    record by record, so its error is the one the plain loop raises.
    """
    if not texts:
        return []
    try:
        out = json.loads("[" + ",".join(texts) + "]")
    except ValueError:
        out = None
    if isinstance(out, list) and len(out) == len(texts):
        return out
    return [json.loads(t) for t in texts]


class Index:
    """Read-only access to a compiled index; one SQLite connection per thread."""

    def __init__(self, path: Path, content_hash: str) -> None:
        self.path = path
        self.content_hash = content_hash
        self._local = threading.local()
        #: Raw headers JSON → decoded headers (see ``interaction_parts``).
        self._headers: dict[str, tuple[tuple[str, str], ...]] = {}
        conn = self._conn()
        row = conn.execute("SELECT value FROM meta WHERE key='content_hash'").fetchone()
        fmt = conn.execute("SELECT value FROM meta WHERE key='index_format'").fetchone()
        if row is None or row[0] != content_hash or fmt is None or fmt[0] != str(INDEX_FORMAT):
            raise CorruptVersion(f"index {str(path)!r} belongs to another version", path=str(path))

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            uri = f"file:{self.path}?mode=ro&immutable=1"
            conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
            conn.execute("PRAGMA query_only=ON")
            # Map the file: point reads in a large index stop paying for page-cache copies.
            conn.execute("PRAGMA mmap_size=1073741824")
            self._local.conn = conn
        return conn

    def interaction(self, fp: str) -> tuple[int, list[tuple[str, str]], bytes] | None:
        """(status, headers, body) of the interaction recorded under fingerprint ``fp``."""
        hit = self.interaction_parts(fp)
        if hit is None:
            return None
        return hit[0], list(hit[1]), hit[2]

    def interaction_parts(self, fp: str) -> tuple[int, tuple[tuple[str, str], ...], bytes] | None:
        """:meth:`interaction` with the headers as a shared tuple (never mutate it).

        Recorded interactions share a handful of distinct header lists, so each is decoded
        once and the same tuple is returned for it (callers may key caches on it).
        """
        row = self._conn().execute(_INTERACTION_SQL, (fp,)).fetchone()
        if row is None:
            return None
        raw = row[1]
        headers = self._headers.get(raw)
        if headers is None:
            headers = tuple(tuple(h) for h in json.loads(raw))  # type: ignore[misc]
            if len(self._headers) >= _HEADERS_CACHE_MAX:
                self._headers.clear()
            self._headers[raw] = headers
        return row[0], headers, bytes(row[2])

    def _info(self, row: tuple[Any, ...]) -> CollectionInfo:
        return CollectionInfo(
            id=row[0],
            key=row[1],
            endpoint=row[2],
            filters=json.loads(row[3]),
            fmt=row[4],
            total=row[5],
            count=row[6],
            envelope=json.loads(row[7]),
        )

    _COLS = "id, key, endpoint, filters, fmt, total, n, envelope"

    def collection(self, key: str) -> CollectionInfo | None:
        row = self._conn().execute(
            f"SELECT {self._COLS} FROM collections WHERE key=?", (key,)
        ).fetchone()
        return None if row is None else self._info(row)

    def collections(self, endpoint: str | None = None) -> list[CollectionInfo]:
        if endpoint is None:
            rows = self._conn().execute(f"SELECT {self._COLS} FROM collections ORDER BY key")
        else:
            rows = self._conn().execute(
                f"SELECT {self._COLS} FROM collections WHERE endpoint=? ORDER BY key", (endpoint,)
            )
        return [self._info(r) for r in rows]

    def cardinality(self, coll_id: int) -> dict[str, int]:
        row = self._conn().execute(
            "SELECT cardinality FROM collections WHERE id=?", (coll_id,)
        ).fetchone()
        return {} if row is None else dict(json.loads(row[0]))

    def records(self, coll_id: int, offset: int, limit: int) -> list[dict[str, Any]]:
        """Records ``[offset, offset + limit)`` of collection ``coll_id``, in order.

        Bounds past SQLite's 64-bit integers (``pageNo=99999999999999999999``) are clamped:
        such a window is past every record, so it is empty, not an error.
        """
        start, end = min(offset, _SQLITE_MAX), min(offset + limit, _SQLITE_MAX)
        rows = self._conn().execute(_RECORDS_SQL, (coll_id, start, end)).fetchall()
        return _decode_records([r[0] for r in rows])

    def interaction_requests(
        self, endpoint: str | None, limit: int = 5000
    ) -> list[tuple[str, str]]:
        """(fingerprint, canonical request) of the recorded interactions of an endpoint."""
        if endpoint is None:
            rows = self._conn().execute("SELECT fp, request FROM interactions LIMIT ?", (limit,))
        else:
            rows = self._conn().execute(
                "SELECT fp, request FROM interactions WHERE endpoint=? LIMIT ?", (endpoint, limit)
            )
        return [(r[0], r[1]) for r in rows]

    def uncatalogued_hosts(self) -> list[str]:
        """The hosts of recorded exchanges that match no catalog endpoint (recorded exactly)."""
        rows = self._conn().execute("SELECT DISTINCT request FROM interactions WHERE endpoint IS NULL")
        hosts = {r[0].split(" ", 1)[-1].split("/", 1)[0].split(":", 1)[0].lower() for r in rows}
        return sorted(h for h in hosts if h)

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
