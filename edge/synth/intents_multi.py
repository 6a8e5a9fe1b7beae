"""Questions people ask that join several calls: FAN, SEM and COND intents (issue 28, item 3).

The sampler's walks (:mod:`edge.synth.junctions`) make every junction type, but the generic
grammar that phrases them reads stilted; these intents ask the same shapes as people ask them,
by the names they know, with one period and the scope said:

* **SEM** — one entity into two datasets, both answered: a district's row-house *and*
  officetel trades of a month (``home_pair``); a school's classes of a school year *and* its
  departments (``school_year_pair``). (A school's lunch days *and* its calendar's events of a
  month, asked together, read as two unrelated counts in three outside reads, and "학사일정 수"
  counts calendar rows: no longer asked.) The answer is the pair, in the order the question asks.
* **COND** — asked by NEC's ``nec_cond`` (:mod:`edge.synth.intents`): a party's winners in a
  province, or, if it had none, the candidates it fielded ("당선자를 몇 명 냈어요? 한 명도 없었다면
  후보는 몇 명 냈는지라도"). The housing COND of stops 36–39 ("…건도 안 됐다면 대신 빌라 매매
  건수를") read as a made-up branch on an arbitrary threshold in four outside reads and is gone.
* **FAN** — a few bus routes a person names at a stop (route numbers are on the sign), each
  route's stops read in one fan-out call, and the route with the most or fewest stops
  (``tago_route_fan``); two or three cities by name, each city's bus routes, and the city with
  the most or fewest (``tago_city_fan``).

Each draws its entity from the recorded tables (never shown) and builds its draft with the
sampler's executed steps, so every check, filter and hold-out applies as to any draft.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .draft import Draft
from .intent_kit import Intent, bind, mine, op, part, pick, table
from .intents_local import _months, _school, _where
from .korean import josa
from .sample import Sampler

__all__ = ["MULTI_INTENTS"]

#: How often a COND question is drawn beside its platform's others: a conditional ask is one a
#: person makes now and then (``nec_cond``, of NEC's three intents).
COND_WEIGHT = 0.5

#: Row houses first: the order a SEM pair's answer and its question share.
_PAIR = ("molit_rh_trades", "molit_offi_trades")


def _place_month(s: Sampler, held: frozenset[str], rng: Any) -> tuple[str, str] | None:
    """A (district, month) both home-trade tools were recorded for, spread over the districts."""
    both = set(_months(s, _PAIR[0], held)) & set(_months(s, _PAIR[1], held))
    opts = sorted((p, m) for p, m in both if mine(s, [p]))
    return rng.choice(opts) if opts else None


def _district(s: Sampler, d: Draft, place: str) -> dict[str, Any]:
    """The district's code by its name: the bind of a trade call's ``LAWD_CD``."""
    s1, _r1 = s.call(d, "mois_stan_regin_cd", {"locatadd_nm": place})
    ref, code = pick(s, d, s1, [{"field": "locatadd_nm", "op": "eq", "value": place}], "region_cd")
    d.bound.append(code[:5])
    return {"LAWD_CD": {"ref": ref, "transform": "slice:0:5"}}


def _home_pair(s: Sampler, d: Draft, rng: Any, held: frozenset[str]) -> bool:
    """SEM: a district's row-house and officetel trades of one month, both counted."""
    got = _place_month(s, held, rng)
    if got is None:
        return False
    place, ym = got
    lawd = _district(s, d, place)
    refs, sizes = [], []
    for tool in _PAIR:
        sid, res = s.call(d, tool, {"DEAL_YMD": ym}, bind=lawd)
        d.edges.append(("mois_stan_regin_cd", tool))
        c, n = op(s, d, op="count", **{"from": sid})
        if n < 1:
            return False
        refs.append({"$ref": c})
        sizes.append(len(res.records))
    d.answer = refs
    part(d, "home_pair", sum(sizes), month=ym, place=place)
    d.junctions.append("SEM")
    return True


def _school_year_pair(s: Sampler, d: Draft, rng: Any, held: frozenset[str]) -> bool:
    """SEM: a school's classes of one school year and its departments."""
    got = _school(s, d, rng, held, "neis_class_info", also="neis_school_major")
    if got is None:
        return False
    name, code, rec = got
    office = str(rec.get("ATPT_OFCDC_SC_CODE"))
    classes = table(s, "neis_class_info", {"ATPT_OFCDC_SC_CODE": office, "SD_SCHUL_CODE": code})
    deps = table(s, "neis_school_major", {"ATPT_OFCDC_SC_CODE": office, "SD_SCHUL_CODE": code})
    if not deps or len({str(r.get("DDDEP_NM")) for r in deps}) != len(deps):
        return False
    years = sorted({str(r.get("AY")) for r in classes if r.get("AY")})
    if not years:
        return False
    ay = rng.choice(years)
    if sum(1 for r in classes if str(r.get("AY")) == ay) < 2:
        return False
    got2 = _two_school_calls(s, d, name, [("neis_class_info", {"AY": ay}, []), ("neis_school_major", {}, [])])
    d.answer = [ref for ref, _n in got2]
    part(d, "school_year_pair", sum(n for _r, n in got2), school=name, where=_where(rec), ay=ay)
    d.junctions.append("SEM")
    return True


