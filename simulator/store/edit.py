"""Edit a version as text and publish the edit as a new version.

``checkout`` writes a version's JSON Lines (whole, whatever its storage) into a folder with a
``checkout.json`` naming where they came from; edit them with any editor (one record per line:
a changed record is a one-line diff); ``publish_edit`` reads them back, checks every line,
recomputes fingerprints and cardinalities, masks the configured keys, and publishes a new
version whose parent is the checked-out one (only the changed entries add bytes). Published
versions themselves are never edited: an edit is always a new version.

>>> checkout(store, "kopa", "v0001", Path("edit"))              # doctest: +SKIP
>>> publish_edit(store, Path("edit"), load_catalog())            # doctest: +SKIP
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..catalog import Catalog
from ..errors import CatalogError, StoreError
from ..identity import fingerprint
from .builder import VersionBuilder
from .index import invalid_entry, iter_located
from .integrity import file_sha256
from .manifest import CollectionEntry, InteractionEntry, Manifest, content_hash_of
from .objects import file_chunks
from .store import Store

__all__ = ["CHECKOUT", "checkout", "publish_edit"]

CHECKOUT = "checkout.json"


def checkout(store: Store, set_name: str, version: str | None, dest: Path) -> Manifest:
    """Write the data files of a version into ``dest`` (which must not exist or be empty)."""
    m = store.manifest(set_name, version)
    if dest.exists() and any(dest.iterdir()):
        raise StoreError(f"{str(dest)!r} is not empty: check out into a new folder")
    vdir = store.version_dir(set_name, m.version)
    for rel in sorted(m.files):
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "wb") as fh:
            for chunk in file_chunks(vdir, m, rel):
                fh.write(chunk)
        if file_sha256(out) != m.files[rel]:
            raise StoreError(f"{str(vdir / rel)!r} is damaged (`simulator verify`); nothing to edit from")
    info = {"set": m.set, "version": m.version, "content_hash": m.content_hash}
    (dest / CHECKOUT).write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    return m


def _edited_manifest(src: Path, set_name: str) -> Manifest:
    """A manifest over the edited files as they are now (so they read like a version).

    Only regular files are read: a FIFO named ``x.jsonl`` would block the read forever, a
    symlink could read a file outside the checkout, a folder cannot be read at all.
    """
    files = {}
    for kind in ("interactions", "collections"):
        for p in sorted((src / kind).glob("*.jsonl")):
            try:
                mode = p.lstat().st_mode
            except OSError as exc:
                raise StoreError(f"cannot read {str(p)!r} ({exc.strerror or exc}): fix or remove it") from None
            if not stat.S_ISREG(mode):
                what = "a symlink" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode) else "not a regular file"
                raise StoreError(f"{str(p)!r} is {what}: a checkout holds plain .jsonl files; "
                                 "replace it with a file or remove it")
            try:
                files[str(p.relative_to(src))] = file_sha256(p)
            except OSError as exc:
                raise StoreError(f"cannot read {str(p)!r} ({exc.strerror or exc}): fix or remove it") from None
    return Manifest(set=set_name, version="edit", seq=0, recorded_at="-", source="imported",
                    content_hash=content_hash_of(files), files=files)


def _located(src: Path, edited: Manifest, kind: str) -> Any:
    """``iter_located`` over a checkout; damage is said as something to edit, not to restore."""
    return iter_located(src, edited, kind, fix=lambda path: "correct it in the checkout")


def _once(seen: dict[str, tuple[Path, int]], key: str, what: str, path: Path, lineno: int) -> None:
    """Refuse a second entry for one key (replay could answer only one: the other would be lost)."""
    if key in seen:
        first, line = seen[key]
        raise StoreError(f"{what} is in {str(first)!r} line {line} and again in {str(path)!r} line "
                         f"{lineno}: keep one of them")
    seen[key] = (path, lineno)


def _collections(m: Manifest) -> int:
    return sum(x.collections for x in m.endpoints.values())


def publish_edit(
    store: Store,
    src: Path,
    catalog: Catalog,
    *,
    recorded_at: str | None = None,
    secrets: list[str] | tuple[str, ...] = (),
) -> tuple[Manifest, bool]:
    """Publish the edited files of a ``checkout`` folder as a new version of its set.

    Returns (the manifest, whether a new version was published: an unchanged checkout
    publishes nothing). ``recorded_at`` defaults to the parent's (the data's "now").
    """
    try:
        info: Any = json.loads((src / CHECKOUT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        info = None
    if not isinstance(info, dict) or not isinstance(info.get("set"), str) or not isinstance(info.get("version"), str):
        raise StoreError(
            f"{str(src / CHECKOUT)!r} is missing, unreadable or lacks its set and version: publish a "
            "folder made by `simulator checkout VERSION DIR`"
        )
    set_name, parent = info["set"], info["version"]
    pm = store.manifest(set_name, parent)
    edited = _edited_manifest(src, set_name)
    b = VersionBuilder(store, set_name, catalog, parent=parent, secrets=secrets)
    b.interactions.clear()
    for key in list(b.collections):
        del b.collections[key]
    seen: dict[str, tuple[Path, int]] = {}
    for path, lineno, raw in _located(src, edited, "interactions"):
        try:
            e = InteractionEntry.model_validate(raw)
        except ValidationError as exc:
            raise StoreError(invalid_entry(path, lineno, "an interaction", exc)) from None
        d = e.model_dump(exclude_none=True)
        d["request"], d["url"] = b._scrub(d["request"]), b._scrub(d["url"])
        d["headers"] = [(k, b._scrub(v)) for k, v in d["headers"]]
        if "body" in d:
            d["body"] = b._scrub(d["body"])
        d["fp"] = fingerprint(d["request"])  # the identity of the request as edited
        _once(seen, d["fp"], f"the request {d['request']!r}", path, lineno)
        b.interactions[d["fp"]] = d
    seen.clear()
    for path, lineno, raw in _located(src, edited, "collections"):
        try:
            c = CollectionEntry.model_validate({**raw, "cardinality": {}})
        except ValidationError as exc:
            raise StoreError(invalid_entry(path, lineno, f"collection {raw.get('key')!r}", exc)) from None
        _once(seen, c.key, f"collection {c.key!r}", path, lineno)
        try:
            b.add_collection(endpoint=c.endpoint, key=c.key, filters=c.filters, fmt=c.fmt, total=c.total,
                             records=c.records, envelope=c.envelope)
        except (CatalogError, ValueError, ValidationError) as exc:
            raise StoreError(f"{str(path)!r} line {lineno}: collection {c.key!r} is invalid: {exc}") from None
    if not b.collections and (pm.endpoints and any(x.collections for x in pm.endpoints.values()) or not b.interactions):
        raise StoreError(
            f"{str(src)!r} holds no collection (kopa@{parent} has {_collections(pm)}): a version without "
            "collections answers no page; restore the files from `simulator checkout`, or remove a "
            "version with `simulator rm`"
        )
    m = b.publish(recorded_at=recorded_at or pm.recorded_at, source="imported",
                  info={"edited_from": f"{set_name}@{parent}", "parent_content_hash": pm.content_hash},
                  if_changed=True)
    return m, not b.unchanged
