"""Expensive EDGE builds that several test files check, made once per test process.

The session fixtures in ``tests/conftest.py`` wrap these; a test using one (directly or
through another fixture) is given the matching ``xdist_group`` (:data:`GROUP_OF_FIXTURE`,
tests/support/xdist_groups.py) so that, under ``--dist loadgroup`` (the README's test
command), every test of a group runs in one worker and the build is made once in the whole
run, not once per worker (nor once per module: a module-scoped build is made again each time
a worker comes back to its module).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from edge import EdgeGraph, Observations, VerifyConfig, build_graph
from edge.synth import SynthResult, synthesize, write_all
from edge.synth.contamination import GoldHoldout, gold_holdout
from simulator import Catalog, Store, Version, load_catalog

#: ``xdist_group`` names of the shared builds below.
SYNTH_1000 = "synth-1000"
V0005_FULL = "v0005-full-graph"
V0001_SMALL = "v0001-small-run"

#: The session fixture of each shared build → its group (a test uses at most one of them).
GROUP_OF_FIXTURE = {"synth_1000": SYNTH_1000, "v0005_full": V0005_FULL, "v0001_small": V0001_SMALL}

#: The small verification budget the synthesis tests build their graphs with.
SMALL_CFG = VerifyConfig(iterations=10, paths_per_iteration=50, min_trials=2)


@dataclass(frozen=True)
class ThousandRun:
    """``simulator edge synthesize --n 1000`` with the CLI's defaults, in process: kopa@v0005,
    EDGE's default catalog (``edge.catalog``: the curated tier + FSC's company outline), a graph built with seed 0 and the default budget, seed 0, the bench's
    entities, edges and gold calls held out; the files ``write_all`` writes."""

    version: Version
    catalog: Catalog
    res: SynthResult
    paths: dict[str, Path]


def thousand_run(store: Store, tmp: Path) -> ThousandRun:
    from edge.catalog import edge_catalog

    version = store.open("kopa", "v0005")
    catalog = edge_catalog()
    built = build_graph(version, catalog, seed=0)
    res = synthesize(version, catalog, built.graph, n=1000, seed=0, obs=built.obs)
    paths = write_all(res.examples, tmp / "out", version, catalog, res.report)
    return ThousandRun(version, catalog, res, paths)


@dataclass(frozen=True)
class FullGraph:
    """kopa@v0005 with the full tier (the default catalog), its observations, the graph built
    with seed 7 and :data:`SMALL_CFG`, and the bench's gold hold-out on it."""

    version: Version
    catalog: Catalog
    obs: Observations
    graph: EdgeGraph
    gold: GoldHoldout


def v0005_full_graph(store: Store) -> FullGraph:
    version = store.open("kopa", "v0005")
    catalog = load_catalog()
    obs = Observations.from_version(version, catalog)
    graph = build_graph(version, catalog, seed=7, config=SMALL_CFG, obs=obs).graph
    return FullGraph(version, catalog, obs, graph, gold_holdout(version))


@dataclass(frozen=True)
class SmallRun:
    """kopa@v0001 with the curated tier, the graph built with seed 7 and :data:`SMALL_CFG`,
    and a 150-example run over it (seed 3) with the bench's edges let in (as by default, the
    content hold-out being on; 150 draws then reach every junction type but SEM), and the
    files ``write_all`` writes for it."""

    version: Version
    catalog: Catalog
    obs: Observations
    graph: EdgeGraph
    res: SynthResult
    paths: dict[str, Path]


def v0001_small_run(store: Store, tmp: Path) -> SmallRun:
    version = store.open("kopa", "v0001")
    catalog = load_catalog(tier="curated")
    obs = Observations.from_version(version, catalog)
    graph = build_graph(version, catalog, seed=7, config=SMALL_CFG, obs=obs).graph
    res = synthesize(version, catalog, graph, n=150, seed=3, obs=obs, allow_bench_edges=True)
    paths = write_all(res.examples, tmp / "out", version, catalog, res.report)
    return SmallRun(version, catalog, obs, graph, res, paths)
