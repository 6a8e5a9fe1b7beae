"""The catalog: platforms, endpoints and their tool schemas (DESIGN §3)."""

from __future__ import annotations

from .loader import DATA_DIR, Catalog, Match, load_catalog, load_platform_file
from .models import CATALOG_FORMAT, Endpoint, FieldSpec, FilterRule, KeyLayout, Param, Platform, QuerySemantics
from .requests import build_request

__all__ = [
    "CATALOG_FORMAT",
    "DATA_DIR",
    "Catalog",
    "Endpoint",
    "FieldSpec",
    "FilterRule",
    "KeyLayout",
    "Match",
    "Param",
    "Platform",
    "QuerySemantics",
    "build_request",
    "load_catalog",
    "load_platform_file",
]
