"""``synthesize --ray``: the shards as Ray tasks on a local instance give the same bytes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from edge import Observations, VerifyConfig, build_graph
from edge.synth import SynthConfig, SynthResult, synthesize, write_all
from edge.synth.contamination import gold_holdout
from simulator import Catalog, Store, Version, load_catalog
from tests.support.synth_runs import V0005_FULL, FullGraph

ray = pytest.importorskip("ray")

#: One group with the tests of kopa@v0005's shared graph (tests/support/synth_runs.py): the
#: module's Ray tests then run in one worker, over one local Ray instance.
pytestmark = pytest.mark.xdist_group(V0005_FULL)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray instance of 2 CPUs for the module's Ray runs: ``ray_address="local"``
    connects to it rather than starting (and stopping) one per run, and its worker processes,
    their imports done, serve every test."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


def _one_and_many(version: Version, catalog: Catalog, *, iterations: int = 0, paths: int = 0, shards: int, n: int,
                  seed: int, built: FullGraph | None = None) -> tuple[SynthResult, SynthResult]:
    """The same synthesis run in this process and as Ray tasks on a local instance (over
    ``built``'s graph if given, else one built with seed 7 and the budget given)."""
    if built is not None:
        obs, graph, gold = built.obs, built.graph, built.gold
    else:
        obs = Observations.from_version(version, catalog)
        graph = build_graph(version, catalog, seed=7, config=VerifyConfig(
            iterations=iterations, paths_per_iteration=paths, min_trials=2), obs=obs).graph
        gold = gold_holdout(version)  # the bench's gold calls and record sets, run once for both
    cfg = SynthConfig(shards=shards)
    one = synthesize(version, catalog, graph, n=n, seed=seed, obs=obs, config=cfg, gold=gold)
    many = synthesize(version, catalog, graph, n=n, seed=seed, obs=obs, config=cfg, ray_address="local", gold=gold)
    assert one.examples and [e["id"] for e in one.examples] == [e["id"] for e in many.examples]
    return one, many


@pytest.mark.slow
def test_ray_run_is_byte_identical_to_a_single_process_run(v0005_full: FullGraph, local_ray: None,
                                                           tmp_path: Path) -> None:
    version, catalog = v0005_full.version, v0005_full.catalog  # kopa@v0005, the full tier
    one, many = _one_and_many(version, catalog, shards=3, n=12, seed=5, built=v0005_full)
    pa = write_all(one.examples, tmp_path / "a", version, catalog, one.report)
    pb = write_all(many.examples, tmp_path / "b", version, catalog, many.report)
    for k in pa:
        assert pa[k].read_bytes() == pb[k].read_bytes(), k


@pytest.mark.slow
def test_ray_tasks_synthesize_over_the_drivers_catalog(local_ray: None, tmp_path: Path) -> None:
    """The tasks use the driver's catalog: here one loaded from a directory holding only the
    NEIS platform, its summaries and param descriptions edited. They used
    to reload the shipped default tier, so their questions came out in the shipped wording and
    the bytes differed; over the shipped tier they would also draw the other platforms'
    questions (edge.synth.intents), which this catalog cannot."""
    import re

    from simulator.catalog.loader import DATA_DIR

    cat_dir = tmp_path / "catalog"
    cat_dir.mkdir()
    text = re.sub(r"(?m)^(\s+summary: )", r"\1시험용 ", (DATA_DIR / "neis.yaml").read_text(encoding="utf-8"))
    (cat_dir / "neis.yaml").write_text(re.sub(r"(?m)^(\s+description: )(\"?)", r"\1\2시험용 ", text), encoding="utf-8")
    catalog = load_catalog(cat_dir)
    version = Store(cache_dir=tmp_path / "cache").open("kopa", "v0001")
    one, many = _one_and_many(version, catalog, iterations=6, paths=40, shards=2, n=8, seed=3)
    # Questions no longer carry the catalog's descriptions (the api_words rule refuses a field
    # label before a value; the grammar names subjects from edge.synth.lexicon), so the edited
    # wording is not what shows the driver's catalog reached the tasks: that every Ray example
    # uses only the NEIS-only catalog's tools is (over the shipped tier the tasks would draw the
    # other platforms' intents), with the same questions as one process.
    assert all(set(e["tools"]) <= set(catalog.endpoints) for e in many.examples)
    assert {p for e in many.examples for p in e["platforms"]} == {"neis"}
    assert [e["question"] for e in one.examples] == [e["question"] for e in many.examples]


@pytest.mark.slow
def test_ray_shards_follow_the_cluster_and_progress_streams(v0005_full: FullGraph, local_ray: None) -> None:
    """Unset, the shard count on Ray is the cluster's CPUs (here a local instance of 2); the
    driver hears of kept drafts while the shards run, not only at the end; and the bytes are
    those of one process with the same shard count."""
    version, catalog, obs, graph, gold = (v0005_full.version, v0005_full.catalog, v0005_full.obs, v0005_full.graph,
                                          v0005_full.gold)
    seen: list[int] = []
    many = synthesize(version, catalog, graph, n=8, seed=5, obs=obs, ray_address="local", ray_cpus=2, gold=gold,
                      progress=lambda done, _want: seen.append(done))
    assert many.report["shards"] == int(ray.cluster_resources()["CPU"]) == 2
    assert len(set(seen)) >= 3 and seen[-1] == many.report["drafts"], seen  # moved before the end
    one = synthesize(version, catalog, graph, n=8, seed=5, obs=obs, config=SynthConfig(shards=2), gold=gold)
    assert [e["id"] for e in one.examples] == [e["id"] for e in many.examples]
    assert one.report == many.report


def test_ray_options_need_a_ray_run(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from edge.cli import edge_app

    def said(r: object) -> str:  # the message whatever rich's box and line breaks
        return " ".join(str(getattr(r, "output", "")).replace("│", " ").split())

    r = CliRunner().invoke(edge_app, ["synthesize", "--n", "1", "--out", str(tmp_path / "o"), "--ray-cpus", "2"])
    assert r.exit_code == 2 and "add --ray local" in said(r), r.output
    r = CliRunner().invoke(edge_app, ["synthesize", "--n", "1", "--out", str(tmp_path / "o"), "--ray", "local",
                                      "--store", "s3://bucket/cassettes"])
    assert r.exit_code == 2 and "file:// URI" in said(r), r.output
