"""The sandbox world: determinism, real-format codes, cross-platform links, cardinality."""

from __future__ import annotations

import re
import time

import pytest

from simulator.sandbox.world import PRICE_DAYS, TRADE_MONTHS, World, isin, romanize
from simulator.sandbox.world._politics import REAL_CONSTITUENCIES_EDITION


@pytest.fixture(scope="module")
def world() -> World:
    return World(seed=0)


# ---- determinism --------------------------------------------------------------------------


def test_same_seed_same_data_in_any_order() -> None:
    a, b = World(seed=11), World(seed=11)
    # b builds its collections in another order: each uses its own seeded stream.
    b.schools()
    b.bills()
    assert a.apt_trades("11680", "202503") == b.apt_trades("11680", "202503")
    assert a.companies() == b.companies()
    assert a.members() == b.members()
    assert a.schools() == b.schools()
    assert a.stock_prices(PRICE_DAYS[5]) == b.stock_prices(PRICE_DAYS[5])
    assert a.meals(a.schools()[0]["SD_SCHUL_CODE"], "202504") == b.meals(b.schools()[0]["SD_SCHUL_CODE"], "202504")


def test_different_seed_different_data() -> None:
    a, b = World(seed=1), World(seed=2)
    assert a.apt_trades("11680", "202503") != b.apt_trades("11680", "202503")
    assert [c["corp_code"] for c in a.companies()[20:]] != [c["corp_code"] for c in b.companies()[20:]]
    assert [m["MONA_CD"] for m in a.members()] != [m["MONA_CD"] for m in b.members()]
    # The real code table does not depend on the seed.
    assert a.regions() == b.regions()


def test_evicted_detail_collections_come_back_identical() -> None:
    w = World(seed=5)
    w.DETAIL_CACHE = 2
    first = w.apt_trades("11710", "202406")
    for ym in TRADE_MONTHS[:5]:
        w.apt_trades("11680", ym)
    assert w.apt_trades("11710", "202406") == first


def test_world_is_cheap_to_create() -> None:
    World(seed=0).region("1100000000")  # load the code table once
    t = time.perf_counter()
    w = World(seed=99)
    assert w.region("1168000000") is not None
    assert time.perf_counter() - t < 1.0


# ---- codes --------------------------------------------------------------------------------


def test_real_legal_dong_codes(world: World) -> None:
    gangnam = world.region("1168000000")
    assert gangnam is not None and gangnam.name == "서울특별시 강남구"
    assert world.region("1171000000").name == "서울특별시 송파구"  # type: ignore[union-attr]
    jangan = world.region("4111100000")
    assert jangan is not None and jangan.name == "경기도 수원시 장안구" and jangan.leaf == "장안구"
    # 일반구 hang under the province, as StanReginCd reports them.
    assert jangan.high == "4100000000"
    assert len(world.sidos()) == 17
    for r in world.regions():
        assert re.fullmatch(r"[0-9]{10}", r.code), r
        assert r.adpt_de == "" or re.fullmatch(r"(19|20)[0-9]{6}", r.adpt_de)


def test_districts_take_lawd_codes(world: World) -> None:
    districts = world.districts()
    assert 240 <= len(districts) <= 270
    codes = {d.lawd_cd for d in districts}
    assert {"11680", "11710", "41111", "36110", "51110", "52111"} <= codes
    assert "41110" not in codes  # a city with 일반구: RTMS wants the 구
    assert all(re.fullmatch(r"[0-9]{5}", c) for c in codes)
    assert world.district_by_name("41", "수원시장안구").lawd_cd == "41111"  # type: ignore[union-attr]


