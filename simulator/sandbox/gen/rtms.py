"""Edition 9: the generated MOLIT RTMS trade and rent services answer the district and month asked.

The eight ``RTMSDataSvc…`` services the catalog generates (land, 단독/다가구, 연립다세대 and
오피스텔 rents, 분양권, factories and commercial buildings) take ``LAWD_CD`` and ``DEAL_YMD`` as
the curated apartment services do (``gen/molit.py``). Up to edition 8 their records were drawn
without reading the request: a call for 강남구 (11680) and 2025-12 answered other districts'
``sggCd`` and contract years 2020–2025. From :data:`RTMS_REQUEST_EDITION` each record is a deal
of the district and month asked: ``sggCd`` is ``LAWD_CD``, ``sggNm`` the district's name,
``umdNm`` one of its legal dongs, ``dealYear``/``dealMonth`` the month asked and ``dealDay`` a day
of it; the words a record names (건물유형, 용도지역, 지목, 주택유형, building and complex names)
are words of their kind, not ``"<label> n"``. Like the curated services, an unknown
``LAWD_CD`` (or a city code with 일반구, which has no dongs of its own), a malformed
``DEAL_YMD`` or a month outside ``TRADE_MONTHS`` answers no records. Each record's values come
from its own generator (``rtms|…``), so the synthesiser's draws stay edition 8's.
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta
from typing import Any

from ...catalog import Endpoint
from ..world import TRADE_MONTHS, World
from ..world._names import comma

__all__ = ["RTMS_REQUEST_EDITION", "is_rtms", "rtms_records"]

#: The edition from which a generated RTMS record is a deal of the district and month asked.
RTMS_REQUEST_EDITION = 9

#: 건물주용도 by service: 공장·창고 (``InduTrade``), 상업업무용 (``NrgTrade``).
_USES = {
    "indu": ("공장", "공장", "창고", "창고", "제2종근린생활"),
    "nrg": ("제1종근린생활", "제2종근린생활", "제2종근린생활", "업무", "판매", "숙박", "교육연구", "의료"),
}
#: 용도지역, the zoning words RTMS writes.
_ZONES = ("제1종일반주거", "제2종일반주거", "제2종일반주거", "제3종일반주거", "준주거", "일반상업",
          "근린상업", "준공업", "자연녹지", "계획관리")
_INDU_ZONES = ("준공업", "일반공업", "계획관리", "자연녹지", "일반상업")
#: 지목 (the land register's categories).
_JIMOK = ("대", "대", "대", "전", "답", "임야", "잡종지", "공장용지", "도로")


def is_rtms(ep: Endpoint) -> bool:
    """Whether ``ep`` is a generated RTMS deal service (it takes ``LAWD_CD`` and ``DEAL_YMD``)."""
    names = {p.name for p in ep.params}
    return {"LAWD_CD", "DEAL_YMD"} <= names and ep.path.startswith("/1613000/RTMSDataSvc")


def _kind(ep: Endpoint) -> str:
    return "indu" if "Indu" in ep.path else "nrg" if "Nrg" in ep.path else ""


def rtms_records(world: World, ep: Endpoint, filters: dict[str, str], records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records of one RTMS call (see the module docstring): ``records`` (the synthesised
    ones) with their place, month and naming fields set from the district and month asked."""
    lawd, ym = filters.get("LAWD_CD", "").strip(), filters.get("DEAL_YMD", "").strip()
    d = world.district(lawd)
    if d is None or not d.dongs or ym not in TRADE_MONTHS:
        return []
    year, month = int(ym[:4]), int(ym[4:])
    last = (date(year + (month == 12), month % 12 + 1, 1) - timedelta(1)).day
    apts = world.apartments(lawd)
    key = "|".join(f"{k}={v}" for k, v in sorted(filters.items()))
    kind = _kind(ep)
    out = []
    for i, rec in enumerate(records):
        own = random.Random(f"rtms|{world.seed}|{ep.id}|{key}|{i}")
        dong = own.choice(d.dongs)
        apt = own.choice(apts) if apts else None
        bonbun = own.randint(1, 999)
        jibun = str(bonbun) if own.random() < 0.6 else f"{bonbun}-{own.randint(1, 40)}"
        house = own.choice(("단독", "단독", "다가구"))
        values: dict[str, Any] = {
            "sggCd": lawd, "sggNm": d.name, "umdNm": dong.leaf, "jibun": jibun,
            "dealYear": str(year), "dealMonth": str(month), "dealDay": str(own.randint(1, last)),
            "buildingType": own.choice(("일반", "일반", "집합")),
            "buildingUse": own.choice(_USES.get(kind, _USES["nrg"])),
            "landUse": own.choice(_INDU_ZONES if kind == "indu" else _ZONES),
            "jimok": own.choice(_JIMOK), "houseType": house,
            "buildYear": str(own.randint(1985, year)),
        }
        if apt is not None:  # a complex of the district: its dong and lot
            stem = re.sub(r"(\d+(단지|차)|아파트)$", "", apt["aptNm"])  # "논현더샵3단지" → "논현더샵"
            values.update({"umdNm": apt["umdNm"], "jibun": apt["jibun"], "aptNm": apt["aptNm"],
                           "offiNm": f"{stem}오피스텔", "mhouseNm": stem.rstrip("0123456789단지차") + "빌라"})
        if "totalFloorAr" in rec and ("houseType" in rec or "deposit" in rec):  # a detached house or its rent
            floor_ar = own.uniform(60, 330) * (1.6 if house == "다가구" else 1.0)
            values.update({"totalFloorAr": f"{floor_ar:.2f}", "plottageAr": f"{floor_ar * own.uniform(0.6, 1.4):.2f}"})
        if "deposit" in rec:  # 만원, as RTMS writes them ("15,000"; monthly rent "0" for 전세)
            monthly = own.random() < 0.5
            values["deposit"] = comma(own.randrange(10 if monthly else 60, 150 if monthly else 900) * 100)
            values["monthlyRent"] = str(own.randrange(30, 250)) if monthly else "0"
        rec = dict(rec)
        for name, value in values.items():
            if name in rec:
                rec[name] = value
        out.append(rec)
    return out
