"""The RESPONSE checker on a held-out set of natural answers (issue 29, first must-show).

``tests/data/heldout_answers.jsonl`` was written by hand from each task's question and gold only,
before its author read the checker or the project's own natural-answer generator; its labels
are the author's judgement (rows labelled ``ambiguous`` are left out of the figures). Print the
figures with ``python -m tests.bench.test_checker_heldout`` (add ``-v`` to list every miss).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bench.kopa.checkers import check_answer
from bench.kopa.tasks import Check, Task, load_tasks
from tests.support.loopback import read_body, serve_in_thread

HELDOUT = Path(__file__).resolve().parents[1] / "data" / "heldout_answers.jsonl"
#: A second, smaller set written after the fixes by the same author: not held-out (its header).
POSTFIX = HELDOUT.with_name("postfix_answers.jsonl")
#: A new set written blind by another author before the second round of fixes (its header):
#: held-out for the figures before that round (docs/bench.md), a regression guard after it.
HELDOUT_V2 = HELDOUT.with_name("heldout_answers_v2.jsonl")


def load_heldout(path: Path = HELDOUT) -> list[dict[str, Any]]:
    """The labelled rows (the first line is the header that says how they were written)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert "_header" in json.loads(lines[0])
    return [json.loads(line) for line in lines[1:] if line.strip()]


@dataclass
class Figures:
    right: int = 0
    accepted: int = 0
    wrong: int = 0
    rejected: int = 0
    misses: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def accept_rate(self) -> float:
        return self.accepted / self.right

    @property
    def reject_rate(self) -> float:
        return self.rejected / self.wrong

    def line(self) -> str:
        return (f"held-out: right accepted {self.accepted}/{self.right} ({self.accept_rate:.1%}), "
                f"wrong rejected {self.rejected}/{self.wrong} ({self.reject_rate:.1%})")


def measure(rows: list[dict[str, Any]], tasks: dict[str, Task] | None = None) -> Figures:
    """Score every right/wrong row with the checker the bench's RESPONSE axis calls."""
    tasks = tasks or {t.id: t for t in load_tasks()}
    fig = Figures()
    for r in rows:
        if r["label"] == "ambiguous":
            continue
        t = tasks[r["task"]]
        ok = check_answer(r["text"], r["gold"], t.check, t.question)
        if r["label"] == "right":
            fig.right += 1
            fig.accepted += ok
            if not ok:
                fig.misses.append(("right answer rejected", r))
        else:
            fig.wrong += 1
            fig.rejected += not ok
            if ok:
                fig.misses.append(("wrong answer accepted", r))
    return fig




# --------------------------------------------------------------------------------------------
# The figures, and the answers the checker got wrong before its held-out fixes.
# --------------------------------------------------------------------------------------------

FAST = settings(max_examples=60, deadline=None)
COUNT = Check(type="numeric", rel_tol=0.001)
EXACT = Check()


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return load_heldout()


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in load_tasks()}


def test_the_heldout_set_is_what_its_header_says(rows: list[dict[str, Any]], tasks: dict[str, Task]) -> None:
    assert {r["label"] for r in rows} == {"right", "wrong", "ambiguous"}
    assert all(r["task"] in tasks and r["text"].strip() and r["why"] for r in rows)
    assert len({r["task"] for r in rows}) >= 60
    assert len({tasks[r["task"]].domain for r in rows}) == 6  # every domain


@pytest.mark.slow
def test_the_stored_golds_are_the_shipped_versions_golds(rows: list[dict[str, Any]], tasks: dict[str, Task]) -> None:
    """Each row keeps the gold it was written against; on the shipped version it is still the gold."""
    from bench.kopa.env import World
    from bench.kopa.tasks import gold_run
    from simulator import Store

    world = World(Store().open("kopa"))
    stored = {r["task"]: r["gold"] for r in [*rows, *load_heldout(POSTFIX), *load_heldout(HELDOUT_V2)]}
    assert {tid: gold_run(tasks[tid], world).answer for tid in stored} == stored