def _school_binds(s: Sampler, d: Draft, name: str) -> dict[str, Any]:
    """The school's office and school codes by its name: the binds of a NEIS school call."""
    s1, _r1 = s.call(d, "neis_school_info", {"SCHUL_NM": name})
    where = [{"field": "SCHUL_NM", "op": "eq", "value": name}]
    oref, office = pick(s, d, s1, where, "ATPT_OFCDC_SC_CODE")
    sref, code = pick(s, d, s1, where, "SD_SCHUL_CODE")
    d.bound += [office, code]
    return {"ATPT_OFCDC_SC_CODE": bind(oref), "SD_SCHUL_CODE": bind(sref)}


def _two_school_calls(s: Sampler, d: Draft, name: str, calls: list[tuple[str, dict[str, str], list[dict[str, Any]]]]
                      ) -> list[tuple[dict[str, Any], int]]:
    """Each (tool, args, where) of the school by its name, counted: the count's ``$ref`` and the
    records read."""
    codes = _school_binds(s, d, name)
    out = []
    for tool, args, where in calls:
        sid, res = s.call(d, tool, args, bind=codes)
        d.edges.append(("neis_school_info", tool))
        c, _n = op(s, d, op="count", **{"from": sid}, **({"where": where} if where else {}))
        out.append(({"$ref": c}, len(res.records)))
    return out


def _tago_route_fan(s: Sampler, d: Draft, rng: Any, held: frozenset[str]) -> bool:
    """FAN: a few routes named at a stop → each route's stops (one fan-out call) → the route
    with the most (or fewest) stops."""
    have = {(str(f.get("cityCode")), str(f.get("routeId"))) for f in s._filters.get("tago_route_stops", [])}
    cities = {str(r["citycode"]): str(r["cityname"]) for r in table(s, "tago_city_codes", {})}
    opts = []
    for f in s._filters.get("tago_station_routes", []):
        code, node = str(f.get("cityCode")), str(f.get("nodeid"))
        if code not in cities:
            continue
        routes = table(s, "tago_station_routes", {"cityCode": code, "nodeid": node})
        nos = Counter(str(r.get("routeno")) for r in routes)
        named = sorted({str(r.get("routeno")) for r in routes
                        if (code, str(r.get("routeid"))) in have and nos[str(r.get("routeno"))] == 1})
        if len(named) < 2:
            continue
        stops = table(s, "tago_stations_by_name", {"cityCode": code})
        names = Counter(str(r.get("nodenm")) for r in stops)
        for r in stops:
            nm = str(r.get("nodenm"))
            if str(r.get("nodeid")) == node and names[nm] == 1 and nm not in held \
                    and not any(nm != o and nm in o for o in names):
                opts.append((code, nm, tuple(named)))
    opts = mine(s, sorted(opts))
    if not opts:
        return False
    code, stop, named = rng.choice(opts)
    routes = sorted(rng.sample(list(named), min(len(named), rng.randint(2, 3))), key=lambda x: (len(x), x))
    city = cities[code]
    s1, _r1 = s.call(d, "tago_city_codes", {})
    cref, _c = pick(s, d, s1, [{"field": "cityname", "op": "eq", "value": city}], "citycode")
    s2, _r2 = s.call(d, "tago_stations_by_name", {"nodeNm": stop}, bind={"cityCode": bind(cref)})
    nref, node = pick(s, d, s2, [{"field": "nodenm", "op": "eq", "value": stop}], "nodeid")
    s3, r3 = s.call(d, "tago_station_routes", {}, bind={"cityCode": bind(cref), "nodeid": bind(nref)})
    d.bound += [code, node]
    vid, ids = op(s, d, op="distinct", **{"from": s3}, field="routeid",
                  where=[{"field": "routeno", "op": "in", "value": routes}])
    if len(ids) != len(routes):
        return False
    s4, r4 = s.call(d, "tago_route_stops", {}, bind={"cityCode": bind(cref)},
                    each={"ref": {"$ref": vid}, "param": "routeId", "transform": ""})
    d.bound += [str(x) for x in ids]
    d.edges += [("tago_city_codes", "tago_stations_by_name"), ("tago_stations_by_name", "tago_station_routes"),
                ("tago_station_routes", "tago_route_stops")]
    per = Counter(str(r.get("_item")) for r in r4.records)
    most = rng.choice(("max", "min"))
    sizes = sorted(per[str(i)] for i in ids)
    if min(sizes) < 2 or (sizes[-1] == sizes[-2] if most == "max" else sizes[0] == sizes[1]):
        return False  # a tie (or a one-stop branch) answers nothing
    ref, _ans = s.reduce(d, {"op": f"map_arg{most}", "from": s4, "keys": {"$ref": vid},
                             "label": {"from": s3, "key": "routeid", "field": "routeno"}})
    d.answer = ref
    said = [f"{x}번" for x in routes]
    named = f"{josa(said[0], '과')} {said[1]}" if len(said) == 2 else ", ".join(said)
    part(d, "tago_route_fan", len(r3.records), city=city, stop=stop, routes=named,
         options=str(len(routes)),
         many="많이" if most == "max" else "적게", manya="많은" if most == "max" else "적은")
    d.junctions.append("FAN")
    return True


