"""Options shared by every command that reads cassettes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer

from ..errors import SimulatorError
from ..store import Store, Version

CassettesOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--cassettes",
        help="Cassette directory (default: $KOPA_CASSETTES, else the project's cassettes/).",
        show_default=False,
    ),
]
SetOpt = Annotated[str, typer.Option("--set", help="Cassette set name.")]
VersionOpt = Annotated[
    Optional[str],
    typer.Option("--version", help="Version name or content-hash prefix (default: newest).", show_default=False),
]


def open_version(cassettes: Path | None, set_name: str, version: str | None) -> tuple[Store, Version]:
    store = Store(cassettes)
    try:
        return store, store.open(set_name, version)
    except SimulatorError as exc:
        fail(str(exc))


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)
