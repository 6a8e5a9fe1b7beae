"""Measure fields of generated endpoints: which string fields hold a number, and of what unit.

A generated endpoint's field that the published sources declare as a string but whose name,
Korean label or unit says it holds a quantity (``dayAvgTa`` 평균 기온, ``tot`` 합계, ``stkqy``
보유주식수 (주), ``grntymnyRate`` 보증금률, ``hm`` 습도(%)) answers, from world edition 9
(``MEASURES_EDITION``), a number string of a plausible range and format for its unit, as the
real APIs send them: temperatures with one decimal ("-3.2" … "31.5"), counts and amounts whole
("1,199,285,813" with OpenDART's thousands separators, plain digits elsewhere), rates with two
decimals. Names, codes, dates, flags and free text keep their shapes (:func:`measure_kind` says
``None`` for them). Earlier editions filled such a field with its label and a row number
("평균 기온 1"), which no client parses as a number.

The rule reads the catalog's field semantics only (name, label, declared unit), never a list of
endpoints: :func:`measure_kind` is the whole of it.
"""

from __future__ import annotations

import random
import re

__all__ = ["MEASURES_EDITION", "measure_kind", "measure_scale", "measure_value", "sun_altitude", "table_record"]

#: The edition from which a generated measure field holds a number of its unit.
MEASURES_EDITION = 9

#: Field names that are never a measure, whatever their label says: names, codes, ids, flags,
#: addresses, links, free text (the ending of the name, case-insensitive).
_NEVER_BY_NAME = re.compile(
    r"(?i)(nm|name|names|cd|code|codes|id|ids|no|yn|flag|addr|adres|adr|url|link|tel|telno|fax|email|mail|"
    r"cn|ctt|cont|content|contents|txt|text|sj|title|ttl|rmk|memo|desc|expln|img|file|filenm|path)$")
#: Endings of a name that, without a Korean label naming a quantity, say date, time, position,
#: order or kind ("wsDay" 연평균풍속 is a measure all the same).
_NOT_BY_NAME = re.compile(
    r"(?i)(dt|de|ymd|date|dttm|day|time|tm|yy|ym|year|yr|rm|rem|dc|etc|se|gbn|gubun|div|kind|type|typ|stts|"
    r"sttus|status|lat|lot|lng|lon|la|lo|xcrd|ycrd|xpos|ypos|seq|sn|ord|order|grd|grade|lvl|level)$")
#: A unit a label names in parentheses (OpenDART writes "발행주식총수 (주)", "비율(%)").
_UNITS: tuple[tuple[str, str], ...] = (
    (r"\(%\)|\(％\)|%\)", "rate"),
    (r"\(원\)|\(백만원\)|\(천원\)|\(억원\)|\(만원\)|\(달러\)|\(USD\)", "money"),
    (r"\(주\)", "shares"),
    (r"\(건\)|\(명\)|\(개\)|\(회\)|\(세대\)|\(호\)|\(개소\)|\(가구\)|\(대\)|\(세트\)|\(척\)", "count"),
    (r"\(㎡\)|\(m2\)|\(m²\)|\(ha\)|\(㎢\)", "area"),
    (r"\(℃\)|\(°C\)", "temperature"),
    (r"\(mm\)|\(cm\)", "precipitation"),
    (r"\(km\)", "distance"),
    (r"\(m\)", "length"),
    (r"\(일\)", "days"),
)
#: Labels (without their parenthesised parts) that say the field is a name, code, date or text.
_NOT_BY_LABEL = re.compile(
    r"(명$|명칭|이름|성명|코드|번호|주소|소재지|내용|비고|구분|유형|종류|여부|일자|날짜|기간|일정|방법|사유|목적|제목|설명|"
    r"상태|위치|시작일|종료일|예정일|일$|일시|연월|년월|시각|등급|의견|결과|첨부|파일|링크|이미지|정보|현황$|사항$|분류|대상|"
    r"기관|회사|주관|업종|업태|품목|품명|차종|국가|국적|시도$|시군구$|읍면동$|요일|단위|방식|형태|영문|한글|약어|법률$|법령$|"
    r"물질|대표자|관계|조건|근거|요지|범위|방침|조치|기능|명세|연령대|나타난|날$|업자|지급)")
