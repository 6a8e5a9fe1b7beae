"""``simulator bench``: task distribution, runs and reports (typer app ``bench_app``).

Run directly with ``python -m bench.kopa.cli``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

__all__ = ["bench_app"]

bench_app = typer.Typer(help="KOPA-Bench: multi-step tool-calling tasks over the cassettes.",
                        no_args_is_help=True)
console = Console()


def _world(set_name: str, version: Optional[str]):  # type: ignore[no-untyped-def]
    from simulator import Store

    from .env import World

    return World(Store().open(set_name, version))


@bench_app.command("tasks")
def tasks_cmd(
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Version (default: latest)."),
    as_json: bool = typer.Option(False, "--json", help="Print the distribution as JSON."),
) -> None:
    """Validate the tasks, run every gold program and print the task distribution."""
    from .tasks import distribution, gold_run, load_tasks

    tasks = load_tasks()
    world = _world(set_name, version)
    golds = {t.id: gold_run(t, world) for t in tasks}
    dist = distribution(tasks, golds)
    if as_json:
        print(json.dumps(dist, ensure_ascii=False, indent=1))
        return
    tab = Table(title=f"KOPA-Bench tasks on {world.version.id} ({world.content_hash[:12]})")
    tab.add_column("measure")
    tab.add_column("value")
    for key, val in dist.items():
        tab.add_row(key, json.dumps(val, ensure_ascii=False) if isinstance(val, dict) else str(val))
    console.print(tab)


@bench_app.command("run")
def run_cmd(
    agent: str = typer.Option(..., help="oracle | skip-lookup | first-page | first-of-many | openai"),
    out: Path = typer.Option(..., help="Result directory (resumable)."),
    seeds: int = typer.Option(8, help="Samples per task (seeds 0..n-1)."),
    k: int = typer.Option(4, help="k of pass@k."),
    workers: int = typer.Option(8, help="Concurrent episodes (threads)."),
    max_turns: int = typer.Option(24, help="Turn budget per episode."),
    max_calls: int = typer.Option(64, help="Tool-call budget per episode."),
    base_url: Optional[str] = typer.Option(None, help="OpenAI-compatible base URL (…/v1)."),
    model: Optional[str] = typer.Option(None, help="Model name (openai agent)."),
    api_key: Optional[str] = typer.Option(None, help="API key (default $OPENAI_API_KEY)."),
    temperature: float = typer.Option(0.7, help="Sampling temperature (openai agent)."),
    task_ids: Optional[str] = typer.Option(None, "--tasks", help="Comma-separated task ids."),
    heldout: str = typer.Option("nec,lawgokr,tago", help="Held-out platforms (split)."),
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Pinned version (default: latest)."),
) -> None:
    """Run an agent on every task × seed and write results.jsonl, summary.json, summary.md."""
    from .agents import make_agent
    from .report import write_report
    from .runner import RunConfig, run_bench
    from .tasks import load_tasks

    tasks = load_tasks()
    if task_ids:
        wanted = set(task_ids.split(","))
        tasks = [t for t in tasks if t.id in wanted]
    world = _world(set_name, version)
    kwargs = {}
    meta = {}
    if agent == "openai":
        kwargs = {"base_url": base_url, "model": model, "api_key": api_key, "temperature": temperature}
    a = make_agent(agent, **kwargs)
    if agent == "openai":
        meta = {"model": a.model, "base_url": a.base_url}  # type: ignore[attr-defined]
    cfg = RunConfig(seeds=seeds, k=k, max_turns=max_turns, max_calls=max_calls, workers=workers,
                    heldout=tuple(h for h in heldout.split(",") if h))
    t0 = time.perf_counter()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console) as prog:
        bar = prog.add_task(f"{agent}", total=len(tasks) * seeds)

        def tick(done: int, total: int) -> None:
            prog.update(bar, completed=done, total=total)

        run_bench(a, tasks, world, out, cfg, meta=meta, progress=tick)
    summary = write_report(out)
    ov = summary["overall"]
    console.print(f"{agent}: pass@1 {ov['pass@1']:.3f}  pass@{k} {ov.get(f'pass@{k}')}  "
                  f"RESPONSE {ov['response']:.3f}  ACTION {ov['action']:.3f}  "
                  f"ENVIRONMENT {ov['environment']:.3f}  ({time.perf_counter() - t0:.1f}s) → {out}")


@bench_app.command("report")
def report_cmd(out: Path = typer.Argument(..., help="Result directory of a run.")) -> None:
    """Rewrite summary.json / summary.md (and plots) from a run's results.jsonl."""
    from .report import write_report

    try:
        write_report(out)
    except FileNotFoundError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from exc
    console.print((out / "summary.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    bench_app()
