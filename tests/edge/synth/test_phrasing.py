"""How EDGE's questions read (issue #28's blind reads): one speech level per question, the
counter that fits the noun, no if/else ask written as a program, no raw letter code."""

from __future__ import annotations

import random
import re

from edge.synth.asks import FORMS, _SLOT, phrase, registers
from edge.synth.draft import IntentPart
from edge.synth.korean import counter
from edge.synth.lexicon import ENDS
from edge.synth.quality import raw_tokens
from edge.synth.questions import fill

_SLOTS = {"month": "202407", "day": "20250314", "kind": "offi", "then": "rh", "city": "대전광역시", "who": "승차",
          "most": "많았던", "ay": "2024", "key": "mrktTotAmt", "word": "디스플레이", "title": "목적", "k": "30",
          "place": "서울특별시 마포구", "other": "서울특별시 구로구", "school": "한빛초등학교", "where": "서울 종로구"}


def _questions(seeds: int = 40) -> list[tuple[str, str]]:
    out = []
    for name, forms in FORMS.items():
        slots = {m.group(1): "가나" for t in (x for v in forms.values() for x in v) for m in _SLOT.finditer(t)}
        slots = {k: v for k, v in slots.items() if k not in ("whop", "many", "qword", "qtitle")} | {
            k: v for k, v in _SLOTS.items() if k in slots or k in ("who", "most", "word", "title")}
        for seed in range(seeds):
            out.append((name, phrase(IntentPart(intent=name, records=1, slots=slots), random.Random(seed))[0]))
    return out


def test_a_question_speaks_one_register() -> None:
    """No 해요체 lead before a 반말 or 합쇼체 ask ("기다리는 중이에요. … 몇 대야?", blind read #21)."""
    mixed = [(n, q) for n, q in _questions() if len(registers(q)) > 1]
    assert not mixed, mixed[:5]
    assert registers("정류장 말인데요, 몇 개입니까?") == {"yo", "da"}  # the check itself sees a switch


def test_counters_fit_the_noun() -> None:
    """건 counts deals and filings only: routes are 개, stops 곳, people 명, buses 대."""
    assert [counter(x) for x in ("버스 노선", "오피스텔 매매", "버스정류소", "후보자", "도착 예정 버스", "통계 세부항목")] \
        == ["개", "건", "곳", "명", "대", "개"]
    for kind, regs in ENDS.items():
        for t in regs["yo"] + regs["da"]:
            q = fill(t, s="버스 노선", a="학급 수", b="학과 수", t="버스 노선", then="버스정류소", k="300", kc="300개",
                     c=counter("버스 노선"), c2=counter("버스정류소"))
            assert "건" not in q, (kind, q)
    deal = re.compile(r"거래|매매|신고|공시|팔린|팔렸|법안|판례")
    for name, q in _questions(10):
        if re.search(r"몇 건|\d+건|건수", q):
            assert deal.search(q), (name, q)


def test_cond_asks_a_yes_no_question_first() -> None:
    """A COND ask checks the count first, as a person does ("30건 이상 됐나요? 그렇다면 …"),
    never "X가 30건 이상이면 Y를, 그렇지 않으면 Z를 알려 주세요"."""
    forms = list(ENDS["cond"]["yo"] + ENDS["cond"]["da"]) + list(FORMS["home_cond"]["lead"])
    for t in forms:
        assert "그렇지 않으면" not in t and not re.search(r"이상이면", t), t
    for t in ENDS["cond"]["yo"] + ENDS["cond"]["da"]:
        first = re.match(r"[^.?]*[.?] ", t)  # the threshold is its own sentence, the branches after it
        assert first and "{kc" in first.group(0) and "{then" not in first.group(0), t


def test_quoted_letter_codes_are_raw() -> None:
    """주기 'D' is a code a person would not type (blind read #36)."""
    assert raw_tokens("주기가 'D'인 한국은행 통계표") == ["D"]
    assert raw_tokens("이름에 '디스플레이'가 들어간 종목") == []


def test_housing_prefaces_are_few_and_varied() -> None:
    """Most housing questions have no preface, none says "매매를 고민하고 있어서" (it motivates no
    count of last July's sales), and a place is "마포구에서", not "마포구 기준으로"."""
    qs = [q for n, q in _questions(60) if n.startswith("home_")]
    for pre in {p for n, f in FORMS.items() if n.startswith("home_") for p in f.get("pre", ()) if p}:
        assert sum(q.startswith(pre) for q in qs) < 0.2 * len(qs), pre
    assert not [q for q in qs if "매매를 고민" in q or re.search(r"(구|군|시|동|읍|면) 기준으로", q)]  # "마포구에서"
