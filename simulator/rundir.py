"""A run folder (or a set of output files) is written whole or not at all (STYLE §19).

Every command that writes a run (``edge synthesize``, ``edge graph``, ``bench run`` and
``bench report`` summaries, ``train verl-config``, ``vcr export``) writes into a temporary
sibling and swaps it in when everything is written, so a reader never sees files of two
runs side by side, and a failure (a full disk, an unwritable file, an error half-way) leaves
the previous run exactly as it was and no temporary sibling behind.

>>> import tempfile; from pathlib import Path
>>> out = Path(tempfile.mkdtemp()) / "run"
>>> with atomic_dir(out) as tmp:
...     _ = (tmp / "a.json").write_text("{}")
>>> sorted(p.name for p in out.iterdir())
['a.json']
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from fnmatch import fnmatch
from pathlib import Path

from .errors import SimulatorError

__all__ = ["RunFolderError", "atomic_dir", "atomic_files", "check_run_folder"]


class RunFolderError(SimulatorError):
    """An output folder cannot be replaced: it holds files the command did not write, or it
    is not a folder. Nothing was touched."""


def _sibling(path: Path, tag: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=f".{path.name}.{tag}-", dir=path.parent))


def check_run_folder(out: Path | str, owns: Iterable[str] | None = None) -> None:
    """Refuse (:class:`RunFolderError`) an ``out`` that :func:`atomic_dir` could not replace:
    a file, or a folder holding names that match none of ``owns``. Commands call it before
    their work, so a long run is not lost at the end to a bad ``--out``."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise RunFolderError(f"out={str(out)!r} is a file, not a folder: choose a folder name")
    if owns is None or not out.is_dir():
        return
    patterns = list(owns)
    foreign = sorted(p.name for p in out.iterdir() if not any(fnmatch(p.name, pat) for pat in patterns))
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise RunFolderError(
            f"out={str(out)!r} holds files this command did not write ({shown}); it replaces the whole "
            "folder, so choose a new or empty folder (nothing was changed)"
        )


@contextlib.contextmanager
def atomic_dir(out: Path | str, *, owns: Iterable[str] | None = None, carry: bool = False) -> Iterator[Path]:
    """Yield a temporary sibling of ``out`` to write a run into; swap it in on success.

    Args:
        out: the run folder (created with its parents if missing).
        owns: name patterns (``fnmatch``) of what the command writes; an existing ``out``
            holding anything else is refused before anything is written (it would be lost).
        carry: start the temporary folder as a copy of the old run (for commands that add to
            a run: ``bench report`` writes summaries beside the episodes).

    On an exception the temporary folder is removed and ``out`` is left as it was. The swap
    is two renames (old run aside, new run in), then the old run is deleted: a reader sees
    the old run, briefly no run, or the new run, never a mix.
    """
    out = Path(out)
    check_run_folder(out, owns)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = _sibling(out, "new")
    try:
        if carry and out.is_dir():
            shutil.rmtree(tmp)
            shutil.copytree(out, tmp, symlinks=True)
        yield tmp
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _swap(new: Path, out: Path) -> None:
    """Put folder ``new`` at ``out`` (replacing a folder there)."""
    os.chmod(new, 0o777 & ~_umask())  # mkdtemp's 0700 would make the run private
    if not out.exists():
        os.rename(new, out)
        return
    aside = _sibling(out, "old")
    os.rmdir(aside)
    os.rename(out, aside)
    try:
        os.rename(new, out)
    except BaseException:
        os.rename(aside, out)  # the old run back where it was
        raise
    shutil.rmtree(aside, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_files(*paths: Path | str | None) -> Iterator[list[Path | None]]:
    """Yield a temporary sibling path for each output file (None stays None); on success
    each replaces its file (``os.replace``), only after all are written, so a failure
    leaves every old file as it was and no temporary file behind.

    >>> import tempfile; from pathlib import Path
    >>> d = Path(tempfile.mkdtemp()); _ = (d / "a.yaml").write_text("old")
    >>> try:
    ...     with atomic_files(d / "a.yaml") as (tmp,):
    ...         _ = tmp.write_text("half")
    ...         raise OSError("disk full")
    ... except OSError:
    ...     pass
    >>> (d / "a.yaml").read_text(), sorted(p.name for p in d.iterdir())
    ('old', ['a.yaml'])
    """
    targets = [None if p is None else Path(p) for p in paths]
    temps: list[Path | None] = []
    try:
        for t in targets:
            if t is None:
                temps.append(None)
                continue
            if t.is_dir():
                raise RunFolderError(f"{str(t)!r} is a folder: give a file name")
            t.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f".{t.name}.new-", suffix=t.suffix, dir=t.parent)
            os.close(fd)
            temps.append(Path(name))
        yield temps
        for tmp, t in zip(temps, targets):
            if tmp is not None and t is not None:
                os.chmod(tmp, 0o666 & ~_umask())
                os.replace(tmp, t)
    finally:
        for tmp in temps:
            if tmp is not None and tmp.exists():
                tmp.unlink()