def test_heldout_figures_meet_the_bar(rows: list[dict[str, Any]], tasks: dict[str, Task]) -> None:
    """≥ 97 % of right answers accepted, ≥ 98 % of wrong ones rejected. The rules were fixed
    against this set's misses, so after the fix it guards against regressions; it is no
    longer a held-out measurement (docs/bench.md gives the figures before the fix)."""
    fig = measure(rows, tasks)
    assert fig.accept_rate >= 0.97 and fig.reject_rate >= 0.98, (fig.line(), fig.misses)


#: Held-out rows the checker misjudged before the fixes (task, answer, right?): each one is read
#: right now. The two still misread (포스코홀딩스 / POSCO Holdings for POSCO홀딩스) are listed in
#: docs/bench.md.
BEFORE_FIX = [
    ("molit-trade-count-1", "There were **229** reported apartment sale transactions in Yongsan-gu for 2025-03.", True),
    ("molit-cmp-mean-0", "Jongno-gu's mean is lower than Jung-gu's by 68,700.6 (10k KRW), so the difference is "
                         "\u221268,700.6 만원.", True),
    ("molit-cmp-mean-1", "Difference (Yongsan \u2212 Seongdong): **+28,743.2 만원** (about 2억 8,743만 원).", True),
    ("cond-molit-1", "성동구는 346건으로 400건 미만이므로 전월세 계약 건수를 답합니다: **455건**.", True),
    ("molit-fan-mean-1", "Average price across Jongno, Jung and Seongdong: 124316.5 (unit: 10,000 KRW).", True),
    ("neis-two-offices-1", "설립일이 1969년 또는 그 이전인 학교는 모두 1010곳입니다.", True),
    ("neis-two-offices-1", "1,010 schools were founded in 1969 or earlier.", True),
    ("neis-two-offices-3", "Seoul and Gyeonggi offices combined: 1,411 schools founded in or before 1979.", True),
    ("dart-fan-revenue-0", "에스케이하이닉스(주)", True),
    ("dart-fan-revenue-1", "The largest is NAVER Corp.", True),
    ("dart-fan-disc-0", "The two companies filed 17 disclosures in 2024 combined.", True),
    ("asm-month-cmt-0", "행정안전위원회(회부 58건) — 위원 27명", True),
    ("tago-arr-soon-0", "Route 22 arrives first (in about 2 minutes).", True),
    ("tago-arr-count-0", "Seven buses (7) are due within 900 seconds.", True),
    ("tago-route-stops-0", "The 895 bus passes through 39 stops.", True),
    ("seoul-fan-arr-min-0", "동두천역", True),
    ("molit-fan-rent-max-0", "Yongsan-gu.", True),
    ("cond-tago-arr-0", "둔산정류장은 15분 안에 도착 예정 버스가 0대라 3대 미만이므로 경유 노선 수를 답합니다: **4개**", True),
    ("molit-fan-argmax-0", "가장 비싼 거래는 성동구에서 나왔으며, 용산구가 2위입니다.", False),
    ("dart-fan-revenue-0", "SK하이닉스와 삼성전자가 비슷하지만 삼성전자가 조금 더 큽니다.", False),
    ("dart-fan-revenue-2", "LG화학이 가장 크고 POSCO홀딩스가 2위입니다.", False),
    ("cond-dart-disc-1", "분기보고서 (2024.06)", False),
    ("nec-winner-cmit-0", "과학기술정보방송통신위원회와 행정안전위원회 중 하나입니다.", False),
    ("nec-turnout-0", "투표율 1위는 서초구(84.2%), 2위는 용산구(82.1%)입니다.", False),
    ("nec-prelim-oldest-0", "문채희와 윤용희 중 한 명", False),
    ("nec-cand-youngest-0", "안은정과 송진수", False),
    ("tago-cmp-distinct-3", "세종이 부산보다 4,371가지 더 많습니다.", False),
    ("tago-fan-far-2", "주례회관과 반석초등학교 중 하나", False),
]


@pytest.mark.parametrize(("task_id", "answer", "right"), BEFORE_FIX)
def test_heldout_misses_before_the_fix(task_id: str, answer: str, right: bool, rows: list[dict[str, Any]],
                                       tasks: dict[str, Task]) -> None:
    row = next(r for r in rows if r["task"] == task_id and r["text"] == answer)
    assert row["label"] == ("right" if right else "wrong")
    t = tasks[task_id]
    assert check_answer(answer, row["gold"], t.check, t.question) is right


