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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plan_common import (  # noqa: E402
    ROOT,
    carry_forward,
    main,
    recording_header,
)

PLAN = ROOT / "simulator" / "record" / "plans" / "v0009.yaml"
REPORT = ROOT / "docs" / "seeds-v0009.md"
EDITION = 8
PARENT = "v0008"

HEADER = recording_header("v0009", PARENT, EDITION, 8791, "2026-12-14T00:00:00Z", """\
v0009 is v0008 recorded anew from world edition 8 (names that read like real Korean ones),
both tiers (replace_tiers: [curated, generated]): the curated collections of v0008 under the
same keys (OpenDART's for edition 8's companies), `simulator catalog seeds` (real values only:
docs/seeds-v0009.md lists the endpoints left out), the other real-keyed generated collections
of v0008 (FSC's outlines by name taken anew: edition 8 renamed the invented companies), and
the values real clients send.""")


def build() -> tuple[str, str]:
    """(the plan's text, the report's text)."""
    return carry_forward("v0009", PARENT, EDITION, HEADER, "companies, client values")


if __name__ == "__main__":
    raise SystemExit(main(__doc__, "plan_v0009.py", build, PLAN, REPORT))
