"""The manifest of a cassette version, and the on-disk text format of its entries."""

from __future__ import annotations

import hashlib
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

__all__ = [
    "CASSETTE_FORMAT",
    "READABLE_FORMATS",
    "CollectionEntry",
    "EndpointCounts",
    "InteractionEntry",
    "MAX_COUNT",
    "MAX_RECORDS",
    "Manifest",
    "confined_path",
    "content_hash_of",
    "validate_name",
]

#: Format version of cassette text files. Bump on an incompatible change, with a migration.
#: 1: every data file stored whole in the version; 2: files may be ``segments`` of shared
#: blobs (``simulator.store.objects``); 3: any stored file (a version's whole file, a blob)
#: may be compressed, named with its codec's suffix (``x.jsonl.gz``). Hashes, offsets and
#: lengths are always of the decoded text, so a version's content hash is the same in every
#: format. Every version is written as 3 (an older kopa-sim refuses it with its upgrade
#: hint rather than miss its files); 1 and 2 are still read, and ``simulator compact``
#: (``simulator.store.compact``) rewrites a set's versions as 3 in place.
CASSETTE_FORMAT = 3
READABLE_FORMATS = (1, 2, 3)

#: The largest count an entry may state (a collection's reported total, a field's distinct
#: values): 2**53 - 1, the largest integer every JSON reader holds exactly, far below SQLite's
#: 2**63 - 1 (a total of 10**30 once published and then crashed every reader with OverflowError).
MAX_COUNT = 2**53 - 1
#: The most records one collection may hold: more than any API pages out (the largest shipped
#: collection holds 25,174), small enough that a header's record count cannot run away.
MAX_RECORDS = 10_000_000
#: A count a reader trusts: a non-negative integer no larger than ``MAX_COUNT``.
Count = Annotated[int, Field(strict=True, ge=0, le=MAX_COUNT)]

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def validate_name(kind: str, value: str) -> str:
    """Set and version names are plain names: no path separators, no ``..``, no dotfiles."""
    if not _NAME_RE.match(value) or ".." in value:
        raise ValueError(
            f"{kind}={value!r} is not a valid name: use letters, digits, '.', '_' or '-', "
            "starting with a letter or digit (no '/' or '..')"
        )
    return value


_SHA_RE = re.compile(r"^[0-9a-f]{64}$")
_PART_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$")


def confined_path(rel: str) -> str:
    """A data file path of a manifest: relative, plain parts, never leaving the version.

    ``collections/../../x.jsonl``, ``/etc/passwd``, ``a\\b`` and dot-files are refused, so a
    manifest cannot make a reader open a file outside its version (or set).
    """
    parts = rel.split("/")
    if not rel or any(not _PART_RE.match(p) or ".." in p for p in parts):
        raise ValueError(
            f"file path {rel!r} is not confined to the version: use relative paths of plain "
            "names (no '..', no leading '/', no dot-files)"
        )
    return rel


class EndpointCounts(BaseModel):
    model_config = ConfigDict(extra="forbid")
    interactions: int = 0
    collections: int = 0
    records: int = 0


#: ``Manifest.source`` → what results on that version are about (``Manifest.world``).
WORLD_LABELS: dict[str, str] = {
    "sandbox": "synthetic (sandbox)",
    "live": "real (live)",
    "imported": "imported (recorded elsewhere)",
    "test": "synthetic (test)",
}


class Manifest(BaseModel):
    """What a version is: identity, lineage, provenance, per-endpoint counts, file hashes."""

    model_config = ConfigDict(extra="forbid")

    format: int = 1
    set: str
    version: str
    seq: int
    parent: str | None = None
    #: The version's "now" (ISO 8601, UTC); replay never reads the wall clock.
    recorded_at: str
    source: Literal["live", "sandbox", "imported", "test"]
    #: sha256 over the data files (``content_hash_of(files)``); identifies the content.
    content_hash: str
    files: dict[str, str]
    endpoints: dict[str, EndpointCounts] = Field(default_factory=dict)
    #: Free-form provenance (plan name, sandbox seed, kopa-sim version); never keys.
    info: dict[str, Any] = Field(default_factory=dict)
    #: Files stored as byte ranges of shared blobs (``simulator.store.objects``): file →
    #: ``[blob sha256, offset, length, hint]``. Absent for a file stored whole in the version.
    segments: dict[str, list[tuple[str, int, int, str]]] = Field(default_factory=dict)

    @property
    def world(self) -> str:
        """What the version's values are, for reports (``source`` said in words):
        ``synthetic (sandbox)`` for a version recorded from the sandbox (real wire formats and
        catalog facts, invented values), ``real (live)`` for one recorded from the live APIs.

        >>> Manifest(set="kopa", version="v0001", seq=1, recorded_at="2026-01-01T00:00:00Z",
        ...          source="sandbox", content_hash="0" * 64, files={}).world
        'synthetic (sandbox)'
        """
        return WORLD_LABELS[self.source]

    @field_validator("files")
    @classmethod
    def _confined(cls, v: dict[str, str]) -> dict[str, str]:
        for rel, sha in v.items():
            confined_path(rel)
            if not _SHA_RE.match(sha):
                raise ValueError(f"files[{rel!r}]={sha!r} is not a sha256 hex digest")
        return v

    @field_validator("segments")
    @classmethod
    def _segments_valid(
        cls, v: dict[str, list[tuple[str, int, int, str]]], info: ValidationInfo
    ) -> dict[str, list[tuple[str, int, int, str]]]:
        if v and info.data.get("format", 1) < 2:
            raise ValueError("segments need format 2 (format 1 stores every file whole)")
        for rel, segs in v.items():
            confined_path(rel)
            for sha, offset, length, hint in segs:
                if not _SHA_RE.match(sha) or offset < 0 or length < 0:
                    raise ValueError(f"segments[{rel!r}] holds an invalid range {[sha, offset, length]!r}")
                if hint:
                    confined_path(hint)
        return v

    @field_validator("set")
    @classmethod
    def _set_name(cls, v: str) -> str:
        return validate_name("set", v)

    @field_validator("version")
    @classmethod
    def _version_name(cls, v: str) -> str:
        return validate_name("version", v)


class InteractionEntry(BaseModel):
    """One exact request → response (a line of ``interactions/<platform>.jsonl``)."""

    model_config = ConfigDict(extra="forbid")
    fp: str
    endpoint: str | None = None
    request: str  # canonical request, key-free
    url: str  # redacted URL as recorded
    status: Annotated[int, Field(strict=True, ge=100, le=599)]  # an HTTP status a client can read
    headers: list[tuple[str, str]]
    body: str | None = None  # UTF-8 text
    body_b64: str | None = None  # binary bodies (ZIP)


class CollectionEntry(BaseModel):
    """One whole collection (a line of ``collections/<platform>.jsonl``)."""

    model_config = ConfigDict(extra="forbid")
    key: str
    endpoint: str
    filters: dict[str, str]
    fmt: str
    #: The total the API reported (rendered as ``totalCount`` and friends; it may exceed the
    #: records held when a recording was capped).
    total: Count
    envelope: dict[str, Any] = Field(default_factory=dict)
    records: list[dict[str, Any]] = Field(max_length=MAX_RECORDS)
    #: Distinct values per field (EDGE's cardinality).
    cardinality: dict[str, Count] = Field(default_factory=dict)


def content_hash_of(files: dict[str, str]) -> str:
    """sha256 of the sorted ``path sha256`` lines of a version's data files."""
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(f"{path} {files[path]}\n".encode())
    return h.hexdigest()
