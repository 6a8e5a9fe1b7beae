"""Options shared by every command that reads cassettes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Optional

import typer

from ..errors import SimulatorError
from ..store import Manifest, Store, Version

if TYPE_CHECKING:
    from rich.console import Console

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

#: Text size from which compiling an index takes about a second or more (≈ 10 MB/s on one
#: core): such an open says what it is doing first (STYLE: progress on anything over 1 s).
NOTICE_BYTES = 4 << 20


def _text_bytes(store: Store, m: Manifest) -> int:
    """Bytes of text (decoded) of a version's own files."""
    from ..store.objects import decoded_size, stored_path

    vdir = store.version_dir(m.set, m.version)
    found = [stored_path(vdir / rel) for rel in m.files if rel not in m.segments]
    return sum(decoded_size(p) for p in found if p is not None)


def open_version(
    cassettes: Path | None, set_name: str, version: str | None, *, shipped: bool = False, announce: bool = False
) -> tuple[Store, Version]:
    """Open a version for a command; a missing set or version is a one-line error.

    Without ``version``, the newest (``shipped``: the newest shipped one, the research
    commands' default; ``Store.choose``). ``announce`` says which version and why on stderr
    first (``using kopa@v0006 (5dbc35694252): the newest shipped version``), so a user's own
    import or recording never becomes the default silently. A first open of a large version
    compiles its index: that is said on stderr too.
    """
    store = Store(cassettes)
    try:
        m, line = store.choose(set_name, version, shipped=shipped)
        if announce:
            typer.echo(f"using {line}", err=True)
        if store.needs_compile(m) and (size := _text_bytes(store, m)) >= NOTICE_BYTES:
            typer.echo(
                f"compiling the index of {m.set}@{m.version} ({size / 2**20:.0f} MB of text; "
                f"first use, cached in {store.cache_dir})…",
                err=True,
            )
        return store, store.open(set_name, m.version)
    except SimulatorError as exc:
        fail(str(exc))


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def table_console() -> Console:
    """A rich console for tables on stdout: the terminal's width on a TTY, unlimited otherwise.

    Rich assumes 80 columns when stdout is a pipe or a file, which would fold or cut long
    cells (paths, hashes); piped output keeps every cell whole instead.
    """
    import sys

    from rich.console import Console

    if sys.stdout.isatty():
        return Console()
    return Console(width=100_000, no_color=True, soft_wrap=True)
