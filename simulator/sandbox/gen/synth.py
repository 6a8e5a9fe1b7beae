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
from collections.abc import Callable
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

from ...catalog import Endpoint, FieldSpec
from ..world import TODAY, World
from ..world._finance import REAL_COMPANIES_EDITION
from ..world._names import _stem
from ..world._politics import _SIDO_RENAMED, DATED_ADDRESSES_EDITION
from .dart_dates import DART_DATES_EDITION, dart_dates
from .dart_indx import INDX_EDITION, index_rows
from .datagokr_misc import (
    AIRKOREA_FIELD_VER,
    AIRKOREA_VER_EDITION,
    airkorea_station_rows,
    as_version,
    version_of,
)
from .kma_values import KMA_CATEGORY_EDITION, ultra_fcst_rows, ultra_ncst_rows
from .measures import (
    MEASURES_EDITION,
    measure_kind,
    measure_scale,
    measure_value,
    sun_altitude,
    table_record,
)
from .rtms import RTMS_REQUEST_EDITION, is_rtms, rtms_records

__all__ = ["ENTITY_FIELDS", "format_fields", "names_real_company", "synth_records"]

#: The edition from which generated endpoints serve their fuller fields, shaped values included.
FIELDS_EDITION = 5
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


#: Date formats a field's label names (``결산기준일 (YYYY-MM-DD)``), else YYYYMMDD.
_FMT_RE = re.compile(r"YYYY-MM-DD|YYYY\.MM\.DD|YYYYMMDDHHMM|YYYYMMDD|YYYYMM|YYYY")
_FORMATS = {"YYYY-MM-DD": "%Y-%m-%d", "YYYY.MM.DD": "%Y.%m.%d", "YYYYMMDDHHMM": "%Y%m%d%H%M",
            "YYYYMMDD": "%Y%m%d", "YYYYMM": "%Y%m", "YYYY": "%Y"}
#: Shapes by exact field name (lowercased), for names the generic rules read wrong: OpenDART
#: statement rows, KMA grid and observation fields, receipt numbers.
_BY_NAME: dict[str, Callable[[random.Random, int], Any]] = {
    "rcept_no": lambda r, i: (_BASE_DAY + timedelta(days=r.randrange(730))).strftime("%Y%m%d") + f"{r.randrange(10 ** 6):06d}",
    "reprt_code": lambda r, i: r.choice(("11011", "11012", "11013", "11014")),
    "bsns_year": lambda r, i: str(2021 + r.randrange(4)),
    "sj_div": lambda r, i: r.choice(("BS", "IS", "CIS", "CF", "SCE")),
    "fs_div": lambda r, i: r.choice(("CFS", "OFS")),
    "currency": lambda r, i: "KRW",
    "ord": lambda r, i: str(i + 1),
    "account_id": lambda r, i: r.choice(("ifrs-full_Revenue", "ifrs-full_Assets", "ifrs-full_Equity",
                                         "ifrs-full_ProfitLoss", "dart_OperatingIncomeLoss", "ifrs-full_Liabilities")),
    "idx_cl_code": lambda r, i: r.choice(("M210000", "M220000", "M230000", "M240000")),
    "idx_code": lambda r, i: f"M2{r.randint(1, 4)}{r.randint(1, 9)}000",
    "idx_val": lambda r, i: f"{r.uniform(-30, 60):.3f}",
    "category": lambda r, i: r.choice(("T1H", "RN1", "UUU", "VVV", "REH", "PTY", "VEC", "WSD")),
    "nx": lambda r, i: r.randint(21, 144), "ny": lambda r, i: r.randint(8, 147),
    "obsrvalue": lambda r, i: f"{r.uniform(-10, 35):.1f}", "fcstvalue": lambda r, i: str(r.randint(0, 30)),
    "basetime": lambda r, i: f"{r.randrange(24):02d}00", "fcsttime": lambda r, i: f"{r.randrange(24):02d}00",
    "sj_nm": lambda r, i: r.choice(("재무상태표", "손익계산서", "포괄손익계산서", "현금흐름표", "자본변동표")),
    "account_nm": lambda r, i: r.choice(("매출액", "영업이익", "당기순이익", "자산총계", "부채총계", "자본총계",
                                         "유동자산", "비유동자산", "이익잉여금")),
    "account_detail": lambda r, i: "-",
    "thstrm_nm": lambda r, i: f"제 {50 + r.randrange(10)} 기", "frmtrm_nm": lambda r, i: f"제 {49 + r.randrange(10)} 기",
    "frmtrm_q_nm": lambda r, i: f"제 {49 + r.randrange(10)} 기", "bfefrmtrm_nm": lambda r, i: f"제 {48 + r.randrange(10)} 기",
    "idx_cl_nm": lambda r, i: r.choice(("수익성지표", "안정성지표", "성장성지표", "활동성지표")),
    "idx_nm": lambda r, i: r.choice(("영업이익률", "순이익률", "부채비율", "유동비율", "매출액증가율", "총자산회전율")),
    "stlm_dt": lambda r, i: f"{2021 + r.randrange(4)}-12-31",
}
#: Amount fields: OpenDART statement amounts are whole won (plain digit strings in
#: fnlttSinglAcntAll), other amounts positive whole numbers of a plausible size.
_WON_RE = re.compile(r"(?i)_amount$|금액")


def _shaped(f: FieldSpec, i: int, rng: random.Random, world: World) -> Any:
    """Edition 5: a value of the field's shape (its format, unit and code shape), or None
    to fall back to the generic rules of :func:`_value`."""
    lo = f.name.lower()
    if lo in _BY_NAME:
        return _BY_NAME[lo](rng, i)
    text = f"{f.name} {f.description}"
    if lo.endswith("_nm") and f.type == "string":  # a name: never an amount ("account" holds "cnt")
        return f"{(f.description or f.name).split('(')[0].strip()} {i + 1}"
    if _WON_RE.search(text) and f.type == "string":
        return str(rng.randint(10 ** 8, 10 ** 13))
    if (m := _FMT_RE.search(f.description)) and (_DATE_RE.search(f.name) or _YEAR_RE.search(text) or "일" in f.description):
        at = datetime(_BASE_DAY.year, _BASE_DAY.month, _BASE_DAY.day) + timedelta(
            days=rng.randrange(730), minutes=10 * rng.randrange(144))
        return at.strftime(_FORMATS[m.group(0)])
    return None


