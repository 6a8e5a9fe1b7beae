"""Questions people ask about where they live: a district's home trades, a school's classes,
meals and calendar (issue 28, item 3), each asked by the names people know.

* **Home trades** (molit, through mois): a district by its name → its legal-dong code
  (``mois_stan_regin_cd``, the 10-digit code cut to the 5-digit ``LAWD_CD``) → that month's
  row-house or officetel trades → a count, a neighbourhood's count, the highest or mean price
  (read in 만원, as the catalog gives it, answered in 원: "3억 6,507만 원"), the priciest building, or which of two districts traded
  more (CMP).
* **Schools** (neis): a school by its name → its office and school codes
  (``neis_school_info``) → its classes of a grade in a school year, its departments, how often a
  dish was served at lunch in a month, when an event of a school year falls, how many events a
  month holds.

Every count states its scope (the month, the school year) and the program restricts the data
to it (the call's own filter: ``DEAL_YMD``, ``AY``, ``MLSV_YMD``, ``AA_YMD``), so no answer
mixes periods the question never names.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..errors import EdgeError
from .intent_kit import Intent, bind, mine, op, part, pick, table
from .sample import Draft, Sampler

__all__ = ["LOCAL_INTENTS"]

#: Home-trade tools: (what people call the home, the building-name field).
_HOMES = {"molit_rh_trades": ("rh", "mhouseNm"), "molit_offi_trades": ("offi", "offiNm")}
#: Most trades one question reads (a month of a district's apartment trades, 229-612 records on
#: kopa@v0005, is over the conversation budget: only row houses and officetels are asked).
_MOST = 150
#: 원 in one 만원: a trade price (``dealAmount``, 만원) is answered in 원 (edge.synth.checks's
#: unit rule accepts a reduction converted so).
WON_PER_MANWON = 10_000


def _districts(s: Sampler) -> dict[str, str]:
    """5-digit 시군구 code → the district's full name (``서울특별시 마포구``)."""
    memo: dict[str, str] | None = s.__dict__.get("_intent_districts")
    if memo is None:
        memo = {}
        for r in table(s, "mois_stan_regin_cd", {}):
            code = str(r.get("region_cd", ""))
            if len(code) == 10 and code[5:] == "00000" and code[2:5] != "000":
                memo[code[:5]] = str(r.get("locatadd_nm"))
        s.__dict__["_intent_districts"] = memo
    return memo


def _months(s: Sampler, tool: str, held: frozenset[str], most: int = _MOST) -> list[tuple[str, str]]:
    """(district name, month) of every recorded call of ``tool`` a question can name and a
    conversation can hold (at most ``most`` trades)."""
    names = _districts(s)
    out = []
    for f in s._filters.get(tool, []):
        code, ym = str(f.get("LAWD_CD")), str(f.get("DEAL_YMD"))
        if set(f) == {"LAWD_CD", "DEAL_YMD"} and code in names and names[code] not in held and code not in held \
                and len(table(s, tool, {"LAWD_CD": code, "DEAL_YMD": ym})) <= most:
            out.append((names[code], ym))
    return sorted(out)


def _trades(s: Sampler, d: Draft, tool: str, place: str, ym: str) -> tuple[str, list[dict[str, Any]]]:
    """The district's code by its name, then its trades of the month: the trade step and records."""
    s1, _r1 = s.call(d, "mois_stan_regin_cd", {"locatadd_nm": place})
    ref, code = pick(s, d, s1, [{"field": "locatadd_nm", "op": "eq", "value": place}], "region_cd")
    s2, r2 = s.call(d, tool, {"DEAL_YMD": ym}, bind={"LAWD_CD": {"ref": ref, "transform": "slice:0:5"}})
    d.bound.append(code[:5])
    d.edges.append(("mois_stan_regin_cd", tool))
    return s2, list(r2.records)


def _gu(place: str) -> str:
    return place.split(" ")[-1]