@pytest.fixture(scope="module")
def rows_v2() -> list[dict[str, Any]]:
    return load_heldout(HELDOUT_V2)


def test_the_v2_set_is_what_its_header_says(rows_v2: list[dict[str, Any]], tasks: dict[str, Task]) -> None:
    assert {r["label"] for r in rows_v2} == {"right", "wrong", "ambiguous"}
    assert all(r["task"] in tasks and r["text"].strip() and r["why"] for r in rows_v2)
    assert len({r["task"] for r in rows_v2}) >= 80
    assert {p for r in rows_v2 for p in tasks[r["task"]].platforms} == {p for t in tasks.values() for p in t.platforms}
    assert len({tasks[r["task"]].domain for r in rows_v2}) == 6
    right = sum(r["label"] == "right" for r in rows_v2)
    wrong = sum(r["label"] == "wrong" for r in rows_v2)
    assert right >= 300 and wrong >= 300


def test_v2_figures_meet_the_bar(rows_v2: list[dict[str, Any]], tasks: dict[str, Task]) -> None:
    """≥ 97 % of right answers accepted, ≥ 98 % of wrong ones rejected on the v2 set. Before
    the fixes it measured 376/397 (94.7 %) and 358/369 (97.0 %) — the held-out figure; the
    second round of rules was fixed against its misses, so now it guards against regressions."""
    fig = measure(rows_v2, tasks)
    assert fig.accept_rate >= 0.97 and fig.reject_rate >= 0.98, (fig.line(), fig.misses)


#: v2 rows the checker misjudged before the second round of rules, one per cause (task,
#: answer, right?): each is read right now.
V2_BEFORE_FIX = [
    ("molit-fan-mean-1", "124,361.5만원", False),  # a digit swap inside the task's 0.2 % tolerance
    ("seoul-lib-molit-2", "25.45", False),  # one step off at the places the question states
    ("juso-coord-0", "X좌표는 969382.722798입니다.", False),  # a digit off at the gold's own places
    ("tago-fan-distinct-0", "전체 정류장 수는 5,704개이고, 중복을 제거한 서로 다른 이름은 5,102가지입니다.", False),
    ("tago-fan-distinct-1", "서로 다른 이름은 8,487가지이며, 전체 정류장 수는 9,120개입니다.", True),
    ("asm-month-cmt-0", "위원은 18명이며, 회부된 법률안은 27건입니다.", False),
    ("juso-coord-0", "X좌표(entX): `969382.722789`, Y좌표(entY): `1944123.118302`", True),
    ("dart-fan-revenue-2", "포스코홀딩스입니다.", True),
    ("dart-fan-revenue-2", "POSCO Holdings", True),
    ("dart-fan-revenue-2", "주식회사 포스코홀딩스가 가장 큽니다.", True),
    ("dart-fan-revenue-1", "네이버가 가장 큽니다.", True),
    ("dart-fan-revenue-0", "SK hynix had the largest 2024 consolidated revenue.", True),
    ("dart-fan-revenue-3", "신한금융지주가 2024년 연결 매출액이 가장 큽니다.", True),
    ("dart-fan-revenue-0", "현대자동차가 가장 크고, SK하이닉스가 그 다음입니다.", False),
    ("dart-fan-revenue-0", "SK하이닉스 (매출액 약 66조 원)", True),
    ("tago-arr-soon-0", "가장 먼저 도착하는 버스는 **22번**입니다 (약 2분 후).", True),
    ("cond-seoul-card-0", "약 181만 8,019명", True),
    ("fsc-dart-ceo-1", "삼성물산 대표자는 오세철입니다 (서광혜는 사외이사).", False),
    ("fsc-dart-addr-2", "KT 본사 주소는 경기도 연천군 전곡읍 전곡로 327입니다.", True),
    ("law-fan-articles-1", "세 법령의 조문 수 합계는 40조입니다.", True),
    ("nec-winner-cmit-1", "종로구을 당선인은 행정안전위원회 위원입니다.", True),
    ("nec-turnout-3", "경북 문경", True),
    ("nec-asm-bills-0", "스무 건", True),
    ("nec-asm-bills-0", "The member sponsored twenty bills.", True),
    ("tago-route-last-0", "괴정동입구 정류소", True),
    ("tago-stop-far-1", "대전에서 경도가 가장 큰 정류장은 반석초등학교 정류장입니다.", True),
    ("molit-cmp-mean-0", "Jongno-gu's mean is lower than Jung-gu's by 68,700.6 (10k KRW), i.e. **\u221268,700.6**.", True),
    ("nec-asm-cmt-winners-0", "국방위원회 소속 지역구 당선인은 11명이며, 비례대표를 포함하면 12명입니다.", True),
]


