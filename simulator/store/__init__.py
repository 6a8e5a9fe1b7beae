"""Versioned cassette store (DESIGN §5): text on disk, compiled SQLite index, atomic publish."""

from __future__ import annotations

from .builder import VersionBuilder
from .index import CollectionInfo, Index, compile_index
from .manifest import (
    CASSETTE_FORMAT,
    CollectionEntry,
    EndpointCounts,
    InteractionEntry,
    Manifest,
    content_hash_of,
)
from .roots import Roots, resolve_roots, shipped_root
from .store import Store, Version, default_cache_dir, default_cassette_dir, read_manifest

__all__ = [
    "CASSETTE_FORMAT",
    "CollectionEntry",
    "CollectionInfo",
    "EndpointCounts",
    "Index",
    "InteractionEntry",
    "Manifest",
    "Roots",
    "Store",
    "Version",
    "VersionBuilder",
    "compile_index",
    "content_hash_of",
    "default_cache_dir",
    "default_cassette_dir",
    "read_manifest",
    "resolve_roots",
    "shipped_root",
]
