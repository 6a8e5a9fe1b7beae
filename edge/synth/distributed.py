"""EDGE synthesis shards as Ray tasks (``simulator edge synthesize --ray ADDRESS``).

Each task opens the same cassette version and graph, runs one :class:`~edge.synth.shards.
ShardSpec` with :func:`~edge.synth.shards.synth_shard` and returns its drafts; the driver
joins them in shard order, so the output is byte-identical to a run without Ray. ``ray`` is an
optional dependency (``pip install 'kopa-sim[ray]'``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simulator import Catalog, Version, load_catalog
from simulator.catalog.tiers import TIERS

from ..graph import EdgeGraph

__all__ = ["run_shards_on_ray"]


def _catalog_of(tier: str, platforms: list[Any] | None) -> Catalog:
    """The driver's catalog in a task: the shipped tier by name, or the platforms it sent."""
    if platforms is None:
        return load_catalog(tier=tier)
    catalog = Catalog(platforms)
    catalog.tier = tier
    return catalog


def _shard_task(root: str, set_name: str, version_id: str, tier: str, platforms: list[Any] | None,
                graph_text: str, spec: Any, cfg: Any) -> Any:
    import tempfile

    from simulator import Store

    from ..observe import Observations
    from .shards import synth_shard

    catalog = _catalog_of(tier, platforms)
    version = Store(root=Path(root)).open(set_name, version_id)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "graph.json"
        path.write_text(graph_text, encoding="utf-8")
        graph = EdgeGraph.load(path, catalog)
    return synth_shard(version, catalog, graph, Observations.from_version(version, catalog), spec, cfg)


def run_shards_on_ray(version: Version, graph: EdgeGraph, specs: list[Any], cfg: Any, address: str) -> list[Any]:
    """Run ``specs`` as Ray tasks on the cluster at ``address`` (``"local"``: start one here)."""
    try:
        import ray
    except ImportError:
        raise ImportError("--ray needs ray: pip install 'kopa-sim[ray]' (or pip install ray)") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=None if address == "local" else address, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    try:
        task = ray.remote(_shard_task)
        root = str(Path(version.path).parents[1])
        text = graph.dumps()
        cat = graph.catalog
        # A shipped tier travels by name; any other catalog (a directory, an edited copy) by
        # its platforms, once, so every task synthesizes over the driver's tools.
        shipped = cat is load_catalog(tier=cat.tier) if cat.tier in TIERS else False
        platforms = None if shipped else ray.put(list(cat.parts.values()))  # its files; resolved per task
        refs = [task.remote(root, version.manifest.set, version.manifest.version, cat.tier, platforms, text, spec, cfg)
                for spec in specs]
        return list(ray.get(refs))
    finally:
        if started:
            ray.shutdown()
