"""Write ``facts/fields_edition9.json``: response fields published for generated endpoints that
were thin (declaring <= 3 record fields) in world edition 8, served from world edition 9
(option ``late_fields`` ``{name: 9}``, so the versions recorded from editions 2–8 re-record byte
for byte; ``build.PUBLISHED9_EDITION``).

Sources (facts only: field names, the Korean labels a source gives, the JSON type its reader
gives the value; no code or prose is kept). Each was read with the search tool's ``read_file``;
the index names no repository for them, so each is cited by its search-index file id and what
it is. A client's read keys are not a full list: an operation they would leave at <= 3 fields is
not given them (the rule of edition 8), and a client that reads a key under alternative names
(``a || b``) is not used.

* ``MOIS_DISASTER``: a Python collector of four MOIS 행정안전통계연보 자연재해 services (연도별·지역별
  피해, 연도별·지역별 복구비): per service the XML element names it reads from each row, each with
  the Korean name its comment gives, every value read as a number;
* ``MOIS_HEATWAVE``: a React hook reading 연도별 폭염 인명피해 rows by XML element name;
* ``KMA_MMSUMRY``: a Python script reading KMA 지상기상월보 getMmSumry (API hub ``typ02/openApi``,
  the same service as ``apis.data.go.kr/1360000/SfcMtlyInfoService``) rows, values read as floats.

    python scripts/extract_fields9.py
    python -m simulator catalog generate
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.catalog.generate.extract import write_facts  # noqa: E402

DG = "https://apis.data.go.kr"

MOIS_DISASTER = ("search-index file 49373004171 (a Python collector of four MOIS 행정안전통계연보 자연재해 "
                 "services: the XML element names it reads from each row, with the Korean names its comments "
                 "give; every value read as a number; the index names no repository; names and labels only)")
MOIS_HEATWAVE = ("search-index file 12952789614 (a React hook reading the rows of MOIS 연도별 폭염 인명피해 by XML "
                 "element name; the index names no repository; names only); labels it does not give: those "
                 "search-index file 49373004171 gives the same names at the same agency")
KMA_MMSUMRY = ("search-index file 14342282671 (a Python script reading the rows of KMA 지상기상월보 getMmSumry, "
               "API hub typ02/openApi, by XML element name, the temperatures as floats; the index names no "
               "repository; names only)")

Row = list[str]


def _rows(spec: str) -> list[Row]:
    """``"name:type:label, …"`` (type and label optional; type defaults to string)."""
    out = []
    for item in spec.split(","):
        parts = [p.strip() for p in item.strip().split(":")]
        name, ftype, label = (parts + ["", ""])[:3]
        out.append([name, ftype or "string", label])
    return out


#: The causes the four 자연재해 services break their figures down by: the element name each
#: reads (the services spell 강풍 and 지진 two ways) and its Korean name.
_CAUSES = (("typhoon", "태풍"), ("heavy_rain", "호우"), ("heavy_snow", "대설"), ("{wind}", "강풍"),
           ("wind_wave_strong_wind", "풍랑·강풍"), ("typhoon_heavy_rain", "태풍·호우"), ("lightning", "낙뢰"),
           ("cold_wave", "한파"), ("{quake}", "지진"), ("heatwave", "폭염"))


def _causes(ftype: str, wind: str, quake: str, suffix: str = "", label_suffix: str = "") -> str:
    return ", ".join(f"{name.format(wind=wind, quake=quake)}{suffix}:{ftype}:{label}{label_suffix}"
                     for name, label in _CAUSES)


MOIS = {
    "NaturalDisasterDamageByYear/getNaturalDisasterDamageByYear":
        (MOIS_DISASTER, "wrttimeid::연도, tot:integer:합계, " + _causes("integer", "heavy_wind", "earthquak")),
    "AnnualDisasterRecoveryCosts/getAnnualDisasterRecoveryCosts":
        (MOIS_DISASTER, "wrttimeid::연도, total:integer:합계, " + _causes("integer", "strong_wind", "earthquake")),
    "RegionDisasterRecoveryCosts/getRegionDisasterRecoveryCosts":
        (MOIS_DISASTER, "wrttimeid::연도, region::지역, tot:number:합계, " + _causes("number", "heavy_wind", "earthquak")),
    "RegionalNaturalDisasterDamage/getRegionalNaturalDisasterDamage":
        (MOIS_DISASTER, "wrttimeid::연도, region::지역, prop_tot:number:합계 재산, life_tot:number:합계 인명, "
                        + _causes("number", "strong_wind", "earthquake", "_property_damage", " 재산") + ", "
                        + _causes("number", "strong_wind", "earthquake", "_life_damage", " 인명")),
    "CasualtiesFromHeatwaveByYear/getCasualtiesFromHeatwaveByYear":
        (MOIS_HEATWAVE, "wrttimeid::연도, tot:integer:합계, otdoor_subtot:integer, indoor_subtot:integer"),
}

KMA = {
    "SfcMtlyInfoService/getMmSumry": (KMA_MMSUMRY, "stnko, taavg:number, tamax:number, tamin:number"),
}


def operations() -> list[dict[str, object]]:
    hand = [(f"{DG}/1741000/{path}", src, spec) for path, (src, spec) in MOIS.items()]
    hand += [(f"{DG}/1360000/{path}", src, spec) for path, (src, spec) in KMA.items()]
    return sorted(({"url": url, "source": src, "fields": _rows(spec)} for url, src, spec in hand),
                  key=lambda o: str(o["url"]))


def main() -> int:
    ops = operations()
    path = write_facts("fields_edition9", {"source": "published response-field lists served from world edition 9 "
                                                     "(each operation names its source)", "operations": ops})
    print(f"{path}: {len(ops)} operations, {sum(len(o['fields']) for o in ops)} fields")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
