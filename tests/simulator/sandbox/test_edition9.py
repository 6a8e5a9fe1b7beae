"""World edition 9 (#27, a world whose answers a real client accepts, no invented value posing
as a fact): generated measure fields hold numbers of their unit, Seoul subway stations carry
their real English names, and NEC addresses are named as of the vote date. Edition 8 (the
world ``kopa@v0009`` was recorded from) answers as before (tests/simulator/record/test_rerecord.py
holds its recorded bytes)."""

from __future__ import annotations

import re

import pytest

from simulator.catalog import load_catalog
from simulator.sandbox import World
from simulator.sandbox.gen.measures import MEASURES_EDITION, measure_kind
from simulator.sandbox.gen.synth import synth_records

NUMBER = re.compile(r"-?\d{1,3}(,\d{3})*(\.\d+)?|-?\d+(\.\d+)?")


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(tier="full")


@pytest.fixture(scope="module")
def worlds() -> tuple[World, World]:
    """Editions 8 and 9 of seed 0, shared (their company tables are built once)."""
    return World(0, edition=8), World(0, edition=9)


@pytest.mark.parametrize(("name", "label", "kind"), [
    ("dayAvgTa", "평균 기온", "temperature"), ("mnhSumRn", "", "precipitation"), ("tot", "합계", "total"),
    ("hm", "습도(%)", "humidity"), ("grntymnyRate", "보증금률", "rate"), ("otdrRto", "사외이사비율", "rate"),
    ("aq_wtn_div_ostk", "취득 전 자기주식 보유현황(배당가능이익 범위 내 취득(주)(보통주식))", "shares"),
    ("inhdtl_tast", "양수내역(총자산(원)(B))", "money"), ("fv_ps", "1주당 액면가액 (원)", "par"),
    ("excluUseAr", "전용면적", "area"), ("DEAL_CN_PSSG", "가결(건)", "count"), ("clpr", "종가", "price"),
    # names, codes, dates and texts keep their shapes
    ("corp_name", "회사명", None), ("stn_ko", "지점명(국문)", None), ("rcept_dt", "접수일자", None),
    ("taMinDay", "연최저기온 나타난 날", None), ("crsc_osprpd_bgd", "감자일정(구주권 제출기간(시작일))", None),
    ("시정권고참조법률", "시정권고참조법률", None), ("mgmCptAt", "", None), ("bassMtRntchrg", "", None),
    ("aggr", "연령대", None), ("rm", "비고", None), ("statDivNm", "통계구분명", None),
])
def test_measure_kind_reads_name_label_and_unit(name: str, label: str, kind: str | None) -> None:
    assert measure_kind(name, label) == kind


@pytest.mark.parametrize(("eid", "fields"), [
    ("kma_day_statistics", {"dayAvgTa": r"-?\d+\.\d", "dayMaxTa": r"-?\d+\.\d", "dayAvgRhm": r"\d+"}),
    ("mois_design_protect_zone_region_list", {"tot": r"\d+"}),
    ("dart_fric_decsn", {"fv_ps": r"[\d,]+", "bfic_tisstk_ostk": r"\d{1,3}(,\d{3})*"}),
    ("dart_tsstk_aq_decsn", {"aq_wtn_div_ostk_rt": r"\d+\.\d\d", "aqpln_stk_ostk": r"\d{1,3}(,\d{3})*"}),
])
def test_measure_fields_hold_numbers_from_edition_9(catalog, worlds, eid: str, fields: dict[str, str]) -> None:
    """Edition 8 filled these with "<label> n" ("평균 기온 1"); edition 9 a number of the unit
    (temperatures one decimal in -3.2..31.5, OpenDART shares with thousands separators), and
    every other value of the record as edition 8 has it."""
    ep = catalog.endpoint(eid)
    labels = {f.name: f.description for f in ep.fields}
    old, new = synth_records(worlds[0], ep, {}), synth_records(worlds[1], ep, {})
    assert old and len(old) == len(new)
    for i, (r8, r9) in enumerate(zip(old, new)):
        for k, shape in fields.items():
            assert r8[k] == f"{labels[k].split('(')[0].strip()} {i + 1}"  # the old wrong case
            assert re.fullmatch(shape, r9[k]), (k, r9[k])
        assert all(r9[k] == r8[k] or measure_kind(k, labels[k]) for k in r9)
        if "dayAvgTa" in fields:
            assert -3.2 <= float(r9["dayAvgTa"]) <= 31.5


