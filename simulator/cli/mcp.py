"""``simulator mcp``: the catalog's endpoints as MCP tools, answered from a cassette version."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .catalog import CatalogOpt, load_tier
from .common import CassettesOpt, SetOpt, VersionOpt, fail, open_version
from ..vocab import MissPolicy


def mcp(
    transport: Annotated[str, typer.Option(help="stdio or http (streamable HTTP).")] = "stdio",
    host: Annotated[str, typer.Option(help="Bind address for http.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port for http.")] = 8788,
    path: Annotated[str, typer.Option(help="URL path of the MCP endpoint for http.")] = "/mcp",
    cassettes: CassettesOpt = None,
    set_name: SetOpt = "kopa",
    version: VersionOpt = None,
    platform: Annotated[Optional[list[str]], typer.Option(help="Only these platforms' tools.")] = None,
    miss: Annotated[str, typer.Option(help="Miss policy: strict or native.")] = "strict",
    tier: CatalogOpt = None,
) -> None:
    """Serve every catalog endpoint as an MCP tool (keys are never asked of the model)."""
    if transport not in ("stdio", "http"):
        fail(f"--transport={transport!r}: choose stdio or http")
    if miss not in (MissPolicy.STRICT, MissPolicy.NATIVE):
        fail(f"--miss={miss!r}: choose strict or native")
    try:
        from ..server import mcp as mcp_server
    except ModuleNotFoundError as exc:
        from .extras import install_hint

        fail(f"{exc.name} is not installed: {install_hint(exc.name or 'mcp')}")
        return
    from ..resolve import Resolver

    _store, v = open_version(cassettes, set_name, version, announce=True)  # stderr: stdio stays clean
    from .catalog import platform_ids

    cat = load_tier(tier)
    server = mcp_server.build_server(Resolver(v, cat, miss=miss), platforms=platform_ids(cat, platform))  # type: ignore[arg-type]
    if transport == "stdio":
        mcp_server.run_stdio(server)
    else:
        typer.echo(f"MCP (streamable HTTP) for {v.id} on http://{host}:{port}{path}", err=True)
        mcp_server.run_http(server, host=host, port=port, path=path)


def register(app: typer.Typer) -> None:
    app.command()(mcp)