@pytest.mark.parametrize(("task_id", "answer", "right"), V2_BEFORE_FIX)
def test_v2_misses_before_the_fix(task_id: str, answer: str, right: bool, rows_v2: list[dict[str, Any]],
                                  tasks: dict[str, Task]) -> None:
    row = next(r for r in rows_v2 if r["task"] == task_id and r["text"] == answer)
    assert row["label"] == ("right" if right else "wrong")
    t = tasks[task_id]
    assert check_answer(answer, row["gold"], t.check, t.question) is right


def test_postfix_set_figures(tasks: dict[str, Task]) -> None:
    """The smaller set written after the fixes (not held-out): every answer read as labelled."""
    fig = measure(load_heldout(POSTFIX), tasks)
    assert fig.right >= 50 and fig.wrong >= 50
    assert not fig.misses, fig.misses


# --------------------------------------------------------------------------------------------
# One property test per rule, generating phrasings (hypothesis).
# --------------------------------------------------------------------------------------------

Q_COUNT = "서울 용산구의 2025년 3월 아파트 매매 실거래는 모두 몇 건인가요?"
counts = st.integers(1, 99_999)
near = st.sampled_from([1, -1, 2, -3])


@FAST
@given(counts, near, st.dates(dt.date(1990, 1, 1), dt.date(2039, 12, 31)), st.sampled_from([
    "There were {n:,} sales for {y}-{m:02d}.", "{y}.{m:02d}.{d:02d} 기준 {n:,}건입니다.",
    "As of {y}-{m:02d}-{d:02d}, the count is {n}.", "{y}년 {m}월 {d}일 현재 총 {n:,}건",
    "{n:,} reported deals ({y}/{m:02d}/{d:02d} data)."]))
def test_the_digits_of_a_date_are_no_answer(n: int, d: int, day: Any, form: str) -> None:
    say = form.format(n=n, y=day.year, m=day.month, d=day.day)
    assert check_answer(say, str(n), COUNT, Q_COUNT), say
    wrong = form.format(n=n + d, y=day.year, m=day.month, d=day.day)
    if n + d > 0:
        assert not check_answer(wrong, str(n), COUNT, Q_COUNT), wrong


@FAST
@given(st.integers(1, 9999), counts, near, st.sampled_from([
    "The {r} bus passes through {n} stops.", "Route {r} serves {n} stops in total.",
    "{r} 번 버스는 {n}곳을 경유합니다."]))
def test_a_number_the_question_names_is_context_whatever_follows_it(r: int, n: int, d: int, form: str) -> None:
    q = f"대전 {r}번 버스는 정류소를 모두 몇 곳 경유하나요?"
    if r == n or r == n + d:
        return
    assert check_answer(form.format(r=r, n=n), str(n), COUNT, q)
    if n + d > 0:
        assert not check_answer(form.format(r=r, n=n + d), str(n), COUNT, q)


@FAST
@given(counts, near, st.integers(1, 999), st.sampled_from([
    "위원 {n}명 (회부 {o}건)", "행정안전위원회(회부 {o}건) — 위원 {n}명", "{n}명입니다 (참고: {o}건).",
    "The answer is {n} (about {o} referred).", "총 {n:,}건 (페이지 {o}개)"]))
def test_a_remark_in_brackets_is_context(n: int, d: int, other: int, form: str) -> None:
    q = "위원회에는 위원이 모두 몇 명 있나요?"
    if other in (n, n + d):
        return
    assert check_answer(form.format(n=n, o=other), str(n), COUNT, q)
    if n + d > 0:
        assert not check_answer(form.format(n=n + d, o=n), str(n), COUNT, q)  # the gold only in the remark