def _home(s: Sampler, d: Draft, rng: Any, held: frozenset[str], ask: str) -> bool:
    """A district's home trades (or apartment leases) of a month, asked as people ask them."""
    tool = "molit_offi_trades" if ask == "cmp" else rng.choice(sorted(_HOMES))
    kind, name_field = _HOMES[tool]
    opts = _months(s, tool, held, 70 if ask == "cmp" else _MOST)
    mines = [(p, m) for p, m in opts if mine(s, [p])]
    if not mines:
        return False
    place, ym = rng.choice(mines)
    if ask == "cmp":
        others = [p for p, m in opts if m == ym and p != place and p.split(" ")[0] == place.split(" ")[0]]
        if not others:
            return False
        other = rng.choice(others)
        a, ra = _trades(s, d, tool, place, ym)
        b, rb = _trades(s, d, tool, other, ym)
        if len(ra) == len(rb):
            return False
        ca, _na = op(s, d, op="count", **{"from": a})
        cb, _nb = op(s, d, op="count", **{"from": b})
        c, _w = op(s, d, op="choose", test={"left": {"$ref": ca}, "op": "gt", "right": {"$ref": cb}},
                   a=_gu(place), b=_gu(other))
        d.answer = {"$ref": c}
        part(d, "home_cmp", len(ra) + len(rb), month=ym, place=place, other=other, kind=kind)
        d.junctions.append("CMP")
        return True
    src, recs = _trades(s, d, tool, place, ym)
    if len(recs) < 3:
        return False
    slots: dict[str, Any] = {"month": ym, "place": place, "kind": kind}
    if ask == "count":
        c, _n = op(s, d, op="count", **{"from": src})
    elif ask == "dong":
        dongs = Counter(str(r.get("umdNm")) for r in recs if r.get("umdNm"))
        opts2 = sorted(k for k, v in dongs.items() if 2 <= v < len(recs) and k not in held)
        if not opts2:
            return False
        dong = rng.choice(opts2)
        c, _n = op(s, d, op="count", **{"from": src}, where=[{"field": "umdNm", "op": "eq", "value": dong}])
        slots["dong"] = dong
    elif ask == "dong_cond":
        # COND with the asker's own fallback: their neighbourhood's trades, and if it had none,
        # the district's ("한 건도 없었다면 구 전체로는 몇 건이었는지라도"); the threshold is one
        # trade. Half the neighbourhoods asked had no trade that month (the else branch).
        code = str(d.bound[-1])
        traded = {str(r.get("umdNm")) for r in recs if r.get("umdNm")}
        legal = sorted({str(r.get("locatadd_nm")).split(" ")[-1] for r in table(s, "mois_stan_regin_cd", {})
                        if str(r.get("region_cd", "")).startswith(code) and str(r.get("region_cd", ""))[5:] != "00000"
                        and len(str(r.get("locatadd_nm")).split(" ")) == 3 and str(r.get("locatadd_nm")).endswith("동")})
        quiet = [x for x in legal if x not in traded and x not in held]
        busy = sorted(x for x in traded if x in legal and x not in held)
        pool = quiet if quiet and (not busy or rng.random() < 0.5) else busy
        if not pool:
            return False
        dong = rng.choice(pool)
        n_dong, _n = op(s, d, op="count", **{"from": src}, where=[{"field": "umdNm", "op": "eq", "value": dong}])
        n_all, _a = op(s, d, op="count", **{"from": src})
        c, _v = op(s, d, op="choose", test={"left": {"$ref": n_dong}, "op": "ge", "right": 1},
                   a={"$ref": n_dong}, b={"$ref": n_all})
        d.answer = {"$ref": c}
        part(d, "home_dong_cond", len(recs), dong=dong, gu=_gu(place), **slots)
        d.junctions.append("COND")
        return True
    elif ask in ("max", "mean"):
        # the price in 만원 as the catalog gives it, then in 원 (``WON_PER_MANWON``): the question
        # asks "얼마에" as people do, and the answer reads "3억 6,507만 원" (the mean to the 만원)
        m, _n = op(s, d, op=ask, **{"from": src}, field="dealAmount", round=0 if ask == "mean" else 4)
        c, _n = op(s, d, op="arith", fn="mul", a={"$ref": m}, b=WON_PER_MANWON)
    elif ask == "top":
        a, best = op(s, d, op="argmax", **{"from": src}, by="dealAmount", numeric=True)
        amounts = sorted((float(str(r.get("dealAmount")).replace(",", "") or 0) for r in recs), reverse=True)
        if not best or not best.get(name_field) or amounts[0] == amounts[1]:
            return False  # a tie would make "the priciest" two buildings
        d.answer = {"$ref": a, "field": name_field}
        part(d, "home_top", len(recs), **slots)
        d.junctions.append("DRV")
        return True
    else:
        raise EdgeError(f"ask={ask!r} is not a home-trade question; use one of count, dong, dong_cond, max, mean, top, cmp")
    d.answer = {"$ref": c}
    part(d, f"home_{ask}", len(recs), **slots)
    d.junctions.append("SEQ" if ask in ("count",) else "DRV")
    return True