def _value(f: FieldSpec, i: int, rng: random.Random, world: World, ep: Endpoint | None = None,
           place: Callable[..., Any] | None = None) -> Any:
    if world.edition < MEASURES_EDITION:
        return _value8(f, i, rng, world)[0]
    if _rule9(f.name, f.description, f.type) is None:
        v, branch = _value8(f, i, rng, world)
        if branch == "won":  # edition 9: a label naming 금액 that is no amount, or one numbered ("…금액1")
            return _won9(f, v, random.Random(f"won|{f.name}|{i}|{rng.getstate()}"), ep)
        if branch == "label" and world.edition >= NAMES_EDITION:
            named = _name9(f, random.Random(f"name|{f.name}|{i}|{rng.getstate()}"), world, place)
            return v if named is None else named
        return v
    # edition 9: the field's meaning says its value; drawn from its own generator (seeded by
    # the field and the collection's stream here), and the stream consumed as edition 8 did,
    # so every other value of the record stays edition 8's
    own = random.Random(f"measure|{f.name}|{i}|{rng.getstate()}")
    old, branch = _value8(f, i, rng, world)
    new = _value9(f, own, world, ep, branch, old, place)
    return old if new is None else new


#: The edition from which a generated name field that read "<label> n" names a place of the
#: world (``출발시도명``, ``areaName``) or one of its kind's words (``구분(금액/비중)``, ``요일명``).
#: Names of people, parties, companies and bills stay "<label> n": an invented value must not
#: pose as a real one's.
NAMES_EDITION = 9
_PLACE_LABEL = re.compile(r"^(출발|도착|소재|관할|발생|측정|사업장|소재지)?\s*(시도|광역시도|시·도|시군구|시·군·구|읍면동|지역|"
                          r"자치단체|행정구역)(명|명칭)?$")
_PLACE_NAME = re.compile(r"(?i)^(area_?nm|area_?name|sido_?nm|sido_?name|sgg_?nm|sigungu_?nm|region_?nm|region_?name)$")
#: Category words by what a label names (the first match wins).
_KIND_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"요일", ("월요일", "화요일", "수요일", "목요일", "금요일", "토요일", "일요일")),
    (r"제개정구분|제정개정구분", ("제정", "일부개정", "전부개정", "타법개정", "폐지")),
    (r"영업상태", ("영업/정상", "영업/정상", "폐업", "휴업")),
    (r"업무구분", ("물품", "공사", "용역", "외자")),
    (r"회의종류", ("본회의", "상임위원회", "특별위원회", "소위원회")),
    (r"점검결과", ("적합", "적합", "부적합")),
    (r"성별", ("남", "여")),
    (r"^구분$|구분명$", ("일반", "일반", "기타")),
)


def _asked_area(world: World, ep: Endpoint, filters: dict[str, str]) -> str | None:
    """The name of the place a request's area code names (KMA ``AREA_ID=4111000000``: "경기도 수원시"), if any."""
    for k, v in filters.items():
        if re.fullmatch(r"(?i)area_?id|area_?cd|area_?code", k) and re.fullmatch(r"\d{5}(\d{5})?", v.strip()):
            d = world.district(v.strip()[:5])
            if d is not None:
                return d.full_name
            d = next((x for x in world.districts() if x.lawd_cd[:4] == v.strip()[:4]), None)
            return f"{d.sido.name} {d.name.split(' ')[0]}" if d is not None else None  # 41110: 경기도 수원시
    return None


def _name9(f: FieldSpec, own: random.Random, world: World, place: Callable[..., Any] | None) -> Any:
    """Edition 9's value of a field edition 8 filled with ``"<label> n"``, where its label names a
    place or a kind (:data:`NAMES_EDITION`); None keeps edition 8's."""
    head = _head(f.description).strip()
    m = _PLACE_LABEL.fullmatch(head)
    if m or (not f.description and _PLACE_NAME.fullmatch(f.name)):
        prefix = m.group(1) if m else ""
        level = m.group(2) if m else ("sido" if re.search(r"(?i)sido", f.name) else "시군구" if re.search(r"(?i)sgg|sigungu", f.name)
                                      else "행정구역")  # "areaName": "경기도 수원시"
        d = (place(prefix) if prefix else place()) if place is not None else own.choice(world.districts())
        if level in ("시도", "광역시도", "시·도") or level == "sido":
            return d.sido.name
        if level in ("시군구", "시·군·구", "자치단체"):
            return d.name
        if level == "읍면동":
            return own.choice(d.dongs).leaf if d.dongs else d.name
        return d.full_name if level == "행정구역" else world.sido_short(d.sido.sido_cd) or d.sido.name
    if re.search(r"구분|종류|유형|상태|결과", head) and (opts := re.findall(r"\(([^()]*/[^()]*)\)", f.description)):
        return own.choice([w.strip() for w in opts[0].split("/") if w.strip()])  # "구분(금액/비중)"
    for rx, words in _KIND_WORDS:
        if re.search(rx, head):
            return own.choice(words)
    return None


def _won9(f: FieldSpec, old: Any, own: random.Random, ep: Endpoint | None) -> Any:
    """Edition 9's value of a field edition 8 gave 10^8-10^13 for naming 금액 that no measure rule
    reads: a date-time (``기초금액공개일시``, as PPS writes them), one of a 구분's listed words
    (``구분(금액/비중)``), an amount of a numbered label (``발행회사총자산금액1``), else edition 8's."""
    head = _head(f.description)
    if head.endswith(("일시", "일자", "일")):
        at = datetime(_BASE_DAY.year, _BASE_DAY.month, _BASE_DAY.day) + timedelta(
            days=own.randrange(730), hours=own.randrange(9, 18))
        return at.strftime("%Y-%m-%d %H:%M:%S" if head.endswith("일시") else "%Y%m%d")
    if head.endswith("구분") and (words := re.findall(r"\(([^()]*/[^()]*)\)", f.description)):
        return own.choice([w.strip() for w in words[0].split("/") if w.strip()])
    if (kind := measure_kind(f.name, re.sub(r"\d+$", "", f.description))) is not None:
        return measure_value(kind, own, comma=ep is not None and "opendart" in ep.host,
                             scale=measure_scale(f.description))
    return old


