"""The catalog at the paper's scale: load, match, tool listing, serve start-up, EDGE retrieval.

Side by side at three sizes, the catalog tiers of ``load_catalog(tier=…)``: ``curated`` (82
hand-made endpoints), ``full`` (+ the generated paper-scale set, ≥ 2,318) and ``all`` (+ every
operation the committed facts know, ≈ 11,000). For each:

* **load** — a fresh process imports kopa-sim and calls ``load_catalog(tier=…)`` (import and
  load timed apart; the median of ``reps`` processes);
* **match** — ``Catalog.match`` per request (median µs over interleaved rounds), on one fixed
  request set: a request to every curated endpoint (the same requests at every size, so the
  ratios compare like with like) — the target: flat within 1.2× of 82 — and, for the larger
  tiers, requests to generated endpoints too;
* **tool listing** — ``Catalog.tools()`` (the OpenAI schemas) and MCP ``list_tools`` in
  process, and ``simulator tools --catalog … --out`` as a process;
* **serve start-up** — ``simulator serve --catalog …`` on the shipped cassettes until its first
  answer to ``/_sim/health`` (index cached beforehand);
* **EDGE retrieval** — ``edge.retrieve.Retriever().pairs`` over every tool (15 same-domain +
  10 cross-domain neighbours, no observations).

Run it (writes ``results/catalog_scale.json`` and the catalog_scale section of ``RESULTS.md``)::

    python -m perf.catalog_scale            # full run (a few minutes on 2 cores)
    python -m perf.catalog_scale --quick    # curated and full only, fewer rounds
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from perf._common import base_parser, machine, now_utc, print_targets, stop_server, write_results

__all__ = ["Config", "FULL", "QUICK", "main", "run"]

NAME = "catalog_scale"
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Config:
    mode: str
    tiers: tuple[str, ...]
    rounds: int
    load_reps: int
    serve: bool
    retrieve: bool


FULL = Config("full", ("curated", "full", "all"), rounds=30, load_reps=3, serve=True, retrieve=True)
QUICK = Config("quick", ("curated", "full"), rounds=3, load_reps=1, serve=False, retrieve=True)


def _py(code: str, env: dict[str, str] | None = None, timeout: float = 600) -> str:
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, **(env or {})},
                          capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return proc.stdout


_LOAD = """
import json, time
t0 = time.perf_counter()
from simulator.catalog import load_catalog
t1 = time.perf_counter()
c = load_catalog(tier={tier!r})
t2 = time.perf_counter()
print(json.dumps({{"import_s": t1 - t0, "load_s": t2 - t1, "endpoints": len(c.endpoints)}}))
"""


def _load(tier: str, reps: int) -> dict[str, Any]:
    runs = [json.loads(_py(_LOAD.format(tier=tier))) for _ in range(reps)]
    return {"endpoints": runs[0]["endpoints"],
            "import_s": statistics.median(r["import_s"] for r in runs),
            "load_s": statistics.median(r["load_s"] for r in runs), "reps": reps}


def _value(ep: Any, p: Any) -> str:
    return p.example or (p.enum[0] if p.enum else ("1" if p.type == "integer" else "x"))


def _requests(eps: list[Any]) -> list[Any]:
    from simulator import build_request

    out = []
    for ep in eps:
        params = {p.name: _value(ep, p) for p in ep.params
                  if (p.required or p.location == "path") and p.role != "auth"}
        out.append(build_request(ep, params, key="bench-key"))
    return out


def _match_us(catalog: Any, reqs: list[Any], rounds: int) -> list[float]:
    """Per-request µs of each round (every request once per round)."""
    match = catalog.match
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for r in reqs:
            match(r)
        times.append((time.perf_counter() - t0) / len(reqs) * 1e6)
    return times


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve_startup(tier: str, cache: str) -> float:
    port = _free_port()
    env = {**os.environ, "KOPA_CACHE": cache}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "simulator", "serve", "--port", str(port), "--catalog", tier,
                             "--cassettes", str(ROOT / "cassettes")], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = t0 + 300
        while time.perf_counter() < deadline:
            if proc.poll() is not None:
                raise RuntimeError((proc.stderr.read() if proc.stderr else b"").decode()[-2000:])
            try:
                if httpx.get(f"http://127.0.0.1:{port}/_sim/health", timeout=1).status_code == 200:
                    return time.perf_counter() - t0
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError(f"serve --catalog {tier} did not answer in 300 s")
    finally:
        stop_server(proc)


def run(cfg: Config) -> dict[str, Any]:
    """Every measure of ``cfg``; the results document."""
    from edge.retrieve import Retriever
    from simulator.catalog import load_catalog
    from simulator.server.mcp import list_tools

    started = time.perf_counter()
    rows: dict[str, dict[str, Any]] = {t: {"tier": t} for t in cfg.tiers}
    for t in cfg.tiers:
        rows[t]["load"] = _load(t, cfg.load_reps)
    cats = {t: load_catalog(tier=t) for t in cfg.tiers}
    curated_reqs = _requests(sorted(cats["curated"].endpoints.values(), key=lambda e: e.id))
    biggest = cats[cfg.tiers[-1]]
    gen_eps = sorted((e for e in biggest.endpoints.values() if e.fidelity != "curated"), key=lambda e: e.id)
    gen_reqs = _requests(gen_eps[:: max(1, len(gen_eps) // 500)])
    # Interleaved rounds: a busy machine slows every tier alike.
    per: dict[str, list[float]] = {t: [] for t in cfg.tiers}
    per_gen: dict[str, list[float]] = {t: [] for t in cfg.tiers if t != "curated"}
    for _ in range(cfg.rounds):
        for t in cfg.tiers:
            per[t] += _match_us(cats[t], curated_reqs, 1)
            if t in per_gen:
                usable = [r for r in gen_reqs if _matches(cats[t], r)]
                per_gen[t] += _match_us(cats[t], usable, 1)
    base = statistics.median(per["curated"])
    for t in cfg.tiers:
        cat = cats[t]
        m = statistics.median(per[t])
        rows[t]["endpoints"] = len(cat.endpoints)
        rows[t]["match_us"] = m
        rows[t]["match_ratio"] = m / base
        if t in per_gen:
            rows[t]["match_generated_us"] = statistics.median(per_gen[t])
        t0 = time.perf_counter()
        tools = cat.tools()
        rows[t]["tools_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        listed = list_tools(cat)
        rows[t]["mcp_list_tools_s"] = time.perf_counter() - t0
        assert len(tools) == len(listed) == len(cat.endpoints)
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            _py(f"import sys; sys.argv=['simulator','tools','--catalog',{t!r},'--out',{d!r}+'/t.json']\n"
                "from simulator.cli import main\ntry:\n main()\nexcept SystemExit as e:\n assert not e.code")
            rows[t]["cli_tools_s"] = time.perf_counter() - t0
        if cfg.retrieve:
            t0 = time.perf_counter()
            pairs = Retriever().pairs(list(cat.endpoints.values()))
            rows[t]["retrieve_s"] = time.perf_counter() - t0
            rows[t]["retrieve_pairs"] = len(pairs)
    if cfg.serve:
        with tempfile.TemporaryDirectory() as cache:
            _serve_startup("curated", cache)  # compiles the shipped version's index once
            for t in cfg.tiers:
                rows[t]["serve_startup_s"] = _serve_startup(t, cache)
    worst = max(rows[t]["match_ratio"] for t in cfg.tiers)
    largest = rows[cfg.tiers[-1]]
    doc: dict[str, Any] = {
        "benchmark": NAME, "mode": cfg.mode, "generated_at": now_utc(),
        "command": "python -m perf.catalog_scale" + ("" if cfg.mode == "full" else " --quick"),
        "machine": machine(), "rounds": cfg.rounds, "requests": len(curated_reqs),
        "generated_requests": len(gen_reqs), "tiers": [rows[t] for t in cfg.tiers],
        "elapsed_s": time.perf_counter() - started,
        "targets": [
            {"target": f"Catalog.match per request flat within 1.2× from 82 to {largest['endpoints']:,}",
             "measured": ", ".join(f"{rows[t]['endpoints']:,}: {rows[t]['match_ratio']:.2f}×" for t in cfg.tiers),
             "met": worst <= 1.2},
        ],
    }
    return doc


def _matches(cat: Any, req: Any) -> bool:
    try:
        cat.match(req)
    except Exception:  # noqa: BLE001 - a generated endpoint of a tier this catalog lacks
        return False
    return True


def render(doc: dict[str, Any]) -> str:
    """The Markdown section of ``RESULTS.md``."""
    m = doc["machine"]
    lines = [
        "## Catalog scale: " + " → ".join(f"{r['endpoints']:,}" for r in doc["tiers"]) + " endpoints",
        "",
        f"Generated {doc['generated_at']} ({doc['mode']} run, {doc['elapsed_s']:.0f} s) by:",
        "",
        "```sh",
        doc["command"],
        "```",
        "",
        f"Machine: {m.get('cpu')}, {m.get('cores')} cores, {m.get('python')}.",
        "",
        "| tier | endpoints | import s | load s | match µs/request (curated set) | ÷ 82 | match µs (generated set) "
        "| `tools()` s | MCP `list_tools` s | `simulator tools` s | serve start-up s | EDGE retrieval s (pairs) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in doc["tiers"]:
        gen = f"{r['match_generated_us']:.1f}" if "match_generated_us" in r else "—"
        serve = f"{r['serve_startup_s']:.2f}" if "serve_startup_s" in r else "not run"
        ret = f"{r['retrieve_s']:.2f} ({r['retrieve_pairs']:,})" if "retrieve_s" in r else "not run"
        lines.append(
            f"| {r['tier']} | {r['endpoints']:,} | {r['load']['import_s']:.2f} | {r['load']['load_s']:.2f} | "
            f"{r['match_us']:.1f} | {r['match_ratio']:.2f}× | {gen} | {r['tools_s']:.2f} | "
            f"{r['mcp_list_tools_s']:.2f} | {r['cli_tools_s']:.2f} | {serve} | {ret} |"
        )
    lines += [
        "",
        f"Match: {doc['requests']} requests (one per curated endpoint, the same at every size) and "
        f"{doc['generated_requests']} to generated endpoints, {doc['rounds']} interleaved rounds, median. "
        "Load: a fresh process per rep (median); `all` builds its extra endpoints from the "
        "committed facts in memory. Serve start-up: process start to the first `/_sim/health` answer, "
        "the shipped version's index already compiled.",
        "",
        "Targets:",
        "",
    ]
    lines += [f"- {'met' if t['met'] else 'MISS'}: {t['target']} — {t['measured']}" for t in doc["targets"]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    """``python -m perf.catalog_scale [--quick] [--out DIR] [--markdown FILE]``."""
    p = base_parser(NAME, __doc__.split("\n\n")[0], quick_help="curated and full tiers, 3 rounds, no serve (CI smoke)")
    args = p.parse_args(argv)
    doc = run(QUICK if args.quick else FULL)
    out_json, md = write_results(doc, NAME, args.out, args.markdown, render)
    print_targets(doc)
    print(f"wrote {out_json} and {md}")


if __name__ == "__main__":
    main()
