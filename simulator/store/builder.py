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
from pathlib import Path
from typing import Any

from ..catalog import Catalog
from ..errors import StoreError
from ..request import SimRequest, SimResponse
from ..secrets import canonical_request, fingerprint, redact_body, redact_headers, redact_url
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
        self.collections: dict[str, dict[str, Any]] = {}
        self.parent: Manifest | None = None
        if parent is not None and store.set_dir(set_name).is_dir() and store.versions(set_name):
            self.parent = store.manifest(set_name, None if parent == "latest" else parent)
            pdir = store.set_dir(set_name) / self.parent.version
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
            groups: dict[str, list[str]] = {}
            for fp in sorted(self.interactions):
                e = self.interactions[fp]
                groups.setdefault(f"interactions/{self._platform(e.get('endpoint'))}.jsonl", []).append(
                    _line(e)
                )
                c = counts.setdefault(e.get("endpoint") or "_other", EndpointCounts())
                c.interactions += 1
            for key in sorted(self.collections):
                e = self.collections[key]
                groups.setdefault(f"collections/{self._platform(e['endpoint'])}.jsonl", []).extend(
                    collection_lines(e)
                )
                c = counts.setdefault(e["endpoint"], EndpointCounts())
                c.collections += 1
                c.records += len(e["records"])
            for rel, lines in sorted(groups.items()):
                data = "".join(lines).encode("utf-8")
                path = staging / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                with open(path, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
                files[rel] = hashlib.sha256(data).hexdigest()
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