#: Label endings that name a quantity whatever comes before ("…구분구성비율" is a rate).
_MEASURE_END = re.compile(r"(비율|지분율|구성비|(?<!법)률|율|금액|총액|합계|소계|총계|(^|\s)계|평균기온|기온|강수량|인구|선행일|일수|오차 ?범위)$")
#: Measure words of a label, in order (the first that matches wins).
_BY_LABEL: tuple[tuple[str, str], ...] = (
    (r"확률|가능성", "probability"),
    (r"기온|온도|수온|지온", "temperature"),
    (r"습도", "humidity"),
    (r"강수량|강우량|적설|강수", "precipitation"),
    (r"풍향", "direction"),
    (r"풍속", "wind"),
    (r"기압", "pressure"),
    (r"액면가", "par"),
    (r"지하층수|지하층", "basement"),
    (r"층수", "floors"),
    (r"\d+시 고도|태양고도|남중고도|고도각", "sun_altitude"),
    (r"방위각", "azimuth"),
    (r"의석|의원수|^지역구$|^비례대표$|비례대표수", "seats"),
    (r"^대수$|^대$", "term"),
    (r"당선대수|당선횟수|^선수$", "times"),
    (r"(건수|횟수)$", "count"),
    (r"근속 ?연수|연수$", "years"),
    (r"증감률|증감율|증가율|감소율|변동률|등락률|(전일|전년|전월|전기|지수|종가|가격) ?대비", "signed_rate"),
    (r"증감$", "signed_count"),
    (r"인구", "population"),
    (r"선행일", "lead_days"),
    (r"일수|경과일", "days"),
    (r"거리", "distance"),
    (r"해발|표고", "elevation"),
    (r"오차", "error_km"),
    (r"수익률|금리|이율|이자율|배당률|할인율|수익율", "yield"),
    (r"비율|비중|점유율|율|(?<!법)률|퍼센트|대비|%", "rate"),
    (r"전용면적|공급면적|계약면적|대지권면적", "unit_area"),
    (r"면적", "area"),
    (r"연령|나이", "age"),
    (r"(주식|주당).*금액$", "money"),  # "자기주식취득금액" is won, not shares
    (r"주식수|주식총수|주식 총수|주식 수|보유주식|발행주식|자기주식|주식의 수", "shares"),
    (r"(미세먼지|PM|pm|라돈).*농도", "dust"),
    (r"(일산화탄소|CO\b).*농도", "co"),
    (r"농도", "concentration"),
    (r"지수$|지수값|지수종가|지수 종가", "index"),
    (r"종가|시가$|고가$|저가$|기준가|단가|가격|주당", "price"),
    (r"(수리|관리|유지|청소|경비|소독|승강기|난방|급탕|수선)비|사용료|관리수수료", "fee"),
    (r"총자산|자산총계|총부채|부채총계|자본총계|자기자본|자본금|매출액|매출총액", "company_money"),
    ((r"금액|가액|요금|운임|수수료|보증금|임대료|임차료|매출|이익|손실|손익|자산|부채|자본|비용|수익|원가|대금|예산|투자|"
      r"배당금|원금|잔액|차입|상환|급여|연봉|보수|총액|보험금|보상금|지원금|지급액|(공사|사업|인건|운영)비"), "money"),
    (r"건수|횟수|인원|세대수|가구수|대수|개수|학생수|직원수|수량|사상자|부상자|사망자|명수|층수|년수", "count"),
    (r"합계|총계|소계|누계|총합|^계$|\s계$", "total"),
    (r"평균", "average"),
    (r"고도", "altitude_km"),
    (r"연장|길이|높이|깊이|폭$", "length"),
    (r"중량|무게|톤수", "weight"),
    (r"[가-힣](?<![지계점변함교호])수$", "count"),  # "노선수", "정원수": how many (not 지수, 계수, 점수)
)
#: English stems of a field name (case as written: ``Ta`` is a temperature in ``dayAvgTa``, not
#: in ``mgmCptAt``), for fields without a Korean label that names a quantity.
_BY_NAME: tuple[tuple[str, str], ...] = (
    (r"^[Tt][Aa](_|$|[A-Z0-9])|[a-z]Ta([A-Z0-9]|$)|_ta(_|$)|[Tt]emp|^ta(avg|max|min|mn|mx)$", "temperature"),
    (r"^(hm|reh|rhm)(_|$|[A-Z0-9])|[a-z]R?[Hh]m([A-Z0-9]|$)|[Hh]umid", "humidity"),
    (r"^rn(_|$|[A-Z0-9])|[a-z]Rn([A-Z0-9]|$)|_rn(_|$)|[Rr]ain|[Pp]recip", "precipitation"),
    (r"^wd(_|$|[A-Z0-9])|[a-z]Wd([A-Z0-9]|$)", "direction"),
    (r"^ws(_|$|[A-Z0-9])|[a-z]Ws([A-Z0-9]|$)|_ws(_|$)|[Ww]ind", "wind"),
    (r"(?i)(rate|rto|_rt|ratio|pct|percent)$", "rate"),
    (r"(?i)area$|_ar$|[a-z]Ar$", "area"),
    (r"(?i)popl|population", "population"),
    (r"(?i)stkqy|stk_?cnt|_[oet]stk$|shres?$", "shares"),
    (r"(?i)price|prc$|_pc$|clpr$|hipr$|lopr$|mkp$", "price"),
    (r"(?i)amt|amount|cost|fee$|charge$|npf$|pft$|sales$|revenue|asset|debt", "money"),
    (r"(?i)cnt|count|_qy$|qty$|num$|nmpr$", "count"),
    (r"(?i)(^|_)tot|total|sum$", "total"),
    (r"(?i)(^|_)avg|avg$|mean$", "average"),
    (r"(?i)^error.*km$|^err.*range", "error_km"),
    (r"(?i)^alt.*km$|altitudekm", "altitude_km"),
    (r"(?i)dist$|distance|km$", "distance"),
    (r"(?i)length|height|alt$", "length"),
)
#: How many of ``_BY_LABEL``'s first kinds (weather, par value, floors, and from edition 9's
#: round two the meanings a unit alone misreads: a sun's altitude, seats, a signed change, a
#: population, days, a distance) a label names before any unit it gives ("습도(%)",
#: "1주당 액면가액 (원)", "증감률(%)" signed, "최고인구수(명)" a population, "점검일수(일)").
_WEATHER = 25
_COMPILED_UNITS = tuple((re.compile(p), k) for p, k in _UNITS)
_COMPILED_LABEL = tuple((re.compile(p), k) for p, k in _BY_LABEL)
_COMPILED_NAME = tuple((re.compile(p), k) for p, k in _BY_NAME)


