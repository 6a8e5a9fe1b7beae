"""Write ``simulator/record/plans/v0007.yaml``, the plan ``kopa@v0007`` was recorded with, and
``docs/seeds-v0007.md``, the generated endpoints it leaves out and why.

``kopa@v0007`` is ``kopa@v0006`` with its generated tier recorded anew from world edition 6
(``replace_tiers: [generated]``; the curated tier's collections carry over byte for byte):

* one seed per generated endpoint whose required params all have a real value
  (``simulator catalog seeds``), the endpoints edition 6 added among them (RealtimeCityAir,
  bikeList, realtimePosition, StatisticMeta, K-apt, SEMAS sdsc2: fidelity ``partial``, so
  tier ``generated``);
* every other generated collection ``kopa@v0006`` holds, under the same key;
* FSC ``getCorpOutline_V2`` looked up by name (``corpNm``) for every company whose OpenDART
  company collection ``kopa@v0006`` holds, so a client can go from a company's name to its
  ``corp_code`` (``fssCorpUnqNo``) and on to the OpenDART calls recorded for it;
* realtimePosition for each of lines 1–9, K-apt complex lists of four districts and, crawled
  from them, the basis info of their first complexes; SEMAS shops of the same districts.

A generated endpoint with a required param no rule gives a real value is not recorded under a
dummy (``docs/seeds-v0007.md`` lists it with the reason).

    python scripts/plan_v0007.py            # writes both files
    python scripts/plan_v0007.py --check    # exit 1 when either is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator import Store  # noqa: E402
from simulator.catalog import load_catalog  # noqa: E402
from simulator.catalog.generate.seeds import placeholder_params, seed_plan_report  # noqa: E402
from simulator.sandbox.world import World  # noqa: E402

PLAN = ROOT / "simulator" / "record" / "plans" / "v0007.yaml"
REPORT = ROOT / "docs" / "seeds-v0007.md"
#: Districts whose K-apt complexes and SEMAS shops are recorded (강남구, 서초구, 성남시 분당구, 부산 해운대구).
DISTRICTS = ("11680", "11650", "41135", "26350")
#: Lines whose train positions are recorded.
LINES = tuple(f"{n}호선" for n in range(1, 10))
#: Complexes per district whose basis info is crawled from the list.
KAPT_BASIS_PER_DISTRICT = 15

HEADER = """\
# The plan kopa@v0007 was recorded with (written by scripts/plan_v0007.py; do not edit by hand).
# v0007 is v0006 with its generated tier recorded anew from world edition 6: the curated tier's
# collections carry over byte for byte (replace_tiers: [generated]); the seeds are `simulator
# catalog seeds` (real values only: docs/seeds-v0007.md lists the endpoints left out), the other
# generated collections v0006 holds, FSC getCorpOutline_V2 by name for every OpenDART company
# v0006 holds, and the endpoints edition 6 added. Recorded on top of v0006:
#   simulator sandbox serve --seed 0 --edition 6 --catalog full --port 8790 &
#   simulator record --live --upstream http://127.0.0.1:8790 --plan simulator/record/plans/v0007.yaml \\
#     --cassettes cassettes --catalog full --rate 1000 --recorded-at 2026-12-06T00:00:00Z
"""


def _key(endpoint: str, params: dict[str, str]) -> tuple[str, tuple[tuple[str, str], ...]]:
    return endpoint, tuple(sorted(params.items()))


def build() -> tuple[str, str]:
    """(the plan's text, the report's text)."""
    catalog = load_catalog(tier="full")
    plan, report = seed_plan_report(catalog, set_name="kopa")
    # the basis info's published example names a complex the world lacks: crawled below instead
    seeds = [{"endpoint": s["endpoint"], "params": dict(s["params"])} for s in plan["seeds"]
             if s["endpoint"] != "datagokr_misc_kapt_basis_info"]
    planned = {_key(s["endpoint"], s["params"]) for s in seeds}
    v6 = Store(ROOT / "cassettes").open("kopa", "v0006")
    kept: list[dict[str, Any]] = []
    corp_codes: list[str] = []
    for c in sorted(v6.index.collections(), key=lambda c: c.key):
        if c.endpoint == "opendart_company" and c.filters.get("corp_code"):
            corp_codes.append(c.filters["corp_code"])
        ep = catalog.endpoints[c.endpoint]
        if ep.tier != "generated" or placeholder_params(ep, c.filters):
            continue
        if _key(c.endpoint, c.filters) not in planned:
            kept.append({"endpoint": c.endpoint, "params": dict(c.filters)})
            planned.add(_key(c.endpoint, c.filters))
    world = World(0, edition=6)
    more: list[dict[str, Any]] = []

    def add(endpoint: str, params: dict[str, str]) -> None:
        if _key(endpoint, params) not in planned:
            planned.add(_key(endpoint, params))
            more.append({"endpoint": endpoint, "params": params})

    names = sorted({world.company(cc)["corp_name"] for cc in corp_codes if world.company(cc)})
    for name in names:
        add("fsc_corp_outline_v2", {"corpNm": name})
    for line in LINES:
        add("seoul_subway_positions", {"subwayNm": line})
    for lawd in DISTRICTS:
        add("datagokr_misc_kapt_sigungu_apt_list", {"sigunguCode": lawd})
        add("datagokr_misc_semas_store_list_in_dong", {"divId": "signguCd", "key": lawd})
    crawls = [{"from": "datagokr_misc_kapt_sigungu_apt_list", "source_filters": {"sigunguCode": lawd}, "field": "kaptCode",
               "limit": KAPT_BASIS_PER_DISTRICT, "to": "datagokr_misc_kapt_basis_info", "param": "kaptCode"}
              for lawd in DISTRICTS]
    lines = [HEADER.rstrip("\n")]
    for k, v in (("set", "kopa"), ("rate_per_sec", {"default": 5}), ("fidelity_samples", 0),
                 ("replace_tiers", ["generated"])):
        lines.append(yaml.safe_dump({k: v}, allow_unicode=True, default_flow_style=True, width=10**6).strip()[1:-1])
    lines.append(f"seeds:  # {len(seeds)} from `simulator catalog seeds`, {len(kept)} more real-keyed v0006 collections, "
                 f"then {len(more)} of edition 6 ({len(names)} company outlines by name)")
    for s in seeds + kept + more:
        lines.append("  - " + yaml.safe_dump(s, allow_unicode=True, default_flow_style=True, width=10**6).strip())
    lines.append(f"crawls:  # the basis info of the first {KAPT_BASIS_PER_DISTRICT} complexes of each listed district")
    for c in crawls:
        lines.append("  - " + yaml.safe_dump(c, allow_unicode=True, default_flow_style=True, width=10**6, sort_keys=False).strip())
    text = "\n".join(lines) + "\n"
    left = report.unresolved
    doc = [
        "<!-- written by scripts/plan_v0007.py -->",
        "# Generated endpoints kopa@v0007 does not record",
        "",
        f"{len(left)} generated endpoints have a required parameter that no published example, enum value, "
        "entity code of the sandbox world or date format gives a real value. kopa@v0007, like kopa@v0006, "
        "records none of them (no collection keyed on a dummy), so a call to one of these tools misses "
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
            print(f"stale: {', '.join(stale)}; run python scripts/plan_v0007.py", file=sys.stderr)
            return 1
        return 0
    PLAN.write_text(plan, encoding="utf-8")
    REPORT.write_text(report, encoding="utf-8")
    print(f"wrote {PLAN.relative_to(ROOT)} and {REPORT.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
