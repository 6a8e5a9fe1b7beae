"""``simulator record``: run a recording plan and publish a new version."""

from __future__ import annotations

import functools
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional
from urllib.parse import urlsplit

import typer

from .catalog import CatalogOpt, load_tier
from .common import CassettesOpt, fail

if TYPE_CHECKING:
    from ..record import Recorder


def _record(
    live: Annotated[bool, typer.Option("--live", help="Fetch from the live APIs (or --upstream).")] = False,
    plan: Annotated[Optional[Path], typer.Option(help="Recording plan YAML (default: the shipped plan).")] = None,
    upstream: Annotated[Optional[str], typer.Option(help="Base URL of a stand-in (sandbox) server.")] = None,
    cassettes: CassettesOpt = None,
    set_name: Annotated[Optional[str], typer.Option("--set", help="Cassette set (default: the plan's).")] = None,
    recorded_at: Annotated[Optional[str], typer.Option(help="The version's 'now' (default: the clock).")] = None,
    exact: Annotated[bool, typer.Option(help="Also keep every fetched page byte for byte.")] = False,
    source: Annotated[Optional[str], typer.Option(help="Manifest source (default: sandbox with --upstream, else live).")] = None,
    rate: Annotated[Optional[float], typer.Option(help="Requests per second per platform (overrides the plan).")] = None,
    tier: CatalogOpt = None,
    wait: Annotated[float, typer.Option(help="Seconds to wait for another recorder of the set to finish.")] = 0.0,
) -> None:
    """Record a plan from the live APIs (keys from KOPA_KEY_* variables) into a new version.

    One variable per platform (its ``key_env``); an endpoint whose catalog options name
    their own ``key_env`` (``KOPA_KEY_SEOUL_SUBWAY``) reads that one instead.
    """
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..errors import SimulatorError
    from ..record import LiveClient, Recorder, load_plan
    from ..store import Store
    from ..store.roots import check_writable

    if not live:
        fail("recording touches the network: pass --live (with --upstream URL for a sandbox)")
    if upstream is not None:
        parts = urlsplit(upstream)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            fail(f"--upstream={upstream!r} is not an http(s) URL: pass the sandbox's base URL, "
                 "e.g. --upstream http://127.0.0.1:8790")
    catalog = load_tier(tier)
    console = Console(stderr=True)
    try:
        p = load_plan(plan)
    except SimulatorError as exc:
        fail(str(exc))
    keys: dict[str, str] = {}
    missing = []
    for pid, platform in catalog.platforms.items():
        value = os.environ.get(platform.key_env)
        if value:
            keys[pid] = value
        elif upstream:
            keys[pid] = f"sandbox-{pid}"
        else:
            missing.append(platform.key_env)
    # An endpoint that names its own key_env (the Seoul real-time subway API has its own key
    # and quota pool) gets its own key; without that variable it falls back to the platform's.
    for eid, ep in catalog.endpoints.items():
        own = ep.opt("key_env")
        if not own or own == catalog.platforms[ep.platform].key_env:
            continue
        value = os.environ.get(str(own))
        if value:
            keys[eid] = value
        elif not upstream:
            missing.append(str(own))
    if missing:
        console.print(f"[yellow]no key in: {', '.join(sorted(set(missing)))} — their endpoints will fail[/yellow]")
    rates = dict(p.rate_per_sec)
    if rate is not None:
        rates = {"default": rate}
    client = LiveClient(catalog, keys, upstream=upstream, rate_per_sec=rates,
                        log=lambda m: console.print(f"[dim]{m}[/dim]"))
    src = source or ("sandbox" if upstream else "live")
    now = recorded_at or datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    store = Store(cassettes)
    try:
        check_writable(store.root)
    except SimulatorError as exc:
        fail(str(exc))
    typer.echo(f"recording into {store.roots.describe()}", err=True)  # one line, never wrapped
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed} collections"),
                  TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task("recording", total=None)

        said: list[str] = []

        def progress(done: int, _total: int | None, label: str) -> None:
            bar.update(task, completed=done, description=f"recording {label}")
            # A line per endpoint, terminal or not (a plan's rate limits can hold one for minutes).
            if not said or said[-1] != label:
                said.append(label)
                console.print(f"record: {done:,} collections done; {label}…", markup=False, highlight=False)

        rec: Recorder | None = None
        try:
            rec = Recorder(p, store=store, catalog=catalog, client=client, set_name=set_name,
                           source=src, exact=exact, progress=progress)
            result = rec.run(recorded_at=now, info={"upstream": "sandbox" if upstream else "live"}, wait=wait)
        except SimulatorError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            fail(_interrupted(rec), code=130)
        finally:
            client.close()
    m = result.manifest
    console.print(
        ("published" if result.published else "nothing new to publish: already in")
        + f" [bold]{m.set}@{m.version}[/bold] ({m.content_hash[:12]}): "
        f"{result.collections} collections, {result.calls} calls"
        + (f", resumed {result.resumed} from checkpoint" if result.resumed else "")
    )
    for w in result.warnings[:20]:
        console.print(f"[yellow]warning:[/yellow] {w}")
    if result.fidelity:
        console.print("query fidelity: " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(result.fidelity.items())))
    if result.drift is not None:
        typer.echo(result.drift.to_markdown())


@functools.wraps(_record)
def record(*args: Any, **kwargs: Any) -> None:
    try:
        _record(*args, **kwargs)
    except KeyboardInterrupt:  # before the recorder started (loading the catalog, the plan)
        fail(_interrupted(None), code=130)


def register(app: typer.Typer) -> None:
    app.command(name="record")(record)


def _interrupted(rec: Recorder | None) -> str:
    """The line a Ctrl-C leaves: nothing published, what the checkpoint kept, how to resume."""
    if rec is None or not rec.checkpoint.exists():
        return "interrupted: nothing was published; run the same command again to start over"
    return (f"interrupted: nothing was published; {len(rec.done)} collections are checkpointed in "
            f"{rec.checkpoint_dir}; run the same command again to resume")
