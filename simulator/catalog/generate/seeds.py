"""A recording plan with one seed per generated endpoint (phase 2 of #16: record every tool).

Each seed gives the endpoint's required parameters a value: its published example, else the
first enum value, else a placeholder of its type. Against the sandbox every such request
answers records (the synthesiser echoes filter values), so
``simulator record --live --upstream <sandbox> --plan <this> --catalog full`` records one
collection per generated tool.

>>> from simulator.catalog import load_catalog
>>> plan = seed_plan(load_catalog(tier="full"), platforms=["kasi"])
>>> plan["seeds"][0]["endpoint"].startswith("kasi_")
True
"""

from __future__ import annotations

from typing import Any

from ..loader import Catalog
from ..models import Endpoint

__all__ = ["seed_params", "seed_plan"]


def seed_params(ep: Endpoint) -> dict[str, str]:
    """Values for ``ep``'s required parameters (key, paging and format left to the recorder)."""
    out: dict[str, str] = {}
    for p in ep.params:
        if not p.required or p.role in ("auth", "format", "page", "page_size", "range_start", "range_end"):
            continue
        out[p.name] = p.example or (p.enum[0] if p.enum else ("1" if p.type == "integer" else "A1"))
    return out


def seed_plan(catalog: Catalog, *, platforms: list[str] | None = None, set_name: str = "kopa") -> dict[str, Any]:
    """A plan (``simulator.record.Plan`` data) seeding every generated, non-binary endpoint."""
    wanted = None if platforms is None else set(catalog.resolve_platforms(list(platforms))[0])
    eps = sorted(
        (e for e in catalog.endpoints.values()
         if e.fidelity != "curated" and e.kind != "binary" and (wanted is None or e.platform in wanted)),
        key=lambda e: (e.part_id, e.id),  # catalog-file order: plans written before platforms merged
    )
    return {
        "set": set_name,
        "rate_per_sec": {"default": 5},
        "seeds": [{"endpoint": e.id, "params": seed_params(e)} for e in eps],
    }