@FAST
@given(st.integers(1, 12), st.sampled_from([
    "There were {n} sales in March 2025.", "{n} sales were reported for 2025-03.", "I found {n} trades in total.",
    "{n} apartment sales.", "There were {n} sales for 2025-03."]))
def test_a_count_equal_to_a_number_of_the_question_is_still_the_answer(m: int, form: str) -> None:
    q = f"서울 용산구의 2025년 {m}월 아파트 매매 실거래는 모두 몇 건인가요?"
    assert check_answer(form.format(n=m), str(m), COUNT, q)  # "{m} sales" is not the question's "{m}월"
    assert not check_answer(form.format(n=m + 1), str(m), COUNT, q)


@FAST
@given(counts, near, st.sampled_from(["전월세 계약 건수를 답합니다: **{n}건**", "Answer below: {n}",
                                      "조건에 따라 노선 수를 셉니다: {n}개"]))
def test_a_colon_introduces_the_committed_number(n: int, d: int, form: str) -> None:
    q = "성동구의 매매가 400건 이상이면 최고가 단지명을, 400건 미만이면 전월세 계약 건수를 알려주세요."
    lead = "성동구는 346건으로 400건 미만이므로 "
    if n in (346, 400) or n + d in (346, 400):
        return
    assert check_answer(lead + form.format(n=n), str(n), EXACT, q)
    if n + d > 0:
        assert not check_answer(lead + form.format(n=n + d), str(n), EXACT, q)


CITIES = ["부산", "대전", "천안", "세종"]


@FAST
@given(st.permutations(CITIES), st.integers(1, 9999), st.sampled_from(["가지 더 많습니다", "곳 많아요", "개 더 많음"]))
def test_a_comparison_said_the_other_way_round_flips_the_sign(cities: list[str], n: int, more: str) -> None:
    a, b = cities[:2]
    q = f"시내버스 정류장의 서로 다른 이름 수는 {a}이 {b}보다 몇 가지 더 많나요? (적으면 음수)"
    assert check_answer(f"{a}이 {b}보다 {n:,}{more}", str(n), COUNT, q)
    assert check_answer(f"{b}이 {a}보다 {n:,}{more}", str(-n), COUNT, q)
    assert not check_answer(f"{b}이 {a}보다 {n:,}{more}", str(n), COUNT, q)
    assert check_answer(f"{b}이 {a}보다 {n:,}가지 적습니다", str(n), COUNT, q)  # the other way round and less


@FAST
@given(counts, near, st.integers(1940, 1999), st.sampled_from([
    "설립일이 {y}년 또는 그 이전인 학교는 모두 {n:,}곳입니다.", "{n:,} schools were founded in {y} or earlier.",
    "Founded in or before {y}: {n:,} schools.", "{y}년 또는 그 이전 설립: {n}곳"]))
def test_a_bound_is_no_hedge(n: int, d: int, year: int, form: str) -> None:
    q = f"학교 가운데 설립일이 {year}년 또는 그 이전인 학교는 모두 몇 곳인가요?"
    if n == year or n + d == year:
        return
    assert check_answer(form.format(n=n, y=year), str(n), COUNT, q)
    if n + d > 0:
        assert not check_answer(form.format(n=n + d, y=year), str(n), COUNT, q)
    assert not check_answer(f"{n:,}곳 또는 {n + 1:,}곳입니다.", str(n), COUNT, q)  # a real choice still hedges


COMPANIES = ["삼성전자", "SK하이닉스", "현대자동차", "LG화학", "POSCO홀딩스", "신한지주", "NAVER", "카카오"]


@FAST
@given(st.permutations(COMPANIES), st.sampled_from([
    "{o}이 가장 크고 {g}가 2위입니다.", "1위는 {o}, 2위는 {g}입니다.", "{g} is second, after {o}.",
    "{g}와 {o}", "{g}과 {o} 중 하나입니다.", "{g}와 {o}가 비슷하지만 {o}가 조금 더 큽니다.", "One of {g} or {o}."]))
