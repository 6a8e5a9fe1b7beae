"""``simulator bench``: task distribution, runs and reports (typer app ``bench_app``).

Run directly with ``python -m bench.kopa.cli``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Optional

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

__all__ = ["bench_app"]

bench_app = typer.Typer(help="KOPA-Bench: multi-step tool-calling tasks over the cassettes.",
                        no_args_is_help=True)
console = Console()


def _cassettes_option() -> Optional[Path]:
    return typer.Option(None, "--cassettes", metavar="DIR", show_default=False,
                        help="Cassette directory (default: $KOPA_CASSETTES, else ./cassettes or your "
                             "user data directory, over the shipped cassettes).")


def _world(set_name: str, version: Optional[str], cassettes: Optional[Path] = None):  # type: ignore[no-untyped-def]
    """The version a bench command runs on: ``--version``, else the newest *shipped* one up to
    :data:`bench.kopa.BENCH_VERSION` (``kopa@v0008``: the finance tasks name its invented
    companies), said on stderr first (``using kopa@v0008 (…): …``)."""
    from simulator.cli.common import open_version

    from . import bench_version
    from .env import World

    return World(open_version(cassettes, set_name, bench_version(version, set_name, cassettes), shipped=True,
                              announce=True)[1])


@bench_app.command("tasks")
def tasks_cmd(
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Version (default: the newest shipped one)."),
    as_json: bool = typer.Option(False, "--json", help="Print the distribution as JSON."),
    cassettes: Optional[Path] = _cassettes_option(),
) -> None:
    """Validate the tasks, run every gold program and print the task distribution."""
    from .runner import world_of
    from .tasks import distribution, gold_run, load_tasks, shape_rules

    tasks = load_tasks()
    world = _world(set_name, version, cassettes)
    golds = {t.id: gold_run(t, world) for t in tasks}
    dist = distribution(tasks, golds)
    rules = shape_rules(dist)
    wld = world_of(world.version)
    if as_json:
        print(json.dumps({**dist, "world": wld, "rules": {r: ok for r, ok in rules}}, ensure_ascii=False, indent=1))
        if not all(ok for _r, ok in rules):
            raise typer.Exit(1)
        return
    tab = Table(title=f"KOPA-Bench tasks on {world.version.id} ({world.content_hash[:12]}), world: {wld}")
    tab.add_column("measure")
    tab.add_column("value")
    for key, val in dist.items():
        tab.add_row(key, json.dumps(val, ensure_ascii=False) if isinstance(val, dict) else str(val))
    console.print(tab)
    for rule, ok in rules:
        console.print(("[green]ok[/green]   " if ok else "[red]FAIL[/red] ") + rule)
    if not all(ok for _r, ok in rules):
        raise typer.Exit(1)


@bench_app.command("validate")
def validate_cmd(
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Version (default: the newest shipped one)."),
    rules: Optional[str] = typer.Option(None, help="Comma-separated rules (default: all)."),
    as_json: bool = typer.Option(False, "--json", help="Print the findings as JSON."),
) -> None:
    """Check every task is a valid measurement (no-tool baseline, record shuffles, ambiguity,
    leaks, page sizes, shortcuts, wording); exit 1 on any finding."""
    from .tasks import load_tasks
    from .validate import RULES, validate

    wanted = [r for r in (rules or "").split(",") if r] or None
    bad = sorted(set(wanted or []) - set(RULES))
    if bad:
        typer.echo(f"error: --rules {','.join(bad)} unknown; choose from {', '.join(RULES)}", err=True)
        raise typer.Exit(2)
    tasks = load_tasks()
    findings = validate(tasks, _world(set_name, version), rules=wanted)
    if as_json:
        print(json.dumps([f.to_json() for f in findings], ensure_ascii=False, indent=1))
    else:
        for f in findings:
            console.print(f"[red]{f.rule}[/red] {f.task}: {f.detail}", highlight=False)
        console.print(f"{len(findings)} findings over {len(tasks)} tasks "
                      f"({len({f.task for f in findings})} tasks affected)")
    if findings:
        raise typer.Exit(1)


_STAT_COLS = ("tasks", "calls_mean", "calls_max", "parallel_pct", "chained_multi_pct", "junction_median",
              "junction_max", "needs_all_pages", "genuine_all_pages", "needs_chain_pct", "cross_platform_pct", "heldout_tasks")


#: Short headings of the console tables (``bench stats``), and how the columns split in two.
_STAT_SHORT = {"tasks": "tasks", "calls_mean": "calls", "calls_max": "max", "parallel_pct": "par%",
               "chained_multi_pct": "multi%", "junction_median": "j.med", "junction_max": "j.max",
               "needs_all_pages": "pages", "genuine_all_pages": "genuine", "needs_chain_pct": "chain%",
               "cross_platform_pct": "cross%",
               "heldout_tasks": "held"}
_STAT_PARTS = (("tasks", "calls_mean", "calls_max", "parallel_pct", "cross_platform_pct", "heldout_tasks"),
               ("chained_multi_pct", "junction_median", "junction_max", "needs_all_pages", "genuine_all_pages",
                "needs_chain_pct"))


def _stats_markdown(st: dict, rows: list) -> str:  # type: ignore[type-arg]
    lines = ["| group | " + " | ".join(_STAT_COLS) + " |", "|---" * (len(_STAT_COLS) + 1) + "|"]
    groups = [("all", st["overall"])] + [(f"platform {k}", v) for k, v in st["by_platform"].items()] + \
        [(f"domain {k}", v) for k, v in st["by_domain"].items()]
    for name, m in groups:
        lines.append(f"| {name} | " + " | ".join(str(m.get(c, "")) for c in _STAT_COLS) + " |")
    lines += ["", "| measure | paper | ours | target met |", "|---|---|---|---|"]
    lines += [f"| {r['measure']} | {r['paper']} | {r['ours']} | {'yes' if r['meets'] else 'no'} |" for r in rows]
    lines += ["", f"Measured on `{st['version']}`, world: {st['world']}{_WORLD_NOTE.get(st['world'][:9], '')}"]
    return "\n".join(lines)


#: What a synthetic world's figures are (issue 27: every place that shows results says so).
_WORLD_NOTE = {"synthetic": " (invented values in real wire formats; not comparable with the live APIs)."}


@bench_app.command("stats")
def stats_cmd(
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Version (default: the newest shipped one)."),
    heldout: str = typer.Option("nec,lawgokr,tago", help="Held-out platforms (the split)."),
    as_json: bool = typer.Option(False, "--json", help="Print the measures as JSON."),
    markdown: bool = typer.Option(False, "--markdown", help="Print Markdown tables (docs/bench.md)."),
) -> None:
    """The task set's difficulty (calls, parallelism, junction cardinality, pages, platforms),
    overall, per platform and per domain, set against the paper's figures."""
    from .stats import bench_stats, paper_rows
    from .tasks import load_tasks

    st = bench_stats(load_tasks(), _world(set_name, version), tuple(h for h in heldout.split(",") if h))
    rows = paper_rows(st["overall"])
    if as_json:
        print(json.dumps({**st, "paper": rows}, ensure_ascii=False, indent=1))
        return
    if markdown:
        print(_stats_markdown(st, rows))
        return
    # Two tables of short headings, so the measures read at 80 columns (the JSON keys: --json).
    sections = [[("all", st["overall"])], [(f"{p}", m) for p, m in st["by_platform"].items()],
                [(f"{d} (domain)", m) for d, m in st["by_domain"].items()]]
    console.print(f"KOPA-Bench difficulty on {st['version']} ({st['content_hash'][:12]}), world: {st['world']}",
                  highlight=False)
    for part in _STAT_PARTS:
        tab = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        tab.add_column("group", no_wrap=True)
        for c in part:
            tab.add_column(_STAT_SHORT[c], justify="right", no_wrap=True)
        for rows_ in sections:
            for name, m in rows_:
                tab.add_row(name, *(str(m.get(c, "")) for c in part))
            tab.add_section()
        console.print(tab)
    console.print("  ".join(f"{_STAT_SHORT[c]} = {c}" for c in _STAT_COLS[1:]), highlight=False)
    cmp_tab = Table(title="Against the paper")
    for c in ("measure", "paper", "ours", "target met"):
        cmp_tab.add_column(c)
    for r in rows:
        cmp_tab.add_row(r["measure"], r["paper"], str(r["ours"]), "[green]yes[/green]" if r["meets"] else "[red]no[/red]")
    console.print(cmp_tab)


