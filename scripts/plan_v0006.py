"""Write ``simulator/record/plans/v0006.yaml``, the plan ``kopa@v0006`` was recorded with, and
``docs/seeds-v0006.md``, the generated endpoints it leaves out and why.

The plan re-records the generated tier of ``kopa@v0005`` from world edition 5 (the fuller
published fields, each filled in its shape) on real values only (``replace_tiers:
[generated]``; the curated tier's collections carry over byte for byte):

* one seed per generated endpoint whose required params all have a real value
  (``simulator catalog seeds``: a published example or enum value, an entity code of the
  sandbox world, a date in the label's format);
* every other generated collection ``kopa@v0005`` holds on real values (the client calls of
  ``docs/clients.md`` ask for them: OpenDART's ``fnlttMultiAcnt`` of two companies, NEIS past
  timetables of one school), under the same key.

A generated endpoint with a required param no rule gives a real value is not recorded under a
dummy: its ``kopa@v0005`` collections (keyed on ``A1`` or ``1``) are not carried into v0006,
and ``docs/seeds-v0006.md`` lists it with the reason.

    python scripts/plan_v0006.py            # writes both files
    python scripts/plan_v0006.py --check    # exit 1 when either is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator import Store  # noqa: E402
from simulator.catalog import load_catalog  # noqa: E402
from simulator.catalog.generate.seeds import placeholder_params, seed_plan_report  # noqa: E402

PLAN = ROOT / "simulator" / "record" / "plans" / "v0006.yaml"
REPORT = ROOT / "docs" / "seeds-v0006.md"

HEADER = """\
# The plan kopa@v0006 was recorded with (written by scripts/plan_v0006.py; do not edit by hand).
# v0006 is v0005 with its generated tier recorded anew from world edition 5 on real values only:
# the curated tier's collections carry over byte for byte (replace_tiers: [generated]); the seeds
# are `simulator catalog seeds` (no placeholder: the endpoints it cannot give a real value are
# listed in docs/seeds-v0006.md and not recorded) and the other real-keyed generated collections
# v0005 holds. Recorded on top of v0005:
#   simulator sandbox serve --seed 0 --edition 5 --catalog full --port 8790 &
#   simulator record --live --upstream http://127.0.0.1:8790 --plan simulator/record/plans/v0006.yaml \\
#     --cassettes cassettes --catalog full --rate 1000 --recorded-at 2026-12-05T00:00:00Z
"""


def build() -> tuple[str, str]:
    """(the plan's text, the report's text)."""
    catalog = load_catalog(tier="full")
    plan, report = seed_plan_report(catalog, set_name="kopa")
    seeds = [{"endpoint": s["endpoint"], "params": dict(s["params"])} for s in plan["seeds"]]
    planned = {(s["endpoint"], tuple(sorted(s["params"].items()))) for s in seeds}
    v5 = Store(ROOT / "cassettes").open("kopa", "v0005")
    kept = []
    for c in sorted(v5.index.collections(), key=lambda c: c.key):
        ep = catalog.endpoints[c.endpoint]
        if ep.tier != "generated" or placeholder_params(ep, c.filters):
            continue
        if (c.endpoint, tuple(sorted(c.filters.items()))) not in planned:
            kept.append({"endpoint": c.endpoint, "params": dict(c.filters)})
    data = {"set": "kopa", "rate_per_sec": {"default": 5}, "fidelity_samples": 0,
            "replace_tiers": ["generated"], "seeds": seeds + kept}
    # one seed a line: the plan reviews as a list
    lines = [HEADER.rstrip("\n")]
    for k in ("set", "rate_per_sec", "fidelity_samples", "replace_tiers"):
        lines.append(yaml.safe_dump({k: data[k]}, allow_unicode=True, default_flow_style=True, width=10**6).strip()[1:-1])
    lines.append(f"seeds:  # {len(seeds)} from `simulator catalog seeds`, then {len(kept)} more real-keyed v0005 collections")
    for s in data["seeds"]:
        lines.append("  - " + yaml.safe_dump(s, allow_unicode=True, default_flow_style=True, width=10**6).strip())
    text = "\n".join(lines) + "\n"
    left = report.unresolved
    doc = [
        "<!-- written by scripts/plan_v0006.py -->",
        "# Generated endpoints kopa@v0006 does not record",
        "",
        f"{len(left)} generated endpoints have a required parameter that no published example, enum value, "
        "entity code of the sandbox world or date format gives a real value. kopa@v0002–v0005 recorded each "
        "under a dummy (`A1`, or `1` for an integer), a key no real request sends; kopa@v0006 records none "
        "of them and does not carry those collections over, so a call to one of these tools misses "
        "(`--miss native` answers the platform's no-data envelope). Record them from the live API with a "
        "plan that gives the parameter a real value (`simulator record --live`).",
        "",
        *[f"- `{eid}`: " + "; ".join(f"`{p}` — {reason}" for p, reason in why) for eid, why in sorted(left.items())],
    ]
    return text, "\n".join(doc) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a written file is stale")
    args = ap.parse_args()
    plan, report = build()
    if args.check:
        stale = [str(p.relative_to(ROOT)) for p, t in ((PLAN, plan), (REPORT, report))
                 if not p.exists() or p.read_text(encoding="utf-8") != t]
        if stale:
            print(f"stale: {', '.join(stale)}; run python scripts/plan_v0006.py", file=sys.stderr)
            return 1
        return 0
    PLAN.write_text(plan, encoding="utf-8")
    REPORT.write_text(report, encoding="utf-8")
    print(f"wrote {PLAN.relative_to(ROOT)} and {REPORT.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
