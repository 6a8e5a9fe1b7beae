"""EDGE verification on the shipped full tier (2,692 tools, ``kopa@v0002``): before and after.

One process, one set of proposals, three verification runs side by side:

* **before, default budget** — the loop as it was (``OldVerifier``): every proposal may start
  a path (most can only miss offline), a value goes with the params of any recorded call of
  the target (often another city's or school's: a miss), every call executed afresh, the query tier decoding its full
  collection on every call, ``iterations × paths`` path starts (``VerifyConfig``'s defaults);
* **before, one start per proposal** — the same loop given enough paths for every proposal to
  start one (``ceil(proposals / iterations)`` per iteration): what it takes the old loop to
  try every edge;
* **after** — the loop as it is: proposals no offline call can decide are left unverified
  without a call (``SimExecutor.answerable``), paths grow with the testable edges
  (``paths_per_edge``), a value goes with the call recorded with it, classified results
  memoised per (tool, args), the query tier keeping
  decoded collections with equality indexes (``Resolver(query_records_kept=...)``).

Run it (writes ``results/edge_full.json`` and the edge_full section of ``RESULTS.md``)::

    python -m perf.edge_full            # about 3 minutes on 2 busy cores
    python -m perf.edge_full --quick    # 2 iterations, no one-start-per-proposal run
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from perf._common import base_parser, machine, now_utc, section_markers, write_results
from edge import Binding, EdgeState, Observations, OfflineProposer, SimExecutor, Verifier, VerifyConfig
from simulator import Catalog, Resolver, Store, Version, load_catalog

__all__ = ["SECTION_BEGIN", "SECTION_END", "OldVerifier", "main", "render_markdown", "run", "verify_once"]

SECTION_BEGIN, SECTION_END = section_markers("edge_full")


class OldVerifier(Verifier):
    """The verification loop as it was before the full tier was affordable: every proposal may
    start a path, and a value goes with the params of any recorded call of the target."""

    def testable(self, b: Binding) -> bool:
        return True

    def _target_params(self, b: Binding, value: str) -> dict[str, str]:
        ep = self.catalog.endpoint(b.target_tool)
        recorded = sorted(self.obs.filters.get(b.target_tool, []), key=lambda d: json.dumps(d, sort_keys=True))
        params: dict[str, str] = dict(self.rng.choice(recorded)) if recorded else {}
        for p in ep.params:
            fill = p.default or p.example
            if p.required and p.name not in params and p.role in ("filter", "plain") and fill is not None:
                params[p.name] = fill
        params[b.target_param] = value
        return params


def verify_once(version: Version, catalog: Catalog, obs: Observations, bindings: Sequence[Binding],
                cfg: VerifyConfig, *, before: bool, seed: int = 0) -> dict[str, Any]:
    """One verification run over ``bindings``: the old loop (``before``) or the current one."""
    if before:
        sim = SimExecutor(Resolver(version, catalog, miss="strict", query_records_kept=0), memo_size=0)
    else:
        sim = SimExecutor(Resolver(version, catalog, miss="strict"))
    states = [EdgeState.fresh(b, cfg.prior_strength) for b in bindings]
    verifier = (OldVerifier if before else Verifier)(sim, obs, catalog, random.Random(seed), cfg)
    t0 = time.perf_counter()
    verifier.run(states, version.content_hash)
    wall = time.perf_counter() - t0
    status = Counter(s.status for s in states)
    return {
        "iterations": cfg.iterations, "paths_per_iteration": cfg.paths_per_iteration,
        "paths_per_edge": cfg.paths_per_edge, "wall_s": round(wall, 2),
        "trials": verifier.calls, "executed": sim.calls, "memo_hits": sim.memo_hits,
        "ms_per_executed_call": round(1000 * wall / sim.calls, 3) if sim.calls else None,
        "untestable": verifier.untestable,
        "verified": status.get("verified", 0), "pruned": status.get("pruned", 0),
        "unverified": status.get("unverified", 0),
        "outcomes": {k: sum(getattr(s, k) for s in states) for k in ("success", "structural", "environmental", "unknown")},
    }


def run(quick: bool) -> dict[str, Any]:
    """Open, observe, propose once; verify before (default and one-start budgets) and after."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:2])
    iterations = 2 if quick else 40
    with tempfile.TemporaryDirectory(prefix="kopa-edge-full-") as tmp:
        t0 = time.perf_counter()
        version = Store(cache_dir=tmp).open("kopa", "v0002")
        catalog = load_catalog(tier="full")
        t1 = time.perf_counter()
        obs = Observations.from_version(version, catalog)
        t2 = time.perf_counter()
        tools = [catalog.endpoints[k] for k in sorted(catalog.endpoints)]
        bindings = sorted({b.key: b for b in OfflineProposer().propose(tools, obs)}.values(), key=lambda b: b.key)
        t3 = time.perf_counter()
        base = VerifyConfig(iterations=iterations)
        old = VerifyConfig(iterations=iterations, paths_per_edge=0.0)
        runs = {"before_default": verify_once(version, catalog, obs, bindings, old, before=True)}
        if not quick:
            every = VerifyConfig(iterations=iterations, paths_per_edge=0.0,
                                 paths_per_iteration=math.ceil(len(bindings) / iterations))
            runs["before_one_start_per_proposal"] = verify_once(version, catalog, obs, bindings, every, before=True)
        runs["after"] = verify_once(version, catalog, obs, bindings, base, before=False)
    tested = len(bindings) - runs["after"]["untestable"]
    return {
        "benchmark": "edge_full", "schema": 1, "mode": "quick" if quick else "full",
        "generated_at": now_utc(), "command": "python -m perf.edge_full" + (" --quick" if quick else ""),
        "machine": machine(), "tools": len(catalog.endpoints), "version": version.id,
        "content_hash": version.content_hash, "proposals": len(bindings), "testable": tested,
        "setup_s": {"open_and_catalog": round(t1 - t0, 2), "observe": round(t2 - t1, 2), "propose": round(t3 - t2, 2)},
        "runs": runs,
    }


