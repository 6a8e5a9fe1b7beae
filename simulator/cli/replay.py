"""Replay commands: serve, versions, inspect, verify, diff, fidelity, tools."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .catalog import CatalogOpt, catalog_tier, load_tier
from .common import CassettesOpt, SetOpt, VersionOpt, fail, open_version, table_console
from ..vocab import MissPolicy


def serve(
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    version: VersionOpt = None,
    host: Annotated[str, typer.Option(help="Bind address (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8787,
    workers: Annotated[int, typer.Option(help="uvicorn worker processes.")] = 1,
    miss: Annotated[str, typer.Option(help="Miss policy: strict or native.")] = "strict",
    fault_seed: Annotated[Optional[int], typer.Option(help="Turn on seeded faults with this seed.")] = None,
    fault_rate: Annotated[float, typer.Option(help="Fraction of calls that get a fault.")] = 0.1,
    http: Annotated[str, typer.Option(help="HTTP parser: auto (httptools when installed), h11 or httptools.")] = "auto",
    loop: Annotated[str, typer.Option(help="Event loop: auto (uvloop when installed), asyncio or uvloop.")] = "auto",
    tier: CatalogOpt = None,
    ignore_param: Annotated[
        Optional[list[str]],
        typer.Option("--ignore-param", help="Never match on this query parameter (repeatable; like mitmproxy's --replay-ignore-param)."),
    ] = None,
) -> None:
    """Serve a cassette version over HTTP: GET /{upstream-host}/{path}?{query}.

    Parameters an endpoint does not use are ignored (as the real API ignores them) and named
    in the ``x-sim-ignored`` header; ``--ignore-param NAME`` ignores more.
    """
    import importlib.util

    if workers < 1:
        fail(f"--workers={workers}: serve with 1 or more worker processes")
    store, v = open_version(cassettes, set_name, version)
    # Which version and why (the newest, shipped or not; --version): said in the banner, the
    # first line a started server prints (a refused start stays one error line).
    _m, why = store.choose(set_name, v.manifest.version if version else None)
    if miss not in (MissPolicy.STRICT, MissPolicy.NATIVE):
        fail(f"--miss={miss!r}: choose strict or native")
    for opt, val, choices in (("http", http, ("auto", "h11", "httptools")), ("loop", loop, ("auto", "asyncio", "uvloop"))):
        if val not in choices:
            fail(f"--{opt}={val!r}: choose {', '.join(choices)}")
        if val in ("httptools", "uvloop") and importlib.util.find_spec(val) is None:
            fail(f"--{opt}={val} is not installed: pip install 'kopa-sim[fast]'")

    def banner(bound_host: str, bound_port: int) -> None:
        typer.echo(
            f"serving {why}; on http://{bound_host}:{bound_port}/  "
            f"— try: curl 'http://{bound_host}:{bound_port}/_sim/collections'",
            err=True,
        )

    from functools import partial

    from ..server.factory import ServeConfig, build_app
    from ..server.run import run

    config = ServeConfig(
        # None for the default search path: each worker resolves the same roots again.
        root=None if cassettes is None else str(store.root),
        cache=str(store.cache_dir),
        set_name=set_name,
        version=v.manifest.version,
        miss=miss,  # type: ignore[arg-type]  # checked above
        fault_seed=fault_seed,
        fault_rate=fault_rate,
        catalog=catalog_tier(tier),
        ignore_params=tuple(ignore_param or ()),
    )
    run(
        partial(build_app, config),
        factory=True,
        host=host,
        port=port,
        workers=workers,
        http=http,
        loop=loop,
        on_listening=banner,
        log_level="warning",
        access_log=False,
        server_header=False,
        date_header=False,
    )


def versions(cassettes: CassettesOpt = None, set_name: SetOpt = "kopa") -> None:
    """List the versions of a cassette set, oldest first."""
    from rich.table import Table

    from ..store import Store

    store = Store(cassettes)
    try:
        ms = store.versions(set_name)
    except Exception as exc:  # noqa: BLE001
        fail(str(exc))
    t = Table("version", "parent", "recorded at", "source", "content hash", "endpoints", "records", "in")
    for m in ms:
        # Versions of a read-only root (the shipped set) say so; the others where they live.
        own = store.version_dir(set_name, m.version).parent.parent == store.root
        t.add_row(
            m.version,
            m.parent or "-",
            m.recorded_at,
            m.source,
            m.content_hash[:12],
            str(len(m.endpoints)),
            str(sum(c.records for c in m.endpoints.values())),
            store.roots.origin if own else "shipped (read-only)",
        )
    table_console().print(t)


def inspect(
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    version: VersionOpt = None,
    endpoint: Annotated[Optional[str], typer.Option(help="Only this endpoint.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show a version: manifest, per-endpoint counts, collections."""
    _store, v = open_version(cassettes, set_name, version)
    if endpoint is not None and endpoint not in v.manifest.endpoints:
        from ..hints import did_you_mean

        near = did_you_mean(endpoint, list(v.manifest.endpoints))
        hint = f"did you mean {near!r}? " if near else ""
        fail(f"--endpoint={endpoint!r} is not recorded in {v.id}; {hint}`simulator inspect` lists its endpoints")
    colls = v.collections(endpoint)
    if as_json:
        out = {
            "manifest": v.manifest.model_dump(exclude={"files"}),
            "collections": [
                {"key": c.key, "endpoint": c.endpoint, "records": c.count, "total": c.total}
                for c in colls
            ],
        }
        typer.echo(json.dumps(out, ensure_ascii=False, indent=1))
        return
    from rich.table import Table

    m = v.manifest
    console = table_console()
    console.print(
        f"[bold]{v.id}[/bold]  content {m.content_hash}\n"
        f"parent {m.parent or '-'}  recorded_at {m.recorded_at}  source {m.source}"
    )
    t = Table("endpoint", "interactions", "collections", "records")
    for ep, c in m.endpoints.items():
        if endpoint is None or ep == endpoint:
            t.add_row(ep, str(c.interactions), str(c.collections), str(c.records))
    console.print(t)
    if endpoint:
        ct = Table("collection", "records", "total")
        for c in colls:
            ct.add_row(c.key, str(c.count), str(c.total))
        console.print(ct)


