"""How many of a real response body's record fields the simulator's answer carries (issue 27).

For every real body in ``../shared/samples`` that a fidelity case (``tests/fidelity/*.yaml``)
ties to a request, the body is parsed by the dialect of the endpoint serving that request; the
record fields it holds (the union over its records) are held against the fields the endpoint
serves from world edition 6 on (declared fields less ``retired_fields`` and ``dropped_fields``). Printed: one line per
body, the share per endpoint, and the pooled share (fields carried / real fields, all bodies).

    python scripts/fields_coverage.py            # the table
    python scripts/fields_coverage.py --json     # the same as JSON
    python scripts/fields_coverage.py --thin     # generated endpoints declaring <= 3 fields, per platform and why
    python scripts/fields_coverage.py --thin --edition 8   # the same, as world edition 8 serves them

Bodies without records (errors, empty results) and cases marked ``skip`` are left out and
counted. Only names are compared: a field the simulator carries under the real name counts.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulator.catalog import Catalog, load_catalog  # noqa: E402
from simulator.dialects import get_dialect  # noqa: E402
from simulator.dialects.headers import sniff_format  # noqa: E402
from simulator.request import SimRequest  # noqa: E402

CASES = ROOT / "tests" / "fidelity"


def samples_dir() -> Path:
    import os

    env = os.environ.get("KOPA_SHARED")
    if env:
        return Path(env) / "samples"
    beside = ROOT.parent / "shared"
    return (beside if beside.is_dir() else Path("/work/shared")) / "samples"


@dataclass
class BodyCoverage:
    sample: str
    endpoint: str
    real: list[str]
    missing: list[str]

    @property
    def carried(self) -> int:
        return len(self.real) - len(self.missing)


@dataclass
class Coverage:
    bodies: list[BodyCoverage] = field(default_factory=list)
    left_out: list[tuple[str, str]] = field(default_factory=list)

    @property
    def real_fields(self) -> int:
        return sum(len(b.real) for b in self.bodies)

    @property
    def carried(self) -> int:
        return sum(b.carried for b in self.bodies)

    @property
    def share(self) -> float:
        return self.carried / self.real_fields if self.real_fields else 1.0

    def per_endpoint(self) -> dict[str, tuple[int, int]]:
        """endpoint → (carried, real) over the union of its bodies' fields."""
        real: dict[str, set[str]] = {}
        miss: dict[str, set[str]] = {}
        for b in self.bodies:
            real.setdefault(b.endpoint, set()).update(b.real)
            miss.setdefault(b.endpoint, set()).update(b.missing)
        return {e: (len(real[e]) - len(miss[e]), len(real[e])) for e in sorted(real)}


def served_fields(catalog: Catalog, endpoint_id: str) -> set[str]:
    """The fields served from world edition 6 on: declared, less ``retired_fields`` (gone
    from edition 5) and ``dropped_fields`` (assumed fields a measured answer lacks, gone from 6)."""
    ep = catalog.endpoint(endpoint_id)
    gone = set((ep.options or {}).get("retired_fields", [])) | set((ep.options or {}).get("dropped_fields", {}))
    return {f.name for f in ep.fields if f.name not in gone}


def _record_keys(records: list[Any]) -> list[str]:
    keys: dict[str, None] = {}
    for r in records:
        if isinstance(r, dict):
            keys.update(dict.fromkeys(str(k) for k in r))
    return list(keys)


def measure(catalog: Catalog | None = None, samples: Path | None = None) -> Coverage:
    catalog = catalog or load_catalog()
    samples = samples or samples_dir()
    out = Coverage()
    for f in sorted(CASES.glob("*.yaml")):
        for case in yaml.safe_load(f.read_text("utf-8")):
            name = case["sample"]
            path = samples / name
            if "skip" in case or "request" not in case:
                out.left_out.append((name, "no request to tie it to an endpoint"))
                continue
            if not path.is_file():
                out.left_out.append((name, "not in the samples folder"))
                continue
            match = catalog.match(SimRequest.from_url(case["request"]))
            ep = match.endpoint
            body = path.read_bytes()
            try:
                parsed = get_dialect(ep.dialect).parse(ep, body, sniff_format(body))
            except Exception as exc:  # a body the dialect cannot read holds no records to count
                out.left_out.append((name, f"not parsed: {type(exc).__name__}"))
                continue
            keys = _record_keys(parsed.records) if parsed.outcome == "ok" else []
            if not keys:
                out.left_out.append((name, f"no records ({parsed.outcome})"))
                continue
            have = served_fields(catalog, ep.id)
            out.bodies.append(BodyCoverage(name, ep.id, keys, [k for k in keys if k not in have]))
    return out


