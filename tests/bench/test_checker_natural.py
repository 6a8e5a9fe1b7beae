"""The RESPONSE checker reads natural answers as a careful grader does (issue 29, item 1).

Property tests (hypothesis) generate phrasings of a right answer and near misses for every
rule: a total after a breakdown, a sign said in words, 만원/억 amounts and a value in 원 where
the question asks 만원, exact whole numbers (no tolerance for a count), dates in common forms,
names with a region prefix, lists in any order and separator. A slow test measures the
checker on the stub model's natural answers to every shipped task
(``tests/data/natural_answers.py``).
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.kopa import BENCH_VERSION
from bench.kopa.checkers import check_answer
from bench.kopa.tasks import Check

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "data"))
from natural_answers import natural_answers, task_answers  # noqa: E402

COUNT = Check(type="numeric", rel_tol=0.001)  # what count tasks declare
EXACT = Check()
Q_TOTAL = "서울 종로구, 중구, 용산구, 성동구의 2025년 3월 아파트 매매 건수를 모두 합하면 몇 건인가요?"
Q_DIFF = "이름에 '역'이 들어가는 시내버스 정류장은 부산이 대전보다 몇 곳 더 많나요? (적으면 음수)"
Q_MAN = "2025년 3월 아파트 평균 매매가(만원)는 서울 종로구가 중구보다 얼마나 높은가요? (낮으면 음수)"
FAST = settings(max_examples=60, deadline=None)

parts = st.lists(st.integers(1, 5000), min_size=2, max_size=5)


def _breakdown_ko(ps: list[int], total: int, unit: str = "건") -> str:
    names = ["종로구", "중구", "용산구", "성동구", "광진구"]
    return ", ".join(f"{n} {p:,}{unit}" for n, p in zip(names, ps)) + f"으로 총 {total:,}{unit}입니다."


def _breakdown_en(ps: list[int], total: int) -> str:
    return "; ".join(f"district {i + 1}: {p:,}" for i, p in enumerate(ps)) + f". In total there are {total:,}."


@FAST
@given(parts, st.booleans())
def test_total_after_a_breakdown_is_the_answer(ps: list[int], english: bool) -> None:
    n = sum(ps)
    say = _breakdown_en if english else _breakdown_ko
    assert check_answer(say(ps, n), str(n), COUNT, Q_TOTAL)
    for wrong in (n + 1, n - 1, n + 3):
        assert not check_answer(say(ps, wrong), str(n), COUNT, Q_TOTAL)


@FAST
@given(st.integers(1000, 10**7), st.sampled_from([1, -1, 2, -4]),
       st.sampled_from(["ANSWER: {}", "총 {}건입니다.", "The answer is {}.", "{}"]))
def test_a_count_off_by_a_few_is_wrong_whatever_the_tolerance(n: int, d: int, frame: str) -> None:
    # a 0.1 % tolerance once let 1,361 pass for 1,362: a count is exact
    assert check_answer(frame.format(f"{n:,}"), str(n), COUNT, Q_TOTAL)
    assert not check_answer(frame.format(f"{n + d:,}"), str(n), COUNT, Q_TOTAL)


@FAST
@given(st.integers(1, 999), st.sampled_from(["적습니다", "적으므로 {neg}", "낮습니다", "적어요", "감소했습니다"]),
       st.booleans())
def test_a_sign_said_in_words(n: int, words: str, english: bool) -> None:
    neg = -n
    text = (f"It has {n} fewer stops, so the difference is {neg}." if english
            else f"부산이 대전보다 {n}곳 " + words.format(neg=neg))
    assert check_answer(text, str(neg), COUNT, Q_DIFF)
    assert not check_answer(text, str(n), COUNT, Q_DIFF)
    more = f"It has {n} more stops." if english else f"부산이 대전보다 {n}곳 많습니다."
    assert check_answer(more, str(n), COUNT, Q_DIFF)
    assert not check_answer(more, str(neg), COUNT, Q_DIFF)


@FAST
@given(st.integers(10_001, 9_999_999).filter(lambda v: v % 10_000), st.booleans())
def test_amounts_in_the_unit_the_question_asks(v: int, negative: bool) -> None:
    # v is in 만원: v = 13500 is 1억 3,500만 원
    g = -v if negative else v
    eok, man = divmod(v, 10_000)
    tail = " 낮습니다" if negative else "입니다"
    chk = Check(type="numeric", abs_tol=1.0)
    assert check_answer(f"{eok}억 {man:,}만 원{tail}", str(g), chk, Q_MAN)
    assert check_answer(f"{v:,}만원{tail}", str(g), chk, Q_MAN)
    assert check_answer(f"{g * 10_000:,}원", str(g), chk, Q_MAN)  # the same amount in 원
    assert check_answer(f"ANSWER: {g:,}", str(g), chk, Q_MAN)  # bare: in the asked unit
    assert not check_answer(f"{g:,}원", str(g), chk, Q_MAN)  # the 만원 figure labelled 원
    assert not check_answer(f"{g:,}억 원", str(g), chk, Q_MAN)
    assert not check_answer(f"{eok}억 {man + 2:,}만 원{tail}", str(g), chk, Q_MAN)


@FAST
@given(st.dates(dt.date(2000, 1, 1), dt.date(2030, 12, 30)),
       st.sampled_from(["{y}년 {m}월 {d}일입니다.", "{y}-{m:02d}-{d:02d}", "{y}.{m:02d}.{d:02d}",
                        "가장 높았던 날은 {y}/{m:02d}/{d:02d}입니다.", "It was {mon} {d}, {y}.",
                        "ANSWER: {y}{m:02d}{d:02d}", "The date is {d} {mon} {y}."]))
def test_dates_in_common_forms(day: dt.date, form: str) -> None:
    gold = day.strftime("%Y%m%d")
    say = form.format(y=day.year, m=day.month, d=day.day, mon=day.strftime("%B"))
    assert check_answer(say, gold, EXACT, "급식 열량이 가장 높았던 날짜(YYYYMMDD)는?")
    nxt = day + dt.timedelta(days=1)
    wrong = form.format(y=nxt.year, m=nxt.month, d=nxt.day, mon=nxt.strftime("%B"))
    assert not check_answer(wrong, gold, EXACT, "급식 열량이 가장 높았던 날짜(YYYYMMDD)는?")


GU = ["종로구", "중구", "용산구", "성동구", "광진구", "마포구", "강남구"]


@FAST
@given(st.sampled_from(GU), st.sampled_from(GU), st.sampled_from(
    ["서울특별시 {g}입니다.", "서울 {g}", "가장 비싼 거래는 서울특별시 {g}에서 나왔습니다.", "The district is {g}, Seoul.",
     "**{g}**", "투표율이 가장 높은 곳은 {g}(75.2%)입니다."]))
def test_names_with_or_without_their_region(gold: str, other: str, form: str) -> None:
    assert check_answer(form.format(g=gold), gold, EXACT, "어느 구인가요?")
    if other != gold:
        assert not check_answer(form.format(g=other), gold, EXACT, "어느 구인가요?")


@FAST
@given(st.sampled_from(["해양수산부", "법무부", "행정안전부"]), st.sampled_from(
    ["소관부처는 {g}입니다.", "{g} 소관입니다.", "It is administered by {g}.", "「가족관계의 등록 등법」은 {g} 소관 법률입니다."]))
def test_a_ministry_in_a_sentence(gold: str, form: str) -> None:
    assert check_answer(form.format(g=gold), gold, EXACT, "소관부처는 어디인가요?")
    for other in ("해양수산부", "법무부", "행정안전부"):
        if other != gold:
            assert not check_answer(form.format(g=other), gold, EXACT, "소관부처는 어디인가요?")


@FAST
@given(st.permutations(["463", "621", "963"]), st.sampled_from([", ", " / ", "; ", "、", " and "]),
       st.booleans())
def test_set_lists_in_any_order_and_separator(items: list[str], sep: str, counter: bool) -> None:
    gold = "463, 621, 963"
    said = [f"{x}번" if counter else x for x in items]
    assert check_answer(sep.join(said), gold, Check(type="set"))
    assert not check_answer(sep.join(said[:-1]), gold, Check(type="set"))
    assert not check_answer(sep.join([*said, "100"]), gold, Check(type="set"))


def test_stub_phrasings_of_synthetic_tasks() -> None:
    """The generator's right and wrong phrasings over a few task shapes, all read right."""
    rows = [
        {"id": "a", "q": Q_TOTAL, "gold": "1362", "check": {"type": "numeric", "rel_tol": 0.001}, "template": "t"},
        {"id": "b", "q": Q_DIFF, "gold": "-12", "check": {"type": "numeric", "rel_tol": 0.001}, "template": "u"},
        {"id": "c", "q": Q_MAN, "gold": "-68700.6", "check": {"type": "numeric", "abs_tol": 1.0}, "template": "v"},
        {"id": "d", "q": "가장 비싼 구는?", "gold": "용산구", "check": {"type": "exact"}, "template": "w"},
        {"id": "e", "q": "가장 비싼 구는?", "gold": "성동구", "check": {"type": "exact"}, "template": "w"},
        {"id": "f", "q": "날짜(YYYYMMDD)는?", "gold": "20251128", "check": {"type": "exact"}, "template": "x"},
    ]
    wrong = [(tid, a) for tid, q, g, c, a in task_answers(rows)
             if check_answer(a[0], g, Check(**c), q) != a[1]]
    assert not wrong
    assert natural_answers(Q_TOTAL, "1362", {"type": "numeric"}, [], random.Random(0))


