"""World edition 9 (#27, a world whose answers a real client accepts, no invented value posing
as a fact): generated measure fields hold numbers of their unit, Seoul subway stations carry
their real English names, and NEC addresses are named as of the vote date. Edition 8 (the
world ``kopa@v0009`` was recorded from) answers as before (tests/simulator/record/test_rerecord.py
holds its recorded bytes)."""

from __future__ import annotations

import re

import pytest

from simulator.catalog import load_catalog
from simulator.request import SimRequest
from simulator.sandbox import World, create_app, default_keys
from simulator.sandbox.gen.measures import MEASURES_EDITION, measure_kind, table_record
from simulator.sandbox.gen.rtms import is_rtms
from simulator.sandbox.gen.synth import _rule9, format_fields, published_numbers, synth_records
from simulator.sandbox.world import TRADE_MONTHS, _regions

NUMBER = re.compile(r"-?\d{1,3}(,\d{3})*(\.\d+)?|-?\d+(\.\d+)?")


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(tier="full")


@pytest.fixture(scope="module")
def worlds() -> tuple[World, World]:
    """Editions 8 and 9 of seed 0, shared (their company tables are built once)."""
    return World(0, edition=8), World(0, edition=9)


@pytest.fixture(scope="module")
def w9_old_districts() -> World:
    """Edition 9 with edition 8's district list (no 영동군): its draws over districts are edition
    8's, so a comparison with edition 8 shows what the value rules alone change."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_regions, "COUNTY_SIBLINGS_EDITION", 10)
        world = World(0, edition=9)
        world.districts()  # built (and cached) under the old rule
    return world


@pytest.mark.parametrize(("name", "label", "kind"), [
    ("dayAvgTa", "평균 기온", "temperature"), ("mnhSumRn", "", "precipitation"), ("tot", "합계", "total"),
    ("hm", "습도(%)", "humidity"), ("grntymnyRate", "보증금률", "rate"), ("otdrRto", "사외이사비율", "rate"),
    ("aq_wtn_div_ostk", "취득 전 자기주식 보유현황(배당가능이익 범위 내 취득(주)(보통주식))", "shares"),
    ("inhdtl_tast", "양수내역(총자산(원)(B))", "money"), ("fv_ps", "1주당 액면가액 (원)", "par"),
    ("excluUseAr", "전용면적", "unit_area"), ("DEAL_CN_PSSG", "가결(건)", "count"), ("clpr", "종가", "price"),
    # names, codes, dates and texts keep their shapes
    ("corp_name", "회사명", None), ("stn_ko", "지점명(국문)", None), ("rcept_dt", "접수일자", None),
    ("taMinDay", "연최저기온 나타난 날", None), ("crsc_osprpd_bgd", "감자일정(구주권 제출기간(시작일))", None),
    ("시정권고참조법률", "시정권고참조법률", None), ("mgmCptAt", "", None), ("bassMtRntchrg", "", None),
    ("aggr", "연령대", None), ("rm", "비고", None), ("statDivNm", "통계구분명", None),
    # round two: the meaning before the unit, and ranges per meaning
    ("inde_rt", "증감률(%)", "signed_rate"), ("accpt_rt", "수용률(%)", "rate"), ("altitude_09", "9시 고도", "sun_altitude"),
    ("azimuth_18", "18시 방위각", "azimuth"), ("tm", "거리(km)", "distance"), ("errorRangeKm", "오차 범위", "error_km"),
    ("altitudeKm", "낙뢰 고도", "altitude_km"), ("PLMST_PSNCNT", "의석수", "seats"), ("N1", "지역구", "seats"),
    ("ERACO", "대수", "term"), ("PROC_CNT", "예산안건수", "count"), ("rte_cnt", "노선수", "count"),
    ("DAY", "선행일", "lead_days"), ("VALUE", "서리 발생 가능성(%)", "probability"), ("rnSt", "강수확률", "probability"),
    ("higst_popl_popl", "최고인구수(명)", "population"), ("target_popl", "대상인구", "population"),
    ("pasg_dstnc_sum", "통행거리합계", "total"), ("shelt_abl_popl_smry", "대피가능인구 계(천명)", "total"),
    ("gvpn_user_num_smry", "이용자수 계", "total"), ("taavg", "", "temperature"), ("clprVs", "종가 대비", "signed_rate"),
    ("sl_vs", "영업정지 내역(매출액 대비)", "rate"), ("avrg_cnwk_sdytrn", "평균 근속 연수", "years"),
])
def test_measure_kind_reads_name_label_and_unit(name: str, label: str, kind: str | None) -> None:
    assert measure_kind(name, label) == kind


@pytest.mark.parametrize(("eid", "fields"), [
    ("kma_day_statistics", {"dayAvgTa": r"-?\d+\.\d", "dayMaxTa": r"-?\d+\.\d", "dayAvgRhm": r"\d+"}),
    ("mois_design_protect_zone_region_list", {"tot": r"\d+"}),
    ("dart_fric_decsn", {"fv_ps": r"[\d,]+", "bfic_tisstk_ostk": r"\d{1,3}(,\d{3})*"}),
    ("dart_tsstk_aq_decsn", {"aq_wtn_div_ostk_rt": r"\d+\.\d\d", "aqpln_stk_ostk": r"\d{1,3}(,\d{3})*"}),
])
def test_measure_fields_hold_numbers_from_edition_9(catalog, worlds, w9_old_districts, eid: str, fields: dict[str, str]) -> None:
    """Edition 8 filled these with "<label> n" ("평균 기온 1"); edition 9 a number of the unit
    (temperatures one decimal in -3.2..31.5, OpenDART shares with thousands separators), and
    every other value of the record as edition 8 has it (over edition 8's districts)."""
    ep = catalog.endpoint(eid)
    labels = {f.name: f.description for f in ep.fields}
    old, new = synth_records(worlds[0], ep, {}), synth_records(w9_old_districts, ep, {})
    assert old and len(old) == len(new)
    for i, (r8, r9) in enumerate(zip(old, new)):
        for k, shape in fields.items():
            assert r8[k] == f"{labels[k].split('(')[0].strip()} {i + 1}"  # the old wrong case
            assert re.fullmatch(shape, str(r9[k])), (k, r9[k])  # (MOIS tot: an int, as published)
        # a field only edition 9 serves is one the edition-9 facts publish (s39-fields)
        assert set(r9) - set(r8) <= {n for n, e in (ep.opt("late_fields") or {}).items() if e == 9}
        # else unchanged, but where a field's meaning says otherwise, or a statistics table's
        # column or total (a whole number: the columns edition 9's facts add change its sums)
        assert all(r9[k] == r8[k] or _rule9(k, labels[k], "string") or k in published_numbers(ep) or _renamed(r8[k], r9[k]) or k in format_fields(ep)
                   or (bool(set(r9) - set(r8)) and re.fullmatch(r"\d+", str(r9[k]))) for k in r9 if k in r8)
        if "dayAvgTa" in fields:
            assert -3.2 <= float(r9["dayAvgTa"]) <= 31.5


#: Edition 9's value shapes by what :func:`_rule9` reads a field as.
_SHAPES = {"month": r"20\d\d(0[1-9]|1[0-2])", "birth": r"19\d\d(0[1-9]|1[0-2])", "region": r"[가-힣 ]+",
           "date": r"20\d{6}", "measure": NUMBER.pattern, "code": r"\d{5,6}", "month_only": r"(0?[1-9]|1[0-2])", "day": r"20\d{6}|20\d\d년 \d\d월 \d\d일"}


def test_edition_9_changes_only_what_a_field_means(catalog, worlds, w9_old_districts) -> None:
    """Across a slice of generated endpoints (NEC's aside: their places, below), edition 9 (over
    edition 8's districts) differs from edition 8 only where a field's name, label or unit says
    what it holds (a measure: a number of its unit; a year-month; a region's name; a format), or
    where a statistics table's column or total is a count, and there by a value of that shape."""
    eps = [e for e in catalog.endpoints.values() if e.fidelity != "curated" and not e.path.startswith("/9760000/")][::25]
    w8, w9 = worlds[0], w9_old_districts
    assert w9.edition == MEASURES_EDITION
    changed = 0
    for ep in eps:
        spec = {f.name: f for f in ep.fields}
        for r8, r9 in zip(synth_records(w8, ep, {}), synth_records(w9, ep, {}), strict=True):
            for k, v in r9.items():
                if v != r8[k]:
                    changed += 1
                    f = spec[k]
                    rule = _rule9(f.name, f.description, f.type)
                    if k in format_fields(ep):
                        assert v in ("json", "xml")
                    elif _renamed(r8[k], v):  # synth._name9: a place or a kind's word
                        pass
                    elif "opendart" in ep.host and re.search("일|날짜", f.description):  # gen/dart_dates.py
                        assert re.fullmatch(r"20\d\d(년 |-|\.)?\d\d(월 |-|\.)?\d\d일?", str(v)), (ep.id, k, v)
                    elif rule is not None:
                        assert re.fullmatch(_SHAPES[rule[0]], str(v)), (ep.id, k, r8[k], v)
                    elif re.search("금액", f.description) and re.fullmatch(r"\d{9,14}", str(r8[k])):
                        # edition 8's 10^8-10^13 for any 금액 label (synth._won9): a date-time, a listed word
                        assert (re.fullmatch(r"20\d\d-\d\d-\d\d \d\d:00:00|20\d{6}|[\d,]+", str(v))
                                or str(v) in f.description), (ep.id, k, r8[k], v)
                    else:  # a table's column or total: a whole number
                        assert isinstance(v, int) or re.fullmatch(r"\d+", str(v)), (ep.id, k, r8[k], v)
    assert changed > 100


def _renamed(old: object, new: object) -> bool:
    """Edition 8's "<label> n" became a place's name or a kind's word (synth._name9)."""
    return bool(re.fullmatch(r".+ \d+", str(old)) and re.fullmatch(r"[가-힣/ ]+[0-9가-힣]*", str(new)))


#: Bounds a client reads a value of each kind within (edition 9, every changed field of a slice).
_BOUNDS = {"rate": (0, 100), "yield": (0, 10), "unit_area": (10, 200), "probability": (0, 100), "signed_rate": (-100, 100), "sun_altitude": (-90, 90),
           "azimuth": (0, 360), "distance": (0, 20), "error_km": (0, 10), "altitude_km": (0, 20),
           "seats": (0, 300), "term": (1, 22), "lead_days": (0, 7), "temperature": (-40, 45), "humidity": (0, 100)}


def test_edition_9_ranges_follow_the_field_meaning(catalog, worlds) -> None:
    """Edition 8 drew a field typed a number 0-9999.99 (integer 0-99999) whatever it meant: a
    수용률(%) of 6879.79, an 오차 범위 of 8769.22 km, 의석수 62746. Edition 9 reads the meaning
    first: rates within 0-100, changes either way, a sun's altitude in degrees, distances of a
    few km, seats at most 300, a date typed integer as YYYYMMDD."""
    w9 = worlds[1]
    seen: set[str] = set()
    for ep in [e for e in catalog.endpoints.values() if e.fidelity != "curated"][::11]:
        for rec in synth_records(w9, ep, {}):
            for f in ep.fields:
                rule = _rule9(f.name, f.description, f.type)
                if f.name not in rec or rule is None or rule[0] != "measure" or rule[1] not in _BOUNDS:
                    continue
                value = rec[f.name]
                if isinstance(value, str) and not NUMBER.fullmatch(value):
                    continue  # a value an earlier rule shaped (a date, a code)
                lo, hi = _BOUNDS[rule[1]]
                assert lo <= float(str(value).replace(",", "")) <= hi, (ep.id, f.name, f.description, value)
                seen.add(rule[1])
    assert {"rate", "term", "temperature"} <= seen
    kasi = catalog.endpoint("kasi_lcsr_altude_info")
    row = synth_records(w9, kasi, {})[0]
    assert 20000101 <= row["locdate"] <= 20291231 and 0 <= float(row["azimuth_09"]) <= 360


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
def test_nec_places_are_named_as_of_the_vote_date(catalog, worlds, w9_old_districts, filters: dict[str, str], sd: str, wiw: str) -> None:
    """Edition 9: a generated NEC polling place or counting station lies in the 시도 and 구시군
    asked, named as on the vote date; edition 8 gave an address of today's districts anywhere
    (the old wrong case); a place the election did not have answers nothing."""
    for eid, field in (("nec_polplc_otlnmap_trnsport_info_inqire", "addr"), ("nec_counting_sttn_info_inqire", "placeAddr")):
        ep = catalog.endpoint(eid)
        old, new = synth_records(worlds[0], ep, filters), synth_records(w9_old_districts, ep, filters)
        assert new and len(new) == len(old)
        assert all(r[field].startswith(f"{sd} {wiw} ") for r in new), [r[field] for r in new]
        assert not all(r[field].startswith(f"{sd} {wiw} ") for r in old)
        spec = {f.name: f for f in ep.fields}
        other = [k for k in spec if k not in ("addr", "placeAddr", "emdName") and _rule9(k, spec[k].description, spec[k].type) is None]
        assert all({k: a[k] for k in other} == {k: b[k] for k in other} for a, b in zip(old, new))
    ep = catalog.endpoint("nec_polplc_otlnmap_trnsport_info_inqire")
    assert synth_records(worlds[1], ep, {"sgId": "20200415", "sdName": "강원특별자치도"}) == []
    unfiltered = synth_records(worlds[1], catalog.endpoint("nec_pre_polplc_otlnmap_trnsport_info_inqire"), {"sgId": "20200415"})
    assert unfiltered and not any(r["addr"].startswith(("강원특별자치도", "전북특별자치도")) or "시도명" in r["sdName"]
                                  for r in unfiltered)


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
    # the 21st (rule-made as before): the same but in 충청북도, whose 영동군 is back from edition 9
    old21, new21 = w8.constituencies("20200415", "2"), w9.constituencies("20200415", "2")
    assert [r for r in new21 if r["sdName"] != "충청북도"] == [r for r in old21 if r["sdName"] != "충청북도"]
    assert "43740" in {c for r in new21 for c in r["lawd_cds"]} - {c for r in old21 for c in r["lawd_cds"]}
    assert [w9.district(c).name for c in by["보은군옥천군영동군괴산군"]["lawd_cds"]] == ["보은군", "옥천군", "영동군", "괴산군"]
    # the bills keep edition 8's ids, dates and votes (recorded keys still answer), their numbers
    # 2260001 up for 2290001 up (BILL_NUMBERS_EDITION) ...
    keep = ("BILL_ID", "BILL_NAME", "PROPOSE_DT", "PROC_RESULT", "voted")
    assert [[b[k] for k in keep] for b in w9.bills()] == [[b[k] for k in keep] for b in w8.bills()]
    assert [b["BILL_NO"] for b in w9.bills()] == ["226" + b["BILL_NO"][3:] for b in w8.bills()]
    # ... and any of the 300 proposes one; co-proposers' codes are those of the named members
    names = {m["MONA_CD"]: m["HG_NM"] for m in w9.members()}
    assert len({b["RST_MONA_CD"] for b in w9.bills()}) == 300
    assert all([names[c] for c in b["PUBL_MONA_CD"].split(",")] == b["PUBL_PROPOSER"].split(",") for b in w9.bills()[:200])


def test_yeongdong_is_a_district_from_edition_9(worlds) -> None:
    """충청북도 영동군 (43740) was missing from every edition's district list: the 일반구 rule took
    증평군 (43745, its neighbour in code) for a 구 of it. From edition 9 a 일반구 is one named
    after its city ("수원시 장안구"), so 영동군 is a district with its 읍면; editions 2-8 as before."""
    w8, w9 = worlds
    assert w8.district("43740") is None and len(w8.districts()) == 254
    yd = w9.district("43740")
    assert yd is not None and yd.name == "영동군" and yd.sido.name == "충청북도" and len(yd.dongs) >= 10
    assert w9.district("43745").name == "증평군" and len(w9.districts()) == 255
    assert [d.name for d in w9.districts() if d.name.startswith("수원시")] == [d.name for d in w8.districts() if d.name.startswith("수원시")]
    # the world's entities are drawn over edition 8's list: every company and school keeps its
    # name and code (v0009's plan recorded from edition 9 empties no collection)
    assert w9.entity_districts() == [d for d in w9.districts() if d.lawd_cd != "43740"]
    assert [(c["corp_code"], c["corp_name"]) for c in w9.invented_companies()] == \
        [(c["corp_code"], c["corp_name"]) for c in w8.invented_companies()]
    assert [s["SD_SCHUL_CODE"] for s in w9.schools()] == [s["SD_SCHUL_CODE"] for s in w8.schools()]


def test_a_statistics_table_adds_up() -> None:
    """Edition 9: a record's total is the sum of its parts in the record — the columns its
    qualifier names ("세대수 합계" → "서울 세대수", "부산 세대수"), else (a bare "계") every count
    column no other total takes, subtotals included; "조례규칙 총계" the totals of 조례 and 규칙; a
    column beside count columns that no rule read ("특별시" beside "광역시(개)") a count."""
    fields = [("smry", "계(명)", "integer"), ("exe_subtot", "행정부 소계(명)", "integer"),
              ("exe_stte", "행정부 국가(명)", "integer"), ("exe_locl", "행정부 지방(명)", "integer"),
              ("leg", "입법부(명)", "integer"), ("rate", "증감률(%)", "number"), ("org", "기관", "string")]
    rec = {"smry": 5, "exe_subtot": 9, "exe_stte": 10, "exe_locl": 20, "leg": 7, "rate": 3.5, "org": "기관 1"}
    out = table_record(fields, rec, 0, "t")
    assert out["exe_subtot"] == 30 and out["smry"] == 37 and out["rate"] == 3.5 and out["org"] == "기관 1"
    fields = [("tot_ordin_regul", "조례규칙 총계(개)", "integer"), ("tot_ordin", "조례 총계(개)", "integer"),
              ("tot_regul", "규칙 총계(개)", "integer"), ("a_ordin", "시도 조례(개)", "integer"),
              ("b_ordin", "시군구 조례(개)", "integer"), ("a_regul", "시도 규칙(개)", "integer"),
              ("b_regul", "시군구 규칙(개)", "integer"), ("spcl", "특별시", "string")]
    rec = {"tot_ordin_regul": 1, "tot_ordin": 1, "tot_regul": 1, "a_ordin": 2, "b_ordin": 3, "a_regul": 4,
           "b_regul": 5, "spcl": "특별시 1"}
    out = table_record(fields, rec, 0, "t")
    assert (out["tot_ordin"], out["tot_regul"], out["tot_ordin_regul"]) == (5, 9, 14)
    assert re.fullmatch(r"\d+", out["spcl"])
    assert table_record(fields, rec, 0, "t", keep=frozenset({"tot_ordin"}))["tot_ordin"] == 1  # a filter's value stays
    # a record's minimum, means and maximum of one quantity come in order (KMA's yearly summary)
    fields = [("taMax", "연최고기온", "string"), ("taMaxAvg", "", "string"), ("taMin", "기온-최저", "string"),
              ("taMinAvg", "연최저기온 평균", "string"), ("dayAvgRhm", "평균 상대습도", "string")]
    rec = {"taMax": "-1.3", "taMaxAvg": "2.3", "taMin": "23.2", "taMinAvg": "7.1", "dayAvgRhm": "40"}
    out = table_record(fields, rec, 0, "t")
    assert [out[k] for k in ("taMin", "taMinAvg", "taMaxAvg", "taMax")] == ["-1.3", "2.3", "7.1", "23.2"]


def test_generated_tables_add_up_and_echo_the_format(catalog) -> None:
    """Through the app at edition 9: the Assembly's women members per term add up (합계 = 지역구 +
    전국구, at most 300 seats each), and a MOIS yearbook answer's "type" (수신 문서양식) is a document
    format, not "수신 문서양식 1"."""
    app = create_app(seed=0, catalog=catalog, edition=9)
    keys = default_keys(catalog)
    ep = catalog.endpoint("assembly_nmkjkjpwaxfhwdnjl")
    for r in synth_records(app.world, ep, {}):
        assert int(r["SUM"]) == int(r["LCST_FMLAWMKCT"]) + int(r["NATION_FMLAWMKCT"]) and 1 <= int(r["ERACO"]) <= 22
        assert int(r["LCST_FMLAWMKCT"]) <= 300
    ep = catalog.endpoint("mois_admini_district_year_list")
    served = set()
    for fmt in ("json", "xml"):
        resp = app.handle(SimRequest.from_url(
            f"https://{ep.host}{ep.path}?serviceKey={keys[ep.platform]}&numOfRows=2&type={fmt}"))
        body = resp.body.decode()
        found = re.findall(r'"type":"(\w+)"|<type>(\w+)</type>', body)
        assert resp.status == 200 and found, body[:300]
        served |= {a or b for a, b in found}
    # a document format (the head's echoes the one asked; a row's is the same in both answers, as
    # a recording renders one record set in both: test_mois_yearbook_family replays them)
    assert served <= {"json", "xml", "JSON", "XML"} and "수신 문서양식" not in body, served
    old = create_app(seed=0, catalog=catalog, edition=8).handle(SimRequest.from_url(
        f"https://{ep.host}{ep.path}?serviceKey={keys[ep.platform]}&numOfRows=2&type=json"))
    assert '"type":"수신 문서양식 1"' in old.body.decode()  # edition 8 as recorded


def test_a_record_names_one_place(catalog, worlds) -> None:
    """Edition 9: a record's region names come from one district — its region entity's, its bus
    city's (TAGO ``cityName``), else one drawn for the record: no row pairs 대구광역시 with 화천군."""
    w9 = worlds[1]
    rows = synth_records(w9, catalog.endpoint("mois_select_admm_sexd_ppltn_irds"), {})
    assert rows and all(any(d.sido.name == r["ctpvNm"] and d.name == r["sggNm"] for d in w9.districts()) for r in rows)
    rows = synth_records(w9, catalog.endpoint("airkorea_ctprvn_mesure_sido_list"), {})
    assert rows and all(any(d.sido.name == r["sidoName"] and d.name.split(" ")[0] == r["cityName"].split("/")[0]
                            for d in w9.districts()) or r["sidoName"] == r["cityName"] for r in rows)


def test_rtms_services_answer_the_district_and_month_asked(catalog, worlds) -> None:
    """Edition 9 (``RTMS_REQUEST_EDITION``): a generated RTMS call (land, 단독/다가구, 연립다세대,
    오피스텔 rents, 분양권, factories, commercial buildings) answers deals of the ``LAWD_CD`` and
    ``DEAL_YMD`` asked — every Seoul district in 2025-12 and 강남구 in every month 2024-01..2025-12;
    edition 8 answered other districts and years (kopa@v0009 holds those records)."""
    w8, w9 = worlds
    eps = [e for k, e in sorted(catalog.endpoints.items()) if k.startswith("molit_rtmsdata_svc")]
    assert len(eps) == 8 and all(is_rtms(e) for e in eps)
    seoul = [d.lawd_cd for d in w9.districts() if d.lawd_cd.startswith("11")]
    assert len(seoul) == 25
    asks = [(lawd, "202512") for lawd in seoul] + [("11680", ym) for ym in TRADE_MONTHS]
    words = re.compile(r"^(지번|건물유형|건물주용도|용도지역|지목|주택유형|단지|단지명|연립다세대명|계약일) \d+$")
    for ep in eps:
        for lawd, ym in asks:
            rows = synth_records(w9, ep, {"LAWD_CD": lawd, "DEAL_YMD": ym})
            d = w9.district(lawd)
            assert rows and d is not None, (ep.id, lawd, ym)
            leaves = {x.leaf for x in d.dongs}
            for r in rows:
                assert r["sggCd"] == lawd and r["dealYear"] == ym[:4] and r.get("dealMonth", str(int(ym[4:]))) == str(int(ym[4:]))
                assert r["umdNm"] in leaves and r.get("sggNm", d.name) == d.name, (ep.id, r)
                assert not any(words.match(str(v)) for v in r.values()), (ep.id, r)
        # no data: an unknown district, a city code with 일반구, a month outside the world's, a malformed month
        for bad in ({"LAWD_CD": "99999", "DEAL_YMD": "202512"}, {"LAWD_CD": "41110", "DEAL_YMD": "202512"},
                    {"LAWD_CD": "11680", "DEAL_YMD": "202312"}, {"LAWD_CD": "11680", "DEAL_YMD": "2025-12"}):
            assert synth_records(w9, ep, bad) == [], (ep.id, bad)
    old = synth_records(w8, catalog.endpoint("molit_rtmsdata_svc_indu_trade"), {"LAWD_CD": "11680", "DEAL_YMD": "202512"})
    assert any(r["sggCd"] != "11680" for r in old)  # the bad case edition 8 keeps


def test_rtms_rents_are_in_man_won(catalog, worlds) -> None:
    """A 단독/다가구 rent's 보증금액(만원) and 월세금액(만원) are tens of millions of won and a monthly
    rent, not 10^12 (edition 8 drew them as any amount)."""
    ep = catalog.endpoint("molit_rtmsdata_svc_shrent")
    rows = synth_records(worlds[1], ep, {"LAWD_CD": "11680", "DEAL_YMD": "202506"})
    for r in rows:
        assert 1_000 <= int(r["deposit"].replace(",", "")) <= 90_000 and 0 <= int(r["monthlyRent"]) < 250, r
        assert 60 <= float(r["totalFloorAr"]) <= 600


def test_a_subset_column_stays_within_its_base() -> None:
    """Edition 9 (measures._subsets): 재외국민 인구수 ≤ 인구수, 확정선거인수 재외국민 ≤ 확정선거인수 계,
    남성 재외국민 ≤ both its bases, 남성 + 여성 of a base without a total add up to it, and the
    electors of a place are about four in five of its 인구수."""
    spec = [("ppltCnt", "인구수", "string"), ("ntabPpltCnt", "재외국민 인구수", "string"),
            ("cfmtnElcnt", "확정선거인수 계", "string"), ("cfmtnRacnt", "확정선거인수 재외국민", "string"),
            ("cfmtnManElcnt", "남성 확정선거인수", "string"), ("cfmtnManRacnt", "남성 재외국민", "string"),
            ("cfmtnFmlElcnt", "여성 확정선거인수", "string"), ("cfmtnFmlRacnt", "여성 재외국민", "string"),
            ("rdvt", "거소투표신고인수", "string"), ("rdvtMan", "남성 거소투표신고인수", "string"),
            ("rdvtFml", "여성 거소투표신고인수", "string")]
    # edition 9's first draw (nec_elpc_elcnt_info_inqire, seed 0): 87,369 재외국민 of a 계 of 134
    rec = {"ppltCnt": "110673", "ntabPpltCnt": "490504", "cfmtnElcnt": "134", "cfmtnRacnt": "87369",
           "cfmtnManElcnt": "9", "cfmtnManRacnt": "20740", "cfmtnFmlElcnt": "125", "cfmtnFmlRacnt": "50188",
           "rdvt": "72", "rdvtMan": "862", "rdvtFml": "85"}
    for seed in range(30):
        out = {k: int(v) for k, v in table_record(spec, rec, 0, f"s{seed}").items()}
        assert out["ntabPpltCnt"] <= out["ppltCnt"]
        assert out["cfmtnElcnt"] == out["cfmtnManElcnt"] + out["cfmtnFmlElcnt"]
        assert 0.77 <= out["cfmtnElcnt"] / out["ppltCnt"] <= 0.87 and out["ppltCnt"] == 110673  # electors of a place
        assert 0.4 <= out["cfmtnManElcnt"] / out["cfmtnElcnt"] <= 0.6
        assert out["cfmtnRacnt"] <= out["cfmtnElcnt"]
        for sex in ("Man", "Fml"):
            assert out[f"cfmtn{sex}Racnt"] <= min(out["cfmtnRacnt"], out[f"cfmtn{sex}Elcnt"])
        assert out["rdvtMan"] + out["rdvtFml"] == out["rdvt"] == 72


def test_generated_elector_tables_hold_no_subset_above_its_base(catalog, worlds) -> None:
    w8, w9 = worlds
    pairs = [("ntabPpltCnt", "ppltCnt"), ("frgnrPpltCnt", "ppltCnt"), ("cfmtnRacnt", "cfmtnElcnt"),
             ("cfmtnFrgnrCnt", "cfmtnElcnt"), ("cfmtnManRacnt", "cfmtnRacnt"), ("cfmtnFmlFrgnrCnt", "cfmtnFrgnrCnt"),
             ("cfmtnNtabRdvtDccnt", "cfmtnRdvtDccnt"), ("cfmtnRdvtManDccnt", "cfmtnRdvtDccnt")]
    for eid in ("nec_elpc_elcnt_info_inqire", "nec_emd_elcnt_info_inqire", "nec_gsig_elcnt_info_inqire",
                "nec_vtds_elcnt_info_inqire"):
        ep = catalog.endpoint(eid)
        rows = synth_records(w9, ep, {})
        assert rows
        for r in rows:
            for part, base in pairs:
                assert int(r[part]) <= int(r[base]), (eid, part, base, r)
        old = synth_records(w8, ep, {})
        assert any(int(r["cfmtnRacnt"]) > int(r["cfmtnElcnt"]) for r in old)  # the bad case edition 8 keeps


def test_administrative_unit_counts_are_the_world_s(catalog, worlds) -> None:
    """MOIS 행정구역 현황 counts the world's 특별시, 광역시, … as of its 기준년도 (edition 9's first draw
    said 979 특별시 and 2,648 광역시)."""
    ep = catalog.endpoint("mois_admini_district_year_list")
    rows = synth_records(worlds[1], ep, {})
    assert rows
    for r in rows:
        year = int(r["bas_yy"])
        assert (r["spclmcity"], r["othrmcitiy"], r["spclatomcty"]) == (1, 6, 1), r
        assert r["provi"] + r["ssefprvin"] == 9 and r["ssefprvin"] == (1 if year < 2023 else 2 if year < 2024 else 3), r
        assert (r["city"], r["cnti"]) == (75, 82), r


def test_counts_the_published_list_types_as_numbers_are_json_numbers(catalog, worlds) -> None:
    """Edition 9 (``PUBLISHED_TYPES_EDITION``): a count or amount the catalog types as a string but
    its published field list as integer/number (MOIS 특별시(개), 합계(개소), 계(명), 대상인구(천명)) is a
    JSON number, in the published unit; a code the list calls integer (KMA stnId 지점코드) is not
    retyped. Edition 8 served "979" and "보행환경개선지구 1"."""
    w8, w9 = worlds
    cases = {"mois_admini_district_year_list": "spclmcity", "mois_design_protect_zone_region_list": "tot",
             "mois_design_ped_env_improv_dist_list": "pedes_env_imprv_dstric",
             "mois_air_raid_shelter_year_list": "target_popl", "mois_avg_size_administrative_dist_list": "avg_area"}
    for eid, name in cases.items():
        ep = catalog.endpoint(eid)
        assert name in published_numbers(ep)
        rows = synth_records(w9, ep, {})
        assert rows and all(isinstance(r[name], (int, float)) and not isinstance(r[name], bool) for r in rows), (eid, rows[:1])
        assert all(isinstance(r[name], str) for r in synth_records(w8, ep, {}))
    assert published_numbers(catalog.endpoint("mois_air_raid_shelter_year_list"))["target_popl"][1] == 1000  # (천명)
    assert "stnId" not in published_numbers(catalog.endpoint("kma_eqk_msg"))


def test_amounts_are_in_a_plausible_range_of_their_unit(catalog, worlds) -> None:
    """Edition 9: a field edition 8 filled with 10^8-10^13 won for naming 금액 holds an amount of
    its meaning (10만-100억 won; a company's assets, capital or sales 10억-2조), a date-time
    (PPS 기초금액공개일시) or one of its 구분's words (FSC 구분(금액/비중)); edition 8 kept the bad values."""
    w8, w9 = worlds
    ep = catalog.endpoint("fsc_management_status_v2")
    assert {r["ctg"] for r in synth_records(w9, ep, {})} <= {"금액", "비중"}
    assert all(re.fullmatch(r"\d{13}", r["ctg"]) for r in synth_records(w8, ep, {}))
    ep = catalog.endpoint("pps_bid_pblanc_list_info_thng_bsis_amount")
    assert all(re.fullmatch(r"20\d\d-\d\d-\d\d \d\d:00:00", r["bssamtOpenDt"]) for r in synth_records(w9, ep, {}))
    ep = catalog.endpoint("fsc_trea_stoc_repu_disc_info_v2")
    for r in synth_records(w9, ep, {}):
        assert 10 ** 5 <= int(r["trsstcAcqAmt"]) <= 10 ** 10  # won, not a number of shares
    ep = catalog.endpoint("fsc_busi_inhet_disc_info_v2")
    for r in synth_records(w9, ep, {}):
        assert 10 ** 9 <= int(r["tastAmt"]) <= 2 * 10 ** 12, r["tastAmt"]  # 총자산금액


def _day(v: str) -> str:
    return re.sub(r"\D", "", v)


def test_opendart_dates_follow_the_receipt(catalog, worlds) -> None:
    """Edition 9 (gen/dart_dates.py): in every generated OpenDART report a decision (이사회결의일) is
    on or up to three days before the receipt day ``rcept_no`` begins with, 결산기준일 is a year-end
    before it, announced dates come after it in the order of events (신주배정기준일 < 신주권교부예정일
    < 신주의 상장 예정일); edition 8 had a board resolution after the receipt."""
    from simulator.sandbox.gen.dart_dates import _DECISION, _SEQUENCE

    w8, w9 = worlds
    checked = 0
    for eid, ep in sorted(catalog.endpoints.items()):
        if ep.fidelity == "curated" or "opendart" not in ep.host:
            continue
        labels = {f.name: f.description for f in ep.fields}
        for r in synth_records(w9, ep, {}):
            receipt = str(r.get("rcept_no", ""))[:8]
            if not re.fullmatch(r"20\d{6}", receipt):
                continue
            seq = []
            for name, v in r.items():
                if name == "rcept_no" or not isinstance(v, str) or not re.fullmatch(r"\d{4}(년 |-|\.)?\d\d(월 |-|\.)?\d\d일?", v):
                    continue
                if not re.search(r"일|날짜", labels[name]):
                    continue
                checked += 1
                if name == "stlm_dt" or labels[name].startswith("결산기준일"):
                    assert _day(v) < receipt and _day(v).endswith("1231"), (eid, name, v, receipt)
                elif _DECISION.search(labels[name]):
                    assert _day(v) <= receipt, (eid, name, v, receipt)
                elif re.search("예정|청약|납입|교부", labels[name]) and "만기" not in labels[name]:
                    assert _day(v) > receipt, (eid, name, v, receipt)
                    seq.append((next((i for i, w in enumerate(_SEQUENCE) if w in labels[name]), 99), _day(v)))
            assert [d for _, d in sorted(seq)] == sorted(d for _, d in seq), (eid, r)
    assert checked > 100
    ep = catalog.endpoint("dart_fric_decsn")
    assert any(_day(r["bddd"]) > r["rcept_no"][:8] for r in synth_records(w8, ep, {}))  # the bad case edition 8 keeps


def test_place_and_kind_names_are_real_shaped(catalog, worlds) -> None:
    """Edition 9 (``NAMES_EDITION``): a field edition 8 filled with "<label> n" names a place of the
    world where its label or name says so (KMA ``areaName``, MOLIT 출발시도명 with its 출발시군구명) and
    a word of its kind where it names one (요일명, 구분); names of people stay as they were (no
    invented value posing as a real person's)."""
    w8, w9 = worlds
    full = {d.full_name for d in w9.districts()}
    ep = catalog.endpoint("kma_day_statistics")
    assert all(r["areaName"] in full for r in synth_records(w9, ep, {}))
    assert all(re.fullmatch(r"areaName \d+", r["areaName"]) for r in synth_records(w8, ep, {}))
    ep = catalog.endpoint("molit_busan_most_frequent_transportation_route_data_monthly")
    pairs = {(d.sido.name, d.name) for d in w9.districts()}
    for r in synth_records(w9, ep, {}):
        assert (r["dptre_ctpv_nm"], r["dptre_sgg_nm"]) in pairs, r
    ep = catalog.endpoint("molit_average_travel_distancefor_peoplewith_reduced_mobility")
    assert all(r["dow_nm"].endswith("요일") and len(r["dow_nm"]) == 3 for r in synth_records(w9, ep, {}))
    ep = catalog.endpoint("assembly_forum")
    assert all(r["DIV"] in ("일반", "기타") for r in synth_records(w9, ep, {}))
    ep = catalog.endpoint("assembly_nrvsawtaauyihadij")  # 후보자명: a person's name stays a placeholder
    assert all(re.fullmatch(r"후보자명 \d+", r["APPOINT_NAME"]) for r in synth_records(w9, ep, {}))


def test_kma_station_ids_are_three_digit_asos_numbers(catalog, worlds) -> None:
    """Edition 9 (``KMA_STATIONS_EDITION``): a generated KMA record's 지점번호 is a three-digit station
    number with its name (108 서울), the one a request names (``stnIds=108``); edition 8 drew six
    digits. Buoys keep theirs."""
    from simulator.sandbox.gen.synth import _ASOS

    w8, w9 = worlds
    names = dict(_ASOS)
    checked = 0
    for eid, ep in sorted(catalog.endpoints.items()):
        if ep.fidelity == "curated" or not eid.startswith("kma_") or "buoy" in eid:
            continue
        labels = {f.name: f.description for f in ep.fields}
        for r in synth_records(w9, ep, {}):
            for k in ("stnId", "stn_id", "stnid", "Stn_id"):
                if k in r and "결과" not in labels[k]:  # kma_r_air_stn_lst_tbl's stn_id is a 결과코드
                    checked += 1
                    assert re.fullmatch(r"\d{3}", str(r[k])), (eid, k, r[k])
                    for nk in ("stnNm", "stn_ko"):
                        if nk in r:
                            assert r[nk] == names[int(r[k])], (eid, r)
    assert checked > 50
    ep = catalog.endpoint("kma_asos_hourly_info_service_wthr_data_list")
    rows = synth_records(w9, ep, {"stnIds": "108"})
    assert rows and all(r["stnId"] == "108" and r["stnNm"] == "서울" for r in rows)
    assert all(re.fullmatch(r"\d{6}", r["stnId"]) for r in synth_records(w8, ep, {}))


def test_bills_take_numbers_the_real_22nd_assembly_will_not_reach(worlds) -> None:
    """Edition 9 (``BILL_NUMBERS_EDITION``): the invented bills are 2260001 up (edition 8: 2290001,
    which read as ninety thousand bills); the real ones (2200001 up, near 2220000 in 2026) stay below."""
    from simulator.sandbox.world._politics import BILL_NUMBERS_EDITION

    w8, w9 = worlds
    assert w9.edition >= BILL_NUMBERS_EDITION > w8.edition
    numbers = [b["BILL_NO"] for b in w9.bills()]
    assert numbers[0] == "2260001" and all("2260001" <= n <= "2269999" for n in numbers)
    assert [b["BILL_ID"] for b in w9.bills()] == [b["BILL_ID"] for b in w8.bills()]  # the same bills
    assert w8.bills()[0]["BILL_NO"] == "2290001"


def test_an_area_asked_names_the_records_area(catalog, worlds) -> None:
    """Edition 9: KMA 농업기상 ``AREA_ID=4111000000`` answers records of 경기도 수원시, not of any place."""
    ep = catalog.endpoint("kma_day_statistics")
    assert {r["areaName"] for r in synth_records(worlds[1], ep, {"AREA_ID": "4111000000"})} == {"경기도 수원시"}
    assert {r["areaName"] for r in synth_records(worlds[1], ep, {"AREA_ID": "1168000000"})} == {"서울특별시 강남구"}


def test_foreign_residents_are_electors_in_local_elections_only(catalog, worlds) -> None:
    """Edition 9: NEC's 확정선거인수 외국인 is 0 for the 2024 National Assembly election and the 2022
    presidential one, and may be more for the 2022 local elections (foreign residents vote there)."""
    ep = catalog.endpoint("nec_gsig_elcnt_info_inqire")
    for sg in ("20240410", "20220309"):
        rows = synth_records(worlds[1], ep, {"sgId": sg})
        assert rows and all(r["cfmtnFrgnrCnt"] == r["cfmtnManFrgnrCnt"] == r["cfmtnFmlFrgnrCnt"] == "0" for r in rows)
    rows = synth_records(worlds[1], ep, {"sgId": "20220601"})
    assert any(int(r["cfmtnFrgnrCnt"]) > 0 for r in rows)
