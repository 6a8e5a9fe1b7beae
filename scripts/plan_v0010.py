"""Write ``simulator/record/plans/v0010.yaml``, the plan ``kopa@v0010`` was recorded with, and
``docs/seeds-v0010.md``, the generated endpoints it leaves out and why.

``kopa@v0010`` is ``kopa@v0009`` recorded anew, both tiers (``replace_tiers: [curated,
generated]``), from world edition 9 (``LATEST_EDITION``): edition 8 with more published response
fields for the generated endpoints, the MOIS 행정안전통계연보 services in their head/row envelope,
generated measure fields filled with numbers of their unit and meaning, Seoul subway stations'
real English names, NEC addresses named as of the vote date and the 22nd Assembly's real
constituencies (``simulator/sandbox/world/_core.py``). Its seeds are v0009's, built the same way
on edition 9 (``plan_common``):

* every curated collection ``kopa@v0009`` holds, under the same key, but OpenDART's (taken anew
  for edition 9's companies, the same as edition 8's) and FSC's outlines by name (taken anew);
  pledges of a candidate edition 9 does not have give way to another of the same election;
* one seed per generated endpoint whose required params all have a real value (``simulator
  catalog seeds`` on edition 9), and every other real-keyed generated collection ``kopa@v0009``
  holds but FSC's outlines by name;
* the values real clients send and v0009's additions for them (companies, KMA at Seoul's grid,
  juso, law.go.kr terms, NEC party codes, AirKorea by ``ver`` and by station, fnlttMultiAcnt);
* **row-house and officetel trades of more months** (:data:`HOME_MONTHS`): each of Seoul's 25
  districts' 연립다세대 and 오피스텔 trades of 2024-12 and 2025-01 (the smallest months of the
  world's year: 59–237 row-house and 40–158 officetel trades a district, so a conversation
  reading one stays inside EDGE's 100,000-character budget), and the officetel trades of 2025-03
  (40–242 a district; the month of the apartment trades and of the held-out clients' officetel
  call). v0009 recorded only 2024-07, so every EDGE housing question named that month (#28).
  2025-03's row-house trades (114–362 a district, up to 143,000 characters) are left out.

    python scripts/plan_v0010.py            # writes both files
    python scripts/plan_v0010.py --check    # exit 1 when either is stale
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plan_common import (  # noqa: E402
    COMPANIES,
    NAMED,
    ROOT,
    Planned,
    add_client_values,
    add_company_values,
    add_multi_account,
    carried_generated,
    catalog_seeds,
    key,
    main,
    plan_text,
    recording_header,
    report_text,
)

from simulator import Store  # noqa: E402
from simulator.catalog import load_catalog  # noqa: E402
from simulator.sandbox.gen.synth import names_real_company  # noqa: E402
from simulator.sandbox.world import World  # noqa: E402

PLAN = ROOT / "simulator" / "record" / "plans" / "v0010.yaml"
REPORT = ROOT / "docs" / "seeds-v0010.md"
EDITION = 9
PARENT = "v0009"
#: Elections whose NEC party codes are recorded (the parties are invented from edition 8).
PARTY_CODE_ELECTIONS = ("20220601", "20240410", "20250603")
#: AirKorea versions clients send; the fields follow ``ver`` (as in v0009).
AIRKOREA_VERS = ("1.0", "1.3", "1.5")
AIRKOREA_STATION_VERS = ("1.0", "1.3")
AIRKOREA_STATION = "교북"
#: Seoul's 25 districts (시군구 codes, as ``LAWD_CD`` takes them).
SEOUL_DISTRICTS = ("11110", "11140", "11170", "11200", "11215", "11230", "11260", "11290", "11305", "11320",
                   "11350", "11380", "11410", "11440", "11470", "11500", "11530", "11545", "11560", "11590",
                   "11620", "11650", "11680", "11710", "11740")
#: Months of home trades recorded beyond v0009's 2024-07, per tool (see the module docstring).
HOME_MONTHS = {"molit_rh_trades": ("202412", "202501"), "molit_offi_trades": ("202412", "202501", "202503")}

HEADER = recording_header("v0010", PARENT, EDITION, 8796, "2026-12-21T00:00:00Z", """\
v0010 is v0009 recorded anew from world edition 9 (more published fields, the MOIS yearbook
family's head/row envelope, measures of their unit and meaning, dated NEC addresses, the real
constituencies), both tiers (replace_tiers: [curated, generated]): the curated collections of
v0009 under the same keys (OpenDART's and FSC's outlines by name taken anew), `simulator catalog
seeds` (real values only: docs/seeds-v0010.md lists the endpoints left out), the other real-keyed
generated collections of v0009, the values real clients send, and Seoul's row-house trades of
2024-12 and 2025-01 and officetel trades of 2024-12, 2025-01 and 2025-03.""")


def build() -> tuple[str, str]:
    """(the plan's text, the report's text)."""
    catalog = load_catalog(tier="full")
    world = World(0, edition=EDITION)
    listed = world.listed_companies()
    named, recorded = listed[:NAMED], listed[:COMPANIES]

    def skip(endpoint: str, params: dict[str, str]) -> bool:
        # K-apt's published example names a complex the world lacks; no station named answers
        # no rows (recorded by station below)
        return endpoint == "datagokr_misc_kapt_basis_info" \
            or (endpoint == "airkorea_msrstn_accto_rltm_mesure_dnsty" and not params)

    seeds, report = catalog_seeds(catalog, world, named[0]["corp_code"], skip)
    planned = Planned(seeds)

    # the curated tier: v0009's keys, OpenDART's and FSC's outlines taken anew below
    parent = Store(ROOT / "cassettes").open("kopa", PARENT)
    curated: list[dict[str, Any]] = []
    lost: list[dict[str, str]] = []

    def candidates(sg_id: str, tc: str) -> list[str]:
        return [c["huboid"] for c in world.candidates(sg_id, tc)]

    for c in sorted(parent.index.collections(), key=lambda c: c.key):
        ep = catalog.endpoints[c.endpoint]
        if ep.tier != "curated" or (ep.platform == "opendart" and c.endpoint != "opendart_corp_codes") \
                or c.endpoint == "fsc_corp_outline_v2":
            continue
        if c.endpoint == "nec_pledges" and c.filters["cnddtId"] not in candidates(c.filters["sgId"], c.filters["sgTypecode"]):
            lost.append(dict(c.filters))  # a candidate edition 9 does not have: replaced below
            continue
        if planned.claim(c.endpoint, c.filters):
            curated.append({"endpoint": c.endpoint, "params": dict(c.filters)})
    for f in lost:  # as many pledges of the same election, of candidates edition 9 has
        new = next(h for h in candidates(f["sgId"], f["sgTypecode"])
                   if key("nec_pledges", {**f, "cnddtId": h}) not in planned)
        planned.claim("nec_pledges", {**f, "cnddtId": new})
        curated.append({"endpoint": "nec_pledges", "params": {**f, "cnddtId": new}})
    add_company_values(planned, catalog, world, recorded, named)
    add_client_values(planned, world)
    for sg_id in PARTY_CODE_ELECTIONS:
        planned.add("nec_party_codes", {"sgId": sg_id})
    for ver in AIRKOREA_VERS:
        planned.add("datagokr_misc_airkorea_sido_realtime", {"sidoName": "서울", "ver": ver})
    for ver in AIRKOREA_STATION_VERS:
        planned.add("airkorea_msrstn_accto_rltm_mesure_dnsty",
                    {"stationName": AIRKOREA_STATION, "dataTerm": "DAILY", "ver": ver})
    add_multi_account(planned, named)
    for endpoint, months in HOME_MONTHS.items():
        for ym in months:
            for lawd in SEOUL_DISTRICTS:
                assert world.district(lawd) is not None, lawd
                planned.add(endpoint, {"LAWD_CD": lawd, "DEAL_YMD": ym})
    more = planned.more

    def keep(endpoint: str, filters: dict[str, str]) -> bool:
        # no collection about a real company, no outline by name (taken anew above)
        if endpoint == "airkorea_msrstn_accto_rltm_mesure_dnsty" and not filters:
            return False
        return endpoint != "fsc_corp_outline_v2" and not names_real_company(world, catalog.endpoints[endpoint], filters)

    kept = carried_generated(catalog, PARENT, planned.keys, keep)
    settings = (("set", "kopa"), ("rate_per_sec", {"default": 5}), ("fidelity_samples", 0),
                ("replace_tiers", ["curated", "generated"]))
    text = plan_text(HEADER, settings,
                     f"{len(seeds)} from `simulator catalog seeds`, {len(curated)} curated {PARENT} collections, "
                     f"{len(more)} of edition {EDITION} (companies, client values, home-trade months), then "
                     f"{len(kept)} more real-keyed generated {PARENT} collections", seeds + curated + more + kept)
    intro = ("kopa@v0010, like kopa@v0006 to v0009, records none of them (no collection keyed on a dummy), so a "
             "call to one of these tools misses (`--miss native` answers the platform's no-data envelope). Record "
             "them from the live API with a plan that gives the parameter a real value (`simulator record --live`).")
    return text, report_text("plan_v0010.py", "v0010", intro, report.unresolved)


if __name__ == "__main__":
    raise SystemExit(main(__doc__, "plan_v0010.py", build, PLAN, REPORT))
