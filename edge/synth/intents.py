"""Questions people ask of a platform, each with the chain that answers it (issue 28, item 4).

The generic sampler (:mod:`edge.synth.sample`) walks any verified edge and phrases what it
computed; for some platforms no walk it takes is a question a person asks (law.go.kr's
statutes and ordinances are read by their title, a bus stop by its name in a city, a bill by
its number from the news). An **intent** is one such question written by hand for its
platform, with the chain that answers it *starting from the name a person knows*: the chain
looks the code up (a statute's 법령일련번호 from its title, a city's code and a stop's node id
from their names, a member's code from the bill), which is what EDGE teaches.

An intent draws its entity from the recorded tables (read whole here, never shown), only
among entities whose onward calls were recorded and that the bench does not use, and builds
its draft with the sampler's executed steps (:meth:`Sampler.call`): the same checks, filters
and content hold-out apply to it as to any draft. The question is written from the intent's
own templates (:mod:`edge.synth.asks`), in several forms and both registers.

The synthesis draws the sampler's walks while they have made under :data:`GENERIC_SHARE` of
the examples, and otherwise an intent of the platform furthest under its :data:`SHARES`
(:func:`wanted`); more intents, for where people live, are in :mod:`edge.synth.intents_local`,
and those that join several calls (FAN, SEM, COND) in :mod:`edge.synth.intents_multi`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..observe import scalar
from .execute import CallFailed, ProgramError
from .intents_local import LOCAL_INTENTS
from .intents_multi import COND_WEIGHT, MULTI_INTENTS
from .intent_kit import Intent, bind as _bind, mine as _mine, op as _op, part as _part, pick as _pick, real_companies as _real, recorded as _recorded, table as _table
from .sample import Draft, Sampler

__all__ = ["GENERIC_SHARE", "INTENTS", "SHARES", "Intent", "build_intent", "spare", "wanted"]

#: The share of a run's examples each platform's intents aim at (an intent is drawn for the
#: platform furthest under its aim). They add up to about the whole (0.93 since neis aims at 16 %,
#: stop 40: its meals and calendars are of two districts' schools, capped by
#: ``intents_local.DISTRICT_SHARE``, and at 30 % class counts filled the rest, 120 of 1,000); a
#: platform whose intents run out (few entities recorded) leaves its room to the others still
#: making examples (:func:`spare`), not to the sampler's walks: those make :data:`GENERIC_SHARE` (a fallback since the FAN, SEM and COND intents of
#: :mod:`edge.synth.intents_multi`), and more only when every platform's intents have run out. Questions written for a platform read as
#: people ask them; the generic grammar phrases what a walk computed, which reads stilted more
#: often (docs/synthesis.md, *Platform intents*).
SHARES: dict[str, float] = {"molit": 0.32, "neis": 0.16, "lawgokr": 0.11, "tago": 0.08, "assembly": 0.07,
                            "seoul": 0.05, "nec": 0.05, "fsc": 0.04, "opendart": 0.05}
#: The share of examples made by the sampler's walks (drawn first while under it). None now: the
#: walks' generic grammar read stilted or unnatural in every outside blind read ("'제8회
#: 전국동시지방선거', '제21대 대통령선거'의 참여 정당 수를 다 더하면", "부산과 천안시 중 … 겨루면");
#: they run only when every platform's intents have run out (:func:`spare` gives None).
GENERIC_SHARE = 0.0


# ---- law.go.kr ----------------------------------------------------------------------------------
#: Article titles nearly every statute and ordinance has in the same place (제1조 목적, 제2조
#: 정의): asking which article is the 목적, or what 제1조 is about, asks what anyone knows
#: without looking (a blind read: "제1조의 제목" is data-shaped).
_BOILERPLATE = frozenset({"목적", "정의", "시행일", "시행령", "시행규칙", "다른 법률과의 관계", "적용범위", "적용 범위"})


def _law(s: Sampler, d: Draft, rng: Any, held: frozenset[str], ask: str) -> bool:
    """A statute by its title → its 법령일련번호 (search) → its text (detail) → articles."""
    table = _table(s, "lawgokr_law_search", {})
    have = _recorded(s, "lawgokr_law_detail", "MST")
    names = Counter(str(r.get("법령명한글")) for r in table)
    cands = sorted({str(r["법령명한글"]) for r in table if str(r.get("법령일련번호")) in have
                    and names[str(r["법령명한글"])] == 1 and str(r["법령명한글"]) not in held})
    if not cands:
        return False
    cands = _mine(s, cands)
    if not cands:
        return False
    name = rng.choice(cands)
    s1, r1 = s.call(d, "lawgokr_law_search", {"query": name})
    ref, mst = _pick(s, d, s1, [{"field": "법령명한글", "op": "eq", "value": name}], "법령일련번호")
    s2, r2 = s.call(d, "lawgokr_law_detail", {}, bind={"MST": _bind(ref)})
    d.bound.append(mst)
    d.edges.append(("lawgokr_law_search", "lawgokr_law_detail"))
    u, arts = _op(s, d, op="unnest", **{"from": s2}, field="조문.조문단위")
    arts = [a for a in arts if a.get("조문여부") == "조문"]
    if len(arts) < 3:
        return False
    if ask == "count":
        # articles, not 장·절 headings ("contains": a kind, not an entity the bench names)
        f, _ = _op(s, d, op="filter", **{"from": u}, where=[{"field": "조문여부", "op": "contains", "value": "조문"}])
        c, _n = _op(s, d, op="count", **{"from": f})
        d.answer = {"$ref": c}
        _part(d, "law_articles", len(r1.records), name=name)
    else:
        titles = Counter(str(a.get("조문제목")) for a in arts)
        if ask == "title":
            opts = [a for a in arts if a.get("조문번호") and a.get("조문제목") and "의" not in str(a["조문번호"])
                    and str(a["조문제목"]) not in _BOILERPLATE]
            if not opts:
                return False
            a = rng.choice(opts)
            ref2, _t = _pick(s, d, u, [{"field": "조문여부", "op": "contains", "value": "조문"},
                                       {"field": "조문번호", "op": "eq", "value": str(a["조문번호"])}], "조문제목")
            d.answer = ref2
            _part(d, "law_article_title", len(r1.records), name=name, no=str(a["조문번호"]))
        else:  # which article is about a subject
            opts = [a for a in arts if a.get("조문제목") and titles[str(a["조문제목"])] == 1
                    and str(a["조문제목"]) not in name and len(str(a["조문제목"])) >= 2
                    and str(a["조문제목"]) not in _BOILERPLATE]
            if not opts:
                return False
            a = rng.choice(opts)
            ref2, _t = _pick(s, d, u, [{"field": "조문제목", "op": "eq", "value": str(a["조문제목"])}], "조문번호")
            d.answer = ref2
            _part(d, "law_article_about", len(r1.records), name=name, title=str(a["조문제목"]))
    d.junctions.append("SEQ")
    return True


def _ordin_articles(s: Sampler, mst: str) -> int:
    """The articles (조) of the recorded ordinance ``mst`` (read whole, never shown)."""
    rows = _table(s, "lawgokr_ordin_detail", {"MST": mst})
    arts = (rows[0].get("조문") or {}).get("조") if rows and isinstance(rows[0].get("조문"), dict) else None
    arts = arts if isinstance(arts, list) else [arts] if isinstance(arts, dict) else []
    return sum(1 for a in arts if isinstance(a, dict) and a.get("조문여부") == "Y")


def _ordinance(s: Sampler, d: Draft, rng: Any, held: frozenset[str], ask: str) -> bool:
    """An ordinance (조례·규칙) by its title → 자치법규일련번호 → its text → articles."""
    table = _table(s, "lawgokr_ordin_search", {})
    have = _recorded(s, "lawgokr_ordin_detail", "MST")
    names = Counter(str(r.get("자치법규명")) for r in table)
    cands = sorted({str(r["자치법규명"]) for r in table if str(r.get("자치법규일련번호")) in have
                    and names[str(r["자치법규명"])] == 1 and str(r["자치법규명"]) not in held})
    if not cands:
        return False
    cands = _mine(s, cands)
    if not cands:
        return False
    name = rng.choice(cands)
    s1, r1 = s.call(d, "lawgokr_ordin_search", {"query": name})
    ref, mst = _pick(s, d, s1, [{"field": "자치법규명", "op": "eq", "value": name}], "자치법규일련번호")
    s2, _r2 = s.call(d, "lawgokr_ordin_detail", {}, bind={"MST": _bind(ref)})
    d.bound.append(mst)
    d.edges.append(("lawgokr_ordin_search", "lawgokr_ordin_detail"))
    u, arts = _op(s, d, op="unnest", **{"from": s2}, field="조문.조")
    arts = [a for a in arts if a.get("조문여부") == "Y"]
    if len(arts) < 3:
        return False
    if ask == "count":
        # a count every ordinance shares teaches no lookup (the answer is known without a call:
        # on kopa@v0007 every ordinance has 6 articles, and 22 of 22 such questions answered 6)
        if len({_ordin_articles(s, m) for m in sorted(have)[:8]} | {len(arts)}) < 2:
            return False
        f, _ = _op(s, d, op="filter", **{"from": u}, where=[{"field": "조문여부", "op": "eq", "value": "Y"}])
        c, _n = _op(s, d, op="count", **{"from": f})
        d.answer = {"$ref": c}
        _part(d, "ordin_articles", len(r1.records), name=name)
    else:
        a = rng.choice([a for a in arts if a.get("조제목") and str(a.get("조문번호", "")).isdigit()
                        and str(a["조제목"]) not in _BOILERPLATE] or [{}])
        if not a:
            return False
        ref2, _t = _pick(s, d, u, [{"field": "조문번호", "op": "eq", "value": str(a["조문번호"])}], "조제목")
        d.answer = ref2
        _part(d, "ordin_article_title", len(r1.records), name=name, no=str(int(str(a["조문번호"]))))
    d.junctions.append("SEQ")
    return True


# ---- TAGO -----------------------------------------------------------------------------------------
def _tago_stop(s: Sampler, d: Draft, rng: Any, held: frozenset[str], ask: str) -> bool:
    """A stop by its name in a city → the city's code and the stop's node id → what stops there."""
    target = "tago_station_routes" if ask != "arrivals" else "tago_station_arrivals"
    node_param = "nodeid" if target == "tago_station_routes" else "nodeId"
    rec = [(str(f.get("cityCode")), str(f.get(node_param))) for f in s._filters.get(target, [])]
    cities = {str(r["citycode"]): str(r["cityname"]) for r in _table(s, "tago_city_codes", {})}
    opts = []
    for code, node in rec:
        stops = _table(s, "tago_stations_by_name", {"cityCode": code})
        names = Counter(str(r.get("nodenm")) for r in stops)
        for r in stops:
            nm = str(r.get("nodenm"))
            if str(r.get("nodeid")) == node and names[nm] == 1 and nm not in held and code in cities \
                    and not any(nm != o and nm in o for o in names):  # the name finds this stop alone
                opts.append((code, nm))
    if not opts:
        return False
    opts = _mine(s, sorted(opts))
    if not opts:
        return False
    code, stop = rng.choice(opts)
    city = cities[code]
    s1, _r1 = s.call(d, "tago_city_codes", {})
    cref, _c = _pick(s, d, s1, [{"field": "cityname", "op": "eq", "value": city}], "citycode")
    s2, r2 = s.call(d, "tago_stations_by_name", {"nodeNm": stop}, bind={"cityCode": _bind(cref)})
    nref, node = _pick(s, d, s2, [{"field": "nodenm", "op": "eq", "value": stop}], "nodeid")
    s3, r3 = s.call(d, target, {}, bind={"cityCode": _bind(cref), node_param: _bind(nref)})
    d.bound += [code, node]
    d.edges += [("tago_city_codes", "tago_stations_by_name"), ("tago_stations_by_name", target)]
    if len(r3.records) < 2:
        return False
    if ask == "routes":
        c, _n = _op(s, d, op="count", **{"from": s3})
        d.answer = {"$ref": c}
        _part(d, "tago_stop_routes", len(r3.records), city=city, stop=stop)
    elif ask == "route_type":
        kinds = Counter(str(r.get("routetp")) for r in r3.records if r.get("routetp"))
        if len(kinds) < 2:
            return False
        kind = rng.choice(sorted(kinds))
        c, _n = _op(s, d, op="count", **{"from": s3}, where=[{"field": "routetp", "op": "eq", "value": kind}])
        d.answer = {"$ref": c}
        _part(d, "tago_stop_route_type", len(r3.records), city=city, stop=stop, kind=kind)
    else:  # the bus that comes first (a person waiting asks which, not how many are listed)
        times = sorted(float(str(r.get("arrtime") or "nan")) for r in r3.records)
        if len(times) < 2 or times[0] == times[1] or times[0] != times[0]:
            return False  # a tie (or no time) names no one bus
        a, _first = _op(s, d, op="argmin", **{"from": s3}, by="arrtime", numeric=True)
        d.answer = {"$ref": a, "field": "routeno"}
        _part(d, "tago_stop_arrivals", len(r3.records), city=city, stop=stop)
        d.junctions.append("DRV")
        return True
    d.junctions.append("SEQ")
    return True


# ---- Seoul -------------------------------------------------------------------------------------------
def _seoul_busiest(s: Sampler, d: Draft, rng: Any, held: frozenset[str], ask: str) -> bool:
    """The busiest (or quietest) station of a line on a day (ridership) → the busiest one's lines,
    or either one's English name (for a guide to visitors). No trains arriving *now* at a station
    picked from a past day's figures: two times glued together (a blind read)."""
    bases = [f for f in s._filters.get("seoul_card_subway_stats", []) if "USE_YMD" in f]
    if not bases:
        return False
    day = str(rng.choice(bases)["USE_YMD"])
    rows = _table(s, "seoul_card_subway_stats", {"USE_YMD": day})
    lines = sorted({str(r["SBWY_ROUT_LN_NM"]) for r in rows if r.get("SBWY_ROUT_LN_NM")})
    if not lines:
        return False
    lines_at = Counter(str(r.get("STATION_NM")) for r in _table(s, "seoul_subway_station_by_name", {}))
    opts: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str, str]] = set()
    for line in lines:  # the busiest station of each line, known before asking: only those answerable
        mine = [r for r in rows if r.get("SBWY_ROUT_LN_NM") == line]
        for key in ("GTON_TNOPE", "GTOFF_TNOPE"):
            for op, pick in (("argmax", max), ("argmin", min)) if ask == "eng" else (("argmax", max),):
                top = pick(mine, key=lambda r: float(r.get(key) or 0))
                st = str(top.get("SBWY_STNS_NM"))
                if lines_at[st] >= (2 if ask == "lines" else 1) and (line, op, st) not in seen:
                    seen.add((line, op, st))  # one station asked once (its 승차 and 하차 extremes agree)
                    opts.append((line, key, op))
    if not opts:
        return False
    opts = _mine(s, opts)
    if not opts:
        return False
    line, key, op = rng.choice(opts)
    s1, r1 = s.call(d, "seoul_card_subway_stats", {"USE_YMD": day, "SBWY_ROUT_LN_NM": line})
    a, best = _op(s, d, op=op, **{"from": s1}, by=key, numeric=True)
    if not best:
        return False
    ref = {"$ref": a, "field": "SBWY_STNS_NM"}
    station = str(scalar(best[0].get("SBWY_STNS_NM")) if isinstance(best, list) else scalar(best.get("SBWY_STNS_NM")))
    s2, r2 = s.call(d, "seoul_subway_station_by_name", {}, bind={"STATION_NM": _bind(ref)})
    d.edges.append(("seoul_card_subway_stats", "seoul_subway_station_by_name"))
    name = "seoul_busiest_" + ask
    d.bound.append(station)
    if ask == "eng":
        eng, _e = _pick(s, d, s2, [], "STATION_NM_ENG")
        d.answer = eng
    else:
        if len(r2.records) < 2:
            return False
        c, _n = _op(s, d, op="count", **{"from": s2})
        d.answer = {"$ref": c}
    _part(d, name, len(r1.records), day=day, line=line, who="승차" if key == "GTON_TNOPE" else "하차",
          most="가장 많았던" if op == "argmax" else "가장 적었던")
    d.junctions.append("DRV")
    return True


