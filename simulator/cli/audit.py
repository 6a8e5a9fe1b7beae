"""``simulator audit``: scan a published version for anything key-shaped (``simulator.audit``)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from .common import CassettesOpt, SetOpt, fail


def audit(
    version: Annotated[
        Optional[str],
        typer.Argument(
            help="Version name or content-hash prefix (as `verify --version` takes), 'all', or a "
            "version folder such as cassettes/kopa/v0001 (default: the newest version).",
            show_default=False,
        ),
    ] = None,
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    index: Annotated[
        bool, typer.Option("--index/--no-index", help="Also scan the compiled SQLite index when cached.")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Scan a version (manifest, every JSON Lines file, its cached index) for keys; exit 1 if any.

    Findings name the file, the line (or index row) and a masked excerpt: the secret itself
    is never printed.
    """
    from ..audit import AuditReport, audit_dir, audit_version
    from ..catalog import load_catalog
    from ..errors import SimulatorError
    from ..store import Store, read_manifest
    from .progress import StageProgress

    progress = StageProgress("audit")
    store = Store(cassettes)
    catalog = load_catalog()
    reports: list[AuditReport] = []
    # The configured keys are looked for too, in every form (base64, entities, any case …).
    secrets = configured_keys(catalog)
    try:
        if version is not None and (Path(version) / "manifest.json").is_file():
            vdir = Path(version)
            idx = None
            if index:
                try:
                    idx = store.index_path(read_manifest(vdir))
                except SimulatorError:
                    idx = None  # a damaged manifest: the files are still scanned
            with progress:
                reports.append(audit_dir(vdir, catalog, index=idx, secrets=secrets, progress=progress))
        elif version == "all":
            with progress:
                for m in store.versions(set_name):
                    reports.append(audit_version(store, set_name, m.version, catalog, scan_index=index,
                                                 secrets=secrets, progress=progress))
        else:
            try:
                with progress:
                    reports.append(audit_version(store, set_name, version, catalog, scan_index=index,
                                                 secrets=secrets, progress=progress))
            except SimulatorError:
                # A damaged manifest must not hide the files: audit the folder by its name.
                vdir = store.set_dir(set_name) / (version or "")
                if version is None or not (vdir / "manifest.json").is_file():
                    raise
                reports.append(audit_dir(vdir, catalog, target=f"{set_name}@{version}", secrets=secrets))
    except SimulatorError as exc:
        fail(f"{exc}", 2)
    if as_json:
        out = reports[0].to_dict() if len(reports) == 1 else {"versions": [r.to_dict() for r in reports]}
        typer.echo(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        for r in reports:
            typer.echo(r.summary())
            for f in r.findings:
                typer.echo(f"  {f}")
    if any(not r.ok for r in reports):
        typer.echo(
            "fix: a key was written into this version. Do not publish or commit it: delete the "
            "version folder (and its cached index), keep keys only in the KOPA_KEY_* variables, "
            "and record it again",
            err=True,
        )
        raise typer.Exit(1)


def configured_keys(catalog: Any, environ: Mapping[str, str] | None = None) -> list[str]:
    """The key values in the environment: every ``KOPA_KEY_*`` and each platform's ``key_env``."""
    env = os.environ if environ is None else environ
    names = {p.key_env for p in catalog.platforms.values()} | {str(e.opt("key_env")) for e in catalog.endpoints.values() if e.opt("key_env")}
    return sorted({v for k, v in env.items() if (k.startswith("KOPA_KEY_") or k in names) and v})


def register(app: typer.Typer) -> None:
    app.command()(audit)
