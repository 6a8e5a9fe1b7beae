"""Build a new version and publish it atomically.

Entries are collected, then written as JSON Lines in a hidden staging folder beside the
set's versions, fsynced, and the folder is renamed to its version name in one step: a reader
sees either no version or the whole version, and a failed or killed job leaves every
published version as it was.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any, BinaryIO

from ..catalog import Catalog
from ..errors import CatalogError, StoreError
from ..request import SimRequest, SimResponse
from ..identity import canonical_request, fingerprint
from ..secrets import redact_body, redact_headers, redact_url
from .index import collection_lines, iter_entries
from .manifest import (
    CollectionEntry,
    EndpointCounts,
    InteractionEntry,
    Manifest,
    content_hash_of,
    validate_name,
)
from .store import MANIFEST, Store, read_manifest

__all__ = ["VersionBuilder"]


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def _cardinality(records: list[dict[str, Any]]) -> dict[str, int]:
    seen: dict[str, set[str]] = {}
    for r in records:
        for k, v in r.items():
            seen.setdefault(k, set()).add(json.dumps(v, ensure_ascii=False, sort_keys=True))
    return {k: len(v) for k, v in seen.items()}


class _Collections(MutableMapping[str, dict[str, Any]]):
    """Collection entries by key, each held as the text lines ``publish`` writes for it.

    A collection's text (``collection_lines``) is a tenth of the size of its records as Python
    dicts, so a builder holding a gigabyte of records stays near a gigabyte. Reading an entry
    decodes it afresh: the same content ``iter_entries`` reads back from the published file.
    """

    def __init__(self) -> None:
        self._text: dict[str, tuple[str, int, str]] = {}

    def __getitem__(self, key: str) -> dict[str, Any]:
        return _entry_of(self._text[key][2])

    def __setitem__(self, key: str, entry: dict[str, Any]) -> None:
        self._text[key] = (entry["endpoint"], len(entry["records"]), "".join(collection_lines(entry)))

    def __delitem__(self, key: str) -> None:
        del self._text[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._text)

    def __len__(self) -> int:
        return len(self._text)

    def __contains__(self, key: object) -> bool:
        return key in self._text

    def text(self, key: str) -> tuple[str, int, str]:
        """(endpoint, number of records, the lines ``publish`` writes) of collection ``key``."""
        return self._text[key]


def _entry_of(text: str) -> dict[str, Any]:
    """The entry ``iter_entries`` reads from one collection's ``collection_lines`` text."""
    # Lines end with "\n" and JSON text holds no raw "\n" (str.splitlines would also split
    # at U+2028 and other separators a string value may hold).
    lines = text.split("\n")[:-1]
    head = json.loads(lines[0])
    fields = head.pop("fields", [])
    head.pop("n")
    records = []
    for line in lines[1:]:
        row = json.loads(line)
        records.append(dict(zip(fields, row)) if isinstance(row, list) else row)
    head["key"] = head.pop("collection")
    head["records"] = records
    return head


