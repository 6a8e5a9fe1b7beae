"""EDGE synthesis throughput: verified examples per second on the shipped cassettes (2 cores).

Run it (writes ``results/synth.json`` and the synth section of ``RESULTS.md``)::

    python -m perf.synth            # n=1000 (the issue's bar)
    python -m perf.synth --quick    # n=20 (CI smoke)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from perf._common import base_parser, now_utc, section_markers, update_section, write_results
from perf.edge import machine
from edge import Observations, VerifyConfig, build_graph
from edge.synth import synthesize
from simulator import Store, load_catalog

SECTION_BEGIN, SECTION_END = section_markers("synth")


def run(n: int, quick: bool) -> dict[str, Any]:
    """Open, observe, build a graph, synthesize ``n``; time each stage."""
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))[:2]
        os.sched_setaffinity(0, cpus)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kopa-synth-perf-") as tmp:
        version = Store(cache_dir=tmp).open("kopa")
        catalog = load_catalog()
        t1 = time.perf_counter()
        obs = Observations.from_version(version, catalog)
        t2 = time.perf_counter()
        graph = build_graph(version, catalog, seed=7, obs=obs,
                            config=VerifyConfig(iterations=10, paths_per_iteration=50, min_trials=2)).graph
        t3 = time.perf_counter()
        res = synthesize(version, catalog, graph, n=n, seed=0, obs=obs)
        t4 = time.perf_counter()
    kept = len(res.examples)
    return {
        "benchmark": "synth", "schema": 1, "mode": "quick" if quick else "full",
        "generated_at": now_utc(),
        "command": "python -m perf.synth" + (" --quick" if quick else ""),
        "machine": machine(), "requested": n, "kept": kept,
        "open_s": t1 - t0, "observe_s": t2 - t1, "graph_s": t3 - t2, "synth_s": t4 - t3,
        "examples_per_s": kept / (t4 - t3) if t4 > t3 else 0.0,
        "attempts": res.report["attempts"], "requests": res.report["requests"],
        "filters": res.report["filters"], "summary": res.report["summary"],
    }


def render_markdown(doc: dict[str, Any]) -> str:
    """The synth section of ``RESULTS.md``."""
    s = doc["summary"]
    return "\n".join([
        "## EDGE synthesis throughput",
        "",
        f"Generated {doc['generated_at']} ({doc['mode']} run) by `{doc['command']}` on "
        f"{doc['machine']['cpu']}, pinned to at most 2 cores.",
        "",
        "| requested | kept | attempts | simulator requests | synth s | examples / s |",
        "|---:|---:|---:|---:|---:|---:|",
        f"| {doc['requested']} | {doc['kept']} | {doc['attempts']} | {doc['requests']} | {doc['synth_s']:.1f} | "
        f"{doc['examples_per_s']:.2f} |",
        "",
        f"Setup: open {doc['open_s']:.1f} s, observe {doc['observe_s']:.1f} s, graph {doc['graph_s']:.1f} s. "
        f"Filters removed: {doc['filters']}. Junctions: {s['junction']}. Missing: {s['missing']}.",
        "",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m perf.synth [--quick] [--n N] [--out DIR] [--markdown FILE]``."""
    p = base_parser("synth")
    p.add_argument("--n", type=int, default=None)
    args = p.parse_args(list(argv) if argv is not None else None)
    n = args.n or (20 if args.quick else 1000)
    doc = run(n, args.quick)
    out_json, md = write_results(doc, "synth", args.out, args.markdown, render_markdown)
    print(f"wrote {out_json} and {md}", file=sys.stderr)
    return 0


def update_results_md(path: Path, section: str) -> None:
    """Replace the synth section of ``path`` (other sections kept)."""
    update_section(path, "synth", section)


if __name__ == "__main__":
    raise SystemExit(main())
