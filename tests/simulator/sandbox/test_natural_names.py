"""World edition 8 (``kopa@v0009``): invented names read like real Korean ones. An outside reader
of EDGE questions found edition 7's spliced and garbled ("중구을지고등학교", "서울대우화학",
"가족관계의 등록 등법", "강원광역 수도 지원에 관한 특별법", "의료법 특별법안");
docs/world.md ("Names") says what each name is made of. Edition 7's names stay as they were
(its bytes: tests/simulator/record/test_rerecord.py)."""

from __future__ import annotations

import json
import re
import pytest

from simulator.sandbox import World
from simulator.sandbox.world import NATURAL_NAMES_EDITION, pools
from simulator.sandbox.world._core import name_key, real_name_stems
from simulator.sandbox.world._finance import contains_real_company, real_stem
from simulator.sandbox.world._law import statute_subject, statute_title
from simulator.sandbox.world._politics import bill_law_title
from tests.support.paths import SAMPLES

SAMPLE = SAMPLES / "neis" / "schoolInfo_B10_7091380_single.json"
KINDS = "(초등학교|중학교|고등학교)"


@pytest.fixture(scope="module")
def w8() -> World:
    assert NATURAL_NAMES_EDITION == 8
    return World(0, edition=8)


@pytest.fixture(scope="module")
def w7() -> World:
    return World(0, edition=7)


def test_school_names_are_a_place_or_a_word(w8: World, w7: World) -> None:
    """A school's name is [서울] + one stem of 2–3 syllables + [여자|공업|상업|외국어] + its kind:
    no 구 glued on, no stem twice, unique; only the names (and the homepage's host) change."""
    new, old = w8.schools(), w7.schools()
    names = [s["SCHUL_NM"] for s in new]
    assert len(set(names)) == len(names) == len(old)
    shape = re.compile(rf"(서울)?([가-힣]{{2,3}})(제\d+)?(여자|공업|상업|외국어)?{KINDS}")
    gu = re.compile(r"(중|동|서|남|북)구")
    for s in new:
        m = shape.fullmatch(s["SCHUL_NM"])
        assert m, s["SCHUL_NM"]
        assert not gu.match(m.group(2)) and not re.search(r"\d", m.group(2)), s["SCHUL_NM"]
        assert m.group(1) is None or s["LCTN_SC_NM"] == "서울특별시" and s["SCHUL_KND_SC_NM"] == "초등학교"
        words = s["ENG_SCHUL_NM"].split(" ")
        assert words[-1] == "School" and words[0][0].isupper() and not re.search(r"[Jj]e\d", s["ENG_SCHUL_NM"])
    assert sum(bool(re.search(r"제\d", n)) for n in names) < len(names) // 100  # 제2 … only as a last resort
    # edition 7's spliced names are gone: 'a 구 + a stem' and 'a district + a stem + a stem'
    assert "중구을지고등학교" in {s["SCHUL_NM"] for s in old} and not [n for n in names if n.startswith("중구")]
    by_bare = {re.sub(rf"^서울|{KINDS}$", "", n) + n[-4:] for n in names}
    assert len(by_bare) == len(names)  # 낙원초등학교 and 서울낙원초등학교 are not two schools
    for a, b in zip(new, old):
        named = ("SCHUL_NM", "ENG_SCHUL_NM", "HMPG_ADRES")
        assert {k: v for k, v in a.items() if k not in named} == {k: v for k, v in b.items() if k not in named}
        stem = a["ENG_SCHUL_NM"].split(" ")[1 if a["SCHUL_NM"].startswith("서울") and a["SCHUL_KND_SC_NM"] == "초등학교" else 0]
        assert a["HMPG_ADRES"].startswith(f"http://{stem.lower()}") or a["SD_SCHUL_CODE"] == "7091380"