def test_edition_9_changes_only_measure_fields(catalog, worlds) -> None:
    """Across a slice of generated endpoints (NEC's aside: their places, below), edition 9
    differs from edition 8 only where a field is a measure, and there by a number in place of a
    label."""
    eps = [e for e in catalog.endpoints.values() if e.fidelity != "curated" and not e.path.startswith("/9760000/")][::25]
    w8, w9 = worlds
    assert w9.edition == MEASURES_EDITION
    changed = 0
    for ep in eps:
        labels = {f.name: f.description for f in ep.fields}
        for r8, r9 in zip(synth_records(w8, ep, {}), synth_records(w9, ep, {}), strict=True):
            for k, v in r9.items():
                if v != r8[k]:
                    changed += 1
                    assert measure_kind(k, labels.get(k, "")) and NUMBER.fullmatch(v), (ep.id, k, r8[k], v)
    assert changed > 100


def test_subway_stations_carry_their_real_english_names() -> None:
    """Edition 9: STATION_NM_ENG is the station's published English name ("이대" → "Ewha Womans
    Univ.", not "Idae"), by line where lines differ (총신대입구(이수): "Chongshin Univ." on line 4,
    "Isu" on line 7), and empty where no source gives one (8호선 다산); edition 8 keeps the
    syllable-by-syllable romanization."""
    from simulator.sandbox.gen.seoul import station_by_name

    def names(edition: int) -> dict[tuple[str, str], str]:
        return {(r["LINE_NUM"], r["STATION_NM"]): r["STATION_NM_ENG"] for r in station_by_name(World(0, edition=edition), {})}

    new, old = names(9), names(8)
    assert new[("02호선", "이대")] == "Ewha Womans Univ." and old[("02호선", "이대")] == "Idae"
    assert new[("01호선", "서울역")] == "Seoul Station" and new[("02호선", "동대문역사문화공원")] == "Dongdaemun History & Culture Park"
    assert new[("04호선", "총신대입구(이수)")] == "Chongshin Univ." and new[("07호선", "총신대입구(이수)")] == "Isu"
    assert new[("08호선", "다산")] == "" and old[("08호선", "다산")] == "Dasan"
    assert sum(bool(v) for v in new.values()) == len(new) - 5
    assert not any(v != v.strip() or "  " in v for v in new.values())