def _value8(f: FieldSpec, i: int, rng: random.Random, world: World) -> tuple[Any, str]:
    """The value editions 5-8 give a field, and the rule that gave it (``shaped``, ``won`` for an
    amount of 10^8-10^13 any label naming 금액 got, ``number``, ``code``, ``label`` for
    ``"<label> n"``, ``other``)."""
    if world.edition >= FIELDS_EDITION and (v := _shaped(f, i, rng, world)) is not None:
        if v == f"{f.description.split('(')[0].strip()} {i + 1}":
            return v, "label"
        won = f.name.lower() not in _BY_NAME and f.type == "string" and _WON_RE.search(f"{f.name} {f.description}")
        return v, "won" if won else "shaped"  # "won": 10^8-10^13 for any label holding 금액
    name, label = f.name, f.description
    text = f"{name} {label}"
    if f.type in ("integer", "number") or (_AMOUNT_RE.search(name) or _AMOUNT_RE.search(label)) and not _CODE_RE.search(name):
        n = rng.randint(0, 99999) if f.type != "number" else round(rng.uniform(0, 9999), 2)
        if f.type == "integer":
            return int(n), "number"
        return (n if f.type == "number" else str(n)), "number"
    if m := _COORD_RE.search(text):
        v = round(rng.uniform(33.2, 38.5), 6) if m.group(1) else round(rng.uniform(126.1, 129.5), 6)
        return str(v), "other"
    if _YEAR_RE.search(text):
        return str(2020 + rng.randrange(6)), "other"
    if _DATE_RE.search(name) or "일자" in label or "날짜" in label:
        return (_BASE_DAY + timedelta(days=rng.randrange(730))).strftime("%Y%m%d"), "other"
    if _TIME_RE.search(text):
        return f"{rng.randrange(24):02d}{rng.choice((0, 10, 20, 30, 40, 50)):02d}", "other"
    if _FLAG_RE.search(text):
        return rng.choice("YN"), "other"
    if _PHONE_RE.search(text):
        return f"0{rng.choice((2, 31, 32, 33, 41, 42, 43, 51, 52, 53, 54, 55, 61, 62, 63, 64))}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}", "other"
    if _ADDR_RE.search(text):
        d = rng.choice(world.districts())
        return f"{d.full_name} {rng.randint(1, 300)}", "other"
    if _URL_RE.search(text):
        return f"https://www.example.go.kr/view/{rng.randint(1000, 99999)}", "other"
    if _CODE_RE.search(name) or f.code:
        return f"{rng.randint(0, 10 ** 6 - 1):06d}", "code"
    base = (label or name).split("(")[0].strip() or name
    return f"{base} {i + 1}", "label"


#: Edition 9: labels that say year and month (``기준년월``, ``배출년월``), a birth's (``출생 년월``),
#: a region's name (``지역``, ``시군구``, ``행정구역``), a date a field typed integer holds (``날짜``).
_YM_RE = re.compile(r"(년월|연월)$")
_BIRTH_RE = re.compile(r"출생|생년")
_REGION_RE = re.compile(r"^(지역|지역명|관할지역)$|^(시도|시도명|광역자치단체)$|^(시군구|시군구명|시·군·구|기초자치단체)$|행정구역(명)?$")
_INT_DATE_RE = re.compile(r"^(날짜|일자|기준일자?)$|일자$")
_DAY_LABEL_RE = re.compile(r"(발생|시작|종료|등록|기준|작성|접수|지정|변경|공고|개시|만료|신고|허가|승인|준공|착공|완료|처리|"
                           r"게시|발표|조사|측정|설치|개업|폐업|취득|해제|결정|시행|공포|제정|개정|결의|기산|예정|배정|교부|상장|"
                           r"납입|청약|지급|만기|상환|행사|체결|매매)일$")


def _head(label: str) -> str:
    """A label without its parenthesised parts ("기준년월(YYYYMM)" → "기준년월")."""
    return re.sub(r"\([^()]*\)", "", label).strip()


@cache
def _rule9(name: str, label: str, ftype: str) -> tuple[str, str] | None:
    """What edition 9 reads a field as, from its name, label and type alone: ``("month", "")``
    (year and month), ``("birth", "")``, ``("region", level)``, ``("date", "")`` (a date typed
    integer), ``("code", "")`` (a name ending "code", which edition 8's date rule read as one:
    ``stationCode`` 20241214), ``("measure", kind)`` (:func:`~.measures.measure_kind`), or None
    (edition 8's)."""
    head = _head(label)
    if (head.endswith("월") and not _YM_RE.search(head) and ftype == "string"
            and re.search(r"(?i)(month|mm|mon|_mt)$", name)):
        return "month_only", "pad" if re.search(r"(?i)mm$", name) else ""  # "dealMonth" 계약월: 1-12
    if re.search(r"(?i)code$", name) and ftype == "string" and not re.search(r"일자|날짜|일시", label):
        return "code", "zip" if re.search(r"(?i)zip_?code$", name) else ""  # "stationCode": never a date
    if _YM_RE.search(head) and not _FMT_RE.search(label) and ftype == "string":
        return ("birth" if _BIRTH_RE.search(head) else "month"), ""
    if _REGION_RE.search(head) and not _CODE_RE.search(name) and ftype == "string" and "영문" not in label:
        level = ("stem" if re.search(r"(?i)stn", name) else  # a weather station's 지역명: "춘천"
                 "sido_short" if head.startswith(("지역", "관할")) else "sido" if head.startswith(("시도", "광역"))
                 else "district" if head.startswith(("시군구", "시·군·구", "기초")) else "full")
        return "region", level
    if ftype == "integer" and _INT_DATE_RE.search(head):
        return "date", ""
    if ftype == "string" and _DAY_LABEL_RE.search(head):
        return "day", ""  # "재해발생일": a date, not "재해발생일 1"
    if (kind := measure_kind(name, label)) is not None:
        return "measure", kind
    return None


