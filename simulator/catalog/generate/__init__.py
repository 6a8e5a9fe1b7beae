"""The catalog generator: published facts → generated catalog entries (DESIGN §3).

Two steps, both deterministic:

1. **extract** (:mod:`.extract`, needs the sources): read facts out of wheels and git
   mirrors into ``simulator/catalog/generated/facts/`` (committed, compact);
2. **build** (:mod:`.build`, offline): facts → one JSON platform file per generated
   platform under ``simulator/catalog/generated/`` plus ``index.json`` (counts, the
   generated endpoints a curated one shadows).

``simulator catalog generate`` runs step 2; ``--all`` builds every operation the facts
know (≈ 11,000, written to ``--out``; ``load_catalog(tier="all")`` builds it in memory).

>>> plats, report = build_platforms()
>>> sum(report.generated.values()) > 2000
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .build import AGENCIES, PAPER_AGENCIES, BuildReport, build_platforms

__all__ = [
    "AGENCIES",
    "GENERATED_DIR",
    "PAPER_AGENCIES",
    "BuildReport",
    "build_platforms",
    "dump_platform",
    "generate",
]

GENERATED_DIR = Path(__file__).resolve().parent.parent / "generated"


def dump_platform(plat: dict[str, Any]) -> bytes:
    """One platform as compact JSON: one endpoint per line (reviewable diffs, fast loads)."""
    head = {k: v for k, v in plat.items() if k != "endpoints"}
    lines = [json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1] + ',"endpoints":[']
    eps = [json.dumps(ep, ensure_ascii=False, separators=(",", ":")) for ep in plat["endpoints"]]
    lines.append(",\n".join(eps))
    lines.append("]}")
    return "\n".join(lines).encode("utf-8") + b"\n"


def generate(out: Path | None = None, *, everything: bool = False) -> BuildReport:
    """Build the generated tier and write it to ``out`` (default: the shipped directory).

    Files of generated platforms no longer built are removed; ``facts/`` is kept.
    """
    out = Path(out) if out is not None else GENERATED_DIR
    out.mkdir(parents=True, exist_ok=True)
    plats, report = build_platforms(everything=everything)
    keep = set()
    for plat in plats:
        name = f"{plat['id']}.json"
        keep.add(name)
        (out / name).write_bytes(dump_platform(plat))
    for stale in out.glob("gen_*.json"):
        if stale.name not in keep:
            stale.unlink()
    index = {
        "format": 1,
        "everything": everything,
        "platforms": {p["id"]: len(p["endpoints"]) for p in plats},
        "total": sum(len(p["endpoints"]) for p in plats),
        "shadowed_by_curated": [{"generated": g, "curated": c} for g, c in report.shadowed],
    }
    (out / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return report