def test_finance_code_formats(world: World) -> None:
    companies = world.companies()
    assert len({c["corp_code"] for c in companies}) == len(companies)
    for c in companies:
        assert re.fullmatch(r"[0-9]{8}", c["corp_code"])
        assert c["stock_code"] == " " or re.fullmatch(r"[0-9]{6}", c["stock_code"])
    samsung = world.company("00126380")  # a real company: its identity (tests/.../test_real_companies.py)
    assert samsung is not None and samsung["stock_code"] == "005930" and samsung["corp_name"] == "삼성전자"
    assert isin("005930") == "KR7005930003" == samsung["isin"]  # the real ISIN
    invented = world.listed_companies()[0]["corp_code"]
    filings = world.filings(invented)
    assert filings
    for f in filings:
        assert re.fullmatch(r"20[0-9]{6}[0-9]{6}", f["rcept_no"]) and f["rcept_no"][:8] == f["rcept_dt"]
    amounts = [a["thstrm_amount"] for a in world.accounts(invented, 2024, "11011")]
    assert amounts and all(re.fullmatch(r"-?[0-9]{1,3}(,[0-9]{3})*", a) for a in amounts)


def test_rcept_numbers_are_unique(world: World) -> None:
    rows = world.all_filings()
    assert len(rows) > 20_000
    assert len({r["rcept_no"] for r in rows}) == len(rows)


def test_politics_and_education_codes(world: World) -> None:
    for m in world.members():
        assert re.fullmatch(r"[0-9A-Z]{8}", m["MONA_CD"])
    for b in world.bills()[:50]:
        assert re.fullmatch(r"22[0-9]{5}", b["BILL_NO"]) and b["BILL_ID"].startswith("PRC_")
    for c in world.candidates("20240410", "2"):
        assert re.fullmatch(r"[0-9]{9}", c["huboid"])
    schools = world.schools()
    assert all(re.fullmatch(r"[0-9]{7}", s["SD_SCHUL_CODE"]) for s in schools)
    assert len({s["SD_SCHUL_CODE"] for s in schools}) == len(schools)
    assert {s["ATPT_OFCDC_SC_CODE"] for s in schools} == {o["ATPT_OFCDC_SC_CODE"] for o in world.offices()}
    daechi = world.school("7091380")
    assert daechi is not None and daechi["SCHUL_NM"] == "서울대치초등학교"


def test_trade_fields_look_like_rtms(world: World) -> None:
    trades = world.apt_trades("11680", "202503")
    t = trades[0]
    assert re.fullmatch(r"[0-9]{1,3}(,[0-9]{3})*", t["dealAmount"])
    assert t["sggCd"] == "11680" and t["dealYear"] == "2025" and t["dealMonth"] == "3"
    assert t["cdealType"] in (" ", "O")
    assert world.apt_trades("11680", "199901") == []
    assert world.apt_trades("41110", "202503") == []  # the parent city code gives nothing


# ---- links ---------------------------------------------------------------------------------


def test_member_district_to_trades(world: World) -> None:
    """Assembly member → 선거구 → legal-dong code → LAWD_CD → apartment trades."""
    m = next(x for x in world.members() if x["ORIG_NM"].startswith("서울 강남구"))
    sido_short, sgg = m["ORIG_NM"].split(" ")
    gu = re.sub(r"[갑을병정무]$", "", sgg)
    region = next(r for r in world.regions() if r.name == f"서울특별시 {gu}")
    assert world.sido_short(region.sido_cd) == sido_short
    lawd = region.code[:5]
    assert lawd in m["lawd_cds"]
    assert len(world.apt_trades(lawd, "202503")) > 100


def test_every_district_member_maps_to_trading_districts(world: World) -> None:
    for m in world.members():
        if m["ORIG_NM"] == "비례대표":
            continue
        assert m["lawd_cds"], m["ORIG_NM"]
        assert all(world.district(c) is not None for c in m["lawd_cds"])


def test_nec_winner_is_the_assembly_member(world: World) -> None:
    winners = {w["huboid"]: w for w in world.winners("20240410", "2")}
    district_members = [m for m in world.members() if m["ORIG_NM"] != "비례대표"]
    assert len(district_members) == len(winners)
    for m in district_members:
        w = winners[m["huboid"]]
        assert (w["name"], w["jdName"], w["hanjaName"]) == (m["HG_NM"], m["POLY_NM"], m["HJ_NM"])
        # "서울 종로구갑"; from edition 9 (the real 지역구) a name that starts with its 시도 stands
        # alone, as the Assembly writes it ("세종특별자치시갑")
        alone = world.edition >= REAL_CONSTITUENCIES_EDITION and w["sggName"].startswith(w["sdName"])
        assert m["ORIG_NM"] == (w["sggName"] if alone else f"{world.sido_short(w['lawd_cds'][0][:2])} {w['sggName']}")