def _outer(label: str) -> str:
    """A label without its parenthesised parts ("감자일정(구주권 제출기간(시작일))" → "감자일정"):
    what the field is, its units and qualifiers aside."""
    while (shorter := re.sub(r"\([^()]*\)", "", label)) != label:
        label = shorter
    return label.strip()


def _inner(label: str) -> str:
    """The innermost parenthesised part of a label ("감자일정(구주권 제출기간(시작일))" → "시작일")."""
    parts = re.findall(r"\(([^()]*)\)", label)
    return parts[-1].strip() if parts else ""


def measure_kind(name: str, label: str) -> str | None:
    """The unit kind of a string field that holds a quantity (``"temperature"``, ``"rate"``,
    ``"money"``, ``"shares"``, ``"count"``, …), or None for a name, code, date or text.

    A name ending that says name, code, id, flag or text rules the field out; then a unit in the
    label's parentheses ("(%)", "(원)", "(주)", "(건)", "(㎡)") rules it in; then a Korean label
    decides: a label that names a date, a name, a kind or a text is not a measure, one that
    names a quantity (기온, 강수량, 비율, 금액, 합계, 평균, 면적, 인구, 건수 …) is, and one that names
    neither is not. Only a field without a Korean label is read off its name's English stems
    (``Ta``, ``Rn``, ``Cnt``, ``Amt``, ``Rate``, ``tot``).
    """
    if _NEVER_BY_NAME.search(name):
        return None
    label = label.strip()
    korean = bool(re.search(r"[가-힣]", label))
    head = _outer(label) or label
    excluded = korean and not _MEASURE_END.search(head) and bool(_NOT_BY_LABEL.search(head))
    if korean and re.search(r"(합계|총계|소계|누계|총합|(^|\s)계)$", head):
        return "total"  # "통행거리합계" totals distances, "대피가능인구 계" people: a sum either way
    if not excluded:
        for rx, kind in _COMPILED_LABEL[:_WEATHER]:  # "습도(%)" is a humidity before it is a rate
            if rx.search(head):
                return kind
    for rx, kind in _COMPILED_UNITS:
        if rx.search(label):
            return kind
    if korean:
        if excluded:
            return None
        for rx, kind in _COMPILED_LABEL:
            if rx.search(head):
                return kind
        inner = _inner(label)
        if inner and not _NOT_BY_LABEL.search(inner):
            for rx, kind in _COMPILED_LABEL:
                if rx.search(label):
                    return kind
        return None  # a Korean label that names no quantity: trust it over the name's letters
    if _NOT_BY_NAME.search(name):
        return None
    for rx, kind in _COMPILED_NAME:
        if rx.search(name):
            return kind
    return None