def cities_said(names: list[str], rng: Any) -> list[str]:
    """Cities side by side, named alike: "부산과 대전" (short, as people say a metropolitan city),
    but "부산광역시와 천안시" when one of them has no shorter name (never "부산과 천안시", which
    outside reads marked as uneven)."""
    from .asks import _CITY_NAMES, _city

    said = [_city(n, rng) for n in names]
    if any(x == n.split("/")[0] for x, n in zip(said, names)):  # one said whole: all whole
        said = [_CITY_NAMES.get(n.split("/")[0], n.split("/")[0]) for n in names]
    return said


def _tago_city_fan(s: Sampler, d: Draft, rng: Any, held: frozenset[str]) -> bool:
    """FAN: two or three cities by name → their codes → each city's bus routes (one fan-out
    call) → the city with the most (or fewest) routes."""
    have = {str(f.get("cityCode")) for f in s._filters.get("tago_routes_by_number", []) if set(f) == {"cityCode"}}
    cities = {str(r["citycode"]): str(r["cityname"]) for r in table(s, "tago_city_codes", {})}
    names = sorted(cities[c] for c in have if c in cities and cities[c] not in held)
    if len(names) < 2:
        return False
    picked = sorted(rng.sample(names, rng.randint(2, min(3, len(names)))))
    if not mine(s, [tuple(picked)]):
        return False
    sizes = {n: len(table(s, "tago_routes_by_number", {"cityCode": c})) for c, n in cities.items() if n in picked}
    most = rng.choice(("max", "min"))
    ranked = sorted(sizes.values(), reverse=most == "max")
    if ranked[0] == ranked[1]:
        return False  # a tie answers nothing
    s1, r1 = s.call(d, "tago_city_codes", {})
    vid, codes = op(s, d, op="distinct", **{"from": s1}, field="citycode",
                    where=[{"field": "cityname", "op": "in", "value": picked}])
    if len(codes) != len(picked):
        return False
    s2, _r2 = s.call(d, "tago_routes_by_number", {}, each={"ref": {"$ref": vid}, "param": "cityCode", "transform": ""})
    d.bound += [str(c) for c in codes]
    d.edges.append(("tago_city_codes", "tago_routes_by_number"))
    ref, _ans = s.reduce(d, {"op": f"map_arg{most}", "from": s2, "keys": {"$ref": vid},
                             "label": {"from": s1, "key": "citycode", "field": "cityname"}})
    d.answer = ref
    said = cities_said(picked, rng)
    cities = f"{josa(said[0], '과')} {said[1]}" if len(said) == 2 else ", ".join(said)
    part(d, "tago_city_fan", len(r1.records), cities=cities, manya="많은" if most == "max" else "적은",
         options=str(len(picked)))
    d.junctions.append("FAN")
    return True


def _i(name: str, platform: str, fn: Any, weight: float = 1.0) -> Intent:
    return Intent(name, platform, fn, weight)


#: The intents of this module, by platform (joined to each platform's others in
#: :data:`edge.synth.intents.INTENTS`).
MULTI_INTENTS: dict[str, tuple[Intent, ...]] = {
    "molit": (_i("home_pair", "molit", _home_pair),),
    "neis": (_i("school_year_pair", "neis", _school_year_pair),),
    # whole routes' stop counts and cities side by side are asked now and then, not often (outside
    # reads: an odd thing to want when it recurs)
    "tago": (_i("tago_route_fan", "tago", _tago_route_fan, 0.4), _i("tago_city_fan", "tago", _tago_city_fan, 0.4)),
}
