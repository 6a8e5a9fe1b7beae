"""HTTP serving of the resolver (``simulator serve``)."""

from __future__ import annotations

from .app import MAX_BODY, MAX_TARGET, SimApp, create_app

__all__ = ["MAX_BODY", "MAX_TARGET", "SimApp", "create_app"]