#: Units that count in thousands, millions …: a label's "(천명)", "(백만원)" divides the number.
_SCALES = (("백만원", 1_000_000), ("억원", 100_000_000), ("천만원", 10_000_000), ("만원", 10_000),
           ("천원", 1_000), ("천명", 1_000), ("천건", 1_000), ("천톤", 1_000), ("천㎡", 1_000))
_SCALED = frozenset({"money", "company_money", "population", "fee", "shares", "total"})


def measure_scale(label: str) -> int:
    """How many of the kind's base unit one unit of the label's counts ("(백만원)" → 1,000,000)."""
    units = re.findall(r"\(([^()]*)\)", label)
    for unit, scale in _SCALES:
        if any(u.strip().replace(" ", "") == unit or u.strip().endswith(":" + unit) for u in units):
            return scale
    return 1


def sun_altitude(hour: int, rng: random.Random) -> str:
    """The sun's altitude in degrees at ``hour`` (local time) somewhere in Korea on some day of
    the year: highest at noon (about 29° in December to 76° in June), below the horizon before
    dawn and after dusk."""
    noon = rng.uniform(29.0, 76.0)
    day = rng.uniform(9.6, 14.8)  # hours of daylight
    x = 1.0 - abs(hour - 12.5) / (day / 2)  # 1 at solar noon, 0 at sunrise and sunset
    return f"{(noon * x if x > 0 else -rng.uniform(0.5, 15.0)):.2f}"


def _grouped(n: int, comma: bool) -> str:
    return f"{n:,}" if comma else str(n)


#: Kinds drawn evenly between two bounds, written with so many decimals: (low, high, digits).
_UNIFORM: dict[str, tuple[float, float, int]] = {
    "temperature": (-3.2, 31.5, 1),
    "pressure": (992.0, 1034.0, 1),
    "co": (0.2, 1.2, 1),
    "age": (24.0, 71.0, 1),
    "wind": (0.2, 11.8, 1),
    "rate": (0.0, 100.0, 2),
    "yield": (0.1, 9.9, 2),  # an interest rate, a yield, a dividend rate: a few percent
    "unit_area": (14.0, 185.0, 2),  # a flat's or an office's 전용면적
    "signed_rate": (-12.0, 12.0, 2),  # a change against the year before: mostly small, either way
    "sun_altitude": (2.0, 76.0, 2),  # degrees above the horizon at an hour of the day
    "azimuth": (0.0, 360.0, 2),
    "years": (0.5, 24.0, 1),
    "distance": (0.1, 12.0, 1),  # km to something nearby (a station, a stop)
    "elevation": (2.0, 1_560.0, 1),  # m above sea level
    "error_km": (0.1, 4.0, 2),
    "altitude_km": (0.5, 14.0, 1),  # a lightning stroke's or a radar slice's height
    "area": (12.0, 4800.0, 2),
    "average": (0.0, 950.0, 1),
    "length": (0.1, 48.0, 1),
    "concentration": (0.002, 0.080, 3),
    "index": (40.0, 180.0, 1),
    "weight": (0.5, 980.0, 1),
}
#: Whole amounts whose magnitudes spread evenly: 10**low to 10**high, grouped like the rest.
_LOG_GROUPED: dict[str, tuple[float, float]] = {
    "shares": (3.0, 8.1),
    "money": (5.0, 10.0),  # magnitudes spread evenly from 10만 to 100억 won
    "company_money": (9.0, 12.3),  # a company's assets, capital or sales: 10억 to 2조 won
    "fee": (4.0, 7.3),  # a month's charge of a building or complex: 1만 to 2천만 won
    "total": (1.0, 4.9),
}


