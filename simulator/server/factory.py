"""App factory for uvicorn workers (``simulator serve --workers N``): reads its settings
from the environment the CLI set, so every worker process opens the same version."""

from __future__ import annotations

import os
from typing import Mapping

from ..resolve import FaultConfig, Resolver
from ..store import Store
from .app import SimApp, create_app


def app_from_env(environ: Mapping[str, str] | None = None) -> SimApp:
    env = os.environ if environ is None else environ
    store = Store(env.get("KOPA_SERVE_ROOT") or None, env.get("KOPA_SERVE_CACHE") or None)
    version = store.open(env.get("KOPA_SERVE_SET", "kopa"), env.get("KOPA_SERVE_VERSION") or None)
    faults = None
    if env.get("KOPA_SERVE_FAULT_SEED"):
        faults = FaultConfig(
            seed=int(env["KOPA_SERVE_FAULT_SEED"]),
            rate=float(env.get("KOPA_SERVE_FAULT_RATE", "0.1")),
        )
    miss = env.get("KOPA_SERVE_MISS", "strict")
    ignore = env.get("KOPA_SERVE_IGNORE_PARAMS", "")
    resolver = Resolver(version, miss=miss, faults=faults, ignore_params=ignore.split(","))  # type: ignore[arg-type]
    return create_app(resolver, store)