def served_at(ep: Any, edition: int | None) -> set[str]:
    """The fields world edition ``edition`` serves of ``ep`` (the sandbox's own rule:
    ``late_fields``, ``dropped_fields``, ``retired_fields``); ``None``: every edition's newest."""
    if edition is None:
        gone = set((ep.options or {}).get("retired_fields", [])) | set((ep.options or {}).get("dropped_fields", {}))
        return {f.name for f in ep.fields if f.name not in gone}
    from types import SimpleNamespace

    from simulator.sandbox.gen.synth import served_fields as sandbox_served

    return {f.name for f in sandbox_served(SimpleNamespace(edition=edition), ep)}  # type: ignore[arg-type]


def thin_reason(ep: Any, edition: int | None = None) -> str:
    """The provenance's reason an endpoint is thin as edition ``edition`` serves it: a later
    edition's facts move the reason that held before it to ``thin_before_edition_N``."""
    prov = ep.provenance or {}
    if edition is not None:
        later = sorted(int(k.rsplit("_", 1)[1]) for k in prov if k.startswith("thin_before_edition_")
                       and int(k.rsplit("_", 1)[1]) > edition)
        if later:
            return str(prov[f"thin_before_edition_{later[0]}"])
    return str(prov.get("thin", ""))


def thin_kind(ep: Any, edition: int | None = None) -> str:
    """Why a generated endpoint declares <= 3 fields, from its provenance."""
    thin = thin_reason(ep, edition)
    if ep.kind == "binary":
        return "binary download (no records)"
    if "first 8" in thin:
        return "source cut at 8 (the API answers more)"
    if thin.startswith("no record field published for this operation by"):
        return "no field published by any source on hand"
    if "may answer only these" in thin:
        return "the spec lists only these"
    if "assembly-api-client" in thin:
        return "the Assembly model lists only these"
    if "no record field published for this target" in thin:
        return "law.go.kr target without an output table"
    return "other"


def thin_table(catalog: Catalog, edition: int | None = None) -> tuple[dict[str, dict[str, int]], int, int]:
    """platform → {why: count} over generated endpoints declaring <= 3 served fields (as world
    edition ``edition`` serves them; ``None``: the newest fields); the number of such endpoints
    and of generated endpoints."""
    out: dict[str, dict[str, int]] = {}
    total = thin = 0
    for ep in catalog.endpoints.values():
        if ep.tier != "generated":
            continue
        total += 1
        if len(served_at(ep, edition)) <= 3:
            thin += 1
            row = out.setdefault(ep.platform, {})
            kind = thin_kind(ep, edition)
            row[kind] = row.get(kind, 0) + 1
    return out, thin, total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    ap.add_argument("--thin", action="store_true", help="count generated endpoints declaring <= 3 fields instead")
    ap.add_argument("--edition", type=int, default=None,
                    help="with --thin: count the fields world edition N serves (default: the newest facts)")
    args = ap.parse_args(argv)
    if args.thin:
        table, thin, total = thin_table(load_catalog(), args.edition)
        for platform in sorted(table, key=lambda p: -sum(table[p].values())):
            row = table[platform]
            print(f"{platform:10s} {sum(row.values()):4d}  " + "; ".join(f"{k}: {v}" for k, v in sorted(row.items())))
        at = f" in world edition {args.edition}" if args.edition is not None else ""
        print(f"\ngenerated endpoints declaring <= 3 fields{at}: {thin} of {total} = {100 * thin / total:.1f} %")
        return 0
    cov = measure()
    if args.json:
        print(json.dumps({"share": round(cov.share, 4), "carried": cov.carried, "real": cov.real_fields,
                          "bodies": [asdict(b) for b in cov.bodies], "left_out": cov.left_out},
                         ensure_ascii=False, indent=1))
        return 0
    for b in cov.bodies:
        miss = f"  missing: {', '.join(b.missing)}" if b.missing else ""
        print(f"{b.carried:3d}/{len(b.real):3d}  {b.endpoint:40s} {b.sample}{miss}")
    per = cov.per_endpoint()
    full = sum(1 for c, r in per.values() if c == r)
    print(f"\nbodies with records: {len(cov.bodies)} over {len(per)} endpoints ({full} carry every real field); "
          f"left out: {len(cov.left_out)}")
    print(f"record fields carried: {cov.carried} of {cov.real_fields} = {100 * cov.share:.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