def render_markdown(doc: dict[str, Any]) -> str:
    """The edge_full section of ``RESULTS.md``."""
    rows = []
    for name, r in doc["runs"].items():
        rows.append(
            f"| {name.replace('_', ' ')} | {r['iterations']} × {r['paths_per_iteration']}"
            f"{' (+ per edge ' + str(r['paths_per_edge']) + ')' if r['paths_per_edge'] else ''} | {r['wall_s']:.1f} | "
            f"{r['trials']} | {r['executed']} | {r['memo_hits']} | {r['ms_per_executed_call']} | {r['untestable']} | "
            f"**{r['verified']}** | {r['pruned']} | {r['unverified']} |")
    s = doc["setup_s"]
    return "\n".join([
        "## EDGE verification on the full tier, before and after",
        "",
        f"Generated {doc['generated_at']} ({doc['mode']} run) by `{doc['command']}` on "
        f"{doc['machine']['cpu']}, pinned to at most 2 cores. {doc['tools']} tools, "
        f"`{doc['version']}`: {doc['proposals']} offline proposals, of which {doc['testable']} can be "
        "decided by an offline call (the rest target values nothing recorded answers).",
        "",
        "| run | iterations × paths | verify s | trials | calls executed | memo hits | verify ms ÷ executed calls | "
        "left unexecuted | verified | pruned | unverified |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        f"Shared setup (once): open + catalog {s['open_and_catalog']:.1f} s, observe {s['observe']:.1f} s, "
        f"propose {s['propose']:.1f} s.",
        "",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m perf.edge_full [--quick] [--out DIR] [--markdown FILE]``."""
    args = base_parser("edge_full").parse_args(list(argv) if argv is not None else None)
    doc = run(args.quick)
    out_json, md = write_results(doc, "edge_full", args.out, args.markdown, render_markdown)
    print(render_markdown(doc))
    print(f"wrote {out_json} and {md}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
