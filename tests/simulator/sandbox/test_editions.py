"""World editions of the sandbox: edition 2 is the world ``kopa@v0001``/``kopa@v0002`` were
recorded from and must stay so; edition 3 (``kopa@v0003``'s, #19 "fix the world where the
world is the problem") changes what made questions about it unanswerable or trivial; these
are its properties the bench relies on. (That each shipped version is its edition's
recording: tests/simulator/record/test_rerecord.py.)"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from simulator.sandbox import World


def test_edition_is_checked() -> None:
    with pytest.raises(ValueError, match="unknown world edition 10: use one of 2, 3, 4, 5, 6, 7, 8, 9"):
        World(0, edition=10)


def test_the_upcoming_election_takes_preliminary_candidates() -> None:
    w3, w2 = World(0), World(0, edition=2)
    assert w3.elections()[: len(w2.elections())] == w2.elections()
    assert {e["sgId"] for e in w3.elections()} - {e["sgId"] for e in w2.elections()} == {"20260603"}
    rows = w3.preliminary_candidates("20260603", "4")
    assert len(rows) > 100 and len({r["huboid"] for r in rows}) == len(rows)  # more than one max page
    assert all("20251202" <= r["regdate"] <= "20251231" for r in rows)
    assert w3.candidates("20260603", "4") == [] and w3.turnout("20260603", "4") == []
    assert w2.preliminary_candidates("20260603", "4") == [] and w3.preliminary_candidates("20240410", "2") == []


def test_big_bus_cities_keep_edition_2_first() -> None:
    w3, w2 = World(0), World(0, edition=2)
    for city, n in ((21, 5480), (25, 3120), (34010, 1840), (12, 1210)):
        new, old = w3.bus_stations(city), w2.bus_stations(city)
        assert len(new) == n > 1000 and new[: len(old)] == old
        added = [s["nodenm"] for s in new[len(old):]]
        assert len(set(added)) == len(added) and not set(added) & {s["nodenm"] for s in old}
        routes = w3.bus_routes(city)
        assert routes[: len(w2.bus_routes(city))] == w2.bus_routes(city)
        for s in old[:25]:  # the v0002 stops keep exactly their routes
            assert w3.station_routes(city, s["nodeid"]) == w2.station_routes(city, s["nodeid"])


def _margins(w: World) -> list[float]:
    out = []
    for c in w.listed_companies()[:60]:
        acc = {r["account_nm"]: int(r["thstrm_amount"].replace(",", "")) for r in w.accounts(c["corp_code"], 2024, "11011")
               if r["fs_div"] == "CFS"}
        if acc:
            out.append(round(acc["영업이익"] / acc["매출액"] * 100, 2))
    return out


def test_operating_margins_vary() -> None:
    m3, m2 = _margins(World(0)), _margins(World(0, edition=2))
    assert set(m2) == {10.0}  # edition 2: one mix for every company
    assert len(set(m3)) >= 50 and min(m3) < 0 < 20 < max(m3)


def test_law_articles_and_citations_vary() -> None:
    w = World(0)
    laws = w.laws()[:60]
    arts = [w.law_articles(law["법령일련번호"]) for law in laws]
    assert all(a[0]["조문제목"] == "목적" for a in arts)
    second = Counter(a[1]["조문제목"] for a in arts)
    assert len(second) >= 4 and second["정의"] < len(arts) * 0.7
    assert len({tuple(x["조문제목"] for x in a) for a in arts}) == len(arts)
    cites = [w.precedent_citations(p) for p in w.precedents()[:200]]
    assert len({c[0] for c in cites}) >= 180 and sum(bool(c[1]) for c in cites) >= 50
    assert all(re.fullmatch(r"[^/]+ 제\d+조(, 제\d+조)*( / [^/]+ 제\d+조(, 제\d+조)*)*", c[0]) for c in cites)
    assert World(0, edition=2).precedent_citations(w.precedents()[0]) == ("민법 제750조", "")


def test_school_names_are_unique_and_closures_are_marked() -> None:
    w3, w2 = World(0), World(0, edition=2)
    names = [s["SCHUL_NM"] for s in w3.schools()]
    assert len(set(names)) == len(names) and len(set(s["SCHUL_NM"] for s in w2.schools())) < len(names)
    assert [s["SD_SCHUL_CODE"] for s in w3.schools()] == [s["SD_SCHUL_CODE"] for s in w2.schools()]
    code = "7010023"
    closed = w3.closed_days(code, "2025")
    kinds = Counter(r["SBTR_DD_SC_NM"] for r in w3.schedule(code, "2025"))
    assert closed and kinds["휴업일"] == len(closed) and kinds["공휴일"] == 6
    meal_days = {r["MLSV_YMD"] for ym in ("202505", "202506", "202510", "202512") for r in w3.meals(code, ym)}
    assert meal_days and not meal_days & set(closed)
    assert w2.closed_days(code, "2025") == [] and "휴업일" not in {r["SBTR_DD_SC_NM"] for r in w2.schedule(code, "2025")}


def test_edition_6_joins_the_fsc_company_outline_to_opendart() -> None:
    """Edition 6: a company's name looked up in FSC's getCorpOutline_V2 gives its OpenDART
    corp_code (fssCorpUnqNo) and the same company's facts; edition 5 answers the outline as
    kopa@v0006 holds it (the 8 fields of then, no company join)."""
    from simulator import load_catalog
    from simulator.sandbox.gen.synth import synth_records

    ep = load_catalog().endpoint("fsc_corp_outline_v2")
    w6, w5 = World(0, edition=6), World(0, edition=5)
    for c in w6.listed_companies()[:40] + w6.companies()[-40:]:
        rows = synth_records(w6, ep, {"corpNm": c["corp_name"]})
        assert [r["fssCorpUnqNo"] for r in rows] == [c["corp_code"]]  # names are unique in the world
        (r,) = rows
        assert (r["crno"], r["bzno"], r["enpRprFnm"], r["enpBsadr"]) == (c["crno"], c["bizr_no"], c["ceo_nm"], c["adres"])
        assert w6.company(r["fssCorpUnqNo"])["corp_name"] == r["corpNm"]
        assert bool(r["enpXchgLstgDt"] or r["enpKosdaqLstgDt"] or r["enpKrxLstgDt"]) == bool(c["market"])
    assert synth_records(w6, ep, {"corpNm": "없는회사"}) == []
    assert len(synth_records(w6, ep, {})) == len(w6.companies())
    old = synth_records(w5, ep, {"corpNm": "삼성전자"})
    assert old and all(set(r) == set(ep.opt("late_fields")) ^ {f.name for f in ep.fields} for r in old)
    assert all("fssCorpUnqNo" not in r for r in old)


def test_edition_6_answers_the_endpoints_it_adds() -> None:
    """The endpoints kopa@v0007 added answer from edition 6 only, from the world's own entities:
    K-apt complexes are the district's RTMS apartments, SEMAS shops lie in the district asked."""
    from simulator import load_catalog
    from simulator.sandbox.gen import generator_for

    cat = load_catalog()
    w6, w5 = World(0, edition=6), World(0, edition=5)

    def rows(w: World, eid: str, f: dict[str, str]) -> list[dict]:
        gen = generator_for(cat.endpoint(eid).part_id, eid)
        assert gen is not None, eid
        return list(gen(w, f))

    cases = [("seoul_realtime_city_air", {}), ("seoul_bike_list", {}), ("seoul_subway_positions", {"subwayNm": "2호선"}),
             ("ecos_stat_meta", {"DATA_NAME": "소비자물가지수"}), ("datagokr_misc_kapt_sigungu_apt_list", {"sigunguCode": "11680"}),
             ("datagokr_misc_semas_store_list_in_dong", {"divId": "signguCd", "key": "11680"})]
    for eid, f in cases:
        assert rows(w5, eid, f) == [], eid
        got = rows(w6, eid, f)
        assert got and list(got[0]) == [x.name for x in cat.endpoint(eid).fields], eid
    air = rows(w6, "seoul_realtime_city_air", {})
    assert len(air) == 25 and all(isinstance(r["PM10"], float) for r in air)
    apts = rows(w6, "datagokr_misc_kapt_sigungu_apt_list", {"sigunguCode": "11680"})
    assert [a["kaptName"] for a in apts] == [a["aptNm"] for a in w6.apartments("11680")]
    (basis,) = rows(w6, "datagokr_misc_kapt_basis_info", {"kaptCode": apts[3]["kaptCode"]})
    assert basis["kaptName"] == apts[3]["kaptName"] and basis["kaptdaCnt"] == w6.apartments("11680")[3]["households"]
    shops = rows(w6, "datagokr_misc_semas_store_list_in_dong", {"divId": "signguCd", "key": "11680"})
    assert {s["signguNm"] for s in shops} == {"강남구"} and all(s["ldongCd"].startswith("11680") for s in shops)
    pos = rows(w6, "seoul_subway_positions", {"subwayNm": "2호선"})
    assert all(p["statnNm"] != p["statnTnm"] for p in pos)