def verify(
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    version: VersionOpt = None,
) -> None:
    """Check every file's sha256 against the manifest; name any damaged file."""
    from ..store import Store

    store = Store(cassettes)
    try:
        names = [m.version for m in store.versions(set_name)] if version == "all" else [
            store.manifest(set_name, version).version
        ]
    except Exception as exc:  # noqa: BLE001
        fail(str(exc))
    bad: list[str] = []
    for name in names:
        problems = store.verify(set_name, name)
        if problems:
            bad.append(name)
            typer.echo(f"{set_name}@{name}: DAMAGED")
            for p in problems:
                typer.echo(f"  {p}")
        else:
            typer.echo(f"{set_name}@{name}: ok")
    if bad:
        from ..store.roots import repair_hint

        for name in bad:
            typer.echo(f"fix {set_name}@{name}: {repair_hint(store.version_dir(set_name, name))}", err=True)
        raise typer.Exit(1)


def diff(
    a: Annotated[str, typer.Argument(help="Old version.")],
    b: Annotated[str, typer.Argument(help="New version.")],
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Drift from version A to version B (progress on stderr; the report on stdout)."""
    from ..catalog import load_catalog
    from ..store.diff import diff_versions
    from .progress import StageProgress

    with StageProgress("diff") as progress:
        progress.say(f"opening {set_name}@{a} and {set_name}@{b} (a first open compiles each index)…")
        _s, va = open_version(cassettes, set_name, a)
        _s, vb = open_version(cassettes, set_name, b)
        d = diff_versions(va, vb, load_catalog(), progress=progress)
    typer.echo(json.dumps(d.to_dict(), ensure_ascii=False, indent=1) if as_json else d.to_markdown())


def fidelity(
    file: Annotated[Path, typer.Argument(help="A raw native response body.", exists=True, dir_okay=False)],
    request: Annotated[str, typer.Option("--request", help="The request URL it answered.")],
    status: Annotated[int, typer.Option(help="Its HTTP status.")] = 200,
    show: Annotated[bool, typer.Option(help="Print the rendering.")] = False,
) -> None:
    """Parse a recorded native body and render it back; exit 0 when equivalent."""
    from ..catalog import load_catalog
    from ..errors import SimulatorError
    from ..fidelity import check_fidelity

    try:
        result = check_fidelity(load_catalog(), request, file.read_bytes(), status=status)
    except SimulatorError as exc:
        fail(str(exc), 2)
    if show:
        sys.stdout.buffer.write(result.rendered + b"\n")
    if result.ok:
        typer.echo(f"ok: {result.endpoint} ({result.fmt}, {result.outcome}) renders back equivalent")
        return
    typer.echo(f"DIFFERENT: {result.endpoint} ({result.fmt}, {result.outcome})")
    for d in result.differences:
        typer.echo(f"  {d}")
    raise typer.Exit(1)


def tools(
    fmt: Annotated[str, typer.Option("--format", help="openai or mcp.")] = "openai",
    platform: Annotated[Optional[list[str]], typer.Option(help="Only these platforms.")] = None,
    out: Annotated[Optional[Path], typer.Option(help="Write to this file.")] = None,
    catalog: CatalogOpt = None,
) -> None:
    """Write the catalog's tool schemas (OpenAI function calling, or MCP tools)."""
    from .catalog import platform_ids

    cat = load_tier(catalog)
    schemas = cat.tools(platforms=platform_ids(cat, platform))
    if fmt == "mcp":
        data: object = [
            {
                "name": s["function"]["name"],
                "description": s["function"]["description"],
                "inputSchema": s["function"]["parameters"],
            }
            for s in schemas
        ]
    elif fmt == "openai":
        data = schemas
    else:
        fail(f"--format={fmt!r}: choose openai or mcp")
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
        typer.echo(f"wrote {len(schemas)} tools to {out}", err=True)
    else:
        typer.echo(text)


def register(app: typer.Typer) -> None:
    app.command()(serve)
    app.command()(versions)
    app.command()(inspect)
    app.command()(verify)
    app.command()(diff)
    app.command()(fidelity)
    app.command()(tools)
