"""Records for generated catalog endpoints, synthesised from their field lists.

A generated endpoint (``fidelity`` other than ``curated``) has no hand-written generator;
its records are made here from its fields: seeded by the world seed, the endpoint and the
collection's filters (same request → same bytes), with value shapes read off each field's
JSON type, name and Korean label (dates, years, times, amounts, coordinates, Y/N flags,
phone numbers, addresses, names). Fields that are **known entity codes** — legal-dong and
``LAWD_CD`` codes, OpenDART ``corp_code`` / stock codes, NEIS office and school codes, TAGO
city and station ids, NEC election ids — are drawn from the world's own tables (the real
legal-dong table among them), all fields of one entity from the same entity, so a chain
across generated and curated tools executes. A filter parameter that names a field is
echoed into every record (and picks its entity when the world has one with that value).
"""

from __future__ import annotations

import random
import re
from datetime import date, timedelta
from typing import Any, Callable

from ...catalog import Endpoint, FieldSpec
from ..world import TODAY, World

__all__ = ["ENTITY_FIELDS", "synth_records"]

#: Records per collection at most (seeded count in 1..this; one for ``kind: object``).
MAX_RECORDS = 24
_BASE_DAY = date(2024, 1, 1)
_TODAY = TODAY.strftime("%Y%m%d")

Picker = Callable[[World, random.Random], dict[str, Any]]


def _company(world: World, rng: random.Random) -> dict[str, Any]:
    c = rng.choice(world.listed_companies())
    return {"corp_code": c["corp_code"], "corp_name": c["corp_name"], "stock_code": c["stock_code"],
            "srtncd": c["stock_code"], "isincd": c["isin"], "crno": c["crno"], "jurir_no": c["jurir_no"],
            "bizr_no": c["bizr_no"], "stock_name": c["stock_name"], "corp_cls": c["corp_cls"],
            "itmsnm": c["stock_name"]}


def _school(world: World, rng: random.Random) -> dict[str, Any]:
    s = rng.choice(world.schools())
    return {"atpt_ofcdc_sc_code": s["ATPT_OFCDC_SC_CODE"], "atpt_ofcdc_sc_nm": s["ATPT_OFCDC_SC_NM"],
            "sd_schul_code": s["SD_SCHUL_CODE"], "schul_nm": s["SCHUL_NM"]}


def _region(world: World, rng: random.Random) -> dict[str, Any]:
    d = rng.choice(world.districts())
    dong = rng.choice(d.dongs) if d.dongs else d.region
    lawd, code = d.lawd_cd, dong.code
    return {"lawd_cd": lawd, "sigungu_cd": lawd, "sigungucd": lawd, "sggcd": lawd, "sgg_cd": lawd,
            "bjdong_cd": code[5:], "bjdongcd": code[5:], "stdgcd": code, "stdg_cd": code, "bjd_code": code,
            "bjdcode": code, "legaldong_cd": code, "admcd": code, "adm_cd": code, "regioncd": code,
            "region_cd": code, "ctprvn_cd": code[:2], "sido_cd": code[:2], "sidocd": code[:2],
            "sido_nm": d.sido.name, "sidonm": d.sido.name, "sgg_nm": d.name, "sggnm": d.name,
            "sigungu_nm": d.name, "emd_nm": dong.leaf, "umd_nm": dong.leaf, "umdnm": dong.leaf}


def _station(world: World, rng: random.Random) -> dict[str, Any]:
    city = rng.choice(world.bus_cities())
    st = rng.choice(world.bus_stations(city["citycode"]))
    return {"citycode": city["citycode"], "cityname": city["cityname"], "nodeid": st["nodeid"],
            "nodenm": st["nodenm"], "nodeno": st["nodeno"], "gpslati": st["gpslati"], "gpslong": st["gpslong"]}


def _election(world: World, rng: random.Random) -> dict[str, Any]:
    e = rng.choice([x for x in world.elections() if x["sgVotedate"] <= _TODAY])  # held ones (edition 2's list)
    return {"sgid": e["sgId"], "sgtypecode": e["sgTypecode"], "sgname": e["sgName"], "sgvotedate": e["sgVotedate"]}