def test_edition_7_answers_what_real_clients_send() -> None:
    """Edition 7: a full road-name address (juso), 서울 as the arrival API names 서울역, and no
    invented statement for a company code no invented company has (Samsung's real crno)."""
    from simulator.catalog import load_catalog
    from simulator.sandbox.gen.juso import _search
    from simulator.sandbox.gen.synth import synth_records

    w7, w6 = World(0, edition=7), World(0, edition=6)
    for kw in ("서울특별시 종로구 세종대로 209", "세종대로 209"):
        rows = _search(w7, kw)
        assert [r["roadAddrPart1"] for r in rows] == ["서울특별시 종로구 세종대로 209"], kw
        assert rows[0]["admCd"].startswith("11110") and rows[0]["zipNo"][:2] <= "08" and rows[0]["bdNm"] == ""
        assert _search(w6, kw) == []
    assert len(_search(w7, "강남구")) == len(_search(w6, "강남구")) > 50
    assert w7.subway_arrivals("서울") and {r["statnNm"] for r in w7.subway_arrivals("서울")} == {"서울"}
    assert w6.subway_arrivals("서울") == [] and w7.subway_arrivals("강남") == w6.subway_arrivals("강남")
    ep = load_catalog(tier="full").endpoint("fsc_bs_v2")
    real_crno = {"crno": "1301110006246", "bizYear": "2023"}
    assert synth_records(w7, ep, real_crno) == [] and synth_records(w6, ep, real_crno)
    mine = {"crno": w7.listed_companies()[0]["crno"], "bizYear": "2023"}
    assert synth_records(w7, ep, mine)


