"""The pipeline: observe a version, propose, verify by execution, label, save (DESIGN §8).

>>> from simulator import Store, load_catalog          # doctest: +SKIP
>>> res = build_graph(Store().open("kopa"), load_catalog(), seed=0)   # doctest: +SKIP
>>> res.graph.save(Path("out/graph.json"), res.obs)   # doctest: +SKIP
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulator import Catalog, Resolver, Version

from .cardinality import cardinality_of
from .graph import EdgeGraph
from .observe import Observations, endpoint_digest
from .proposers import OfflineProposer, Proposer
from .verify import UNTESTABLE, EdgeState, Executor, SimExecutor, Verifier, VerifyConfig

__all__ = ["BuildResult", "build_graph", "reverify", "summarize"]


@dataclass
class BuildResult:
    graph: EdgeGraph
    obs: Observations
    calls: int


def _counters(p: Proposer) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name}
    for k in ("pairs_scored", "asked", "malformed", "failed", "dropped", "model"):
        if hasattr(p, k):
            out[k] = getattr(p, k)
    return out


def _version_meta(version: Version) -> dict[str, str]:
    m = version.manifest
    return {"set": m.set, "version": m.version, "content_hash": m.content_hash}


def build_graph(
    version: Version,
    catalog: Catalog,
    *,
    seed: int = 0,
    proposer: Proposer | None = None,
    config: VerifyConfig | None = None,
    executor: Executor | None = None,
    obs: Observations | None = None,
) -> BuildResult:
    """Propose edges over ``catalog`` with what ``version`` shows, verify them, label them."""
    cfg = config or VerifyConfig()
    obs = obs or Observations.from_version(version, catalog)
    proposer = proposer or OfflineProposer()
    tools = [catalog.endpoints[k] for k in sorted(catalog.endpoints)]
    bindings = sorted({b.key: b for b in proposer.propose(tools, obs)}.values(), key=lambda b: b.key)
    states = [EdgeState.fresh(b, cfg.prior_strength) for b in bindings]
    ex = executor or SimExecutor(Resolver(version, catalog, miss="strict"))
    verifier = Verifier(ex, obs, catalog, random.Random(seed), cfg)
    if states:
        verifier.run(states, version.content_hash)
    graph = EdgeGraph(catalog, states, config=cfg, meta={
        "cassettes": _version_meta(version),
        "catalog": catalog.tier,
        "seed": seed,
        "proposer": _counters(proposer),
        "endpoint_digests": {ep: endpoint_digest(obs, ep) for ep in sorted(obs.filters)},
        "history": [version.content_hash],
    })
    graph.meta["stats"] = summarize(graph, obs)
    return BuildResult(graph, obs, verifier.calls)


def reverify(
    graph: EdgeGraph,
    version: Version,
    catalog: Catalog,
    *,
    seed: int = 0,
    executor: Executor | None = None,
) -> BuildResult:
    """Re-verify ``graph`` on a new ``version``, incrementally.

    Edges touching a tool whose recorded data changed (its digest differs) lose their
    evidence and are executed again — pruned ones included, so they can be revived; edges
    between unchanged tools keep theirs.
    """
    obs = Observations.from_version(version, catalog)
    old = graph.meta.get("endpoint_digests", {})
    new = {ep: endpoint_digest(obs, ep) for ep in sorted(obs.filters)}
    changed = {ep for ep in set(old) | set(new) if old.get(ep) != new.get(ep)}
    touched = [s for s in graph.edges() if s.binding.source_tool in changed or s.binding.target_tool in changed]
    for st in touched:
        st.reset()
    ex = executor or SimExecutor(Resolver(version, catalog, miss="strict"))
    verifier = Verifier(ex, obs, catalog, random.Random(seed), graph.config)
    if touched:
        verifier.run(touched, version.content_hash)
    graph.meta.update({
        "cassettes": _version_meta(version),
        "catalog": catalog.tier,
        "seed": seed,
        "endpoint_digests": new,
        "history": list(graph.meta.get("history", [])) + [version.content_hash],
        "reverified": {"changed_tools": sorted(changed), "edges_rerun": len(touched)},
    })
    graph.meta.pop("_cards", None)
    graph.meta["stats"] = summarize(graph, obs)
    return BuildResult(graph, obs, verifier.calls)


def _rate(states: list[EdgeState]) -> dict[str, Any]:
    tested = [s for s in states if s.decisive > 0]
    succ = sum(s.success for s in tested)
    dec = sum(s.decisive for s in tested)
    return {
        "edges": len(states),
        "tested": len(tested),
        "executable_share": _r(sum(1 for s in tested if s.success > 0) / len(tested)) if tested else None,
        "execution_rate": _r(succ / dec) if dec else None,
    }


def _r(x: float) -> float:
    return round(x, 4)


def summarize(graph: EdgeGraph, obs: Observations | None = None) -> dict[str, Any]:
    """Counts, executable-link rates before/after verification, pruned stats, cardinality histogram."""
    allst = graph.edges()
    pruned = graph.edges("pruned")
    status = Counter(s.status for s in allst)
    hist: Counter[str] = Counter()
    for s in graph.edges("verified"):
        c = cardinality_of(obs, s.binding.source_tool, s.binding.source_field) if obs is not None else None
        lab = c.label if c else ((graph.meta.get("_cards", {}).get(s.binding.key) or {}).get("label") or "unknown")
        hist[lab] += 1
    retained = graph.retained()
    return {
        "edges": {"proposed": len(allst), **{k: status.get(k, 0) for k in ("verified", "unverified", "pruned", "candidate")},
                  "untestable": sum(1 for s in allst if s.evidence and s.evidence[0]["detail"] == UNTESTABLE)},
        "cross_platform_verified": sum(
            1 for s in graph.edges("verified")
            if graph.catalog.endpoint(s.binding.source_tool).platform != graph.catalog.endpoint(s.binding.target_tool).platform
        ),
        "before": _rate(allst),
        "after": _rate(retained),
        "pruned": {
            "count": len(pruned),
            "never_succeeded_share": _r(sum(1 for s in pruned if s.success == 0) / len(pruned)) if pruned else None,
            "execution_rate": _rate(pruned)["execution_rate"],
        },
        "retained_zero_success_share": _r(sum(1 for s in retained if s.success == 0) / len(retained)) if retained else None,
        "cardinality": {k: hist[k] for k in sorted(hist)},
        "trials": {
            "success": sum(s.success for s in allst), "structural": sum(s.structural for s in allst),
            "environmental": sum(s.environmental for s in allst), "unknown": sum(s.unknown for s in allst),
        },
    }