# ---- FSC ------------------------------------------------------------------------------------------------
_STOCK_WORDS = ("바이오", "전자", "제약", "화학", "금융", "에너지", "건설", "증권", "반도체", "엔터", "생명", "테크",
                "소재", "산업", "홀딩스", "디스플레이", "게임즈", "푸드", "로직스", "모빌리티", "헬스케어", "중공업")


#: How the top (and, for a price or a change, the bottom) of each ranked stock field is said.
_FSC_MOST = {"trqu": ("가장 많았던", None), "mrktTotAmt": ("가장 컸던", None), "trPrc": ("가장 컸던", None),
             "clpr": ("가장 높았던", "가장 낮았던"), "fltRt": ("가장 높았던", "가장 낮았던")}


def _fsc_top(s: Sampler, d: Draft, rng: Any, held: frozenset[str], ask: str) -> bool:
    """Stocks whose name has a word, on a day → the one traded most (or worth most) → its
    company's registered name (the listing table)."""
    bases = [f for f in s._filters.get("fsc_stock_prices", []) if "basDt" in f]
    items = [f for f in s._filters.get("fsc_listed_items", []) if "basDt" in f]
    if not bases or not items:
        return False
    day = str(bases[0]["basDt"])
    if day not in {str(f["basDt"]) for f in items}:
        return False
    rows = _table(s, "fsc_stock_prices", {"basDt": day})
    real = _real(s)  # a group holding a real company would rank its invented figures: left out
    words = [(w, m) for w in _STOCK_WORDS for m in ("KOSPI", "KOSDAQ")
             if 3 <= sum(1 for r in rows if w in str(r.get("itmsNm")) and r.get("mrktCtg") == m) <= 40
             and not any(w in str(r.get("itmsNm")) and r.get("mrktCtg") == m and str(r.get("itmsNm")) in real
                         for r in rows)]
    if not words:
        return False
    words = _mine(s, words)
    if not words:
        return False
    word, market = rng.choice(words)
    from .semantics import allowed, field_type

    keys = [k for k in ("trqu", "mrktTotAmt", "clpr", "fltRt", "trPrc")
            if allowed("argmax", field_type(s.catalog, "fsc_stock_prices", k))]
    if not keys:
        return False
    key = rng.choice(keys)
    # the least of a size nobody looks for ("시가총액이 가장 작은"): only a price or a change
    # is asked both ways (:data:`_FSC_MOST`)
    op = rng.choice(("argmax", "argmin")) if _FSC_MOST[key][1] else "argmax"
    s1, r1 = s.call(d, "fsc_stock_prices", {"basDt": day, "likeItmsNm": word, "mrktCls": market})
    a, best = _op(s, d, op=op, **{"from": s1}, by=key, numeric=True)
    rec = best[0] if isinstance(best, list) else best
    if not rec or str(rec.get("itmsNm")) in held or str(rec.get("itmsNm")) in real:
        return False
    s2, r2 = s.call(d, "fsc_listed_items", {"basDt": day}, bind={"itmsNm": _bind({"$ref": a, "field": "itmsNm"})})
    d.bound.append(str(rec.get("itmsNm")))
    d.edges.append(("fsc_stock_prices", "fsc_listed_items"))
    field = "corpNm" if ask == "corp" else "crno"
    ref, _v = _pick(s, d, s2, [], field)
    d.answer = ref
    _part(d, "fsc_top_" + ask, len(r1.records), day=day, word=word, key=key, market=market,
          most=_FSC_MOST[key][0 if op == "argmax" else 1])
    d.junctions.append("DRV")
    return True


