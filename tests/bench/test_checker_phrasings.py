"""The RESPONSE checker's rules from the second held-out set (``heldout_answers_v2.jsonl``):
one property test per rule, each generating the phrasings the rule is about and the wrong
answers that look like them (issue 29)."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.kopa.checkers import check_answer
from bench.kopa.tasks import Check

FAST = settings(max_examples=60, deadline=None)
EXACT = Check()
COUNT = Check(type="numeric", rel_tol=0.001)


# --- real values: the places the question states, else the gold's own -------------------------

@FAST
@given(st.integers(1, 99_999), st.integers(-4, 4), st.sampled_from([
    "{x}", "약 {x}%", "비율은 {x}입니다.", "≈ {x} trades per library", "The value is **{x}**."]))
def test_a_real_value_is_read_at_the_places_the_question_states(cents: int, extra: int, form: str) -> None:
    gold = f"{cents / 100:.2f}"
    q = "도서관 1곳당 매매 건수는 몇 건인가요? (소수 둘째 자리)"
    loose = Check(type="numeric", abs_tol=0.01)  # the task's tolerance is an upper bound only
    assert check_answer(form.format(x=gold), gold, loose, q)
    # more places that round to the gold are the gold ("25.444" for 25.44)
    assert check_answer(form.format(x=f"{cents / 100 + extra / 1000:.3f}"), gold, loose, q)
    # one unit off in the last stated place is another answer (25.45 is not 25.44)
    for off in (cents - 1, cents + 1):
        if off > 0:
            assert not check_answer(form.format(x=f"{off / 100:.2f}"), gold, loose, q)


@FAST
@given(st.integers(100_000_000, 999_999_999), st.integers(1, 9),
       st.sampled_from(["{x}", "X좌표는 {x}입니다.", "entX = {x}"]))
def test_a_real_gold_without_stated_rounding_is_read_at_its_own_places(micro: int, d: int, form: str) -> None:
    gold = f"{micro / 1e6:.6f}"
    q = "건물 출입구의 X좌표(entX)는 얼마인가요?"
    chk = Check(type="numeric", abs_tol=0.001)
    assert check_answer(form.format(x=gold), gold, chk, q)
    assert not check_answer(form.format(x=f"{(micro + d) / 1e6:.6f}"), gold, chk, q)  # a digit off
    assert not check_answer(form.format(x=f"{(micro - d) / 1e6:.6f}"), gold, chk, q)


def _half_up(x: Decimal) -> int:
    return int(x.quantize(Decimal(1), rounding=ROUND_HALF_UP))


@FAST
@given(st.integers(10_000, 9_999_999), st.integers(1, 9), st.sampled_from([
    "{w:,}만원", "평균은 {w:,}만 원입니다.", "{e}억 {r:,}만 원", "약 {e}억 {r:,}만 원입니다."]))
def test_a_manwon_value_rounded_to_a_whole_unit(tenths: int, digit: int, form: str) -> None:
    gold = Decimal(tenths) / 10
    assume(gold % 1 != 0)
    q = "아파트 매매 전체의 평균 거래금액(만원)은 얼마인가요?"
    chk = Check(type="numeric", rel_tol=0.002)

    def say(w: int) -> str:
        return form.format(w=w, e=w // 10_000, r=w % 10_000)

    assert check_answer(say(_half_up(gold)), str(gold), chk, q)  # rounded half up to a whole 만원
    truncated = int(gold)
    if truncated != _half_up(gold):
        assert not check_answer(say(truncated), str(gold), chk, q)  # truncating is not rounding
    assert not check_answer(say(_half_up(gold) + digit), str(gold), chk, q)  # within 0.2 %, still wrong
    # rounded coarser than a whole unit (13.5억 for 135,052.6만원) is not the value asked
    coarse = round(float(gold) / 1000) * 1000
    if abs(coarse - float(gold)) >= 1:
        assert not check_answer(f"약 {coarse / 10_000:g}억 원", str(gold), chk, q)


@FAST
@given(st.integers(10_000, 999_999), st.integers(2, 50))
def test_a_bracket_that_restates_the_answer_more_precisely(n: int, away: int) -> None:
    q = "평균 거래금액(만원)은 얼마인가요?"
    chk = Check(type="numeric", rel_tol=0.002)
    rough = f"{n / 10_000:.2f}"
    assert check_answer(f"The average is about {rough}억 원 ({n:,} in units of 10,000 won).", str(n), chk, q)
    # a bracket with another value is a remark: the rough value is what is said
    other = n + n * away // 100
    if abs(float(rough) * 10_000 - n) >= 1:
        assert not check_answer(f"The average is about {rough}억 원 (최고가 {other:,}만원).", str(n), chk, q)


# --- counters and labels ------------------------------------------------------------------------

COUNTERS = [("가지", "개", "서로 다른 이름은 몇 가지인가요?", "서로 다른 이름은", "전체 정류장 수는"),
            ("명", "건", "위원회에는 위원이 모두 몇 명 있나요?", "위원은", "회부된 법률안은"),
            ("곳", "명", "학교는 모두 몇 곳인가요?", "학교는", "교원은"),
            ("대", "번", "도착 예정인 버스는 몇 대인가요?", "도착 예정 버스는", "노선 번호는")]


@FAST
@given(st.integers(2, 9_999), st.integers(2, 9_999), st.sampled_from(COUNTERS), st.booleans())
def test_a_count_in_another_counter_is_another_quantity(n: int, o: int, case: tuple[str, ...], first: bool) -> None:
    asked, other, q, label, other_label = case
    assume(n != o)
    parts = [f"{label} {n:,}{asked}", f"{other_label} {o:,}{other}"]
    say = ("이고, ".join(parts) if first else "이고, ".join(reversed(parts))) + "입니다."
    assert check_answer(say, str(n), COUNT, q), say
    assert not check_answer(say, str(o), COUNT, q), say  # the other quantity's number


@FAST
@given(st.integers(100_000, 999_999), st.integers(1_000_000, 1_999_999), st.booleans())
def test_the_value_of_the_label_the_question_names(x: int, y: int, ask_x: bool) -> None:
    say = f"X좌표(entX): `{x}.5`, Y좌표(entY): `{y}.25`"
    q = "X좌표(entX)는 얼마인가요?" if ask_x else "Y좌표(entY)는 얼마인가요?"
    gold, other = (f"{x}.5", f"{y}.25") if ask_x else (f"{y}.25", f"{x}.5")
    chk = Check(type="numeric", abs_tol=0.001)
    assert check_answer(say, gold, chk, q)
    assert not check_answer(say, other, chk, q)


@FAST
@given(st.integers(1, 999), st.integers(1, 999))
def test_a_labelled_breakdown_with_its_total_is_the_total(a: int, b: int) -> None:
    q = "서울 성동구, 광진구의 아파트 매매 건수를 모두 합하면 몇 건인가요?"
    say = f"성동구: {a}건, 합계: {a + b}건"
    assert check_answer(say, str(a + b), COUNT, q)
    assert not check_answer(say, str(a), COUNT, q)


# --- numbers in words, 조, about ------------------------------------------------------------------

_KO_ONES = ["", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉"]
_KO_TENS = ["", "열", "스물", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔"]
_EN = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
       "sixteen seventeen eighteen nineteen").split()
_EN_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _korean(n: int) -> str:
    word = _KO_TENS[n // 10] + _KO_ONES[n % 10]
    return "스무" if n == 20 else word


def _english(n: int) -> str:
    if n < 20:
        return _EN[n]
    return _EN_TENS[n // 10] + ("-" + _EN[n % 10] if n % 10 else "")


@FAST
@given(st.integers(1, 98), st.sampled_from(["{w} 건", "대표발의 법률안은 {w} 건입니다.", "모두 {w} 명"]))
def test_a_count_in_native_korean_words(n: int, form: str) -> None:
    q = "대표발의한 법률안은 몇 건인가요?"
    assert check_answer(form.format(w=_korean(n)), str(n), COUNT, q), _korean(n)
    assert not check_answer(form.format(w=_korean(n + 1)), str(n), COUNT, q)


@FAST
@given(st.integers(1, 98), st.sampled_from(["The member sponsored {w} bills.", "{W} buses are due.",
                                            "There are {w} stops."]))
def test_a_count_in_english_words_where_no_digits_are_written(n: int, form: str) -> None:
    q = "몇 건인가요?"
    w = _english(n)
    assert check_answer(form.format(w=w, W=w.capitalize()), str(n), COUNT, q)
    assert not check_answer(form.format(w=_english(n + 1), W=_english(n + 1).capitalize()), str(n), COUNT, q)
    # digits written beside the words decide: "The two companies filed 17 disclosures"
    assert check_answer(f"The {_english(2)} companies filed {n + 20} disclosures.", str(n + 20), COUNT, q)


@FAST
@given(st.integers(1, 999), st.sampled_from(["{n}조", "조문 수 합계는 {n}조입니다.", "모두 {n}개 조({n}조)"]))
def test_articles_counted_in_jo(n: int, form: str) -> None:
    q = "현행 법령의 조문은 모두 합해 몇 개인가요?"
    assert check_answer(form.format(n=n), str(n), COUNT, q)
    assert not check_answer(form.format(n=n + 1), str(n), COUNT, q)


@FAST
@given(st.integers(1_000, 9_999_999), st.sampled_from(["약 {x}명", "약 {x}명입니다.", "노선 전체 승차 인원은 약 {x}명입니다."]))
def test_about_an_exact_number_is_that_number(n: int, form: str) -> None:
    q = "노선 전체의 승차 인원 합계를 알려주세요."
    assert check_answer(form.format(x=f"{n:,}"), str(n), EXACT, q)
    man, rest = divmod(n, 10_000)
    if man and rest:
        assert check_answer(form.format(x=f"{man}만 {rest:,}"), str(n), EXACT, q)
    assert not check_answer(form.format(x=f"{n + 1:,}"), str(n), EXACT, q)
    assert not check_answer(form.format(x=f"{n:,}명 또는 {n + 1:,}"), str(n), EXACT, q)


# --- names ----------------------------------------------------------------------------------------

#: (gold as listed, other spellings of the same company)
COMPANIES = [("POSCO홀딩스", ["포스코홀딩스", "POSCO Holdings", "(주)POSCO홀딩스", "주식회사 포스코홀딩스", "㈜포스코홀딩스"]),
             ("NAVER", ["네이버", "NAVER Corp.", "네이버(주)"]),
             ("SK하이닉스", ["SK hynix", "에스케이하이닉스", "SK하이닉스(주)"]),
             ("신한지주", ["신한금융지주", "신한금융지주회사", "(주)신한금융지주"]),
             ("KB금융", ["KB금융지주", "KB금융그룹", "케이비금융지주"]),
             ("삼성전자", ["Samsung Electronics", "삼성전자(주)"]),
             ("카카오", ["Kakao", "㈜카카오"])]


@FAST
@given(st.permutations(range(len(COMPANIES))), st.data(), st.sampled_from([
    "{x}", "{x}입니다.", "가장 큰 회사는 {x}입니다.", "{x}가 가장 큽니다.", "**{x}** — 2024년 연결 매출액 최대",
    "The largest is {x}."]))
def test_a_company_in_either_script_or_with_its_corporate_form(order: list[int], data: st.DataObject,
                                                                  form: str) -> None:
    (gold, golds), (other, others) = COMPANIES[order[0]], COMPANIES[order[1]]
    q = "중 2024년 연결 매출액이 가장 큰 회사는 어디인가요?"
    say = data.draw(st.sampled_from(golds))
    assert check_answer(form.format(x=say), gold, EXACT, q), say
    wrong = data.draw(st.sampled_from([other, *others]))
    assert not check_answer(form.format(x=wrong), gold, EXACT, q), wrong
    assert not check_answer(f"{other}가 가장 크고, {say}가 그 다음입니다.", gold, EXACT, q)
    assert check_answer(f"{say}가 가장 크고, {other}가 그 다음입니다.", gold, EXACT, q)


@FAST
@given(st.permutations(["김미윤", "서광혜", "곽석주", "오세철", "안은정"]), st.sampled_from(["사외이사", "전 대표", "감사"]))
def test_a_name_said_only_in_an_aside_is_not_the_answer(names: list[str], role: str) -> None:
    gold, other = names[:2]
    q = "발행 회사 대표자는 누구인가요?"
    assert not check_answer(f"대표자는 {other}입니다 ({gold}는 {role}).", gold, EXACT, q)
    assert check_answer(f"대표자는 {gold}입니다 ({other}는 {role}).", gold, EXACT, q)


@FAST
@given(st.sampled_from(["SK하이닉스", "용산구", "22번"]), st.integers(1, 99),
       st.sampled_from(["{g} (매출액 약 {k}조 원)", "{g}입니다 (약 {k}분 후).", "**{g}** (대략 {k}건 정도)"]))
def test_a_hedge_inside_a_remark_is_about_the_remark(gold: str, k: int, form: str) -> None:
    assert check_answer(form.format(g=gold, k=k), gold.removesuffix("번"), EXACT, "어디인가요?")
    assert not check_answer(f"아마 {gold}일 것 같습니다 ({k}건).", gold.removesuffix("번"), EXACT, "어디인가요?")


STOPS = ["괴정동입구", "반석초등학교", "안서아파트", "합강우체국", "홍도센터"]


@FAST
@given(st.permutations(STOPS), st.sampled_from(["정류소", "정류장"]), st.sampled_from([
    "{x} {s}", "가장 동쪽 정류장은 {x} {s}입니다.", "{x} {s} (순번 58)"]))
def test_a_stop_with_its_kind_after_it(stops: list[str], kind: str, form: str) -> None:
    assert check_answer(form.format(x=stops[0], s=kind), stops[0], EXACT, "정류장의 이름은?")
    assert not check_answer(form.format(x=stops[1], s=kind), stops[0], EXACT, "정류장의 이름은?")


CMTS = ["행정안전위원회", "기획재정위원회", "국방위원회", "보건복지위원회"]


@FAST
@given(st.permutations(CMTS), st.sampled_from(["종로구을 당선인은 {x} 위원입니다.", "{x} 위원장입니다."]))
def test_a_committee_with_its_member_title(cmts: list[str], form: str) -> None:
    assert check_answer(form.format(x=cmts[0]), cmts[0], EXACT, "어느 위원회 소속인가요?")
    assert not check_answer(form.format(x=cmts[1]), cmts[0], EXACT, "어느 위원회 소속인가요?")


CITIES = [("문경시", "경북"), ("상주시", "경북"), ("연천군", "경기"), ("가평군", "경기"), ("김해시", "경남")]


@FAST
@given(st.permutations(range(len(CITIES))), st.sampled_from(["{p} {x}", "{x}입니다.", "{p} {x} (투표율 84.7%)"]))
def test_a_city_or_county_without_its_kind(order: list[int], form: str) -> None:
    (gold, prov), (other, oprov) = CITIES[order[0]], CITIES[order[1]]
    q = "구·시·군 중 투표율이 가장 높은 곳은 어디인가요?"
    assert check_answer(form.format(p=prov, x=gold[:-1]), gold, EXACT, q)
    assert not check_answer(form.format(p=oprov, x=other[:-1]), gold, EXACT, q)


@FAST
@given(st.sampled_from([("경기도 연천군", "전곡로", "전곡읍"), ("서울특별시 관악구", "남현로", "남현동"),
                        ("경기도 하남시", "망월로", "망월동")]), st.integers(1, 999), st.integers(1, 9))
def test_an_address_with_its_dong_before_the_road(parts: tuple[str, str, str], no: int, d: int) -> None:
    head, road, dong = parts
    gold = f"{head} {road} {no} ({dong})"
    assert check_answer(f"본사 주소는 {head} {dong} {road} {no}입니다.", gold, EXACT)
    assert check_answer(f"{head} {road} {no}", gold, EXACT)
    assert not check_answer(f"본사 주소는 {head} {dong} {road} {no + d}입니다.", gold, EXACT)


@FAST
@given(st.decimals(min_value=1, max_value=999_999, places=1), st.sampled_from([
    "Jongno-gu's mean is lower than Jung-gu's by {x:,} (10k KRW), i.e. **\u2212{x:,}**.",
    "The gap is {x:,} (10k KRW), that is \u2212{x:,}."]))
def test_ie_introduces_the_value(x: Decimal, form: str) -> None:
    q = "평균 매매가(만원)는 종로구가 중구보다 얼마나 높은가요? (낮으면 음수)"
    chk = Check(type="numeric", abs_tol=1.0)
    assert check_answer(form.format(x=x), str(-x), chk, q)
    assert not check_answer(form.format(x=x), str(x), chk, q)


@FAST
@given(st.integers(2, 99), st.sampled_from(["한 대전 정류소에 {n}대가 도착합니다.", "두 대표 노선 기준 {n}대",
                                            "세 대학 앞 정류소: {n}대"]))
def test_a_word_that_starts_like_a_counter_is_no_count(n: int, form: str) -> None:
    q = "도착 예정인 버스는 몇 대인가요?"
    assert check_answer(form.format(n=n), str(n), COUNT, q)
    assert not check_answer(form.format(n=n + 1), str(n), COUNT, q)


@FAST
@given(st.integers(1, 999), st.integers(1, 99), st.sampled_from([
    "지역구 당선인은 {n}명이며, 비례대표를 포함하면 {w}명입니다.",
    "{n}명입니다 (비례대표를 포함하면 {w}명).", "지역구 당선인 {n}명, 비례대표까지 포함할 경우 {w}명",
    "{n} district winners; including proportional members, {w}."]))
def test_a_count_widened_by_what_the_question_leaves_out(n: int, extra: int, form: str) -> None:
    q = "제22대 국회의원선거 지역구 당선인 가운데 현재 국방위원회 소속인 의원은 몇 명인가요?"
    say = form.format(n=n, w=n + extra)
    assert check_answer(say, str(n), COUNT, q), say
    assert not check_answer(say, str(n + extra), COUNT, q), say
    # what the question itself takes in is no widening: "이 학교를 포함하면 N곳"
    q2 = "같은 교육지원청 관할에 있는 학교는 이 학교를 포함해 모두 몇 곳인가요?"
    assert check_answer(f"이 학교를 제외하면 {n}곳, 이 학교를 포함하면 {n + 1}곳입니다.", str(n + 1), COUNT, q2)


@FAST
@given(st.sampled_from([("서울특별시", "서울시"), ("부산광역시", "부산시"), ("대전광역시", "대전시"),
                        ("세종특별자치시", "세종시")]), st.sampled_from(["중앙로", "남현로", "한누리대로"]),
       st.integers(1, 999), st.integers(1, 9))
def test_a_metropolitan_city_said_as_si(city: tuple[str, str], road: str, no: int, d: int) -> None:
    full, spoken = city
    gold = f"{full} 관악구 {road} {no} (남현동)"
    assert check_answer(f"{spoken} 관악구 {road} {no}", gold, EXACT)
    assert not check_answer(f"{spoken} 관악구 {road} {no + d}", gold, EXACT)


# --- v3 rules (``heldout_answers_v3.jsonl``, written blind before this round) --------------------

@FAST
@given(st.integers(1, 99), st.integers(0, 9_999), st.integers(0, 9), st.sampled_from([
    "차이: -{e}억 {m:,}만 {c}천원", "-{e}억 {m:,}만 {c}천 원입니다.", "The difference is \u2212{e}억 {m:,}만 {c}천 원."]))
def test_a_sign_before_eok_and_man_is_the_whole_numbers(eok: int, man: int, cheon: int, form: str) -> None:
    q = "평균 매매가(만원)는 종로구가 중구보다 얼마나 높은가요? (낮으면 음수)"
    chk = Check(type="numeric", abs_tol=1.0)
    gold = -(eok * 10_000 + man + cheon / 10)
    say = form.format(e=eok, m=man, c=cheon)
    assert check_answer(say, f"{gold:.1f}", chk, q), say
    # divmod's reading (-7억 + 1,299.4만) is another value
    if man >= 2:
        assert not check_answer(say, f"{-(eok - 1) * 10_000 - (10_000 - man) - cheon / 10:.1f}", chk, q), say


GU = ["종로구", "중구", "용산구", "성동구", "광진구"]


@FAST
@given(st.permutations(GU), st.sampled_from(["그다음입니다", "2위입니다", "그 다음으로 높습니다", "두 번째입니다"]),
       st.sampled_from(["질문에 해당하는 곳은 '{g}'입니다. 참고로 {o}는 {r}.", "{g}입니다. {o}는 {r}.",
                        "답: {g} (참고: {o}는 {r})"]))
def test_a_rival_ranked_below_first_after_the_answer_is_no_rival(gus: list[str], rank: str, form: str) -> None:
    g, o = gus[:2]
    q = "가운데 가장 비싼 아파트 매매가 나온 구는 어디인가요?"
    assert check_answer(form.format(g=g, o=o, r=rank), g, EXACT, q)
    assert not check_answer(form.format(g=g, o=o, r=rank), o, EXACT, q)
    assert not check_answer(f"{g}입니다. {o}도 비슷합니다.", g, EXACT, q)  # a rival not ranked: which one?


@FAST
@given(st.sampled_from(["분기보고서", "반기보고서", "사업보고서"]), st.integers(2020, 2030), st.integers(1, 12),
       st.sampled_from(["{k}입니다.", "가장 늦게 접수된 공시는 {k}입니다.", "「{k}」"]),
       st.sampled_from(["성석동", "전곡읍", "남현동"]))
def test_a_gold_remark_with_digits_is_part_of_the_name(kind: str, y: int, m: int, form: str, dong: str) -> None:
    gold = f"{kind} ({y}.{m:02d})"
    assert not check_answer(form.format(k=kind), gold, EXACT)  # which period's report?
    assert check_answer(form.format(k=gold), gold, EXACT)
    # a note without digits may be left out: an address's dong
    addr = f"경기도 연천군 전곡로 327 ({dong})"
    assert check_answer(form.format(k="경기도 연천군 전곡로 327"), addr, EXACT)


@FAST
@given(st.integers(1, 999), st.integers(1, 999), st.sampled_from(["건", "명", "대"]), st.booleans())
def test_the_value_a_condition_is_tested_on_is_no_answer(tested: int, threshold: int, unit: str, above: bool) -> None:
    assume(tested != threshold)
    q = (f"성동구의 매매가 {threshold}{unit} 이상이면 거래금액이 가장 높은 단지명을, {threshold}{unit} 미만이면 "
         "같은 달 전월세 계약 건수를 알려주세요.")
    side = "이상" if above else "미만"
    say = f"성동구는 {tested}{unit}으로 {threshold}{unit} {side}이므로 최고가 단지는 서울숲리버뷰입니다."
    assert not check_answer(say, str(tested), EXACT, q), say  # a name was answered, not the count
    right = f"성동구는 {tested}{unit}으로 {threshold}{unit} {side}이므로, 답은 {tested + threshold}건입니다."
    assert check_answer(right, str(tested + threshold), EXACT, q), right
    assert not check_answer(right, str(tested), EXACT, q), right


@FAST
@given(st.integers(1, 12), st.sampled_from(["the answer is {n}.", "답은 {n}개입니다.", "결과: **{n}개**",
                                            "정답은 {n}입니다."]))
def test_an_explicit_answer_phrase_beats_the_questions_digits(n: int, form: str) -> None:
    q = f"4월 평균 열량이 720kcal 이상이면 날짜를, 미만이면 2025년 {n}월 학사일정의 서로 다른 행사 수를 알려주세요."
    lead = "The condition is checked first (4월 평균 열량이 684kcal로 720kcal 미만); "
    assert check_answer(lead + form.format(n=n), str(n), EXACT, q)
    assert not check_answer(lead + form.format(n=n + 1), str(n), EXACT, q)


@FAST
@given(st.integers(2, 300), st.integers(1, 299), st.sampled_from([
    "국방위원회 위원 {w}명 중 지역구 당선인은 {n}명입니다(비례대표 {x}명 제외).",
    "위원 {w}명 가운데 지역구 당선인은 {n}명입니다 (나머지 {x}명은 비례대표).",
    "Of the committee's {w} members, {n} are district winners ({x} proportional)."]))
def test_the_whole_a_part_is_taken_from_is_context(whole: int, n: int, form: str) -> None:
    assume(n < whole)
    q = "제22대 국회의원선거 지역구 당선인 가운데 현재 국방위원회 소속인 의원은 몇 명인가요?"
    say = form.format(w=whole, n=n, x=whole - n)
    assert check_answer(say, str(n), COUNT, q), say
    assert not check_answer(say, str(whole), COUNT, q), say
    # asked for a total, the whole is the answer: "합계 876건 중 용산구가 229건"
    qt = "서울 종로구, 중구, 용산구의 아파트 매매 건수를 모두 합하면 몇 건인가요?"
    total = f"합계 {whole}건 중 용산구가 {n}건으로 가장 적습니다."
    assert check_answer(total, str(whole), COUNT, qt) and not check_answer(total, str(n), COUNT, qt)


@FAST
@given(st.integers(1, 999), st.integers(1, 59), st.sampled_from([
    "가장 먼저 도착하는 버스는 {r}번입니다. 약 {m}분 후 도착 예정입니다.", "{r}번 버스가 {m}분 뒤에 옵니다.",
    "Route {r} arrives first, in {m} minutes."]))
def test_a_time_until_is_a_remark_where_no_time_is_asked(route: int, mins: int, form: str) -> None:
    assume(route != mins)
    q = "대전 '가수원삼거리' 정류소에 지금 가장 먼저 도착하는 버스의 노선번호는?"
    say = form.format(r=route, m=mins)
    assert check_answer(say, str(route), EXACT, q), say
    assert not check_answer(say, str(mins), EXACT, q), say
    # asked for the time, the time is the answer
    assert check_answer(f"{mins}분 후 도착합니다.", str(mins), COUNT, "버스가 몇 분 후에 도착하나요?")


VERBS = [("낙선", "당선"), ("당선", "낙선"), ("사퇴", "등록")]


@FAST
@given(st.integers(1, 999), st.integers(1, 999), st.sampled_from(VERBS), st.booleans(), st.sampled_from([
    "{a}명이 {va}했고, {b}명이 {vb}했습니다.", "후보 {s}명 중 {a}명이 {va}했고 {b}명이 {vb}했습니다.",
    "{a}명이 {va}하였으며, {b}명은 {vb}하였습니다."]))
def test_two_counts_each_bound_to_its_own_verb(x: int, y: int, verbs: tuple[str, str], asked_first: bool,
                                              form: str) -> None:
    assume(x != y)
    asked, other = verbs
    q = f"제22대 국회의원선거 지역구에서 국민의힘 후보 가운데 {asked}한 사람은 몇 명인가요?"
    va, vb = (asked, other) if asked_first else (other, asked)
    say = form.format(a=x, b=y, va=va, vb=vb, s=x + y)
    gold, wrong = (x, y) if asked_first else (y, x)
    assert check_answer(say, str(gold), COUNT, q), say
    assert not check_answer(say, str(wrong), COUNT, q), say


@FAST
@given(st.permutations(["부산", "대전", "천안", "세종"]), st.integers(1, 9_999))
def test_a_stated_answer_after_a_swapped_comparison_is_as_said(cities: list[str], n: int) -> None:
    a, b = cities[:2]
    q = f"시내버스 정류장의 서로 다른 이름 수는 {a}이 {b}보다 몇 가지 더 많나요? (적으면 음수)"
    say = f"{b}이 {a}보다 {n:,}가지 적으므로 답은 {n:,}입니다."
    assert check_answer(say, str(n), COUNT, q), say
    assert not check_answer(say, str(-n), COUNT, q), say
    flipped = f"{b}이 {a}보다 {n:,}가지 많으므로 답은 -{n:,}입니다."
    assert check_answer(flipped, str(-n), COUNT, q), flipped


@FAST
@given(st.integers(100_000_000_000, 999_999_999_999), st.sampled_from([3, 4, 5]),
       st.sampled_from(["X좌표는 {x}입니다 (entX).", "entX = {x}", "{x}"]))
def test_fewer_decimals_rounded_within_the_tolerance(nano: int, places: int, form: str) -> None:
    gold = f"{nano / 1e6:.6f}"
    chk = Check(type="numeric", abs_tol=0.001)
    q = "건물 출입구의 X좌표(entX)는 얼마인가요?"
    g = Decimal(gold)
    rounded = g.quantize(Decimal(10) ** -places, rounding=ROUND_HALF_UP)
    assert check_answer(form.format(x=f"{rounded:,}"), gold, chk, q)
    step = Decimal(10) ** -places
    assert not check_answer(form.format(x=f"{rounded + step:,}"), gold, chk, q)  # one step off
    two = g.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if abs(two - g) > Decimal("0.001"):
        assert not check_answer(form.format(x=f"{two:,}"), gold, chk, q)  # too coarse for ±0.001


# --- rules from a probe written after the v3 round (not held-out) ------------------------------

@FAST
@given(st.lists(st.integers(1, 999), min_size=2, max_size=5), st.integers(1, 3), st.sampled_from([
    "**{t:,}건**\n\n계산 과정:\n{parts}", "총 {t:,}건입니다.\n\n세부 내역:\n{parts}", "{t:,} in total.\n\n{parts}"]))
def test_a_total_said_first_then_its_breakdown(parts: list[int], off: int, form: str) -> None:
    q = "서울 종로구, 중구, 용산구, 성동구, 광진구의 아파트 매매 건수를 모두 합하면 몇 건인가요?"
    gus = ["종로구", "중구", "용산구", "성동구", "광진구"]
    lines = "\n".join(f"- {g}: {n}건" for g, n in zip(gus, parts))
    total = sum(parts)
    assert check_answer(form.format(t=total, parts=lines), str(total), COUNT, q)
    assert not check_answer(form.format(t=total, parts=lines), str(parts[0]), COUNT, q)
    # a stated total that is not the sum is what is said (and wrong)
    assert not check_answer(form.format(t=total + off, parts=lines), str(total), COUNT, q)
    # a whole that something is taken from is no total ("78명 중 사퇴 7명을 빼면 71명")
    qp = "예비후보 가운데 국민의힘 소속으로 등록해 사퇴하지 않은 사람은 모두 몇 명인가요?"
    say = f"등록 {total}명 중 사퇴 {parts[0]}명을 빼면 {total - parts[0]}명입니다."
    assert check_answer(say, str(total - parts[0]), COUNT, qp) and not check_answer(say, str(total), COUNT, qp)


@FAST
@given(st.integers(10, 9_999), st.integers(1, 9), st.sampled_from([
    "{n}건입니다.\n\n※ 참고로 취소된 거래 {o}건은 제외했습니다.", "총 {n}건입니다.\n\n참고: 전월 대비 {o}건 증가했습니다.",
    "The answer is {n}.\n\nNote: {o} cancelled deals were left out."]))
def test_a_note_after_the_answer_is_context(n: int, o: int, form: str) -> None:
    q = "중구(서울) 아파트 매매 실거래가 2025년 3월에 모두 몇 건 신고되었는지 알려주세요."
    say = form.format(n=n, o=o)
    assert check_answer(say, str(n), COUNT, q), say
    assert not check_answer(say, str(o), COUNT, q), say


@FAST
@given(st.decimals(min_value=1, max_value=999_999, places=1), st.sampled_from([
    "마이너스 {x:,}만원", "차이는 마이너스 {x}만 원입니다.", "minus {x:,} (만원)"]))
def test_a_minus_said_in_words(x: Decimal, form: str) -> None:
    q = "평균 매매가(만원)는 종로구가 중구보다 얼마나 높은가요? (낮으면 음수)"
    chk = Check(type="numeric", abs_tol=1.0)
    assert check_answer(form.format(x=x), str(-x), chk, q)
    assert not check_answer(form.format(x=x), str(x), chk, q)


@FAST
@given(st.lists(st.integers(100, 999), min_size=2, max_size=4, unique=True), st.sampled_from(["{i}. {r}번", "{i}) {r}"]))
def test_a_numbered_list_is_its_items(routes: list[int], form: str) -> None:
    q = "정류소를 지나는 버스 노선번호를 모두 알려주세요."
    say = "\n".join(form.format(i=i, r=r) for i, r in enumerate(routes, 1))
    gold = ", ".join(map(str, sorted(routes)))
    assert check_answer(say, gold, Check(type="set"), q), say
    assert not check_answer(say, ", ".join(map(str, sorted(routes)[:-1])), Check(type="set"), q), say


@FAST
@given(st.integers(2, 999), st.sampled_from(["{m}곳 (본교 제외), 본교 포함 {n}곳", "본교를 빼면 {m}곳이고, 포함하면 {n}곳입니다."]))
def test_a_count_without_what_the_question_includes_is_context(n: int, form: str) -> None:
    q = "경기도 처인꿈나무초등학교와 같은 교육지원청 관할에 있는 학교는 이 학교를 포함해 모두 몇 곳인가요?"
    say = form.format(m=n - 1, n=n)
    assert check_answer(say, str(n), COUNT, q), say
    assert not check_answer(say, str(n - 1), COUNT, q), say


MINISTRIES = ["해양수산부", "법무부", "고용노동부", "보건복지부", "국토교통부", "행정안전부"]


@FAST
@given(st.permutations(MINISTRIES), st.sampled_from(["소관 부처는 **{g}**이며, {o}가 아닙니다.",
                                                     "{g}입니다. {o}가 아닙니다.", "{g} 소관이고, {o}는 아닙니다."]))
def test_a_rival_said_not_to_be_it_is_no_rival(names: list[str], form: str) -> None:
    g, o = names[:2]
    q = "「가족관계의 등록 등법」의 소관부처는 어디인가요?"
    assert check_answer(form.format(g=g, o=o), g, EXACT, q)
    assert not check_answer(form.format(g=g, o=o), o, EXACT, q)
    assert not check_answer(f"{g}가 아닙니다.", g, EXACT, q)  # the gold negated is still no answer


@FAST
@given(st.integers(1, 999), st.integers(1, 999), st.booleans(), st.sampled_from([
    "국민의힘: {la} {a}명, {lb} {b}명", "{la} {a}명 / {lb} {b}명", "결과 — {la} {a}명, {lb} {b}명"]))
def test_counts_labelled_by_the_noun_before_them(x: int, y: int, asked_first: bool, form: str) -> None:
    assume(x != y)
    q = "제22대 국회의원선거 지역구에서 국민의힘 후보 가운데 낙선한 사람은 몇 명인가요?"
    la, lb = ("낙선", "당선") if asked_first else ("당선", "낙선")
    say = form.format(la=la, lb=lb, a=x, b=y)
    gold, wrong = (x, y) if asked_first else (y, x)
    assert check_answer(say, str(gold), COUNT, q), say
    assert not check_answer(say, str(wrong), COUNT, q), say


@FAST
@given(st.dates(dt.date(2024, 1, 1), dt.date(2026, 12, 31)), st.dates(dt.date(2024, 1, 1), dt.date(2026, 12, 31)),
       st.sampled_from(["두 번째는", "2위는", "다음은"]))
def test_a_date_ranked_second_is_not_the_answer(first: dt.date, second: dt.date, rank: str) -> None:
    assume(first != second)
    q = "급식 기록 전체에서 열량이 가장 높았던 날짜(YYYYMMDD)는 언제인가요?"
    say = (f"가장 열량이 높았던 날은 {first.year}년 {first.month}월 {first.day}일(912kcal)이고, "
           f"{rank} {second.year}년 {second.month}월 {second.day}일입니다.")
    assert check_answer(say, first.strftime("%Y%m%d"), EXACT, q), say
    assert not check_answer(say, second.strftime("%Y%m%d"), EXACT, q), say


@FAST
@given(st.permutations(["문채희", "윤용희", "류규찬", "최도민"]), st.integers(60, 90))
def test_the_next_one_said_with_daeum_is_ranked_second(names: list[str], age: int) -> None:
    g, o = names[:2]
    q = "무소속 예비후보 가운데 가장 나이가 많은 사람은 누구인가요?"
    say = f"최고령 예비후보는 {g}({age}세)이고, 다음은 {o}({age - 1}세)입니다."
    assert check_answer(say, g, EXACT, q) and not check_answer(say, o, EXACT, q)


@FAST
@given(st.integers(1_000, 9_999), st.integers(1, 999))
def test_one_districts_count_is_no_total_of_the_whole_it_is_part_of(whole: int, part: int) -> None:
    assume(part < whole)
    q = "중구(서울) 아파트 매매 실거래가 2025년 3월에 모두 몇 건 신고되었는지 알려주세요."  # 모두: no sum asked
    say = f"서울 전체 {whole:,}건 중 중구는 {part}건입니다."
    assert check_answer(say, str(part), COUNT, q) and not check_answer(say, str(whole), COUNT, q)


ROMAN = {"종로구": "Jongno-gu", "중구": "Jung-gu", "용산구": "Yongsan-gu", "성동구": "Seongdong-gu", "광진구": "Gwangjin-gu"}


@FAST
@given(st.permutations(list(ROMAN)), st.integers(1, 999), st.integers(1, 999), st.sampled_from([
    "{oe} had {o} apartment sales reported in March 2025, compared with {n} in {ge}.",
    "{ge} had {n} sales, while {oe} had {o}.", "{ok} {o}건, {gk} {n}건입니다."]))
def test_the_number_bound_to_the_questions_only_place(gus: list[str], n: int, o: int, form: str) -> None:
    assume(n != o)
    g, other = gus[:2]
    q = f"{g}(서울) 아파트 매매 실거래가 2025년 3월에 모두 몇 건 신고되었는지 알려주세요."
    say = form.format(ge=ROMAN[g], oe=ROMAN[other], gk=g, ok=other, n=n, o=o)
    assert check_answer(say, str(n), COUNT, q), say
    assert not check_answer(say, str(o), COUNT, q), say


@FAST
@given(st.integers(100_000, 999_999), st.integers(1_000_000, 1_999_999), st.sampled_from([
    "entX는 {x}.5, entY는 {y}.25입니다.", "X: {x}.5 / Y: {y}.25", "X: {x}.5, Y: {y}.25"]))
def test_a_field_named_as_a_topic_or_by_its_axis(x: int, y: int, form: str) -> None:
    q = "건물 출입구의 X좌표(entX)는 얼마인가요?"
    chk = Check(type="numeric", abs_tol=0.001)
    say = form.format(x=x, y=y)
    assert check_answer(say, f"{x}.5", chk, q), say
    assert not check_answer(say, f"{y}.25", chk, q), say
    # a topic label does not outweigh an unlabelled value said after it
    mixed = f"entX는 {x}.5, entY는 {y}.25이며 X좌표는 {y}.25입니다."
    assert not check_answer(mixed, f"{x}.5", chk, q)


APTS = ["팔판삼성타워", "경희궁자이", "만리한양4단지", "서울숲리버뷰"]


@FAST
@given(st.permutations(APTS), st.sampled_from([
    "최고가 거래는 {o}(21억 원)였고, {g}가 뒤를 이었습니다.", "1. {o} — 21억\n2. {g} — 19억",
    "| 순위 | 단지명 |\n|---|---|\n| 1 | {o} |\n| 2 | {g} |"]))
def test_a_name_ranked_second_by_a_list_or_a_phrase(names: list[str], form: str) -> None:
    o, g = names[:2]
    q = "거래금액이 가장 높았던 아파트 매매의 단지명은 무엇인가요?"
    say = form.format(g=g, o=o)
    assert not check_answer(say, g, EXACT, q), say
    # the first one with a rival that "follows" it is the answer
    if "뒤를" in form:
        assert check_answer(f"{g}가 가장 높았고, {o}(19억 원)가 뒤를 이었습니다.", g, EXACT, q)
    if "|" in form:  # the gold in the table's first row is the answer
        assert check_answer(form.format(g=o, o=g), g, EXACT, q)


@FAST
@given(st.sampled_from(["곽석주", "김미윤", "서광혜"]), st.sampled_from(["회장", "사장", "부회장"]),
       st.sampled_from(["대표자는 {n} {t}입니다.", "{t}: {n}", "{n} {t}"]))
def test_a_person_with_an_executive_title(name: str, title: str, form: str) -> None:
    q = "발행 회사 대표자는 누구인가요? 대표자 이름으로 답하세요."
    assert check_answer(form.format(n=name, t=title), name, EXACT, q)
    assert not check_answer(form.format(n=name[:-1] + "준", t=title), name, EXACT, q)


@FAST
@given(st.sampled_from([("기획재정위원회", "기재위"), ("법제사법위원회", "법사위"), ("국토교통부", "국토부"),
                        ("해양수산부", "해수부")]), st.sampled_from(["{s}", "{s} 소속입니다.", "{s}입니다."]))
def test_an_official_short_name(pair: tuple[str, str], form: str) -> None:
    full, short = pair
    assert check_answer(form.format(s=short), full, EXACT)
    other = "정무위원회" if full != "정무위원회" else "국방위원회"
    assert not check_answer(form.format(s=short), other, EXACT)


@FAST
@given(st.permutations(["중구", "동구", "서구", "영도구"]), st.sampled_from(["{a}와 {b}가 공동 1위입니다.",
                                                                          "{b} and {a} are tied."]))
def test_a_tie_is_no_single_answer(gus: list[str], form: str) -> None:
    a, b = gus[:2]
    assert not check_answer(form.format(a=a, b=b), b, EXACT, "투표율이 가장 높은 곳은 어디인가요?")


@FAST
@given(st.lists(st.integers(100, 999), min_size=2, max_size=4, unique=True), st.sampled_from([
    "{items} 등", "{items} 등이 지납니다.", "{items}, etc."]))
def test_a_list_that_says_it_goes_on_is_not_complete(routes: list[int], form: str) -> None:
    gold = ", ".join(map(str, routes))
    say = form.format(items=", ".join(f"{r}번" for r in routes))
    assert not check_answer(say, gold, Check(type="set"), "정류소를 지나는 버스 노선번호를 모두 알려주세요.")
    assert check_answer(", ".join(f"{r}번" for r in routes), gold, Check(type="set"))


@FAST
@given(st.integers(10, 9_999), st.integers(1, 9), st.sampled_from([
    ("{o}건이 아니라 {n}건입니다.", "{n}건이 아니라 {o}건입니다."),
    ("{n}건입니다. {o}건이 아닙니다.", "정답은 {n}건이 아닌 {o}건입니다."),
    ("{o}이 아니라 {n}입니다.", "{n}이 아니고 {o}입니다.")]))
def test_a_number_said_and_denied_is_set_aside(n: int, d: int, forms: tuple[str, str]) -> None:
    q = "중구(서울) 아파트 매매 실거래가 2025년 3월에 모두 몇 건 신고되었는지 알려주세요."
    right, wrong = forms
    assert check_answer(right.format(n=n, o=n + d), str(n), COUNT, q)
    assert not check_answer(wrong.format(n=n, o=n + d), str(n), COUNT, q)


@FAST
@given(st.integers(10, 9_999), st.sampled_from([
    "확인 결과 {n}건으로 보이지만, 데이터가 불완전해 확답할 수 없습니다.", "It is probably {n}.",
    "I cannot verify this, but it might be {n}.", "{n}건 (확인 필요)", "최소 {n}건", "{n}건 이상입니다.",
    "at least {n}", "{n}건으로 예상됩니다."]))
def test_a_value_that_only_seems_so_or_is_a_bound_is_no_answer(n: int, form: str) -> None:
    q = "중구(서울) 아파트 매매 실거래가 2025년 3월에 모두 몇 건 신고되었는지 알려주세요."
    assert not check_answer(form.format(n=n), str(n), COUNT, q), form


@FAST
@given(st.decimals(min_value=1, max_value=999, places=2), st.sampled_from([
    "PBR은 {x}배입니다. 이는 일반적인 수준(0.5배 내외)보다 높아 합성 데이터의 특성으로 보입니다.",
    "{x}배. The figure is unusual; it seems to be a property of the synthetic data."]))
def test_a_hedge_in_a_remark_sentence_without_the_value_is_no_hedge(x: Decimal, form: str) -> None:
    q = "시가총액을 자본총계로 나눈 값(PBR 근사)을 소수 둘째 자리까지 구하세요."
    chk = Check(type="numeric", abs_tol=0.01)
    assert check_answer(form.format(x=x), str(x), chk, q)
    assert not check_answer(form.format(x=x + Decimal("0.05")), str(x), chk, q)
    # the question's own threshold after "at least" is no hedge
    qc = "위원이 20명 이상이면 회부된 법률안 수를, 그보다 적으면 위원장의 소속 정당을 알려주세요."
    assert check_answer("The committee has at least 20 members, so: 351 bills.", "351", EXACT, qc)


@FAST
@given(st.sampled_from(["SK하이닉스", "NAVER", "신한지주"]), st.sampled_from([
    "{g}가 가장 클 것으로 예상됩니다.", "{g}로 추정됩니다.", "Likely {g}.", "{g}일 것으로 보입니다."]))
def test_a_name_that_only_seems_so_is_no_answer(g: str, form: str) -> None:
    assert not check_answer(form.format(g=g), g, EXACT, "2024년 연결 매출액이 가장 큰 회사는 어디인가요?")


@FAST
@given(st.integers(2, 999), st.integers(1, 998))
def test_the_generic_counter_answers_when_no_number_uses_the_asked_one(n: int, up: int) -> None:
    assume(up < n)
    q = "대전 895번 버스는 정류소를 모두 몇 곳 경유하나요?"
    say = f"895번 노선의 경유 정류소는 총 {n}개입니다 (상행 {up}, 하행 {n - up})."
    assert check_answer(say, str(n), COUNT, q), say
    assert not check_answer(say, str(up), COUNT, q), say


@FAST
@given(st.integers(1, 99), st.integers(1, 99), st.sampled_from([
    "{n} bills (as lead sponsor); {w} including co-sponsorships.", "대표발의 {n}건, {w}건(공동발의 포함)"]))
def test_a_count_widened_by_what_follows_it(n: int, extra: int, form: str) -> None:
    q = "제22대 총선 서울 종로구갑 당선인이 대표발의한 법률안(제안자 표기 '○○○의원 등')은 몇 건인가요?"
    say = form.format(n=n, w=n + extra)
    assert check_answer(say, str(n), COUNT, q), say
    assert not check_answer(say, str(n + extra), COUNT, q), say
    qi = "같은 교육지원청 관할에 있는 학교는 이 학교를 포함해 모두 몇 곳인가요?"
    assert check_answer(f"There are {n} other schools, so {n + 1} including this one.", str(n + 1), COUNT, qi)


@FAST
@given(st.integers(1, 999), st.integers(1, 59), st.integers(1, 999), st.integers(2, 9))
def test_route_numbers_are_labels_where_a_count_is_asked(r1: int, m1: int, r2: int, n: int) -> None:
    assume(len({r1, r2, n, m1, m1 + 1}) == 5)
    q = "대전 가양파출소 정류소에 15분(900초) 안에 도착 예정인 버스는 몇 대인가요?"
    say = f"{n} buses: route {r1} in {m1} min and route {r2} in {m1 + 1} min."
    assert check_answer(say, str(n), COUNT, q), say
    assert not check_answer(say, str(r1), COUNT, q), say


@FAST
@given(st.sampled_from([("하루", 1), ("이틀", 2), ("사흘", 3), ("나흘", 4), ("닷새", 5), ("열흘", 10)]),
       st.sampled_from(["{w}", "{w} 더 많습니다.", "휴업일이 {w} 더 많습니다."]))
def test_days_in_native_words(word: tuple[str, int], form: str) -> None:
    w, n = word
    q = "휴업일이 더 많이 지정된 학교는 다른 학교보다 휴업일이 며칠 더 많은가요?"
    chk = Check(type="numeric", abs_tol=0.0)
    assert check_answer(form.format(w=w), str(n), chk, q)
    assert not check_answer(form.format(w=w), str(n + 1), chk, q)


@FAST
@given(st.lists(st.integers(100, 999), min_size=2, max_size=4, unique=True), st.integers(1, 99),
       st.sampled_from(["지나는 노선은 총 {k}개로, {items}입니다.", "**경유 노선**\n{bullets}",
                        "Routes {items} stop there."]))
def test_route_numbers_in_a_sentence_or_a_list_with_remarks(routes: list[int], extra: int, form: str) -> None:
    q = "대전광역시 반석정류장 정류소를 지나는 버스 노선번호를 모두 알려주세요."
    gold = ", ".join(map(str, sorted(routes)))

    def say(rs: list[int]) -> str:
        return form.format(k=len(rs), items="·".join(f"{r}번" for r in rs),
                           bullets="\n".join(f"- {r}번 (방면 {i + 1})" for i, r in enumerate(rs)))
    assert check_answer(say(routes), gold, Check(type="set"), q), say(routes)
    assert not check_answer(say(routes[:-1]), gold, Check(type="set"), q)  # one missing
    more = routes + [1000 + extra]
    assert not check_answer(say(more), gold, Check(type="set"), q)  # one more


@FAST
@given(st.dates(dt.date(2000, 1, 1), dt.date(2039, 12, 31)))
def test_a_us_date(day: dt.date) -> None:
    gold = day.strftime("%Y%m%d")
    say = f"{day.month}/{day.day}/{day.year}"
    assert check_answer(say, gold, EXACT, "열량이 가장 높았던 날짜(YYYYMMDD)는 언제인가요?")
    other = day + dt.timedelta(days=1)
    assert not check_answer(f"{other.month}/{other.day}/{other.year}", gold, EXACT)


@FAST
@given(st.permutations(["김미윤", "서광혜", "곽석주", "박철수"]), st.sampled_from(["전임", "이전 대표", "former"]))
def test_a_gold_only_in_a_labelled_aside_is_not_the_answer(names: list[str], label: str) -> None:
    g, o = names[:2]
    q = "발행 회사 대표자는 누구인가요? 대표자 이름으로 답하세요."
    assert not check_answer(f"{o} 사장 ({label}: {g})", g, EXACT, q)
    assert check_answer(f"{g} 사장 ({label}: {o})", g, EXACT, q)


@FAST
@given(st.lists(st.integers(100, 999), min_size=2, max_size=4, unique=True), st.sampled_from([
    "{items} (총 {k}개), 그 외 심야버스 1개", "{items}, plus one night bus"]))
def test_a_list_with_more_besides_is_not_complete(routes: list[int], form: str) -> None:
    gold = ", ".join(map(str, sorted(routes)))
    say = form.format(items=", ".join(f"{r}번" for r in routes), k=len(routes))
    assert not check_answer(say, gold, Check(type="set"), "정류소를 지나는 버스 노선번호를 모두 알려주세요.")
    assert check_answer(f"{', '.join(f'{r}번' for r in routes)}이 지나며, 이 외에는 없습니다.", gold, Check(type="set"))


@FAST
@given(st.dates(dt.date(2000, 1, 13), dt.date(2039, 12, 31)))
def test_a_day_first_date_when_the_day_cannot_be_a_month(day: dt.date) -> None:
    assume(day.day > 12)
    assert check_answer(f"{day.day}/{day.month}/{day.year}", day.strftime("%Y%m%d"), EXACT)
