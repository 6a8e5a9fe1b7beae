"""The ``simulator`` command: one typer app, one module per command group."""

from __future__ import annotations

import typer

from . import audit, mcp, record, replay, sandbox, vcr

__all__ = ["app", "main"]

app = typer.Typer(
    name="simulator",
    help="kopa-sim: record/replay simulator for Korean public open APIs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
replay.register(app)


def _plugin_groups() -> None:
    """Mount command groups other packages declare under the ``kopa_sim.cli`` entry point
    group (``simulator edge …`` from ``edge``), so ``simulator`` never imports them itself."""
    from importlib.metadata import entry_points

    for ep in sorted(entry_points(group="kopa_sim.cli"), key=lambda e: e.name):
        app.add_typer(ep.load(), name=ep.name)


for _module in (record, sandbox, vcr, mcp, audit):
    _module.register(app)
_plugin_groups()


def main() -> None:
    app()