def _value9(f: FieldSpec, own: random.Random, world: World, ep: Endpoint | None, branch: str, old: Any,
            place: Callable[..., Any] | None = None) -> Any:
    """Edition 9's value of a field :func:`_rule9` reads, where edition 8's rule filled it by its
    type alone (``number``: 0-99999 whatever it means), with its label (``label``) or, for a
    region, a code; None keeps edition 8's (a date, a time, a code, a shaped value)."""
    rule, kind = _rule9(f.name, f.description, f.type)
    if rule == "code":  # edition 8 read "…Code" as a date ("de$"): 20241214
        if branch != "other" or not re.fullmatch(r"20\d{6}", str(old)):
            return None
        return f"{own.randint(1000, 63643):05d}" if kind == "zip" else f"{own.randrange(10 ** 6):06d}"
    if rule == "month_only" and branch in ("label", "number"):
        return f"{own.randint(1, 12):02d}" if kind == "pad" else str(own.randint(1, 12))
    if rule == "month" and branch in ("label", "number"):
        return (_BASE_DAY + timedelta(days=own.randrange(730))).strftime("%Y%m")
    if rule == "birth" and branch in ("label", "number"):
        return f"{own.randint(1950, 2000)}{own.randint(1, 12):02d}"
    if rule == "region" and branch in ("label", "number", "code"):
        d = place() if place is not None else own.choice(world.districts())  # one place per record
        if kind == "stem":
            return _stem(d.name.split()[-1])
        if kind == "sido_short":
            return world.sido_short(d.sido.sido_cd) or d.sido.name
        return d.sido.name if kind == "sido" else d.name if kind == "district" else d.full_name
    if rule == "day" and branch == "label":  # OpenDART's reports write "2024년 05월 17일" (as gen/opendart.py)
        day = _BASE_DAY + timedelta(days=own.randrange(730))
        return day.strftime("%Y년 %m월 %d일") if ep is not None and "opendart" in ep.host else day.strftime("%Y%m%d")
    if rule == "date" and branch == "number":
        return int((_BASE_DAY + timedelta(days=own.randrange(730))).strftime("%Y%m%d"))
    if rule == "measure" and (branch in ("label", "number", "won")):  # "won": 10^8-10^13 whatever it was
        v = measure_value(kind, own, comma=f.type == "string" and ep is not None and "opendart" in ep.host,
                          scale=measure_scale(f.description))
        if kind == "sun_altitude" and (hour := re.match(r"(\d+)시", f.description)):
            v = sun_altitude(int(hour.group(1)), own)  # "9시 고도": the sun's height at that hour
        if f.type == "integer":
            if kind == "concentration":  # a whole-number concentration: µg/m³, not ppm
                v = measure_value("dust", own)
            return round(float(v.replace(",", "")))
        return float(v.replace(",", "")) if f.type == "number" else v
    return None


def _record_place(world: World, picks: dict[str, dict[str, Any]], seed: str) -> Callable[..., Any]:
    """Edition 9: the one district a record's region names (시도, 시군구, 지역) come from — the
    record's region entity's where it has one (``sido_nm``, ``lawd_cd``), else the district or
    province of its bus city (TAGO ``cityname`` "보은군"), else one drawn for the record — so no
    row says 대구광역시 and 화천군, or 경기도 and 보은군, at once."""
    chosen: list[Any] = []
    others: dict[str, Any] = {}

    def place(key: str = "") -> Any:
        if key:  # another place of the record ("출발시도명" and "출발시군구명" name one, "도착…" another)
            if key not in others:
                others[key] = random.Random(f"place|{seed}|{key}").choice(world.districts())
            return others[key]
        if not chosen:
            own = random.Random(f"place|{seed}")
            lawd = (picks.get("region") or {}).get("lawd_cd", "")
            d = world.district(lawd) if lawd else None
            city = str((picks.get("station") or {}).get("cityname", "")).split("/")[0]  # "원주시/횡성군"
            if d is None and city:
                named = [x for x in world.districts() if x.name.split(" ")[0] == city or x.sido.name == city]
                d = own.choice(named) if named else None
            chosen.append(d or own.choice(world.districts()))
        return chosen[0]
    return place


#: data.go.kr's ``cond[FIELD::OP]`` filters: the field they test, and how.
_COND_RE = re.compile(r"cond\[(\w+)::(EQ|LIKE)\]")


def served_fields(world: World, ep: Endpoint) -> list[FieldSpec]:
    """The fields of ``ep`` the world's edition serves: option ``late_fields``
    (``{field: edition}``) names fields a later edition added (the versions recorded from
    earlier editions hold the records without them), option ``dropped_fields``
    (``{field: edition}``) fields served only before that edition (an assumed field the
    measured answer lacks: the versions recorded from earlier editions hold it)."""
    late: dict[str, int] = ep.opt("late_fields") or {}
    dropped: dict[str, int] = ep.opt("dropped_fields") or {}
    fields = list(ep.fields)
    early: list[str] | None = ep.opt("early_fields")
    if early is not None and world.edition < FIELDS_EDITION:
        # the fields (and order) kopa@v0005 was recorded with; later ones came with edition 5
        by_name = {f.name: f for f in fields}
        fields = [by_name[n] for n in early if n in by_name]
    elif world.edition >= FIELDS_EDITION:
        retired = set(ep.opt("retired_fields") or ())
        fields = [f for f in fields if f.name not in retired]
    return [f for f in fields if late.get(f.name, 0) <= world.edition < dropped.get(f.name, world.edition + 1)]


def _filter_fields(fields: list[FieldSpec], filters: dict[str, str], loose: bool = False) -> dict[str, tuple[str, str]]:
    """Field name → (op, value) for the filters that name one of ``fields`` (``loose``, from
    edition 7: also a field spelled the same but for case and underscores, as KMA's
    ``base_date`` → ``baseDate``)."""
    names = {f.name for f in fields}
    folded = {f.name.lower().replace("_", ""): f.name for f in fields} if loose else {}
    out: dict[str, tuple[str, str]] = {}
    for param, value in filters.items():
        m = _COND_RE.fullmatch(param)
        if m is not None and m.group(1) in names:
            out[m.group(1)] = ("equals" if m.group(2) == "EQ" else "contains", value)
        elif param in names:
            out[param] = ("equals", value)
        elif (name := folded.get(param.lower().replace("_", ""))) is not None and name not in filters:
            out[name] = ("equals", value)
    return out


#: The edition from which a generated endpoint of :data:`JOINED` answers from the world's own
#: entities instead of synthesised records (``kopa@v0007``).
JOINED_EDITION = 6


def _corp_outline(world: World, ep: Endpoint, filters: dict[str, str], rng: random.Random) -> list[dict[str, Any]]:
    """FSC getCorpOutline_V2 from edition 6: the outline rows of the world's companies
    (``corp_outlines``), selected by ``corpNm`` (the whole name) and ``crno``; ``fssCorpUnqNo``
    is the company's OpenDART ``corp_code``. Declared fields the outline lacks are drawn."""
    rows = world.corp_outlines_by_name(filters["corpNm"]) if filters.get("corpNm") else world.corp_outlines()
    if filters.get("crno"):
        rows = [r for r in rows if r["crno"] == filters["crno"]]
    fields = served_fields(world, ep)
    names = {f.name for f in fields}
    order = [n for n in (rows[0] if rows else {}) if n in names]
    rest = [f for f in fields if f.name not in set(order)]
    by_name = {f.name: f for f in fields}
    return [{**{n: _typed(r[n], by_name[n].type) for n in order},
             **{f.name: _typed(_value(f, i, rng, world, ep), f.type) for f in rest}} for i, r in enumerate(rows)]


