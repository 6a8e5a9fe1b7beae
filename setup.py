"""Build hook: the wheel carries the shipped cassettes and a prebuilt index of the versions
opened most.

Everything else is declared in ``pyproject.toml``. At build time the repository's
``cassettes/`` (work files excepted: staging, checkpoints, caches) is copied to ``simulator/_cassettes`` in the wheel,
where ``simulator.store.roots.shipped_root`` finds it read-only, and the SQLite index of the
newest and the first version of each set (every command's default, and the version downstream
suites written first pin) is compiled from its verified text into ``simulator/_cassettes/.index``
(the same ``compile_index`` replay uses, so the index records the content hash it was built
from), so the first answer after ``pip install`` needs no compile. A version between them is
compiled into the user's cache on its first open (about 20 s, said on stderr): an index is
~10 MiB compressed, and one per version would take the wheel past 60 MiB (six versions: 63 MiB).
The git tree keeps one copy of the cassettes; an editable install reads ``cassettes/`` in place.
"""

from __future__ import annotations

import importlib
import json
import shutil
import sys
import types
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "cassettes"
TARGET = Path("simulator") / "_cassettes"


def _store_modules() -> tuple[types.ModuleType, types.ModuleType]:
    """``simulator.store.index`` and ``.manifest`` without the package ``__init__`` files
    (they import the whole simulator; the build environment has only pydantic and sqlite-utils)."""
    for name, path in (("simulator", HERE / "simulator"), ("simulator.store", HERE / "simulator" / "store")):
        if name not in sys.modules:
            pkg = types.ModuleType(name)
            pkg.__path__ = [str(path)]
            sys.modules[name] = pkg
    return importlib.import_module("simulator.store.index"), importlib.import_module("simulator.store.manifest")


#: Work files that live beside versions and never ship: publish staging, recording
#: checkpoints, the pytest plugin's cache, compiled indexes, an interrupted compaction's files.
_NOT_SHIPPED = (".staging-*", ".record-*", ".lock", ".cache", ".index", "__pycache__", "*.sqlite", ".compact-*")


def _copy_cassettes(dest: Path) -> list[Path]:
    """Copy ``cassettes/`` (work files excepted) to ``dest``; the version folders copied."""
    ignore = shutil.ignore_patterns(*_NOT_SHIPPED)
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(SOURCE, dest, ignore=ignore)
    return sorted(p.parent for p in dest.glob("*/*/manifest.json"))


class BuildWithCassettes(build_py):  # type: ignore[misc]
    """``build_py`` that also writes ``simulator/_cassettes`` (see the module docstring)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or not SOURCE.is_dir():
            return
        dest = Path(self.build_lib) / TARGET
        versions = _copy_cassettes(dest)
        index, manifest = _store_modules()
        by_set: dict[str, list[Any]] = {}
        for vdir in versions:
            m = manifest.Manifest.model_validate(json.loads((vdir / "manifest.json").read_text("utf-8")))
            by_set.setdefault(m.set, []).append((m.seq, vdir, m))
        for found in by_set.values():
            found.sort(key=lambda t: t[0])
            for _seq, vdir, m in {found[0][0]: found[0], found[-1][0]: found[-1]}.values():  # first, newest
                target = dest / ".index" / f"{m.content_hash}.v{index.INDEX_FORMAT}.sqlite"
                self.announce(f"compiling the index of {m.set}@{m.version} into {target}", level=2)
                index.compile_index(vdir, m, target)


setup(cmdclass={"build_py": BuildWithCassettes})