# ---- OpenDART (by the company's name, through FSC's company outline) -----------------------------------
#: The consolidated account an OpenDART revenue or profit question reads (fnlttSinglAcnt, 사업보고서).
_ACCOUNTS = {"revenue": "매출액", "profit": "영업이익"}


def _dart_by_name(s: Sampler, d: Draft, rng: Any, held: frozenset[str], ask: str) -> bool:
    """A company by its name → FSC getCorpOutline_V2 (``corpNm``) → its FSS unique number
    (``fssCorpUnqNo`` = OpenDART ``corp_code``) → an OpenDART call about it: its CEO (company),
    its 2024 consolidated revenue or operating profit (single account, 사업보고서) or its 2024
    disclosures (list).

    Only a company the recording holds data for (its outline and the OpenDART call were
    recorded and answer records), and on a synthetic world only an invented one
    (:func:`~edge.synth.intent_kit.real_companies`): a real company's figures there are not facts."""
    real = _real(s)
    names = sorted(str(f["corpNm"]) for f in s._filters.get("fsc_corp_outline_v2", [])
                   if set(f) == {"corpNm"} and str(f["corpNm"]) not in held and str(f["corpNm"]) not in real)
    tool, args = {"ceo": ("opendart_company", {}),
                  "revenue": ("opendart_single_account", {"bsns_year": "2024", "reprt_code": "11011"}),
                  "profit": ("opendart_single_account", {"bsns_year": "2024", "reprt_code": "11011"}),
                  "disclosures": ("opendart_disclosures", {"bgn_de": "20240101", "end_de": "20241231"})}[ask]
    have = {str(f["corp_code"]) for f in s._filters.get(tool, [])
            if "corp_code" in f and {k: str(v) for k, v in f.items() if k != "corp_code"} == args}
    if not names or not have:
        return False
    names = _mine(s, names)
    if not names:
        return False
    name = rng.choice(names)
    rows = _table(s, "fsc_corp_outline_v2", {"corpNm": name})
    if len(rows) != 1 or str(rows[0].get("fssCorpUnqNo")) not in have:
        return False
    s1, r1 = s.call(d, "fsc_corp_outline_v2", {"corpNm": name})
    ref, corp = _pick(s, d, s1, [], "fssCorpUnqNo")
    s2, r2 = s.call(d, tool, dict(args), bind={"corp_code": _bind(ref)})
    d.bound.append(corp)
    d.edges.append(("fsc_corp_outline_v2", tool))
    if ask == "ceo":
        if not r2.records or not scalar(r2.records[0].get("ceo_nm")):
            return False
        ref2, _v = _pick(s, d, s2, [], "ceo_nm")
        d.answer = ref2
    elif ask in ("revenue", "profit"):
        # the account by "contains": an account name is a kind, not an entity the bench names (an
        # "eq" filter value counts as one: 매출액 is a bench constant, so every revenue draft was
        # held out as a bench entity, 0 of 1,000); the statement's accounts name 매출액 once
        where = [{"field": "account_nm", "op": "contains", "value": _ACCOUNTS[ask]},
                 {"field": "fs_div", "op": "eq", "value": "CFS"}]
        ref2, _v = _pick(s, d, s2, where, "thstrm_amount")
        d.answer = ref2
    else:
        if not r2.records:
            return False
        c, _n = _op(s, d, op="count", **{"from": s2})
        d.answer = {"$ref": c}
    _part(d, "dart_" + ask, len(r1.records), name=name)
    d.junctions.append("SEQ")
    return True


