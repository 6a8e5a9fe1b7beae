"""Cassette sets and versions on disk: list, open (compiled index cached by content hash), verify."""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from pydantic import ValidationError

from ..errors import CorruptVersion, FormatVersionError, StoreError, VersionNotFound
from .index import INDEX_FORMAT, CollectionInfo, Index, compile_index
from .integrity import (
    check_manifest,
    check_text,
    index_intact,
    shared_hint,
    source_paths,
    stamp_matches,
    write_stamp,
)
from .oserrors import as_os_error, os_error_message
from .manifest import READABLE_FORMATS, Manifest, validate_name
from .roots import SHIPPED_INDEX, Roots, repair_hint, resolve_roots, shipped_root

__all__ = ["SHIPPED_SOURCES", "Store", "Version", "default_cache_dir", "default_cassette_dir"]

MANIFEST = "manifest.json"

#: The sources of a version that came with kopa-sim (DESIGN §7: the shipped versions are
#: recorded from the sandbox); an import, an edit or a test's version never counts as shipped,
#: wherever it was published.
SHIPPED_SOURCES = ("sandbox", "live")


def default_cassette_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where a store opened without a directory publishes (see ``roots.resolve_roots``):
    ``$KOPA_CASSETTES``, else ``./cassettes`` when it exists, else the user data directory."""
    return resolve_roots(environ=environ).write


def default_cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$KOPA_CACHE``, else ``$XDG_CACHE_HOME/kopa-sim``, else ``~/.cache/kopa-sim``."""
    env = os.environ if environ is None else environ
    if env.get("KOPA_CACHE"):
        return Path(env["KOPA_CACHE"])
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kopa-sim"


