"""``edge`` commands: ``graph`` (propose, verify, label, save) and ``report``.

Mounted as ``simulator edge`` by the simulator CLI; runnable alone as ``python -m edge.cli``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from simulator import SimulatorError, Store, atomic_dir, check_run_folder

from .build import build_graph, reverify, summarize
from .catalog import EDGE_TIER as EDGE_CATALOG, edge_catalog
from .errors import EdgeError
from .graph import EdgeGraph, GraphError
from .render import render_picture
from .verify import VerifyConfig

__all__ = ["edge_app", "format_report"]

edge_app = typer.Typer(
    name="edge",
    help="EDGE: propose tool dependencies, verify them by execution, label cardinality.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

GRAPH_FILE = "graph.json"
#: What ``edge graph`` (and ``edge report`` into its folder) writes: the folder is replaced whole.
GRAPH_FILES = (GRAPH_FILE, "report.json", "graph.dot", "graph.png")
#: What ``edge synthesize`` writes: the folder is replaced whole.
SYNTH_FILES = ("examples.jsonl", "conversations.jsonl", "trl.jsonl", "verl.parquet", "verl.jsonl", "report.json")

#: The one default catalog of ``edge graph``, ``edge report`` and ``edge synthesize``, so a graph
#: built with no flag loads in ``synthesize --graph`` with no flag: the curated tier plus the
#: generated tools the platform intents chain through (:mod:`edge.catalog`: FSC's company
#: outline, the name → OpenDART ``corp_code`` lookup; docs/synthesis.md, *The default catalog*).
EDGE_TIER = EDGE_CATALOG

CatalogOpt = Annotated[Optional[str], typer.Option(
    "--catalog", help=f"Catalog: {EDGE_TIER} (the curated tier + the generated tools EDGE's intents use), "
    f"curated, full or all (default: $KOPA_CATALOG, else {EDGE_TIER}; the same for edge graph, report and "
    "synthesize).", show_default=False)]


def load_tier(tier: str | None) -> Any:
    """The catalog of ``tier``: ``--catalog``, else ``$KOPA_CATALOG``, else ``EDGE_TIER``
    (the simulator CLI's rule with EDGE's default; imported late: it mounts us)."""
    from simulator.cli.catalog import catalog_tier, load_tier as load

    if (tier or os.environ.get("KOPA_CATALOG") or EDGE_TIER) == EDGE_TIER:
        return edge_catalog()
    return load(catalog_tier(tier))


def open_research_version(cassettes: Path | None, set_name: str, version: str | None) -> tuple[Store, Any]:
    """The version an EDGE command runs on: ``--version``, else the newest *shipped* one (so
    results never depend on what was published last), said on stderr first (``using …``)."""
    from simulator.cli.common import open_version

    return open_version(cassettes, set_name, version, shipped=True, announce=True)


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(1)


@edge_app.command("graph")
def graph_cmd(
    seed: Annotated[int, typer.Option("--seed", help="Seed of the Thompson sampling (same seed, same graph).")] = 0,
    out: Annotated[Path, typer.Option("--out", help="Directory to write graph.json into.")] = Path("edge-out"),
    cassettes: Annotated[Optional[Path], typer.Option("--cassettes", help="Cassette directory.", show_default=False)] = None,
    set_name: Annotated[str, typer.Option("--set", help="Cassette set name.")] = "kopa",
    version: Annotated[Optional[str], typer.Option("--version", help="Version (default: the newest shipped one).", show_default=False)] = None,
    proposer: Annotated[str, typer.Option("--proposer", help="offline or llm.")] = "offline",
    base_url: Annotated[Optional[str], typer.Option("--base-url", help="OpenAI-compatible base URL (llm).", show_default=False)] = None,
    model: Annotated[Optional[str], typer.Option("--model", help="Model name (llm).", show_default=False)] = None,
    iterations: Annotated[int, typer.Option("--iterations", help="Verification iterations.")] = 40,
    paths: Annotated[int, typer.Option("--paths", help="Sampled paths per iteration (at least).")] = 25,
    paths_per_edge: Annotated[float, typer.Option("--paths-per-edge", min=0.0, help="Paths grow to this many per testable edge over all iterations (0: --paths only).")] = 1.0,
    from_dir: Annotated[Optional[Path], typer.Option("--from", help="Re-verify this earlier graph incrementally instead of proposing anew.", show_default=False)] = None,
    live: Annotated[bool, typer.Option("--live", help="Execute against the live APIs (keys from KOPA_KEY_*) and record what it calls into a new version.")] = False,
    upstream: Annotated[Optional[str], typer.Option("--upstream", help="With --live: a stand-in server (the sandbox) instead of the real hosts.", show_default=False)] = None,
    catalog_tier: CatalogOpt = None,
) -> None:
    """Build (or re-verify) the EDGE graph on a cassette version; offline by default."""
    try:
        check_run_folder(out, GRAPH_FILES)
    except SimulatorError as exc:
        _fail(str(exc))
    catalog = load_tier(catalog_tier)
    store, v = open_research_version(cassettes, set_name, version)
    if proposer not in ("offline", "llm"):
        raise typer.BadParameter(f"proposer={proposer!r}; use offline or llm", param_hint="--proposer")
    cfg = VerifyConfig(iterations=iterations, paths_per_iteration=paths, paths_per_edge=paths_per_edge)
    executor, builder, client = None, None, None
    if live:
        executor, builder, client = _live(catalog, store, set_name, upstream)
    try:
        if from_dir is not None:
            try:
                g = EdgeGraph.load(from_dir / GRAPH_FILE, catalog)
            except GraphError as exc:
                _fail(str(exc))
            res = reverify(g, v, catalog, seed=seed, executor=executor)
        else:
            prop: Any = None
            if proposer == "llm":
                from .proposers import LLMProposer

                try:
                    prop = LLMProposer(base_url=base_url, model=model)
                except ValueError as exc:
                    raise typer.BadParameter(str(exc), param_hint="--base-url/--model") from None
            res = build_graph(v, catalog, seed=seed, proposer=prop, config=cfg, executor=executor)
    finally:
        if client is not None:
            client.close()
    try:
        with atomic_dir(out, owns=GRAPH_FILES) as tmp:
            res.graph.save(tmp / GRAPH_FILE, res.obs)
    except SimulatorError as exc:
        _fail(str(exc))
    path = out / GRAPH_FILE
    if builder is not None and builder.interactions:
        m = builder.publish(recorded_at=_now(), source="sandbox" if upstream else "live",
                            info={"by": "edge graph --live"})
        typer.echo(f"recorded {len(builder.interactions)} calls into {m.set}@{m.version}")
    typer.echo(format_report(res.graph.meta["stats"]))
    typer.echo(f"wrote {path} ({res.calls} calls)")


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _live(catalog: Any, store: Store, set_name: str, upstream: str | None) -> tuple[Any, Any, Any]:
    from simulator import VersionBuilder
    from simulator.record import LiveClient, key_env_of

    from .verify import LiveExecutor

    keys = {}
    for ep in catalog.endpoints.values():
        val = os.environ.get(key_env_of(catalog, ep))
        if val:
            keys[ep.id if ep.opt("key_env") else ep.platform] = val
    client = LiveClient(catalog, keys, upstream=upstream)
    builder = VersionBuilder(store, set_name, catalog, parent="latest", secrets=sorted(set(keys.values())))
    return LiveExecutor(client, builder), builder, client


def format_report(stats: dict[str, Any]) -> str:
    """The summary lines of a graph's stats."""
    e, b, a, p = stats["edges"], stats["before"], stats["after"], stats["pruned"]

    def pct(x: Any) -> str:
        return "n/a" if x is None else f"{100 * x:.1f}%"

    return "\n".join([
        f"edges: {e['proposed']} proposed, {e['verified']} verified, {e['unverified']} unverified "
        f"({e.get('untestable', 0)} not executed: nothing recorded answers them; the rest only misses), "
        f"{e['pruned']} pruned; {stats['cross_platform_verified']} verified cross-platform",
        f"executable links before verification: {pct(b['executable_share'])} of {b['tested']} tested "
        f"(call success {pct(b['execution_rate'])})",
        f"executable links after verification:  {pct(a['executable_share'])} of {a['tested']} tested "
        f"(call success {pct(a['execution_rate'])})",
        f"pruned: {p['count']}, never succeeded {pct(p['never_succeeded_share'])}, call success {pct(p['execution_rate'])}",
        "cardinality: " + (", ".join(f"{k} {v}" for k, v in stats["cardinality"].items()) or "none"),
        f"trials: {json.dumps(stats['trials'])}",
    ])