# ---- National Assembly ----------------------------------------------------------------------------------
def _bill_sponsor(s: Sampler, d: Draft, rng: Any, held: frozenset[str], ask: str) -> bool:
    """A bill by its number (from the news) → its lead sponsor's member code → the member."""
    bases = [f for f in s._filters.get("assembly_member_bills", []) if "AGE" in f]
    if not bases:
        return False
    age = str(bases[0]["AGE"])
    rows = _table(s, "assembly_member_bills", {"AGE": age})
    opts = [r for r in rows if r.get("BILL_NO") and r.get("RST_MONA_CD") and r.get("BILL_NAME")
            and str(r["BILL_NO"]) not in held and str(r["BILL_NAME"]) not in held]
    if not opts:
        return False
    opts = [r for r in opts if _mine(s, [str(r["BILL_NO"])])]
    if not opts:
        return False
    bill = rng.choice(opts)
    s1, r1 = s.call(d, "assembly_member_bills", {"AGE": age, "BILL_NO": str(bill["BILL_NO"])})
    ref, mona = _pick(s, d, s1, [], "RST_MONA_CD")
    s2, r2 = s.call(d, "assembly_members", {}, bind={"MONA_CD": _bind(ref)})
    d.bound.append(mona)
    d.edges.append(("assembly_member_bills", "assembly_members"))
    field = {"district": "ORIG_NM", "party": "POLY_NM", "committee": "CMIT_NM", "terms": "REELE_GBN_NM"}[ask]
    if not r2.records or not scalar(r2.records[0].get(field)):
        return False
    if ask == "district" and str(r2.records[0].get("ELECT_GBN_NM")) != "지역구":
        return False
    ref2, _v = _pick(s, d, s2, [], field)
    d.answer = ref2
    _part(d, "bill_sponsor_" + ask, len(r1.records), age=age, bill=str(bill["BILL_NO"]),
          bname=str(bill.get("BILL_NAME") or "법률안"))
    d.junctions.append("SEQ")
    return True


