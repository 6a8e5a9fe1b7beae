"""Where cassette sets are found, and where new versions are published.

A :class:`Store` opened without a directory reads a *search path* of set roots, first match
wins, and publishes into the first of them:

1. the project's ``./cassettes`` when the working directory has one, else the user data
   directory (``platformdirs.user_data_dir("kopa-sim")/cassettes``, e.g.
   ``~/.local/share/kopa-sim/cassettes``): **writable**;
2. a source checkout's ``cassettes/`` when kopa-sim runs from one (read-only here, unless
   it is the working directory's ``./cassettes``);
3. the cassettes shipped inside the installed package (``simulator/_cassettes``):
   **read-only**, never written (it lives in ``site-packages``).

So the shipped ``kopa@v0001`` is found from any directory with no flag, and a version a user
records lands in their own directory with the shipped one as its parent. ``--cassettes DIR``
or ``$KOPA_CASSETTES`` name exactly one directory instead (nothing layered under it).

>>> roots = resolve_roots(environ={}, cwd=Path("/nonexistent"))        # doctest: +SKIP
>>> roots.origin                                                       # doctest: +SKIP
'user data dir'
"""

from __future__ import annotations

import os
import re
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from ..errors import StoreError

__all__ = [
    "Roots",
    "SHIPPED_INDEX",
    "check_writable",
    "repair_hint",
    "resolve_roots",
    "shipped_root",
    "user_cassette_dir",
]

#: Inside a read-only root, prebuilt indexes (``<content_hash>.v<N>.sqlite``) built when the
#: wheel was built; a dot folder, so it is never taken for a set.
SHIPPED_INDEX = ".index"

_PACKAGE = Path(__file__).resolve().parents[1]
_VERSION_DIR = re.compile(r"v\d{4,}")


@dataclass(frozen=True)
class Roots:
    """The set roots a store reads (first match wins) and the one it publishes into."""

    #: Where new versions are published (created on first publish).
    write: Path
    #: Every root read, ``write`` first, read-only ones after it.
    read: tuple[Path, ...]
    #: Why ``write`` was chosen: ``--cassettes``, ``$KOPA_CASSETTES``, ``./cassettes`` or
    #: ``user data dir`` (said in the output of commands that record).
    origin: str

    def describe(self) -> str:
        """One line for the output: where recording goes and why."""
        return f"{self.write} ({self.origin})"


def shipped_root() -> Path | None:
    """The read-only cassettes that came with this installation, if any.

    An installed wheel carries them as ``simulator/_cassettes``; a source checkout has its
    ``cassettes/`` beside the package (recognised by the ``pyproject.toml`` next to it).
    """
    packaged = _PACKAGE / "_cassettes"
    if packaged.is_dir():
        return packaged
    checkout = _PACKAGE.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "cassettes").is_dir():
        return checkout / "cassettes"
    return None


def user_cassette_dir() -> Path:
    """The per-user data directory recordings go to when no project directory is in use."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("kopa-sim", appauthor=False)) / "cassettes"


def resolve_roots(
    explicit: Path | str | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Roots:
    """The search path for ``explicit`` (``--cassettes``), ``$KOPA_CASSETTES`` or neither."""
    env = os.environ if environ is None else environ
    if explicit is not None:
        p = Path(explicit)
        return Roots(p, (p,), "--cassettes")
    if env.get("KOPA_CASSETTES"):
        p = Path(env["KOPA_CASSETTES"])
        return Roots(p, (p,), "$KOPA_CASSETTES")
    here = (cwd or Path.cwd()) / "cassettes"
    if here.is_dir():
        write, origin = here, "./cassettes"
    else:
        write, origin = user_cassette_dir(), "user data dir"
    read = [write]
    shipped = shipped_root()
    if shipped is not None and not _same(shipped, write):
        read.append(shipped)
    return Roots(write, tuple(read), origin)


def _in_git_checkout(path: Path) -> bool:
    return any((d / ".git").exists() for d in path.parents)


def _version_name(path: Path) -> str:
    return next((part for part in reversed(path.parts) if _VERSION_DIR.fullmatch(part)), "VERSION")


def repair_hint(path: Path | str) -> str:
    """How to repair a damaged file of a version, for where that version lives.

    The shipped cassettes of an installed wheel are reinstalled; a version inside a git
    checkout is restored from git; anything else (the user data dir, a ``--cassettes``
    directory outside git) is removed and recorded again, since no copy of it exists.
    """
    p = Path(path).absolute()
    installed = [(_PACKAGE / "_cassettes").resolve(), *_installed_dirs()]
    try:
        resolved = p.resolve()
    except OSError:
        resolved = p
    if any(resolved == b or b in resolved.parents for b in installed):
        return "reinstall kopa-sim (`pip install --force-reinstall kopa-sim`)"
    if _in_git_checkout(p):
        return "restore it from git (`git checkout -- <file>`) or record the version again"
    version = _version_name(p)
    return f"remove the version (`simulator rm {version}`) and record it again (`simulator record`)"


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _installed_dirs() -> list[Path]:
    paths = sysconfig.get_paths()
    return [Path(paths[k]).resolve() for k in ("purelib", "platlib") if k in paths]


def check_writable(root: Path) -> None:
    """Refuse to publish into an installation (``site-packages``, the shipped cassettes).

    Raises ``StoreError`` naming the directory and the fix.
    """
    target = root.resolve()
    packaged = (_PACKAGE / "_cassettes").resolve()
    for base in (packaged, *_installed_dirs()):
        if target == base or base in target.parents:
            raise StoreError(
                f"refusing to write cassettes into {str(root)!r}: it is inside the installation "
                f"({str(base)!r}); pass --cassettes DIR (or set KOPA_CASSETTES) to a directory of "
                "your own"
            )