@edge_app.command("report")
def report_cmd(
    directory: Annotated[Path, typer.Argument(help="A directory written by `edge graph`.")],
    catalog_tier: CatalogOpt = None,
) -> None:
    """Counts, executable-link rates, pruned-edge statistics, cardinality histogram, a picture."""
    catalog = load_tier(catalog_tier)
    try:
        g = EdgeGraph.load(directory / GRAPH_FILE, catalog)
    except GraphError as exc:
        _fail(str(exc))
    stats = summarize(g)
    typer.echo(format_report(stats))
    with atomic_dir(directory, carry=True) as tmp:  # report and picture land together
        (tmp / "report.json").write_text(json.dumps(stats, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        pic = directory / render_picture(g, tmp).name
    typer.echo(f"wrote {pic} and {directory / 'report.json'}")


@edge_app.command("synthesize")
def synthesize_cmd(
    n: Annotated[int, typer.Option("--n", min=1, help="Examples wanted.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed (same seed + same version = same bytes).")] = 0,
    out: Annotated[Path, typer.Option("--out", help="Directory for the dataset files.")] = Path("synth-out"),
    graph: Annotated[Optional[Path], typer.Option("--graph", help="A directory written by `edge graph` (default: build one).", show_default=False)] = None,
    cassettes: Annotated[Optional[Path], typer.Option("--cassettes", help="Cassette directory.", show_default=False)] = None,
    set_name: Annotated[str, typer.Option("--set", help="Cassette set name.")] = "kopa",
    version: Annotated[Optional[str], typer.Option("--version", help="Version (default: the newest shipped one).", show_default=False)] = None,
    holdout: Annotated[str, typer.Option("--holdout", help="Comma-separated platforms held out as the heldout split.")] = "",
    tasks: Annotated[Optional[Path], typer.Option("--tasks", help="Benchmark tasks JSONL (rows with gold_program) for the overlap audit.", show_default=False)] = None,
    paraphrase_url: Annotated[Optional[str], typer.Option("--paraphrase-base-url", help="OpenAI-compatible URL (…/v1): paraphrase the questions; a rewrite that breaks a question rule is rejected and the template kept (off by default; key from $OPENAI_API_KEY).", show_default=False)] = None,
    paraphrase_model: Annotated[Optional[str], typer.Option("--paraphrase-model", help="Model for --paraphrase-base-url.", show_default=False)] = None,
    catalog_tier: CatalogOpt = None,
    allow_bench_entities: Annotated[bool, typer.Option("--allow-bench-entities", help="Keep examples that use KOPA-Bench's entities (held out by default).")] = False,
    allow_bench_edges: Annotated[bool, typer.Option("--allow-bench-edges", help="Keep examples whose chains pass a value along a tool-to-tool edge a KOPA-Bench gold program uses (the default while bench gold calls and records are held out).")] = False,
    hold_out_bench_edges: Annotated[bool, typer.Option("--hold-out-bench-edges", help="Drop every example whose chain passes a value along a tool-to-tool edge a KOPA-Bench gold program uses (the default only with --allow-bench-gold); the edge Jaccard with the bench is then 0.0.")] = False,
    allow_bench_gold: Annotated[bool, typer.Option("--allow-bench-gold", help="Keep examples that make a call a KOPA-Bench gold program makes or show a record a bench gold is computed from (held out by default).")] = False,
    ray_address: Annotated[Optional[str], typer.Option("--ray", help="Run the shards on the Ray cluster at ADDRESS ('local' starts one); same bytes as --shards K without it.", show_default=False)] = None,
    shards: Annotated[Optional[int], typer.Option("--shards", min=1, help="Shards of the work (default: 4; with --ray, the cluster's CPUs). The same shard count gives the same bytes with or without --ray.", show_default=False)] = None,
    ray_cpus: Annotated[Optional[int], typer.Option("--ray-cpus", min=1, help="With --ray local: CPUs of the local instance (default: this machine's).", show_default=False)] = None,
    store: Annotated[Optional[str], typer.Option("--store", help="With --ray: the cassette root as every worker sees it, a path or file:// URI (default: the driver's; on a multi-node cluster, a shared filesystem).", show_default=False)] = None,
) -> None:
    """Synthesize executable multi-step examples from the verified graph; write the datasets."""
    if allow_bench_edges and hold_out_bench_edges:
        _fail("--allow-bench-edges and --hold-out-bench-edges contradict each other; pass one of them")
    edges_allowed: bool | None = True if allow_bench_edges else False if hold_out_bench_edges else None
    allow_bench_edges = edges_allowed if edges_allowed is not None else not allow_bench_gold
    try:
        check_run_folder(out, SYNTH_FILES)  # before minutes of work, not after
    except SimulatorError as exc:
        _fail(str(exc))
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from .synth import SynthConfig, audit, split_by_platform, synthesize, write_all
    from .synth.splits import bench_entities, entity_overlap

    if paraphrase_url and not paraphrase_model:  # before the synthesis, not after it
        raise typer.BadParameter("give --paraphrase-model too", param_hint="--paraphrase-model")
    if (ray_cpus is not None or store is not None) and not ray_address:
        raise typer.BadParameter("--ray-cpus and --store are for a Ray run: add --ray local (or --ray ADDRESS)",
                                 param_hint="--ray")
    if ray_cpus is not None and ray_address != "local":
        raise typer.BadParameter("--ray-cpus sizes a local instance: use it with --ray local", param_hint="--ray-cpus")
    if store is not None:
        from .synth.distributed import store_path

        try:
            store_path(store)
        except EdgeError as exc:
            raise typer.BadParameter(str(exc), param_hint="--store") from None
    catalog = load_tier(catalog_tier)
    _store, v = open_research_version(cassettes, set_name, version)
    console = Console(stderr=True)
    if graph is not None:
        try:
            g = EdgeGraph.load(graph / GRAPH_FILE, catalog)
        except GraphError as exc:
            _fail(str(exc))
        obs = None
    else:
        console.print("building the EDGE graph (no --graph given)...")
        res0 = build_graph(v, catalog, seed=seed)
        g, obs = res0.graph, res0.obs
    with Progress(TextColumn("synthesizing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=False) as prog:
        task = prog.add_task("synth", total=n)
        try:
            res = synthesize(v, catalog, g, n=n, seed=seed, obs=obs, allow_bench_entities=allow_bench_entities,
                             allow_bench_edges=allow_bench_edges, allow_bench_gold=allow_bench_gold,
                             config=SynthConfig(shards=shards),
                             ray_address=ray_address, ray_cpus=ray_cpus, ray_store=store,
                             progress=lambda done, want: prog.update(task, completed=min(done, n), total=n))
        except (ImportError, EdgeError) as exc:  # no ray; a Ray worker that cannot open --store
            _fail(str(exc))
    if paraphrase_url:
        from .synth.pipeline import summarize_examples
        from .synth.paraphrase import paraphrase_examples

        console.print(f"paraphrasing {len(res.examples)} questions through {paraphrase_url}...")
        try:
            res.report["paraphrase"] = paraphrase_examples(
                res.examples, v, catalog, base_url=paraphrase_url, model=str(paraphrase_model),
                api_key=os.environ.get("OPENAI_API_KEY"))
        except ConnectionError as exc:
            _fail(f"--paraphrase-base-url: {exc} (nothing written)")
        res.report["summary"] = summarize_examples(res.examples)
        pr = res.report["paraphrase"]
        typer.echo(f"paraphrase: {pr['used']} used, {pr['rejected']} rejected (template kept)"
                   + (": " + ", ".join(f"{k} {x}" for k, x in pr["rejected_by_rule"].items()) if pr["rejected"] else ""))
    hold = [h.strip() for h in holdout.split(",") if h.strip()]
    splits = split_by_platform(res.examples, hold)
    res.report["splits"] = {"holdout": hold, **{k: len(x) for k, x in splits.items()}}
    res.report["audit"] = audit(res.examples, tasks)
    res.report["audit"]["bench_entities"] = entity_overlap(res.examples, bench_entities())
    try:
        with atomic_dir(out, owns=SYNTH_FILES) as tmp:
            paths = {k: out / p.name for k, p in write_all(res.examples, tmp, v, catalog, res.report).items()}
    except SimulatorError as exc:
        _fail(str(exc))
    s = res.report["summary"]
    table = Table(title=f"{len(res.examples)} examples ({res.report['attempts']} attempts)")
    table.add_column("dimension")
    table.add_column("distribution")
    for dim in ("junction", "platforms", "domains", "lengths", "cardinality", "diversity"):
        table.add_row(dim, ", ".join(f"{k} {x}" for k, x in s[dim].items()))
    table.add_row("templates · calls/example", f"{s['templates']} · {s['calls_per_example']}")
    table.add_row("filters removed", ", ".join(f"{k} {x}" for k, x in res.report["filters"].items()))
    miss = s["missing"]
    table.add_row("missing", "; ".join(f"{k}: {', '.join(x)}" for k, x in miss.items() if x) or "none")
    table.add_row("world", v.manifest.world)  # also in report.json: synthetic (sandbox) on the shipped cassettes
    Console().print(table)
    if "skipped" in res.report["audit"]:
        typer.echo(f"audit: {res.report['audit']['skipped']}")
    else:
        typer.echo(f"audit: edge Jaccard {res.report['audit']['edge_jaccard']}, "
                   f"verbatim questions {len(res.report['audit']['verbatim_questions'])}")
    ents = res.report["audit"]["bench_entities"]
    typer.echo(f"bench entities: {ents['examples_with_bench_entities']} examples use them"
               + (" (--allow-bench-entities)" if allow_bench_entities else " (held out)"))
    typer.echo("bench edges: kept (bench gold calls and records are held out instead; --hold-out-bench-edges drops them)"
               if allow_bench_edges else
               f"bench edges: held out ({res.report['filters'].get('bench_edge', 0)} drafts used one)")
    bg = res.report["filters"]
    typer.echo("bench gold calls and records: kept (--allow-bench-gold)" if allow_bench_gold else
               f"bench gold calls and records: held out ({bg.get('bench_gold_call', 0)} drafts made a gold call, "
               f"{bg.get('bench_gold_records', 0)} showed gold records)")
    typer.echo("wrote " + ", ".join(str(p) for p in paths.values()))


if __name__ == "__main__":
    edge_app()
