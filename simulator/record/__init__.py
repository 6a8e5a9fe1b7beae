"""Recording from the live APIs or a sandbox (DESIGN §7): plans, live client, recorder."""

from __future__ import annotations

from .live import LiveClient, RetryPolicy, key_env_of
from .plan import DEFAULT_PLAN, Crawl, Plan, Seed, load_plan
from .recorder import Recorder, RecordResult

__all__ = [
    "DEFAULT_PLAN",
    "Crawl",
    "LiveClient",
    "Plan",
    "RecordResult",
    "Recorder",
    "RetryPolicy",
    "Seed",
    "key_env_of",
    "load_plan",
]
