"""Write ``simulator/record/plans/v0009.yaml``, the plan ``kopa@v0009`` was recorded with, and
``docs/seeds-v0009.md``, the generated endpoints it leaves out and why.

``kopa@v0009`` is ``kopa@v0008`` recorded anew, both tiers (``replace_tiers: [curated,
generated]``), from world edition 8: edition 7 (the 20 real listed companies of ``pools.yaml``
by name and code only, invented companies carrying every value) with invented names that read
like real Korean ones (schools, companies, statutes, bills; ``NATURAL_NAMES_EDITION``) and the
changes stop 38 gated on ``edition >= 8``. Its seeds are v0008's, with the names edition 8
renamed taken from edition 8 (FSC's company outlines by name):

* every curated collection ``kopa@v0008`` holds, under the same key, but OpenDART's: those
  are the 20 real companies' overviews (identity only) and, for the first
  :data:`COMPANIES` invented listed companies, the overview, 2024's filings, major holders and
  2023/2024 annual key accounts (the first :data:`NAMED` also executives' holdings, registration
  statements and every 2024/2025 periodic report);
* one seed per generated endpoint whose required params all have a real value (``simulator
  catalog seeds`` on edition 8, where OpenDART's published example ``corp_code``, a real
  company's, gives way to the first invented listed company), and every other real-keyed generated
  collection ``kopa@v0008`` holds but FSC's outlines by an edition-7 name;
* the values real clients send (``docs/clients-outsider.md``, ``/work/wt/notes``): OpenDART's
  periodic-report endpoints for business years 2023 and 2024 with ``fs_div`` CFS/OFS,
  ``idx_cl_code`` M210000–M240000 and ``sj_div`` as the guide requires them, FSC's V2
  statements by ``crno``, FSC company outlines by name, KMA nowcasts and forecasts at Seoul's
  grid (60, 127) for every base time of 2025-12-01, juso full road-name addresses, law.go.kr
  search terms, an Assembly member by name (the world's, never a real person's), subway
  arrivals at 강남 and 서울, one more school's meals, classes and schedule, an ECOS table
  without item codes, AirKorea's weekly dust forecast of 2025-12-01, fnlttMultiAcnt of two
  companies;
* what stop 38's other changes to edition 8 need (``/work/wt/notes/s38-*.md``): NEC's party codes
  of the 2022, 2024 and 2025 elections (edition 8's parties are invented, so no real party's code
  is served); the pledges of candidates edition 8 has (v0008's keys of candidates it no longer
  has give way to others of the same election); AirKorea's province list for the ``ver`` values
  clients send and one station's hourly list (``ver`` changes the fields from edition 8; the
  station-less key of v0008 answers no rows and is dropped).

    python scripts/plan_v0009.py            # writes both files
    python scripts/plan_v0009.py --check    # exit 1 when either is stale
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plan_common import ROOT, carried_generated, key, main, plan_text, report_text  # noqa: E402

from simulator import Store  # noqa: E402
from simulator.catalog import load_catalog  # noqa: E402
from simulator.catalog.generate.seeds import seed_plan_report  # noqa: E402
from simulator.sandbox.gen.synth import names_real_company  # noqa: E402
from simulator.sandbox.world import World  # noqa: E402

PLAN = ROOT / "simulator" / "record" / "plans" / "v0009.yaml"
REPORT = ROOT / "docs" / "seeds-v0009.md"
EDITION = 8
PARENT = "v0008"
#: Invented listed companies whose curated OpenDART collections are recorded (as in v0008).
COMPANIES = 40
#: The first invented listed companies, named in docs/catalog.md for clients: every periodic
#: report, generated endpoint and FSC statement recorded for them.
NAMED = 3
YEARS = ("2023", "2024")
#: Values the OpenDART guide lists for the params it requires of one operation.
FS_DIV = ("CFS", "OFS")
IDX_CL_CODE = ("M210000", "M220000", "M230000", "M240000")  # 수익성, 안정성, 성장성, 활동성
SJ_DIV = ("BS1", "IS1", "CIS1", "CF1", "SCE1")
#: Seoul's KMA grid point (서울특별시 중구 일대: nx 60, ny 127) and the day clients ask for.
GRID = ("60", "127")
KMA_DAY = "20251201"
#: Search terms and names clients send (docs/clients-outsider.md).
JUSO_KEYWORDS = ("서울특별시 종로구 세종대로 209", "세종대로 209")
LAW_TERMS = {"law_lstrm_search": ("선의",), "law_expc_search": ("임대차",)}
SUBWAY_STATIONS = ("강남", "서울")
MEAL_SCHOOLS = ("7091380",)
#: Law.go.kr search terms, Assembly member names, ECOS tables and AirKorea days held-out clients
#: send (``/work/wt/notes/clients-needs.md`` of stop 37: the names are the world's own members,
#: never a real person's: a generated endpoint answers a name filter from its unfiltered records).
MORE_LAW_TERMS = {"law_detc_search": ("집회",)}
MEMBER_NAMES = ("국회의원명 1",)
ECOS_SEARCHES = (("901Y009", "M", "202401", "202412"),)
DUST_DAYS = ("2025-12-01",)
#: Elections whose NEC party codes are recorded: edition 8's parties are invented (s38-politics),
#: so no real party's code is served.
PARTY_CODE_ELECTIONS = ("20220601", "20240410", "20250603")
#: AirKorea versions clients send (pydatagokr 1.0, kpubdata 1.3, the real sample's 1.5): from
#: edition 8 the fields follow ``ver`` (s38-fidelity). The station is the world's first in 서울.
AIRKOREA_VERS = ("1.0", "1.3", "1.5")
AIRKOREA_STATION_VERS = ("1.0", "1.3")
AIRKOREA_STATION = "교북"

HEADER = """\
# The plan kopa@v0009 was recorded with (written by scripts/plan_v0009.py; do not edit by hand).
# v0009 is v0008 recorded anew from world edition 8 (names that read like real Korean ones),
# both tiers (replace_tiers: [curated, generated]): the curated collections of v0008 under the
# same keys (OpenDART's for edition 8's companies), `simulator catalog seeds` (real values only:
# docs/seeds-v0009.md lists the endpoints left out), the other real-keyed generated collections
# of v0008 (FSC's outlines by name taken anew: edition 8 renamed the invented companies), and
# the values real clients send. Recorded on top of v0008:
#   simulator sandbox serve --seed 0 --edition 8 --catalog full --port 8791 &
#   simulator record --live --upstream http://127.0.0.1:8791 --plan simulator/record/plans/v0009.yaml \\
#     --cassettes cassettes --catalog full --rate 1000 --recorded-at 2026-12-14T00:00:00Z
"""


def build() -> tuple[str, str]:
    """(the plan's text, the report's text)."""
    catalog = load_catalog(tier="full")
    world = World(0, edition=EDITION)
    real = world.real_company_codes()
    listed = world.listed_companies()
    named, recorded = listed[:NAMED], listed[:COMPANIES]
    first = named[0]
    plan, report = seed_plan_report(catalog, set_name="kopa", world=world)
    seeds: list[dict[str, Any]] = []
    for s in plan["seeds"]:
        if s["endpoint"] == "datagokr_misc_kapt_basis_info":
            continue  # the published example names a complex the world lacks: carried from v0008
        if s["endpoint"] == "airkorea_msrstn_accto_rltm_mesure_dnsty" and not s["params"]:
            continue  # no station named answers no rows from edition 8: recorded by station below
        # (OpenDART's published corp_code, 삼성전자's, gives way to the first invented company)
        assert s["params"].get("corp_code") in (None, first["corp_code"]), s
        seeds.append({"endpoint": s["endpoint"], "params": dict(s["params"])})
    planned = {key(s["endpoint"], s["params"]) for s in seeds}
    more: list[dict[str, Any]] = []

    def add(endpoint: str, params: dict[str, str]) -> None:
        if key(endpoint, params) not in planned:
            planned.add(key(endpoint, params))
            more.append({"endpoint": endpoint, "params": params})

    # the curated tier: v0008's keys, OpenDART's for edition 8's companies
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
            lost.append(dict(c.filters))  # a candidate edition 8 does not have (s38-politics): replaced below
            continue
        if key(c.endpoint, c.filters) not in planned:
            planned.add(key(c.endpoint, c.filters))
            curated.append({"endpoint": c.endpoint, "params": dict(c.filters)})
    for f in lost:  # as many pledges of the same election, of candidates edition 8 has
        new = next(h for h in candidates(f["sgId"], f["sgTypecode"])
                   if key("nec_pledges", {**f, "cnddtId": h}) not in planned)
        planned.add(key("nec_pledges", {**f, "cnddtId": new}))
        curated.append({"endpoint": "nec_pledges", "params": {**f, "cnddtId": new}})
    for cc in sorted(real):  # a real company: its overview (identity) and, by name, FSC's no-data answer
        add("opendart_company", {"corp_code": cc})
        add("fsc_corp_outline_v2", {"corpNm": world.company(cc)["corp_name"]})
    for c in recorded:
        cc = c["corp_code"]
        add("opendart_company", {"corp_code": cc})
        add("opendart_disclosures", {"corp_code": cc, "bgn_de": "20240101", "end_de": "20241231"})
        add("opendart_major_stock", {"corp_code": cc})
        for year in YEARS:
            add("opendart_single_account", {"corp_code": cc, "bsns_year": year, "reprt_code": "11011"})
        add("fsc_corp_outline_v2", {"corpNm": c["corp_name"]})
    periodic = [e for e in sorted(catalog.endpoints.values(), key=lambda e: e.id)
                if e.platform == "opendart" and e.tier == "generated" and e.param("bsns_year") and e.param("reprt_code")]
    v2 = [e for e in sorted(catalog.endpoints.values(), key=lambda e: e.id)
          if e.platform == "fsc" and e.param("crno") and e.param("bizYear")]
    for c in named:
        cc = c["corp_code"]
        add("opendart_executive_stock", {"corp_code": cc})
        add("opendart_equity_registration", {"corp_code": cc, "bgn_de": "20240101"})
        add("opendart_disclosures", {"corp_code": cc})
        for year, codes in (("2024", ("11013", "11012", "11014")), ("2025", ("11013", "11012", "11014"))):
            for code in codes:
                add("opendart_single_account", {"corp_code": cc, "bsns_year": year, "reprt_code": code})
        for ep in periodic:
            for year in YEARS:
                base = {"corp_code": cc, "bsns_year": year, "reprt_code": "11011"}
                variants: tuple[dict[str, str], ...] = ({},)
                if ep.param("fs_div") and ep.param("fs_div").required:
                    variants = tuple({"fs_div": v} for v in FS_DIV)
                elif ep.param("idx_cl_code") and ep.param("idx_cl_code").required:
                    variants = tuple({"idx_cl_code": v} for v in IDX_CL_CODE)
                elif ep.param("sj_div") and ep.param("sj_div").required:
                    variants = tuple({"sj_div": v} for v in SJ_DIV)
                for extra in variants:
                    add(ep.id, {**base, **extra})
        for ep in v2:
            for year in YEARS:
                add(ep.id, {"crno": c["crno"], "bizYear": year})
    # KMA at Seoul's grid, every base time of the day
    nx, ny = GRID
    for h in range(24):
        add("kma_ultra_srt_ncst", {"base_date": KMA_DAY, "base_time": f"{h:02d}00", "nx": nx, "ny": ny})
        add("kma_ultra_srt_fcst", {"base_date": KMA_DAY, "base_time": f"{h:02d}30", "nx": nx, "ny": ny})
    for h in range(2, 24, 3):
        add("datagokr_misc_kma_vilage_fcst", {"base_date": KMA_DAY, "base_time": f"{h:02d}00", "nx": nx, "ny": ny})
    for kw in JUSO_KEYWORDS:
        add("juso_address_search", {"keyword": kw})
    for eid, terms in {**LAW_TERMS, **MORE_LAW_TERMS}.items():
        for term in terms:
            add(eid, {"query": term})
    for name in MEMBER_NAMES:
        add("assembly_allnamember", {"NAAS_NM": name})
    for st in SUBWAY_STATIONS:
        add("seoul_subway_arrivals", {"statnNm": st})
    for code in MEAL_SCHOOLS:
        school = world.school(code)
        assert school is not None, code
        for eid in ("neis_meal", "neis_class_info", "neis_school_schedule"):
            add(eid, {"ATPT_OFCDC_SC_CODE": school["ATPT_OFCDC_SC_CODE"], "SD_SCHUL_CODE": code})
    for stat, cycle, start, end in ECOS_SEARCHES:
        add("ecos_stat_search", {"STAT_CODE": stat, "CYCLE": cycle, "START_TIME": start, "END_TIME": end, "LANG": "kr"})
    for day in DUST_DAYS:
        add("airkorea_minu_dust_week_frcst_dspth", {"searchDate": day})
    for sg_id in PARTY_CODE_ELECTIONS:  # edition 8's parties are invented: their codes may be recorded
        add("nec_party_codes", {"sgId": sg_id})
    for ver in AIRKOREA_VERS:  # the response fields follow ver (s38-fidelity)
        add("datagokr_misc_airkorea_sido_realtime", {"sidoName": "서울", "ver": ver})
    for ver in AIRKOREA_STATION_VERS:
        add("airkorea_msrstn_accto_rltm_mesure_dnsty", {"stationName": AIRKOREA_STATION, "dataTerm": "DAILY", "ver": ver})
    pair = ",".join(c["corp_code"] for c in named[:2])  # fnlttMultiAcnt of two companies (DartDataReader)
    for year in YEARS:
        add("dart_fnltt_multi_acnt", {"corp_code": pair, "bsns_year": year, "reprt_code": "11011"})

    def keep(endpoint: str, filters: dict[str, str]) -> bool:
        # no collection about a real company, no outline by an edition-7 name (taken anew above)
        if endpoint == "airkorea_msrstn_accto_rltm_mesure_dnsty" and not filters:
            return False  # no station: no rows from edition 8 (recorded by station above)
        return endpoint != "fsc_corp_outline_v2" and not names_real_company(world, catalog.endpoints[endpoint], filters)

    kept = carried_generated(catalog, PARENT, planned, keep)
    settings = (("set", "kopa"), ("rate_per_sec", {"default": 5}), ("fidelity_samples", 0),
                ("replace_tiers", ["curated", "generated"]))
    text = plan_text(HEADER, settings,
                     f"{len(seeds)} from `simulator catalog seeds`, {len(curated)} curated {PARENT} collections, "
                     f"{len(more)} of edition {EDITION} (companies, client values), then {len(kept)} more real-keyed "
                     f"generated {PARENT} collections", seeds + curated + more + kept)
    intro = ("kopa@v0009, like kopa@v0006 to v0008, records none of them (no collection keyed on a dummy), so a "
             "call to one of these tools misses (`--miss native` answers the platform's no-data envelope). Record "
             "them from the live API with a plan that gives the parameter a real value (`simulator record --live`).")
    return text, report_text("plan_v0009.py", "v0009", intro, report.unresolved)


if __name__ == "__main__":
    raise SystemExit(main(__doc__, "plan_v0009.py", build, PLAN, REPORT))
