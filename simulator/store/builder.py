"""Build a new version and publish it atomically.

Entries are collected, then written as JSON Lines in a hidden staging folder beside the
set's versions, fsynced, and the folder is renamed to its version name in one step: a reader
sees either no version or the whole version, and a failed or killed job leaves every
published version as it was.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import shutil
import uuid
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..catalog import Catalog
from ..errors import CatalogError, StoreError
from ..request import SimRequest, SimResponse
from ..identity import canonical_request, fingerprint
from ..secrets import Scrubber, redact_body, redact_headers, redact_url
from .index import collection_lines, iter_entries
from .manifest import (
    CASSETTE_FORMAT,
    CollectionEntry,
    EndpointCounts,
    InteractionEntry,
    Manifest,
    content_hash_of,
    validate_name,
)
from .lock import set_lock
from .objects import fsync_dir
from .oserrors import os_error_message
from .share import ParentBytes, place_objects, write_shared
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


def _reread(staging: Path, manifest: Manifest, interactions: int, collections: int) -> None:
    """Read the staged version back as a reader will, before it is published.

    Every line must parse and every entry must come back (a string holding a separator such
    as U+2028 once split a line in two): a version that cannot be opened is never published.
    """
    got = [sum(1 for _ in iter_entries(staging, manifest, kind)) for kind in ("interactions", "collections")]
    if got != [interactions, collections]:
        raise StoreError(
            f"publish check failed: wrote {interactions} interactions and {collections} "
            f"collections but read back {got[0]} and {got[1]} from {str(staging)!r}; nothing "
            "was published (please report this as a bug)"
        )


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
        #: Masks every form of every key that is a secret (short keys and placeholders are not).
        self.scrubber = Scrubber(list(self.secrets))
        self.interactions: dict[str, dict[str, Any]] = {}
        #: Collection entries by key (held as their text; see ``_Collections``).
        self.collections: MutableMapping[str, dict[str, Any]] = _Collections()
        self.parent: Manifest | None = None
        self._parent_arg = parent
        #: Set by ``publish(if_changed=True)`` when the content was already the newest version's
        #: (or the parent's).
        self.unchanged = False
        if parent is not None and store.has_set(set_name) and store.versions(set_name):
            self.parent = store.manifest(set_name, None if parent == "latest" else parent)
            pdir = store.version_dir(set_name, self.parent.version)
            for raw in iter_entries(pdir, self.parent, "interactions"):
                self.interactions[raw["fp"]] = raw
            for raw in iter_entries(pdir, self.parent, "collections"):
                self.collections[raw["key"]] = raw

    # ---- adding ----------------------------------------------------------------------
    def _scrub(self, text: str) -> str:
        return self.scrubber.text(text)

    def add_interaction(self, req: SimRequest, resp: SimResponse) -> str:
        """Record one exact request → response; returns its fingerprint.

        A query parameter whose value is one of the keys is a key, whatever its name
        (``service_key=…``): it is dropped from the request before anything is stored.
        """
        if self.scrubber and any(self.scrubber.is_key(v) for _k, v in req.query):
            req = dataclasses.replace(req, query=tuple((k, v) for k, v in req.query if not self.scrubber.is_key(v)))
        try:
            match = self.catalog.match(req)
            endpoint: str | None = match.endpoint.id
        except Exception:  # noqa: BLE001 - unknown endpoints are recorded as plain exchanges
            match, endpoint = None, None
        canon = self._scrub(canonical_request(req, self.catalog, match))
        fp = fingerprint(canon)
        body = redact_body(resp.body, self.scrubber)
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
        scrubbed = redact_body(raw.encode("utf-8"), self.scrubber).decode("utf-8")
        data = json.loads(scrubbed)
        try:
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
        except ValidationError as exc:  # a total no reader could hold (an API reporting 10**30)
            err = exc.errors()[0]
            raise StoreError(f"collection {self._scrub(key)!r} of {endpoint}: {'.'.join(map(str, err['loc']))}: "
                             f"{err['msg']}; nothing was published") from None
        self.collections[entry.key] = entry.model_dump()

    # ---- publishing --------------------------------------------------------------------
    def _platform(self, endpoint: str | None) -> str:
        # Data files go by catalog part (``gen_opendart``), not platform: versions recorded
        # before platforms were merged keep their file names and hashes on a re-record.
        if endpoint and endpoint in self.catalog.endpoints:
            return self.catalog.endpoints[endpoint].part_id
        if endpoint and endpoint.startswith("inferred_"):  # simulator.catalog.infer
            try:
                return self.catalog.endpoint(endpoint).part_id
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
        if_changed: bool = False,
        wait: float = 30.0,
    ) -> Manifest:
        """Write the version and make it visible atomically; returns its manifest.

        Publishing holds the set's lock (``simulator.store.lock``; waiting up to ``wait``
        seconds for another publisher or recorder, then a ``SetLocked`` error naming it) and
        re-reads the newest version under it: a builder whose parent was ``"latest"`` refuses
        to publish over a version published since (its entries would be lost). With
        ``if_changed``, content equal to the newest version's (or the parent's) is not published
        again: that manifest is returned and ``self.unchanged`` is set (a resumed recording never publishes
        the same content twice). Entries equal to the parent's are shared, not copied
        (``simulator.store.share``). A failure leaves no file behind and publishes nothing.
        """
        set_dir = self.store.set_dir(self.set_name)
        try:
            with set_lock(set_dir, self.set_name, purpose="publishing", wait=wait):
                return self._publish(set_dir, recorded_at, source, info, version, if_changed)
        except OSError as exc:
            raise StoreError(os_error_message(exc, f"publish into set={self.set_name!r}", set_dir)) from None

    def _publish(
        self, set_dir: Path, recorded_at: str, source: str, info: dict[str, Any] | None,
        version: str | None, if_changed: bool,
    ) -> Manifest:
        existing = self.store.versions(self.set_name)
        latest = existing[-1] if existing else None
        if self._parent_arg == "latest" and (latest and latest.version) != (self.parent and self.parent.version):
            raise StoreError(
                f"set={self.set_name!r} changed while this version was built: its parent was "
                f"{self.parent.version if self.parent else None!r}, the newest is now "
                f"{latest.version if latest else None!r}; build again on the newest (a "
                "recorder does this under the set's lock)"
            )
        staging = set_dir / f".staging-{uuid.uuid4().hex}"
        staging.mkdir()
        created: list[Path] = []
        published = False
        try:
            files: dict[str, str] = {}
            segments: dict[str, list[tuple[str, int, int, str]]] = {}
            blobs: list[tuple[str, Path]] = []
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

            pdir = self.store.version_dir(self.set_name, self.parent.version) if self.parent else None
            shared = ParentBytes(set_dir, self.parent, pdir)
            for rel in sorted({*inter_files, *coll_files}):
                sha, segs, blob = write_shared(staging, rel, chunks(rel), shared)
                files[rel] = sha
                if segs is not None:
                    segments[rel] = segs
                if blob is not None:
                    blobs.append(blob)
            content_hash = content_hash_of(files)
            if if_changed:
                # The newest version's content (a resumed recording), or the parent's (an
                # unedited checkout of an older version), is not published again.
                same = [m for m in (latest, self.parent) if m is not None and m.content_hash == content_hash]
                if same:
                    self.unchanged = True
                    return same[0]
            seq = (latest.seq + 1) if latest else 1
            name = version or f"v{seq:04d}"
            manifest = Manifest(
                format=CASSETTE_FORMAT,
                set=self.set_name,
                version=name,
                seq=seq,
                parent=self.parent.version if self.parent else None,
                recorded_at=recorded_at,
                source=source,  # type: ignore[arg-type]
                content_hash=content_hash,
                files=files,
                endpoints=dict(sorted(counts.items())),
                info=info or {},
                segments=segments,
            )
            target = set_dir / name
            if target.exists():
                raise StoreError(
                    f"version={name!r} already exists in set={self.set_name!r}; versions are "
                    "immutable: publish under another name"
                )
            created = place_objects(set_dir, blobs)
            for sub in ("interactions", "collections"):  # folders left empty by shared files
                if (staging / sub).is_dir() and not any((staging / sub).iterdir()):
                    (staging / sub).rmdir()
            _reread(staging, manifest, len(self.interactions), len(colls))
            dumped = manifest.model_dump()
            if not dumped["segments"]:
                del dumped["segments"]  # a version stored whole reads as before
            text = json.dumps(dumped, ensure_ascii=False, indent=2) + "\n"
            with open(staging / MANIFEST, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.rename(staging, target)
            published = True
            fsync_dir(set_dir)
            return read_manifest(target)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
            if not published:
                for p in created:  # blobs only this failed publish placed
                    p.unlink(missing_ok=True)
