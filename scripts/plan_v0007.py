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

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plan_common import ROOT, carried_generated, key, main, plan_text, report_text  # noqa: E402
from plan_v0006 import seeds_of  # noqa: E402

from simulator import Store  # noqa: E402
from simulator.catalog import load_catalog  # noqa: E402
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


def district_seeds(add: Any) -> list[dict[str, Any]]:
    """Train positions of lines 1–9, K-apt complex lists and SEMAS shops of :data:`DISTRICTS`,
    and the crawls of the first complexes' basis info (kopa@v0007's additions)."""
    for line in LINES:
        add("seoul_subway_positions", {"subwayNm": line})
    for lawd in DISTRICTS:
        add("datagokr_misc_kapt_sigungu_apt_list", {"sigunguCode": lawd})
        add("datagokr_misc_semas_store_list_in_dong", {"divId": "signguCd", "key": lawd})
    return [{"from": "datagokr_misc_kapt_sigungu_apt_list", "source_filters": {"sigunguCode": lawd}, "field": "kaptCode",
             "limit": KAPT_BASIS_PER_DISTRICT, "to": "datagokr_misc_kapt_basis_info", "param": "kaptCode"}
            for lawd in DISTRICTS]


def build() -> tuple[str, str]:
    """(the plan's text, the report's text)."""
    catalog = load_catalog(tier="full")
    seeds, left = seeds_of(catalog, 6)
    # the basis info's published example names a complex the world lacks: crawled below instead
    seeds = [s for s in seeds if s["endpoint"] != "datagokr_misc_kapt_basis_info"]
    planned = {key(s["endpoint"], s["params"]) for s in seeds}
    v6 = Store(ROOT / "cassettes").open("kopa", "v0006")
    corp_codes = [c.filters["corp_code"] for c in sorted(v6.index.collections(), key=lambda c: c.key)
                  if c.endpoint == "opendart_company" and c.filters.get("corp_code")]
    kept = carried_generated(catalog, "v0006", planned)
    world = World(0, edition=6)
    more: list[dict[str, Any]] = []

    def add(endpoint: str, params: dict[str, str]) -> None:
        if key(endpoint, params) not in planned:
            planned.add(key(endpoint, params))
            more.append({"endpoint": endpoint, "params": params})

    names = sorted({world.company(cc)["corp_name"] for cc in corp_codes if world.company(cc)})
    for name in names:
        add("fsc_corp_outline_v2", {"corpNm": name})
    crawls = district_seeds(add)
    settings = (("set", "kopa"), ("rate_per_sec", {"default": 5}), ("fidelity_samples", 0), ("replace_tiers", ["generated"]))
    text = plan_text(HEADER, settings,
                     f"{len(seeds)} from `simulator catalog seeds`, {len(kept)} more real-keyed v0006 collections, "
                     f"then {len(more)} of edition 6 ({len(names)} company outlines by name)", seeds + kept + more,
                     f"the basis info of the first {KAPT_BASIS_PER_DISTRICT} complexes of each listed district", crawls)
    intro = ("kopa@v0007, like kopa@v0006, records none of them (no collection keyed on a dummy), so a call to one of "
             "these tools misses (`--miss native` answers the platform's no-data envelope). Record them from the live "
             "API with a plan that gives the parameter a real value (`simulator record --live`).")
    return text, report_text("plan_v0007.py", "v0007", intro, left)


if __name__ == "__main__":
    raise SystemExit(main(__doc__, "plan_v0007.py", build, PLAN, REPORT))