#: IFRS taxonomy element ids (and DART's own for operating income) of the world's accounts.
_ACCOUNT_IDS = {"유동자산": "ifrs-full_CurrentAssets", "비유동자산": "ifrs-full_NoncurrentAssets",
                "자산총계": "ifrs-full_Assets", "유동부채": "ifrs-full_CurrentLiabilities",
                "비유동부채": "ifrs-full_NoncurrentLiabilities", "부채총계": "ifrs-full_Liabilities",
                "자본금": "ifrs-full_IssuedCapital", "이익잉여금": "ifrs-full_RetainedEarnings",
                "자본총계": "ifrs-full_Equity", "매출액": "ifrs-full_Revenue", "영업이익": "dart_OperatingIncomeLoss",
                "법인세차감전 순이익": "ifrs-full_ProfitLossBeforeTax", "당기순이익(손실)": "ifrs-full_ProfitLoss"}


def _statement_rows(world: World, ep: Endpoint, filters: dict[str, str], plain: bool) -> list[dict[str, Any]]:
    """Edition 7: OpenDART's statement tools answer the world's own statements (``accounts``,
    what ``fnlttSinglAcnt`` serves): each company of ``corp_code`` (a comma list for
    ``fnlttMultiAcnt``), the year and report asked, ``fs_div`` when given; ``plain`` amounts
    in whole won without commas (``fnlttSinglAcntAll``), else as ``fnlttSinglAcnt`` writes them."""
    year = filters.get("bsns_year", "")
    if not year.isdigit():
        return []
    names = [f.name for f in served_fields(world, ep)]
    out: list[dict[str, Any]] = []
    for corp in filters.get("corp_code", "").split(","):
        for r in world.accounts(corp.strip(), int(year), filters.get("reprt_code", "")):
            if filters.get("fs_div") and r["fs_div"] != filters["fs_div"]:
                continue
            row = {**r, "account_id": _ACCOUNT_IDS.get(r["account_nm"], "-"), "account_detail": "-"}
            for k in [k for k in row if k.endswith("_amount")]:
                row[k] = row[k].replace(",", "") if plain else row[k]
            out.append({n: row.get(n, "") for n in names})
    return out


#: Generated endpoints that answer from the world's entities from :data:`JOINED_EDITION` on.
JOINED: dict[str, Callable[[World, Endpoint, dict[str, str], random.Random], list[dict[str, Any]]]] = {
    "fsc_corp_outline_v2": _corp_outline,
}
#: … and from edition 7 (the statements a client reads amounts from).
JOINED_7: dict[str, Callable[[World, Endpoint, dict[str, str], random.Random], list[dict[str, Any]]]] = {
    "dart_fnltt_singl_acnt_all": lambda w, ep, f, rng: _statement_rows(w, ep, f, plain=True),
    "dart_fnltt_multi_acnt": lambda w, ep, f, rng: _statement_rows(w, ep, f, plain=False),
}


def _kma_rows(make: Callable[..., list[dict[str, Any]]]) -> Callable[[World, Endpoint, dict[str, str], random.Random], list[dict[str, Any]]]:
    """A KMA announcement's rows for the request's ``base_date``, ``base_time``, ``nx``, ``ny``."""
    def rows(world: World, ep: Endpoint, f: dict[str, str], rng: random.Random) -> list[dict[str, Any]]:
        nx, ny = f.get("nx", ""), f.get("ny", "")  # integers in the answer (0 for what is none)
        return make(rng, f.get("base_date", ""), f.get("base_time", ""), int(nx) if nx.isdigit() else 0,
                    int(ny) if ny.isdigit() else 0)
    return rows


def _indices(world: World, ep: Endpoint, f: dict[str, str], rng: random.Random) -> list[dict[str, Any]]:
    """OpenDART's financial indices of the companies of ``corp_code`` (a comma list for
    ``fnlttCmpnyIndx``) for the year, report and index class asked (``dart_indx.py``)."""
    companies = [c for code in f.get("corp_code", "").split(",") if (c := world.company(code.strip())) is not None]
    year, reprt = f.get("bsns_year", ""), f.get("reprt_code", "")
    return index_rows(lambda corp, name: world.rng("dart_indx", corp, year, reprt, name),
                      lambda corp: world.accounts(corp, int(year), reprt) if year.isdigit() else [],
                      companies, year, reprt, f.get("idx_cl_code", ""), [x.name for x in served_fields(world, ep)])


def _station(world: World, ep: Endpoint, f: dict[str, str], rng: random.Random) -> list[dict[str, Any]] | None:
    """AirKorea's hourly measurements of one station (``datagokr_misc.airkorea_station_rows``),
    with the fields of the ``ver`` asked."""
    if not f.get("stationName", "").strip():
        return None  # no station named: the generic rows, as before
    names = [x.name for x in served_fields(world, ep) if AIRKOREA_FIELD_VER.get(x.name, 0.0) <= version_of(f.get("ver", ""))]
    return [{n: r.get(n, "") for n in names}
            for r in (as_version(world, row, f.get("ver", "")) for row in airkorea_station_rows(world, f))]


#: … and from a later edition: (the edition, the rows). KMA rows whose value fits the category
#: (:data:`~.kma_values.KMA_CATEGORY_EDITION`), OpenDART's indices as the request and the
#: published index lists say (:data:`~.dart_indx.INDX_EDITION`).
JOINED_LATER: dict[str, tuple[int, Callable[[World, Endpoint, dict[str, str], random.Random], list[dict[str, Any]] | None]]] = {
    "kma_ultra_srt_ncst": (KMA_CATEGORY_EDITION, _kma_rows(ultra_ncst_rows)),
    "kma_ultra_srt_fcst": (KMA_CATEGORY_EDITION, _kma_rows(ultra_fcst_rows)),
    "dart_fnltt_singl_indx": (INDX_EDITION, _indices),
    "dart_fnltt_cmpny_indx": (INDX_EDITION, _indices),
    "airkorea_msrstn_accto_rltm_mesure_dnsty": (AIRKOREA_VER_EDITION, _station),
}


def _real_tokens(world: World) -> tuple[frozenset[str], tuple[str, ...]]:
    """(identity values of the pool's real companies — codes, ISINs, names —, their names)."""
    def build() -> tuple[frozenset[str], tuple[str, ...]]:
        real = [world.company(cc) for cc in sorted(world.real_company_codes())]
        names = tuple(sorted({c[k].upper() for c in real if c for k in ("corp_name", "stock_name") if c[k]}))
        tokens = {c[k].upper() for c in real if c for k in ("corp_code", "stock_code", "isin", "corp_name",
                                                             "corp_name_eng", "stock_name") if c[k].strip()}
        tokens |= {"A" + c["stock_code"] for c in real if c}
        return frozenset(tokens), names
    return world.cached(("real_tokens",), build)


