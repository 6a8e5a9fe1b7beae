"""The meaning rules (issue 28): scope, raw codes, units, conversation size.

Each rule is derived from the catalog's field semantics (:mod:`edge.synth.quality`) and shown
to refuse its bad case in :func:`edge.synth.checks.check_example`; the sampler is shown to
restrict an aggregate to one period and the question to say it.
"""

from __future__ import annotations

import random
from typing import Any

from edge.synth.checks import check_example
from edge.synth.quality import (
    conversation_chars,
    period_fields,
    period_kind,
    period_text,
    raw_tokens,
    unit_of,
    unscoped_periods,
)
from edge.synth.draft import CallPart, FinalPart, PickLabelPart, StartPart
from edge.synth.questions import write_question
from edge.synth.writers import CONVERSATION_BUDGET
from simulator import load_catalog
from simulator.tools import Program
from tests.support.drafts import example, tool_messages


_example, _msgs = example, tool_messages


#: A school's classes over two school years (the issue's "회현고등학교의 학급이 몇 개" → 41 + 41).
_CLASSES = [{"AY": ay, "GRADE": g, "CLASS_NM": str(c)} for ay in ("2024", "2025") for g in ("1", "2") for c in (1, 2)]
_CALL = {"id": "s1", "call": "neis_class_info", "pages": "all",
         "args": {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": "7010057"}}
_MSGS = _msgs([("neis_class_info", {"ATPT_OFCDC_SC_CODE": "B10", "SD_SCHUL_CODE": "7010057"}, "<row>…</row>")])


def test_period_fields_come_from_the_catalog_semantics() -> None:
    cat = load_catalog()
    assert period_kind(cat, "neis_class_info", "AY") == "school_year"
    assert period_kind(cat, "neis_class_info", "GRADE") is None  # a 학년 is a level, not a period
    assert period_kind(cat, "molit_offi_trades", "buildYear") is None  # the building's year
    assert period_kind(cat, "nec_candidates", "birthday") is None
    assert period_fields(cat, "neis_class_info", _CLASSES) == {"AY": ["2024", "2025"]}
    assert period_fields(cat, "neis_class_info", [r for r in _CLASSES if r["AY"] == "2025"]) == {}
    assert period_text("school_year", "2025") == "2025학년도" and period_text("month", "202407") == "2024년 7월"


def test_a_count_over_two_school_years_is_refused() -> None:
    """The bad case: all the classes of two 학년도, asked as "how many classes"."""
    cat = load_catalog()
    blind = [_CALL, {"id": "v2", "op": "count", "from": "s1"}]
    values = {"s1": _CLASSES, "v2": 8}
    prog = Program.model_validate({"steps": blind, "answer": {"$ref": "v2"}})
    assert unscoped_periods(prog, values, cat) == [("v2", "AY")]
    q = "학교 코드를 아는 그 학교의 학급은 몇 개인가요?"
    assert "unscoped_period" in check_example(_example(q, 8, blind), _MSGS, values, cat)
    # restricted to one school year by the program, but the question never says which: refused
    scoped = [_CALL, {"id": "v2", "op": "count", "from": "s1", "where": [{"field": "AY", "op": "eq", "value": "2025"}]}]
    assert "unscoped_period" in check_example(_example(q, 4, scoped), _MSGS, {**values, "v2": 4}, cat)
    # restricted and said: kept
    said = "2025학년도에 그 학교의 학급은 몇 개인가요?"
    assert "unscoped_period" not in check_example(_example(said, 4, scoped), _MSGS, {**values, "v2": 4}, cat)
    # a filter step in between pins it as well
    via = [_CALL, {"id": "v2", "op": "filter", "from": "s1", "where": [{"field": "AY", "op": "eq", "value": "2025"}]},
           {"id": "v3", "op": "count", "from": "v2"}]
    assert "unscoped_period" not in check_example(_example(said, 4, via), _MSGS, {**values, "v3": 4}, cat)


def test_the_sampler_restricts_an_aggregate_to_one_period_and_says_it() -> None:
    """``Sampler.scope``: the latest period (or the draft's own), a ``scope`` part, said in the question."""
    from edge.synth.draft import Draft, ScopePart
    from edge.synth.sample import Sampler
    from simulator.tools import CallStep

    cat = load_catalog()
    s = Sampler.__new__(Sampler)  # only what ``scope`` reads
    s.catalog = cat
    d = Draft(steps=[CallStep.model_validate(_CALL)])
    d.ctx.values["s1"] = _CLASSES
    spec = s.scope(d, {"op": "count", "from": "s1"})
    assert spec["scope"] == [{"field": "AY", "op": "eq", "value": "2025"}]
    assert [type(p) for p in d.parts] == [ScopePart]
    assert s.scope(d, {"op": "pick", "from": "s1", "field": "CLASS_NM"}).get("scope") is None  # one record's field
    again = s.scope(d, {"op": "sum", "from": "s1", "key": "GRADE"})  # the same period, said once
    assert again["scope"][0]["value"] == "2025" and len(d.parts) == 1
    final = FinalPart(tool="neis_class_info", op="count")
    for seed in range(10):
        assert "2025학년도" in write_question(cat, random.Random(seed), [*d.parts, final], "education")


def test_raw_codes_and_coordinates_are_refused_unless_a_person_has_them() -> None:
    cat = load_catalog()
    assert raw_tokens("'세종특별시' 정류장 ID SJB8000187, 위도 36.8195 경도 127.1566") == ["SJB8000187", "36.8195", "127.1566"]
    assert raw_tokens("7010057 학교의 학과") == ["7010057"]
    assert raw_tokens("2024년 7월 서울특별시 마포구의 오피스텔 매매는 몇 건이에요?") == []
    steps = [{"id": "s1", "call": "tago_stations_nearby", "args": {"gpsLati": "36.8195", "gpsLong": "127.1566"},
              "pages": "all"}, {"id": "v2", "op": "count", "from": "s1"}]
    msgs = _msgs([("tago_stations_nearby", {"gpsLati": "36.8195", "gpsLong": "127.1566"}, "<row/>")])
    coords = _example("위도 36.8195 경도 127.1566 근처 정류장은 몇 곳인가요?", 7, steps)
    assert "raw_code" in check_example(coords, msgs, {"s1": [{}] * 7, "v2": 7}, cat)
    # a stock code a person has in hand may stand
    stock = [{"id": "s1", "call": "fsc_stock_prices", "args": {"likeSrtnCd": "005930"}, "pages": "all"},
             {"id": "v2", "op": "count", "from": "s1"}]
    assert raw_tokens("종목코드 005930") == ["005930"]
    assert "raw_code" not in check_example(
        _example("종목코드 005930의 시세 기록은 몇 건인가요?", 3, stock),
        _msgs([("fsc_stock_prices", {"likeSrtnCd": "005930"}, "<row/>")]), {"s1": [{}] * 3, "v2": 3}, cat)


def test_a_sum_in_a_catalog_unit_says_the_unit() -> None:
    cat = load_catalog()
    assert unit_of(cat, "molit_offi_trades", "dealAmount") == "만원"
    steps = [{"id": "s1", "call": "molit_offi_trades", "args": {"LAWD_CD": "11440", "DEAL_YMD": "202407"}, "pages": "all"},
             {"id": "v2", "op": "sum", "from": "s1", "field": "dealAmount"}]
    msgs = _msgs([("molit_offi_trades", {"LAWD_CD": "11440", "DEAL_YMD": "202407"}, "<row/>")])
    vals = {"s1": [{"dealAmount": "1,000"}] * 3, "v2": 3000}
    bare = _example("2024년 7월 11440 지역 오피스텔 거래금액 합계는 얼마예요?", 3000, steps)
    assert "unit" in check_example(bare, msgs, vals, cat)
    said = _example("2024년 7월 11440 지역 오피스텔 거래금액(만원 단위) 합계는 얼마예요?", 3000, steps)
    assert "unit" not in check_example(said, msgs, vals, cat)


def test_a_conversation_over_the_budget_is_refused() -> None:
    """All of a conversation counts (question, calls' arguments, tool messages, answer), not
    only its tool messages: the issue's 123k-character conversations fit no 32k-token context."""
    cat = load_catalog()
    steps = [{"id": "s1", "call": "neis_school_info", "args": {"SCHUL_NM": "세종초등학교"}, "pages": "all"},
             {"id": "v2", "op": "count", "from": "s1"}]
    ok = _example("세종초등학교는 몇 곳인가요?", 2, steps)
    # tool messages just within the old tool-only budget, plus long call arguments: over in all
    msgs = _msgs([("neis_school_info", {"SCHUL_NM": "세종초등학교", "pad": "x" * 2_000}, "y" * 19_900)] * 5)
    assert sum(len(m.get("content") or "") for m in msgs) <= CONVERSATION_BUDGET
    assert conversation_chars(msgs) > CONVERSATION_BUDGET
    assert "budget" in check_example(ok, msgs, {}, cat)


def test_a_start_with_a_code_nobody_states_walks_back_to_the_name_lookup() -> None:
    """TAGO's station and route tables are recorded per ``cityCode``: a chain does not start
    there ("도시코드 '12'"), it starts at the city-code lookup and asks by the city's name."""
    from edge import Observations
    from edge.synth import ProgramRunner
    from edge.synth.sample import Sampler
    from simulator import Resolver, Store

    version = Store().open("kopa", "v0005")
    catalog = load_catalog(tier="curated")
    obs = Observations.from_version(version, catalog)
    s = Sampler(catalog, [], obs, ProgramRunner(Resolver(version, catalog, miss="strict")), random.Random(0))
    assert not s.sayable("tago_stations_nearby", {"gpsLati": "36.8195", "gpsLong": "127.1566"})
    assert not s.sayable("tago_routes_by_number", {"cityCode": "12"})
    assert s.sayable("nec_candidates", {"sgId": "20240410", "sgTypecode": "2"})  # a date and a labelled code
    assert s.sayable("molit_offi_trades", {"DEAL_YMD": "202407", "LAWD_CD": "11440"}, skip=("LAWD_CD",))
    assert not s.says_start("tago_routes_by_number") and not s.says_start("tago_stations_nearby")
    assert s.start_args("tago_stations_nearby") is None and s.filtered_start("tago_stations_by_name") is None
    assert s.says_start("neis_school_info")  # a name filter (SCHUL_NM)


def test_places_may_be_said_the_short_way_and_contexts_fit_the_ask() -> None:
    from edge.synth.checks import is_stated, region_short
    from edge.synth.lexicon import TOPIC_CONTEXTS
    from edge.synth.questions import topic_of

    cat = load_catalog()
    assert region_short("서울특별시 마포구") == "서울 마포구" and region_short("경기도 수원시") is None
    assert is_stated(cat, "mois_stan_regin_cd", "locatadd_nm", "서울특별시 마포구", "서울 마포구의 오피스텔")
    assert not is_stated(cat, "mois_stan_regin_cd", "locatadd_nm", "서울특별시 마포구", "마포의 오피스텔")
    assert topic_of("molit_offi_trades") == "housing" and topic_of("neis_meal") == "meal"
    assert topic_of("tago_route_stops") == "bus" and topic_of("lawgokr_prec_detail") == "precedent"
    start = StartPart(tool="mois_stan_regin_cd", args={"locatadd_nm": "서울특별시 마포구"})
    call = CallPart(tool="molit_offi_trades", args={"DEAL_YMD": "202407"}, param="LAWD_CD", transform="slice:0:5")
    final = FinalPart(tool="molit_offi_trades", op="count")
    housing = set(TOPIC_CONTEXTS["housing"])
    others = {c for t, cs in TOPIC_CONTEXTS.items() if t != "housing" for c in cs} - housing
    qs = [write_question(cat, random.Random(seed), [start, call, final], "district") for seed in range(60)]
    assert not [q for q in qs if any(q.startswith(c) or f" {c}," in q for c in others)]  # no clause off the topic
    assert any(any(c in q for c in housing) for q in qs) and any("서울 마포구" in q for q in qs)
    assert all("서울특별시 마포구" in q or "서울 마포구" in q for q in qs)


def test_a_place_is_said_once_whichever_way() -> None:
    """A place named short in one part ("서울 관악구") is not named again in full by the next."""
    cat = load_catalog()
    start = StartPart(tool="mois_stan_regin_cd", args={"locatadd_nm": "서울특별시 관악구"})
    pick = PickLabelPart(tool="mois_stan_regin_cd", label="locatadd_nm", name="서울특별시 관악구", field="region_cd")
    call = CallPart(tool="molit_offi_trades", args={"DEAL_YMD": "202407"}, param="LAWD_CD", transform="slice:0:5")
    final = FinalPart(tool="molit_offi_trades", op="count")
    for seed in range(40):
        q = write_question(cat, random.Random(seed), [start, pick, call, final], "district")
        assert q.count("관악구") == 1, q


def test_a_question_in_the_apis_words_is_refused() -> None:
    """``api_words``: a search argument's label ("검색어 '청운길 138'"), a field label before a
    quoted value ("학교명 '…'") or a value only the API spells so ("'대전광역시/계룡시'", "'4.2.1. …'") is the
    API talking; a quoted statute article title or a bill's title after its number is not."""
    from edge.synth.checks import API_WORDS

    for bad in ("검색어 '청운길 138'이 있는 시·군·구 전체의 오피스텔 매매 건수는?", "학교명 '초동고등학교' 2025학년도 학급 수는?",
                "'대전광역시/계룡시'가 많아요, '세종특별시'가 많아요?", "지역주소명 '서울특별시 관악구' 2024년 7월의 매매 건수",
                "'3.1.1.1. 주요국 통화의 대원화환율'과 '4.2.1. 소비자물가지수' 중 세부 항목이 많은 쪽은?"):
        assert API_WORDS.search(bad), bad
    for good in ("세종 '용호정류장', 서는 버스 가운데 일반버스는 몇 개 노선인가요?",
                 "22대 국회 의안번호 2200872번 '국토의 계획 및 이용에 관한 법률 일부개정법률안', 누가 대표발의했나요?",
                 "「강원광역 소방시설 지원에 관한 특별법」에서 '비밀 유지'에 관한 조문은 몇 조인가요?",
                 "2024년 7월 서울 마포구에서 빌라 매매랑 오피스텔 매매는 각각 몇 건이었어요?"):
        assert not API_WORDS.search(good), good