def test_member_bills_and_votes(world: World) -> None:
    bills = world.bills()
    by_member = [b for b in bills if b["RST_MONA_CD"] == world.members()[0]["MONA_CD"]]
    assert by_member and all(world.members()[0]["HG_NM"] in b["PROPOSER"] for b in by_member)
    voted = next(b for b in bills if b["voted"])
    votes = world.votes(voted["BILL_ID"])
    assert 230 <= len(votes) <= 300
    assert {v["MONA_CD"] for v in votes} <= {m["MONA_CD"] for m in world.members()}


def test_corp_code_to_stock_prices(world: World) -> None:
    listed = world.listed_companies()[30]
    history = world.stock_history(listed["stock_code"])
    assert len(history) == len(PRICE_DAYS)
    assert {h["isinCd"] for h in history} == {listed["isin"]}
    day = world.stock_prices(PRICE_DAYS[0])
    assert any(r["srtnCd"] == listed["stock_code"] for r in day)
    # Accounts carry the rcept_no of the periodic report in the filings.
    rows = world.accounts(listed["corp_code"], 2024, "11011")
    assert rows and rows[0]["rcept_no"] in {f["rcept_no"] for f in world.filings(listed["corp_code"])}


def test_school_to_meals_and_timetable(world: World) -> None:
    high = next(s for s in world.schools() if s["SCHUL_KND_SC_NM"] == "고등학교")
    meals = world.meals(high["SD_SCHUL_CODE"], "202504")
    assert meals and all(m["MLSV_YMD"].startswith("202504") for m in meals)
    day = meals[0]["MLSV_YMD"]
    tt = world.timetable(high["SD_SCHUL_CODE"], day)
    classes = world.classes(high["SD_SCHUL_CODE"], "2025")
    assert len(tt) >= len(classes) * 6
    assert world.region(high["dong_code"]) is not None


def test_bus_chain(world: World) -> None:
    assert any(c["citycode"] == 34010 and c["cityname"] == "천안시" for c in world.bus_cities())
    station = world.bus_stations(34010)[0]
    assert station["nodeid"] == "CAB285000686" and station["nodenm"] == "종합터미널"
    routes = world.station_routes(34010, station["nodeid"])
    assert routes
    stops = world.route_stops(34010, routes[0]["routeid"])
    assert station["nodeid"] in {s["nodeid"] for s in stops}
    arrivals = world.bus_arrivals(34010, station["nodeid"])
    assert {a["routeid"] for a in arrivals} <= {r["routeid"] for r in routes}


def test_ordinances_name_local_governments(world: World) -> None:
    rows = world.ordinances()
    assert len(rows) > 3000
    for o in rows[:200]:
        assert o["자치법규명"].startswith(o["지자체기관명"])
        assert world.region(o["region_cd"]).name == o["지자체기관명"]  # type: ignore[union-attr]


# ---- cardinality ---------------------------------------------------------------------------


def test_high_cardinality_collections(world: World) -> None:
    assert len(world.regions()) >= 20_000
    assert len(world.public_wifi()) >= 25_000
    assert len(world.companies()) >= 5_000 and len(world.listed_companies()) >= 2_000
    assert len(world.stock_prices(PRICE_DAYS[-1])) >= 2_000
    assert len(world.schools()) >= 5_000
    assert len(world.laws()) >= 1_500 and len(world.precedents()) >= 3_000
    assert len(world.bills()) >= 5_000
    assert 200 <= len(world.apt_trades("11680", "202504")) <= 1_500


def test_romanize() -> None:
    assert romanize("대치") == "daechi"
    assert romanize("서울") == "seoul"