def test_edition_7_names_no_real_person_and_keeps_one_registration_number() -> None:
    """Edition 7: a generated endpoint's person-name filter selects from its unfiltered records
    (a real member's name answers nothing, not invented rows under that name); an invented
    company's FSC crno is its OpenDART jurir_no (one 법인등록번호)."""
    from simulator.catalog import load_catalog
    from simulator.sandbox.gen.synth import synth_records

    w7, w6 = World(0, edition=7), World(0, edition=6)
    ep = load_catalog(tier="full").endpoint("assembly_allnamember")
    assert synth_records(w7, ep, {"NAAS_NM": "우원식"}) == [] and synth_records(w6, ep, {"NAAS_NM": "우원식"})
    mine = synth_records(w7, ep, {"NAAS_NM": "국회의원명 1"})
    assert mine and {r["NAAS_NM"] for r in mine} == {"국회의원명 1"}
    assert all(c["crno"] == c["jurir_no"] for c in w7.listed_companies()[:50])
    assert any(c["crno"] != c["jurir_no"] for c in w6.listed_companies()[:50])


def test_edition_7_statement_tools_answer_the_worlds_statements() -> None:
    """Edition 7: fnlttSinglAcntAll and fnlttMultiAcnt answer the statements fnlttSinglAcnt
    serves (the same amounts; whole won without commas for SinglAcntAll), by ``fs_div``; a
    generated filter spelled as its field but for case and underscores (KMA ``base_date`` →
    ``baseDate``) is echoed."""
    from simulator.catalog import load_catalog
    from simulator.sandbox.gen.synth import synth_records

    catalog = load_catalog(tier="full")
    w7 = World(0, edition=7)
    c = w7.listed_companies()[0]["corp_code"]
    q = {"corp_code": c, "bsns_year": "2024", "reprt_code": "11011"}
    single = [r for r in w7.accounts(c, 2024, "11011") if r["fs_div"] == "OFS"]
    rows = synth_records(w7, catalog.endpoint("dart_fnltt_singl_acnt_all"), {**q, "fs_div": "OFS"})
    assert [(r["account_nm"], r["thstrm_amount"]) for r in rows] == [
        (r["account_nm"], r["thstrm_amount"].replace(",", "")) for r in single]
    assert {r["account_id"] for r in rows} >= {"ifrs-full_Revenue", "ifrs-full_Assets"}
    two = synth_records(w7, catalog.endpoint("dart_fnltt_multi_acnt"), {**q, "corp_code": f"{c},{w7.listed_companies()[1]['corp_code']}"})
    assert len(two) == 2 * len(w7.accounts(c, 2024, "11011"))
    ncst = synth_records(w7, catalog.endpoint("kma_ultra_srt_ncst"), {"base_date": "20251201", "base_time": "0600", "nx": "60", "ny": "127"})
    assert {(r["baseDate"], r["baseTime"]) for r in ncst} == {("20251201", "0600")}
