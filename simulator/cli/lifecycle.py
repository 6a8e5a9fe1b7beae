"""``simulator checkout``/``publish`` (edit a version as a new one), ``simulator rm``,
``simulator prune``, ``simulator compact``, ``simulator cache clean``: a set's versions over
time (``simulator.store.lifecycle``, ``simulator.store.edit``, ``simulator.store.compact``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Optional, TypeVar

import typer

from .common import CassettesOpt, SetOpt, fail

T = TypeVar("T")
WaitOpt = Annotated[float, typer.Option(help="Seconds to wait for a recorder or publisher of the set.")]


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def _call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``; a simulator error is a one-line message and exit 1."""
    from ..errors import SimulatorError

    try:
        return fn(*args, **kwargs)
    except SimulatorError as exc:
        fail(str(exc))


def rm(
    version: Annotated[str, typer.Argument(help="Version to remove (name or content-hash prefix).")],
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    wait: WaitOpt = 0.0,
) -> None:
    """Remove one version; bytes other versions share with it are kept."""
    from ..store import Store
    from ..store.lifecycle import remove_version

    out = _call(remove_version, Store(cassettes), set_name, version, wait=wait)
    typer.echo(f"removed {set_name}@{out.versions[0]}: freed {_mb(out.freed_bytes)}"
               + (f", kept {out.kept_blobs} shared file(s) for other versions" if out.kept_blobs else ""))


def prune(
    keep: Annotated[int, typer.Option("--keep", help="How many of the newest versions to keep.")],
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    wait: WaitOpt = 0.0,
) -> None:
    """Remove all but the newest KEEP versions; what those read is kept."""
    from ..store import Store
    from ..store.lifecycle import prune as prune_set

    out = _call(prune_set, Store(cassettes), set_name, keep, wait=wait)
    gone = ", ".join(out.versions) or "nothing"
    typer.echo(f"pruned {set_name} to {keep}: removed {gone}; freed {_mb(out.freed_bytes)}")


def compact(
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    codec: Annotated[str, typer.Option(help="gz (default) or xz (a quarter smaller on the shipped set, 2-3x slower to decode).")] = "gz",
    wait: WaitOpt = 0.0,
) -> None:
    """Compress a set's stored files in place (format 3); every version keeps its hash."""
    from ..store import Store
    from ..store.compact import compact as compact_set

    store = Store(cassettes)
    out = _call(compact_set, store, set_name, codec="." + codec.lstrip("."), wait=wait)
    typer.echo(f"compacted {set_name} in {str(store.set_dir(set_name))!r}: {len(out.versions)} version(s) now "
               f"format 3, {out.compressed} file(s) compressed; {_mb(out.bytes_before)} -> {_mb(out.bytes_after)}; "
               "every content hash unchanged")


cache_app = typer.Typer(help="The compiled-index cache ($KOPA_CACHE).", no_args_is_help=True)


@cache_app.command("clean")
def cache_clean(
    cassettes: CassettesOpt = None,
    everything: Annotated[bool, typer.Option("--all", help="Remove every index (rebuilt at the next open).")] = False,
) -> None:
    """Remove compiled indexes no version uses (or all of them with --all)."""
    from ..store import Store
    from ..store.lifecycle import clean_cache

    store = Store(cassettes)
    out = _call(clean_cache, store, everything=everything)
    typer.echo(f"removed {len(out.files)} file(s) from {str(store.cache_dir / 'index')!r}: freed {_mb(out.freed_bytes)}")


def checkout(
    version: Annotated[str, typer.Argument(help="Version to edit (name, content-hash prefix or 'latest').")],
    dest: Annotated[Path, typer.Argument(help="New folder to write its JSON Lines into.")],
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
) -> None:
    """Write a version's JSON Lines into DEST to edit them (then `simulator publish DEST`)."""
    from ..store import Store
    from ..store.edit import checkout as checkout_version

    m = _call(checkout_version, Store(cassettes), set_name, version, dest)
    typer.echo(f"checked out {m.set}@{m.version} into {str(dest)!r}: edit its .jsonl files, then "
               f"`simulator publish {dest}`")


def publish(
    src: Annotated[Path, typer.Argument(help="A folder made by `simulator checkout`.")],
    cassettes: CassettesOpt = None,
    recorded_at: Annotated[Optional[str], typer.Option(help="The new version's 'now' (default: the parent's).")] = None,
) -> None:
    """Publish an edited checkout as a new version (its parent: the checked-out version)."""
    from ..catalog import load_catalog
    from ..store import Store
    from ..store.edit import publish_edit
    from .audit import configured_keys

    catalog = load_catalog()
    m, new = _call(publish_edit, Store(cassettes), src, catalog, recorded_at=recorded_at,
                   secrets=configured_keys(catalog))
    if new:
        typer.echo(f"published {m.set}@{m.version} ({m.content_hash[:12]}), parent {m.parent}")
    else:
        typer.echo(f"nothing new to publish: {m.set}@{m.version} already holds this content")


def register(app: typer.Typer) -> None:
    app.command()(checkout)
    app.command()(publish)
    app.command()(rm)
    app.command()(prune)
    app.command()(compact)
    app.add_typer(cache_app, name="cache")
