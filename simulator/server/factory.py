"""The app factory every ``simulator serve`` worker calls: its settings come as arguments.

``simulator serve --workers N`` hands uvicorn ``functools.partial(build_app, config)``
(picklable: a module-level function and a frozen dataclass), so each worker process opens
the same version with the same settings; nothing travels through ``os.environ``.

>>> from functools import partial
>>> factory = partial(build_app, ServeConfig(root="cassettes", set_name="kopa"))  # doctest: +SKIP
>>> app = factory()                                                                # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass

from ..catalog import load_catalog
from ..resolve import FaultConfig, MissPolicy, Resolver
from ..store import Store
from .app import SimApp, create_app

__all__ = ["ServeConfig", "build_app"]


@dataclass(frozen=True)
class ServeConfig:
    """What a server process needs to open and answer from one version.

    Args:
        root: the cassettes directory (None: the store's default).
        cache: the index cache directory (None: the store's default).
        set_name: the cassette set.
        version: the version (None: the latest).
        miss: the miss policy (``strict`` or ``native``).
        fault_seed: seeded faults with this seed; None: no faults.
        fault_rate: the fraction of calls that get a fault.
        catalog: the catalog tier (``curated``, ``full``, ``all``; None: the default tier).
        ignore_params: query parameters never matched on (``--ignore-param``).
    """

    root: str | None = None
    cache: str | None = None
    set_name: str = "kopa"
    version: str | None = None
    miss: MissPolicy = "strict"
    fault_seed: int | None = None
    fault_rate: float = 0.1
    catalog: str | None = None
    ignore_params: tuple[str, ...] = ()


def build_app(config: ServeConfig) -> SimApp:
    """The replay app for ``config`` (called once in each worker process)."""
    store = Store(config.root, config.cache)
    version = store.open(config.set_name, config.version)
    faults = None if config.fault_seed is None else FaultConfig(seed=config.fault_seed, rate=config.fault_rate)
    catalog = load_catalog(tier=config.catalog)
    resolver = Resolver(version, catalog, miss=config.miss, faults=faults, ignore_params=config.ignore_params)
    return create_app(resolver, store)