def names_real_company(world: World, ep: Endpoint, filters: dict[str, str]) -> bool:
    """From edition 7: whether a request asks about a real company of the pool (a filter equal to
    one's code, ISIN or name, or a name filter containing its name) or about a company code no
    invented company has, which the world holds no value for: such a collection is empty (the
    platform's no-data answer)."""
    if world.edition < REAL_COMPANIES_EDITION or not filters:
        return False
    tokens, names = _real_tokens(world)
    known = _invented_codes(world)
    for param, value in filters.items():
        v = value.strip().upper()
        if v in tokens:
            return True
        lo = param.lower()
        if ("nm" in lo or "name" in lo) and len(v) >= 2 and any(n in v for n in names):
            return True
        if lo in _COMPANY_CODES and v and any(x.strip().removeprefix("A") not in known for x in v.split(",")):
            return True  # a code no invented company has: perhaps a real company's (crno 1301110006246)
    return False


#: Filters naming a person (an Assembly member's name): from edition 7 they select the records of
#: that name the unfiltered collection holds, never echo a name into invented records (a real
#: person's name would carry invented facts).
_PERSON_RE = re.compile(r"성명|이름|의원명|대표자명|후보자명")


def _person_filters(ep: Endpoint, filters: dict[str, str]) -> dict[str, str]:
    out = {}
    for name, value in filters.items():
        p = ep.param(name)
        if p is not None and not p.required and _PERSON_RE.search(p.description or "") and value.strip():
            out[name] = value
    return out


#: Params that name one company by code: from edition 7 a value no invented company has selects nothing.
_COMPANY_CODES = frozenset(("corp_code", "crno", "srtncd", "isincd", "jurir_no", "bizr_no"))


def _invented_codes(world: World) -> frozenset[str]:
    def build() -> frozenset[str]:
        return frozenset(c[k] for c in world.invented_companies()
                         for k in ("corp_code", "crno", "stock_code", "isin", "jurir_no", "bizr_no") if c[k].strip())
    return world.cached(("invented_codes",), build)


def synth_records(world: World, ep: Endpoint, filters: dict[str, str]) -> list[dict[str, Any]]:
    """The records of one collection of a generated endpoint (see the module docstring)."""
    if names_real_company(world, ep, filters):
        return []
    if ep.id in JOINED_LATER and world.edition >= JOINED_LATER[ep.id][0]:
        rng = world.rng("synth", ep.id, *(f"{k}={v}" for k, v in sorted(filters.items())))
        joined = JOINED_LATER[ep.id][1](world, ep, filters, rng)
        if joined is not None:  # None: the request is the generic rows' (below)
            return joined
    if world.edition >= REAL_COMPANIES_EDITION and (people := _person_filters(ep, filters)):
        rest = {k: v for k, v in filters.items() if k not in people}
        return [r for r in synth_records(world, ep, rest) if all(str(r.get(k, "")) == v for k, v in people.items())]
    rng = world.rng("synth", ep.id, *(f"{k}={v}" for k, v in sorted(filters.items())))
    if world.edition >= JOINED_EDITION and ep.id in JOINED:
        return JOINED[ep.id](world, ep, filters, rng)
    if world.edition >= REAL_COMPANIES_EDITION and ep.id in JOINED_7:
        return JOINED_7[ep.id](world, ep, filters, rng)
    n = 1 if ep.kind == "object" else 1 + rng.randrange(MAX_RECORDS)
    fields = served_fields(world, ep)
    echo = _filter_fields(fields, filters, loose=world.edition >= REAL_COMPANIES_EDITION)
    lower = {f.name: f.name.lower() for f in fields}
    used = {ENTITY_FIELDS[lo] for lo in lower.values() if lo in ENTITY_FIELDS}
    fixed: dict[str, dict[str, Any]] = {}
    for fname, (op, value) in echo.items():
        lookup = _LOOKUPS.get(lower.get(fname, ""))
        if op == "equals" and lookup is not None and (hit := lookup(world, value)) is not None:
            fixed[ENTITY_FIELDS[lower[fname]]] = {k.lower(): v for k, v in hit.items()}
    records = []
    key9 = "|".join(f"{k}={v}" for k, v in sorted(filters.items()))
    for i in range(n):
        picks = {e: fixed.get(e) or ENTITIES[e](world, rng) for e in sorted(used)}
        place = _record_place(world, picks, f"{world.seed}|{ep.id}|{key9}|{i}")
        rec: dict[str, Any] = {}
        for f in fields:
            lo = lower[f.name]
            if f.name in echo:
                op, value = echo[f.name]
                v: Any = value if op == "equals" else f"{value} {i + 1}"
            elif lo in ENTITY_FIELDS:
                v = picks[ENTITY_FIELDS[lo]].get(lo, "")
            else:
                v = _value(f, i, rng, world, ep, place)
            rec[f.name] = _typed(v, f.type)
        records.append(rec)
    if world.edition >= MEASURES_EDITION:  # a statistics table's columns and totals (measures.table_record)
        spec = [(f.name, f.description, f.type) for f in fields]
        keep = frozenset(echo) | frozenset(f.name for f in fields if lower[f.name] in ENTITY_FIELDS)
        key = "|".join(f"{k}={v}" for k, v in sorted(filters.items()))
        records = [table_record(spec, r, i, f"{world.seed}|{ep.id}|{key}|{i}", keep) for i, r in enumerate(records)]
        # "type" 수신 문서양식: the endpoint's default format, the same in a JSON and an XML answer
        # (a recording renders one record set in both formats, so a row cannot echo the one asked)
        if fmts := format_fields(ep):
            default = str(ep.opt("default_format", "xml"))
            records = [{**r, **{n: default for n in fmts if n in r and n not in echo}} for r in records]
        records = [_admin_units(world, spec, r) for r in records]
    if world.edition >= PUBLISHED_TYPES_EDITION and (numeric := published_numbers(ep)):
        key = "|".join(f"{k}={v}" for k, v in sorted(filters.items()))
        records = [_as_published(r, numeric, echo, f"{world.seed}|{ep.id}|{key}|{i}") for i, r in enumerate(records)]
    if world.edition >= DART_DATES_EDITION and "opendart" in ep.host:  # dates after the receipt (gen/dart_dates.py)
        key = "|".join(f"{k}={v}" for k, v in sorted(filters.items()))
        records = [dart_dates(ep, r, f"{world.seed}|{ep.id}|{key}|{i}") for i, r in enumerate(records)]
    if world.edition >= NAMES_EDITION and (area := _asked_area(world, ep, filters)) is not None:
        names = [f.name for f in fields if f.name not in echo and not f.description and _PLACE_NAME.fullmatch(f.name)]
        records = [{**r, **{n: area for n in names if n in r}} for r in records]
    if world.edition >= KMA_STATIONS_EDITION and ep.id.startswith("kma_") and "buoy" not in ep.id:
        key = "|".join(f"{k}={v}" for k, v in sorted(filters.items()))
        records = [_kma_station(ep, r, echo, f"{world.seed}|{ep.id}|{key}|{i}", filters) for i, r in enumerate(records)]
    if world.edition >= RTMS_REQUEST_EDITION and is_rtms(ep):  # the district and month asked (gen/rtms.py)
        return rtms_records(world, ep, filters, records)
    if world.edition >= MEASURES_EDITION and ep.path.startswith("/9760000/"):
        records = _national_electors(world, ep, records)
    if world.edition >= DATED_ADDRESSES_EDITION and ep.path.startswith("/9760000/"):
        return _nec_places(world, ep, filters, records)
    return records


