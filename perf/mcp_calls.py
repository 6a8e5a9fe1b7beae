"""MCP tool calls per second through ``simulator mcp`` (stdio), vs in-process and an MCP floor.

Three ways to answer the same tool calls, side by side:

* **kopa-sim over MCP** — the ``mcp`` client (``ClientSession`` over ``stdio_client``) driving
  ``python -m simulator mcp --cassettes cassettes`` (the shipped version), one call in flight
  and ``--concurrency`` calls in flight on the one session;
* **MCP floor** — the same SDK stack (``mcp.server.lowlevel.Server`` over stdio) with one tool
  that answers fixed text of the same mean size: what the protocol itself costs;
* **in process** — ``simulator.server.mcp.call_tool(resolver, name, args)`` with no transport.

The calls are page windows of the shipped collections (every endpoint with a collection of
20+ records; its recorded filters as arguments, a random page of 10 where the endpoint pages),
each checked once in process (no error, answered from the store) before timing; an error
answer through MCP fails the run.

Run it (writes ``results/mcp_calls.json`` and the mcp_calls section of ``RESULTS.md``)::

    python -m perf.mcp_calls            # full run: 8 s per measure, about a minute
    python -m perf.mcp_calls --quick    # 1 s per measure (CI smoke)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from perf._common import base_parser, machine, now_utc, percentile, preserved_env, write_results

__all__ = ["FULL", "QUICK", "Config", "main", "render_markdown", "run"]

NAME = "mcp_calls"
ROOT = Path(__file__).resolve().parents[1]
CASSETTES = ROOT / "cassettes"
FLOOR_TOOL = "static"


@dataclass(frozen=True)
class Config:
    """One run's shape.

    Args:
        mode: ``full`` or ``quick``.
        duration_s: seconds each timed measure runs.
        concurrency: calls in flight on one session for the concurrent measure.
        calls: distinct tool calls in the mix (sampled uniformly while timing).
        seed: seeds the mix and the sampling.
    """

    mode: str
    duration_s: float = 8.0
    concurrency: int = 8
    calls: int = 300
    seed: int = 20260101


FULL = Config(mode="full")
QUICK = Config(mode="quick", duration_s=1.0, calls=40)


# ---- the calls ---------------------------------------------------------------------------
def tool_calls(resolver: Any, n: int, rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """Up to ``n`` tool calls over the shipped collections that answer without error."""
    from simulator.server.mcp import call_tool

    cat = resolver.catalog
    candidates: list[tuple[str, dict[str, Any]]] = []
    for info in resolver.version.collections():
        ep = cat.endpoints.get(info.endpoint)
        if ep is None or info.count < 20:
            continue
        allowed = {p.name for p in ep.params if p.role not in ("auth", "format")}
        if not set(info.filters) <= allowed:
            continue
        page = ep.params_with_role("page")
        size = ep.params_with_role("page_size")
        for _ in range(10):
            args: dict[str, Any] = dict(info.filters)
            if page and size:
                args[size[0].name] = 10
                args[page[0].name] = rng.randrange(1, max(1, info.count // 10) + 1)
            candidates.append((ep.id, args))
    rng.shuffle(candidates)
    out = []
    for name, args in candidates:
        res = call_tool(resolver, name, args)
        if not res.error and res.source in ("exact", "window", "query"):
            out.append((name, args))
        if len(out) >= n:
            break
    if not out:
        raise RuntimeError("no tool call over the shipped collections answered without error")
    return out


# ---- the floor server --------------------------------------------------------------------
def _floor_server_main(text_bytes: int) -> int:
    """An MCP server (same SDK, stdio) whose one tool answers fixed text."""
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    text = "x-sim-source: window  status: 200\n" + "x" * max(0, text_bytes - 34)
    tool = types.Tool(name=FLOOR_TOOL, description="fixed answer",
                      input_schema={"type": "object", "properties": {}})

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def on_call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(text=text)], is_error=False)

    server: Server[Any] = Server("floor", on_list_tools=on_list_tools, on_call_tool=on_call_tool)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
    return 0


# ---- timing ------------------------------------------------------------------------------
async def _drive(params: Any, calls: list[tuple[str, dict[str, Any]]], cfg: Config,
                 errlog: Path) -> dict[str, Any]:
    """Start a session; time one-in-flight then ``concurrency``-in-flight calls."""
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    out: dict[str, Any] = {}
    with open(errlog, "w") as err:
        t0 = time.perf_counter()
        async with stdio_client(params, errlog=err) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                listed = await session.list_tools()
                out["startup_s"] = time.perf_counter() - t0
                out["tools"] = len(listed.tools)
                for name, args in calls[: min(20, len(calls))]:  # warm-up, checked
                    r = await session.call_tool(name, args)
                    if r.is_error:
                        raise RuntimeError(f"{name}({args}) answered an error: {r.content}")
                for label, conc in (("sequential", 1), ("concurrent", cfg.concurrency)):
                    lat: list[float] = []
                    errors = 0
                    stop = time.perf_counter() + cfg.duration_s

                    async def worker(k: int) -> None:
                        nonlocal errors
                        rng = random.Random(cfg.seed + k)
                        while time.perf_counter() < stop:
                            name, args = rng.choice(calls)
                            t1 = time.perf_counter()
                            r = await session.call_tool(name, args)
                            lat.append(time.perf_counter() - t1)
                            errors += bool(r.is_error)

                    t1 = time.perf_counter()
                    async with anyio.create_task_group() as tg:
                        for k in range(conc):
                            tg.start_soon(worker, k)
                    elapsed = time.perf_counter() - t1
                    if errors:
                        raise RuntimeError(f"{errors} error answers during the {label} measure")
                    lat.sort()
                    n = len(lat)
                    out[label] = {
                        "in_flight": conc, "calls": n, "duration_s": elapsed,
                        "calls_per_s": n / elapsed, "p50_ms": percentile(lat, 0.5) * 1e3,
                        "p99_ms": percentile(lat, 0.99) * 1e3,
                    }
    return out


def time_mcp(kind: str, calls: list[tuple[str, dict[str, Any]]], cfg: Config, work: Path,
             text_bytes: int) -> dict[str, Any]:
    import anyio
    from mcp import StdioServerParameters

    env = {"KOPA_CACHE": str(work / "cache"), "PYTHONPATH": str(ROOT),
           "PATH": os.environ.get("PATH", "")}
    if kind == "kopa":
        args = ["-m", "simulator", "mcp", "--cassettes", str(CASSETTES)]
    else:
        args = ["-m", "perf.mcp_calls", "--floor-server", str(text_bytes)]
        calls = [(FLOOR_TOOL, {})]
    params = StdioServerParameters(command=sys.executable, args=args, env=env, cwd=str(ROOT))
    return anyio.run(_drive, params, calls, cfg, work / f"{kind}-stderr.txt")


def time_in_process(resolver: Any, calls: list[tuple[str, dict[str, Any]]], cfg: Config) -> dict[str, Any]:
    from simulator.server.mcp import call_tool

    rng = random.Random(cfg.seed)
    for name, args in calls[:20]:
        call_tool(resolver, name, args)
    lat: list[float] = []
    stop = time.perf_counter() + cfg.duration_s
    t0 = time.perf_counter()
    while time.perf_counter() < stop:
        name, args = rng.choice(calls)
        t1 = time.perf_counter()
        res = call_tool(resolver, name, args).result()
        lat.append(time.perf_counter() - t1)
        if res.is_error:
            raise RuntimeError(f"{name}({args}) answered an error in process")
    elapsed = time.perf_counter() - t0
    lat.sort()
    n = len(lat)
    return {"in_flight": 1, "calls": n, "duration_s": elapsed, "calls_per_s": n / elapsed,
            "p50_ms": percentile(lat, 0.5) * 1e3, "p99_ms": percentile(lat, 0.99) * 1e3}


def run(cfg: Config, work: Path, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure kopa-sim over MCP, the MCP floor and in-process calls; the results document."""
    from importlib.metadata import version as pkg_version

    from simulator import Resolver, Store
    from simulator.server.mcp import call_tool

    started = time.perf_counter()
    os.environ["KOPA_CACHE"] = str(work / "cache")
    resolver = Resolver(Store(CASSETTES, cache_dir=work / "cache").open("kopa"))
    rng = random.Random(cfg.seed)
    calls = tool_calls(resolver, cfg.calls, rng)
    sizes = [len(call_tool(resolver, n, a).text) for n, a in calls]
    text_bytes = int(sum(sizes) / len(sizes))
    log(f"[mcp] {len(calls)} calls over {len({n for n, _ in calls})} tools; mean answer {text_bytes:,} chars")
    log(f"[mcp] in process, {cfg.duration_s:g} s")
    inproc = time_in_process(resolver, calls, cfg)
    log(f"[mcp] kopa-sim over stdio, {cfg.duration_s:g} s × 2")
    kopa = time_mcp("kopa", calls, cfg, work, text_bytes)
    log(f"[mcp] MCP floor over stdio, {cfg.duration_s:g} s × 2")
    floor = time_mcp("floor", calls, cfg, work, text_bytes)
    v = resolver.version
    doc: dict[str, Any] = {
        "benchmark": NAME,
        "schema": 1,
        "mode": cfg.mode,
        "generated_at": now_utc(),
        "command": "python -m perf.mcp_calls" + ("" if cfg.mode == "full" else " --quick"),
        "machine": {**machine(), "mcp": pkg_version("mcp")},
        "config": asdict(cfg),
        "version": {"id": v.id, "content_hash": v.content_hash},
        "mix": {"calls": len(calls), "tools": sorted({n for n, _ in calls}),
                "mean_answer_chars": text_bytes},
        "in_process": inproc,
        "kopa": kopa,
        "floor": floor,
    }
    doc["ratios"] = {
        label: {
            "kopa_over_floor_calls_per_s": kopa[label]["calls_per_s"] / floor[label]["calls_per_s"],
            "mcp_overhead_ms": 1e3 / kopa[label]["calls_per_s"] - 1e3 / inproc["calls_per_s"],
        }
        for label in ("sequential", "concurrent")
    }
    doc["total_s"] = time.perf_counter() - started
    return doc