def test_a_name_ranked_second_or_joined_to_another_is_not_the_answer(names: list[str], form: str) -> None:
    g, o = names[:2]
    q = "중 2024년 연결 매출액이 가장 큰 회사는 어디인가요?"
    assert not check_answer(form.format(g=g, o=o), g, EXACT, q)
    assert check_answer(f"{g}가 가장 크고 {o}가 2위입니다.", g, EXACT, q)
    assert check_answer(f"가장 큰 회사는 {g}이고, {o}는 2위입니다.", g, EXACT, q)


@FAST
@given(st.integers(2000, 2030), st.integers(1, 12), st.integers(1, 12),
       st.sampled_from(["분기보고서", "반기보고서", "사업보고서"]))
def test_a_name_with_another_remark_is_another_name(y: int, m: int, m2: int, kind: str) -> None:
    gold = f"{kind} ({y}.{m:02d})"
    assert check_answer(f"가장 늦게 접수된 공시는 {kind} ({y}.{m:02d})입니다.", gold, EXACT)
    assert check_answer(f"{kind}({y}.{m:02d})", gold, EXACT)
    if m2 != m:
        assert not check_answer(f"{kind} ({y}.{m2:02d})", gold, EXACT)
        assert not check_answer(f"가장 늦은 공시는 {kind} ({y}.{m2:02d})입니다.", gold, EXACT)


LETTERS_KO = {"SK": "에스케이", "KT": "케이티", "LG": "엘지", "KB": "케이비", "GS": "지에스", "CJ": "씨제이"}


@FAST
@given(st.permutations(list(LETTERS_KO)), st.sampled_from(["하이닉스", "화학", "금융", "", "텔레콤"]),
       st.sampled_from(["{x}", "{x}(주)", "가장 큰 회사는 {x}입니다.", "㈜{x}"]))
def test_an_acronym_spelled_in_hangul_letter_names(acr: list[str], rest: str, form: str) -> None:
    gold = acr[0] + rest
    assert check_answer(form.format(x=LETTERS_KO[acr[0]] + rest), gold, EXACT)
    assert not check_answer(form.format(x=LETTERS_KO[acr[1]] + rest), gold, EXACT)


STOPS = ["동두천", "소요산", "보산", "지행", "덕정", "양주"]


@FAST
@given(st.permutations(STOPS), st.sampled_from(["{x}역", "{x}역입니다.", "가장 빨리 오는 역은 {x}역입니다.",
                                                "The station is {x}역."]))
def test_a_station_with_its_suffix(names: list[str], form: str) -> None:
    assert check_answer(form.format(x=names[0]), names[0], EXACT, "어느 역인가요?")
    assert not check_answer(form.format(x=names[1]), names[0], EXACT, "어느 역인가요?")


@FAST
@given(st.sampled_from(["NAVER", "카카오", "KT"]), st.sampled_from(["Corp.", "Corporation", "Inc.", "Co., Ltd."]),
       st.sampled_from(["The largest is {g} {s}", "{g} {s}", "{g} {s} had the highest revenue."]))
def test_an_english_company_suffix(gold: str, suffix: str, form: str) -> None:
    assert check_answer(form.format(g=gold, s=suffix), gold, EXACT)
    other = "NAVER" if gold != "NAVER" else "카카오"
    assert not check_answer(form.format(g=other, s=suffix), gold, EXACT)


@FAST
@given(st.decimals(min_value=1, max_value=999_999, places=1), st.sampled_from([
    "\u2212{x:,}", "the difference is \u2212{x:,} 만원.", "차이: \u2212{x}만원"]))
def test_a_typeset_minus_sign_is_a_minus(x: Any, form: str) -> None:
    q = "평균 매매가(만원)는 종로구가 중구보다 얼마나 높은가요? (낮으면 음수)"
    chk = Check(type="numeric", abs_tol=1.0)
    assert check_answer(form.format(x=x), str(-x), chk, q)
    assert not check_answer(form.format(x=x), str(x), chk, q)


