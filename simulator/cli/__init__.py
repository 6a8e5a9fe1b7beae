"""The ``simulator`` command: one typer app, one module per command group."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Optional

import typer
import typer.main

from . import audit, catalog, lifecycle, mcp, record, replay, sandbox, vcr

__all__ = ["app", "main"]

app = typer.Typer(
    name="simulator",
    help="kopa-sim: record/replay simulator for Korean public open APIs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _show_version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"kopa-sim {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        Optional[bool],
        typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """kopa-sim: record/replay simulator for Korean public open APIs."""


replay.register(app)


def _plugin_groups(argv: list[str]) -> None:
    """Mount command groups other packages declare under the ``kopa_sim.cli`` entry point
    group (``simulator edge …`` from ``edge``), so ``simulator`` never imports them itself.

    A process started for one of simulator's own commands (``simulator serve``) skips them:
    loading them imports EDGE, KOPA-Bench and GRPO code, a fifth of ``serve``'s start.
    """
    from importlib.metadata import entry_points

    own = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    own |= {g.name or "" for g in app.registered_groups}
    if len(argv) > 1 and argv[1] in own:
        return
    for ep in sorted(entry_points(group="kopa_sim.cli"), key=lambda e: e.name):
        app.add_typer(ep.load(), name=ep.name)


for _module in (record, sandbox, vcr, mcp, audit, catalog, lifecycle):
    _module.register(app)
_plugin_groups(sys.argv)


#: Help-text names for value types, as click writes them (typer writes ``<str>``, ``<int>``).
_METAVARS = {"str": "TEXT", "int": "INTEGER", "float": "FLOAT", "Path": "PATH", "bool": ""}


def _readable_metavars(command: Any) -> Any:
    """Give every option of ``command`` (and its subcommands) a metavar that reads well:
    nothing beside a flag (typer prints ``<bool>``), click's ``TEXT``/``INTEGER``/``PATH``
    beside a value, unless the option names its own (``--cassettes DIR``)."""
    params = list(getattr(command, "params", ()))
    context_class = getattr(command, "context_class", None)
    if context_class is not None and hasattr(command, "get_help_option"):
        # ``--help`` is made (and kept) on first use, outside ``params``: make it now.
        params.append(command.get_help_option(context_class(command, info_name=command.name)))
    for param in params:
        if param is None or getattr(param, "param_type_name", "") != "option":
            continue
        if param.metavar is not None:
            continue
        if getattr(param, "is_flag", False):
            param.metavar = ""
            continue
        bare = param.bare_type() if hasattr(param, "bare_type") else ""
        inner = bare[5:-1] if bare.startswith("list[") else bare
        if inner in _METAVARS:
            param.metavar = _METAVARS[inner]
    for sub in getattr(command, "commands", {}).values():
        _readable_metavars(sub)
    return command


def _command_words(argv: list[str]) -> str:
    """``simulator bench run`` for ``argv`` (the words before the first option)."""
    words = ["simulator"]
    for a in argv[1:]:
        if a.startswith("-"):
            break
        words.append(a)
        if len(words) == 3:
            break
    return " ".join(words)


def main() -> None:
    """The console script: a missing extra or cassette set, or an operating-system error (a full
    disk, a read-only folder) is one ``error:`` line, exit 1."""
    import os

    from ..errors import SimulatorError
    from ..store.oserrors import os_error_message
    from .extras import install_hint, missing_module

    try:
        # click answers a Ctrl-C inside a command with "Aborted!" and a broken pipe quietly.
        _readable_metavars(typer.main.get_command(app))()
    except KeyboardInterrupt:  # while the commands are built, before click runs one
        typer.echo("error: interrupted", err=True)
        sys.exit(130)
    except OSError as exc:  # a full disk, a read-only or unreadable path: name it and the fix
        typer.echo(f"error: {os_error_message(exc, 'finish `' + _command_words(sys.argv) + '`', os.getcwd())}",
                   err=True)
        sys.exit(1)
    except (ImportError, RuntimeError) as exc:
        # Libraries such as TRL wrap a missing dependency in their own RuntimeError.
        missing = missing_module(exc)
        if missing is None:
            raise
        typer.echo(f"error: {missing} is not installed: {install_hint(missing)}", err=True)
        sys.exit(1)
    except SimulatorError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(1)
