"""Write ``simulator/record/plans/v0008.yaml``, the plan ``kopa@v0008`` was recorded with, and
``docs/seeds-v0008.md``, the generated endpoints it leaves out and why.

``kopa@v0008`` is ``kopa@v0007`` recorded anew, both tiers (``replace_tiers: [curated,
generated]``), from world edition 7, where the 20 real listed companies of ``pools.yaml``
appear by name and code only (no invented value about them) and invented companies carry every
value:

* every curated collection ``kopa@v0007`` holds, under the same key, but OpenDART's: those
  are the 20 real companies' overviews (identity only) and, for the first
  :data:`COMPANIES` invented listed companies, the overview, 2024's filings, major holders and
  2023/2024 annual key accounts (the first :data:`NAMED` also executives' holdings, registration
  statements and every 2024/2025 periodic report);
* one seed per generated endpoint whose required params all have a real value (``simulator
  catalog seeds`` on edition 7, where OpenDART's published example ``corp_code``, a real
  company's, gives way to the first invented listed company), and every other real-keyed generated
  collection ``kopa@v0007`` holds that names no company edition 7 lacks;
* the values real clients send (``docs/clients-outsider.md``, ``/work/wt/notes``): OpenDART's
  periodic-report endpoints for business years 2023 and 2024 with ``fs_div`` CFS/OFS,
  ``idx_cl_code`` M210000–M240000 and ``sj_div`` as the guide requires them, FSC's V2
  statements by ``crno``, FSC company outlines by name, KMA nowcasts and forecasts at Seoul's
  grid (60, 127) for every base time of 2025-12-01, juso full road-name addresses, law.go.kr
  search terms, an Assembly member by name (the world's, never a real person's), subway
  arrivals at 강남 and 서울, one more school's meals, classes and schedule, an ECOS table
  without item codes, AirKorea's weekly dust forecast of 2025-12-01, fnlttMultiAcnt of two
  companies. NEC's party codes of the real 2024-04-10 election are not recorded: the world's
  party order (``pOrder``) is invented.

    python scripts/plan_v0008.py            # writes both files
    python scripts/plan_v0008.py --check    # exit 1 when either is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

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
    main,
    plan_text,
    recording_header,
    report_text,
)

from simulator import Store  # noqa: E402
from simulator.catalog import load_catalog  # noqa: E402
from simulator.sandbox.gen.synth import names_real_company  # noqa: E402
from simulator.sandbox.world import World  # noqa: E402

PLAN = ROOT / "simulator" / "record" / "plans" / "v0008.yaml"
REPORT = ROOT / "docs" / "seeds-v0008.md"
EDITION = 7

HEADER = recording_header("v0008", "v0007", EDITION, 8790, "2026-12-07T00:00:00Z", """\
v0008 is v0007 recorded anew from world edition 7, both tiers (replace_tiers: [curated,
generated]): the 20 real listed companies carry their identity only, invented companies every
value; the curated collections of v0007 under the same keys (OpenDART's for edition 7's
companies), `simulator catalog seeds` (real values only: docs/seeds-v0008.md lists the
endpoints left out), the other real-keyed generated collections of v0007, and the values real
clients send.""")


def build() -> tuple[str, str]:
    """(the plan's text, the report's text)."""
    catalog = load_catalog(tier="full")
    world = World(0, edition=EDITION)
    listed = world.listed_companies()
    named, recorded = listed[:NAMED], listed[:COMPANIES]
    # (the published example of K-apt's basis info names a complex the world lacks: carried from v0007)
    seeds, report = catalog_seeds(catalog, world, named[0]["corp_code"],
                                  lambda e, p: e == "datagokr_misc_kapt_basis_info")
    planned = Planned(seeds)

    # the curated tier: v0007's keys, OpenDART's for edition 7's companies
    v7 = Store(ROOT / "cassettes").open("kopa", "v0007")
    curated = []
    for c in sorted(v7.index.collections(), key=lambda c: c.key):
        ep = catalog.endpoints[c.endpoint]
        if ep.tier != "curated" or (ep.platform == "opendart" and c.endpoint != "opendart_corp_codes"):
            continue
        if planned.claim(c.endpoint, c.filters):
            curated.append({"endpoint": c.endpoint, "params": dict(c.filters)})
    add_company_values(planned, catalog, world, recorded, named)
    add_client_values(planned, world)
    add_multi_account(planned, named)
    more = planned.more

    def keep(endpoint: str, filters: dict[str, str]) -> bool:
        # no collection about a company edition 7 lacks (v0007's were edition 6's), no old outline
        return endpoint != "fsc_corp_outline_v2" and not names_real_company(world, catalog.endpoints[endpoint], filters)

    kept = carried_generated(catalog, "v0007", planned.keys, keep)
    settings = (("set", "kopa"), ("rate_per_sec", {"default": 5}), ("fidelity_samples", 0),
                ("replace_tiers", ["curated", "generated"]))
    text = plan_text(HEADER, settings,
                     f"{len(seeds)} from `simulator catalog seeds`, {len(curated)} curated v0007 collections, "
                     f"{len(more)} of edition 7 (companies, client values), then {len(kept)} more real-keyed "
                     "generated v0007 collections", seeds + curated + more + kept)
    intro = ("kopa@v0008, like kopa@v0006 and v0007, records none of them (no collection keyed on a dummy), so a "
             "call to one of these tools misses (`--miss native` answers the platform's no-data envelope). Record "
             "them from the live API with a plan that gives the parameter a real value (`simulator record --live`).")
    return text, report_text("plan_v0008.py", "v0008", intro, report.unresolved)


if __name__ == "__main__":
    raise SystemExit(main(__doc__, "plan_v0008.py", build, PLAN, REPORT))
