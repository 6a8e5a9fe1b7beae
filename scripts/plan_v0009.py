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

PLAN = ROOT / "simulator" / "record" / "plans" / "v0009.yaml"
REPORT = ROOT / "docs" / "seeds-v0009.md"
EDITION = 8
PARENT = "v0008"
#: Elections whose NEC party codes are recorded: edition 8's parties are invented (s38-politics),
#: so no real party's code is served.
PARTY_CODE_ELECTIONS = ("20220601", "20240410", "20250603")
#: AirKorea versions clients send (pydatagokr 1.0, kpubdata 1.3, the real sample's 1.5): from
#: edition 8 the fields follow ``ver`` (s38-fidelity). The station is the world's first in 서울.
AIRKOREA_VERS = ("1.0", "1.3", "1.5")
AIRKOREA_STATION_VERS = ("1.0", "1.3")
AIRKOREA_STATION = "교북"

HEADER = recording_header("v0009", PARENT, EDITION, 8791, "2026-12-14T00:00:00Z", """\
v0009 is v0008 recorded anew from world edition 8 (names that read like real Korean ones),
both tiers (replace_tiers: [curated, generated]): the curated collections of v0008 under the
same keys (OpenDART's for edition 8's companies), `simulator catalog seeds` (real values only:
docs/seeds-v0009.md lists the endpoints left out), the other real-keyed generated collections
of v0008 (FSC's outlines by name taken anew: edition 8 renamed the invented companies), and
the values real clients send.""")


def build() -> tuple[str, str]:
    """(the plan's text, the report's text)."""
    catalog = load_catalog(tier="full")
    world = World(0, edition=EDITION)
    listed = world.listed_companies()
    named, recorded = listed[:NAMED], listed[:COMPANIES]

    def skip(endpoint: str, params: dict[str, str]) -> bool:
        # K-apt's published example names a complex the world lacks (carried from v0008); no
        # station named answers no rows from edition 8 (recorded by station below)
        return endpoint == "datagokr_misc_kapt_basis_info" \
            or (endpoint == "airkorea_msrstn_accto_rltm_mesure_dnsty" and not params)

    seeds, report = catalog_seeds(catalog, world, named[0]["corp_code"], skip)
    planned = Planned(seeds)

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
        if planned.claim(c.endpoint, c.filters):
            curated.append({"endpoint": c.endpoint, "params": dict(c.filters)})
    for f in lost:  # as many pledges of the same election, of candidates edition 8 has
        new = next(h for h in candidates(f["sgId"], f["sgTypecode"])
                   if key("nec_pledges", {**f, "cnddtId": h}) not in planned)
        planned.claim("nec_pledges", {**f, "cnddtId": new})
        curated.append({"endpoint": "nec_pledges", "params": {**f, "cnddtId": new}})
    add_company_values(planned, catalog, world, recorded, named)
    add_client_values(planned, world)
    for sg_id in PARTY_CODE_ELECTIONS:  # edition 8's parties are invented: their codes may be recorded
        planned.add("nec_party_codes", {"sgId": sg_id})
    for ver in AIRKOREA_VERS:  # the response fields follow ver (s38-fidelity)
        planned.add("datagokr_misc_airkorea_sido_realtime", {"sidoName": "서울", "ver": ver})
    for ver in AIRKOREA_STATION_VERS:
        planned.add("airkorea_msrstn_accto_rltm_mesure_dnsty",
                    {"stationName": AIRKOREA_STATION, "dataTerm": "DAILY", "ver": ver})
    add_multi_account(planned, named)
    more = planned.more

    def keep(endpoint: str, filters: dict[str, str]) -> bool:
        # no collection about a real company, no outline by an edition-7 name (taken anew above)
        if endpoint == "airkorea_msrstn_accto_rltm_mesure_dnsty" and not filters:
            return False  # no station: no rows from edition 8 (recorded by station above)
        return endpoint != "fsc_corp_outline_v2" and not names_real_company(world, catalog.endpoints[endpoint], filters)

    kept = carried_generated(catalog, PARENT, planned.keys, keep)
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
