"""Adapters that put the resolver behind HTTP client libraries (DESIGN §6)."""

from __future__ import annotations

from .httpx_transport import AsyncSimTransport, SimTransport, to_sim_request

__all__ = ["AsyncSimTransport", "SimTransport", "to_sim_request"]
