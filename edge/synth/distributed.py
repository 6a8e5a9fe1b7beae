"""EDGE synthesis shards as Ray tasks (``simulator edge synthesize --ray ADDRESS``).

Each task runs one :class:`~edge.synth.shards.ShardSpec` with
:func:`~edge.synth.shards.synth_shard` and returns its drafts; the driver joins them in shard
order, so the output is byte-identical to a run without Ray *with the same shard count*
(``report.json`` says ``shards``; ``--shards K`` reproduces a Ray run in one process).

How it scales:

- **Shards sized to the cluster**: :class:`RayCluster` reports the cluster's CPUs
  (``ray.cluster_resources()``), the default shard count on Ray; one shard is one task of
  one CPU.
- **Shared inputs put once** (``ray.put``): the graph's text, the driver's
  :class:`~edge.observe.Observations`, the bench hold-outs (its entities and edges,
  :mod:`edge.synth.splits`, whose reading loads the ``all`` tier's catalog, and its gold calls
  and record sets, :mod:`edge.synth.contamination`) and, for a catalog that is not a shipped
  tier, its platforms. A task reads them from the
  object store; nothing is recomputed per task.
- **The store from a path every worker can reach**: a task opens the cassette version from
  ``store`` (default: the driver's cassette root, right on one machine; on a multi-node
  cluster pass a shared filesystem path or a ``file://`` URI mounted on every node) and
  checks its content hash against the driver's, so no task synthesizes from other data.
- **Progress streamed to the driver**: each task reports its kept drafts to a small actor;
  the driver polls it while it waits on the shards (``ray.wait``), so the bar moves as
  examples are made.

``ray`` is an optional dependency (``pip install 'kopa-sim[ray]'``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlparse

from simulator import Catalog, Version, load_catalog
from simulator.catalog.tiers import TIERS

from ..errors import EdgeError
from ..graph import EdgeGraph

__all__ = ["POLL_S", "RayCluster", "store_path"]

#: Seconds between progress polls while the shards run.
POLL_S = 0.5


def store_path(store: str) -> Path:
    """A cassette root given as a path or a ``file://`` URI (the only scheme a worker opens).

    >>> store_path("file:///mnt/shared/cassettes").as_posix()
    '/mnt/shared/cassettes'
    """
    if "://" not in store:
        return Path(store)
    u = urlparse(store)
    if u.scheme != "file":
        raise EdgeError(f"--store {store!r}: only a path or a file:// URI can be opened by a worker; "
                         "mount the cassettes on every node and pass that path")
    return Path(unquote(u.path))


def _catalog_of(tier: str, platforms: list[Any] | None) -> Catalog:
    """The driver's catalog in a task: the shipped tier by name, or the platforms it sent."""
    if platforms is None:
        return load_catalog(tier=tier)
    catalog = Catalog(platforms)
    catalog.tier = tier
    return catalog


def _open_version(root: str, set_name: str, version_id: str, content_hash: str) -> Version:
    import socket

    from simulator import SimulatorError, Store

    try:
        version = Store(root=store_path(root)).open(set_name, version_id)
    except (SimulatorError, OSError) as exc:
        raise EdgeError(f"Ray worker on {socket.gethostname()!r} cannot open {set_name}@{version_id} under "
                           f"{root!r} ({exc}): pass --store with a path (or file:// URI) every node can read, "
                           "such as a shared filesystem") from None
    if version.content_hash != content_hash:
        raise EdgeError(f"Ray worker on {socket.gethostname()!r}: {set_name}@{version_id} under {root!r} has "
                           f"content hash {version.content_hash[:12]}, the driver's is {content_hash[:12]}: "
                           "point --store at the driver's cassettes")
    return version


def _shard_task(where: tuple[str, str, str, str], tier: str, platforms: list[Any] | None, graph_text: str,
                obs: Any, gold: Any, bench: Any, spec: Any, cfg: Any, meter: Any) -> Any:
    import tempfile

    from .shards import synth_shard

    catalog = _catalog_of(tier, platforms)
    version = _open_version(*where)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "graph.json"
        path.write_text(graph_text, encoding="utf-8")
        graph = EdgeGraph.load(path, catalog)
    progress = None if meter is None else (lambda k, _w: meter.update.remote(spec.index, k))
    return synth_shard(version, catalog, graph, obs, spec, cfg, progress=progress, gold=gold, bench=bench)


class _Meter:
    """Drafts kept so far, per shard (a retried shard starts again from 0)."""

    def __init__(self) -> None:
        self.done: dict[int, int] = {}

    def update(self, shard: int, kept: int) -> None:
        self.done[shard] = kept

    def total(self) -> int:
        return sum(self.done.values())


class RayCluster:
    """A connection to a Ray cluster for one synthesis run (``"local"``: start one here).

    Connects on ``__enter__`` unless Ray is already initialised (then it is left running on
    exit); ``cpus`` starts a local instance with that many CPUs (to measure scaling)."""

    def __init__(self, address: str, *, cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ImportError("--ray needs ray: pip install 'kopa-sim[ray]' (or pip install ray)") from None
        self.ray = ray
        self.address = address
        self.cpus = cpus
        self.started = False

    def __enter__(self) -> RayCluster:
        if not self.ray.is_initialized():
            local = self.address == "local"
            self.ray.init(address=None if local else self.address, num_cpus=self.cpus if local else None,
                          include_dashboard=False, log_to_driver=False, configure_logging=False)
            self.started = True
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        if self.started:
            self.ray.shutdown()

    def cpu_count(self) -> int:
        """CPUs of the whole cluster (``ray.cluster_resources()``), at least 1."""
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def run_shards(self, version: Version, graph: EdgeGraph, specs: list[Any], cfg: Any, *,
                   obs: Any, gold: Any = None, bench: Any = None, store: str | None = None,
                   progress: Callable[[int, int], None] | None = None, want: int = 0) -> list[Any]:
        """Run ``specs`` as tasks; their results in shard order."""
        ray = self.ray
        task = ray.remote(_shard_task)
        root = store or str(Path(version.path).parents[1])
        where = (root, version.manifest.set, version.manifest.version, version.content_hash)
        cat = graph.catalog
        # A shipped tier travels by name; any other catalog (a directory, an edited copy) by
        # its platforms, once, so every task synthesizes over the driver's tools.
        shipped = cat is load_catalog(tier=cat.tier) if cat.tier in TIERS else False
        platforms = None if shipped else ray.put(list(cat.parts.values()))
        text, obs_ref, gold_ref, bench_ref = ray.put(graph.dumps()), ray.put(obs), ray.put(gold), ray.put(bench)
        meter = ray.remote(num_cpus=0)(_Meter).remote() if progress else None
        refs = [task.remote(where, cat.tier, platforms, text, obs_ref, gold_ref, bench_ref, spec, cfg, meter)
                for spec in specs]
        pending = list(refs)
        try:
            while pending:
                _ready, pending = ray.wait(pending, num_returns=len(pending), timeout=POLL_S)
                if meter is not None and progress is not None and pending:
                    progress(int(ray.get(meter.total.remote())), want)
            results = list(ray.get(refs))
            if progress is not None:  # the last word is the results' (the meter's updates may still be in flight)
                progress(sum(len(r.drafts) for r in results), want)
            return results
        except ray.exceptions.RayTaskError as exc:  # a worker's EdgeError (cannot open --store): its message
            cause = getattr(exc, "cause", None)
            if isinstance(cause, EdgeError):
                raise EdgeError(str(cause)) from None
            raise

