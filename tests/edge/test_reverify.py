"""EDGE is dynamic: re-verification on a new cassette version re-runs only what changed.

A copy of the shipped cassettes gets two child versions built with ``VersionBuilder``: v0002
empties every ``neis_meal`` collection (the API stopped returning meals), v0003 puts the
records back. The graph (NEIS tools only, to stay fast) is built on v0001, re-verified on
v0002 — the edges into ``neis_meal`` are pruned, edges between untouched tools keep their
evidence byte for byte — and re-verified on v0003, where the pruned edges are revived.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from edge import CallResult, EdgeGraph, EdgeState, SimExecutor, VerifyConfig, build_graph, reverify
from simulator import Catalog, Resolver, Store, Version, VersionBuilder, load_catalog

#: The cassettes shipped with the project (copied: versions are published beside them).
SHIPPED = Path(__file__).resolve().parents[2] / "cassettes"
CHANGED = "neis_meal"
CFG = VerifyConfig(iterations=8, paths_per_iteration=20, min_trials=2)


@dataclass
class Recording:
    """An executor that remembers which tools it called (wraps the offline one)."""

    inner: SimExecutor
    called: list[str] = field(default_factory=list)

    def call(self, endpoint: str, params: Mapping[str, str]) -> CallResult:
        self.called.append(endpoint)
        return self.inner.call(endpoint, params)


@dataclass
class World:
    full: Catalog
    neis: Catalog
    v1: Version
    v2: Version
    v3: Version


def _child(store: Store, catalog: Catalog, records: Mapping[str, dict[str, Any]] | None,
           stamp: str) -> tuple[str, dict[str, dict[str, Any]]]:
    """Publish a child of the newest version whose ``neis_meal`` collections are emptied
    (``records=None``) or set back to ``records`` (key → collection entry); returns the new
    version's name and the parent's ``neis_meal`` entries."""
    b = VersionBuilder(store, "kopa", catalog)
    meals = {k: dict(e) for k, e in b.collections.items() if e["endpoint"] == CHANGED}
    assert meals, "the shipped cassettes record neis_meal collections"
    for key, e in sorted(meals.items()):
        src = e if records is None else records[key]
        b.add_collection(endpoint=CHANGED, key=key, filters=dict(src["filters"]), fmt=src["fmt"],
                         total=0 if records is None else src["total"],
                         records=[] if records is None else src["records"], envelope=src["envelope"])
    return b.publish(recorded_at=stamp, source="test").version, meals


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    root = tmp_path_factory.mktemp("reverify")
    shutil.copytree(SHIPPED, root / "cassettes")
    store = Store(root / "cassettes", cache_dir=root / "cache")
    full = load_catalog()
    v1 = store.open("kopa")  # the newest shipped version
    v2, originals = _child(store, full, None, "2026-11-02T00:00:00Z")
    v3, _ = _child(store, full, originals, "2026-11-03T00:00:00Z")
    assert [m.version for m in store.versions("kopa")][-3:] == [v1.manifest.version, v2, v3]
    # A subset of the tools: a catalog of NEIS's curated file alone (what the API allows);
    # ``platforms["neis"]`` would add the generated NEIS tools too.
    neis = Catalog([full.parts["neis"]])
    return World(full, neis, v1, store.open("kopa", v2), store.open("kopa", v3))


def _snapshot(st: EdgeState) -> tuple[Any, ...]:
    return (st.status, st.success, st.structural, st.environmental, st.unknown,
            json.dumps(st.evidence, sort_keys=True), st.verified_on)


def _touches(st: EdgeState) -> bool:
    return CHANGED in (st.binding.source_tool, st.binding.target_tool)


def test_child_versions_change_only_the_meal_collections(world: World) -> None:
    assert world.v2.content_hash != world.v1.content_hash
    # Putting the records back gives back the very same content.
    assert world.v3.content_hash == world.v1.content_hash
    assert all(c.count == 0 for c in world.v2.collections(CHANGED))
    assert all(c.count > 0 for c in world.v1.collections(CHANGED))


def test_reverify_reruns_changed_edges_prunes_and_revives(world: World, tmp_path: Path) -> None:
    built = build_graph(world.v1, world.neis, seed=3, config=CFG)
    g = built.graph
    into = [s for s in g.edges("verified") if s.binding.target_tool == CHANGED]
    assert len(into) >= 3, [s.binding.key for s in g.edges() if _touches(s)]
    into_keys = {s.binding.key for s in into}
    before = {k: _snapshot(s) for k, s in g.states.items()}
    touched = {k for k, s in g.states.items() if _touches(s)}
    assert touched and len(touched) < len(before)

    # v0002: meals gone. Only edges touching neis_meal run again; the ones into it are pruned.
    rec = Recording(SimExecutor(Resolver(world.v2, world.neis, miss="strict")))
    r2 = reverify(g, world.v2, world.neis, seed=3, executor=rec)
    assert r2.graph.meta["reverified"] == {"changed_tools": [CHANGED], "edges_rerun": len(touched)}
    assert rec.called and r2.calls == len(rec.called)
    assert set(rec.called) <= {g.states[k].binding.target_tool for k in touched}
    for k, st in g.states.items():
        if k not in touched:
            assert _snapshot(st) == before[k], k  # untouched: evidence kept as it was
            assert st.verified_on == world.v1.content_hash
        else:
            assert st.verified_on == world.v2.content_hash
    pruned = {s.binding.key for s in g.edges("pruned")}
    assert pruned and pruned <= into_keys
    for k in pruned:
        st = g.states[k]
        assert st.success == 0 and st.structural >= CFG.min_trials
        assert any(e["detail"] == "empty result" for e in st.evidence)
    # Edges out of neis_meal have nothing to start from: no trials, never a failure.
    for st in g.edges():
        if st.binding.source_tool == CHANGED:
            assert st.status == "unverified" and st.decisive == 0
    stats = r2.graph.meta["stats"]
    assert stats["edges"]["pruned"] == len(pruned)
    assert r2.graph.meta["history"] == [world.v1.content_hash, world.v2.content_hash]

    # The graph file round-trips between the two runs (a later process can pick it up).
    path = g.save(tmp_path / "graph.json", r2.obs)
    g2 = EdgeGraph.load(path, world.neis)
    assert {k: _snapshot(s) for k, s in g2.states.items()} == {k: _snapshot(s) for k, s in g.states.items()}

    # v0003: meals are back. The pruned edges get a new chance and are revived.
    r3 = reverify(g2, world.v3, world.neis, seed=3)
    assert r3.graph.meta["reverified"]["changed_tools"] == [CHANGED]
    revived = {k for k in pruned if g2.states[k].status == "verified"}
    assert revived == pruned, {k: g2.states[k].evidence for k in pruned - revived}
    for k in revived:
        assert g2.states[k].success >= 1 and g2.states[k].structural == 0
        assert g2.states[k].verified_on == world.v3.content_hash
    assert r3.graph.meta["stats"]["edges"]["pruned"] == 0


def test_reverify_on_the_same_data_reruns_nothing(world: World) -> None:
    g = build_graph(world.v1, world.neis, seed=5, config=VerifyConfig(iterations=2, paths_per_iteration=10)).graph
    before = {k: _snapshot(s) for k, s in g.states.items()}
    res = reverify(g, world.v3, world.neis, seed=5)  # same content as v0001
    assert res.graph.meta["reverified"] == {"changed_tools": [], "edges_rerun": 0}
    assert res.calls == 0
    assert {k: _snapshot(s) for k, s in g.states.items()} == before
