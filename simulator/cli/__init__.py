"""The ``simulator`` command: one typer app, one module per command group."""

from __future__ import annotations

import typer

from . import replay

app = typer.Typer(
    name="simulator",
    help="kopa-sim: record/replay simulator for Korean public open APIs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
replay.register(app)


def _optional_groups() -> None:
    import importlib

    for module, name in (
        ("record", None),
        ("sandbox", "sandbox"),
        ("vcr", None),
        ("mcp", None),
    ):
        try:
            mod = importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(__name__):
                continue
            raise
        mod.register(app)


_optional_groups()


def main() -> None:
    app()
