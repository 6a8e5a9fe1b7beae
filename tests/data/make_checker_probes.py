"""Write ``checker_probes.jsonl``: (answer, gold, check, question, expected verdict) probes.

Each probe's verdict is what a Korean reader would say, fixed here by the template that made
it (a copula or suffix around the right value: accept; another value, a hedge, a negation, a
missing or extra item: reject), never by running the checker. Run
``python tests/data/make_checker_probes.py`` after editing; the file is the test's data.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("checker_probes.jsonl")
PROBES: list[dict[str, Any]] = []


def P(answer: str, gold: str, expect: bool, why: str, check: str = "exact", question: str = "",
      **tol: float) -> None:
    """One probe."""
    chk: dict[str, Any] = {"type": check, **tol}
    PROBES.append({"answer": answer, "gold": gold, "check": chk, "question": question,
                   "expect": expect, "why": why})


def batchim(word: str) -> bool:
    """Whether the last syllable of ``word`` has a final consonant (digits read aloud)."""
    ch = word[-1]
    if "가" <= ch <= "힣":
        return (ord(ch) - 0xAC00) % 28 != 0
    return ch in "013678LMNlmn"


def cop(word: str) -> str:
    """``word`` + 이에요 / 예요."""
    return word + ("이에요" if batchim(word) else "예요")


def subj(word: str) -> str:
    """``word`` + 이 / 가."""
    return word + ("이" if batchim(word) else "가")


def top(word: str) -> str:
    """``word`` + 은 / 는."""
    return word + ("은" if batchim(word) else "는")


# ---- the false negatives (a reviewer's probes) -----------------------------------------
P("팔판삼성타워 아파트", "팔판삼성타워", True, "issue: 아파트 suffix")
P("단지명은 팔판삼성타워입니다.", "팔판삼성타워", True, "issue: topic + copula")
P("더불어민주당입니다", "더불어민주당", True, "issue: copula")
P("SK하이닉스(주)", "SK하이닉스", True, "issue: (주) suffix")
P("한주찬 대표", "한주찬", True, "issue: 대표 suffix")
P("463번, 621번, 963번", "463, 621, 963", True, "issue: list with counters")
P("1조 8,425억", "1842500000000", True, "issue: 조/억 money")
P("1조 8,425억 원", "1842500000000", True, "issue: 조/억 money with 원")
P("2025년 3월 거래는 13건입니다.", "13", True, "issue: month and count in one sentence",
  question="2025년 3월 종로구 아파트 매매는 몇 건인가요?")
P("3월에 신고된 매매는 총 27건입니다", "27", True, "issue: month and count", "numeric",
  question="2025년 3월에 모두 몇 건 신고되었는지 알려주세요.", rel_tol=0.001)
P("주식회사 SK하이닉스", "SK하이닉스", True, "issue: 주식회사 prefix")
P("답: 국민의힘이에요", "국민의힘", True, "issue: 이에요")

# ---- entity names --------------------------------------------------------------------------
NAMES = [
    ("팔판삼성타워", "경희궁자이"), ("더불어민주당", "국민의힘"), ("SK하이닉스", "SK텔레콤"),
    ("현대모비스", "현대자동차"), ("종로구", "중구"), ("국방위원회", "정무위원회"), ("가수원삼거리", "둔산정류장"),
    ("서울종로초등학교", "서울행촌초등학교"), ("카카오", "카카오뱅크"), ("교남동", "평창동"),
    ("한주찬", "한주철"), ("삼성전자", "삼성전기"), ("가정폭력방지법", "가정폭력방지법 시행령"), ("조국혁신당", "개혁신당"),
]
for g, w in NAMES:
    for a, why in [
        (g, "bare"), (f"{g}입니다", "입니다"), (f"{g}입니다.", "입니다 + period"), (f"{g}이다", "이다"),
        (cop(g), "이에요/예요"), (f"답: {g}", "답 marker"), (f"정답은 {g}입니다.", "정답은 … 입니다"),
        (f"'{g}'", "quotes"), (f"「{g}」", "brackets"), (f"ANSWER: {g}", "ANSWER marker"),
        (f"{subj(g)} 가장 많습니다.", "subject then predicate"),
    ]:
        P(a, g, True, "name: " + why)
    for a, why in [
        (w, "other entity"), (f"{w}입니다", "other entity + copula"), (f"{g} 또는 {w}", "hedge 또는"),
        (f"{g} 혹은 {w}", "hedge 혹은"), (f"{subj(g)} 아닙니다", "negation"), (f"아마 {g}", "hedge 아마"),
        (f"{g}, {w}", "two answers"), (g[:-1], "cut name"), ("모르겠습니다", "no answer"),
        (f"{g}일 것 같습니다", "hedge 것 같"),
    ]:
        P(a, g, False, "name: " + why)

# entity suffixes on either side
for a, g, ok, why in [
    ("삼성전자(주)", "삼성전자", True, "(주)"), ("㈜삼성전자", "삼성전자", True, "㈜ prefix"),
    ("삼성전자 주식회사", "삼성전자", True, "주식회사 suffix"), ("삼성전자", "삼성전자(주)", True, "gold has (주)"),
    ("팔판삼성타워", "팔판삼성타워아파트", True, "gold has 아파트"), ("홍길동 의원", "홍길동", True, "의원"),
    ("홍길동 국회의원입니다", "홍길동", True, "국회의원 + copula"), ("홍길동 후보", "홍길동", True, "후보"),
    ("한주찬 대표이사", "한주찬", True, "대표이사"), ("한주찬 씨", "한주찬", True, "씨"),
    ("삼성전자서비스", "삼성전자", False, "longer name"), ("삼성", "삼성전자", False, "shorter name"),
    ("팔판삼성타워 2차 아파트", "팔판삼성타워", False, "another complex"), ("카카오페", "카카오페이", False, "cut gold"),
    ("홍길순 의원", "홍길동", False, "other person"), ("SK(주)", "SK하이닉스", False, "other company"),
]:
    P(a, g, ok, "suffix: " + why)

# ---- single numbers -------------------------------------------------------------------------
for n, q in [(13, "종로구 아파트 매매는 몇 건인가요?"), (1208, "전체 정류소는 몇 곳인가요?"), (6, "차이는 몇 개인가요?"),
             (27, "2025년 3월 신고 건수는?"), (463, "노선번호는?"), (36, "의안은 몇 건인가요?")]:
    s = f"{n:,}"
    for a, why in [
        (str(n), "bare"), (s, "thousands"), (f"{s}건", "counter 건"), (f"{s}건입니다", "counter + copula"),
        (f"총 {s}건", "총"), (f"답: {s}", "marker"), (f"{n}.0", "decimal"), (f"모두 {s}개입니다.", "counter 개"),
        (f"{s}곳", "counter 곳"), (f"ANSWER: {s}", "ANSWER"),
    ]:
        P(a, str(n), True, "number: " + why, question=q)
        P(a, str(n), True, "numeric: " + why, "numeric", question=q)
    for a, why in [
        (str(n + 1), "off by one"), (f"{n} 또는 {n + 1}", "hedge 또는"), (f"{n}~{n + 2}", "range"),
        (f"아마 {n}건", "hedge 아마"), (f"{n}건 정도", "hedge 정도"), (f"{n}{n}", "digits run together"),
        (f"{n}, {n + 5}", "two numbers"), ("모르겠습니다", "no answer"), (f"{n * 10}", "x10"),
    ]:
        P(a, str(n), False, "number: " + why, question=q)
        P(a, str(n), False, "numeric: " + why, "numeric", question=q)
P("2025년 13건", "13", False, "a year beside the count and no question to tell which")
P("2025년 3월에는 13건이었습니다.", "13", True, "year and month from the question", question="2025년 3월 몇 건?")
P("84㎡ 이상 거래는 5건입니다", "5", True, "area from the question", question="전용면적 84㎡ 이상 아파트 매매는 몇 건?")
P("84㎡ 이상 거래는 5건, 미만은 7건입니다", "5", False, "two candidate counts",
  question="전용면적 84㎡ 이상 아파트 매매는 몇 건?")
P("세 건입니다", "3", True, "count in words")
P("두 곳", "2", True, "count in words")
P("세 건입니다", "4", False, "count in words, wrong")

# decimals, percentages, signs
for a, g, ok, why, tol in [
    ("10.5%", "10.5", True, "percent", {}), ("10.50 %", "10.5", True, "percent, trailing zero", {}),
    ("약 10.5%", "10.5", True, "약 with numeric tolerance", {"abs_tol": 0.01}),
    ("-6", "-6", True, "negative", {}), ("6", "-6", False, "sign dropped", {}),
    ("215.78%", "215.78", True, "percent", {"rel_tol": 0.001}),
    ("215.8%", "215.78", True, "rounded within tolerance", {"abs_tol": 0.05}),
    ("216%", "215.78", False, "rounded past tolerance", {"abs_tol": 0.05}),
    ("10.5% 또는 11%", "10.5", False, "hedge", {"abs_tol": 0.01}),
    ("영업이익률은 12.34%입니다.", "12.34", True, "sentence", {"abs_tol": 0.01}),
]:
    P(a, g, ok, "numeric: " + why, "numeric", **tol)

# ---- money in 조/억/만 ------------------------------------------------------------------------
for a, g, ok, why, q in [
    ("1조 8,425억", "1842500000000", True, "조 억", ""), ("1,842,500,000,000원", "1842500000000", True, "원 digits", ""),
    ("1조8425억원", "1842500000000", True, "no spaces", ""), ("1조 8,426억", "1842500000000", False, "wrong 억", ""),
    ("8,425억", "1842500000000", False, "조 dropped", ""), ("1조", "1842500000000", False, "억 dropped", ""),
    ("3억 2천만 원", "320000000", True, "억 천만", ""), ("3억 2천만 원", "32000", True, "asked in 만원", "평균 거래금액(만원)은?"),
    ("1억 3,500만 원", "13500", True, "asked in 만원", "거래금액(만원)은 얼마인가요?"),
    ("13,500만원", "13500", True, "만원 written", "거래금액(만원)은 얼마인가요?"),
    ("13,500", "13500", True, "bare in the asked unit", "거래금액(만원)은 얼마인가요?"),
    ("1억 3,000만 원", "13500", False, "wrong amount", "거래금액(만원)은 얼마인가요?"),
    ("135,000,000원", "135000000", True, "원 digits", ""), ("1억 3,500만 원", "135000000", True, "억 만 to 원", ""),
    ("5만 3천 원", "53000", True, "만 천", ""), ("5만 3천 원", "53001", False, "off by one", ""),
    ("2조 원", "2000000000000", True, "조", ""), ("20조 원", "2000000000000", False, "x10", ""),
]:
    P(a, g, ok, "money: " + why, question=q)
    P(a, g, ok, "money numeric: " + why, "numeric", question=q)

# ---- zero ----------------------------------------------------------------------------------
for a, ok, why in [("0", True, "bare"), ("0건", True, "0건"), ("없습니다", True, "없습니다"),
                   ("휴업일은 없습니다.", True, "topic + 없습니다"), ("한 건도 없습니다", True, "한 건도"),
                   ("1건", False, "one"), ("1건 있습니다", False, "one in a sentence"), ("모르겠습니다", False, "no answer")]:
    P(a, "0", ok, "zero: " + why, question="2025년 휴업일은 며칠인가요?")
    P(a, "0", ok, "zero numeric: " + why, "numeric", question="2025년 휴업일은 며칠인가요?", abs_tol=0.0)

# ---- dates ---------------------------------------------------------------------------------
for a, ok, why in [("20250301", True, "bare"), ("2025-03-01", True, "dashes"), ("2025.03.01", True, "dots"),
                   ("2025년 3월 1일", True, "년 월 일"), ("2025년 3월 1일입니다", True, "copula"),
                   ("2025년 3월 2일", False, "other day"), ("2025-01-03", False, "month and day swapped")]:
    P(a, "20250301", ok, "date: " + why)

# ---- ordered lists (exact) -----------------------------------------------------------------
LISTS = [("463, 621, 963", ["463", "621", "963"], "번"), ("종로구, 중구", ["종로구", "중구"], ""),
         ("13, 5", ["13", "5"], "건"), ("1208, 36", ["1,208", "36"], "곳")]
for gold, items, unit in LISTS:
    u = [f"{x}{unit}" for x in items]
    for a, why in [
        (", ".join(items), "commas"), (", ".join(u), "commas + counters"), (" / ".join(items), "slashes"),
        ("; ".join(u), "semicolons"), ("、".join(items), "ideographic comma"), ("\n".join(items), "lines"),
        (", ".join(u) + "입니다", "copula on the last"), ("답: " + ", ".join(u) + ".", "marker"),
        (" 및 ".join(items), "및"),
    ]:
        P(a, gold, True, "list: " + why)
        P(a, gold, True, "set: " + why, "set")
    rev = list(reversed(items))
    P(", ".join(rev), gold, False, "list: other order (exact)")
    P(", ".join(rev), gold, True, "set: other order", "set")
    for a, why in [(", ".join(items[:-1]), "item missing"), (", ".join(items + ["99"]), "extra item"),
                   (items[0], "first item only"), (", ".join(items[:-1] + ["999"]), "last item wrong"),
                   (f"{items[0]} 또는 " + ", ".join(items[1:]), "hedge")]:
        P(a, gold, False, "list: " + why)
        P(a, gold, False, "set: " + why, "set")
P("463번과 621번, 963번", "463, 621, 963", True, "list: 과 joins items")
P("노선은 463번, 621번, 963번입니다.", "463, 621, 963", True, "list: sentence")
P("1,208, 36", "1208, 36", True, "list: thousands comma kept")
P("1, 208, 36", "1208, 36", False, "list: 1,208 split into two")

if __name__ == "__main__":
    OUT.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in PROBES), encoding="utf-8")
    print(f"{len(PROBES)} probes ({sum(p['expect'] for p in PROBES)} accept) → {OUT}")