# ---- schools ------------------------------------------------------------------------------------------
#: How many more times than the least-asked school one school may be asked in a run (per shard:
#: each shard has its own sampler).
SCHOOL_SPREAD = 2
#: The most of a run's school questions (per shard) one district may hold.
DISTRICT_SHARE = 0.25


def _school(s: Sampler, d: Draft, rng: Any, held: frozenset[str], tool: str,
            also: str | None = None) -> tuple[str, str, dict[str, Any]] | None:
    """A school whose ``tool`` records (and ``also``'s, if given) were recorded, by its name
    (unique in the school table): the school's name, its code and its record."""
    def rec(t: str) -> set[tuple[str, str]]:
        return {(str(f.get("ATPT_OFCDC_SC_CODE")), str(f.get("SD_SCHUL_CODE"))) for f in s._filters.get(t, [])
                if set(f) == {"ATPT_OFCDC_SC_CODE", "SD_SCHUL_CODE"}}

    have = rec(tool) & rec(also) if also else rec(tool)
    if "neis_school_major" in (tool, also):  # departments are asked of a school with several
        have = {k for k in have if len({str(r.get("DDDEP_NM")) for r in table(
            s, "neis_school_major", {"ATPT_OFCDC_SC_CODE": k[0], "SD_SCHUL_CODE": k[1]})}) >= MIN_DEPARTMENTS}
    schools = table(s, "neis_school_info", {})
    names = Counter(str(r.get("SCHUL_NM")) for r in schools)
    opts = sorted((str(r["SCHUL_NM"]), i) for i, r in enumerate(schools)
                  if (str(r.get("ATPT_OFCDC_SC_CODE")), str(r.get("SD_SCHUL_CODE"))) in have
                  and names[str(r.get("SCHUL_NM"))] == 1 and str(r.get("SCHUL_NM")) not in held
                  and _where(r))  # said with its district: a school's name alone is many schools
    opts = [o for o in opts if mine(s, [o[0]])]
    if not opts:
        return None
    # a school asked at most SCHOOL_SPREAD times more than the least-asked: few schools are
    # recorded, and one school drawn two or three times in 40 questions reads canned (outside
    # reads; a district with one recorded school had it asked 34 times in 1,000)
    uses: Counter[str] = vars(s).setdefault("_school_uses", Counter())
    least = min(uses[n] for n, _i in opts)
    opts = [o for o in opts if uses[o[0]] <= least + SCHOOL_SPREAD]
    # the district first, then a school in it: the recorded schools crowd into a few districts
    # (종로구 holds almost half), and a run should not read as one neighbourhood's
    regions = sorted({_where(schools[i]) for _n, i in opts})
    # and no district holds more than DISTRICT_SHARE of the school questions: meals and calendars
    # are recorded for 종로구's and 강남구's schools only, and 199 of 299 school questions of a
    # run named 서울 종로구 (nine of one blind read's 40)
    areas: Counter[str] = vars(s).setdefault("_district_uses", Counter())
    regions = [r for r in regions if areas[r] <= DISTRICT_SHARE * sum(areas.values())]
    if not regions:
        return None
    region = rng.choice(regions)
    # the least-asked school of the district
    here = [o for o in opts if _where(schools[o[1]]) == region]
    low = min(uses[n] for n, _i in here)
    name, i = rng.choice([o for o in here if uses[o[0]] == low])
    uses[name] += 1
    areas[region] += 1
    return name, str(schools[i].get("SD_SCHUL_CODE")), schools[i]


def _where(rec: dict[str, Any]) -> str:
    """Where a school is, as a parent says it: ``서울 성동구`` (from its road address)."""
    addr = str(rec.get("ORG_RDNMA") or "").split(" ")
    if len(addr) < 2:
        return ""
    city = re.sub(r"(특별시|광역시|특별자치시|특별자치도)$", "", addr[0])
    city = {"경기도": "경기", "강원도": "강원", "충청북도": "충북", "충청남도": "충남", "전라남도": "전남",
            "경상북도": "경북", "경상남도": "경남", "전북": "전북", "제주": "제주"}.get(city, city)
    return f"{city} {addr[1]}" if addr[1].endswith(("구", "시", "군")) else city


def _school_call(s: Sampler, d: Draft, name: str, tool: str, args: dict[str, str]) -> tuple[str, list[dict[str, Any]]]:
    s1, _r1 = s.call(d, "neis_school_info", {"SCHUL_NM": name})
    where = [{"field": "SCHUL_NM", "op": "eq", "value": name}]
    oref, office = pick(s, d, s1, where, "ATPT_OFCDC_SC_CODE")
    sref, code = pick(s, d, s1, where, "SD_SCHUL_CODE")
    s2, r2 = s.call(d, tool, args, bind={"ATPT_OFCDC_SC_CODE": bind(oref), "SD_SCHUL_CODE": bind(sref)})
    d.bound += [office, code]
    d.edges.append(("neis_school_info", tool))
    return s2, list(r2.records)