def _run_audit(edge: Path, heldout: tuple[str, ...], near_threshold: float = 0.5,  # type: ignore[no-untyped-def]
               cassettes: Optional[Path] = None):
    from simulator import Store

    from .audit import AuditError, audit
    from .tasks import load_tasks

    try:
        return audit(load_tasks(), edge, heldout=heldout, near_threshold=near_threshold,
                     store=Store(root=cassettes) if cassettes is not None else None)
    except AuditError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


@bench_app.command("audit")
def audit_cmd(
    edge: Path = typer.Option(..., "--edge", help="Output directory of `simulator edge synthesize`."),
    heldout: str = typer.Option("nec,lawgokr,tago", help="Held-out platforms (the bench split)."),
    near_threshold: float = typer.Option(0.5, help="Shingle Jaccard at which questions are near-verbatim."),
    out: Optional[Path] = typer.Option(None, help="Write the audit JSON to this file."),
    as_json: bool = typer.Option(False, "--json", help="Print the audit as JSON."),
    fail_on_overlap: bool = typer.Option(False, "--fail-on-overlap",
                                         help="Exit 1 on shared or near-verbatim questions, held-out edges "
                                              "in the EDGE train split, or examples making a bench gold call "
                                              "or showing a bench gold record set."),
    max_jaccard: Optional[float] = typer.Option(None, help="With --fail-on-overlap: also fail above this "
                                                           "overall edge Jaccard."),
    cassettes: Optional[Path] = typer.Option(None, "--cassettes", help="Cassette directory holding the version the "
                                             "EDGE examples were made on (default: the default store)."),
) -> None:
    """Contamination check against an EDGE dataset: edge Jaccard, (near-)verbatim questions, and
    examples making a bench gold call or showing a bench gold record set."""
    from .audit import overlap_failures

    result = _run_audit(edge, tuple(h for h in heldout.split(",") if h), near_threshold, cassettes)
    text = json.dumps(result, ensure_ascii=False, indent=1)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text + "\n", encoding="utf-8")
    if as_json:
        print(text)
    else:
        info = result["edge_dataset"]
        tab = Table(title=f"KOPA-Bench × EDGE {info['dir']} ({info['examples']} examples, "
                          f"sha256 {info['sha256'][:12]})")
        tab.add_column("bench × EDGE split", no_wrap=True)
        for col in ("tasks", "examples", "edges b/s/shared", "Jaccard", "verbatim",
                    "near-verbatim"):
            tab.add_column(col)
        for name, m in result["splits"].items():
            tab.add_row(name, str(m["tasks"]), str(m["examples"]),
                        f"{m['edges_bench']}/{m['edges_synth']}/{m['edges_shared']}", f"{m['edge_jaccard']:.4f}",
                        str(len(m["verbatim_tasks"])), str(len(m["near_verbatim_tasks"])))
        console.print(tab)
        d = result["diversity"]

        def row(m: dict[str, float]) -> str:
            return "/".join(f"{m[f'distinct_{n}']:.3f}" for n in (1, 2, 3, 4))

        console.print(f"distinct-1..4 at {d['size']} questions each: EDGE {row(d['edge'])}, bench "
                      f"{row(d['bench'])} ({'EDGE at least the bench at every n' if d['edge_at_least_bench'] else 'EDGE below the bench at some n'})")
        c = result["content"]
        if "skipped" in c:
            console.print(f"content: {c['skipped']}", highlight=False)
        else:
            for key, n, what in (("gold_call_examples", c["examples_making_gold_call"], "make a bench gold call"),
                                 ("gold_record_examples", c["examples_showing_gold_records"],
                                  "show a bench gold record set")):
                ids = list(c[key])
                console.print(f"content: {n} examples {what}" + (f": {', '.join(ids[:10])}"
                                                                  + (" …" if n > 10 else "") if ids else ""),
                              highlight=False)
    if fail_on_overlap:
        why = overlap_failures(result, max_jaccard)
        for w in why:
            typer.echo(f"overlap: {w}", err=True)
        if why:
            raise typer.Exit(1)


