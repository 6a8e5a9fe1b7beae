"""juso.go.kr road-name addresses: keyword search (admCd = the 10-digit legal-dong code)."""

from __future__ import annotations

import re
from typing import Any

from ..world import World, romanize
from ._common import shape

__all__ = ["GENERATORS"]


def _search(world: World, keyword: str) -> list[dict[str, str]]:
    tokens = keyword.split()
    if not tokens:
        return []
    districts = world.districts()
    named = [d for d in districts if any(t in (d.full_name, d.name, d.name.split(" ")[-1]) or
                                         (len(t) > 1 and t in d.full_name.split(" ")) for t in tokens)]
    scope = named or districts
    rows = [a for d in scope for a in world.addresses(d.lawd_cd)]
    hits = [a for a in rows if all(t in a["roadAddr"] or t in a["jibunAddr"] for t in tokens)]
    if not hits and world.edition >= FULL_ADDRESS_EDITION and (m := _ROAD_NUMBER.search(keyword)):
        # a road-name address ('서울특별시 종로구 세종대로 209', '세종대로 209'): that address, in the
        # district the keyword names, else the first whose dong the road's stem leads
        road = m.group(1)
        stem = road[:-2] if road.endswith("대로") else road[:-1]
        exact = [d for d in named if any(t in (d.name, d.name.split(" ")[-1]) for t in tokens)]
        place = exact if len(exact) == 1 else [d for d in (exact or named or districts)
                                               if stem and any(x.leaf.startswith(stem) for x in d.dongs)][:1]
        at = world.address_at(place[0].lawd_cd, road, int(m.group(2)), int(m.group(3) or 0)) if place else None
        return [at] if at is not None else []
    return hits


#: The edition from which a full road-name address the district's addresses lack is answered.
FULL_ADDRESS_EDITION = 7
#: A road name and building number at the end of a keyword: 세종대로 209, 테헤란로 152-1.
_ROAD_NUMBER = re.compile(r"(\S+(?:로|길))\s*(\d{1,4})(?:-(\d{1,4}))?\s*$")


def address_search(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    return shape("juso_address_search", _search(world, f.get("keyword", "").strip()))


def address_english(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    rows = [{**a, "roadAddr": romanize(a["engAddr"]), "korAddr": a["roadAddrPart1"],
             "jibunAddr": romanize(a["jibunAddr"])} for a in _search(world, f.get("keyword", "").strip())]
    return shape("juso_address_english", rows)


def _building(world: World, f: dict[str, str]) -> dict[str, str] | None:
    adm = f.get("admCd", "")
    for a in world.addresses(adm[:5]):
        if (a["admCd"] == adm and a["rnMgtSn"] == f.get("rnMgtSn") and a["buldMnnm"] == f.get("buldMnnm")
                and a["buldSlno"] == (f.get("buldSlno") or "0")):
            return a
    return None


def address_detail(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    """동 list (searchType=dong) or 층/호 (searchType=floorho) of one building."""
    a = _building(world, f)
    if a is None:
        return []
    rng = world.rng("juso_detail", a["bdMgtSn"])
    dongs = [f"{100 + k}동" for k in range(1, rng.randint(2, 9))] if a["bdKdcd"] == "1" else [""]
    base = {k: a[k] for k in ("admCd", "rnMgtSn", "udrtYn", "buldMnnm", "buldSlno")}
    if f.get("searchType", "dong") != "floorho":
        return shape("juso_address_detail", [{**base, "dongNm": d, "floorNm": "", "hoNm": ""} for d in dongs])
    rows = []
    for d in dongs:
        for fl in range(1, rng.randint(3, 20)):
            for ho in range(1, 5):
                rows.append({**base, "dongNm": d, "floorNm": f"{fl}층", "hoNm": f"{fl}{ho:02d}호"})
    return shape("juso_address_detail", rows)


def address_coord(world: World, f: dict[str, str]) -> list[dict[str, Any]]:
    a = _building(world, f)
    if a is None:
        return []
    rng = world.rng("juso_coord", a["bdMgtSn"])
    return shape("juso_address_coord", [{**a, "entX": f"{rng.uniform(940000, 970000):.6f}", "entY": f"{rng.uniform(1930000, 1960000):.6f}"}])


GENERATORS = {
    "juso_address_search": address_search,
    "juso_address_english": address_english,
    "juso_address_detail": address_detail,
    "juso_address_coord": address_coord,
}
