"""A recording plan with one seed per generated endpoint (phase 2 of #16: record every tool).

Each seed gives the endpoint's required parameters the values a real request would send: its
published example, else the first enum value, else a value read off the parameter's name and
Korean label — an entity code from the sandbox world's real-format tables (a listed company's
``corp_code``, a ``LAWD_CD`` and legal-dong codes of the real legal-dong table, a TAGO city
and station id, an NEC election id, a NEIS office and school) or a date, month or year in the
format the label states. A parameter no rule can give a real value is **not** given a
placeholder: its endpoint is left out of the plan and listed in the plan's report with the
reason (:func:`seed_plan_report`).

``placeholders=True`` reproduces the plans ``kopa@v0002``–``kopa@v0005`` were recorded with
(``"A1"`` for a string and ``"1"`` for an integer without an example): only to re-record
those versions byte for byte.

>>> from simulator.catalog import load_catalog
>>> plan = seed_plan(load_catalog(tier="full"), platforms=["kasi"])
>>> plan["seeds"][0]["endpoint"].startswith("kasi_")
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..loader import Catalog
from ..models import Endpoint, Param

if TYPE_CHECKING:
    from ...sandbox.world import World

__all__ = ["PLACEHOLDERS", "SeedReport", "placeholder_params", "seed_params", "seed_plan", "seed_plan_report",
           "seed_value"]

#: The values the plans before this rule used where nothing was published.
PLACEHOLDERS = frozenset({"A1"})
_SKIP_ROLES = ("auth", "format", "page", "page_size", "range_start", "range_end")

# The world's day is 2025-12-31 (``simulator.sandbox.world.TODAY``): seeds ask for a recent
# month the world has data for (RTMS trades cover 2024-01 … 2025-12).
_DAY, _MONTH, _YEAR = "20251201", "202512", "2025"


@dataclass
class SeedReport:
    """What a seed plan could not give a real value, per endpoint: ``[(param, reason)]``."""

    unresolved: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def to_markdown(self) -> str:
        lines = [f"{len(self.unresolved)} endpoint(s) left out of the plan: a required parameter has no real value"]
        for eid, why in sorted(self.unresolved.items()):
            lines += [f"- {eid}: {p} — {reason}" for p, reason in why]
        return "\n".join(lines)


@lru_cache(maxsize=4)
def _world(seed: int = 0) -> "World":
    from ...sandbox.world import World  # the sandbox builds on the catalog: imported late

    return World(seed)


def _entities(world: "World") -> dict[str, str]:
    """One linked set of real-format entity values: a listed company, 서울 강남구 and one of
    its legal dongs, a TAGO city and one of its stations and routes, a held election, a school."""
    company = world.listed_companies()[0]
    district = world.district("11680")
    dong = district.dongs[0] if district.dongs else district.region
    city = world.bus_cities()[0]
    station = world.bus_stations(city["citycode"])[0]
    routes = world.bus_routes(city["citycode"])
    held = [e for e in world.elections() if e["sgVotedate"] <= "20251231"]
    election = held[-1]
    school = world.schools()[0]
    return {
        "corp_code": company["corp_code"], "corp_name": company["corp_name"], "stock_code": company["stock_code"],
        "crno": company["crno"], "jurir_no": company["jurir_no"], "bizr_no": company["bizr_no"],
        "lawd_cd": district.lawd_cd, "sido_cd": district.sido.code[:2], "sido_nm": district.sido.name,
        "sgg_nm": district.name, "dong_code": dong.code, "bjdong_cd": dong.code[5:],
        "citycode": str(city["citycode"]), "nodeid": station["nodeid"],
        "routeid": routes[0]["routeid"] if routes else "",
        "sgid": election["sgId"], "sgtypecode": election["sgTypecode"],
        "atpt_ofcdc_sc_code": school["ATPT_OFCDC_SC_CODE"], "sd_schul_code": school["SD_SCHUL_CODE"],
    }


#: Lowercased parameter name → the entity value it takes (keys of :func:`_entities`).
_BY_NAME: dict[str, str] = {
    **dict.fromkeys(("corp_code",), "corp_code"),
    **dict.fromkeys(("crno",), "crno"), **dict.fromkeys(("brno", "brno_", "bizr_no"), "bizr_no"),
    **dict.fromkeys(("lawd_cd", "sigungucd", "sigungucode", "signgucd", "signgucode", "sgg_cd", "sggcd",
                     "bjdcode", "areacd", "dptre_sgg_cd", "arvl_sgg_cd"), "lawd_cd"),
    **dict.fromkeys(("bjdongcd",), "bjdong_cd"),
    **dict.fromkeys(("stdgcd", "emdcd", "dongcode_legal"), "dong_code"),
    **dict.fromkeys(("ctpv_cd", "sidocode", "sido_cd", "brtccode", "mgmregsidocd", "dptre_ctpv_cd",
                     "arvl_ctpv_cd", "ride_ctpv_cd"), "sido_cd"),
    **dict.fromkeys(("sdname", "mtrpl_lcgv_nm", "ntnlastlctnsidonm"), "sido_nm"),
    **dict.fromkeys(("wiwname",), "sgg_nm"),
    **dict.fromkeys(("citycode",), "citycode"), **dict.fromkeys(("nodeid",), "nodeid"),
    **dict.fromkeys(("routeid",), "routeid"),
    **dict.fromkeys(("sgid",), "sgid"), **dict.fromkeys(("sgtypecode",), "sgtypecode"),
    **dict.fromkeys(("atpt_ofcdc_sc_code",), "atpt_ofcdc_sc_code"),
    **dict.fromkeys(("sd_schul_code",), "sd_schul_code"),
}
#: Lowercased names of date-like params by the shape they take (when the label says nothing).
_DAY_NAMES = frozenset({"basdt", "searchdate", "opr_ymd", "startdate", "enddate", "startdt", "enddt", "stddate",
                        "msrmtymd", "inqbgindt", "inqenddt", "inqrybgndate", "inqryenddate", "locdate", "eduymd",
                        "prmisnde", "base_date", "reqfrom", "reqto", "sdate", "edate", "reqstddst", "reqstdded",
                        "st_ymd", "ed_ymd", "startymd", "endymd", "stda", "chgprdbgndt", "chgprdenddt",
                        "cond[base_date::eq]", "likebasdt", "liketrdt", "heavyymd", "heavyymdfrom", "heavyymdto",
                        "entryymdfrom", "entryymdto", "sagodatefrom", "sagodateto", "staplanymdfrom",
                        "staplanymdto", "sysregdatefrom", "sysregdateto", "start_date", "end_date"})
_MONTH_NAMES = frozenset({"deal_ymd", "basym", "opr_ym", "srchfrym", "srchtoym", "srchbssymbgn", "srchbssymend",
                          "crtrym", "prfmncym", "useym", "orderbgnym", "orderendym", "st_ym", "ed_ym", "eduym",
                          "inqbginmm", "inqendmm", "reqdate", "likeatmbacdncnlsym", "likeisucmpyofrym"})
_YEAR_NAMES = frozenset({"year", "searchyear", "bizyr", "bizyear", "crtr_yr", "emsnyr", "opr_yr", "audtyear",
                         "elctyear", "dclryr", "impltyr", "msrmtyr", "prfmncyr", "srchbssyear", "trgtyr",
                         "scrsissuyr", "solyear", "fromsolyear", "tosolyear", "likesttsaccmltrgtyr"})
_FIXED: dict[str, str] = {
    # published codes whose meaning the label states (1 = the first listed choice)
    "inqrydiv": "1", "pageindex": "1", "pagenum": "1", "page": "1", "recordcountperpage": "100", "perpage": "100",
    "month": "12", "solmonth": "12", "lunmonth": "12",
    "cond[opn_atmy_grp_cd::eq]": "3220000",  # 개방자치단체코드 of 서울특별시 강남구 (LOCALDATA)
    "nx": "61", "ny": "126",  # the KMA grid point of 강남구 (apis.md §3.2 gives 55/127 for 종로)
    "base_time": "0500", "basedatetime": "202512010500", "datetime": "2025-12-01",
    # KMA: ASOS station 108 (서울) and the mid-term region 11B00000 (서울·인천·경기), both in apis.md §3.2
    "station": "108", "stnid": "108", "stnids": "108", "regid": "11B00000", "tmfc": "202512010600",
    "format": "json", "output": "json",
}
_LABEL_FORMATS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"YYYYMMDDHH24MI|년월일시분"), _DAY + "0500"),
    (re.compile(r"YYYYMMDDHH|년월일시"), _DAY + "05"),
    (re.compile(r"일시$"), _DAY + "0000"),  # PPS 조회시작일시 (YYYYMMDDHHMM)
    (re.compile(r"(?i)yyyy-mm-dd"), "2025-12-01"),
    (re.compile(r"(?i)yyyymmdd|일자|년월일|날짜"), _DAY),
    (re.compile(r"(?i)yyyymm|연월|년월"), _MONTH),
    (re.compile(r"(?i)\(yyyy\)|연도|년도"), _YEAR),
]


def seed_value(p: Param, world: "World | None" = None) -> tuple[str | None, str]:
    """A real value for required param ``p`` and where it came from; ``(None, reason)`` when
    no rule gives one (the caller leaves the endpoint out rather than send a dummy)."""
    lo = p.name.lower()
    if p.example and not (lo in _BY_NAME and _BY_NAME[lo] == "corp_code" and (world or _world()).is_real_company(p.example)):
        return p.example, "published example"  # (OpenDART's example is 삼성전자's code: no values from edition 7)
    if p.enum:
        return p.enum[0], "first published enum value"
    lo = p.name.lower()
    if lo in _BY_NAME:
        value = _entities(world or _world())[_BY_NAME[lo]]
        if value:
            return value, f"the sandbox world's {_BY_NAME[lo]} (real-format code)"
    if lo in ("admmcd", "mvinadmmcd", "mvtadmmcd"):  # 행정기관코드 (10 digits) of the district
        return _entities(world or _world())["lawd_cd"] + "00000", "the sandbox world's district as a 10-digit code"
    if lo in _FIXED:
        return _FIXED[lo], "a real value the parameter's label describes"
    label = p.description or ""
    if lo in _DAY_NAMES:
        return ("2025-12-01" if re.search(r"(?i)yyyy-mm-dd", label) else _DAY), "a day the world has data for"
    if lo in _MONTH_NAMES:
        return _MONTH, "a month the world has data for"
    if lo in _YEAR_NAMES:
        return _YEAR, "a year the world has data for"
    for pattern, value in _LABEL_FORMATS:
        if pattern.search(label):
            return value, f"the format its label states ({label[:30]!r})"
    return None, f"no published example, enum or known code for {p.name!r} (label {label[:40]!r})"


def _placeholder(p: Param) -> str:
    return p.example or (p.enum[0] if p.enum else ("1" if p.type == "integer" else "A1"))


def placeholder_params(ep: Endpoint, filters: dict[str, str], world: "World | None" = None) -> list[str]:
    """The params of a collection key (``filters``) that hold the old plans' dummy value: the
    ``"A1"`` (or ``"1"`` for an integer) that param got where nothing was published and no
    rule of :func:`seed_value` gives that value. No real request sends it, so a collection keyed
    on it is never reached (1,051 of ``kopa@v0005``'s 3,833 collections)."""
    out = []
    for name, value in sorted(filters.items()):
        p = ep.param(name)
        if p is None or p.example or p.enum or value != ("1" if p.type == "integer" else "A1"):
            continue
        if seed_value(p, world)[0] != value:
            out.append(name)
    return out


def _required(ep: Endpoint) -> list[Param]:
    return [p for p in ep.params if p.required and p.role not in _SKIP_ROLES]


def seed_params(ep: Endpoint, world: "World | None" = None, *, placeholders: bool = False) -> dict[str, str]:
    """Values for ``ep``'s required parameters (key, paging and format left to the recorder);
    a parameter without a real value is left out (see :func:`seed_value`)."""
    if placeholders:
        return {p.name: _placeholder(p) for p in _required(ep)}
    out: dict[str, str] = {}
    for p in _required(ep):
        value, _why = seed_value(p, world)
        if value is not None:
            out[p.name] = value
    return out


def seed_plan_report(catalog: Catalog, *, platforms: list[str] | None = None, set_name: str = "kopa",
                     world: "World | None" = None, placeholders: bool = False,
                     ) -> tuple[dict[str, Any], SeedReport]:
    """A plan (``simulator.record.Plan`` data) seeding every generated, non-binary endpoint
    whose required params all have real values, and the report of the ones left out."""
    wanted = None if platforms is None else set(catalog.resolve_platforms(list(platforms))[0])
    eps = sorted(
        (e for e in catalog.endpoints.values()
         if e.fidelity != "curated" and e.kind != "binary" and (wanted is None or e.platform in wanted)),
        key=lambda e: (e.part_id, e.id),  # catalog-file order: plans written before platforms merged
    )
    report = SeedReport()
    seeds = []
    for e in eps:
        if placeholders:
            seeds.append({"endpoint": e.id, "params": seed_params(e, placeholders=True)})
            continue
        params: dict[str, str] = {}
        for p in _required(e):
            value, why = seed_value(p, world)
            if value is None:
                report.unresolved.setdefault(e.id, []).append((p.name, why))
            else:
                params[p.name] = value
        if e.id not in report.unresolved:
            seeds.append({"endpoint": e.id, "params": params})
    plan = {"set": set_name, "rate_per_sec": {"default": 5}, "seeds": seeds}
    return plan, report


def seed_plan(catalog: Catalog, *, platforms: list[str] | None = None, set_name: str = "kopa",
              placeholders: bool = False) -> dict[str, Any]:
    """:func:`seed_plan_report`'s plan alone."""
    return seed_plan_report(catalog, platforms=platforms, set_name=set_name, placeholders=placeholders)[0]