# ---- NEC -----------------------------------------------------------------------------------------------
#: Elections people name by their office (sgTypecode → what the question calls it).
_OFFICES = {"3": ("시·도지사",), "4": ("시장·군수·구청장",)}  # not 광역/기초단체장: report words, in the usual order (blind reads)


def _vote(year: str, ty: str, office: str) -> dict[str, str]:
    """An election as people say it, three ways (the NEC forms' ``{vote}``, ``{vote_held}``,
    ``{vote_of}``): "2022년 지방선거 시장·군수·구청장 선거", "2024년 국회의원 선거"."""
    if ty == "2":
        return {"vote": f"{year}년 국회의원 선거", "vote_held": f"{year}년에 치러진 국회의원 선거",
                "vote_of": f"{year}년 국회의원 선거"}
    return {"vote": f"{year}년 지방선거 {office} 선거", "vote_held": f"{year}년 지방선거 때 치러진 {office} 선거",
            "vote_of": f"{year}년 지방선거의 {office} 선거"}


def _election(s: Sampler, d: Draft, rng: Any, held: frozenset[str], ask: str) -> bool:
    """An election by its date and office → its sgId and type (the election-code table) →
    its winners or candidates in a province (or nationwide for governors), by party."""
    tool = "nec_winners" if ask == "winners" else "nec_candidates"
    gold_free = []
    codes = _table(s, "nec_election_codes", {})
    #: the questions say 지방선거: a 재·보궐선거 that elects a 구청장 is not one; a general
    #: election (국회의원선거, by province) is said as one (``_vote``)
    local = {str(r.get("sgId")) for r in codes if str(r.get("sgTypecode")) == "0" and "지방선거" in str(r.get("sgName"))}
    general = {str(r.get("sgId")) for r in codes if str(r.get("sgTypecode")) == "0" and "국회의원선거" in str(r.get("sgName"))}
    for f in s._filters.get(tool, []):
        sg, ty = str(f.get("sgId")), str(f.get("sgTypecode"))
        if set(f) <= {"sgId", "sgTypecode"} and ((ty in _OFFICES and sg in local) or (ty == "2" and sg in general)):
            gold_free.append((sg, ty))
    if not gold_free:
        return False
    sg, ty = rng.choice(sorted(gold_free))
    row = next((r for r in codes if str(r.get("sgId")) == sg and str(r.get("sgTypecode")) == ty), None)
    if row is None:
        return False
    rows = _table(s, tool, {"sgId": sg, "sgTypecode": ty})
    provinces = sorted({str(r["sdName"]) for r in rows if r.get("sdName")})
    region = rng.choice(provinces) if ty in ("2", "4") and provinces else ""
    mine = [r for r in rows if not region or r.get("sdName") == region]
    parties = sorted({str(r["jdName"]) for r in mine if r.get("jdName")} - held)
    if len(mine) < 3:
        return False
    s1, _r1 = s.call(d, "nec_election_codes", {})
    where = [{"field": "sgVotedate", "op": "eq", "value": str(row.get("sgVotedate"))},
             {"field": "sgTypecode", "op": "eq", "value": ty}]
    f1, recs = _op(s, d, op="filter", **{"from": s1}, where=where)
    if len(recs) != 1:
        return False
    args = {"sdName": region} if region else {}
    s2, r2 = s.call(d, tool, args, bind={"sgId": _bind({"$ref": f1, "field": "sgId", "pick": "first"}),
                                         "sgTypecode": _bind({"$ref": f1, "field": "sgTypecode", "pick": "first"})})
    d.bound += [sg, ty]
    d.edges.append(("nec_election_codes", tool))
    office = rng.choice(_OFFICES.get(ty, ("국회의원",)))
    said = _vote(str(row.get("sgVotedate"))[:4], ty, office)
    if parties and (ask == "winners" or rng.random() < 0.5):
        party = rng.choice(parties)
        c, _n = _op(s, d, op="count", **{"from": s2}, where=[{"field": "jdName", "op": "eq", "value": party}])
        _part(d, "nec_" + ("winners" if ask == "winners" else "candidates") + "_party", len(r2.records),
              year=str(row.get("sgVotedate"))[:4], office=office, region=region or "전국", party=party, **said)
    else:
        c, _n = _op(s, d, op="count", **{"from": s2})
        _part(d, "nec_" + ("winners" if ask == "winners" else "candidates"), len(r2.records),
              year=str(row.get("sgVotedate"))[:4], office=office, region=region or "전국", **said)
    d.answer = {"$ref": c}
    d.junctions.append("SEQ")
    return True