def read_manifest(version_dir: Path) -> Manifest:
    path = version_dir / MANIFEST
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CorruptVersion(
            f"{str(path)!r} is missing: {str(version_dir)!r} is not a published version",
            path=str(path),
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CorruptVersion(
            f"manifest {str(path)!r} does not parse ({exc}); {repair_hint(path)}", path=str(path)
        ) from None
    if isinstance(raw, dict) and raw.get("format") not in READABLE_FORMATS:
        raise FormatVersionError(
            f"{str(path)!r} has format={raw.get('format')!r}; this kopa-sim reads formats "
            f"{', '.join(map(str, READABLE_FORMATS))}. Upgrade kopa-sim, or re-record the version with this one"
        )
    try:
        return Manifest.model_validate(raw)
    except ValidationError as exc:
        why = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise CorruptVersion(
            f"manifest {str(path)!r} is invalid ({why}); {repair_hint(path)}", path=str(path)
        ) from None


@dataclass
class Version:
    """An opened, immutable version: its manifest and compiled index."""

    manifest: Manifest
    path: Path
    index: Index

    @property
    def content_hash(self) -> str:
        return self.manifest.content_hash

    @property
    def id(self) -> str:
        return f"{self.manifest.set}@{self.manifest.version}"

    def collections(self, endpoint: str | None = None) -> list[CollectionInfo]:
        return self.index.collections(endpoint)


class Store:
    """A directory of cassette sets: ``<root>/<set>/<version>/manifest.json`` + JSON Lines.

    ``Store()`` reads the search path of ``roots.resolve_roots`` (your ``./cassettes`` or user
    data directory, layered over the cassettes shipped with the package) and publishes into
    its first root; ``Store(DIR)`` reads and writes ``DIR`` alone.

    >>> v = Store().open("kopa")                        # newest version  # doctest: +SKIP
    """

    def __init__(
        self, root: Path | str | None = None, cache_dir: Path | str | None = None, *, roots: Roots | None = None
    ) -> None:
        #: The search path: ``root`` (where versions are published) first, read-only roots after.
        self.roots = roots or resolve_roots(root)
        self.root = self.roots.write
        self.cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()

    # ---- listing -------------------------------------------------------------------
    def sets(self) -> list[str]:
        names = {
            p.name
            for r in self.roots.read
            if r.is_dir()
            for p in r.iterdir()
            if p.is_dir() and not p.name.startswith(".")
        }
        return sorted(names)

    def has_set(self, set_name: str) -> bool:
        """Whether any root of the search path holds ``set_name``."""
        return any(d.is_dir() for d in self._set_dirs(set_name))

    def _set_dirs(self, set_name: str) -> list[Path]:
        first = self.set_dir(set_name)
        return [first, *(r / set_name for r in self.roots.read if r != self.root)]

    def version_dir(self, set_name: str, version: str) -> Path:
        """The folder of a published version, in whichever root of the search path holds it."""
        for d in self._set_dirs(set_name):
            if (d / version / MANIFEST).exists():
                return d / version
        return self.set_dir(set_name) / version

    def set_dir(self, set_name: str) -> Path:
        try:
            validate_name("set", set_name)
        except ValueError as exc:
            raise VersionNotFound(str(exc)) from None
        return self.root / set_name

    def versions(self, set_name: str) -> list[Manifest]:
        """Published versions of a set, oldest first (by sequence number)."""
        dirs = self._set_dirs(set_name)
        if not any(d.is_dir() for d in dirs):
            where = ", ".join(repr(str(r)) for r in self.roots.read)
            raise VersionNotFound(
                f"no cassette set={set_name!r} in {where}; known sets: "
                f"{', '.join(self.sets()) or '(none)'}. Pass --cassettes DIR or set KOPA_CASSETTES"
            )
        found: dict[str, Manifest] = {}
        for d in dirs:  # first root wins for a version name
            if not d.is_dir():
                continue
            for p in d.iterdir():
                if p.is_dir() and not p.name.startswith(".") and p.name not in found and (p / MANIFEST).exists():
                    found[p.name] = read_manifest(p)
        return sorted(found.values(), key=lambda m: (m.seq, m.version))

    def manifest(self, set_name: str, version: str | None = None) -> Manifest:
        versions = self.versions(set_name)
        if not versions:
            raise VersionNotFound(f"cassette set={set_name!r} has no published version yet")
        if version is None or version == "latest":
            return versions[-1]
        for m in versions:
            if m.version == version or m.content_hash.startswith(version):
                return m
        raise VersionNotFound(
            f"no version={version!r} in set={set_name!r}; known: "
            + ", ".join(m.version for m in versions)
        )

    # ---- which version a command uses --------------------------------------------------
    def is_shipped(self, m: Manifest) -> bool:
        """Whether ``m`` came with kopa-sim: its folder is in the shipped cassettes
        (``roots.shipped_root``: the wheel's ``simulator/_cassettes`` or a checkout's
        ``cassettes/``) and it was recorded (``SHIPPED_SOURCES``), never imported or edited."""
        root = shipped_root()
        if root is None or m.source not in SHIPPED_SOURCES:
            return False
        vdir = self.version_dir(m.set, m.version)
        try:
            return root.resolve() in vdir.resolve().parents
        except OSError:
            return False

    def newest_shipped(self, set_name: str) -> Manifest | None:
        """The newest version of ``set_name`` that came with kopa-sim, if this store reads one."""
        shipped = [m for m in self.versions(set_name) if self.is_shipped(m)]
        return shipped[-1] if shipped else None

    def choose(self, set_name: str, version: str | None = None, *, shipped: bool = False) -> tuple[Manifest, str]:
        """The version a command uses, and one line saying which and why (for its first line).

        ``version`` (``--version``) wins. Without it, research commands (``shipped=True``:
        bench, EDGE, training) take the newest *shipped* version, so their results never
        depend on whatever was published last (an import, a ``rewrite`` recording); other
        commands (serve, pytest) take the newest. Either way the line names newer or shipped
        versions the command did not take, and the flag that takes them.

        >>> m, line = Store().choose("kopa", shipped=True)           # doctest: +SKIP
        >>> line                                                      # doctest: +SKIP
        'kopa@v0006 (5dbc35694252): the newest shipped version'
        """
        m = self.manifest(set_name, version)
        if version is not None and version != "latest":
            return m, f"{self.label(m)}: --version {version}"
        newest = self.manifest(set_name)
        if shipped:
            ship = self.newest_shipped(set_name)
            if ship is not None:
                newer = [x for x in self.versions(set_name) if x.seq > ship.seq]
                note = ""
                if newer:
                    names = ", ".join(f"{x.version} ({x.source})" for x in newer[-3:])
                    note = f"; newer, not shipped: {names} (--version {newer[-1].version} uses it)"
                return ship, f"{self.label(ship)}: the newest shipped version{note}"
            return newest, f"{self.label(newest)}: the newest (no shipped version in {self._where()})"
        if self.is_shipped(newest):
            return newest, f"{self.label(newest)}: the newest, shipped"
        ship = self.newest_shipped(set_name)
        tail = f" (the newest shipped is {ship.version}: --version {ship.version})" if ship is not None else ""
        where = self.version_dir(set_name, newest.version)
        return newest, f"{self.label(newest)}: the newest, {newest.source}, in {str(where.parent.parent)!r}, not shipped{tail}"

    @staticmethod
    def label(m: Manifest) -> str:
        """``set@version (content hash prefix)``: how outputs name a version."""
        return f"{m.set}@{m.version} ({m.content_hash[:12]})"

    def _where(self) -> str:
        return ", ".join(repr(str(r)) for r in self.roots.read)

    # ---- opening -------------------------------------------------------------------
    def index_path(self, manifest: Manifest) -> Path:
        return self.cache_dir / "index" / f"{manifest.content_hash}.v{INDEX_FORMAT}.sqlite"

    def prebuilt_index(self, manifest: Manifest) -> Path | None:
        """An index built with the wheel for a read-only root's version (never written)."""
        name = self.index_path(manifest).name
        for r in self.roots.read:
            if r != self.root and (r / SHIPPED_INDEX / name).is_file():
                return r / SHIPPED_INDEX / name
        return None

    def needs_compile(self, manifest: Manifest) -> bool:
        """Whether ``open`` would compile an index first (no cached or prebuilt one)."""
        return not self.index_path(manifest).exists() and self.prebuilt_index(manifest) is None

    def open(self, set_name: str = "kopa", version: str | None = None) -> Version:
        """Open a version: its cached index, else the one prebuilt with a read-only root (the
        wheel's shipped cassettes), else compile one on first use (cached by content hash).

        Opening checks (``simulator.store.integrity``) that the manifest's content hash is
        that of its files, that every data file matches its sha256, and that the cached index
        is byte for byte the one compiled from that text: a damaged cache file is rebuilt
        from the verified text; damaged text raises ``CorruptVersion`` naming the file.
        """
        m = self.manifest(set_name, version)
        vdir = self.version_dir(set_name, m.version)
        check_manifest(m, vdir / MANIFEST)
        target = self.index_path(m)
        if target.is_dir():
            raise StoreError(
                f"cannot open the index: a directory is where the index file should be at "
                f"{str(target)!r}; remove that directory (or `simulator cache clean`)"
            )
        sources = source_paths(vdir, m)
        prebuilt = None if target.exists() else self.prebuilt_index(m)
        # The stamp of a prebuilt index (in a read-only root) is kept in the cache.
        stamp = target.with_name(target.name + ".prebuilt.json") if prebuilt is not None else None
        index = target if prebuilt is None else prebuilt
        if index.exists() and stamp_matches(index, sources, stamp):
            try:  # every file as it was when last hashed in full
                return Version(m, vdir, Index(index, m.content_hash))
            except Exception:  # noqa: BLE001 - any damage to a cache file: rebuild it
                pass
        check_text(vdir, m)
        if index.exists() and index_intact(index):
            try:
                v = Version(m, vdir, Index(index, m.content_hash))
                write_stamp(index, sources, stamp)
                return v
            except Exception:  # noqa: BLE001 - any damage to an index: compile into the cache
                pass
        try:
            # No unlink first: compile_index replaces the file atomically, so a reader that
            # opened it concurrently (another thread compiling the same new version) never
            # finds it missing ('unable to open database file' in test_reliability).
            compile_index(vdir, m, target)
        except OSError as exc:
            raise StoreError(os_error_message(exc, "compile the index", self.cache_dir)) from None
        except sqlite3.Error as exc:
            err = as_os_error(exc, target.parent)
            if err is None:
                raise
            raise StoreError(os_error_message(err, "compile the index", target.parent)) from None
        v = Version(m, vdir, Index(target, m.content_hash))
        write_stamp(target, sources)
        return v

    # ---- verification ----------------------------------------------------------------
    def verify(self, set_name: str, version: str | None = None) -> list[str]:
        """Problems found in a version's files (empty: every sha256 matches)."""
        problems: list[str] = []
        vdir = self.version_dir(set_name, version or self.manifest(set_name).version)
        try:
            m = read_manifest(vdir)
        except (CorruptVersion, FormatVersionError) as exc:
            return [str(exc)]
        from .integrity import undecodable
        from .manifest import content_hash_of
        from .objects import CorruptBlob, file_digest, logical_name

        if content_hash_of(m.files) != m.content_hash:
            problems.append(f"{str(vdir / MANIFEST)!r}: content_hash does not match its files list")
        for rel, sha in sorted(m.files.items()):
            p = vdir / rel
            try:
                digest = file_digest(vdir, m, rel)
            except FileNotFoundError as exc:
                problems.append(f"{str(exc.filename or p)!r}: missing{shared_hint(m, rel)}")
                continue
            except CorruptBlob as exc:
                problems.append(undecodable(exc, rel))
                continue
            if digest != sha:
                problems.append(f"{str(p)!r}: sha256 mismatch (damaged or edited)")
        index = self.index_path(m)
        if index.exists() and not index_intact(index):
            problems.append(
                f"{str(index)!r}: compiled index is damaged (its sha256 is not the one written "
                "when it was compiled); it is rebuilt from the text at the next open, or run "
                "`simulator cache clean`"
            )
        listed = set(m.files) - set(m.segments) | {MANIFEST}
        for p in sorted(vdir.rglob("*")):
            if p.name.startswith(".compact-"):  # an interrupted `simulator compact`'s, never read
                continue
            if p.is_file() and str(logical_name(p).relative_to(vdir)) not in listed:
                problems.append(f"{str(p)!r}: not listed in the manifest")
        return problems
