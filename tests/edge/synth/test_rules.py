"""The rules every synthesized example keeps (issue 20), checked on the written conversations.

Each rule of :mod:`edge.synth.checks` is shown to catch a hand-made breach, then the rules are
asserted over examples synthesized from the shipped cassettes, read back from
``conversations.jsonl`` (what a trainer gets), independently of the pipeline's own filter.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from edge import Observations
from edge.synth import ProgramRunner, synthesize, write_all
from edge.synth.checks import check_example, is_stated
from edge.synth.korean import date_text, josa
from edge.synth.pipeline import diversity
from edge.synth.semantics import allowed, semantic_type
from edge.synth.splits import bench_entities, example_entities
from edge.synth.writers import CONVERSATION_BUDGET, TOOL_MESSAGE_BUDGET, fitting_page_size
from simulator import Resolver, Store, load_catalog
from train.rewards import answer_matches
from tests.support.synth_runs import SYNTH_1000, V0005_FULL, FullGraph, SmallRun, ThousandRun
from tests.support.drafts import example, tool_messages

ROOT = Path(__file__).resolve().parents[3]


# ---- the pieces ------------------------------------------------------------------------------
def test_semantic_types_and_meaningful_reductions() -> None:
    assert semantic_type("LAT", "위도") == "coordinate" and not allowed("max", "coordinate")
    assert semantic_type("dealAmount", "거래금액 (만원)") == "money" and allowed("sum", "money")
    assert semantic_type("floor", "층", "integer") == "ordinal" and not allowed("sum", "ordinal")
    assert semantic_type("HG_NM", "이름") == "name" and not allowed("sum", "name")
    assert semantic_type("MLSV_YMD", "급식일자") == "date" and allowed("argmax", "date") and not allowed("sum", "date")
    assert semantic_type("totNmprCnt", "총 인구수", "integer") == "count" and allowed("sum", "count")


def test_joins_need_the_same_meaning_not_just_accepted_values() -> None:
    """An air-quality 등급 (1–3) answers NEIS's 학년 param but means something else; the
    rule is general: scales, coordinate axes and entity kinds across providers must agree."""
    from edge.synth.semantics import entity, joins, scale

    cat = load_catalog()
    assert semantic_type("khaiGrade", "통합대기환경지수 등급", "integer") == "level"
    assert scale("khaiGrade", "통합대기환경지수 등급") == "band" and scale("GRADE", "학년") == "school_year"
    assert not joins(cat, "datagokr_misc_airkorea_sido_realtime", "khaiGrade", "neis_class_info", "GRADE")
    assert not joins(cat, "datagokr_misc_g2b_award_results", "sucsfbidAmt", "molit_apt_trades", "LAWD_CD")
    assert not joins(cat, "mois_stan_regin_cd", "sgg_cd", "datagokr_misc_kma_vilage_fcst", "ny")
    assert not joins(cat, "kma_uvidx_v4", "areaNo", "molit_dtlu_law_info", "areaCd")  # 지점 ≠ 시군구
    assert not joins(cat, "datagokr_misc_airkorea_sido_realtime", "stationName",
                     "seoul_subway_station_by_name", "STATION_NM")  # 측정소 ≠ 전철역
    assert entity("sgg_nm", "시군구명") == entity("sggName", "선거구명") == "region"
    assert joins(cat, "mois_stan_regin_cd", "region_cd", "juso_address_coord", "admCd")
    assert joins(cat, "neis_school_info", "SD_SCHUL_CODE", "neis_class_info", "SD_SCHUL_CODE")
    # and a level is reduced by nothing: the highest 학년 is the scale's end
    assert not allowed("max", "level") and not allowed("argmin", "level")
    assert semantic_type("GRADE", "학년", "string") == "level"


def test_cond_thresholds_do_not_state_the_answer() -> None:
    """A COND threshold is round and far from the count it tests, and a question stating a
    number within ``NEAR`` of a numeric answer is refused."""
    import random

    from edge.synth.sample import threshold

    for m in (0, 1, 2, 3, 7, 33, 166, 254, 1_999, 40_000):
        ks = {threshold(m, random.Random(seed)) for seed in range(40)}
        assert all(k >= 1 for k in ks), (m, ks)
        if m >= 3:
            assert any(k <= m for k in ks) and any(k > m for k in ks), (m, ks)  # both branches
            assert all(abs(k - m) >= 0.3 * m for k in ks), (m, ks)
    assert threshold(166, random.Random(5)) == threshold(166, random.Random(5))
    cat = load_catalog()
    steps = [{"id": "s1", "call": "neis_school_info", "args": {"SCHUL_NM": "세종초등학교"}, "pages": "all"},
             {"id": "v2", "op": "count", "from": "s1"}]
    msgs = _msgs([("neis_school_info", {"SCHUL_NM": "세종초등학교"}, "<row>…</row>")])
    near = _example("세종초등학교가 167곳 이상이면 그 수를 알려 주세요.", 166, steps)
    assert "answer_in_question" in check_example(near, msgs, {}, cat)
    far = _example("세종초등학교가 100곳 이상이면 그 수를 알려 주세요.", 166, steps)
    assert check_example(far, msgs, {}, cat) == []
    dated = _example("2024년 7월 세종초등학교는 몇 곳인가요?", 2_023, steps)  # a date is no threshold
    assert check_example(dated, msgs, {}, cat) == []


def test_a_widened_place_and_a_branch_are_said_where_they_belong() -> None:
    """A legal-dong code cut to its district counts the whole 구: the question says so in every
    junction's head, not only SEQ's (the COND examples once asked about 개포동 and answered
    with 강남구's count); a district named by its own code is not widened; and a COND's
    then-branch arguments (an election) go with its ask, not with the count it tests."""
    import random

    from dataclasses import replace

    from edge.synth.draft import CallPart, CondPart, CondThen, StartPart
    from edge.synth.questions import write_question
    from edge.synth.sample import _is_unit

    assert _is_unit("1168000000", "slice:0:5") and not _is_unit("1168010300", "slice:0:5")
    assert _is_unit("11", "slice:0:5") and _is_unit("1168010300", "")
    cat = load_catalog()
    start = StartPart(tool="mois_stan_regin_cd", args={"locatadd_nm": "서울특별시 강남구 개포동"})
    call = CallPart(tool="molit_offi_trades", args={"DEAL_YMD": "202407"}, param="LAWD_CD", transform="slice:0:5",
                    widens=True)
    cond = CondPart(tool="molit_offi_trades", k=300,
                    then=CondThen(target="nec_candidates", args={"sgId": "20220601", "sgTypecode": "3"}, param="sggName",
                                  taken=True))
    for seed in range(30):
        q = write_question(cat, random.Random(seed), [start, call, cond], "district")
        assert "시·군·구" in q, q
        assert q.index("2022년 6월 1일") > q.index("300"), q  # the election is the then-branch's
        assert q.index("2024년 7월") < q.index("300"), q
    own = [replace(start, args={"locatadd_nm": "서울특별시 강남구"}), replace(call, widens=False), cond]
    assert not any("시·군·구" in write_question(cat, random.Random(s), own, "district") for s in range(30))


def test_particles_and_dates() -> None:
    assert [josa("세종초등학교", "이"), josa("서울", "을"), josa("학급", "는"), josa("'천안시'", "와")] == [
        "세종초등학교가", "서울을", "학급은", "'천안시'와"]
    assert date_text("20240410") == "2024년 4월 10일" and date_text("202403") == "2024년 3월"
    with pytest.raises(ValueError, match="particle"):
        josa("x", "께서")


def test_question_grammar_words() -> None:
    """The lexicon's subjects are real tools, its phrases hold no digit or quote (so none can
    state an answer or an argument), and ``fill`` resolves each particle slot."""
    from edge.synth.lexicon import CLOSERS, CONTEXTS, ENDS, OPENERS, PARAM_WORDS, TOOL_NOUNS, TOPIC_CONTEXTS
    from edge.synth.questions import fill

    catalog = load_catalog(tier="curated")
    assert set(TOOL_NOUNS) <= set(catalog.endpoints)
    words = [w for v in TOOL_NOUNS.values() for w in v] + [w for v in CONTEXTS.values() for w in v]
    words += [w for v in TOPIC_CONTEXTS.values() for w in v]
    words += [w for v in OPENERS.values() for w in v] + [w for r in CLOSERS.values() for v in r.values() for w in v]
    assert not [w for w in words if re.search(r"[0-9'\"]", w)]
    assert all("{v}" in t for v in PARAM_WORDS.values() for t in v)  # the value, verbatim
    assert fill("{s|은} 몇 건인가요?", s="급식 식단") == "급식 식단은 몇 건인가요?"
    assert fill("{a|과} {b|을} 알려 주세요.", a="'천안시'", b="노선 수") == "'천안시'와 노선 수를 알려 주세요."
    for kind, regs in ENDS.items():  # every ask fills with its slots in both registers
        assert set(regs) == {"yo", "da"}, kind
        for t in regs["yo"] + regs["da"]:
            assert "{" not in fill(t, s="학급", a="학급 수", b="급식 건수", t="학급", then="급식", k="3", kc="3개", c="개",
                                   c2="번"), t


def test_name_filtered_starts_use_the_catalogs_query_rules() -> None:
    """A code table is reached by its name filter also where the filter's name is not the
    field's (``query`` → ``법령명한글``) and where the table was recorded with a date."""
    import random

    from edge.synth.sample import Sampler

    version = Store().open("kopa", "v0003")
    catalog = load_catalog(tier="curated")
    obs = Observations.from_version(version, catalog)
    resolver = Resolver(version, catalog, miss="strict")
    s = Sampler(catalog, [], obs, ProgramRunner(resolver, page_size=fitting_page_size(resolver)), random.Random(0))
    assert ("query", "법령명한글") in s._name_filters("lawgokr_law_search")
    assert ("likeCorpNm", "corpNm") in s._name_filters("fsc_listed_items")
    law = s.filtered_start("lawgokr_law_search")
    assert law is not None and set(law) == {"query"}
    fsc = s.filtered_start("fsc_listed_items")
    assert fsc is not None and fsc["basDt"] == "20250314" and len(fsc) == 2


