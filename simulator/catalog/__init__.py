"""The catalog: platforms, endpoints and their tool schemas (DESIGN §3)."""

from __future__ import annotations

from .loader import DATA_DIR, DEFAULT_TIER, Catalog, Match, ReadPlan, load_catalog, load_platform_file
from .models import CATALOG_FORMAT, Endpoint, FieldSpec, FilterRule, KeyLayout, Param, Platform, QuerySemantics
from .requests import build_request
from .tiers import TIERS

__all__ = [
    "CATALOG_FORMAT",
    "DATA_DIR",
    "DEFAULT_TIER",
    "Catalog",
    "Endpoint",
    "FieldSpec",
    "FilterRule",
    "KeyLayout",
    "Match",
    "Param",
    "Platform",
    "QuerySemantics",
    "ReadPlan",
    "TIERS",
    "build_request",
    "load_catalog",
    "load_platform_file",
]
