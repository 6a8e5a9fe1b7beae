"""Options shared by every command that reads cassettes."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer

from ..errors import SimulatorError
from ..store import Store, Version

CassettesOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--cassettes",
        metavar="DIR",
        help="Cassette directory (default: $KOPA_CASSETTES, else ./cassettes or your user data "
        "directory, over the cassettes shipped with kopa-sim).",
        show_default=False,
    ),
]
SetOpt = Annotated[str, typer.Option("--set", metavar="NAME", help="Cassette set name.")]
VersionOpt = Annotated[
    Optional[str],
    typer.Option(
        "--version",
        metavar="VERSION",
        help="Version name or content-hash prefix (default: newest).",
        show_default=False,
    ),
]

#: Seconds of silent work after which a command says what it is doing (STYLE: progress on
#: anything that takes more than a second).
NOTICE_AFTER_S = 1.0


@contextmanager
def notice_if_slow(message: str, after: float = NOTICE_AFTER_S) -> Iterator[None]:
    """Print ``message`` to stderr if the block is still running after ``after`` seconds."""
    timer = threading.Timer(after, lambda: typer.echo(message, err=True))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def open_version(cassettes: Path | None, set_name: str, version: str | None) -> tuple[Store, Version]:
    """Open a version for a command; a missing set or version is a one-line error."""
    store = Store(cassettes)
    try:
        m = store.manifest(set_name, version)
        note = (
            f"compiling the index of {m.set}@{m.version} (first use; cached in {store.cache_dir})…"
            if store.needs_compile(m)
            else f"opening {m.set}@{m.version}…"
        )
        with notice_if_slow(note):
            return store, store.open(set_name, m.version)
    except SimulatorError as exc:
        fail(str(exc))


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)
