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
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..catalog import Catalog
from ..errors import StoreError
from ..identity import fingerprint
from .builder import VersionBuilder
from .index import iter_entries
from .integrity import file_sha256
from .manifest import InteractionEntry, Manifest, content_hash_of
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
    """A manifest over the edited files as they are now (so they read like a version)."""
    files = {
        str(p.relative_to(src)): file_sha256(p)
        for kind in ("interactions", "collections")
        for p in sorted((src / kind).glob("*.jsonl"))
    }
    return Manifest(set=set_name, version="edit", seq=0, recorded_at="-", source="imported",
                    content_hash=content_hash_of(files), files=files)


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
        info: dict[str, Any] = json.loads((src / CHECKOUT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise StoreError(
            f"{str(src / CHECKOUT)!r} is missing or unreadable: publish a folder made by "
            "`simulator checkout VERSION DIR`"
        ) from None
    set_name, parent = str(info["set"]), str(info["version"])
    pm = store.manifest(set_name, parent)
    edited = _edited_manifest(src, set_name)
    b = VersionBuilder(store, set_name, catalog, parent=parent, secrets=secrets)
    b.interactions.clear()
    for key in list(b.collections):
        del b.collections[key]
    for raw in iter_entries(src, edited, "interactions"):
        try:
            e = InteractionEntry.model_validate(raw)
        except ValidationError as exc:
            raise StoreError(f"an interaction in {str(src / 'interactions')!r} is invalid: {exc.errors()[0]['msg']} "
                             f"at {'.'.join(str(x) for x in exc.errors()[0]['loc'])}") from None
        d = e.model_dump(exclude_none=True)
        d["request"], d["url"] = b._scrub(d["request"]), b._scrub(d["url"])
        d["headers"] = [(k, b._scrub(v)) for k, v in d["headers"]]
        if "body" in d:
            d["body"] = b._scrub(d["body"])
        d["fp"] = fingerprint(d["request"])  # the identity of the request as edited
        b.interactions[d["fp"]] = d
    for raw in iter_entries(src, edited, "collections"):
        try:
            b.add_collection(endpoint=raw["endpoint"], key=raw["key"], filters=raw.get("filters", {}),
                             fmt=raw["fmt"], total=int(raw["total"]), records=raw["records"],
                             envelope=raw.get("envelope") or {})
        except (KeyError, TypeError, ValueError, ValidationError) as exc:
            raise StoreError(f"collection {raw.get('key')!r} in {str(src / 'collections')!r} is invalid: {exc}") from None
    m = b.publish(recorded_at=recorded_at or pm.recorded_at, source="imported",
                  info={"edited_from": f"{set_name}@{parent}", "parent_content_hash": pm.content_hash},
                  if_changed=True)
    return m, not b.unchanged
