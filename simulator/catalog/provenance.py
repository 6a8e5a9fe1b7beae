"""Provenance of catalog entries, for people: ``simulator catalog show`` and ``stats``."""

from __future__ import annotations

from .loader import Catalog
from .models import Endpoint

__all__ = ["PAPER_PLATFORMS", "describe", "platform_table"]

#: The paper's platforms: name → (published operations per catalog_sources.md, platform ids).
PAPER_PLATFORMS: dict[str, tuple[int, tuple[str, ...]]] = {
    "OpenDART": (85, ("opendart",)),
    "law.go.kr DRF": (173, ("lawgokr",)),
    "National Assembly": (276, ("assembly",)),
    "NEIS": (12, ("neis",)),
    "data.go.kr NEC": (35, ("nec",)),
    "data.go.kr FSC": (343, ("fsc",)),
    "data.go.kr MOLIT (+TAGO)": (383, ("molit", "tago")),
    "data.go.kr MOIS": (870, ("mois",)),
    "data.go.kr KMA": (150, ("kma",)),
    "data.go.kr AirKorea": (144, ("airkorea",)),
    "data.go.kr PPS": (185, ("pps",)),
    "data.go.kr KASI": (16, ("kasi",)),
    "data.go.kr TourAPI (curated)": (0, ("kto",)),
    "Seoul Open Data": (0, ("seoul",)),
    "ECOS": (6, ("ecos",)),
    "juso.go.kr": (0, ("juso",)),
}


def describe(catalog: Catalog, endpoint_id: str) -> str:
    """A few lines: the endpoint, its fidelity, where each part of it came from."""
    shadowed_by = dict(catalog.shadowed).get(endpoint_id)
    if shadowed_by is not None and endpoint_id not in catalog.endpoints:
        return (f"{endpoint_id}: a generated entry left out, the curated endpoint {shadowed_by!r} serves its "
                f"URL (curated wins); `simulator catalog show {shadowed_by}`")
    ep = catalog.endpoint(endpoint_id)
    plat = catalog.platform_of(ep)
    lines = [
        f"{ep.id}  ({plat.name_ko}; platform {plat.id}, tier {ep.tier}, dialect {ep.dialect})",
        f"  {ep.method} {plat.scheme}://{ep.host}{ep.path}"
        + ("?" + "&".join(f"{k}={v}" for k, v in ep.match.items()) if ep.match else ""),
        f"  summary: {ep.summary}",
        f"  summary_en: {ep.summary_en}",
        f"  fidelity: {ep.fidelity}",
        f"  params: {len(ep.params)} ({sum(p.required for p in ep.params)} required,"
        f" {sum(bool(p.description) for p in ep.params)} with a Korean label)",
        f"  fields: {len(ep.fields)} ({sum(bool(f.description) for f in ep.fields)} with a Korean label)",
        f"  paging: default {ep.default_page_size}, max {ep.max_page_size}; record path {ep.record_path or '-'}",
    ]
    if ep.fidelity == "curated":
        lines.append(f"  provenance: hand-made entry in simulator/catalog/data/{ep.part_id}.yaml"
                     " (checked against real samples where shared/samples has them)")
    else:
        lines.append(f"  provenance: generated entry of simulator/catalog/generated/{ep.part_id}.json")
        lines += [f"    {k}: {v}" for k, v in sorted(ep.provenance.items())]
        by_source: dict[str, list[str]] = {}
        for f in ep.fields:
            by_source.setdefault(f.source or "unrecorded", []).append(f.name)
        lines.append("  fields by source:")
        lines += [f"    {src}: {', '.join(names)}" for src, names in by_source.items()]
        if "thin" in ep.provenance:
            lines.append(f"  THIN: {len(ep.fields)} declared field(s); {ep.provenance['thin']}")
    family = ep.opt("family")
    if family and ep.fidelity == "curated":  # (a generated endpoint's provenance names it)
        from .datagokr_families import families

        fam = next((f for f in families() if f.name == family), None)
        title = f" — {fam.title}" if fam is not None else ""
        lines.append(f"  envelope: data.go.kr family {family}{title} (simulator/catalog/datagokr_families.yaml,"
                     " from real bodies; the endpoint's own options win)")
    shadows = [g for g, c in catalog.shadowed if c == ep.id]
    if shadows:
        lines.append(f"  shadows generated: {', '.join(shadows)}")
    return "\n".join(lines)


def _row_key(ep: Endpoint) -> str:
    """The platform id an endpoint is counted under."""
    return ep.platform


def platform_table(catalog: Catalog) -> str:
    """Markdown: platform, published, in catalog, curated, generated."""
    rows = ["| platform | published | in catalog | curated | generated |", "|---|---:|---:|---:|---:|"]
    totals = [0, 0, 0, 0]
    seen: set[str] = set()
    for name, (published, pids) in PAPER_PLATFORMS.items():
        eps = [e for e in catalog.endpoints.values() if _row_key(e) in pids]
        seen.update(pids)
        cur = sum(e.fidelity == "curated" for e in eps)
        row = [published, len(eps), cur, len(eps) - cur]
        totals = [a + b for a, b in zip(totals, row)]
        rows.append(f"| {name} | {published or '—'} | {len(eps)} | {cur} | {len(eps) - cur} |")
    rest = [e for e in catalog.endpoints.values() if _row_key(e) not in seen]
    if rest:
        cur = sum(e.fidelity == "curated" for e in rest)
        totals = [totals[0], totals[1] + len(rest), totals[2] + cur, totals[3] + len(rest) - cur]
        rows.append(f"| other data.go.kr agencies | — | {len(rest)} | {cur} | {len(rest) - cur} |")
    rows.append(f"| **total** | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} |")
    return "\n".join(rows)