#: Days everyone knows the date of (a public holiday): no one asks a school's calendar for them.
_HOLIDAYS = frozenset({"어린이날", "광복절", "한글날", "개천절", "현충일", "기독탄신일", "성탄절", "삼일절", "3·1절",
                       "부처님오신날", "설날", "추석", "신정", "근로자의 날"})

#: The fewest departments a school's departments are asked of: "학과는 몇 개예요?" of a
#: general high school answers its one 일반과 (five of a sample of 40 did), which nobody asks.
MIN_DEPARTMENTS = 2

#: The fewest lunch days of a month whose lunch days are asked: a vacation month's few (August's
#: 10) is no month a parent counts.
MIN_LUNCH_DAYS = 15

#: Dishes on a school's table nearly every day (kimchi, rice, milk): nobody counts them as a
#: child's favourite (a blind read: "배추김치 as 아이가 좋아하는 메뉴"). A dish asked is also
#: served on at most a third of the month's lunches.
_STAPLES = re.compile(r"(김치|깍두기|석박지|겉절이|단무지|(?:쌀|백미|잡곡|현미|흑미|찰?보리|기장|귀리|수수|조|혼합곡|차조|녹미)밥$|^밥$|우유|요구르트)")
#: Tests an elementary school holds no date of (Seoul's elementary schools set no 중간·기말고사).
_EXAMS = re.compile(r"(고사|시험|평가)")

#: ``SBTR_DD_SC_NM`` of a calendar row on a school day (the others are 공휴일 and 휴업일).
_SCHOOL_DAY = "해당없음"

_ALLERGY = re.compile(r"\s*\([\d.\s]*\)\s*$")


def _dishes(menu: Any) -> list[str]:
    """A day's dishes without their allergy numbers: ``'훈제오리 (14)<br/>우유 (2)'`` → ``['훈제오리', '우유']``."""
    return [_ALLERGY.sub("", x).strip() for x in str(menu or "").split("<br/>") if _ALLERGY.sub("", x).strip()]


