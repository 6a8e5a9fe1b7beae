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

__all__ = ["MEASURES_EDITION", "measure_kind", "measure_value"]

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
    (r"\(건\)|\(명\)|\(개\)|\(회\)|\(세대\)|\(호\)|\(개소\)|\(가구\)", "count"),
    (r"\(㎡\)|\(m2\)|\(m²\)|\(ha\)|\(㎢\)", "area"),
    (r"\(℃\)|\(°C\)", "temperature"),
    (r"\(mm\)|\(cm\)", "precipitation"),
    (r"\(km\)|\(m\)", "length"),
)
#: Labels (without their parenthesised parts) that say the field is a name, code, date or text.
_NOT_BY_LABEL = re.compile(
    r"(명$|명칭|이름|성명|코드|번호|주소|소재지|내용|비고|구분|유형|종류|여부|일자|날짜|기간|일정|방법|사유|목적|제목|설명|"
    r"상태|위치|시작일|종료일|예정일|일$|일시|연월|년월|시각|등급|의견|결과|첨부|파일|링크|이미지|정보|현황$|사항$|분류|대상|"
    r"기관|회사|주관|업종|업태|품목|품명|차종|국가|국적|시도$|시군구$|읍면동$|요일|단위|방식|형태|영문|한글|약어|법률$|법령$|"
    r"물질|대표자|관계|조건|근거|요지|범위|방침|조치|기능|명세|연령대|나타난|날$|업자|지급)")
#: Label endings that name a quantity whatever comes before ("…구분구성비율" is a rate).
_MEASURE_END = re.compile(r"(비율|지분율|구성비|(?<!법)률|율|금액|총액|합계|소계|총계|평균기온|기온|강수량)$")
#: Measure words of a label, in order (the first that matches wins).
_BY_LABEL: tuple[tuple[str, str], ...] = (
    (r"기온|온도|수온|지온", "temperature"),
    (r"습도", "humidity"),
    (r"강수량|강우량|적설|강수", "precipitation"),
    (r"풍향", "direction"),
    (r"풍속", "wind"),
    (r"기압", "pressure"),
    (r"액면가", "par"),
    (r"지하층수|지하층", "basement"),
    (r"층수", "floors"),
    (r"비율|비중|점유율|이율|금리|수익률|율|(?<!법)률|퍼센트|대비|%", "rate"),
    (r"면적", "area"),
    (r"인구", "population"),
    (r"연령|나이", "age"),
    (r"주식수|주식총수|주식 총수|주식 수|보유주식|발행주식|자기주식|주식의 수", "shares"),
    (r"(미세먼지|PM|pm|라돈).*농도", "dust"),
    (r"(일산화탄소|CO\b).*농도", "co"),
    (r"농도", "concentration"),
    (r"지수$|지수값|지수종가|지수 종가", "index"),
    (r"종가|시가$|고가$|저가$|기준가|단가|가격|주당", "price"),
    (r"(수리|관리|유지|청소|경비|소독|승강기|난방|급탕|수선)비|사용료|관리수수료", "fee"),
    ((r"금액|가액|요금|운임|수수료|보증금|임대료|임차료|매출|이익|손실|손익|자산|부채|자본|비용|수익|원가|대금|예산|투자|"
      r"배당금|원금|잔액|차입|상환|급여|연봉|보수|총액|(공사|사업|인건|운영)비"), "money"),
    (r"건수|횟수|인원|세대수|가구수|대수|개수|학생수|직원수|수량|사상자|부상자|사망자|명수|층수|년수|일수", "count"),
    (r"합계|총계|소계|누계|총합|^계$", "total"),
    (r"평균", "average"),
    (r"거리|연장|길이|높이|고도|해발|깊이|폭$", "length"),
    (r"중량|무게|톤수", "weight"),
)
#: English stems of a field name (case as written: ``Ta`` is a temperature in ``dayAvgTa``, not
#: in ``mgmCptAt``), for fields without a Korean label that names a quantity.
_BY_NAME: tuple[tuple[str, str], ...] = (
    (r"^[Tt][Aa](_|$|[A-Z0-9])|[a-z]Ta([A-Z0-9]|$)|_ta(_|$)|[Tt]emp", "temperature"),
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
    (r"(?i)dist$|distance|length|height|alt$", "length"),
)
#: How many of ``_BY_LABEL``'s first kinds (weather, par value, floors) a label names before
#: any unit it gives ("습도(%)", "1주당 액면가액 (원)", "층수(지상/지하)").
_WEATHER = 9
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


def _grouped(n: int, comma: bool) -> str:
    return f"{n:,}" if comma else str(n)


def measure_value(kind: str, rng: random.Random, comma: bool = False) -> str:
    """A number string of ``kind``'s plausible range and format; ``comma`` groups whole numbers
    by thousands (OpenDART's reports: "1,199,285,813")."""
    if kind == "temperature":
        return f"{rng.uniform(-3.2, 31.5):.1f}"
    if kind == "humidity":
        return str(rng.randint(18, 98))
    if kind == "precipitation":
        return "0.0" if rng.random() < 0.45 else f"{rng.uniform(0.1, 62.0):.1f}"
    if kind == "pressure":
        return f"{rng.uniform(992.0, 1034.0):.1f}"
    if kind == "dust":
        return str(rng.randint(4, 118))
    if kind == "co":
        return f"{rng.uniform(0.2, 1.2):.1f}"
    if kind == "direction":
        return str(rng.randint(0, 359))
    if kind == "age":
        return f"{rng.uniform(24.0, 71.0):.1f}"
    if kind == "wind":
        return f"{rng.uniform(0.2, 11.8):.1f}"
    if kind == "rate":
        return f"{rng.uniform(0.0, 100.0):.2f}"
    if kind == "area":
        return f"{rng.uniform(12.0, 4800.0):.2f}"
    if kind == "population":
        return _grouped(rng.randint(800, 620_000), comma)
    if kind == "shares":
        return _grouped(round(10 ** rng.uniform(3.0, 8.1)), comma)
    if kind == "price":
        return _grouped(rng.randint(10, 9_000) * 100, comma)
    if kind == "money":  # magnitudes spread evenly from 10만 to 100억 won
        return _grouped(round(10 ** rng.uniform(5.0, 10.0)), comma)
    if kind == "par":
        return _grouped(rng.choice((100, 200, 500, 500, 1_000, 2_500, 5_000, 5_000)), comma)
    if kind == "floors":
        return str(rng.randint(1, 35))
    if kind == "basement":
        return str(rng.randint(0, 6))
    if kind == "fee":  # a month's charge of a building or complex: 1만 to 2천만 won
        return _grouped(round(10 ** rng.uniform(4.0, 7.3)), comma)
    if kind == "count":  # mostly small, now and then thousands
        return _grouped(round(10 ** rng.uniform(0.0, 3.7)) - 1, comma)
    if kind == "total":
        return _grouped(round(10 ** rng.uniform(1.0, 4.9)), comma)
    if kind == "average":
        return f"{rng.uniform(0.0, 950.0):.1f}"
    if kind == "length":
        return f"{rng.uniform(0.1, 48.0):.1f}"
    if kind == "concentration":
        return f"{rng.uniform(0.002, 0.080):.3f}"
    if kind == "index":
        return f"{rng.uniform(40.0, 180.0):.1f}"
    if kind == "weight":
        return f"{rng.uniform(0.5, 980.0):.1f}"
    raise ValueError(f"unknown measure kind {kind!r}")