def measure_value(kind: str, rng: random.Random, comma: bool = False, scale: int = 1) -> str:
    """A number string of ``kind``'s plausible range and format; ``comma`` groups whole numbers
    by thousands (OpenDART's reports: "1,199,285,813"); ``scale`` (:func:`measure_scale`) writes
    an amount or a headcount in thousands or millions ("(백만원)": 3,252 for 32억 won)."""
    if scale > 1 and kind in _SCALED:
        raw = float(measure_value(kind, rng).replace(",", ""))
        return _grouped(max(1, round(raw / scale)), comma)
    if kind in _UNIFORM:
        low, high, digits = _UNIFORM[kind]
        return f"{rng.uniform(low, high):.{digits}f}"
    if kind in _LOG_GROUPED:
        low, high = _LOG_GROUPED[kind]
        return _grouped(round(10 ** rng.uniform(low, high)), comma)
    if kind == "humidity":
        return str(rng.randint(18, 98))
    if kind == "precipitation":
        return "0.0" if rng.random() < 0.45 else f"{rng.uniform(0.1, 62.0):.1f}"
    if kind == "dust":
        return str(rng.randint(4, 118))
    if kind == "direction":
        return str(rng.randint(0, 359))
    if kind == "signed_count":
        return _grouped(round(10 ** rng.uniform(0.0, 3.3)) * rng.choice((-1, 1, 1)), comma)
    if kind == "seats":  # an Assembly has 300 seats (fewer before): a party's or a group's share
        return str(round(10 ** rng.uniform(0.0, 2.15)))
    if kind == "term":  # the Assembly's 대 (1st … 22nd)
        return str(rng.randint(1, 22))
    if kind == "probability":  # a forecast's chance, in steps of ten
        return str(rng.randint(0, 10) * 10)
    if kind == "times":  # how often a member was elected
        return str(rng.choice((1, 1, 1, 2, 2, 3, 4, 5)))
    if kind == "lead_days":  # a forecast's days ahead
        return str(rng.randint(0, 3))
    if kind == "days":
        return str(round(10 ** rng.uniform(0.0, 2.5)))
    if kind == "population":
        return _grouped(rng.randint(800, 620_000), comma)
    if kind == "price":
        return _grouped(rng.randint(10, 9_000) * 100, comma)
    if kind == "par":
        return _grouped(rng.choice((100, 200, 500, 500, 1_000, 2_500, 5_000, 5_000)), comma)
    if kind == "floors":
        return str(rng.randint(1, 35))
    if kind == "basement":
        return str(rng.randint(0, 6))
    if kind == "count":  # mostly small, now and then thousands
        return _grouped(round(10 ** rng.uniform(0.0, 3.7)) - 1, comma)
    raise ValueError(f"unknown measure kind {kind!r}")


#: Kinds a total adds up (a rate, an average or a temperature is no part of a sum).
_PART_KINDS = frozenset({"count", "total", "population", "money", "company_money", "fee", "shares", "seats", "area", None})
#: A label's word for a total ("합계", "이용자수 계", "조례 총계", "행정부 소계"), and a name's.
_TOTAL_LABEL = re.compile(r"합계|총계|소계|누계|총합|(^|\s)계$")
_TOTAL_NAME = re.compile(r"(?i)(^|_)(tot|total|smry|sum|subtot|stot)(_|$)")
#: A count unit a sibling's label gives ("광역시(개)", "정원(명)").
_COUNT_UNIT = re.compile(r"\((개|명|건|회|개소|세대|대|가구|호|천명|세트)\)")
#: Labels that name a thing rather than a number of it, for a column beside counts ("구분", "기관").
_NOT_COLUMN = re.compile(_NOT_BY_LABEL.pattern.replace("대상|", ""))
_NUMBER = re.compile(r"-?\d{1,3}(,\d{3})+(\.\d+)?|-?\d+(\.\d+)?")


def _num(v: object) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str) and _NUMBER.fullmatch(v):
        return float(v.replace(",", ""))
    return None


def _unit(label: str) -> str:
    parts = re.findall(r"\(([^()]*)\)", label)
    return parts[-1].strip() if parts else ""