#: Entity → its picker (a record of the world, under the lowercased field names it fills).
ENTITIES: dict[str, Picker] = {
    "company": _company, "school": _school, "region": _region, "station": _station, "election": _election,
}
#: Lowercased field name → the entity that fills it (the pickers' keys; a test keeps them equal).
ENTITY_FIELDS: dict[str, str] = {
    **dict.fromkeys(("corp_code", "corp_name", "stock_code", "srtncd", "isincd", "crno", "jurir_no",
                     "bizr_no", "stock_name", "corp_cls", "itmsnm"), "company"),
    **dict.fromkeys(("atpt_ofcdc_sc_code", "atpt_ofcdc_sc_nm", "sd_schul_code", "schul_nm"), "school"),
    **dict.fromkeys(("lawd_cd", "sigungu_cd", "sigungucd", "sggcd", "sgg_cd", "bjdong_cd", "bjdongcd",
                     "stdgcd", "stdg_cd", "bjd_code", "bjdcode", "legaldong_cd", "admcd", "adm_cd",
                     "regioncd", "region_cd", "ctprvn_cd", "sido_cd", "sidocd", "sido_nm", "sidonm",
                     "sgg_nm", "sggnm", "sigungu_nm", "emd_nm", "umd_nm", "umdnm"), "region"),
    **dict.fromkeys(("citycode", "cityname", "nodeid", "nodenm", "nodeno", "gpslati", "gpslong"), "station"),
    **dict.fromkeys(("sgid", "sgtypecode", "sgname", "sgvotedate"), "election"),
}
#: Filter fields that pick their entity by value (field name → the world's lookup).
_LOOKUPS: dict[str, Callable[[World, str], dict[str, Any] | None]] = {
    "corp_code": lambda w, v: w.company(v),
    "sd_schul_code": lambda w, v: w.school(v),
    "atpt_ofcdc_sc_code": lambda w, v: next((s for s in w.schools() if s["ATPT_OFCDC_SC_CODE"] == v), None),
}

_DATE_RE = re.compile(r"(?i)(ymd|_de$|de$|dt$|date|일자|날짜|일$)")
_YEAR_RE = re.compile(r"(?i)(^yr$|year|_yy$|연도|년도)")
_TIME_RE = re.compile(r"(?i)(time|_tm$|hhmm|시각|시간)")
_AMOUNT_RE = re.compile(r"(?i)(amt|amount|cnt|count|qty|price|prc|금액|가격|수량|건수|인원|수$|액$|량$)")
_COORD_RE = re.compile(r"(?i)(lat|위도|gpsy|ypos|^y$)|(lon|lng|경도|gpsx|xpos|^x$)")
_FLAG_RE = re.compile(r"(?i)(_yn$|yn$|여부)")
_PHONE_RE = re.compile(r"(?i)(tel|phone|fax|전화|팩스)")
_ADDR_RE = re.compile(r"(?i)(addr|adres|주소|소재지)")
_URL_RE = re.compile(r"(?i)(url|link|homepage|홈페이지|링크)")
_CODE_RE = re.compile(r"(?i)(cd$|code$|_id$|id$|no$|번호|코드)")


