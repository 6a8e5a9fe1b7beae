"""Catalog tiers: which platform files ``load_catalog`` reads.

``curated``  the hand-made YAML files of ``simulator/catalog/data/`` (82 endpoints, checked
             against real bodies; ``fidelity: curated``);
``full``     curated + the generated paper-scale set of ``simulator/catalog/generated/``
             (the ten paper platforms, ≥ 2,318 tools; ``fidelity: partial``);
``all``      curated + every operation the committed facts know (≈ 11,000), built in
             memory by the generator.

A generated endpoint never overrides a curated one: one with the same host, path and match
conditions, or the same id, is left out and listed in ``Catalog.shadowed``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import ValidationError

from ..errors import CatalogError
from .files import merge_raw
from .models import Platform

__all__ = ["GENERATED_DIR", "TIERS", "Tier", "check_tier", "generated_platforms"]

GENERATED_DIR = Path(__file__).resolve().parent / "generated"
Tier = Literal["curated", "full", "all"]
TIERS: tuple[str, ...] = get_args(Tier)


def check_tier(tier: str) -> Tier:
    """``tier`` if it names a tier, else a one-line error naming the choices."""
    if tier not in TIERS:
        raise CatalogError(f"catalog tier={tier!r} is unknown; choose one of {', '.join(TIERS)}")
    return tier  # type: ignore[return-value]


def _raw_generated(tier: Tier) -> list[dict[str, Any]]:
    if tier == "all":
        from .generate.build import build_platforms

        return build_platforms(everything=True)[0]
    files = sorted(GENERATED_DIR.glob("gen_*.json"))
    if not files:
        raise CatalogError(
            f"no generated catalog files in {str(GENERATED_DIR)!r}; run `simulator catalog generate`"
        )
    return [json.loads(f.read_bytes()) for f in files]


def generated_platforms(
    tier: Tier, curated: list[Platform]
) -> tuple[list[Platform], list[tuple[str, str]]]:
    """The generated platforms of ``tier`` and the (generated, curated) ids left out."""
    if tier == "curated":
        return [], []
    taken: dict[tuple[str, str, tuple[tuple[str, str], ...]], str] = {}
    ids: set[str] = set()
    for plat in curated:
        for ep in plat.endpoints:
            taken[_route_key(ep.host, ep.path, ep.match)] = ep.id
            ids.add(ep.id)
    shadowed: list[tuple[str, str]] = []
    index = GENERATED_DIR / "index.json"
    if tier == "full" and index.exists():  # left out when the generator ran (same rule)
        for row in json.loads(index.read_text(encoding="utf-8")).get("shadowed_by_curated", []):
            shadowed.append((row["generated"], row["curated"]))
    out: list[Platform] = []
    for raw in _raw_generated(tier):
        kept = []
        for ep in raw["endpoints"]:
            key = _route_key(ep.get("host") or raw["host"], ep["path"], ep.get("match", {}))
            hit = taken.get(key) or (ep["id"] if ep["id"] in ids else None)
            if hit is not None:
                shadowed.append((ep["id"], hit))
                continue
            kept.append(ep)
        if not kept:
            continue
        try:
            out.append(Platform.model_validate(merge_raw({**raw, "endpoints": kept})))
        except ValidationError as exc:
            raise CatalogError(
                f"generated platform {raw.get('id')!r} is invalid (re-run `simulator catalog generate`):\n{exc}"
            ) from exc
    return out, shadowed


def _route_key(host: str, path: str, match: dict[str, str]) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    return host.lower(), path, tuple(sorted((k, v.lower()) for k, v in match.items()))