def _election_cond(s: Sampler, d: Draft, rng: Any, held: frozenset[str]) -> bool:
    """COND with a reason in its own words: how many winners a party had in a province (or
    nationwide), and if it had none, how many candidates it fielded instead ("당선자를 몇 명
    냈어요? 한 명도 없었다면 후보는 몇 명 냈는지라도") — a small party's showing, as people ask
    it. The threshold is one winner, not an arbitrary count; both calls stay in the program, the
    candidates' guarded (``lt`` 1), and ``choose`` answers the winners when there are any."""
    codes = _table(s, "nec_election_codes", {})
    local = {str(r.get("sgId")) for r in codes if str(r.get("sgTypecode")) == "0" and "지방선거" in str(r.get("sgName"))}

    def recorded_for(tool: str) -> set[tuple[str, str]]:
        return {(str(f.get("sgId")), str(f.get("sgTypecode"))) for f in s._filters.get(tool, [])
                if str(f.get("sgTypecode")) in _OFFICES and set(f) <= {"sgId", "sgTypecode"} and str(f.get("sgId")) in local}

    both = sorted(recorded_for("nec_winners") & recorded_for("nec_candidates"))
    if not both:
        return False
    sg, ty = rng.choice(both)
    row = next((r for r in codes if str(r.get("sgId")) == sg and str(r.get("sgTypecode")) == ty), None)
    if row is None:
        return False
    cands = _table(s, "nec_candidates", {"sgId": sg, "sgTypecode": ty})
    provinces = sorted({str(r["sdName"]) for r in cands if r.get("sdName")})
    region = rng.choice(provinces) if ty == "4" and provinces else ""
    fielded = Counter(str(r["jdName"]) for r in cands if r.get("jdName") and (not region or r.get("sdName") == region))
    parties = _mine(s, sorted((p, sg, ty, region) for p, n in fielded.items() if n >= 2 and p not in held))
    if not parties:
        return False
    party = rng.choice(parties)[0]
    s1, _r1 = s.call(d, "nec_election_codes", {})
    f1, recs = _op(s, d, op="filter", **{"from": s1}, where=[
        {"field": "sgVotedate", "op": "eq", "value": str(row.get("sgVotedate"))}, {"field": "sgTypecode", "op": "eq", "value": ty}])
    if len(recs) != 1:
        return False
    binds = {"sgId": _bind({"$ref": f1, "field": "sgId", "pick": "first"}),
             "sgTypecode": _bind({"$ref": f1, "field": "sgTypecode", "pick": "first"})}
    args = {"sdName": region} if region else {}
    s2, r2 = s.call(d, "nec_winners", args, bind=binds)
    d.bound += [sg, ty]
    d.edges.append(("nec_election_codes", "nec_winners"))
    won = [{"field": "jdName", "op": "eq", "value": party}]
    w, n_won = _op(s, d, op="count", **{"from": s2}, where=won)
    guard = {"ref": {"$ref": w}, "lt": 1}  # the candidates are read only when the party won nothing
    s3, r3 = s.call(d, "nec_candidates", args, bind=binds, guard=guard)
    if n_won >= 1:  # not run on this version: it must answer here too (another version may take it)
        rows = s.ex.step(d.steps[-1].model_copy(update={"when": None}), s.values(d))[0]
    else:
        rows = list(r3.records)
    if sum(1 for r in rows if r.get("jdName") == party) < 2:
        return False
    d.edges.append(("nec_election_codes", "nec_candidates"))
    c, _c = s.reduce(d, {"op": "count", "from": s3, "where": {"field": "jdName", "value": party}, "if": guard})
    cid, _ans = _op(s, d, op="choose", test={"left": {"$ref": w}, "op": "ge", "right": 1}, a={"$ref": w}, b=c)
    d.answer = {"$ref": cid}
    office = rng.choice(_OFFICES[ty])
    _part(d, "nec_cond", len(r2.records), year=str(row.get("sgVotedate"))[:4], office=office,
          region=region or "전국", party=party, **_vote(str(row.get("sgVotedate"))[:4], ty, office))
    d.junctions.append("COND")
    return True


