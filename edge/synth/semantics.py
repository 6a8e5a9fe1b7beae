"""What a field *means*, and which reductions mean something over it.

Every catalog field gets one semantic type from its name, catalog type and Korean label:
``count`` (학생수, 득표수), ``money`` (거래금액, 자본금), ``ratio`` (득표율), ``measure`` (면적,
열량), ``ordinal`` (층, 순위, 기호), ``level`` (학년, 등급: a short fixed scale), ``date``, ``coordinate`` (위도·경도), ``code``,
``identifier``, ``name`` or ``text``. A reduction is allowed only where it means something:
the sum of amounts or counts, the latest date, the argmax by amount — never the sum of names,
of floors or of days, nor the maximum of a latitude, nor any reduction of a level (the highest 학년 is the scale's end).

A value passes from a field to a param only where both mean the same thing (:func:`joins`):
a quantity, ordinal or level only fills a param of its own type that counts on the same scale
(an air-quality 등급 is not a school 학년), a coordinate one of its own axis, and a code or name
crossing providers one that names the same kind of entity (a weather station's 지점코드 is
not a 시군구코드).

>>> semantic_type("LAT", "위도", "number"), allowed("sum", "ordinal"), allowed("argmax", "money")
('coordinate', False, True)
>>> semantic_type("khaiGrade", "통합대기환경지수 등급", "integer"), scale("GRADE", "학년")
('level', 'school_year')
"""

from __future__ import annotations

import re

from simulator import Catalog

__all__ = ["ALLOWED", "SEMANTIC_TYPES", "allowed", "entity", "field_type", "joins", "scale", "semantic_type"]

SEMANTIC_TYPES = ("count", "money", "ratio", "measure", "ordinal", "level", "date", "coordinate", "code",
                  "identifier", "name", "text")

#: Reduction → the semantic types of the key it may read (``field`` for argmax/topk is a name).
ALLOWED: dict[str, frozenset[str]] = {
    "sum": frozenset({"count", "money", "measure"}),
    "mean": frozenset({"count", "money", "ratio", "measure"}),
    "max": frozenset({"count", "money", "ratio", "measure", "ordinal"}),
    "min": frozenset({"count", "money", "ratio", "measure", "ordinal"}),
    "argmax": frozenset({"count", "money", "ratio", "measure", "ordinal", "date"}),
    "argmin": frozenset({"count", "money", "ratio", "measure", "ordinal", "date"}),
    # no "level" anywhere: the max of 학년 is 6 whatever the school
    "topk": frozenset({"count", "money", "ratio", "measure"}),
    "distinct_count": frozenset({"name", "code", "text"}),
}

_COORD = re.compile(r"^(lat|lng|lon|long|la|lo|x|y|xpos|ypos|mapx|mapy|gps_?lati|gps_?long|gpslati|gpslong|"
                    r"nodelati|nodelong|wgs84lat|wgs84lon|lcx|lcy)$|(lat$|lati$|long$|lng$|lon$)", re.I)
_DATE = re.compile(r"(ymd|date|_de$|_dt$|^dt|dtm$|_ym$|year|^ay$|yy$|birth|^deal(year|month|day)$|dy$)", re.I)
_DATE_DESC = re.compile(r"(일자|일시|날짜|연월|년월|연도|년도|생년|시각|기준일|접수일|계약일|거래일|월$|일$)")
_MONEY = re.compile(r"(amt|amount|price|cost|money|deposit|rent|_am$|pay)", re.I)
_MONEY_DESC = re.compile(r"(금액|가격|보증금|월세|자본금|매출|이익|손익|자산|부채|원\)|단위: ?원|만원|비용|요금|임대료)")
_RATIO = re.compile(r"(rate|ratio|_rt$|pct|percent)", re.I)
_RATIO_DESC = re.compile(r"(율|비율|%|퍼센트)")
_COUNT = re.compile(r"(cnt|count|_num$|^num_|qty|tot_?sum|total)", re.I)
_COUNT_DESC = re.compile(r"(수$|수 |건수|인원|명수|대수|개수|횟수|득표|정원)")
_ORDINAL = re.compile(r"(floor|rank|giho|grade)", re.I)
_ORDINAL_DESC = re.compile(r"(층$|^층|순위|기호$|차수|회차|학년$|등급|대수|서열)")
#: Ordinals on a short fixed scale (학년 1–6, 대기질 등급 1–4): their max or min is the scale's end.
_LEVEL = re.compile(r"(학년(?!도)|등급)")
_MEASURE_DESC = re.compile(r"(면적|거리|열량|칼로리|㎡|km|kcal|무게|높이|길이|시간|소요|분\)|초\))")
_IDENT = re.compile(r"(_id$|id$|^id|_no$|no$|seq|sn$|link|url|tel|email|image|mst|번호|key$)", re.I)
_CODE = re.compile(r"(cd$|code|_cd_|typecode)", re.I)
_NAME = re.compile(r"(nm$|name$|_nm|명$|명한글|이름|명칭|title)", re.I)