def test_the_real_sample_school_keeps_its_name(w8: World) -> None:
    daechi = w8.school("7091380")
    assert daechi is not None and daechi["SCHUL_NM"] == "서울대치초등학교"
    if SAMPLE.exists():  # the real schoolInfo row: the same name, in Korean and in English
        row = json.loads(SAMPLE.read_text(encoding="utf-8"))["schoolInfo"][1]["row"][0]
        assert (daechi["SCHUL_NM"], daechi["ENG_SCHUL_NM"]) == (row["SCHUL_NM"], row["ENG_SCHUL_NM"])


def test_company_names_are_one_stem_and_a_kind(w8: World, w7: World) -> None:
    """An invented company is one stem (two syllables of the pool, or a coined word) and one kind,
    never two brand stems spliced; no stem is a real listed name; the English name and homepage
    follow the name; codes and values stay edition 7's."""
    p = pools()
    kinds = sorted(p["corp_kinds"], key=len, reverse=True)
    grid = {a + b for a in p["corp_syllables_1"] for b in p["corp_syllables_2"]} - set(p["corp_stems_denied"])
    stems_ok = grid | set(p["corp_coined"])
    brands = [w for w in p["corp_words"] if len(w) >= 2]
    new, old = w8.invented_companies(), w7.invented_companies()
    names = [c["corp_name"] for c in new]
    assert len(names) == len(set(names)) == 5980
    for n in names:
        stem = next(n[: -len(k)] for k in kinds if n.endswith(k) and n[: -len(k)] in stems_ok)
        assert not real_stem(stem) and name_key(stem) not in real_name_stems() and not contains_real_company(n), n
        assert not any(n.startswith(a) and n[len(a):].startswith(b) for a in brands for b in brands), n
    assert "경동신성" not in "".join(names) and any(n.startswith("경동신성") for n in (c["corp_name"] for c in old))
    named = ("corp_name", "stock_name", "corp_name_eng", "hm_url")
    for a, b in zip(new, old):
        assert a["stock_name"] == a["corp_name"] and a["corp_name_eng"].endswith(" CO., LTD.")
        assert a["hm_url"].startswith("www." + a["corp_name_eng"].split(" ")[0].lower())
        assert {k: v for k, v in a.items() if k not in named} == {k: v for k, v in b.items() if k not in named}
    assert w8.company("09529646")["corp_name_eng"] == "YEONGSEONG ELECTRONICS CO., LTD."
    assert w8.companies()[:20] == w7.companies()[:20]  # the real companies: identity only, as in edition 7


#: A statute's title: a real one or one made as real ones are made.
TITLE = re.compile(r"(?P<core>.+?)(법률|법)( 시행령| 시행규칙)?")


def test_statute_titles_are_well_formed(w8: World, w7: World) -> None:
    titles = [law["법령명한글"] for law in w8.laws()]
    assert len(titles) == len(set(titles)) == 1600
    regions = pools()["special_act_regions"]
    for t in titles:
        assert TITLE.fullmatch(t), t
        assert not re.search(r"등법|관한법| 법률|[^에] 관한", t.replace("에 관한 법률", "").replace("에 관한 특별법", "")), t
        if "특별법" in t:
            region, _sep, rest = t.partition(" ")
            assert region in regions and rest, t
            m = re.search(r"(\S)(을|를) 위한", t)
            assert m is None or (m.group(2) == "을") == ((ord(m.group(1)) - 0xAC00) % 28 != 0), t
    assert "가족관계의 등록 등에 관한 법률" in titles and "가족관계의 등록 등법" in {x["법령명한글"] for x in w7.laws()}
    assert not [t for t in titles if re.match(r"\S+(광역|권역|지역) ", t)]
    inland = [t for t in titles if t.startswith(("대구광역시", "충청북도")) and re.search("해양|항만|수산|섬 ", t)]
    assert not inland


def test_statute_title_and_subject() -> None:
    assert statute_title("가족관계의 등록 등") == "가족관계의 등록 등에 관한 법률"
    assert statute_title("외국인근로자의 고용 등") == "외국인근로자의 고용 등에 관한 법률"
    assert statute_title("조달사업에 관한") == "조달사업에 관한 법률"
    assert statute_title("관세") == "관세법" and statute_title("민법") == "민법"
    assert statute_subject("충청권 광역교통망 확충 및 지원에 관한 특별법 시행령") == "충청권 광역교통망 확충"
    assert statute_subject("부산광역시 원도심 재생을 위한 특별법") == "부산광역시 원도심 재생"