def _i(name: str, platform: str, fn: Callable[..., bool], ask: str) -> Intent:
    return Intent(name, platform, lambda s, d, rng, held: fn(s, d, rng, held, ask))


#: Every intent, by platform.
INTENTS: dict[str, tuple[Intent, ...]] = {
    "lawgokr": (_i("law_articles", "lawgokr", _law, "count"), _i("law_article_title", "lawgokr", _law, "title"),
                _i("law_article_about", "lawgokr", _law, "about"),
                _i("ordin_articles", "lawgokr", _ordinance, "count"),
                _i("ordin_article_title", "lawgokr", _ordinance, "title")),
    "tago": (_i("tago_stop_routes", "tago", _tago_stop, "routes"), _i("tago_stop_route_type", "tago", _tago_stop, "route_type"),
             _i("tago_stop_arrivals", "tago", _tago_stop, "arrivals")),
    "seoul": (_i("seoul_busiest_lines", "seoul", _seoul_busiest, "lines"), _i("seoul_busiest_eng", "seoul", _seoul_busiest, "eng")),
    "fsc": (_i("fsc_top_corp", "fsc", _fsc_top, "corp"),),
    "opendart": (_i("dart_ceo", "opendart", _dart_by_name, "ceo"), _i("dart_revenue", "opendart", _dart_by_name, "revenue"),
                 _i("dart_profit", "opendart", _dart_by_name, "profit"),
                 _i("dart_disclosures", "opendart", _dart_by_name, "disclosures")),
    "nec": (_i("nec_winners", "nec", _election, "winners"), _i("nec_candidates", "nec", _election, "candidates"),
            Intent("nec_cond", "nec", _election_cond, COND_WEIGHT)),
    "assembly": (_i("bill_sponsor_district", "assembly", _bill_sponsor, "district"),
                 _i("bill_sponsor_party", "assembly", _bill_sponsor, "party"),
                 _i("bill_sponsor_committee", "assembly", _bill_sponsor, "committee"),
                 _i("bill_sponsor_terms", "assembly", _bill_sponsor, "terms")),
    **LOCAL_INTENTS,
}
# the FAN, SEM and COND questions of a platform join its others (edge.synth.intents_multi)
INTENTS = {p: INTENTS.get(p, ()) + MULTI_INTENTS.get(p, ()) for p in {**INTENTS, **MULTI_INTENTS}}


