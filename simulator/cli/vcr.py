"""``simulator vcr``: import vcrpy cassettes as a version, export a version as a vcrpy cassette."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import CassettesOpt, SetOpt, VersionOpt, fail, open_version

vcr_app = typer.Typer(help="vcrpy cassettes ↔ kopa-sim versions.", no_args_is_help=True)


@vcr_app.command("import")
def import_(
    files: Annotated[list[Path], typer.Argument(help="vcrpy YAML cassettes.", exists=True, dir_okay=False)],
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    parent: Annotated[
        Optional[str], typer.Option(help="Start from this version ('latest' by default; 'none' for empty).")
    ] = "latest",
    name: Annotated[Optional[str], typer.Option("--name", help="Name of the new version.")] = None,
    secret_env: Annotated[
        Optional[list[str]],
        typer.Option("--secret-env", help="Variable holding a key to mask in bodies (repeatable)."),
    ] = None,
    keep_pages: Annotated[
        bool, typer.Option(help="Also keep the pages folded into a collection as exact interactions.")
    ] = False,
) -> None:
    """Import cassettes: every complete set of pages as a collection, everything else exact."""
    import os

    from ..catalog import load_catalog
    from ..errors import SimulatorError
    from ..store import Store
    from ..vcr import import_vcr

    secrets = [os.environ.get(v, "") for v in secret_env or []]
    try:
        m = import_vcr(
            files,
            Store(cassettes),
            set_name,
            load_catalog(),
            parent=None if parent in (None, "none") else parent,
            secrets=secrets,
            version=name,
            keep_pages=keep_pages,
        )
    except SimulatorError as exc:
        fail(str(exc))
        return
    info = m.info
    typer.echo(
        f"published {m.set}@{m.version} ({m.content_hash[:12]}): "
        f"{info.get('interactions_imported', 0)} interactions, "
        f"{len(info.get('collections_added', []))} collections "
        f"({info.get('pages_folded', 0)} pages folded into them)"
    )
    for key in info.get("collections_incomplete", []):
        typer.echo(f"  incomplete (exact only): {key}", err=True)
    # The new version's name depends on what the set already holds (the next free one): say
    # it, and how tests pin it, rather than let the docs guess it.
    store = Store(cassettes)
    typer.echo(
        f"  parent: {m.parent or 'none'}; in {str(store.version_dir(m.set, m.version))!r}\n"
        f"  pin it in tests: @pytest.mark.kopa(version={m.version!r}) or --kopa-version {m.version} "
        f"(serve and unpinned tests take the newest; bench, edge and train keep the newest shipped "
        f"version unless --version {m.version})"
    )


@vcr_app.command("export")
def export(
    out: Annotated[Path, typer.Argument(help="The vcrpy YAML cassette to write.", dir_okay=False)],
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    version: VersionOpt = None,
    collections: Annotated[bool, typer.Option(help="Write the pages of every collection.")] = True,
    max_pages: Annotated[int, typer.Option(help="At most this many pages per collection.")] = 200,
) -> None:
    """Export a version as a vcrpy cassette; replay it with simulator.vcr.kopa_vcr_config()."""
    from ..catalog import load_catalog
    from ..vcr import export_vcr

    _store, v = open_version(cassettes, set_name, version, announce=True)
    r = export_vcr(v, load_catalog(), out, include_collections=collections, max_pages=max_pages)
    typer.echo(
        f"wrote {r.interactions} interactions ({r.exact} exact, {r.collection_pages} collection "
        f"pages) of {v.id} to {out}"
    )
    for key in r.truncated:
        typer.echo(f"  truncated at {max_pages} pages: {key}", err=True)


def register(app: typer.Typer) -> None:
    app.add_typer(vcr_app, name="vcr")