def _neis(s: Sampler, d: Draft, rng: Any, held: frozenset[str], ask: str) -> bool:
    """A school by its name → its codes → its classes, departments, lunches or calendar."""
    tool = {"classes": "neis_class_info", "grade": "neis_class_info", "majors": "neis_school_major",
            "dish": "neis_meal", "lunches": "neis_meal", "event_day": "neis_school_schedule",
            "events": "neis_school_schedule"}[ask]
    got = _school(s, d, rng, held, tool)
    if got is None:
        return False
    name, code, rec = got
    whole = table(s, tool, {"ATPT_OFCDC_SC_CODE": str(rec.get("ATPT_OFCDC_SC_CODE")), "SD_SCHUL_CODE": code})
    if not whole:
        return False
    slots: dict[str, Any] = {"school": name, "where": _where(rec)}
    if ask in ("classes", "grade"):
        years = sorted({str(r.get("AY")) for r in whole if r.get("AY")})
        if not years:
            return False
        ay = rng.choice(years)
        args = {"AY": ay}
        if ask == "grade":
            grades = sorted({str(r.get("GRADE")) for r in whole if str(r.get("AY")) == ay and r.get("GRADE")})
            if not grades:
                return False
            args["GRADE"] = rng.choice(grades)
            slots["grade"] = args["GRADE"]
        src, recs = _school_call(s, d, name, tool, args)
        if len(recs) < 2:
            return False
        c, _n = op(s, d, op="count", **{"from": src})
        slots["ay"] = ay
    elif ask == "majors":
        src, recs = _school_call(s, d, name, tool, {})
        if len({str(r.get("DDDEP_NM")) for r in recs}) != len(recs):
            return False
        c, _n = op(s, d, op="count", **{"from": src})
    elif ask in ("dish", "lunches"):
        months = sorted({str(r.get("MLSV_YMD"))[:6] for r in whole if len(str(r.get("MLSV_YMD"))) == 8})
        if not months:
            return False
        # a school month, not a vacation's few lunch days (blind reads: August's lunches, dishes)
        lunch = Counter(str(r.get("MLSV_YMD"))[:6] for r in whole if r.get("MMEAL_SC_NM") == "중식")
        months = [m for m in months if lunch[m] >= MIN_LUNCH_DAYS]
        if not months:
            return False
        ym = rng.choice(months)
        rows = [r for r in whole if str(r.get("MLSV_YMD")).startswith(ym) and r.get("MMEAL_SC_NM") == "중식"]
        slots["month"] = ym
        if ask == "dish":
            served = Counter(x for r in rows for x in set(_dishes(r.get("DDISH_NM"))))
            opts = sorted(k for k, v in served.items() if 2 <= v <= len(rows) // 3 and len(k) >= 2
                          and not any(k != o and k in o for o in served) and not re.search(r"\d", k)
                          and not _STAPLES.search(k))
            if not opts:
                return False
            dish = rng.choice(opts)
            slots["dish"] = dish
        src, recs = _school_call(s, d, name, tool, {"MLSV_YMD": ym})
        where = [{"field": "MMEAL_SC_NM", "op": "eq", "value": "중식"}]
        if ask == "dish":
            where.append({"field": "DDISH_NM", "op": "contains", "value": slots["dish"]})
        if len(recs) < 5:
            return False
        c, _n = op(s, d, op="count", **{"from": src}, where=where)
    else:  # the school calendar
        years = sorted({str(r.get("AY")) for r in whole if r.get("AY")})
        if not years:
            return False
        ay = rng.choice(years)
        rows = [r for r in whole if str(r.get("AY")) == ay]
        slots["ay"] = ay
        if ask == "event_day":
            once = Counter(str(r.get("EVENT_NM")) for r in rows)
            kind = str(rec.get("SCHUL_KND_SC_NM"))
            opts = sorted(k for k, v in once.items() if v == 1 and k and k not in held and k not in _HOLIDAYS
                          and not re.search(r"\d", k) and not (kind == "초등학교" and _EXAMS.search(k))
                          and (k != "대학수학능력시험" or str(rec.get("SCHUL_KND_SC_NM")) == "고등학교"))
            if not opts:
                return False
            event = rng.choice(opts)
            src, _recs = _school_call(s, d, name, tool, {})
            ref, _day = pick(s, d, src, [{"field": "AY", "op": "eq", "value": ay},
                                         {"field": "EVENT_NM", "op": "eq", "value": event}], "AA_YMD")
            d.answer = ref
            part(d, "school_event_day", len(whole), event=event, **slots)
            d.junctions.append("SEQ")
            return True
        # the events of school days: the calendar's 공휴일 and 휴업일 rows (holidays, 방학, 재량휴업일)
        # are no school event, and the question says so (blind reads: 「학교 행사가 몇 개」 of an
        # August counted its vacation rows)
        months = Counter(str(r.get("AA_YMD"))[:6] for r in rows if r.get("SBTR_DD_SC_NM") == _SCHOOL_DAY)
        opts = sorted(k for k, v in months.items() if v >= 2)
        if not opts:
            return False
        ym = rng.choice(opts)
        slots["month"] = ym
        src, recs = _school_call(s, d, name, tool, {"AA_YMD": ym})
        c, _n = op(s, d, op="count", **{"from": src}, where=[{"field": "SBTR_DD_SC_NM", "op": "eq", "value": _SCHOOL_DAY}])
    d.answer = {"$ref": c}
    part(d, f"school_{ask}", len(whole), **slots)
    d.junctions.append("SEQ")
    return True


def _i(name: str, platform: str, fn: Any, ask: str, weight: float = 1.0) -> Intent:
    return Intent(name, platform, lambda s, d, rng, held: fn(s, d, rng, held, ask), weight)


#: Intents drawn less often than their platform's others: a month's lunch days read alike from
#: one school to the next (four of 40 in a blind read, the same template); a school's classes
#: (whole, or one grade's) were five of 40 in another.
_WEIGHTS = {"school_lunches": 0.5, "home_dong_cond": 0.1, "home_cmp": 0.5, "school_classes": 0.5, "school_grade": 0.5}


#: The intents of this module, by platform.
LOCAL_INTENTS: dict[str, tuple[Intent, ...]] = {
    "molit": tuple(_i(f"home_{a}", "molit", _home, a, _WEIGHTS.get(f"home_{a}", 1.0))
                   for a in ("count", "dong", "dong_cond", "max", "mean", "top", "cmp")),
    "neis": tuple(_i(f"school_{a}", "neis", _neis, a, _WEIGHTS.get(f"school_{a}", 1.0))
                  for a in ("classes", "grade", "majors", "dish", "lunches", "event_day", "events")),
}