def test_diversity_figures() -> None:
    d = diversity(["서울 세종초등학교 급식은 몇 건인가요?", "서울 세종초등학교 급식은 몇 건인가요?", "천안 버스 노선 수"])
    assert d["near_duplicate_rate"] == pytest.approx(2 / 3, abs=1e-3) and 0 < d["distinct_1"] < 1


_example, _msgs = example, tool_messages


def test_each_rule_catches_its_breach() -> None:
    cat = load_catalog()
    steps = [{"id": "s1", "call": "neis_school_info", "args": {"SCHUL_NM": "세종초등학교"}, "pages": "all"},
             {"id": "v2", "op": "count", "from": "s1"}]
    ok = _example("세종초등학교는 몇 곳인가요?", 2, steps)
    msgs = _msgs([("neis_school_info", {"SCHUL_NM": "세종초등학교"}, "<row>…</row>")])
    assert check_example(ok, msgs, {}, cat) == []
    assert "tool_name" in check_example({**ok, "question": "neis_school_info로 세종초등학교를 세어 주세요"}, msgs, {}, cat)
    assert "hidden_argument" in check_example({**ok, "question": "그 학교는 몇 곳인가요?"}, msgs, {}, cat)
    assert "answer_in_question" in check_example({**ok, "question": "세종초등학교 2곳 맞나요?"}, msgs, {}, cat)
    big = _msgs([("neis_school_info", {"SCHUL_NM": "세종초등학교"}, "x" * (TOOL_MESSAGE_BUDGET + 1))])
    assert "budget" in check_example(ok, big, {}, cat)
    many = _msgs([("neis_school_info", {"SCHUL_NM": "세종초등학교"}, "x" * 19_000)] * (CONVERSATION_BUDGET // 19_000 + 1))
    assert "budget" in check_example(ok, many, {}, cat)
    bad_sum = _example("세종초등학교 학교명의 합은?", 1, [steps[0], {"id": "v2", "op": "sum", "from": "s1", "field": "SCHUL_NM"}])
    assert "meaningless_reduction" in check_example(bad_sum, msgs, {}, cat)
    # an argument found in an earlier tool message is not hidden; a date may be said in words
    later = _msgs([("neis_school_info", {"SCHUL_NM": "세종초등학교"}, "<SD_SCHUL_CODE>7010057</SD_SCHUL_CODE>"),
                   ("neis_class_info", {"SD_SCHUL_CODE": "7010057", "AY": "2025"}, "<row/>")])
    q2 = "2025학년도 세종초등학교의 학급은 몇 개인가요?"
    assert "hidden_argument" not in check_example({**ok, "question": q2}, later, {}, cat)
    assert is_stated(cat, "nec_candidates", "sgId", "20240410", "2024년 4월 10일 선거")
    assert is_stated(cat, "nec_candidates", "sgTypecode", "2", "국회의원 선거")
    # a value stands as a whole token: a GRADE of 2 is not stated by "2025학년도", nor found in
    # an earlier tool message as part of a longer number (the audit's trivially "seen" 1-2 digits)
    grade = _msgs([("neis_school_info", {"SCHUL_NM": "세종초등학교"}, "<SD_SCHUL_CODE>7010057</SD_SCHUL_CODE>"),
                   ("neis_class_info", {"SD_SCHUL_CODE": "7010057", "AY": "2025", "GRADE": "5"}, "<row/>")])
    assert "hidden_argument" in check_example({**ok, "question": q2}, grade, {}, cat)
    assert "hidden_argument" not in check_example({**ok, "question": "2025학년도 세종초등학교 5학년 학급은 몇 개인가요?"},
                                                  grade, {}, cat)


def test_fake_fan_and_echo_are_caught() -> None:
    cat = load_catalog()
    steps = [{"id": "s1", "call": "tago_city_codes", "pages": "all"},
             {"id": "v2", "op": "distinct", "from": "s1", "field": "citycode"},
             {"id": "s3", "call": "tago_routes_by_number", "pages": "all", "foreach": {"$ref": "v2"},
              "args": {"cityCode": {"$item": None}}},
             {"id": "v4", "op": "count", "from": "s3"}]
    e = _example("두 도시의 노선을 합치면?", 2, steps)

    def fan(*sizes: int) -> list[dict[str, Any]]:
        return [{"_item": item} for item, n in zip(("12", "25"), sizes) for _ in range(n)]

    single = {"s1": [{}, {}], "v2": ["12", "25"], "s3": fan(1, 1), "v4": 2}
    assert "fake_fan" in check_example(e, [], single, cat)
    real = {**single, "s3": fan(5, 7)}
    assert "fake_fan" not in check_example(e, [], real, cat)
    one = {**real, "s1": [{}]}  # a "set" out of a single-record result
    assert "fake_fan" in check_example(e, [], one, cat)
    echo = [{"id": "s1", "call": "tago_city_codes", "pages": "all"},
            {"id": "s3", "call": "tago_routes_by_number", "pages": "all",
             "args": {"cityCode": {"$ref": "s1", "field": "citycode", "pick": "first"}}},
            {"id": "s5", "call": "tago_route_stops", "pages": "all",
             "args": {"cityCode": {"$ref": "s3", "field": "cityCode", "pick": "first"}}},
            {"id": "v6", "op": "count", "from": "s5"}]
    vals = {"s1": [{"citycode": "25"}] * 3, "s3": [{"cityCode": "25"}] * 4, "s5": [{}] * 9, "v6": 9}
    assert "echo" in check_example(_example("대전 노선 정류소 수", 9, echo), [], vals, cat)
    vals_ok = {**vals, "s3": [{"cityCode": "DJB1"}] * 4}
    assert "echo" not in check_example(_example("대전 노선 정류소 수", 9, echo), [], vals_ok, cat)


def test_bench_entities_are_read_from_the_task_files() -> None:
    ents = bench_entities()
    # a school, an invented company (the finance tasks name kopa@v0009's invented ones), no real company
    assert {"서울사직초등학교", "큐브증권"} <= ents and "SK하이닉스" not in ents
    assert not any(re.fullmatch(r"(19|20)\d{6}", x) for x in ents)  # dates are not entities
    e = {"gold_program": {"steps": [{"id": "s1", "call": "neis_school_info", "args": {"SCHUL_NM": "서울사직초등학교"}}],
                          "answer": {"$ref": "s1"}},
         "bound_values": []}
    assert example_entities(e) & ents == {"서울사직초등학교"}


# ---- the rules over synthesized examples --------------------------------------------------------
@pytest.fixture(scope="module")
def made(v0001_small: SmallRun) -> tuple[Any, ...]:
    """kopa@v0001's curated graph (seed 7) and 150 draws (seed 3; the bench's edges let in, as by
    default), with their files: the run test_pipeline.py checks (tests/support/synth_runs.py)."""
    s = v0001_small
    return s.version, s.catalog, s.res, s.paths


def _assert_rules(version: Any, catalog: Any, examples: list[dict[str, Any]], conv_path: Path) -> None:
    rows = [json.loads(x) for x in conv_path.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [e["id"] for e in examples]
    resolver = Resolver(version, catalog, miss="strict")
    ex = ProgramRunner(resolver, page_size=fitting_page_size(resolver))
    held = bench_entities()  # bench edges may be taken: bench gold calls/records are held instead
    for e, row in zip(examples, rows):
        run = ex.run(e["gold_program"])
        assert check_example(e, row["messages"], run.values, catalog) == [], (e["id"], e["question"])
        assert not any(t in e["question"] for t in catalog.endpoints)
        tool_msgs = [m["content"] for m in row["messages"] if m["role"] == "tool"]
        assert all(len(t) <= TOOL_MESSAGE_BUDGET and "…(cut:" not in t for t in tool_msgs)
        assert sum(map(len, tool_msgs)) <= CONVERSATION_BUDGET
        assert not any('"omitted_not_matching"' in t for t in tool_msgs)  # native bodies, not summaries
        assert not example_entities(e) & held, e["id"]
        # the answer as a person reads it ("3억 6,507만 원", "2025년 10월 15일", "12건") is read by
        # KOPA-Bench's checker as the raw ground truth the rewards compare against
        assert answer_matches(e["answer_text"], e["ground_truth"], question=e["question"]), (e["id"], e["answer_text"])
        for unit in _widened_units(e, run.values):  # a 동 answered at its 구's level says so
            assert unit in e["question"], (e["id"], e["question"])


def _widened_units(e: dict[str, Any], values: dict[str, Any]) -> list[str]:
    """The units (시·군·구, 시·도) an example's handoffs widen a place to: a code cut by
    ``slice:0:5``/``slice:0:2`` whose cut-off tail is not all zeros (a 동's code, not the
    구's own), evaluated on the run's values independently of the sampler's notes."""
    from simulator.tools import eval_expr

    out = []
    for st in e["gold_program"]["steps"]:
        for a in (st.get("args") or {}).values():
            tr = a.get("transform", "") if isinstance(a, dict) else ""
            m = re.fullmatch(r"slice:0:(5|2)", tr or "")
            if not m:
                continue
            # a fan-out's items are its foreach set; a branch not run has no value to check
            ref = st.get("foreach") if "$item" in a else {k: v for k, v in a.items() if k != "transform"}
            try:
                got = eval_expr(ref, values)
            except KeyError:
                continue
            for v in got if isinstance(got, list) else [got]:
                tail = str(v)[int(m.group(1)):]
                if tail.strip("0"):
                    out.append("시·군·구" if m.group(1) == "5" else "시·도")
    return out


def test_synthesized_examples_keep_every_rule(made) -> None:  # type: ignore[no-untyped-def]
    version, catalog, res, paths = made
    # of 150 draws (49 with the bench's edges held out, 71 before they were)
    assert len(res.examples) >= 40
    _assert_rules(version, catalog, res.examples, paths["conversations"])
    s = res.report["summary"]
    assert s["diversity"]["near_duplicate_rate"] <= 0.02, s["diversity"]
    assert set(res.report["rules_refused"]) >= {"tool_name", "hidden_argument", "echo", "budget"}


def test_docs_examples_section_is_written_from_an_output(made) -> None:  # type: ignore[no-untyped-def]
    """scripts/synthesis_examples.py: docs/synthesis.md's examples come from a run's files."""
    import importlib.util

    _v, _c, res, paths = made
    spec = importlib.util.spec_from_file_location("synthesis_examples", ROOT / "scripts" / "synthesis_examples.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    text = mod.section(Path(paths["conversations"]).parent)
    for j in ("SEQ", "FAN", "DRV", "SEM", "CMP", "COND"):
        assert f"### {j}" in text
    first = res.examples[0]
    assert f"- **{first['question']}**" in text and first["answer_text"] in text
    assert "kopa@v0001" in text


def test_tool_messages_are_what_the_environment_returns(made) -> None:  # type: ignore[no-untyped-def]
    """A conversation's tool message is the GRPO/bench environment's observation of that call."""
    version, catalog, res, paths = made
    from bench.kopa.env import ToolEnv, World

    row = json.loads(paths["conversations"].read_text(encoding="utf-8").splitlines()[0])
    calls = {c["id"]: c["function"] for m in row["messages"] if m["role"] == "assistant" and m.get("tool_calls")
             for c in m["tool_calls"]}
    env = ToolEnv(World(version, catalog))
    for m in row["messages"]:
        if m["role"] == "tool":
            f = calls[m["tool_call_id"]]
            rec = env.call(f["name"], json.loads(f["arguments"]))
            assert env.observation(rec, TOOL_MESSAGE_BUDGET) == m["content"]


@pytest.mark.slow
@pytest.mark.xdist_group(SYNTH_1000)
def test_a_thousand_examples_keep_every_rule(synth_1000: ThousandRun) -> None:
    """Issue 20's bar over 1,000 synthesized examples from the shipped cassettes: the CLI's
    default run (kopa@v0005, EDGE's default catalog), shared with test_pipeline's thousand-example test.
    (The full tier's examples are checked by the next test, at a smaller n: a rule holds or
    fails per example.)"""
    version, catalog, res, paths = synth_1000.version, synth_1000.catalog, synth_1000.res, synth_1000.paths
    print(json.dumps(res.report["summary"], ensure_ascii=False))
    assert len(res.examples) == 1000
    _assert_rules(version, catalog, res.examples, paths["conversations"])
    d = res.report["summary"]["diversity"]
    assert d["near_duplicate_rate"] <= 0.02, d
    # (the curated tier's 13 platforms reach 7 providers here; how many the full tier's reach
    # is the next test's)
    assert len(res.report["summary"]["providers"]) >= 6, res.report["summary"]["providers"]
    # issue 20's target, distinct-n at least the bench's, measured at one set size (distinct-n
    # falls as a set grows): the bench's questions against as many synthesized ones, every n.
    # (The bench figures once written here, 0.286/0.506/0.601/0.653, did not reproduce from
    # the bench's questions; on its 160 questions distinct_n gives 0.235/0.416/0.518/0.592.)
    from bench.kopa.audit import matched_diversity
    from bench.kopa.tasks import load_tasks

    m = matched_diversity([t.question for t in load_tasks()], [e["question"] for e in res.examples])
    assert m["edge_at_least_bench"], m


@pytest.mark.slow
@pytest.mark.xdist_group(V0005_FULL)
def test_full_tier_examples_keep_every_rule(v0005_full: FullGraph, tmp_path: Path) -> None:
    """The rules over examples of the full tier (2,696 tools over 13 platforms; its generated
    tools are worded from their params' descriptions), on the graph test_ray shares: every
    example kept keeps every rule, and they come from many providers."""
    g = v0005_full
    res = synthesize(g.version, g.catalog, g.graph, n=200, seed=3, obs=g.obs, gold=g.gold)
    paths = write_all(res.examples, tmp_path / "o", g.version, g.catalog, res.report)
    print(json.dumps(res.report["summary"], ensure_ascii=False))
    assert len(res.examples) >= 150, len(res.examples)
    _assert_rules(g.version, g.catalog, res.examples, paths["conversations"])
    assert res.report["summary"]["diversity"]["near_duplicate_rate"] <= 0.02, res.report["summary"]["diversity"]
    assert len(res.report["summary"]["providers"]) >= 8, res.report["summary"]["providers"]