#: Seoul's 25 districts as the city spells them in Latin letters (Revised Romanization).
SEOUL_GU = {"종로구": "Jongno-gu", "중구": "Jung-gu", "용산구": "Yongsan-gu", "성동구": "Seongdong-gu",
            "광진구": "Gwangjin-gu", "동대문구": "Dongdaemun-gu", "중랑구": "Jungnang-gu", "성북구": "Seongbuk-gu",
            "강북구": "Gangbuk-gu", "도봉구": "Dobong-gu", "노원구": "Nowon-gu", "은평구": "Eunpyeong-gu",
            "서대문구": "Seodaemun-gu", "마포구": "Mapo-gu", "양천구": "Yangcheon-gu", "강서구": "Gangseo-gu",
            "구로구": "Guro-gu", "금천구": "Geumcheon-gu", "영등포구": "Yeongdeungpo-gu", "동작구": "Dongjak-gu",
            "관악구": "Gwanak-gu", "서초구": "Seocho-gu", "강남구": "Gangnam-gu", "송파구": "Songpa-gu",
            "강동구": "Gangdong-gu"}


@FAST
@given(st.permutations(list(SEOUL_GU)), st.sampled_from([
    "{r}.", "It was {r}, Seoul.", "The district with the priciest sale is {r}.", "{d} District",
    "**{r}** had the single most expensive sale."]))
def test_a_place_named_in_revised_romanization(gus: list[str], form: str) -> None:
    gold, other = gus[:2]
    say = form.format(r=SEOUL_GU[gold], d=SEOUL_GU[gold][:-3])
    assert check_answer(say, gold, EXACT, "가장 비싼 아파트 매매가 나온 구는 어디인가요?")
    assert not check_answer(say, other, EXACT, "가장 비싼 아파트 매매가 나온 구는 어디인가요?")
    both = f"{SEOUL_GU[gold]} and {SEOUL_GU[other]}"
    assert not check_answer(both, gold, EXACT)
    assert not check_answer(f"{SEOUL_GU[gold]} is second, after {SEOUL_GU[other]}.", gold, EXACT)


PEOPLE = ["류규찬", "노호성", "김미윤", "서광혜", "안은정", "송진수"]


@FAST
@given(st.permutations(PEOPLE), st.sampled_from(["예비후보", "후보", "의원", "대표", "씨"]),
       st.sampled_from(["두 번째로", "2위로", "세 번째로"]))
def test_a_person_with_a_title_after_a_space(names: list[str], title: str, rank: str) -> None:
    gold, other = names[:2]
    q = "예비후보 가운데 가장 나이가 많은 사람은 누구인가요?"
    assert check_answer(f"최고령은 {gold} {title}입니다.", gold, EXACT, q)
    assert not check_answer(f"최고령은 {other} {title}입니다.", gold, EXACT, q)
    assert not check_answer(f"{gold} {title}가 {rank} 나이가 많습니다.", gold, EXACT, q)


@FAST
@given(st.integers(1_000, 99_999), st.integers(1_000_000, 9_999_999), st.sampled_from([
    "{a:,} / {b:,} × 100 ≈ {x}%", "비율 = {a:,} ÷ {b:,} ≈ {x}%", "{a} / {b} * 100 ≈ {x} %"]))
def test_an_approximately_equals_sign_marks_the_value(a: int, b: int, form: str) -> None:
    x = round(a / b * 100, 2)
    q = "승차 인원과 같은 노선 전체 승차 인원의 비율(%)을 소수 둘째 자리까지 구해 주세요."
    chk = Check(type="numeric", abs_tol=0.01)
    assert check_answer(form.format(a=a, b=b, x=f"{x:.2f}"), f"{x:.2f}", chk, q)
    assert not check_answer(form.format(a=a, b=b, x=f"{x + 0.05:.2f}"), f"{x:.2f}", chk, q)


@FAST
@given(st.integers(1, 99_999), st.sampled_from([
    ("{n:.2f}이지만 반올림하면 {m:.1f}건입니다.", "반올림하면 {m:.1f}이지만 정확히는 {n:.2f}건입니다."),
    ("265 ÷ 9 ≈ {n:.2f}이지만 반올림하면 {m:.1f}건입니다.", "265 ÷ 9 ≈ {m:.1f}이지만 정확히는 {n:.2f}건입니다."),
    ("It is {n:.2f}, but rounded it is {m:.1f}.", "Rounded it is {m:.1f}, but the exact value is {n:.2f}."),
    ("계산값은 {n:.2f}입니다. 그러나 최종 답은 {m:.1f}건입니다.", "반올림한 값은 {m:.1f}입니다. 그러나 정확한 값은 {n:.2f}건입니다.")]))
