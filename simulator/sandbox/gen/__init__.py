"""Per-platform record generators of the sandbox (one module per catalog platform).

Each module ``simulator.sandbox.gen.<platform>`` exposes ``GENERATORS``: endpoint id →
:data:`Generator`. A generator returns the records of the collection a request selects
(its key filters: every parameter but key, paging and format), in the endpoint's native
field order and JSON types (see ``_common.shape``); ``[]`` when there is no data.
Filters that the endpoint's query semantics declare are applied afterwards by the app with
``simulator.query.apply_query``, so a generator may ignore them (it may also apply them
early to stay cheap: the answer is the same).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Sequence

from ..world import World

__all__ = ["Generator", "PLATFORMS", "generator_for", "generators"]

#: (world, key filters) → records of the selected collection (dicts in native field order).
Generator = Callable[[World, dict[str, str]], Sequence[dict[str, Any]]]

#: Platform id → module name under this package (imported on first use).
PLATFORMS: dict[str, str] = {
    "assembly": "assembly",
    "datagokr_misc": "datagokr_misc",
    "ecos": "ecos",
    "fsc": "fsc",
    "juso": "juso",
    "lawgokr": "lawgokr",
    "mois": "mois",
    "molit": "molit",
    "nec": "nec",
    "neis": "neis",
    "opendart": "opendart",
    "seoul": "seoul",
    "tago": "tago",
}

_loaded: dict[str, dict[str, Generator]] = {}


def generators(platform: str) -> dict[str, Generator]:
    """The generators of one platform ({} for a platform without a module)."""
    gens = _loaded.get(platform)
    if gens is None:
        module = PLATFORMS.get(platform)
        gens = {} if module is None else dict(importlib.import_module(f"{__name__}.{module}").GENERATORS)
        _loaded[platform] = gens
    return gens


def generator_for(platform: str, endpoint_id: str) -> Generator | None:
    return generators(platform).get(endpoint_id)