@pytest.mark.parametrize(("filters", "sd", "wiw"), [
    ({"sgId": "20200415", "sdName": "강원도", "wiwName": "춘천시"}, "강원도", "춘천시"),  # 강원특별자치도 from 2023-06-11
    ({"sgId": "20220601", "sdName": "경기도", "wiwName": "부천시"}, "경기도", "부천시"),  # 부천시's 일반구 from 2024
    ({"sgId": "20220601", "sdName": "경상북도", "wiwName": "군위군"}, "경상북도", "군위군"),  # 대구 from 2023-07-01
])
def test_nec_places_are_named_as_of_the_vote_date(catalog, worlds, filters: dict[str, str], sd: str, wiw: str) -> None:
    """Edition 9: a generated NEC polling place or counting station lies in the 시도 and 구시군
    asked, named as on the vote date; edition 8 gave an address of today's districts anywhere
    (the old wrong case); a place the election did not have answers nothing."""
    for eid, field in (("nec_polplc_otlnmap_trnsport_info_inqire", "addr"), ("nec_counting_sttn_info_inqire", "placeAddr")):
        ep = catalog.endpoint(eid)
        old, new = synth_records(worlds[0], ep, filters), synth_records(worlds[1], ep, filters)
        assert new and len(new) == len(old)
        assert all(r[field].startswith(f"{sd} {wiw} ") for r in new), [r[field] for r in new]
        assert not all(r[field].startswith(f"{sd} {wiw} ") for r in old)
        assert all({k: v for k, v in a.items() if k not in ("addr", "placeAddr", "emdName")} ==
                   {k: v for k, v in b.items() if k not in ("addr", "placeAddr", "emdName")} for a, b in zip(old, new))
    ep = catalog.endpoint("nec_polplc_otlnmap_trnsport_info_inqire")
    assert synth_records(worlds[1], ep, {"sgId": "20200415", "sdName": "강원특별자치도"}) == []
    unfiltered = synth_records(worlds[1], catalog.endpoint("nec_pre_polplc_otlnmap_trnsport_info_inqire"), {"sgId": "20200415"})
    assert unfiltered and not any("특별자치도" in r["addr"] or "시도명" in r["sdName"] for r in unfiltered)


def test_the_22nd_assembly_election_has_its_real_constituencies(worlds) -> None:
    """Edition 9: the 20240410 지역구 are the 254 real ones (names as the NEC gives them, 시도 as on
    the vote date), each over the districts its name lists, and the 22nd Assembly has 300 seats;
    edition 8 had 245 named by the world's rule (종로구갑 and 종로구을: the real 종로구 is one)."""
    from simulator.sandbox.world._politics import assembly22_constituencies

    w8, w9 = worlds
    old, new = w8.constituencies("20240410", "2"), w9.constituencies("20240410", "2")
    assert len(old) == 245 and "종로구갑" in {r["sggName"] for r in old}
    assert [(r["sdName"], r["sggName"]) for r in new] == list(assembly22_constituencies())
    assert len(new) == 254 and len({(r["sdName"], r["sggName"]) for r in new}) == 254
    by = {r["sggName"]: r for r in new if r["sdName"] != "부산광역시"}  # names repeat across 시도 (중구 …)
    assert "종로구갑" not in by and by["종로구"]["lawd_cds"] == ["11110"]
    assert [w9.district(c).name for c in by["춘천시철원군화천군양구군갑"]["lawd_cds"]] == ["춘천시", "철원군", "화천군", "양구군"]
    assert by["포항시남구울릉군"]["wiwName"] == "포항시남구" and len(by["수원시무"]["lawd_cds"]) == 4
    assert {r["sdName"] for r in new} >= {"강원특별자치도", "전북특별자치도"}  # renamed before 2024-04-10
    assert all(r["lawd_cds"] and all(w9.district(c) for c in r["lawd_cds"]) for r in new)
    assert len(w9.members()) == 300 and len(w8.members()) == 291
    assert {m["ORIG_NM"] for m in w9.members()} >= {"서울 종로구", "세종특별자치시갑", "제주 서귀포시", "비례대표"}
    assert w9.constituencies("20200415", "2") == w8.constituencies("20200415", "2")  # the 21st: as before
    # the bills keep edition 8's ids, numbers, dates and votes (recorded keys still answer) ...
    keep = ("BILL_ID", "BILL_NO", "BILL_NAME", "PROPOSE_DT", "PROC_RESULT", "voted")
    assert [[b[k] for k in keep] for b in w9.bills()] == [[b[k] for k in keep] for b in w8.bills()]
    # ... and any of the 300 proposes one; co-proposers' codes are those of the named members
    names = {m["MONA_CD"]: m["HG_NM"] for m in w9.members()}
    assert len({b["RST_MONA_CD"] for b in w9.bills()}) == 300
    assert all([names[c] for c in b["PUBL_MONA_CD"].split(",")] == b["PUBL_PROPOSER"].split(",") for b in w9.bills()[:200])