def test_article_texts_read_as_statutes(w8: World) -> None:
    law = next(x for x in w8.laws() if x["법령명한글"] == "가족관계의 등록 등에 관한 법률 시행령")
    arts = w8.law_articles(law["법령일련번호"])
    assert arts[0]["조문내용"] == ("제1조(목적) 이 영은 「가족관계의 등록 등에 관한 법률」에서 위임된 사항과 그 시행에 "
                                   "필요한 사항을 규정함을 목적으로 한다.")
    assert not [a for a in arts if "따라 정한다" in a["조문내용"] or "가족관계의에" in a["조문내용"]]


def test_bill_titles_are_the_assemblys(w8: World, w7: World) -> None:
    shape = re.compile(r".+ (일부|전부)개정법률안|.+(에 관한 법률안|에 관한 특별법안|[을를] 위한 특별법안| 기본법안)")
    new, old = w8.bills(), w7.bills()
    assert all(shape.fullmatch(b["BILL_NAME"]) for b in new)
    assert not [b for b in new if re.search(r"법 특별법안|법률 특별법안", b["BILL_NAME"])]
    assert any(b["BILL_NAME"].endswith("법 특별법안") for b in old)
    topics = pools()["bill_new_topics"]
    for a, b in zip(new, old):  # the bills are edition 7's (edition 8 numbers them anew, sends each to its committee, renames members)
        assert (a["BILL_ID"], a["PROPOSE_DT"], a["PROC_RESULT"]) == (b["BILL_ID"], b["PROPOSE_DT"], b["PROC_RESULT"])
        if not a["BILL_NAME"].endswith("개정법률안"):  # a new law of its committee's topics
            assert any(a["BILL_NAME"].startswith(t) for t in topics[a["COMMITTEE"]]), a
    assert bill_law_title("자본시장과 금융투자업에 관한 법률 일부개정법률안") == "자본시장과 금융투자업에 관한 법률"
    voted = next(b for b in new if b["voted"])
    assert w8.votes(voted["BILL_ID"])[0]["LAW_TITLE"] == bill_law_title(voted["BILL_NAME"])


def test_school_events_are_those_of_the_schools_kind(w8: World, w7: World) -> None:
    """No 기말고사 at a 초등학교 (an outside reader's find), no 전국연합학력평가 or 수능 before high
    school, 졸업식 with the winter 방학식, a once-a-year event once; closures as in edition 7."""
    exams = {"중간고사", "기말고사", "전국연합학력평가", "대학수학능력시험"}
    by_kind: dict[str, int] = {}
    for s in w8.schools()[::40]:
        code, kind = s["SD_SCHUL_CODE"], s["SCHUL_KND_SC_NM"]
        rows = w8.schedule(code, "2025")
        events = [r["EVENT_NM"] for r in rows]
        by_kind[kind] = by_kind.get(kind, 0) + 1
        if kind == "초등학교":
            assert not exams & set(events), (code, events)
        if kind == "중학교":
            assert not {"전국연합학력평가", "대학수학능력시험"} & set(events), (code, events)
        if kind == "고등학교":
            assert [r["AA_YMD"] for r in rows if r["EVENT_NM"] == "대학수학능력시험"] == ["20251113"]
        assert [r["AA_YMD"] for r in rows if r["EVENT_NM"] == "졸업식"] == ["20251231"]
        assert all(r["AA_YMD"][4:6] in ("04", "10") for r in rows if r["EVENT_NM"] == "중간고사")
        once = [e for e in events if e in ("수학여행", "체육대회", "학예회", "축제")]
        assert len(once) == len(set(once)), (code, events)
        assert w8.closed_days(code, "2025") == w7.closed_days(code, "2025")
    assert min(by_kind.values()) >= 10