@pytest.mark.slow
def test_natural_answers_to_every_shipped_task() -> None:
    """≥ 97 % of right answers accepted, ≥ 98 % of wrong ones rejected, over the 160 tasks."""
    from bench.kopa.env import World
    from bench.kopa.tasks import gold_run, load_tasks
    from simulator import Store

    world = World(Store().open("kopa", BENCH_VERSION))
    rows = [{"id": t.id, "q": t.question, "gold": gold_run(t, world).answer,
             "check": t.check.model_dump(), "template": t.template} for t in load_tasks()]
    right = [check_answer(a, g, Check(**c), q) for _t, q, g, c, (a, e, _w) in task_answers(rows) if e]
    wrong = [not check_answer(a, g, Check(**c), q) for _t, q, g, c, (a, e, _w) in task_answers(rows) if not e]
    assert sum(right) / len(right) >= 0.97, sum(right) / len(right)
    assert sum(wrong) / len(wrong) >= 0.98, sum(wrong) / len(wrong)


Q_MEAN = "2025년 3월 서울 종로구, 중구, 용산구, 성동구, 광진구에서 거래된 아파트 매매 전체의 평균 거래금액(만원)은 얼마인가요?"
MEAN = Check(type="numeric", rel_tol=0.002)
Q3 = "서울 종로구, 중구, 용산구의 2025년 3월 아파트 매매 건수를 모두 합하면 몇 건인가요?"


