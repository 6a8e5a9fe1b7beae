"""The catalog: platforms, endpoints and their tool schemas (DESIGN §3)."""

from __future__ import annotations

from .loader import DATA_DIR, Catalog, Match, load_catalog, load_platform_file
from .models import CATALOG_FORMAT, Endpoint, FieldSpec, FilterRule, Param, Platform, QuerySemantics

__all__ = [
    "CATALOG_FORMAT",
    "DATA_DIR",
    "Catalog",
    "Endpoint",
    "FieldSpec",
    "FilterRule",
    "Match",
    "Param",
    "Platform",
    "QuerySemantics",
    "load_catalog",
    "load_platform_file",
]