def _national_electors(world: World, ep: Endpoint, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Edition 9: foreign residents vote in local elections only, so an NEC elector table's 외국인
    선거인 counts are 0 for a presidential or National Assembly election (sgTypecode 1, 2, 7)."""
    labels = {f.name: f.description or "" for f in ep.fields}
    if not any("선거인" in lb for lb in labels.values()):
        return records
    foreign = [n for n, lb in labels.items() if "외국인" in lb and "인구" not in lb]
    if not foreign:
        return records
    kinds: dict[str, set[str]] = {}
    for e in world.elections():
        if e["sgTypecode"] != "0":
            kinds.setdefault(e["sgId"], set()).add(e["sgTypecode"])
    out = []
    for r in records:
        if kinds.get(str(r.get("sgId", "")), {"x"}) <= {"1", "2", "7"}:
            r = {**r, **{n: (0 if isinstance(r[n], int) else "0") for n in foreign if n in r}}
        out.append(r)
    return out


#: The edition from which a count or an amount the catalog types as a string (the type an early
#: field list gave it) is served as a JSON number where its published field list (the facts
#: ``fields_edition7/8/9``) types it integer or number.
PUBLISHED_TYPES_EDITION = 9
#: Measure kinds a published number type is taken for (a code the list calls integer stays as the
#: catalog has it: ``stnId`` 지점코드, ``fcTp`` 통보종류, ``announceTime``).
_NUMERIC_KINDS = frozenset({"count", "total", "population", "money", "company_money", "area", "altitude_km", "shares", "fee",
                            "seats", "days", "length", "distance"})


@cache
def _published_types() -> dict[str, dict[str, tuple[str, str]]]:
    from ...catalog.generate.extract import read_facts

    out: dict[str, dict[str, tuple[str, str]]] = {}
    for name in ("fields_edition7", "fields_edition8", "fields_edition9"):
        for op in read_facts(name)["operations"]:
            if "url" in op:
                for row in op["fields"]:
                    out.setdefault(op["url"], {}).setdefault(row[0], (row[1], row[2]))
    return out


def published_numbers(ep: Endpoint) -> dict[str, tuple[str, int, str]]:
    """Edition 9: the string fields of a generated data.go.kr endpoint that hold a count or an
    amount its published field list types as a number: name → (``"integer"`` or ``"number"``,
    the published unit's scale: ``대상인구(천명)`` counts thousands, the measure kind)."""
    if ep.host != "apis.data.go.kr":
        return {}
    pub = _published_types().get(f"https://{ep.host}{ep.path}", {})
    out = {}
    for f in ep.fields:
        if f.type == "string" and f.name in pub and pub[f.name][0] in ("integer", "number"):
            label = pub[f.name][1]
            kind = measure_kind(f.name, f.description) or measure_kind(f.name, label)
            if kind in _NUMERIC_KINDS:
                scale = measure_scale(label) if measure_scale(f.description) == 1 else 1
                out[f.name] = (pub[f.name][0], scale, kind)
    return out


def _as_published(rec: dict[str, Any], numeric: dict[str, tuple[str, int, str]], echo: dict[str, Any],
                  seed: str) -> dict[str, Any]:
    """A record with ``numeric``'s fields as JSON numbers (a ``"<label> n"`` placeholder, which
    no rule read under the catalog's label, drawn as a number of its published kind)."""
    out = dict(rec)
    for name, (ftype, scale, kind) in numeric.items():
        v = out.get(name)
        if name in echo or not isinstance(v, str):
            continue
        if not re.fullmatch(r"-?[\d,]+(\.\d+)?", v.strip()):
            v = measure_value(kind, random.Random(f"published|{seed}|{name}"))
            scale = 1
        x = float(v.replace(",", "")) / scale
        out[name] = (max(1, round(x)) if scale > 1 else round(x)) if ftype == "integer" else round(x, 2)
    return out


#: The edition from which a generated KMA record's station id is a three-digit ASOS station
#: number (108 서울) with its name, not six digits (buoys keep theirs).
KMA_STATIONS_EDITION = 9
#: ASOS stations (number, name): KMA's published station numbers, a few of each region.
_ASOS = ((101, "춘천"), (105, "강릉"), (108, "서울"), (112, "인천"), (114, "원주"), (119, "수원"), (127, "충주"),
         (131, "청주"), (133, "대전"), (136, "안동"), (138, "포항"), (143, "대구"), (146, "전주"), (152, "울산"),
         (155, "창원"), (156, "광주"), (159, "부산"), (165, "목포"), (168, "여수"), (184, "제주"), (189, "서귀포"),
         (192, "진주"))
_STN_ID = re.compile(r"(?i)^stn_?id$|^stn_?no$")
_STN_NAME = re.compile(r"(?i)^(stn_?nm|stn_?ko|stnko|stn_?name|locname)$")


def _kma_station(ep: Endpoint, rec: dict[str, Any], echo: dict[str, Any], seed: str,
                 filters: dict[str, str]) -> dict[str, Any]:
    """Edition 9: a KMA record's station (``stnId`` 지점번호 …, six random digits before) is the one
    the request names (``stnIds=108``), else one of :data:`_ASOS`; its name fields (``stnNm``,
    ``stn_ko``, 지점명) are that station's."""
    labels = {f.name: f.description or "" for f in ep.fields}
    ids = [n for n in rec if _STN_ID.fullmatch(n) and n not in echo and "결과" not in labels.get(n, "")]
    if not ids:
        return rec
    number, name = random.Random(f"kma_station|{seed}").choice(_ASOS)
    asked = next((v.strip() for k, v in filters.items() if re.fullmatch(r"(?i)stn_?ids?|stn", k) and v.strip().isdigit()), "")
    if asked:
        number, name = int(asked), dict(_ASOS).get(int(asked), "")
    out = dict(rec)
    for n in ids:
        out[n] = number if isinstance(rec[n], int) else str(number)
    for n in rec:
        if name and n not in echo and (_STN_NAME.fullmatch(n) or re.fullmatch(r"지점명(\(국문\))?|관측지점명", labels.get(n, ""))):
            out[n] = name
    return out


#: A count column named after a kind of administrative unit ("특별시", "광역시(개)", "군(개)").
_UNIT_LABEL = re.compile(r"(특별시|광역시|특별자치시|도|특별자치도|시|군|자치구|구)(\((개|개소)\))?")
_UNIT_YEAR = re.compile(r"기준 ?(년도|연도)|^(년도|연도)$")


def _admin_unit_counts(world: World, year: int) -> dict[str, int]:
    """How many 특별시, 광역시, …, 시, 군 and 자치구 the world's region table has at the end of
    ``year`` (강원 and 전북 were 도 before they became 특별자치도: ``_SIDO_RENAMED``)."""
    def build() -> dict[str, int]:
        out = dict.fromkeys(("특별시", "광역시", "특별자치시", "도", "특별자치도", "시", "군", "자치구"), 0)
        for sido in {d.sido.name: d.sido.sido_cd for d in world.districts()}.items():
            name, code = sido
            renamed = _SIDO_RENAMED.get(code)
            if renamed and f"{year}1231" < renamed[1]:
                name = renamed[0]
            out[next(k for k in ("특별자치시", "특별자치도", "특별시", "광역시", "도") if name.endswith(k))] += 1
        cities: set[str] = set()
        for d in world.districts():
            first = d.name.split(" ")[0]
            if d.sido.name.endswith(("특별시", "광역시")):
                out["자치구" if first.endswith("구") else "군"] += " " not in d.name
            elif first.endswith("군"):
                out["군"] += 1
            elif first.endswith("시") and d.sido.sido_cd not in ("36", "50"):
                cities.add(first)  # 세종 is no 시 of a 도; 제주·서귀포 are 행정시
        out["시"] = len({c for c in cities if c.endswith("시")})
        return out
    return world.cached(("admin_unit_counts", year), build)


def _admin_units(world: World, spec: list[tuple[str, str, str]], rec: dict[str, Any]) -> dict[str, Any]:
    """Edition 9: a record of counts by kind of administrative unit (MOIS 행정구역 현황: 특별시,
    광역시(개), 도(개), 시(개), 군(개) …) counts the world's units as of its 기준년도 (edition 9's
    first draw said 979 특별시 and 2,648 광역시)."""
    units = [(n, m.group(1), t) for n, lb, t in spec if (m := _UNIT_LABEL.fullmatch(lb.strip()))]
    if len(units) < 3:
        return rec
    year = next((int(str(rec[n])[:4]) for n, lb, _t in spec
                 if _UNIT_YEAR.search(lb) and str(rec.get(n, ""))[:4].isdigit()), TODAY.year)
    counts = _admin_unit_counts(world, year)
    out = dict(rec)
    for n, unit, t in units:
        value = counts["자치구" if unit == "구" else unit]
        out[n] = value if t in ("integer", "number") else str(value)
    return out


#: A record field's label that says it holds the answer's document format (``수신 문서양식``).
_FORMAT_LABEL = re.compile(r"문서양식|문서형식|응답형식|자료형식|데이터타입|파일형식|호출문서")


def format_fields(ep: Endpoint) -> tuple[str, ...]:
    """Edition 9: the record fields of ``ep`` that echo its format parameter (a field named as
    the request's ``role: format`` parameter, or labelled as a document format): they hold the
    format the answer is written in ("json", "xml"), not ``"수신 문서양식 1"``."""
    params = {p.name for p in ep.params if p.role == "format"}
    return tuple(f.name for f in ep.fields if f.type == "string" and f.name in params
                 and (not f.description or _FORMAT_LABEL.search(f.description) or f.name.lower() in ("type", "datatype")))


#: The NEC fields that name where something lies, set from the election's places (edition 9).
_NEC_PLACE_FIELDS = frozenset({"sdName", "wiwName", "emdName", "addr", "placeAddr"})


def _nec_places(world: World, ep: Endpoint, filters: dict[str, str], records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Edition 9 (``DATED_ADDRESSES_EDITION``): a generated NEC record's place fields name one of
    its election's places as of the vote date, within the 시도 (``sdName``) and 구시군
    (``wiwName``) the request names; a request naming a place the election did not have answers
    no records. Each record's place is drawn from its own generator, so every other value stays
    edition 8's."""
    names = {f.name for f in ep.fields}
    if "sgId" not in names or not names & _NEC_PLACE_FIELDS:
        return records
    held = {e["sgId"] for e in world.elections()}
    key = "|".join(f"{k}={v}" for k, v in sorted(filters.items()))
    out = []
    for i, rec in enumerate(records):
        sg = str(rec.get("sgId", ""))
        if sg not in held:
            out.append(rec)
            continue
        places = [p for p in world.election_places(sg)
                  if filters.get("sdName", p.sd_name) == p.sd_name
                  and filters.get("wiwName", p.name).replace(" ", "") == p.name.replace(" ", "")]
        if not places:
            return []
        own = random.Random(f"nec_place|{ep.id}|{key}|{i}")
        place = own.choice(places)
        d = world.district(own.choice(place.lawd_cds))
        assert d is not None
        dong = own.choice(d.dongs) if d.dongs else None
        road = f" {_stem(dong.leaf)}로" if dong else ""
        rec = dict(rec)
        for name, value in (("sdName", place.sd_name), ("wiwName", place.name.replace(" ", "")),
                            ("emdName", dong.leaf if dong else ""),
                            ("addr", f"{world.dated_address(d, sg)}{road} {own.randint(1, 300)}"),
                            ("placeAddr", f"{world.dated_address(d, sg)}{road} {own.randint(1, 300)}")):
            if name in rec and name not in filters:
                rec[name] = value
        out.append(rec)
    return out


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
