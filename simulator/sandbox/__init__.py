"""The sandbox: a seeded stand-in for every catalog endpoint (DESIGN §7).

``create_app(seed=…, keys=…, limits=…)`` is the ASGI app behind ``simulator sandbox serve``;
``World(seed)`` is the linked data it serves (see ``simulator.sandbox.world``).
"""

from __future__ import annotations

from .app import SandboxApp, create_app, default_keys
from .limits import Limits
from .world import World

__all__ = ["Limits", "SandboxApp", "World", "create_app", "default_keys"]
