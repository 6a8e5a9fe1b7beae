"""``synthesize --ray``: the shards as Ray tasks on a local instance give the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from edge import Observations, VerifyConfig, build_graph
from edge.synth import SynthConfig, synthesize, write_all
from simulator import Store, load_catalog

ray = pytest.importorskip("ray")


@pytest.mark.slow
def test_ray_run_is_byte_identical_to_a_single_process_run(tmp_path: Path) -> None:
    store = Store(cache_dir=tmp_path / "cache")
    version = store.open("kopa")
    catalog = load_catalog()
    obs = Observations.from_version(version, catalog)
    graph = build_graph(version, catalog, seed=7, config=VerifyConfig(iterations=10, paths_per_iteration=50,
                                                                      min_trials=2), obs=obs).graph
    cfg = SynthConfig(shards=3)
    one = synthesize(version, catalog, graph, n=12, seed=5, obs=obs, config=cfg)
    many = synthesize(version, catalog, graph, n=12, seed=5, obs=obs, config=cfg, ray_address="local")
    assert one.examples and [e["id"] for e in one.examples] == [e["id"] for e in many.examples]
    pa = write_all(one.examples, tmp_path / "a", version, catalog, one.report)
    pb = write_all(many.examples, tmp_path / "b", version, catalog, many.report)
    for k in pa:
        assert pa[k].read_bytes() == pb[k].read_bytes(), k


@pytest.mark.slow
def test_ray_tasks_synthesize_over_the_drivers_catalog(tmp_path: Path) -> None:
    """The tasks use the driver's catalog: here one loaded from a directory whose summaries and
    param descriptions were edited (questions state arguments by their params' descriptions;
    curated tools' subjects come from edge.synth.lexicon). They used to reload the shipped
    default tier, so their questions came out in the shipped wording and the bytes differed."""
    import re
    import shutil

    from simulator.catalog.loader import DATA_DIR

    cat_dir = tmp_path / "catalog"
    shutil.copytree(DATA_DIR, cat_dir)
    for f in cat_dir.glob("*.yaml"):
        text = re.sub(r"(?m)^(\s+summary: )", r"\1시험용 ", f.read_text(encoding="utf-8"))
        f.write_text(re.sub(r"(?m)^(\s+description: )(\"?)", r"\1\2시험용 ", text), encoding="utf-8")
    catalog = load_catalog(cat_dir)
    store = Store(cache_dir=tmp_path / "cache")
    version = store.open("kopa", "v0001")
    obs = Observations.from_version(version, catalog)
    graph = build_graph(version, catalog, seed=7, config=VerifyConfig(iterations=6, paths_per_iteration=40,
                                                                      min_trials=2), obs=obs).graph
    cfg = SynthConfig(shards=2)
    one = synthesize(version, catalog, graph, n=8, seed=3, obs=obs, config=cfg)
    many = synthesize(version, catalog, graph, n=8, seed=3, obs=obs, config=cfg, ray_address="local")
    assert any("시험용" in e["question"] for e in one.examples)
    assert [e["question"] for e in one.examples] == [e["question"] for e in many.examples]
    assert [e["id"] for e in one.examples] == [e["id"] for e in many.examples]