def _write_synced(path: Path, chunks: Iterator[str]) -> str:
    """Write ``chunks`` (UTF-8) to ``path``, fsync it; the sha256 of the bytes written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    h = hashlib.sha256()
    fh: BinaryIO
    with open(path, "wb") as fh:
        for chunk in chunks:
            data = chunk.encode("utf-8")
            h.update(data)
            fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    return h.hexdigest()


class VersionBuilder:
    """Collects interactions and collections, then publishes them as a new version.

    Args:
        store: where to publish.
        set_name: the cassette set.
        catalog: maps endpoints to platforms (file grouping) and finds key params.
        parent: version to start from (its entries are carried over unless replaced);
            ``"latest"`` for the newest, ``None`` for an empty start.
        secrets: key values to mask wherever they appear (bodies included).
    """

    def __init__(
        self,
        store: Store,
        set_name: str,
        catalog: Catalog,
        *,
        parent: str | None = "latest",
        secrets: list[str] | tuple[str, ...] = (),
    ) -> None:
        validate_name("set", set_name)
        self.store = store
        self.set_name = set_name
        self.catalog = catalog
        self.secrets = tuple(s for s in secrets if s)
        self.interactions: dict[str, dict[str, Any]] = {}
        #: Collection entries by key (held as their text; see ``_Collections``).
        self.collections: MutableMapping[str, dict[str, Any]] = _Collections()
        self.parent: Manifest | None = None
        if parent is not None and store.has_set(set_name) and store.versions(set_name):
            self.parent = store.manifest(set_name, None if parent == "latest" else parent)
            pdir = store.version_dir(set_name, self.parent.version)
            for raw in iter_entries(pdir, self.parent, "interactions"):
                self.interactions[raw["fp"]] = raw
            for raw in iter_entries(pdir, self.parent, "collections"):
                self.collections[raw["key"]] = raw

    # ---- adding ----------------------------------------------------------------------
    def _scrub(self, text: str) -> str:
        for s in self.secrets:
            if s in text:
                text = text.replace(s, "REDACTED")
        return text

    def add_interaction(self, req: SimRequest, resp: SimResponse) -> str:
        """Record one exact request → response; returns its fingerprint."""
        try:
            match = self.catalog.match(req)
            endpoint: str | None = match.endpoint.id
        except Exception:  # noqa: BLE001 - unknown endpoints are recorded as plain exchanges
            match, endpoint = None, None
        canon = self._scrub(canonical_request(req, self.catalog, match))
        fp = fingerprint(canon)
        body = redact_body(resp.body, self.secrets)
        entry = InteractionEntry(
            fp=fp,
            endpoint=endpoint,
            request=canon,
            url=self._scrub(redact_url(req, self.catalog)),
            status=resp.status,
            headers=[(k, self._scrub(v)) for k, v in redact_headers(resp.headers)],
        )
        try:
            entry.body = body.decode("utf-8")
        except UnicodeDecodeError:
            entry.body_b64 = base64.b64encode(body).decode("ascii")
        self.interactions[fp] = entry.model_dump(exclude_none=True)
        return fp

    def add_collection(
        self,
        *,
        endpoint: str,
        key: str,
        filters: dict[str, str],
        fmt: str,
        total: int,
        records: list[dict[str, Any]],
        envelope: dict[str, Any] | None = None,
    ) -> None:
        """Record a whole collection (every page of a query, in order)."""
        if not endpoint.startswith("inferred_"):  # inferred ids: simulator.catalog.infer
            self.catalog.endpoint(endpoint)  # raises with a hint for unknown ids
        raw = _line({"records": records, "envelope": envelope or {}})
        scrubbed = redact_body(raw.encode("utf-8"), self.secrets).decode("utf-8")
        data = json.loads(scrubbed)
        entry = CollectionEntry(
            key=self._scrub(key),
            endpoint=endpoint,
            filters={k: self._scrub(v) for k, v in filters.items()},
            fmt=fmt,
            total=total,
            envelope=data["envelope"],
            records=data["records"],
            cardinality=_cardinality(data["records"]),
        )
        self.collections[entry.key] = entry.model_dump()

    # ---- publishing --------------------------------------------------------------------
    def _platform(self, endpoint: str | None) -> str:
        if endpoint and endpoint in self.catalog.endpoints:
            return self.catalog.endpoints[endpoint].platform
        if endpoint and endpoint.startswith("inferred_"):  # simulator.catalog.infer
            try:
                return self.catalog.endpoint(endpoint).platform
            except CatalogError:
                pass
        return "_other"

    def publish(
        self,
        *,
        recorded_at: str,
        source: str,
        info: dict[str, Any] | None = None,
        version: str | None = None,
    ) -> Manifest:
        """Write the version and make it visible atomically; returns its manifest."""
        set_dir = self.store.set_dir(self.set_name)
        set_dir.mkdir(parents=True, exist_ok=True)
        staging = set_dir / f".staging-{uuid.uuid4().hex}"
        staging.mkdir()
        try:
            files: dict[str, str] = {}
            counts: dict[str, EndpointCounts] = {}
            # Each file's entries in sorted order, written as they are read (never the whole
            # version's text in memory at once).
            inter_files: dict[str, list[str]] = {}
            for fp in sorted(self.interactions):
                e = self.interactions[fp]
                rel = f"interactions/{self._platform(e.get('endpoint'))}.jsonl"
                inter_files.setdefault(rel, []).append(fp)
                c = counts.setdefault(e.get("endpoint") or "_other", EndpointCounts())
                c.interactions += 1
            coll_files: dict[str, list[str]] = {}
            colls = self.collections
            texts = colls.text if isinstance(colls, _Collections) else None
            for key in sorted(colls):
                if texts is not None:
                    endpoint, n, _text = texts(key)
                else:
                    entry = colls[key]
                    endpoint, n = entry["endpoint"], len(entry["records"])
                rel = f"collections/{self._platform(endpoint)}.jsonl"
                coll_files.setdefault(rel, []).append(key)
                c = counts.setdefault(endpoint, EndpointCounts())
                c.collections += 1
                c.records += n

            def chunks(rel: str) -> Iterator[str]:
                for fp in inter_files.get(rel, ()):
                    yield _line(self.interactions[fp])
                for key in coll_files.get(rel, ()):
                    yield texts(key)[2] if texts is not None else "".join(collection_lines(colls[key]))

            for rel in sorted({*inter_files, *coll_files}):
                files[rel] = _write_synced(staging / rel, chunks(rel))
            existing = self.store.versions(self.set_name)
            seq = (existing[-1].seq + 1) if existing else 1
            name = version or f"v{seq:04d}"
            manifest = Manifest(
                set=self.set_name,
                version=name,
                seq=seq,
                parent=self.parent.version if self.parent else None,
                recorded_at=recorded_at,
                source=source,  # type: ignore[arg-type]
                content_hash=content_hash_of(files),
                files=files,
                endpoints=dict(sorted(counts.items())),
                info=info or {},
            )
            text = json.dumps(manifest.model_dump(), ensure_ascii=False, indent=2) + "\n"
            with open(staging / MANIFEST, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            target = set_dir / name
            if target.exists():
                raise StoreError(
                    f"version={name!r} already exists in set={self.set_name!r}; versions are "
                    "immutable: publish under another name"
                )
            os.rename(staging, target)
            dfd = os.open(set_dir, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
            return read_manifest(target)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