def _value(f: FieldSpec, i: int, rng: random.Random, world: World) -> Any:
    name, label = f.name, f.description
    text = f"{name} {label}"
    if f.type in ("integer", "number") or (_AMOUNT_RE.search(name) or _AMOUNT_RE.search(label)) and not _CODE_RE.search(name):
        n = rng.randint(0, 99999) if f.type != "number" else round(rng.uniform(0, 9999), 2)
        if f.type == "integer":
            return int(n)
        return n if f.type == "number" else str(n)
    if m := _COORD_RE.search(text):
        v = round(rng.uniform(33.2, 38.5), 6) if m.group(1) else round(rng.uniform(126.1, 129.5), 6)
        return str(v)
    if _YEAR_RE.search(text):
        return str(2020 + rng.randrange(6))
    if _DATE_RE.search(name) or "일자" in label or "날짜" in label:
        return (_BASE_DAY + timedelta(days=rng.randrange(730))).strftime("%Y%m%d")
    if _TIME_RE.search(text):
        return f"{rng.randrange(24):02d}{rng.choice((0, 10, 20, 30, 40, 50)):02d}"
    if _FLAG_RE.search(text):
        return rng.choice("YN")
    if _PHONE_RE.search(text):
        return f"0{rng.choice((2, 31, 32, 33, 41, 42, 43, 51, 52, 53, 54, 55, 61, 62, 63, 64))}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}"
    if _ADDR_RE.search(text):
        d = rng.choice(world.districts())
        return f"{d.full_name} {rng.randint(1, 300)}"
    if _URL_RE.search(text):
        return f"https://www.example.go.kr/view/{rng.randint(1000, 99999)}"
    if _CODE_RE.search(name) or f.code:
        return f"{rng.randint(0, 10 ** 6 - 1):06d}"
    base = (label or name).split("(")[0].strip() or name
    return f"{base} {i + 1}"


#: data.go.kr's ``cond[FIELD::OP]`` filters: the field they test, and how.
_COND_RE = re.compile(r"cond\[(\w+)::(EQ|LIKE)\]")


def served_fields(world: World, ep: Endpoint) -> list[FieldSpec]:
    """The fields of ``ep`` the world's edition serves: option ``late_fields``
    (``{field: edition}``) names fields a later edition added (the versions recorded from
    earlier editions hold the records without them)."""
    late: dict[str, int] = ep.opt("late_fields") or {}
    return [f for f in ep.fields if world.edition >= late.get(f.name, 0)]


def _filter_fields(fields: list[FieldSpec], filters: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Field name → (op, value) for the filters that name one of ``fields``."""
    names = {f.name for f in fields}
    out: dict[str, tuple[str, str]] = {}
    for param, value in filters.items():
        m = _COND_RE.fullmatch(param)
        if m is not None and m.group(1) in names:
            out[m.group(1)] = ("equals" if m.group(2) == "EQ" else "contains", value)
        elif param in names:
            out[param] = ("equals", value)
    return out


def synth_records(world: World, ep: Endpoint, filters: dict[str, str]) -> list[dict[str, Any]]:
    """The records of one collection of a generated endpoint (see the module docstring)."""
    rng = world.rng("synth", ep.id, *(f"{k}={v}" for k, v in sorted(filters.items())))
    n = 1 if ep.kind == "object" else 1 + rng.randrange(MAX_RECORDS)
    fields = served_fields(world, ep)
    echo = _filter_fields(fields, filters)
    lower = {f.name: f.name.lower() for f in fields}
    used = {ENTITY_FIELDS[lo] for lo in lower.values() if lo in ENTITY_FIELDS}
    fixed: dict[str, dict[str, Any]] = {}
    for fname, (op, value) in echo.items():
        lookup = _LOOKUPS.get(lower.get(fname, ""))
        if op == "equals" and lookup is not None and (hit := lookup(world, value)) is not None:
            fixed[ENTITY_FIELDS[lower[fname]]] = {k.lower(): v for k, v in hit.items()}
    records = []
    for i in range(n):
        picks = {e: fixed.get(e) or ENTITIES[e](world, rng) for e in sorted(used)}
        rec: dict[str, Any] = {}
        for f in fields:
            lo = lower[f.name]
            if f.name in echo:
                op, value = echo[f.name]
                v: Any = value if op == "equals" else f"{value} {i + 1}"
            elif lo in ENTITY_FIELDS:
                v = picks[ENTITY_FIELDS[lo]].get(lo, "")
            else:
                v = _value(f, i, rng, world)
            rec[f.name] = _typed(v, f.type)
        records.append(rec)
    return records


def _typed(v: Any, ftype: str) -> Any:
    if ftype == "integer":
        try:
            return int(v)
        except (TypeError, ValueError):
            return 0
    if ftype == "number":
        try:
            return float(v)
        except (TypeError, ValueError):
            return 0.0
    return v if isinstance(v, str) else str(v)