@pytest.mark.parametrize(("answer", "gold", "check", "question", "expect"), [
    # written apart from tests/data/natural_answers.py, after the checker was tuned on it
    ("After checking all three districts, I found 876 apartment sales in March 2025.", "876", COUNT, Q3, True),
    ("종로구: 300건\n중구: 265건\n용산구: 311건\n\n합계: 876건", "876", COUNT, Q3, True),
    ("종로구 300건 + 중구 265건 + 용산구 311건 = 876건", "876", COUNT, Q3, True),
    ("세 구의 매매 건수 합은 875건으로 집계됩니다.", "876", COUNT, Q3, False),
    ("부산(120곳)이 대전(132곳)보다 12곳 적어 -12입니다.", "-12", COUNT, Q_DIFF, True),
    ("Busan has 12 fewer such stops than Daejeon: -12.", "-12", COUNT, Q_DIFF, True),
    ("부산이 12곳 더 많습니다.", "-12", COUNT, Q_DIFF, False),
    ("평균 거래금액은 약 13억 5,053만 원입니다.", "135052.6", MEAN, Q_MEAN, True),
    ("평균 거래금액은 1,350,526원입니다.", "135052.6", MEAN, Q_MEAN, False),
    ("The average price is about 1.35 billion won (135,053 in units of 10,000 won).", "135052.6", MEAN, Q_MEAN, True),
    ("가장 비싼 거래가 나온 구는 용산구입니다 (한남더힐, 95억 원).", "용산구", EXACT, "가장 비싼 매매가 나온 구는?", True),
    ("The highest-calorie day was 2025-11-28 (812.4 kcal).", "20251128", EXACT, "날짜(YYYYMMDD)는?", True),
    ("In total: 22.", "22", COUNT, "제22대 총선 당선인이 대표발의한 법률안은 몇 건인가요?", True),
])
def test_answers_written_apart_from_the_generator(answer: str, gold: str, check: Check, question: str,
                                                  expect: bool) -> None:
    assert check_answer(answer, gold, check, question) is expect