def table_record(fields: list[tuple[str, str, str]], rec: dict[str, object], index: int, seed: str,
                 keep: frozenset[str] = frozenset()) -> dict[str, object]:
    """Edition 9: one record of a statistics table read as a table. ``fields`` are the record's
    (name, label, type); ``keep`` names fields a request fixed.

    A column beside count columns (``"spclmcity"`` 특별시 beside 광역시(개), 도(개)) that no rule
    gave a value (it reads ``"<label> n"``, ``n`` = ``index + 1``) is a count too; a total (``합계``, ``계``, ``소계``,
    ``조례 총계``, a name's ``tot``/``smry``) is the sum of its parts in the record: the columns
    its qualifier names (``세대수 합계`` → ``서울 세대수``, ``부산 세대수``), or, where it has none
    (``계``), every count column that is no other total's part, subtotals included. A total
    with fewer than two parts keeps its value."""
    out = dict(rec)
    korean = [(n, lb, t) for n, lb, t in fields if re.search(r"[가-힣]", lb)]
    counted = sum(1 for n, lb, t in korean if t in ("integer", "number") and _COUNT_UNIT.search(lb))
    if counted >= 2:
        for n, lb, t in korean:
            head = _outer(lb)
            placeholder = t == "string" and out.get(n) == f"{lb.split('(')[0].strip()} {index + 1}"
            untyped = t == "integer" and measure_kind(n, lb) is None  # 0-99999 by its type alone
            if (n not in keep and (placeholder or untyped) and not _NOT_COLUMN.search(head)
                    and not _NEVER_BY_NAME.search(n) and not _TOTAL_LABEL.search(head)):
                own = random.Random(f"column|{seed}|{n}")
                value = measure_value("count", own)
                out[n] = int(value) if t == "integer" else value
    rows = []  # (name, head, unit, type, is_total, qualifier)
    loose: set[str] = set()
    for n, lb, t in fields:
        if n in keep or _num(out.get(n)) is None:
            continue
        kind = measure_kind(n, lb)
        if kind not in _PART_KINDS and not (kind is None and t in ("integer", "number")):
            continue
        head = _outer(lb) if re.search(r"[가-힣]", lb) else ""
        if head:
            total = bool(_TOTAL_LABEL.search(head))
            qual = re.sub(r"\s+", " ", _TOTAL_LABEL.sub(" ", head)).strip() if total else ""
        else:
            total = bool(_TOTAL_NAME.search(n))
            qual = _TOTAL_NAME.sub("_", n).strip("_").lower() if total else ""
        if kind is None and t == "string" and not total:
            loose.add(n)  # a number the rules do not read as a quantity: a part only where a total names it
        rows.append((n, head, _unit(lb), t, total, qual))
    parts_of: dict[str, list[str]] = {}
    taken: set[str] = set()
    for n, head, unit, t, total, qual in sorted((r for r in rows if r[4] and r[5]), key=lambda r: len(r[5])):
        parts = [r[0] for r in rows if not r[4] and r[0] != n
                 and (qual in r[1] if head else qual in r[0].lower()) and _same_unit(unit, r[2])]
        if len([p for p in parts if p not in loose]) >= 2:  # "확정선거인수 계" = 남성 + 여성, not + 재외국민
            parts = [p for p in parts if p not in loose]
        if not parts:  # "조례규칙 총계": the totals of 조례 and of 규칙
            parts = [r[0] for r in rows if r[4] and r[5] and r[0] != n and r[5] != qual and r[5] in qual]
        if len(parts) >= 2:
            parts_of[n] = parts
            taken.update(parts)
    for n, head, unit, t, total, qual in rows:
        if total and not qual:
            parts = [r[0] for r in rows if r[0] != n and r[0] not in taken and not (r[4] and not r[5])
                     and r[0] not in loose and _same_unit(unit, r[2])]
            if len(parts) >= 2:
                parts_of[n] = parts
    types = {n: t for n, _, t in fields}
    _order_extremes(fields, out, keep)
    for n in _ordered(parts_of):
        total_value = sum(_num(out[p]) or 0.0 for p in parts_of[n])
        out[n] = _as_like(total_value, out[n], types[n])
    heads = {n: head for n, head, *_ in rows}
    for n, ps in parts_of.items():  # 남성 + 여성 = 계: about half each (the sum as drawn)
        sexes = sorted(ps, key=lambda p: "여" in heads.get(p, ""))
        if (len(ps) == 2 and re.search(r"남성|남자", heads.get(sexes[0], ""))
                and re.search(r"여성|여자", heads.get(sexes[1], ""))):
            whole = sum(_num(out[p]) or 0.0 for p in ps)
            male = round(whole * random.Random(f"sexes|{seed}|{n}").uniform(0.46, 0.54))
            out[sexes[0]] = _as_like(male, out[sexes[0]], types[sexes[0]])
            out[sexes[1]] = _as_like(whole - male, out[sexes[1]], types[sexes[1]])
    electors = next((n for n, head, *_ in rows if n in parts_of and "선거인" in head), None)
    people = next((n for n, head, *_ in rows if head == "인구수" and n not in parts_of and n not in keep), None)
    if electors and people:  # about four in five people of a place are its electors: the parts scaled
        target = (_num(out[people]) or 0.0) * random.Random(f"electors|{seed}").uniform(0.78, 0.86)
        factor = target / max(1.0, _num(out[electors]) or 0.0)
        kept = 0.0
        for i, p in enumerate(parts_of[electors]):
            last = i == len(parts_of[electors]) - 1
            value = round(target - kept) if last else round((_num(out[p]) or 0.0) * factor)
            kept += value
            out[p] = _as_like(value, out[p], types[p])
        out[electors] = _as_like(round(target), out[electors], types[electors])
    _subsets(rows, parts_of, out, types, seed)
    return out


