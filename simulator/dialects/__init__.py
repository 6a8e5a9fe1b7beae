"""Wire dialects, one module per family (DESIGN §4); variants are endpoint options.

``get_dialect(name)`` returns the shared instance of a family. Families:

============  ==============================================================
``datagokr``  data.go.kr gateway services (TAGO, FSC, NEC, MOLIT RTMS, MOIS …)
``openportal`` head/row family: NEIS, National Assembly, MOIS StanReginCd
``seoul``     path ranges with the key in the path: Seoul Open Data, ECOS
``swopenapi`` Seoul real-time subway arrival
``opendart``  OpenDART (status/message, list, group, ZIP)
``lawgokr``   law.go.kr DRF search and detail
``juso``      juso.go.kr road-name addresses
============  ==============================================================
"""

from __future__ import annotations

import importlib

from ..errors import CatalogError
from .base import (
    BaseDialect,
    Dialect,
    ErrorKind,
    Parsed,
    Split,
    SplitError,
    Window,
    collection_key,
    json_bytes,
    xml_escape,
)
from .compare import equivalent

__all__ = [
    "BaseDialect",
    "DIALECTS",
    "Dialect",
    "ErrorKind",
    "Parsed",
    "Split",
    "SplitError",
    "Window",
    "collection_key",
    "equivalent",
    "get_dialect",
    "json_bytes",
    "xml_escape",
]

#: Family name → module under ``simulator.dialects`` exposing ``DIALECT``.
DIALECTS: dict[str, str] = {
    "datagokr": "datagokr",
    "openportal": "openportal",
    "seoul": "seoul",
    "swopenapi": "swopenapi",
    "opendart": "opendart",
    "lawgokr": "lawgokr",
    "juso": "juso",
}

_loaded: dict[str, Dialect] = {}


def get_dialect(name: str) -> Dialect:
    """The dialect instance of family ``name``."""
    d = _loaded.get(name)
    if d is not None:
        return d
    module = DIALECTS.get(name)
    if module is None:
        raise CatalogError(f"unknown dialect={name!r}; known: {', '.join(sorted(DIALECTS))}")
    d = importlib.import_module(f"{__name__}.{module}").DIALECT
    _loaded[name] = d
    return d
