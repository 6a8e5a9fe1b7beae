"""EDGE at the paper's scale (#16): ``build_graph`` over the full catalog and ``kopa@v0002``
(every tool recorded) is the same bytes for the same seed, and proposes and verifies
cross-platform edges among the generated tools too."""

from __future__ import annotations

import pytest

from edge.build import build_graph
from edge.observe import Observations
from edge.verify import VerifyConfig
from simulator import Store, load_catalog

pytestmark = pytest.mark.slow  # two builds over 2,692 tools: 114 s on 2 busy cores


def test_full_tier_graph_same_seed_same_bytes(tmp_path_factory: pytest.TempPathFactory) -> None:
    version = Store(cache_dir=tmp_path_factory.mktemp("edge-full-cache")).open("kopa", "v0002")
    catalog = load_catalog(tier="full")
    obs = Observations.from_version(version, catalog)
    cfg = VerifyConfig(iterations=4, paths_per_iteration=10)
    a = build_graph(version, catalog, seed=3, config=cfg, obs=obs)
    b = build_graph(version, catalog, seed=3, config=cfg, obs=obs)
    assert a.graph.dumps(a.obs) == b.graph.dumps(b.obs)
    stats = a.graph.meta["stats"]
    assert len(a.graph.meta["endpoint_digests"]) >= 2600  # observations of every recorded tool
    assert stats["edges"]["proposed"] > 10_000, stats
    assert stats["edges"]["verified"] > 0, stats