@bench_app.command("export-tasks")
def export_tasks_cmd(out: Path = typer.Argument(..., help="JSONL file to write.")) -> None:
    """Write the tasks as JSONL for EDGE's own audit (`simulator edge synthesize --tasks FILE`)."""
    from .audit import export_tasks
    from .tasks import load_tasks

    n = export_tasks(load_tasks(), out)
    console.print(f"{n} tasks → {out}")


@bench_app.command("run")
def run_cmd(
    agent: str = typer.Option(..., help="oracle | skip-lookup | first-page | first-of-many | openai"),
    out: Path = typer.Option(..., help="Result directory (resumable)."),
    seeds: int = typer.Option(8, help="Samples per task (seeds 0..n-1)."),
    k: int = typer.Option(4, help="k of pass@k."),
    workers: Optional[int] = typer.Option(None, help="Concurrent episodes (threads); default 8 for the openai agent (episodes wait on HTTP), 1 for scripted agents (CPU-bound: threads only add GIL contention).", show_default=False),
    max_turns: int = typer.Option(24, help="Turn budget per episode."),
    max_calls: int = typer.Option(64, help="Tool-call budget per episode."),
    base_url: Optional[str] = typer.Option(None, help="OpenAI-compatible base URL (…/v1)."),
    model: Optional[str] = typer.Option(None, help="Model name (openai agent)."),
    api_key: Optional[str] = typer.Option(None, help="API key (default $OPENAI_API_KEY)."),
    temperature: float = typer.Option(0.7, help="Sampling temperature (openai agent)."),
    max_tokens: int = typer.Option(2048, "--max-tokens", help="Most tokens per completion (openai agent); "
                                   "raise it for models that think before they answer, 0 to send none."),
    tools: str = typer.Option("search", "--tools", help="Tools the openai agent sees: search (every "
                                                     "catalog tool through a search_tools retrieval step), "
                                                     "all (every tool listed in each request) "
                                                     "or platform (only the task's platforms: an ablation)."),
    task_ids: Optional[str] = typer.Option(None, "--tasks", help="Comma-separated task ids."),
    judge_base_url: Optional[str] = typer.Option(None, "--judge-base-url", help="OpenAI-compatible base URL "
                                                 "(…/v1) of an LLM judge graded beside the deterministic "
                                                 "checker (recorded, never scored)."),
    judge_model: Optional[str] = typer.Option(None, "--judge-model", help="The judge's model name."),
    heldout: str = typer.Option("nec,lawgokr,tago", help="Held-out platforms (split)."),
    set_name: str = typer.Option("kopa", "--set", help="Cassette set."),
    version: Optional[str] = typer.Option(None, help="Pinned version (default: the newest shipped one)."),
    edge: Optional[Path] = typer.Option(None, "--edge", help="EDGE dataset to audit against (recorded in the run)."),
    cassettes: Optional[Path] = _cassettes_option(),
) -> None:
    """Run an agent on every task × seed and write results.jsonl, summary.json, summary.md."""
    from .agents import TOOL_SCOPES, ModelEndpointError, make_agent
    from .report import write_report
    from .runner import RunConfig, load_results, run_bench
    from .tasks import load_tasks

    if seeds < 1:
        typer.echo(f"error: --seeds {seeds}: run at least one seed per task (--seeds 1 or more)", err=True)
        raise typer.Exit(2)
    if not 1 <= k <= seeds:
        typer.echo(f"error: --k {k}: pass@k needs 1 ≤ k ≤ --seeds ({seeds}); raise --seeds or lower --k", err=True)
        raise typer.Exit(2)
    if workers is not None and workers < 1:
        typer.echo(f"error: --workers {workers}: use 1 or more", err=True)
        raise typer.Exit(2)
    tasks = load_tasks()
    if task_ids:
        wanted = set(task_ids.split(","))
        unknown = sorted(wanted - {t.id for t in tasks})
        if unknown:
            typer.echo(f"error: --tasks: no task {', '.join(unknown)}; `simulator bench tasks --json` lists the ids", err=True)
            raise typer.Exit(2)
        tasks = [t for t in tasks if t.id in wanted]
    kwargs = {}
    meta = {}
    if agent == "openai":
        if tools not in TOOL_SCOPES:
            typer.echo(f"error: --tools {tools!r}; use search, all or platform", err=True)
            raise typer.Exit(2)
        if max_tokens < 0:
            typer.echo(f"error: --max-tokens {max_tokens}: use a positive number (or 0 to send none)", err=True)
            raise typer.Exit(2)
        kwargs = {"base_url": base_url, "model": model, "api_key": api_key, "temperature": temperature,
                  "tool_scope": tools, "max_tokens": max_tokens or None}
    try:
        a = make_agent(agent, **kwargs)
    except ValueError as exc:  # an unknown agent, or the openai agent without --base-url/--model
        typer.echo(f"error: --agent {agent!r}: {exc}", err=True)
        raise typer.Exit(2) from None
    if agent == "openai":
        meta = {"model": a.model, "base_url": a.base_url, "tools": tools,  # type: ignore[attr-defined]
                "max_tokens": max_tokens or None}
        try:
            a.check()  # type: ignore[attr-defined]
        except ConnectionError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
    judge = None
    if judge_base_url or judge_model:
        if not (judge_base_url and judge_model):
            typer.echo("error: an LLM judge needs both --judge-base-url and --judge-model", err=True)
            raise typer.Exit(2)
        from .judge import LLMJudge

        judge = LLMJudge(judge_base_url, judge_model, api_key)
        meta["judge_model"], meta["judge_base_url"] = judge.model, judge_base_url
    world = _world(set_name, version, cassettes)  # after the arguments: a bad one is the only line
    if workers is None:
        workers = 8 if agent == "openai" else 1
    cfg = RunConfig(seeds=seeds, k=k, max_turns=max_turns, max_calls=max_calls, workers=workers,
                    heldout=tuple(h for h in heldout.split(",") if h))
    if edge is not None:
        from .report import save_audit

        meta["edge_audit"] = save_audit(out, _run_audit(edge, cfg.heldout))
    t0 = time.perf_counter()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console) as prog:
        bar = prog.add_task(f"{agent}", total=len(tasks) * seeds)

        def tick(done: int, total: int) -> None:
            prog.update(bar, completed=done, total=total)

        try:
            run_bench(a, tasks, world, out, cfg, meta=meta, progress=tick, judge=judge)
        except ModelEndpointError as exc:
            getattr(a, "close", lambda: None)()
            getattr(judge, "close", lambda: None)()
            prog.stop()
            done = len(load_results(out))
            typer.echo(f"error: {exc}; no episode was stored for it ({done} finished episodes kept in {out}: "
                       "rerun the same command to run the rest)", err=True)
            raise typer.Exit(1) from None
    getattr(a, "close", lambda: None)()
    getattr(judge, "close", lambda: None)()
    summary = write_report(out)
    ov = summary["overall"]
    passk = "" if k == 1 else f"  pass@{k} {ov.get(f'pass@{k}')}"
    console.print(f"{agent}: pass@1 {ov['pass@1']:.3f}{passk}  "
                  f"RESPONSE {ov['response']:.3f}  ACTION {ov['action']:.3f}  "
                  f"ENVIRONMENT {ov['environment']:.3f}  ({time.perf_counter() - t0:.1f}s) → {out}")
    console.print(f"world: {summary['world']}", markup=False, highlight=False)


@bench_app.command("report")
def report_cmd(
    out: Path = typer.Argument(..., help="Result directory of a run."),
    edge: Optional[Path] = typer.Option(None, "--edge", help="EDGE dataset to audit against (saved as audit.json)."),
) -> None:
    """Rewrite summary.json / summary.md (and plots) from a run's results.jsonl."""
    from .report import save_audit, write_report
    from .runner import DEFAULT_HELDOUT, META

    if edge is not None:
        meta_path = out / META
        meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
        heldout = tuple(meta.get("heldout", DEFAULT_HELDOUT))
        meta["edge_audit"] = save_audit(out, _run_audit(edge, heldout))
        if meta_path.exists():
            meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
    try:
        write_report(out)
    except FileNotFoundError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from exc
    # Plain text: summary.md holds `pip install 'kopa-sim[plots]'`, which markup would eat.
    console.print((out / "summary.md").read_text(encoding="utf-8"), markup=False, highlight=False)


if __name__ == "__main__":
    bench_app()
