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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plan_common import (  # noqa: E402
    ROOT,
    Planned,
    carry_forward,
    main,
    recording_header,
)

from simulator.sandbox.world import World  # noqa: E402

PLAN = ROOT / "simulator" / "record" / "plans" / "v0010.yaml"
REPORT = ROOT / "docs" / "seeds-v0010.md"
EDITION = 9
PARENT = "v0009"
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


def add_home_months(planned: Planned, world: World) -> None:
    """Seoul's 25 districts' row-house and officetel trades of :data:`HOME_MONTHS`."""
    for endpoint, months in HOME_MONTHS.items():
        for ym in months:
            for lawd in SEOUL_DISTRICTS:
                assert world.district(lawd) is not None, lawd
                planned.add(endpoint, {"LAWD_CD": lawd, "DEAL_YMD": ym})


def build() -> tuple[str, str]:
    """(the plan's text, the report's text)."""
    return carry_forward("v0010", PARENT, EDITION, HEADER, "companies, client values, home-trade months", add_home_months)


if __name__ == "__main__":
    raise SystemExit(main(__doc__, "plan_v0010.py", build, PLAN, REPORT))