def semantic_type(name: str, description: str = "", ftype: str = "string", code: bool = False) -> str:
    """The semantic type of a field named ``name`` with catalog ``description`` and ``ftype``."""
    d = (description or "").split(" (")[0].split("(")[0].strip()
    full = description or ""
    if _COORD.search(name) or re.search(r"(위도|경도|좌표)", full):
        return "coordinate"
    if _DATE.search(name) or _DATE_DESC.search(d):
        return "date"
    if code or _CODE.search(name) or "코드" in d:
        return "code"
    if _NAME.search(name):
        return "name"
    if _MONEY.search(name) or _MONEY_DESC.search(d) or re.search(r"\((만)?원", full):
        return "money"
    if _RATIO.search(name) or _RATIO_DESC.search(d):
        return "ratio"
    if _ORDINAL_DESC.search(d) or _ORDINAL.search(name) and ftype in ("integer", "number") or name.upper() == "AGE":
        return "level" if _LEVEL.search(d) or not d and re.search("grade", name, re.I) else "ordinal"
    if _IDENT.search(name) or re.search(r"(번호|순번|아이디|ID)", d):
        return "identifier"
    if _COUNT.search(name) or _COUNT_DESC.search(d):
        return "count"
    if _MEASURE_DESC.search(full):
        return "measure"
    if _NAME.search(name) or re.search(r"(명$|이름|명칭|제목)", d):
        return "name"
    if ftype in ("integer", "number"):
        return "measure"
    return "text"


#: Field types kept per catalog (``Catalog.derived``), at most this many.
_TYPES_MAX = 65536


def _no_types(_catalog: Catalog) -> dict[tuple[str, str], str]:
    return {}


def field_type(catalog: Catalog, tool: str, name: str) -> str:
    """The semantic type of field ``name`` of ``tool`` (from the catalog ``FieldSpec``);
    remembered on the catalog (immutable, so the type stays true)."""
    types = catalog.derived("edge.synth.field_types", _no_types)
    hit = types.get((tool, name))
    if hit is not None:
        return hit
    spec = next((f for f in catalog.endpoint(tool).fields if f.name == name), None)
    stype = (semantic_type(spec.name, spec.description or "", spec.type or "string", bool(spec.code))
             if spec else semantic_type(name))
    if len(types) >= _TYPES_MAX:
        types.clear()
    types[(tool, name)] = stype
    return stype


def allowed(op: str, stype: str) -> bool:
    """Whether reduction ``op`` over a key of semantic type ``stype`` means something."""
    ok = ALLOWED.get(op)
    return True if ok is None else stype in ok


#: The scale an ordinal or level counts on; two count on the same one only if these agree.
_SCALES = (("school_year", re.compile(r"학년(?!도)")), ("band", re.compile(r"(등급|grade)", re.I)),
           ("floor", re.compile(r"(층|floor)", re.I)), ("rank", re.compile(r"(순위|서열|rank)", re.I)),
           ("ballot", re.compile(r"(기호|giho)", re.I)), ("term", re.compile(r"(대수|차수|회차|^age$)", re.I)))
#: The kind of entity a code or name identifies (read from its description, else its name).
_ENTITIES = (("region", re.compile(r"(시군구|법정동|행정구역|행정동|읍면동|시도|지역|지자체|선거구|lawd|sgg|sido|region|adm)", re.I)),
             ("measuring_station", re.compile(r"(측정소|관측소|지점|stn)", re.I)),
             ("transit_stop", re.compile(r"(정류소|정류장|전철|지하철|역명|node|stop)", re.I)),
             ("city", re.compile(r"(도시|city)", re.I)),
             ("company", re.compile(r"(회사|법인|기업|corp)", re.I)),
             ("stock", re.compile(r"(종목|단축코드|srtn|isin|stock)", re.I)),
             ("school", re.compile(r"(학교|schul)", re.I)),
             ("category", re.compile(r"(분류|유형|종류|cate)", re.I)))
_QUANTITY = ("count", "money", "ratio", "measure", "ordinal", "level")
_AXIS = (("lat", re.compile(r"(lat|위도|^y|ypos|mapy|lcy)", re.I)), ("lon", re.compile(r"(lon|lng|경도|^x|xpos|mapx|lcx)", re.I)))


def _first(table: tuple[tuple[str, re.Pattern[str]], ...], name: str, desc: str) -> str | None:
    for text in (desc, name):
        for kind, rx in table:
            if rx.search(text or ""):
                return kind
    return None


def scale(name: str, description: str = "") -> str | None:
    """What an ordinal or level field counts on (``school_year``, ``band``, ``floor``, …)."""
    return _first(_SCALES, name, description)


def entity(name: str, description: str = "") -> str | None:
    """The kind of entity a code or name identifies (``region``, ``measuring_station``, …)."""
    return _first(_ENTITIES, name, (description or "")[:40])


def joins(catalog: Catalog, source_tool: str, source_field: str, target_tool: str, target_param: str) -> bool:
    """Whether a value of ``source_tool.source_field`` means what ``target_tool.target_param``
    asks for — not merely a value it accepts (a 1–3 air-quality 등급 answers a 학년 param).

    Same-named fields of one provider join; otherwise a quantity, ordinal or level only fills a param of its
    own type on the same scale, a coordinate one of its own axis, nothing else fills a
    quantity or coordinate param, and a value crossing providers must name the same kind of
    entity.
    """
    src = catalog.endpoint(source_tool)
    tgt = catalog.endpoint(target_tool)
    spec = next((f for f in src.fields if f.name == source_field), None)
    sdesc = (spec.description if spec else "") or ""
    param = tgt.param(target_param)
    tdesc = (param.description if param else "") or ""
    crossing = src.platform != tgt.platform  # platforms are providers (simulator.catalog.platforms)
    if not crossing and source_field.lower() == target_param.lower():
        return True  # one provider's own key (amcNo → amcNo), whatever its description says
    s = field_type(catalog, source_tool, source_field)
    t = semantic_type(target_param, tdesc, (param.type if param else None) or "string")
    if s in _QUANTITY or t in _QUANTITY:
        return s == t and scale(source_field, sdesc) == scale(target_param, tdesc)
    if s == "coordinate" or t == "coordinate":
        return s == t and _first(_AXIS, source_field, sdesc) == _first(_AXIS, target_param, tdesc)
    if crossing:
        return entity(source_field, sdesc) == entity(target_param, tdesc)
    return True