def build_intent(s: Sampler, intent: Intent, rng: Any, held: frozenset[str] = frozenset()) -> Draft | None:
    """One draft of ``intent`` (None when its chain does not execute on this version)."""
    d = s.new_draft()
    try:
        ok = intent.build(s, d, rng, held)
    except (CallFailed, ProgramError):
        return None
    return d if ok and d.answer is not None else None


#: A platform's intents are drawn until they failed 60 times plus 15 per example made: a platform
#: with few distinct questions (Seoul: one day's 41 line extremes) draws repeats and near-duplicates,
#: which count as failures; at 6 per example it stopped under 3 % of a run once its forms varied
#: less, and at 10 on kopa@v0010 (2.9 %).
_GIVE_UP = (60, 15)


def wanted(made: Counter[str], total: int, failed: Counter[str], rng: Any) -> str | None:
    """The platform to draw an intent for now: the one furthest under its :data:`SHARES` of the
    ``total`` examples made (``made``: the examples each platform's intents made; ties by
    ``rng``), unless its intents keep failing (``failed``); None when every platform has its share."""
    under = [p for p in INTENTS if made[p] < SHARES[p] * (total + 1) and failed[p] < _GIVE_UP[0] + _GIVE_UP[1] * made[p]]
    if not under:
        return None
    return min(under, key=lambda p: (made[p] / (SHARES[p] * (total + 1)), rng.random()))


def spare(made: Counter[str], failed: Counter[str], rng: Any) -> str | None:
    """A platform to draw an intent for when none is wanted (:func:`wanted` gives None: the
    platforms under their share keep failing): one whose intents still make examples, the
    least over its share first; None when every platform's intents keep failing. The sampler's
    walks, whose generic grammar reads stilted (5.9 % of a default run, most of a blind read's
    unnatural questions), are drawn only then (beyond their :data:`GENERIC_SHARE`)."""
    ok = [p for p in INTENTS if failed[p] < _GIVE_UP[0] + _GIVE_UP[1] * made[p]]
    if not ok:
        return None
    return min(ok, key=lambda p: (made[p] / SHARES[p], rng.random()))