def test_the_value_after_a_contrast_is_the_one_meant(k: int, forms: tuple[str, str]) -> None:
    n = k / 10 + 0.04  # x.x4: rounding to one place changes it by 0.04
    m = round(n, 1)
    q = "도서관 1곳당 매매 건수는 몇 건인가요? (소수 둘째 자리)"
    chk = Check(type="numeric", abs_tol=0.01)
    wrong, right = forms
    assert not check_answer(wrong.format(n=n, m=m), f"{n:.2f}", chk, q)
    assert check_answer(right.format(n=n, m=m), f"{n:.2f}", chk, q)


# --------------------------------------------------------------------------------------------
# The same path the bench runs: a stub OpenAI-compatible model on loopback gives the final
# answer, `bench run --agent openai` scores it; RESPONSE is the checker's verdict on the text.
# --------------------------------------------------------------------------------------------

def _stub_model(answers: dict[str, list[str]]) -> Any:
    """Answers each task's question (the user message) with its held-out texts in turn, no
    tool calls: the first episode of a task gets the first text, the next the second."""
    served: dict[str, int] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = await read_body(receive)
        if scope["path"].endswith("/models"):
            data = b'{"data": []}'
        else:
            req = json.loads(body)
            user = next(m["content"] for m in req["messages"] if m["role"] == "user")
            n = served[user] = served.get(user, -1) + 1
            msg = {"role": "assistant", "content": answers[user][n % len(answers[user])]}
            data = json.dumps({"id": "c", "object": "chat.completion", "model": "stub",
                               "choices": [{"index": 0, "message": msg, "finish_reason": "stop"}]},
                              ensure_ascii=False).encode()
        await asyncio.sleep(0)
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": data})
    return app


#: Tasks whose held-out rows go through the whole agent path: a signed 만원 difference, a
#: company name, a set of routes, a date.
E2E = ("molit-cmp-mean-0", "dart-fan-revenue-0", "tago-routes-0", "neis-meal-maxcal-0")


def test_heldout_answers_through_the_openai_agent(rows: list[dict[str, Any]], tasks: dict[str, Task],
                                                  tmp_path: Path) -> None:
    """One right and one wrong held-out answer per task, as a stub model's final message:
    the stored RESPONSE verdict is the label (the agent passes the text to the checker as is)."""
    from bench.kopa.cli import bench_app
    from bench.kopa.runner import load_results

    picked = {tid: [next(r for r in rows if r["task"] == tid and r["label"] == lab) for lab in ("right", "wrong")]
              for tid in E2E}
    answers = {tasks[tid].question: [r["text"] for r in rs] for tid, rs in picked.items()}
    label = {r["text"]: r["label"] == "right" for rs in picked.values() for r in rs}
    out = tmp_path / "run"
    with serve_in_thread(_stub_model(answers)) as base:
        res = CliRunner().invoke(bench_app, ["run", "--agent", "openai", "--base-url", f"{base}/v1", "--model", "stub",
                                             "--out", str(out), "--tasks", ",".join(E2E), "--seeds", "2", "--k", "1",
                                             "--workers", "1"])
    assert res.exit_code == 0, res.output
    got = load_results(out)
    assert sorted(r["answer"] for r in got) == sorted(label)
    assert [r["response"] for r in got] == [label[r["answer"]] for r in got]


if __name__ == "__main__":
    for name, path in (("held-out", HELDOUT), ("post-fix (not held-out)", POSTFIX), ("held-out v2", HELDOUT_V2)):
        figures = measure(load_heldout(path))
        print(figures.line().replace("held-out", name, 1))
        if "-v" in sys.argv:
            for kind, r in figures.misses:
                print(f"  {kind}: {r['task']} (gold {r['gold']}): {r['text']!r} [{r['why']}]")