#: Words that single out a part of a population ("재외국민 인구수" of 인구수, "남성 재외국민" of
#: 확정선거인수 재외국민), and the share of it they take.
_SUBSET_SHARES = {"재외국민": (0.0005, 0.01), "외국인": (0.005, 0.05), "남성": (0.46, 0.54), "남자": (0.46, 0.54),
                  "여성": (0.46, 0.54), "여자": (0.46, 0.54)}
_FEMALE = {"여성": "남성", "여자": "남자"}


def _words(head: str) -> frozenset[str]:
    return frozenset(w for w in head.split() if not _TOTAL_LABEL.fullmatch(w) and w not in ("합계", "총계", "소계", "계"))


def _subsets(rows: list[tuple[str, str, str, str, bool, str]], parts_of: dict[str, list[str]],
             out: dict[str, object], types: dict[str, str], seed: str) -> None:
    """Edition 9: a column that counts a part of another column's population is a share of it.
    Column A is a subset of column B when A's label words contain B's (``재외국민 인구수`` ⊃
    ``인구수``, ``남성 거소투표신고인수`` ⊃ ``거소투표신고인수``), or when they differ by one word of
    :data:`_SUBSET_SHARES` on A's side and B's noun on B's (``남성 재외국민`` of
    ``확정선거인수 재외국민``; ``확정선거인수 재외국민`` of ``확정선거인수 계``: B's noun is what a
    total of the record counts, so ``남성 재외국민`` is no part of ``남성 거소투표신고인수``). A gets a share of
    its smallest base (a few in a thousand for 재외국민, about half for 남성/여성; 여성 is the base
    less its 남성 sibling), so no subset exceeds its total (edition 9's first draw gave NEC's
    재외국민 87,369 against a 계 of 134). Totals and their parts keep the sums already made."""
    parts = {p for ps in parts_of.values() for p in ps}
    cols = [(n, _words(head)) for n, head, _u, _t, _total, _q in rows if head]
    by_words = {w: n for n, w in cols}
    words = dict(cols)
    totalled = frozenset(w for n, wn in cols if n in parts_of for w in wn)  # "확정선거인수" of "확정선거인수 계"
    bases: dict[str, list[str]] = {}
    for a, wa in cols:
        if a in parts or a in parts_of or not wa:
            continue
        for b, wb in cols:
            if b == a or not wb:
                continue
            extra, missing = wa - wb, wb - wa
            if extra and (not missing or (extra <= _SUBSET_SHARES.keys() and len(missing) == 1
                                          and missing <= totalled)):
                bases.setdefault(a, []).append(b)
    done: set[str] = set()

    def settle(a: str, depth: int = 0) -> None:
        if a in done or depth > 8:
            return
        for b in bases.get(a, ()):
            settle(b, depth + 1)
        done.add(a)
        if a not in bases:
            return
        first = min(bases[a], key=lambda b: _num(out[b]) or 0.0)
        base = _num(out[first]) or 0.0
        wa = words[a]
        quals = sorted(w for w in wa - words[first] if w in _SUBSET_SHARES)  # 남성 … before 재외국민, 외국인
        low, high = _SUBSET_SHARES[quals[0]] if quals else (0.05, 0.7)
        male = by_words.get((wa - {quals[0]}) | {_FEMALE[quals[0]]}) if quals and quals[0] in _FEMALE else None
        if male is not None and male in bases and male != a:
            settle(male, depth + 1)
            value = max(0.0, base - (_num(out[male]) or 0.0))
        else:
            value = round(base * random.Random(f"subset|{seed}|{a}").uniform(low, high))
        out[a] = _as_like(min(value, base), out[a], types[a])

    for a in list(bases):
        settle(a)