# ---- reporting ---------------------------------------------------------------------------
def render_markdown(doc: dict[str, Any]) -> str:
    """The mcp_calls section of ``RESULTS.md`` (between its markers)."""
    m, cfg, k, f, ip = doc["machine"], doc["config"], doc["kopa"], doc["floor"], doc["in_process"]
    lines = [
        "## MCP tool calls per second (`simulator mcp`, stdio)",
        "",
        f"Generated {doc['generated_at']} ({doc['mode']} run, {doc['total_s']:.0f} s) by:",
        "",
        "```sh",
        doc["command"],
        "```",
        "",
        (f"Machine: {m['cpu']}, {m['usable_cores']} usable cores; {m['implementation']} "
         f"{m['python']}, mcp {m['mcp']}. Version: the shipped `{doc['version']['id']}` "
         f"({doc['version']['content_hash'][:12]})."),
        "",
        (f"Mix: {doc['mix']['calls']} distinct calls over {len(doc['mix']['tools'])} tools (page windows "
         f"of the shipped collections, mean answer {doc['mix']['mean_answer_chars']:,} chars), sampled "
         f"uniformly; each measure runs {cfg['duration_s']:g} s. The MCP floor is the same SDK "
         "(`mcp.server.lowlevel.Server` over stdio) answering fixed text of that size."),
        "",
        "| system | calls in flight | calls/s | p50 ms | p99 ms | ÷ floor calls/s |",
        "|---|---:|---:|---:|---:|---:|",
        (f"| `call_tool` in process (no transport) | 1 | {ip['calls_per_s']:,.0f} | {ip['p50_ms']:.2f} "
         f"| {ip['p99_ms']:.2f} | — |"),
    ]
    for label in ("sequential", "concurrent"):
        kk, ff = k[label], f[label]
        lines.append(
            f"| kopa-sim over MCP stdio | {kk['in_flight']} | {kk['calls_per_s']:,.0f} | "
            f"{kk['p50_ms']:.2f} | {kk['p99_ms']:.2f} | {kk['calls_per_s'] / ff['calls_per_s']:.2f} |"
        )
        lines.append(
            f"| MCP floor (fixed text) over stdio | {ff['in_flight']} | {ff['calls_per_s']:,.0f} | "
            f"{ff['p50_ms']:.2f} | {ff['p99_ms']:.2f} | 1.00 |"
        )
    r = doc["ratios"]
    lines += [
        "",
        (f"The MCP transport and protocol add ≈ {r['sequential']['mcp_overhead_ms']:.2f} ms per call "
         f"over the in-process `call_tool` (one call in flight). Session start (spawn, initialize, "
         f"list {k['tools']} tools): {k['startup_s']:.2f} s (floor {f['startup_s']:.2f} s)."),
        "",
        ("Method: one `ClientSession` over `stdio_client` per server; 20 checked warm-up calls; "
         "calls go one at a time, then from several tasks on the same session; an error answer "
         "fails the run. Wall-clock `time.perf_counter`, client and server on the same machine. "
         "Full results: `perf/results/mcp_calls.json`."),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m perf.mcp_calls [--quick] [--out DIR] [--markdown FILE]``."""
    p = base_parser(NAME, __doc__.split("\n\n")[0], quick_help="1 s per measure (CI smoke)",
                    out_help="folder for mcp_calls.json", markdown_help="RESULTS.md to update")
    p.add_argument("--floor-server", type=int, default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.floor_server is not None:
        return _floor_server_main(args.floor_server)
    cfg = QUICK if args.quick else FULL
    with preserved_env("KOPA_CACHE"), tempfile.TemporaryDirectory(prefix="kopa-perf-mcp-") as tmp:
        doc = run(cfg, Path(tmp), log=lambda s: print(s, file=sys.stderr, flush=True))
    out_json, md = write_results(doc, NAME, args.out, args.markdown, render_markdown)
    print(f"wrote {out_json} and {md}")
    for label in ("sequential", "concurrent"):
        kk = doc["kopa"][label]
        print(f"  {label}: {kk['calls_per_s']:,.0f} calls/s (floor {doc['floor'][label]['calls_per_s']:,.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
