"""``simulator sandbox``: the stand-in upstream for recording without the internet."""

from __future__ import annotations

from typing import Annotated

import typer

from .catalog import CatalogOpt, load_tier

sandbox_app = typer.Typer(help="The sandbox: a local stand-in for every catalog endpoint.", no_args_is_help=True)


@sandbox_app.command("serve")
def serve(
    seed: Annotated[int, typer.Option(help="World seed (same seed → same data).")] = 0,
    host: Annotated[str, typer.Option(help="Bind address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8790,
    catalog: CatalogOpt = None,
    edition: Annotated[int, typer.Option(help="World edition: 9 (kopa@v0010, the default: edition 8 with more published fields, the MOIS yearbook services in their head/row envelope, measures of their unit and meaning, the real 22nd-Assembly constituencies), 8 (kopa@v0009: edition 7 with invented names that read like real Korean ones), 7 (kopa@v0008: real listed companies by name and code only), 6 (kopa@v0007), 5 (kopa@v0006's generated tier), 4 (kopa@v0004/v0005), 3 (kopa@v0003) or 2 (kopa@v0001/v0002).")] = 9,
) -> None:
    """Serve the sandbox: GET /{upstream-host}/{path}?{query} with keys sandbox-<platform>."""
    from ..sandbox import create_app
    from ..sandbox.world import EDITIONS
    from ..server.run import run

    if edition not in EDITIONS:
        raise typer.BadParameter(f"unknown world edition {edition}: use one of {', '.join(map(str, EDITIONS))}", param_hint="--edition")
    cat = load_tier(catalog)

    def banner(bound_host: str, bound_port: int) -> None:  # once the socket listens
        typer.echo(
            f"sandbox (seed {seed}, edition {edition}, {len(cat.endpoints)} endpoints) on http://{bound_host}:{bound_port}/ — keys are "
            "sandbox-<platform>",
            err=True,
        )

    run(create_app(seed=seed, catalog=cat, edition=edition), host=host, port=port, on_listening=banner, log_level="warning",
        access_log=False)


def register(app: typer.Typer) -> None:
    app.add_typer(sandbox_app, name="sandbox")