def _same_unit(a: str, b: str) -> bool:
    return not a or not b or a == b


def _ordered(parts_of: dict[str, list[str]]) -> list[str]:
    """Totals in an order where each total's parts are summed before it (subtotals first)."""
    done: list[str] = []
    pending = dict(parts_of)
    while pending:
        ready = [n for n, ps in pending.items() if not any(p in pending for p in ps)] or list(pending)[:1]
        for n in ready:
            done.append(n)
            pending.pop(n)
    return done


def _as_like(value: float, old: object, ftype: str) -> object:
    """``value`` written as the total's field writes numbers (an int, a float, "1,234", "12.50")."""
    if ftype == "integer" or isinstance(old, int):
        return round(value)
    if ftype == "number" or isinstance(old, float):
        return round(value, 2)
    text = str(old)
    if "." in text:
        return f"{value:,.2f}" if "," in text else f"{value:.2f}"
    return f"{round(value):,}" if "," in text else str(round(value))


#: Which end of a day's, a month's or a year's range a field holds: its name's tokens ("dayMinTa",
#: "tamax", "taMaxAvg": the mean of the daily maxima), else its label's words (최저, 최고, 평균).
_EXTREME_NAME = re.compile(r"(?i)(min|max|avg|mn|mx)")
_EXTREME_LABEL = re.compile(r"최저|최소|최고|최대|평균")
_LOW, _HIGH, _MEAN = frozenset({"min", "mn", "최저", "최소"}), frozenset({"max", "mx", "최고", "최대"}), frozenset({"avg", "평균"})


def _rank(words: set[str]) -> int | None:
    """min 0, mean of minima 1, mean 2, mean of maxima 3, max 4 (None: no such word, or both ends)."""
    low, high, mean = bool(words & _LOW), bool(words & _HIGH), bool(words & _MEAN)
    if low and high or not (low or high or mean):
        return None
    return (0 if low else 4 if high else 2) + ((1 if low else -1 if high else 0) if mean and (low or high) else 0)


def _order_extremes(fields: list[tuple[str, str, str]], out: dict[str, object], keep: frozenset[str]) -> None:
    """A record's minimum, averages and maximum of one quantity (KMA ``dayMinTa`` <= ``dayAvgTa``
    <= ``dayMaxTa``; ``taMin`` <= ``taMinAvg`` <= ``taMaxAvg`` <= ``taMax``) in order: the values
    drawn for them, sorted (edition 9; each was drawn on its own before)."""
    groups: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for n, lb, t in fields:
        if n in keep or _num(out.get(n)) is None:
            continue
        kind = measure_kind(n, lb)
        if kind not in ("temperature", "humidity", "wind", "pressure", "dust"):
            continue
        words = {w.lower() for w in _EXTREME_NAME.findall(n)}
        stem = _EXTREME_NAME.sub("", n).lower()
        if not words:
            head = _outer(lb)
            words, stem = set(_EXTREME_LABEL.findall(head)), _EXTREME_LABEL.sub("", head).replace(" ", "")
        rank = _rank(words)
        if rank is not None:
            groups.setdefault((kind, stem), []).append((rank, n))
    for members in groups.values():
        if len(members) < 2 or len({r for r, _ in members}) < len(members):
            continue
        names = [n for _, n in sorted(members)]
        values = sorted((out[n] for n in names), key=lambda v: _num(v) or 0.0)
        for n, v in zip(names, values):
            out[n] = v
