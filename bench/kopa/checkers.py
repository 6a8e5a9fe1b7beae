"""Answer checkers that read a Korean answer as a person would.

The answer is read from the model's final message (:func:`extract_answer`): the text after
the last explicit marker (``ANSWER:``, ``Answer:``, ``정답:``, ``최종 답:``), else after the
last bare ``답:`` (what EDGE's prompts ask for), else the whole message.

What a reader lets pass, and why (each rule has probes in ``tests/data/checker_probes.jsonl``):

- **Sentence frame**: a leading topic (``단지명은 …``, ``정답은 …``), a final copula or
  ending (``…입니다``, ``…이다``, ``…예요``, ``…이에요``, ``…임``), a final particle
  (``이/가/은/는/을/를``), quotes and brackets (``「…」``, ``'…'``) and a final period are frame,
  not answer (:func:`readings`).
- **Entity suffixes** are dropped on both sides: ``(주)``, ``㈜``, ``주식회사``, ``아파트``,
  ``대표``, ``대표이사``, ``의원``, ``국회의원``, ``후보``, ``씨``, ``님`` — "SK하이닉스(주)" is
  SK하이닉스, "한주찬 대표" is 한주찬.
- **Numbers** are values: thousands separators, units (``13건``, ``463번``, ``10.5%``),
  magnitudes (``1조 8,425억`` = 1,842,500,000,000; ``3억 2천만``), a unit the question asks
  for (``(만원)``: "1억 3,500만 원" is 13,500) and ``없습니다`` for 0 (:func:`read_numbers`).
  Where an answer states several numbers, those the question itself names (the year, the
  month, ``84㎡``) are context; the one left is the answer.
- **Lists** in any separator: ``,`` ``;`` ``、`` ``/`` ``·`` newlines, and ``와/과/및/그리고``;
  a comma before exactly three digits is a thousands separator (:func:`split_items`).

- **The committed number** (:func:`_answer_numbers`): the one after the last total or
  conclusion word (``총``, ``합하면``, ``따라서``, ``in total``), else a sentence's last; a
  positive number said to be less (``12곳 적습니다``, ``12 fewer``) is negative; a plain 원
  amount in a 만원 question is read in 원. A whole-number gold is exact whatever the task's
  tolerance (a count off by one is wrong); a tolerance applies to real values only.
- **Dates** in Korean, ISO, dotted and English forms (:func:`_dates_in`), and **names inside
  a sentence** (:func:`_named`): a whole word, region prefix full or short, no other name of
  the same kind after it.

- **Context** (rules from the held-out set, ``tests/data/heldout_answers.jsonl``): a number the
  question names whatever word follows it (``The 895 bus``), the digits of a date (``for
  2025-03``) and remarks in brackets (``27명 (회부 58건)``) are set aside while a number is left;
  a colon before the value marks it like ``총``; ``또는 그 이전`` / ``or earlier`` bound a value and
  are no hedge, nor a hedge word inside a phrase repeated from the question; ``−`` is a minus;
  a difference said with the question's sides swapped (``B가 A보다 N 더 많다`` for A − B) is -N.
- **Names** also: ``역``, ``Corp.``/``Inc.``/``Co., Ltd.`` suffixes, an acronym spelled in Hangul
  letter names (``에스케이하이닉스``), a place in Revised Romanization in an English answer
  (``Yongsan-gu``); never a name ranked below first beside it (``용산구가 2위``, ``2위는
  용산구``), joined to another by 와/과, or with another bracketed remark than the gold's.

- **v2 rules** (from ``tests/data/heldout_answers_v2.jsonl``; property tests in
  ``tests/bench/test_checker_phrasings.py``): a real value is read at the places the question
  states, else at the gold's own (a 만원 value also rounded half up to a whole unit), the task's
  tolerance an upper bound only (:func:`_close`); a count in another counter than the question
  asks (``몇 가지``: ``5,704개``) is context; of several ``label: value`` pairs, the one the
  question names (:func:`_labelled`); a bracket that restates a scaled answer exactly
  (:func:`_restated`); ``i.e.``; hedges inside a remark after the answer and ``약`` before an
  exact number are no hedge; counts in Korean words to 99 and English words; ``N조`` also N
  articles; company names in either script and holding companies' full names
  (:func:`_spellings`); ``정류소``/``정류장``/``위원`` after a name; a city without ``시``/``군``;
  an address's 동/읍 before its road; ``그 다음`` is a rank; a name said only as the subject of
  a bracketed aside is not the answer (:func:`_only_in_an_aside`); a count widened by what
  the question leaves out ("비례대표를 포함하면 12명") is context (:func:`_widened`).

- **v3 rules** (from ``tests/data/heldout_answers_v3.jsonl``; property tests in
  ``tests/bench/test_checker_phrasings.py``): a sign before an amount in 억/만/천 is the whole
  amount's; another name of the kind ranked below first after the answer is no rival; the
  value a question's condition is tested on (``455건으로 400건 이상이므로``) is never the answer;
  a number after an explicit ``the answer is``/``답은`` is the answer even where the question
  names its digits; the whole a part is taken from (``17명 중``, ``of the 17 members,``) is
  context unless a total is asked; a time until something (``약 2분 후``) is context where no
  time is asked; of counts each the subject of its own verb, the one the question's verb names
  (:func:`_bound_by_verb`); a swapped comparison flips only a number said in it; a real value
  with fewer decimals than the gold, rounded half up, within the task's tolerance
  (:func:`_rounded_coarser`); a gold's bracketed remark with digits (``(2024.09)``) is required.
  After v3 (a probe, not held-out): a total said first then its breakdown (:func:`_sum_of_the_rest`);
  a note after the answer (``※``, ``참고:``, ``Note:``); ``마이너스``; list enumerators; a count
  without what the question includes; a rival said not to be it; counts labelled by a bare noun;
  a date ranked second; the number bound to the question's only place (:func:`_bound_by_place`);
  a field named as a topic or by its axis.

What never passes: a different value, a hedge (``13 또는 14``, ``아마``, ``정도``, ``~``,
``중 하나``, ``one of``), a negation (``…가 아닙니다``), extra or missing list items, and (for
``exact`` lists) another order.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
import unicodedata
from functools import lru_cache

from .program import num
from .tasks import Check

__all__ = [
    "ITEM_SPLIT",
    "NUMBER",
    "check_answer",
    "extract_answer",
    "normalize",
    "read_numbers",
    "readings",
    "same_item",
    "single_number",
    "split_items",
]

#: Explicit answer markers (``ANSWER``/``Answer``, ``최종 답``, ``정답``); the last one wins.
_ANSWER = re.compile(r"(?:ANSWER|최종\s*답|정답)\s*[:：]\s*(.*)", re.IGNORECASE)
#: A bare ``답:`` — the word 답 on its own (not the tail of 정답, 대답, 해답 …). Weaker than
#: the explicit markers: ``ANSWER: 13, 5`` followed by ``답: 0`` answers ``13, 5``.
_DAP = re.compile(r"(?<!\w)답\s*[:：]\s*(.*)")

#: Item separators of a list answer: a comma before exactly three digits (then a non-digit
#: or the end) is a thousands separator, not a separator of items.
ITEM_SPLIT = re.compile(r",(?!\d{3}(?:\D|$))|[;\n、/·]")
#: Conjunctions that join list items in a sentence ("463번과 621번", "A 및 B").
_CONJ = re.compile(r"(?<=[^\s,])(?:와|과)\s+|\s+(?:및|그리고|and)\s+")
#: One number as answers write it: optional sign, digits with optional thousands commas,
#: optional decimals (``-1,208.5``, ``36``, ``.5``).
NUMBER = re.compile(r"(?:(?<![\w.])[-+])?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)")

_MAG = {"조": 1e12, "억": 1e8, "천만": 1e7, "백만": 1e6, "십만": 1e5, "만": 1e4, "천": 1e3, "백": 1e2}
_MAG_RE = "조|억|천만|백만|십만|만|천|백"
#: A number with an optional magnitude (``8,425억``); a magnitude is only one when no Hangul
#: follows it as part of a word (``3천만`` yes, ``백화점`` no).
_NUM_MAG = re.compile(rf"({NUMBER.pattern})\s*({_MAG_RE})?(?!{_MAG_RE})")
#: Counts written as native Korean words, before a counter (``세 건``, ``스무 곳``, ``스물두 명``).
_WORDS = {"한": 1, "하나": 1, "두": 2, "둘": 2, "세": 3, "셋": 3, "네": 4, "넷": 4, "다섯": 5,
          "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}
_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60, "일흔": 70, "여든": 80,
         "아흔": 90}
_WORD_NUM = re.compile(r"(?<![가-힣])(?=[가-힣])(" + "|".join(sorted(_TENS, key=len, reverse=True)) + r")?("
                       + "|".join(sorted(_WORDS, key=len, reverse=True))
                       + r")?\s*(?:건|곳|개|명|번|회|권|개교|차례|가지|대(?![표학상전구회])|일(?![반부본정간]))(?!\s*도)")
#: Counts written as English words ("twenty bills", "Seven buses"): read only where no number
#: is written in digits (then the words are the answer's only number).
_EN_ONES = ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
            "seventeen eighteen nineteen").split()
_EN_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_EN_WORD_NUM = re.compile(rf"\b(?:({'|'.join(_EN_TENS)})(?:[-\s]({'|'.join(_EN_ONES[:9])}))?|({'|'.join(_EN_ONES)}))\b"
                          r"(?=\s+[a-z]+s\b|\s*[(.,]|\s*$)", re.IGNORECASE)
_DAY_WORDS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "닷새": 5, "엿새": 6, "이레": 7, "여드레": 8, "아흐레": 9,
              "열흘": 10}
_DAY_WORDS_RE = re.compile(r"(?<![가-힣])(" + "|".join(_DAY_WORDS) + r")(?=$|[^가-힣]|[이가은는을를도만간입였])")
_NONE = re.compile(r"(?:없습니다|없다|없음|없어요|한\s*건도|하나도|전혀)")
#: The unit a question asks the answer in: ``(만원)``, ``단위: 억원``.
_ASKED_UNIT = re.compile(r"(천|만|백만|억|조)\s*원")

#: Hedges and negations: an answer that carries one does not commit to a value.
_HEDGE = re.compile(
    r"또는|혹은|아니면|아마|추정|것\s*같|듯(?:합|하|해)|모르|확실하지|불확실|내외|가량|정도|쯤|대략|"
    r"어림|아닙니다|아니다|아니에요|아님|아니고|아니라|\d\s*[~∼〜]\s*\d|\bor\b|\bmaybe\b|\bperhaps\b|"
    r"중\s*(?:하나|한\s*(?:명|곳|개|군데|분))|\bone of\b|\beither\b|공동\s*1\s*위|\btied\b|동률|"
    # some of; a bound said as the answer ("최소 876건", "876건 이상")
    r"중\s*일부|\bsome\s+of\b|"
    r"(?:최소|최대|적어도|많아야|\bat\s+(?:least|most))\s*\d|\d[\d,.]*\s*[가-힣]{0,2}\s*(?:이상|이하|미만|초과)(?:입니다|이다|임)?\s*[.!]?\s*$",
    re.IGNORECASE)
#: Hedges that say a value only seems so or is to be confirmed: they hedge the sentence they are
#: in ("265건으로 보이지만", "Likely SK하이닉스"), not a remark beside the answer ("합성 데이터의
#: 특성으로 보입니다").
_SOFT_HEDGE = re.compile(
    r"(?<![가-힣])보이(?:지만|며|고|나|는데)|(?<![가-힣])보입니다|(?<![가-힣])보임|것으로\s*(?:보|예상|추정|판단)|예상(?:됩|되|합|함)|확답|확인\s*(?:이\s*)?필요|"
    r"\bmight\b|\bprobably\b|\blikely\b|\bpresumably\b|\bseems?\b|\bnot\s+(?:sure|certain)\b|"
    r"\bcannot\s+(?:verify|confirm)\b|\bunverified\b",
    re.IGNORECASE)
#: What makes 또는/or a bound, not a choice between answers ("1969년 또는 그 이전", "or earlier").
_BOUND = re.compile(
    r"\s*(?:그\s*)?(?:이전|이후|이상|이하|미만|초과|전|후)(?![가-힣])|"
    r"\s+(?:earlier|later|before|after|more|less|fewer|above|below|older|younger|over|under)\b",
    re.IGNORECASE)
#: "약" (about) hedges an exact answer but not a numeric one with a tolerance.
_ABOUT = re.compile(r"(?<![가-힣])약\s*(?=\d)")

_QUOTES = "\"'`「」『』“”‘’〈〉《》<>[]*"
_ENDINGS = ("입니다만", "이었습니다", "였습니다", "입니다", "이에요", "이예요", "예요", "에요", "이고요",
            "이요", "이다", "였다", "이었다", "임", "요")
_PARTICLES = ("으로", "로", "이", "가", "은", "는", "을", "를", "도", "만", "요")
_SUFFIXES = ("(주)", "㈜", "주식회사", "(유)", "유한회사", "아파트", "대표이사", "대표", "국회의원", "의원",
             "후보자", "후보", "씨", "님", "부회장", "회장", "사장", "이사장", "역", "정류소", "정류장", "corp.", "corp", "corporation", "inc.", "inc", "co.,ltd.",
             "co.,ltd", "ltd.", "ltd")
_PREFIXES = ("(주)", "㈜", "주식회사")
_SUBJECT = re.compile(r"(\S+?)(?:이|가|은|는)\s+[^\d,]*(?:습니다|니다|다|요)")
_TOPIC = re.compile(r"(?:은|는|이|가|으로는|로는|에서는)\s+")


def _after(match: re.Match[str]) -> str:
    # ``.`` stops at a line end, so each marker is its own hit and the answer is the first
    # non-blank line after it (``ANSWER:`` alone on a line reads the next line).
    return match.group(1).strip()


def extract_answer(text: str) -> str:
    """The answer part of a model's final message.

    The first line after the last ``ANSWER:`` / ``Answer:`` / ``정답:`` / ``최종 답:`` marker
    (full-width ``：`` too); without one, after the last bare ``답:``; without either, the
    whole message, stripped.

    >>> extract_answer("조회했습니다.\\n답: 13, 5")
    '13, 5'
    >>> extract_answer("ANSWER: 13, 5\\n답: 0")
    '13, 5'
    """
    text = text or ""
    for marker in (_ANSWER, _DAP):
        hits = list(marker.finditer(text))
        if hits:
            return _after(hits[-1])
    return text.strip()


def normalize(s: str) -> str:
    """NFKC, lower case, no whitespace, no surrounding quotes or trailing period."""
    s = unicodedata.normalize("NFKC", str(s)).strip().strip("\"'`").rstrip(".。")
    return "".join(s.lower().split())


def _nfkc(s: str) -> str:
    # NFKC turns ㈜ into (주); keep the circled form readable by the suffix rule either way.
    # The minus sign (U+2212) that typeset answers use is a minus.
    return unicodedata.normalize("NFKC", str(s)).replace("\u2212", "-")


def _strip_frame(s: str) -> str:
    s = s.strip()
    for ch in _QUOTES:
        s = s.replace(ch, " " if ch in "<>[]" else "")
    return s.strip().rstrip(".。!！?？").strip()


def _drop_end(s: str, ends: tuple[str, ...]) -> list[str]:
    return [s[: -len(e)].rstrip() for e in ends if s.endswith(e) and len(s) > len(e)]


def _suffixless(s: str) -> str:
    """``s`` without entity suffixes and prefixes (repeatedly), whitespace-free, lower case."""
    t = "".join(_nfkc(s).lower().split())
    changed = True
    while changed:
        changed = False
        for suf in _SUFFIXES:
            if t.endswith(suf) and len(t) > len(suf):
                t, changed = t[: -len(suf)], True
        for pre in _PREFIXES:
            if t.startswith(pre) and len(t) > len(pre):
                t, changed = t[len(pre):], True
    return t


@lru_cache(maxsize=8192)
def readings(answer: str) -> frozenset[str]:
    """Every way a reader could take ``answer`` as a bare value (canonical, comparable forms).

    >>> "팔판삼성타워" in readings("단지명은 팔판삼성타워 아파트입니다.")
    True
    >>> "sk하이닉스" in readings("SK하이닉스(주)")
    True
    """
    base = _strip_frame(_nfkc(answer))
    todo = [base]
    seen: set[str] = set()
    while todo:
        s = todo.pop()
        if not s or s in seen or len(seen) > 64:
            continue
        seen.add(s)
        todo += _drop_end(s, _ENDINGS)
        todo += _drop_end(s, _PARTICLES)
        # a final parenthetical remark ("삼성전자 (코스피)") is not part of the name
        m = re.fullmatch(r"(.+?)\s*\([^()]*\)", s)
        if m:
            todo.append(m.group(1))
        # a leading topic phrase: "단지명은 X", "가장 많은 곳은 X"
        for t in _TOPIC.finditer(s):
            todo.append(s[t.end():])
        # a subject then a plain predicate: "팔판삼성타워가 가장 비쌉니다."
        m = _SUBJECT.fullmatch(s)
        if m:
            todo.append(m.group(1))
    return frozenset(_suffixless(x) for x in seen if x)


def _canon(gold: str) -> str:
    """The gold item's canonical form (entity suffixes and quotes off; no other frame)."""
    return _suffixless(_strip_frame(_nfkc(gold)))


def _hedged(s: str, *, numeric: bool, gold: str = "", question: str = "") -> bool:
    """Whether ``s`` hedges between answers or declines to commit. A 또는/or that bounds a
    value ("1969년 또는 그 이전", "in 1969 or earlier") is no hedge, nor a hedge word inside a
    phrase the answer repeats from the question, nor one inside a bracketed remark after the
    answer."""
    remarks = [m.span() for m in _REMARK.finditer(s)]

    def in_remark(m: re.Match[str]) -> bool:  # "SK하이닉스 (매출액 약 66조 원)": about the remark
        return any(a < m.start() and m.end() <= b for a, b in remarks)

    for m in _SOFT_HEDGE.finditer(s):
        stops = [x.start() for x in re.finditer(r"(?<!\d)[.!?]|[.!?](?!\d)|\n", s)]
        a = max([x + 1 for x in stops if x < m.start()], default=0)
        b = min([x for x in stops if x >= m.end()], default=len(s))
        sentence = _REMARK.sub("", s[a:b])  # a bracket's numbers are its own
        core = "".join(_nfkc(gold).lower().split())
        if re.search(r"\d", sentence) or (len(core) >= 2 and core in "".join(_nfkc(sentence).lower().split())):
            return True
    if not _HEDGE.search(gold):
        q = "".join(_nfkc(question).split())
        for m in _HEDGE.finditer(s):
            if in_remark(m):
                continue
            if m.group(0).strip().lower() in ("또는", "혹은", "or") and _BOUND.match(s, m.end()):
                continue
            if gold and _negates_another(s, m, gold):
                continue
            digit = re.search(r"\d", m.group(0))
            bound = re.match(r"\d[\d,]*", s[m.start() + digit.start():]) if digit else None
            if bound and re.search(r"(?<![\d,])" + re.escape(bound.group(0).replace(",", "")) + r"(?![\d])",
                                   _nfkc(question or "").replace(",", "")):
                continue  # "at least 20 members, so: 351": the question's own threshold, no hedge
            if _NEGATION.fullmatch(m.group(0)) and _NEGATED_NUMBER.search(s[:m.start()]) and numeric:
                continue  # "267건이 아니라 265건": the negated number is set aside (_answer_numbers)
            around = "".join(s[max(0, m.start() - 3):m.end() + 3].split())
            if q and len(around) > len(m.group(0).strip()) + 1 and around in q:
                continue
            return True
    return not numeric and any(not in_remark(m) for m in _ABOUT.finditer(s))


_NEGATION = re.compile(r"아닙니다|아니다|아니에요|아님|아니고|아니라|아닌")
#: A number right before a negation ("267건이 아니라"): said, then denied.
_NEGATED_NUMBER = re.compile(r"\d[\d,.]*\s*[가-힣]{0,2}?\s*(?:이|가|은|는)?\s*$")
_NEGATED_AFTER = re.compile(r"\s*[가-힣]{0,2}?\s*(?:이|가|은|는)?\s*(?:아니라|아닌|아니고|아닙니다|아니다|아님|아니에요)")


def _negates_another(s: str, m: re.Match[str], gold: str) -> bool:
    """Whether the negation ``m`` is said of another name than ``gold``, the gold said
    outside it ("소관 부처는 해양수산부이며, 법무부가 아닙니다")."""
    if not _NEGATION.fullmatch(m.group(0)):
        return False
    core = "".join(_nfkc(gold).lower().split())
    flat = _nfkc(s).lower()
    start = max(flat.rfind(",", 0, m.start()), flat.rfind(".", 0, m.start()), flat.rfind("\n", 0, m.start())) + 1
    clause = "".join(flat[start:m.end()].split())
    rest = "".join((flat[:start] + " " + flat[m.end():]).split())
    return len(core) >= 2 and core not in clause and core in rest and bool(re.search(r"[가-힣a-z]{2,}\s*(?:이|가|은|는)\s*$",
                                                                                         flat[start:m.start()]))


def read_numbers(s: str, asked_unit: float | None = None) -> list[tuple[str, set[float]]]:
    """The numbers a reader sees in ``s``: (their text, the values they could mean).

    Magnitudes join (``1조 8,425억`` is one number); with ``asked_unit`` (the question asks
    for 만원: 1e4) a number with a magnitude is also read in that unit, and a plain number
    said in 원 (``135,053원``) is read in 원, so in the asked unit it is 13.5053.

    >>> read_numbers("1조 8,425억")[0][1] == {1842500000000.0}
    True
    >>> sorted(read_numbers("1억 3,500만 원", asked_unit=1e4)[0][1])
    [13500.0, 135000000.0]
    >>> read_numbers("135,053원", asked_unit=1e4)[0][1]
    {13.5053}
    """
    return [(txt, vals) for _a, _b, txt, vals in _numbers(s, asked_unit)]


#: A minus said in words right before a number.
_MINUS_WORD = re.compile(r"(?:마이너스|\bminus|\bnegative)\s*$", re.IGNORECASE)
#: What may follow a plain number to say it is in 원 (not in the asked 만원).
_WON = re.compile(r"\s*(?:원|won\b|krw\b)", re.IGNORECASE)
_EN_MAG = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_EN_MAG_RE = re.compile(r"\s*(thousand|million|billion|trillion)\b", re.IGNORECASE)


def _numbers(s: str, asked_unit: float | None = None) -> list[tuple[int, int, str, set[float]]]:
    """(start, end, text, values) of every number in ``s`` (NFKC), in reading order."""
    t = _nfkc(s)
    out: list[tuple[int, int, str, set[float]]] = []
    group: list[tuple[float, float, int, int]] = []  # (number, magnitude, start, end)

    def flush() -> None:
        if not group:
            return
        total = sum(abs(n) * (m or 1.0) for n, m, _a, _b in group)
        if (group[0][0] < 0 or t[group[0][2]] == "-"  # "-6억 8,700만": the sign is the whole number's
                or _MINUS_WORD.search(t[max(0, group[0][2] - 8):group[0][2]])):  # "마이너스 68,700.6"
            total = -abs(total)
        end = group[-1][3]
        vals = {total}
        if any(m for _n, m, _a, _b in group) and asked_unit:
            vals.add(total / asked_unit)
        elif asked_unit and _WON.match(t, end):
            vals = {total / asked_unit}  # "135,053원" in a 만원 question is 13.5053 만원
        if len(group) == 1 and group[0][1] == _MAG["조"] and not _WON.match(t, end):
            vals.add(group[0][0])  # "40조": forty articles (조) as well as forty trillion
        out.append((group[0][2], end, t[group[0][2]:end], vals))
        group.clear()

    for m in _NUM_MAG.finditer(t):
        n = float(m.group(1).replace(",", ""))
        mag = _MAG.get(m.group(2) or "", 0.0)
        end = m.end()
        if not mag:
            en = _EN_MAG_RE.match(t, m.end())
            if en:
                mag, end = _EN_MAG[en.group(1).lower()], en.end()
        if group:
            prev = group[-1]
            joined = t[prev[3]:m.start()].strip() == "" and prev[1] and (not mag or mag < prev[1])
            if not joined:
                flush()
        group.append((n, mag, m.start(), end))
        if not mag:
            flush()
    flush()
    digits = bool(out)
    for m in _WORD_NUM.finditer(t):
        if m.group(1) or m.group(2):
            n = _TENS.get(m.group(1) or "", 0) + _WORDS.get(m.group(2) or "", 0)
            out.append((m.start(), m.end(), m.group(0), {float(n)}))
    if not digits:
        for m in _EN_WORD_NUM.finditer(t):
            tens, one, alone = (g.lower() if g else g for g in m.groups())
            n = (10 * (_EN_TENS.index(tens) + 2) + (_EN_ONES.index(one) + 1 if one else 0)) if tens \
                else _EN_ONES.index(alone) + 1
            out.append((m.start(), m.end(), m.group(0), {float(n)}))
    for m in _DAY_WORDS_RE.finditer(t):  # 하루 … 열흘: days in native words
        out.append((m.start(), m.end(), m.group(0), {float(_DAY_WORDS[m.group(1)])}))
    if not out and _NONE.search(t):
        out.append((0, len(t), t, {0.0}))
    out.sort(key=lambda x: x[0])
    return out


def _asked_unit(question: str) -> float | None:
    m = _ASKED_UNIT.search(_nfkc(question or ""))
    return _MAG[m.group(1)] if m else None


#: Words after a number that say the difference it measures is negative ("12곳 적습니다").
_LESS = re.compile(r"(?:적|낮|작|감소|줄|덜|하락|fewer|less|lower|smaller|below|decrease|down)", re.IGNORECASE)
#: A number's own clause: up to the next number or sentence end, at most a few words.
_CLAUSE = re.compile(r"[^\d.。!?\n,;]{0,16}")
#: Words that say what follows is the result a breakdown adds up to, or the answer itself.
_TOTAL = re.compile(
    r"총|모두|합계|합하면|합쳐|전체|따라서|그러므로|즉|최종|결론|답은|정답은|결과는|차이는|"
    r"\btotal\b|\bi\.\s?e\.|\bthat is\b|\bin all\b|\boverall\b|\b(?:is|are|was|equals|comes to)\b|\bso\b|\btherefore\b|\bsum\b|=|≈|→|"
    # a contrast says the value after it is the one meant ("29.44이지만 반올림하면 29.4건")
    r"지만|그러나|\bbut\b|\bhowever\b|"
    r"(?<!\d)[:：](?!\d)",
    re.IGNORECASE)


#: A sentence's own ending (Korean predicate or an English full stop after words).
_SENTENCE_END = re.compile(r"(?:니다|이다|[가-힣]다|어요|에요|예요|[a-z]{2,}\S*\s+\S*\d[^\s]*)\s*[.!]?\s*$",
                           re.IGNORECASE)


def _signed(t: str, end: int, vals: set[float], swapped: bool = False) -> set[float]:
    """``vals`` negated when the number's clause says it is less (a positive value only), or,
    ``swapped``, when the answer compares the question's two sides the other way round
    ("세종이 부산보다 4,371가지 더 많습니다" asked as 부산 − 세종), unless it also says less."""
    clause = _CLAUSE.match(t, end)
    less = bool(clause and _LESS.search(clause.group(0)))
    if less != swapped and all(v > 0 for v in vals):
        return {-v for v in vals}
    return vals


#: "A가 B보다": the two sides of a comparison, A said first.
_COMPARED = re.compile(r"([가-힣A-Za-z0-9]+?)(?:이|가|은|는)\s+([가-힣A-Za-z0-9]+?)보다")


def _swapped(t: str, question: str) -> bool:
    """Whether a question that asks for a signed difference (``적으면 음수``: A가 B보다 얼마나
    더 …) is answered as B가 A보다 …: the answer's sides are the question's, swapped."""
    if "음수" not in (question or ""):
        return False
    qm = _COMPARED.search(_nfkc(question))
    am = _COMPARED.search(t)
    if not qm or not am:
        return False
    qa, qb = _regions_short(qm.group(1)), _regions_short(qm.group(2))
    aa, ab = _regions_short(am.group(1)), _regions_short(am.group(2))
    return (aa, ab) == (qb, qa) and qa != qb


#: A date in the answer ("2025-03", "2025.03.14", "2025년 3월 14일"): its digits are no answer
#: to a numeric question (a year alone is not a date: "2025년 13건" stays two numbers).
_DATE_SPAN = re.compile(r"(?<!\d)(?:19|20)\d{2}\s*(?:[-/]\s*\d{1,2}(?!\d)(?:\s*[-/]\s*\d{1,2}(?!\d))?|"
                        # dotted only with its day: "2024.09" may be a decimal
                        r"\.\s*\d{1,2}\s*\.\s*\d{1,2}(?!\d)|"
                        r"년\s*\d{1,2}\s*월(?:\s*\d{1,2}\s*일)?)")
#: A remark in brackets that follows a number or a name: "(about 2억 8,743만 원)", "(회부 58건)".
_REMARK = re.compile(r"(?<=\S)\s*[(（][^()（）]*[)）]")


#: Words before a number that make it a label or a time, not a count of the noun after it.
_LABEL_BEFORE = re.compile(r"\b(?:the|route|bus|line|no\.?|number|in|of|for|since|during|within|after|before|"
                           r"by|from|to|until|as of)\s*$", re.IGNORECASE)


def _in_question(t: str, start: int, end: int, q: str, *, strict: bool = False) -> bool:
    """Whether the number ``t[start:end]`` is one the question names: the same digits, not
    inside a longer number, with the same unit character after it if it has one (``22건`` is
    not the question's ``제22대``; ``2025년`` is its ``2025년``). A bare number is the
    question's when its digits are there at all (``in March 2025``), or, ``strict``, only when
    they stand bare there too (a total's bare ``22`` is not the question's ``제22대``)."""
    digits = "".join(t[start:end].split())
    end = start + len(t[start:end].rstrip())  # a number's text may carry the space after it
    unit = re.match(r"([^\s\d.,;:!?()\[\]*])", t[end:]) or re.match(r"\s+([가-힣])(?![가-힣])", t[end:])
    if not unit and not _LABEL_BEFORE.search(t[:start]):
        # an English noun after it is its unit ("3 sales" is not the question's "3월"), unless
        # the number is a label or a time ("the 895 bus", "in 2024 combined", "within 900 s")
        unit = re.match(r"\s+([A-Za-z])", t[end:])
    pat = rf"(?<![\d.,]){re.escape(digits)}(?![\d]|[.,]\d)"
    if unit:
        pat += re.escape(unit.group(1))
    elif strict:
        pat += r"(?![가-힣A-Za-z])"
    return re.search(pat, q) is not None


#: Counters a count is said with, and which of them name the same thing (곳 = 개교 = 군데).
_COUNTERS = ("개교", "군데", "개소", "가지", "종류", "차례", "명", "인", "건", "곳", "개", "대", "일", "번", "회",
             "호", "조", "교", "원", "세", "분", "초")
_SAME_COUNTER = {"개교": "곳", "군데": "곳", "개소": "곳", "교": "곳", "인": "명", "종류": "가지", "차례": "회"}
#: The counter a question asks a count in: "몇 명", "몇 가지", "며칠".
_ASKED_COUNTER = re.compile(r"몇\s*(" + "|".join(_COUNTERS) + r")|(며칠)")


def _counter_at(t: str, end: int) -> str | None:
    """The counter said right after a number ending at ``end`` (``11명``, ``5,102가지``), as its class."""
    m = re.match(r"\s*([가-힣]+)", t[end:])
    if not m:
        return None
    word = m.group(1)
    c = next((c for c in _COUNTERS if word.startswith(c)), None)
    return _SAME_COUNTER.get(c, c) if c else None


def _asked_counter(question: str) -> str | None:
    m = _ASKED_COUNTER.search(_nfkc(question or ""))
    if not m:
        return None
    c = m.group(1) or "일"
    return _SAME_COUNTER.get(c, c)


def _resolution(txt: str) -> float:
    """The step of the last digit a number is written with, as a share of its value ("1.35
    billion": 0.01/1.35; "13억 5,052만 6천": 1,000/1,350,526,000; "9999": 1/9999)."""
    nums = list(NUMBER.finditer(txt))
    read = _numbers(txt)
    if not nums or not read:
        return 0.0
    last = nums[-1].group(0).replace(",", "").lstrip("+-")
    whole, _dot, frac = last.partition(".")
    step = 10.0 ** -len(frac) if frac else 10.0 ** (len(whole) - len(whole.rstrip("0")))
    tail = txt[nums[-1].end():].strip().lower()
    mag = next((_MAG[m] for m in sorted(_MAG, key=len, reverse=True) if tail.startswith(m)), 0.0) or \
        next((v for k, v in _EN_MAG.items() if tail.startswith(k)), 1.0)
    value = max(abs(v) for v in read[0][3]) or 1.0
    return step * mag / value


def _restated(t: str, main: tuple[int, int, str, set[float]], every: list[tuple[int, int, str, set[float]]],
              remarks: list[tuple[int, int]]) -> tuple[int, int, str, set[float]]:
    """The answer ``main``, or the more precise form of it that a bracket right after it gives
    ("about 1.35 billion won (135,053 in units of 10,000 won)": the bracket's 135,053 is the
    same value, said exactly). A bracket with another value is a remark, not a restatement."""
    if not re.search(rf"\.\d|{_MAG_RE}|{_EN_MAG_RE.pattern}", main[2], re.IGNORECASE):
        return main  # a plain whole number is as precise as it is written (1030명 is not 1,029)
    for a, b in remarks:
        if not (main[1] <= a and re.fullmatch(r"[^\d]{0,16}", t[main[1]:a])):
            continue
        for x in every:
            # the bracket's value rounds to the answer as the answer is written: the answer is
            # that value said coarser (9999명 is not 10,000건 rounded; 1.35 billion is 135,053만)
            half = _resolution(main[2]) / 2
            if a < x[0] and x[1] <= b and _resolution(x[2]) < half * 2 and any(
                    w and abs(v - w) <= half * abs(w) + 1e-9 for v in x[3] for w in main[3]):
                return x
    return main


def _labelled(t: str, cands: list[tuple[int, int, set[float]]], q: str) -> set[float] | None:
    """The value of the one ``label: value`` pair whose label the question names, where an
    answer lists several ("X좌표(entX): 969382.72, Y좌표(entY): 1944123.11" asked for the X
    좌표); None unless exactly one label has a word of the question and the others none, or
    where a label is a total ("합계:")."""
    hits, labels, topic = [], 0, False
    for i, (a, _b, v) in enumerate(cands):
        lead = t[cands[i - 1][1] if i else 0:a]
        m = (re.search(r"([^,;\n/]*?)\s*[:：][\s`*'\"]*$", lead)
             # a field name said as a topic: "entX는 967805.92, entY는 …"
             or re.search(r"(?<![A-Za-z])([A-Za-z][A-Za-z0-9_]*)\s*(?:은|는|이|가)\s+[`*'\"]*$", lead))
        if not m:
            continue
        topic = topic or ":" not in lead and "：" not in lead
        labels += 1
        if _TOTAL.search(m.group(1)):
            return None  # "성동구: 346건, 합계: 715건": a breakdown and its total
        words = {re.sub(r"(?:은|는|이|가)$", "", w.lower()) for w in re.findall(r"[0-9a-z가-힣]+", m.group(1).lower())}
        # a single letter names an axis the question names ("X: …" for "X좌표")
        if any((len(w) >= 2 and w in q.lower()) or (len(w) == 1 and w.isascii() and f"{w}좌표" in q.lower())
               for w in words):
            hits.append(v)
    if topic and labels != len(cands):
        return None  # "entX는 …, entY는 …이며 X좌표는 …": a field said as a topic labels only a full list
    return hits[0] if labels >= 2 and len(hits) == 1 else None


#: "X를 포함하면 N", "including X, N": a count widened by X.
_WIDENED = re.compile(r"([가-힣A-Za-z]+?)(?:을|를)?\s*(?:포함하면|포함할\s*경우|포함해서|포함시키면)\s*[^\d]{0,12}$|"
                      r"\bincluding\s+(?:the\s+)?([A-Za-z]+)[^\d]{0,24}$", re.IGNORECASE)


#: "57 including co-sponsorships", "45건(공동발의 포함)": a count widened by what follows it.
_WIDENED_AFTER = re.compile(r"\s*[가-힣]{0,2}\s*[(（]?\s*(?:\binclud(?:ing|es)\s+(?:the\s+)?([A-Za-z]+)|"
                            r"([가-힣]{2,})\s*포함)", re.IGNORECASE)


def _widened(t: str, start: int, q: str, end: int | None = None) -> bool:
    """Whether the number at ``start`` counts with something the question does not name."""
    m = _WIDENED.search(t[max(0, start - 40):start])
    after = _WIDENED_AFTER.match(t, end) if end is not None else None
    if not (m or after) or not q:
        return False
    hit = m or after
    what = ((hit.group(1) or hit.group(2) or "") if hit else "").lower()
    if what in ("this", "it", "itself", "that", "these", "them"):
        return False  # "107 including this one": the thing the question asks about
    return len(what) >= 2 and what[:2] not in q.lower()


#: The number that starts a line of a numbered list ("1. ", "2) ").
_ENUMERATOR = re.compile(r"(?<![^\n])[ \t]*(?=\d{1,2}[.)]\s)")
#: A note after the answer, to the end of its paragraph: "※ …", "참고: …", "참고로 …", "Note: …".
_NOTE = re.compile(r"(?:(?<=\n)|(?<=[.!?。]\s))[ \t>*_]*(?:※|참고\s*[:：]|참고로|\(?참고\)|note\s*[:：]|p\.\s?s\.|n\.b\.)"
                   r"[^\n]*(?:\n(?!\s*\n)[^\n]*)*", re.IGNORECASE)
_TAKEN_AWAY = re.compile(r"빼면|빼고|뺀|제외|차감|감소|excluding|minus|subtract|less\b", re.IGNORECASE)
#: "(본교 제외)", "excluding the school": a count said without something.
_EXCLUDING = re.compile(r"[^\d\n]{0,8}?(?:제외|빼면|빼고|excluding|without)")
#: "N명 중 …", "N건 가운데 …": the whole a part is taken from (the part follows).
_PARTITIVE = re.compile(r"\s*[가-힣]{0,3}\s*(?:중에서|중에|중|가운데)(?![가-힣])")
#: "Of the committee's 17 members, 11 are …", "out of 254 candidates, 154 …".
_OF_BEFORE = re.compile(r"\b(?:of|out\s+of|among)\s+(?:the\s+)?(?:[A-Za-z'’]+\s+){0,2}$", re.IGNORECASE)
_OF_AFTER = re.compile(r"\s*[A-Za-z'’\s]{0,30},")
#: A question that adds things up ("모두 합하면", "통틀어"); "모두 몇 건" of one district is no total.
_ASKS_TOTAL = re.compile(r"합하면|합치면|합해|합계|총합|모으면|통틀어|in\s+total|altogether|combined", re.IGNORECASE)
#: "약 2분 후", "in 3 minutes": a time until something, a remark where no time is asked.
_DURATION = re.compile(r"\s*(?:분|초|시간)\s*(?:후|뒤|이내|안에|만에|남|걸)|\s*(?:minutes?|mins?|seconds?|secs?)\b",
                       re.IGNORECASE)
_ASKS_TIME = re.compile(r"몇\s*(?:분|초|시간)|며칠|언제|how\s+(?:long|many\s+(?:minutes|seconds))", re.IGNORECASE)
#: "346건으로 400건 미만이므로": the value a condition of the question is tested on.
_TESTED = re.compile(r"\s*[가-힣]{0,3}?\s*(?:으로|로|이라|라서|이므로|이어서|여서)?\s*[(（]?\s*"
                     r"[-+]?[\d,.]+\s*[^\s\d]{0,4}\s*(?:이상|미만|초과|이하|보다\s*(?:많|적|크|작))")
#: What the question's condition looks like ("400건 이상이면 …, 미만이면 …").
_CONDITIONAL = re.compile(r"\d[^\s]*\s*(?:이상|미만|초과|이하)이면")
#: An explicit answer phrase right before a number ("the answer is 5", "답은 5"): that number
#: is the answer even where the question names the same digits ("2025년 5월").
_STATED = re.compile(r"(?:the\s+answer\s+is|answer\s*[:：]|정답은|답은|결과는|결론은|결론\s*[:：]|결과\s*[:：])"
                     r"\s*[*'\"`「]*\s*$", re.IGNORECASE)
#: Forms of "to be" and connectives after a count that are no verb of their own.
_NO_VERB = re.compile(r"^(?:이었|였|입니|이며|이고|이므|이지|이라|이다|이에|이야|으로|로서|이나|에서|에게|으며)")


def _verb_after(t: str, end: int) -> str | None:
    """The stem (first two syllables) of the verb a count is the subject of ("154명이
    낙선했고" → 낙선), or None when its clause has only a copula or nothing."""
    m = re.match(r"[ \t]*(?:" + "|".join(_COUNTERS) + r")?[ \t]*(?:이|가|은|는|을|를|도)?[ \t]+"
                 r"([가-힣]{2,}?)(?:했|하였|하고|하여|해|됐|되었|되고|되어|돼|한|된|함|됨)", t[end:])
    if not m or _NO_VERB.match(m.group(1)):
        return None
    return m.group(1)[:2]


def _bound_by_verb(t: str, cands: list[tuple[int, int, set[float]]], q: str) -> set[float] | None:
    """Of several counts each the subject of its own verb ("154명이 낙선했고, 100명이
    당선됐습니다"), the one whose verb the question asks for (낙선한 사람은 몇 명): only where
    exactly one count's verb is the question's and another count has a verb the question
    does not use."""
    verbs = [_verb_after(t, b) for _a, b, _v in cands]
    if not any(verbs) and not _TAKEN_AWAY.search(t):
        # a count labelled by the bare noun before it ("당선 100명, 낙선 154명"): only where every
        # count has its own label (no particle or ending on it), none a total word
        labels = []
        for i, (a, _b, _v) in enumerate(cands):
            lead = t[cands[i - 1][1] if i else 0:a]
            m = re.search(r"(?:^|[\s,(/|:])([가-힣]{2,4})[ \t]*[:：]?[ \t]*$", lead)
            ok = m and not _TOTAL.search(m.group(1)) and not re.search(r"[면고서며만은는이가을를에도해여로]$", m.group(1))
            labels.append(m.group(1)[:2] if ok else None)
        if all(labels) and len(set(labels)) == len(labels):
            verbs = labels
    asked = [i for i, v in enumerate(verbs) if v and v in q]
    other = [i for i, v in enumerate(verbs) if v and v not in q]
    if len(asked) == 1 and other:
        return cands[asked[0]][2]
    return None


_PLACE_KO = re.compile(r"(?<![가-힣])[가-힣]{1,4}(?:구|시|군)(?=$|[^가-힣]|(?:의|에|에서|은|는|이|가|와|과|을|를|도|로|보다)(?![가-힣]))")
_PLACE_EN = re.compile(r"\b[A-Z][a-z]+(?:-(?:gu|si|gun)|\s+(?:District|City|County))\b")


def _bound_by_place(t: str, cands: list[tuple[int, int, set[float]]], question: str) -> set[float] | None:
    """Of numbers each said in its own clause with one place ("Jung-gu had 265 sales, compared
    with 229 in Yongsan-gu"), the one whose place is the question's only place (용산구)."""
    qplaces = {p for p in _PLACE_KO.findall(_nfkc(question or "")) if not p.endswith("시") or len(p) > 2}
    if len(qplaces) != 1:
        return None
    (qp,) = qplaces
    names = {qp, qp[:-1] + {"구": "-gu", "시": "-si", "군": "-gun"}[qp[-1]]}
    rom = _romanize(qp[:-1])
    if rom:
        names |= {rom.capitalize() + "-" + {"구": "gu", "시": "si", "군": "gun"}[qp[-1]]}
    bounds = [0] + [m.end() for m in re.finditer(r"[,;.。\n](?!\d)", t)] + [len(t)]
    asked, other = [], 0
    for a, b, v in cands:
        lo = max(x for x in bounds if x <= a)
        hi = min(x for x in bounds if x >= b)
        clause = t[lo:hi]
        found = set(_PLACE_KO.findall(clause)) | set(_PLACE_EN.findall(clause))
        if len(found) != 1 or sum(lo <= c[0] and c[1] <= hi for c in cands) != 1:
            return None  # a clause with no place, two places or two numbers binds nothing
        (p,) = found
        if p in names:
            asked.append(v)
        else:
            other += 1
    return asked[0] if len(asked) == 1 and other else None


def _sum_of_the_rest(t: str, cands: list[tuple[int, int, set[float]]], q: str) -> set[float] | None:
    """Where the question asks for a total, the one number that is the sum of all the others
    (three or more in all), wherever it stands: a total said first and its breakdown after
    ("**1,362건**\n- 중구: 265건\n- …"), or a breakdown then its total. Not in an answer that
    takes something away ("78명 중 사퇴 7명을 빼면 71명": 78 is the whole, 71 the answer)."""
    if len(cands) < 3 or not _ASKS_TOTAL.search(q) or _TAKEN_AWAY.search(t):
        return None
    hits = []
    for i, (_a, b, v) in enumerate(cands):
        if _PARTITIVE.match(t, b):
            continue
        rest = [next(iter(w)) for j, (_c, _d, w) in enumerate(cands) if j != i and len(w) == 1]
        if len(rest) == len(cands) - 1 and any(abs(x - sum(rest)) < 1e-6 * max(1.0, abs(x)) for x in v):
            hits.append(v)
    return hits[0] if len(hits) == 1 else None


def _answer_numbers(pred: str, question: str) -> list[set[float]]:
    """The number ``pred`` commits to, as a one-element list of its readings (else every
    candidate, so a caller sees the answer is not one number).

    Numbers the question itself names are context; a positive number said to be less
    (``12곳 적습니다``, ``12 fewer``) is negative; where several numbers are left, the one
    after the last word of a total or conclusion (``총``, ``합하면``, ``따라서``, ``in total``)
    is the answer (a breakdown before its total); several numbers that agree are one answer.
    """
    t = _nfkc(pred)
    every = _numbers(pred, _asked_unit(question))
    q = "".join(_nfkc(question or "").split())
    # Context, dropped while something is left to answer: the question's own numbers, then
    # the digits of a date ("for 2025-03"), then remarks in brackets after the answer ("27명
    # (회부 58건)", "+28,743.2만원 (about 2억 8,743만 원)").
    dates = [m.span() for m in _DATE_SPAN.finditer(t)]
    remarks = [m.span() for m in _REMARK.finditer(t)]
    found = every
    counter = _asked_counter(question)
    if question and _CONDITIONAL.search(q):
        # the value the question's condition is tested on is never the answer ("455건으로 400건
        # 이상이므로 최고가 단지는 …" answers a name, not 455)
        found = [x for x in found if not _TESTED.match(t, x[1])]
    # a number said and denied ("265건이 아닌 263건", "267건이 아닙니다") is never the answer
    found = [x for x in found if not _NEGATED_AFTER.match(t, x[1])]
    stated = [x for x in found if _STATED.search(t[max(0, x[0] - 24):x[0]])]
    notes = [m.span() for m in _NOTE.finditer(t)]
    asked_said = any(_counter_at(t, x[1]) == counter for x in found)
    for context in (
            # a list's enumerator ("1. 463번"), never a value
            lambda x: bool(_ENUMERATOR.match(t, x[0]) and re.match(r"[.)]\s", t[x[1]:x[1] + 2])),
            # a count said in another counter than the question asks ("몇 가지": 5,704개 is
            # another quantity than 5,102가지; "몇 명": 27건 is not the 18명 asked)
            # (only where some number is said in the asked counter: "총 39개 (상행 20, 하행 19)"
            # answers "몇 곳" in the generic 개)
            lambda x: bool(counter) and _counter_at(t, x[1]) not in (None, counter) and asked_said,
            lambda x: bool(question) and _in_question(t, x[0], x[1], q) and x not in stated,
            # the whole a part is taken from ("위원 17명 중 지역구 당선인은 11명"), where the
            # question asks for a part, not a total ("합계 876건 중 용산구가 229건" asked 합하면)
            lambda x: bool(_PARTITIVE.match(t, x[1]) or (_OF_BEFORE.search(t[max(0, x[0] - 40):x[0]])
                                                          and _OF_AFTER.match(t, x[1])))
            and not _ASKS_TOTAL.search(q),
            # a time until something ("약 2분 후 도착") where the question asks no time
            lambda x: bool(_DURATION.match(t, x[1])) and not _ASKS_TIME.search(q),
            # a count that takes in what the question leaves out ("비례대표를 포함하면 12명" asked
            # of 지역구 당선인) is another quantity; "이 학교를 포함하면" of a question that says so is not
            lambda x: _widened(t, x[0], q, x[1]),
            # a route or line number where the question asks a count ("route 102 in 3 min")
            lambda x: bool(counter) and counter != "번" and bool(
                re.search(r"\b(?:route|bus|line|no\.?|#)\s*$", t[max(0, x[0] - 8):x[0]], re.IGNORECASE)
                or re.match(r"\s*번\s*(?:버스|노선)", t[x[1]:])),
            lambda x: any(a <= x[0] and x[1] <= b for a, b in dates),
            lambda x: any(a < x[0] and x[1] <= b for a, b in remarks),
            # a note after the answer ("※ 참고로 취소된 거래 3건은 제외했습니다")
            lambda x: any(a <= x[0] and x[1] <= b for a, b in notes),
            # a count said without what the question includes ("106곳 (본교 제외), 본교 포함 107곳")
            lambda x: bool(_EXCLUDING.match(t, x[1])) and "포함" in q and "제외" not in q):
        kept = [x for x in found if not context(x)]
        if kept and len(found) > 1:
            found = kept
    if len(found) == 1:
        found = [_restated(t, found[0], every, remarks)]
    # after a total word, a bare number the question names only as "3월" is the answer
    every = [x for x in every if x in found or (question and _in_question(t, x[0], x[1], q))]
    flip = _swapped(t, question)
    cands = [(a, b, _signed(t, b, v, flip)) for a, b, _txt, v in found]
    if len(cands) <= 1:
        return [v for _a, _b, v in cands]
    common = set.intersection(*(v for _a, _b, v in cands))
    if common:  # "12곳 적으므로 -12": one value said twice
        return [common]
    labelled = _labelled(t, cands, q)
    if labelled is not None:
        return [labelled]
    bound = _bound_by_verb(t, cands, q)
    if bound is not None:
        return [bound]
    place = _bound_by_place(t, cands, question)
    if place is not None:
        return [place]
    total = _sum_of_the_rest(t, cands, q)
    if total is not None:
        return [total]
    marks = list(_TOTAL.finditer(t))
    if marks:
        # after the last total word, the first number that is not plainly the question's; the
        # question's sides said the other way round count only where the comparison follows
        # the word ("대전이 부산보다 2,359가지 적으므로 답은 2,359입니다": 답은 2,359 is as said)
        after = [_signed(t, b, v, flip and "보다" in t[marks[-1].start():a]) for a, b, _txt, v in every
                 if a >= marks[-1].end() and not (question and _in_question(t, a, b, q, strict=True))]
        if after:
            return [after[0]]
    if _SENTENCE_END.search(t):
        # a sentence that states its numbers and ends on the last: "부산은 120곳, 대전은 132곳으로
        # 부산이 12곳 적습니다" answers the last (a bare "13, 14" or "2025년 13건" stays two numbers)
        return [cands[-1][2]]
    return [v for _a, _b, v in cands]


def split_items(s: str) -> list[str]:
    """The items of a list answer, in order, empty ones dropped (thousands commas kept).

    >>> split_items("1,208, 36")
    ['1,208', '36']
    >>> split_items("13,5")
    ['13', '5']
    """
    return [p.strip() for p in ITEM_SPLIT.split(str(s)) if normalize(p)]


def _split_loose(s: str) -> list[str]:
    return [p.strip() for part in split_items(s) for p in _CONJ.split(part) if normalize(p)]


def single_number(s: str) -> float | None:
    """The value of ``s`` when it is exactly one number (``"1,208"`` → 1208.0), else None.

    >>> single_number(" 1,208 "), single_number("13, 5"), single_number("13건")
    (1208.0, None, None)
    """
    # Inner spaces are kept: "1, 208" is two items, not the number 1208.
    t = _nfkc(s).strip().strip("\"'`").rstrip(".。")
    if not NUMBER.fullmatch(t):
        return None
    return float(t.replace(",", ""))


#: How a question says to what a real value rounds: "소수 둘째 자리", "to 2 decimal places".
_ROUNDING = re.compile(r"소수(?:점)?\s*(?:이하\s*)?(첫째|둘째|셋째|넷째|\d)\s*(?:번째\s*)?자리|"
                       r"(\d|one|two|three|four)\s+decimal\s+places?|(정수로|정수\s*값|whole\s+number)",
                       re.IGNORECASE)
_PLACES = {"첫째": 1, "둘째": 2, "셋째": 3, "넷째": 4, "one": 1, "two": 2, "three": 3, "four": 4}


def _places(gold: str, question: str) -> int:
    """The decimal places a real answer is read at: those the question states ("소수 둘째
    자리" = 2), else the gold's own (a gold printed 135052.6 is read at one place)."""
    m = _ROUNDING.search(_nfkc(question or ""))
    if m:
        if m.group(3):
            return 0
        k = (m.group(1) or m.group(2)).lower()
        return int(k) if k.isdigit() else _PLACES[k]
    frac = re.search(r"\.(\d+)", _nfkc(gold).replace(",", ""))
    return len(frac.group(1)) if frac else 0


def _close(a: float, b: float, check: Check | None, gold: str = "", question: str = "") -> bool:
    """``a`` reads as the gold value ``b``: exactly for a whole-number gold (a count off by
    one is wrong, whatever the task's tolerance); a real one where ``a`` rounds to the gold at
    the places the question states, else at the gold's own places (25.45 is not 25.44, nor
    124,316 the gold 124,316.5; 25.444 is 25.44), never beyond the task's tolerance. Without
    the question, the task's tolerance as given."""
    whole = b == int(b) and "." not in gold
    # a float's own error only (264.34억 is 26,434,000,000.000004), never a unit of the count
    exact = abs(a - b) < 1e-3 if whole else abs(a - b) <= 1e-12 * max(1.0, abs(b))
    if check is None or check.type != "numeric" or exact or whole:
        return exact
    eps = 1e-12 * max(1.0, abs(b))
    task = max(check.abs_tol, check.rel_tol * abs(b))
    if not question:  # nothing says how it rounds: the task's tolerance, as given
        return abs(a - b) <= max(task, eps)
    half = 0.5 * 10 ** -_places(gold, question)
    tol = min(half, task) if task > 0 else half
    if abs(a - b) <= tol + eps:
        return True
    # a question that names its unit (만원) and no rounding takes the gold rounded (half up)
    # to a whole unit: 124,316.5만원 said as "12억 4,317만 원" (not 124,316: that truncates)
    whole_unit = math.floor(abs(b) + 0.5) * (1 if b >= 0 else -1)
    return (bool(_asked_unit(question)) and not _ROUNDING.search(_nfkc(question or ""))
            and abs(a - whole_unit) <= eps and abs(a - b) <= max(task, 0.5) + eps)


def _rounded_coarser(pred: str, value: set[float], b: float, check: Check, gold: str, question: str) -> bool:
    """Whether the committed ``value`` is the gold ``b`` written with fewer decimal places than
    the gold's own, rounded (half up) at the places it is written with, where the question
    states no rounding and that step's half is within the task's tolerance: 969,382.723 for
    969382.722789 (±0.001); never 969,382.72 (a step of 0.01 is too coarse for ±0.001), nor
    969382.722798 (as many places as the gold: a digit off)."""
    task = max(check.abs_tol, check.rel_tol * abs(b))
    if check.type != "numeric" or task <= 0 or _ROUNDING.search(_nfkc(question or "")):
        return False
    for m in NUMBER.finditer(_nfkc(pred)):
        whole, _dot, frac = m.group(0).replace(",", "").lstrip("+-").partition(".")
        if not frac or len(frac) >= _places(gold, question):
            continue
        a = float(m.group(0).replace(",", ""))
        step = 10.0 ** -len(frac)
        try:  # the gold rounded half up at the answer's places, in decimal (no binary error)
            rounded = float(Decimal(_nfkc(gold).replace(",", "").strip()).quantize(
                Decimal(1).scaleb(-len(frac)), rounding=ROUND_HALF_UP))
        except InvalidOperation:
            return False
        if (any(abs(v - a) <= step * 1e-3 for v in value) and step / 2 <= task
                and abs(a - rounded) <= step * 1e-3 and abs(a - b) <= task):
            return True
    return False


def _date(s: str) -> str | None:
    m = re.fullmatch(r"\s*(\d{4})\s*(?:[-./]|년)\s*(\d{1,2})\s*(?:[-./]|월)\s*(\d{1,2})\s*일?\s*", _nfkc(s))
    if m:
        return f"{m.group(1)}{int(m.group(2)):02d}{int(m.group(3)):02d}"
    return s.strip() if re.fullmatch(r"\s*\d{8}\s*", s) else None


_MONTHS = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
                                              "oct", "nov", "dec"))}
_MON = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE_PATTERNS = (
    (re.compile(r"(\d{4})\s*(?:[-./]|년)\s*(\d{1,2})\s*(?:[-./]|월)\s*(\d{1,2})(?!\d)"), (1, 2, 3)),
    (re.compile(r"(?<!\d)((?:19|20)\d{2})(\d{2})(\d{2})(?!\d)"), (1, 2, 3)),
    (re.compile(_MON + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", re.IGNORECASE), (3, 1, 2)),
    (re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s+" + _MON + r",?\s+(\d{4})", re.IGNORECASE), (3, 2, 1)),
    # the US order, month first: 11/28/2025
    (re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d/])"), (3, 1, 2)),
)


def _dates_in(text: str) -> set[str]:
    """Every full date ``text`` states (``2025년 3월 1일``, ``2025-03-01``, ``March 1, 2025``,
    ``1 March 2025``, ``20250301``) as YYYYMMDD."""
    t = _nfkc(text)
    out: set[str] = set()
    for pat, (yi, mi, di) in _DATE_PATTERNS:
        for m in pat.finditer(t):
            y, mo, d = m.group(yi), m.group(mi), m.group(di)
            mon = _MONTHS.get(mo[:3].lower()) if not mo.isdigit() else int(mo)
            if pat is _DATE_PATTERNS[-1][0] and mon > 12 >= int(d):  # 28/11/2025: the day first
                mon, d = int(d), mo
            if mon and 1 <= mon <= 12 and 1 <= int(d) <= 31 and not _ranked_below_first(t, m.start(), m.end()):
                out.add(f"{y}{mon:02d}{int(d):02d}")  # (a date ranked second, "두 번째는 …", is none)
    return out


#: Region names said in full or short (서울특별시 = 서울): compared in their short form.
_REGIONS = (("서울특별시", "서울"), ("부산광역시", "부산"), ("대구광역시", "대구"), ("인천광역시", "인천"),
            ("광주광역시", "광주"), ("대전광역시", "대전"), ("울산광역시", "울산"),
            ("세종특별자치시", "세종"), ("경기도", "경기"), ("강원특별자치도", "강원"), ("강원도", "강원"),
            ("충청북도", "충북"), ("충청남도", "충남"), ("전북특별자치도", "전북"), ("전라북도", "전북"),
            ("전라남도", "전남"), ("경상북도", "경북"), ("경상남도", "경남"), ("제주특별자치도", "제주"),
            # the city form said in speech (서울시 = 서울특별시; not 광주시, a city of 경기도 too)
            ("서울시", "서울"), ("부산시", "부산"), ("대구시", "대구"), ("인천시", "인천"), ("대전시", "대전"),
            ("울산시", "울산"), ("세종시", "세종"))
#: What may follow a name in the sentence that commits to it: a particle or copula, then the
#: end, punctuation, or a word of the sentence frame (never more of a longer name: 시행령, 2차).
_NAME_TAIL = re.compile(
    r"(?:\s*(?:\(주\)|주식회사|아파트|대표이사|대표|부회장|회장|사장|국회의원|의원|위원장|위원|예비후보자?|후보자|후보|씨|님|정류소|정류장)|역"
    r"|\s+(?:corp(?:oration)?|inc|co\.,?\s*ltd|ltd)\.?)?"
    # 와/과 join the name to another one ("안은정과 송진수"): not a particle that commits to it
    r"(?:(?:이었습니다|였습니다|입니다|이에요|이예요|예요|에요|이며|이고|이다|으로|로|이|가|은|는|을|를|의|에서|에|도|요)"
    r"(?=$|[\s.,!?)\]」』\"'*:;(])"  # a particle or copula ends the word; the sentence goes on
    r"|(?=$|\s*[.,!?)\]」』\"'*:;(\n—–|]|\s+(?:입니다|이다|이에요|예요|소관|소속|부처|가장|이며|이고|으로|로|에서|"
    r"쪽|측|1\s*위|1\s*등|is|was|with|has|had|which|who|that|in|at|of|\()))", re.IGNORECASE)
#: A rank other than first said right beside a name ("용산구가 2위", "2위는 용산구"): the name
#: is named, not answered.
_RANK = re.compile(r"(?<![\d.])[2-9]\s*(?:위|등|번째)|(?:두|세|네)\s*번째|둘째|셋째|\b(?:second|third)\b|"
                   r"그\s*다음|다음으로|(?<![가-힣])다음(?=은|이\s)|뒤를\s*(?:잇|이어|이었|이은|따랐)|뒤따랐|"
                   r"\b[2-9](?:nd|rd|th)\b|runner-up", re.IGNORECASE)
_RANK_AFTER = re.compile(r"(?:\s*(?:예비후보자?|후보자?|의원|대표|씨|님|역|\(주\)|corp\.?|inc\.?|co\.,?\s*ltd\.?))?"
                         r"(?:\s*\([^()]{0,24}\))?"  # a remark between: "상주시(80.9%)가 뒤를 이었습니다"
                         r"\s*(?:\(|이|가|은|는|is|was|comes|came|ranks?|ranked)?\s*(?:" + _RANK.pattern + ")",
                         re.IGNORECASE)
_RANK_BEFORE = re.compile(r"(?:" + _RANK.pattern + r")\s*(?:은|는|이|가|:|is|was|place)?\s*[*「'\"]*$"
                          # a numbered line or a table row ranked below first: "\n2. X", "| 2 | X"
                          r"|\n[ \t]*\|?[ \t]*[2-9][ \t]*[.)|][ \t]*[*「'\"]*$", re.IGNORECASE)


def _ranked_below_first(t: str, start: int, end: int) -> bool:
    """Whether the name ``t[start:end]`` is given a rank below first right beside it
    ("용산구가 2위", "2위는 용산구", "X is second")."""
    return bool(_RANK_AFTER.match(t, end) or _RANK_BEFORE.search(t[max(0, start - 16):start]))


#: Korean names of the Latin letters: an acronym in a name may be spelled out (SK = 에스케이).
_LETTERS = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (
    "에이", "비", "씨", "디", "이", "에프", "지", "에이치", "아이", "제이", "케이", "엘", "엠", "엔", "오", "피",
    "큐", "알", "에스", "티", "유", "브이", "더블유", "엑스", "와이", "제트")))


#: Words of company names as they are spelled in Latin letters and in Hangul (POSCO홀딩스 is
#: 포스코홀딩스 and POSCO Holdings; NAVER is 네이버): one spelling of a name is read as the other.
_NAME_WORDS = (("posco", "포스코"), ("naver", "네이버"), ("kakao", "카카오"), ("holdings", "홀딩스"),
               ("hynix", "하이닉스"), ("samsung", "삼성"), ("hyundai", "현대"), ("mobis", "모비스"),
               ("biologics", "바이오로직스"), ("celltrion", "셀트리온"), ("telecom", "텔레콤"),
               ("electronics", "전자"), ("chem", "화학"), ("chemical", "화학"), ("kia", "기아"),
               ("motor", "자동차"), ("motors", "자동차"), ("life", "생명"), ("c&t", "물산"), ("energy", "에너지"),
               ("financial", "금융"), ("group", "그룹"), ("future m", "퓨처엠"), ("solution", "솔루션"))
#: A holding company's short listed name and its full one (신한지주 = 신한금융지주(회사); KB금융 =
#: KB금융지주 = KB금융그룹).
_HOLDING = (("지주", ("금융지주", "금융지주회사", "지주회사")), ("금융", ("금융지주", "금융지주회사", "금융그룹")))


#: Official short names of the committees and ministries the tasks name (기재위 = 기획재정위원회).
_SHORT_NAMES = {"과학기술정보방송통신위원회": ("과방위",), "행정안전위원회": ("행안위",), "기획재정위원회": ("기재위",),
                "법제사법위원회": ("법사위",), "보건복지위원회": ("복지위",), "정무위원회": ("정무위",),
                "국방위원회": ("국방위",), "국토교통위원회": ("국토위",), "교육위원회": ("교육위",),
                "국토교통부": ("국토부",), "고용노동부": ("고용부",), "해양수산부": ("해수부",),
                "행정안전부": ("행안부",), "보건복지부": ("복지부",), "기획재정부": ("기재부",),
                "과학기술정보통신부": ("과기정통부", "과기부"), "산업통상자원부": ("산업부",)}


def _spellings(gold: str) -> list[str]:
    """``gold`` and the other spellings of the same name: an acronym of 1–4 capitals in Hangul
    letter names (``SK하이닉스`` → ``에스케이하이닉스``, ``KT`` → ``케이티``), the words of a
    company name in Latin letters or Hangul (``POSCO홀딩스`` → ``포스코홀딩스``, ``POSCO
    Holdings``), a holding company's full name (``신한지주`` → ``신한금융지주``)."""
    out = [gold, *_SHORT_NAMES.get(gold.strip(), ())]
    for short, fulls in _HOLDING:
        if gold.endswith(short) and len(gold) > len(short) + 1:
            out += [gold[: -len(short)] + f for f in fulls]
    for latin, hangul in _NAME_WORDS:
        for g in list(out):
            low = g.lower()
            if latin in low:
                i = low.index(latin)
                out.append(g[:i] + hangul + g[i + len(latin):])
            if hangul in g:
                i = g.index(hangul)
                out.append(g[:i] + (" " if i and g[i - 1].isalpha() and g[i - 1].isascii() else "")
                           + latin + g[i + len(hangul):])
    for g in list(out):
        spelled = re.sub(r"(?<![A-Za-z])[A-Z]{1,4}(?![A-Za-z])",
                         lambda m: "".join(_LETTERS[c] for c in m.group(0)), g)
        out.append(spelled)
    return list(dict.fromkeys(out))[:32]


#: Last syllables that say what kind of entity a name is (구, 부, 위원회 …).
_KINDS = "구시군동읍면부처청회당교역장단지"


def _regions_short(s: str) -> str:
    for full, short in _REGIONS:
        s = s.replace(full, short)
    return s


def _other_of_kind(t: str, start: int, kind: str) -> bool:
    """Whether ``t[start:]`` names another word ending in ``kind`` (a 구, a 위원회 …) as a
    rival answer: one ranked below first ("참고로 종로구는 그다음입니다") is not."""
    for o in re.finditer(rf"(?<![가-힣])[가-힣]+{kind}", t[start:]):
        if (_NAME_TAIL.match(t, start + o.end()) and not _ranked_below_first(t, start + o.start(), start + o.end())
                and not re.match(r"\s*(?:이|가|은|는)?\s*(?:" + _NEGATION.pattern + ")", t[start + o.end():])):
            return True  # (a rival said not to be it, "법무부가 아닙니다", is none)
    return False


def _table_answer(t: str, pos: int) -> bool:
    """Whether a name at ``t[pos]`` may be the answer as far as tables go: outside a Markdown
    table, or in its first data row when nothing but the table (and what came before it) is
    said; where text follows the table, that text answers ("| 삼성전자 | … |\n\n1위는 …")."""
    lines = t.split("\n")
    at = t.count("\n", 0, pos)
    if not lines[at].lstrip().startswith("|"):
        return True
    first = at
    while first > 0 and lines[first - 1].lstrip().startswith("|"):
        first -= 1
    last = at
    while last + 1 < len(lines) and lines[last + 1].lstrip().startswith("|"):
        last += 1
    if any(line.strip() for line in lines[last + 1:]):
        return False
    rows = [i for i in range(first, last + 1) if not re.fullmatch(r"[\s|:-]*", lines[i])]
    return len(rows) > 1 and at == rows[1]  # the row after the header


def _named(pred: str, gold: str) -> bool:
    """Whether ``pred`` commits to the name ``gold`` inside a sentence: the name as a whole
    word (region prefixes said in full or short, a final bracketed remark of the gold
    optional), followed by a particle, copula or the sentence's end, and no other name of the
    same kind (another 구, another 위원회) after it."""
    t = _regions_short(_nfkc(pred).lower())
    golds = {_regions_short(_nfkc(gold).lower().strip())}
    remark = re.search(r"\(([^()]*)\)\s*$", _nfkc(gold).lower())
    if not (remark and re.search(r"\d", remark.group(1))):
        # a note after the name ("(성석동)") may be left out; a remark with digits is part of
        # the name ("분기보고서 (2024.09)" is not just any 분기보고서)
        golds.add(re.sub(r"\s*\([^()]*\)$", "", next(iter(golds))))
    full = max(golds, key=len)
    road = re.fullmatch(r"(.+?)\s+(\S+(?:로|길)(?:\s*\d+번?길)?\s+\d[\d-]*)\s*\(([^()]+)\)", full)
    if road:  # an address's 동/읍 said before its road: "연천군 전곡읍 전곡로 327" for "연천군 전곡로 327 (전곡읍)"
        golds.add(f"{road.group(1)} {road.group(3)} {road.group(2)}")
    city = "".join(full.split())
    if (len(city) >= 3 and city[-1] in "시군" and re.fullmatch(r"[가-힣]+", city)
            and city[:-1] not in {short for _f, short in _REGIONS}):
        golds.add(city[:-1])  # a city or county without 시/군: "경북 문경" for 문경시
    for g in sorted(golds, key=len, reverse=True):
        g = _suffixless(g) if not re.search(r"\s", g) else g
        core = "".join(g.split())
        if len(core) < 2 or NUMBER.fullmatch(core):
            continue
        pat = r"\s*".join(re.escape(ch) for ch in core)
        for m in reversed(list(re.finditer(pat, t))):
            if m.start() and re.match(r"[가-힣a-z0-9]", t[m.start() - 1]):
                continue
            if not _NAME_TAIL.match(t, m.end()):
                continue
            other = re.match(r"\s*\(([^()]*)\)", t[m.end():])
            if remark and other and normalize(other.group(1)) != normalize(remark.group(1)):
                continue  # "분기보고서 (2024.06)" is another report than "분기보고서 (2024.09)"
            if _ranked_below_first(t, m.start(), m.end()):
                continue  # "용산구가 2위입니다": named as second, not as the answer
            if not _table_answer(t, m.start()):
                continue  # a table's other rows, or a table that the text after it answers
            kind = core[-1]
            if kind in _KINDS and _other_of_kind(t, m.end(), kind):
                return False  # another 구 named after it: which one is the answer?
            return True
    return False


# Revised Romanization of Korean (the official one: 용산구 = Yongsan-gu), for answers in English
# that name a Korean place only in Latin letters.
_RR_INITIAL = ("g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h")
_RR_MEDIAL = ("a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi",
              "yu", "eu", "ui", "i")
_RR_FINAL = ("", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t",
             "ng", "t", "t", "k", "t", "p", "t")
#: A final consonant carried onto a following vowel (관악 = gwanak; a final ㅇ stays ng: 용인 = yongin).
_RR_CARRY = {1: "g", 2: "kk", 4: "n", 7: "d", 8: "r", 16: "m", 17: "b", 19: "s", 20: "ss", 22: "j", 23: "ch",
             24: "k", 25: "t", 26: "p", 27: ""}
#: Place kinds: the Hangul ending, its romanization, and the English words for it.
_RR_KINDS = {"구": ("gu", "district"), "시": ("si", "city"), "군": ("gun", "county"), "동": ("dong", "dong"),
             "역": ("yeok", "station"), "도": ("do", "province")}


def _romanize(word: str) -> str:
    """``word`` (Hangul syllables) in Revised Romanization with its sound changes across
    syllables (종로 = jongno, 신라 = silla, 왕십리 = wangsimni), lower case; "" if not all Hangul."""
    syl = []
    for ch in word:
        code = ord(ch) - 0xAC00
        if not 0 <= code < 11172:
            return ""
        syl.append((code // 588, (code % 588) // 28, code % 28))
    out = []
    for i, (ini, med, fin) in enumerate(syl):
        nxt = syl[i + 1][0] if i + 1 < len(syl) else None
        head = _RR_INITIAL[ini]
        if i and out and out[-1][1] is not None:
            head = out[-1][1]
        tail = _RR_FINAL[fin]
        carry = None
        if fin and nxt is not None:
            if nxt == 11 and fin in _RR_CARRY:  # before a vowel: the final opens the next syllable
                tail, carry = "", _RR_CARRY[fin]
            elif nxt == 5:  # before ㄹ
                if tail in ("ng", "m"):
                    carry = "n"
                elif tail in ("n", "l"):
                    tail, carry = "l", "l"
                elif tail == "k":
                    tail, carry = "ng", "n"
                elif tail == "p":
                    tail, carry = "m", "n"
            elif nxt in (2, 6):  # before ㄴ/ㅁ
                tail = {"k": "ng", "p": "m", "t": "n"}.get(tail, tail)
                if tail == "l" and nxt == 2:
                    carry = "l"
        out.append((head + _RR_MEDIAL[med] + tail, carry))
    return "".join(x for x, _c in out)


def _romanized(pred: str, gold: str) -> bool:
    """Whether an answer without Hangul names the place ``gold`` in Revised Romanization
    (``Yongsan-gu``, ``Yongsan District``) and no other place of the same kind."""
    t = _nfkc(pred).lower()
    g = "".join(_nfkc(gold).split())
    if re.search(r"[가-힣]", t) or len(g) < 2 or g[-1] not in _RR_KINDS:
        return False
    stem = _romanize(g[:-1])
    rom, word = _RR_KINDS[g[-1]]
    if not stem:
        return False
    letters = r"['\-\s]?".join(re.escape(c) for c in stem)
    pat = rf"(?<![a-z]){letters}(?:-|\s)?(?:{rom}|{word})(?![a-z])"
    m = re.search(pat, t)
    if not m or _ranked_below_first(t, m.start(), m.end()):
        return False
    # other places of the kind: "Seongdong-gu", "Seongdong District" (not "the district")
    kinds = re.findall(rf"(?<![A-Za-z])([A-Za-z]+)(?:-{rom}|\s+{word.title()})(?![a-z])", _nfkc(pred))
    return len({k.lower() for k in kinds}) <= 1


def same_item(pred: str, gold: str, question: str = "", check: Check | None = None) -> bool:
    """Whether one answer item reads as one gold item: the same text, date or number."""
    if normalize(pred) == normalize(gold):
        return True
    g = single_number(gold)
    if g is not None:
        # "약 1,818,019명": about an exact number is still that number (the value decides)
        if _hedged(pred, numeric=True, question=question):
            return False
        gd = _date(gold)
        if gd is not None and len(gold.strip()) == 8 and any(_date(r) == gd for r in readings(pred)) and not _date_ranked_out(pred, gd):
            return True
        nums = _answer_numbers(pred, question)
        return len(nums) == 1 and any(_close(v, g, check, gold, question) for v in nums[0])
    gd = _date(gold)
    if gd is not None and any(_date(r) == gd for r in readings(pred)) and not _date_ranked_out(pred, gd):
        return True
    if _hedged(pred, numeric=False, gold=gold, question=question):
        return False
    # Frame comes off the answer only: the gold "카카오페이" is never read as "카카오페".
    return any(_canon(g) in readings(pred) for g in _spellings(gold)) and not _only_ranked(pred, gold)


def _date_ranked_out(pred: str, gd: str) -> bool:
    """Whether the date ``gd`` is said only as ranked below first ("두 번째는 2025년 11월 28일")."""
    return bool(_RANK.search(_nfkc(pred))) and gd not in _dates_in(pred)


def _only_ranked(pred: str, gold: str) -> bool:
    """Whether every place ``pred`` says ``gold`` ranks it below first ("2위는 용산구")."""
    t = _nfkc(pred).lower()
    core = "".join(_nfkc(gold).lower().split())
    hits = list(re.finditer(r"\s*".join(re.escape(ch) for ch in core), t)) if len(core) >= 2 else []
    return bool(hits) and all(_ranked_below_first(t, m.start(), m.end()) for m in hits)


#: "그 외 심야버스 1개", "besides", "plus": more items than the list names ("이 외에는 없습니다" is none).
_BESIDES = re.compile(r"(?:그|이)\s*외(?!에는\s*없)|외에도|\bbesides\b|\bin addition\b|\bplus\b", re.IGNORECASE)


def _list_match(pred: str, gold_items: list[str], question: str, check: Check, ordered: bool) -> bool:
    if _hedged(pred, numeric=False, gold=",".join(gold_items), question=question):
        return False
    if re.search(r"(?:\s|[번개])등(?=\s|$|[.,이을의입])|\betc\.?|\band (?:others|more)\b|\bamong others\b", _nfkc(pred)):
        return False  # "463번과 621번, 963번 등": the list goes on
    if all(single_number(g) is not None for g in gold_items) and not _BESIDES.search(_nfkc(pred)):
        # numbers (routes) in a sentence or a list with remarks: "총 3개로, 463번·621번·963번입니다",
        # "- 463번 (반석역 방면)"; a count of them and the question's numbers set aside
        t = _nfkc(pred)
        remarks = [m.span() for m in _REMARK.finditer(t)]
        said = [v for a, b, _txt, v in _numbers(pred)
                if not any(x < a and b <= y for x, y in remarks)
                and _counter_at(t, b) in (None, "번")
                and not (question and _in_question(t, a, b, "".join(_nfkc(question).split())))]
        values = [min(v) for v in said if len(v) == 1]
        golds = [single_number(g) or 0.0 for g in gold_items]  # every one a number (checked above)
        if len(values) == len(said) and (values == golds if ordered else sorted(values) == sorted(golds)):
            return True
    for items in (split_items(pred), _split_loose(pred)):
        if len(items) != len(gold_items):
            continue
        if ordered and all(same_item(p, g, question, check) for p, g in zip(items, gold_items)):
            return True
        if not ordered:
            free = list(gold_items)
            for p in items:
                hit = next((g for g in free if same_item(p, g, question, check)), None)
                if hit is None:
                    break
                free.remove(hit)
            else:
                return True
    return False


def _parts_said(pred: str, gold_items: list[str], question: str, check: Check) -> bool:
    """Whether ``pred`` says a compound answer in prose: a name or code and at most one number
    asked together ("대표자는 나찬승이고, 그날 종가는 4,375원입니다." for ``나찬승, 4375``;
    "표준코드는 KR7025230004, 본사는 경상북도 영양군 입암로 257입니다."). Each text item is said
    (spaces aside; an address's trailing bracket may be left out), and once they are taken out the
    number the rest commits to is the number item (the question's numbers are context); nothing
    hedged. Golds of numbers only are :func:`_list_match`'s."""
    nums = [g for g in gold_items if single_number(g) is not None]
    texts = [g for g in gold_items if single_number(g) is None]
    if not texts or len(nums) > 1 or _hedged(pred, numeric=False, gold=", ".join(gold_items), question=question):
        return False
    items = split_items(pred)
    if len(items) > 1 and all(len(x.split()) <= 2 and ":" not in x and not re.search(r"(?:니다|이고|이며|이다)[.!]?$", x)
                              for x in items):
        return False  # a bare list ("중구, 종로구", "종로구, 중구, 99") is _list_match's to read
    t = _nfkc(pred)
    for g in texts:
        for form in dict.fromkeys([g, re.sub(r"\s*\([^()]*\)$", "", g)]):
            core = "".join(_nfkc(form).split())
            m = re.search(r"\s*".join(re.escape(ch) for ch in core), t, re.IGNORECASE) if core else None
            if m:
                t = t[:m.start()] + " · " + t[m.end():]
                break
        else:
            return False
    if not nums:
        # nothing more than the items: no number left but the question's and list enumerators
        t = re.sub(r"(?m)^\s*\d+[.)]\s", " ", t)
        q = "".join(_nfkc(question or "").split())
        return all(_in_question(t, a, b, q) for a, b, _txt, _v in _numbers(t))
    said = _answer_numbers(t, question)
    return len(said) == 1 and any(_close(v, single_number(nums[0]) or 0.0, check, nums[0], question)
                                  for v in said[0])


def _only_in_an_aside(pred: str, gold: str) -> bool:
    """Whether every mention of the name ``gold`` is the subject of a bracketed aside after
    the answer ("대표자는 오세철입니다 (서광혜는 사외이사)"): said about, not answered. A
    bracket that only restates the answer ("과방위(과학기술정보방송통신위원회)") is not an aside."""
    t = _nfkc(pred).lower()
    core = "".join(_nfkc(gold).lower().split())
    if len(core) < 2:
        return False
    hits = list(re.finditer(r"\s*".join(re.escape(ch) for ch in core), t))
    asides = [m.span() for m in _REMARK.finditer(t)]
    return bool(hits) and all(
        any(a < h.start() and h.end() <= b and (re.match(r"\s*(?:은|는|이|가)\s+\S", t[h.end():b])
                                              # a labelled aside: "(전임: 김미윤)", "(former: …)"
                                              or re.search(r"[:：]\s*$|(?:전임|이전|前|former|previous)\s*$",
                                                           t[a:h.start()]))
            for a, b in asides)
        for h in hits)


def check_answer(predicted: str, gold: str, check: Check, question: str = "") -> bool:
    """Whether ``predicted`` (an agent's final text) matches the ``gold`` answer text.

    ``question`` (the task's question) lets the reader tell the asked number from context
    numbers the question itself names, and read a unit the question asks for.

    >>> check_answer("ANSWER: 1,208", "1208", Check())
    True
    >>> check_answer("답: 13", "13, 5", Check())
    False
    >>> check_answer("답: 2025년 3월에는 13건이었습니다.", "13", Check(), "2025년 3월 거래는 몇 건?")
    True
    """
    pred = extract_answer(predicted)
    if check.type == "numeric":
        g = num(gold)
        if math.isnan(g) or _hedged(pred, numeric=True, question=question):
            return False
        nums = _answer_numbers(pred, question)
        # One number, not a hedge: "13, 14" against 13 names two answers and fails.
        return len(nums) == 1 and (any(_close(v, g, check, gold, question) for v in nums[0])
                                   or _rounded_coarser(pred, nums[0], g, check, gold, question))
    gold_items = split_items(gold)
    if len(gold_items) == 1 and single_number(gold) is None and _only_in_an_aside(pred, gold):
        return False
    if check.type == "set":
        return _list_match(pred, gold_items, question, check, ordered=False)
    if normalize(pred) == normalize(gold):
        return True
    if len(gold_items) > 1:
        return (_list_match(pred, gold_items, question, check, ordered=True)
                or _parts_said(pred, gold_items, question, check))
    if same_item(pred, gold, question, check):
        return True
    if _hedged(pred, numeric=False, gold=gold, question=question):
        return False
    if re.fullmatch(r"(?:19|20)\d{6}", gold.strip()):
        # a date in any common form, the question's own dates set aside
        said = _dates_in(pred) - _dates_in(question)
        return said == {gold.strip()}
    items = split_items(pred)
    if len(items) > 1 and all(len(x.split()) <= 2 and not re.search(r"(?:니다|이고|이며|이다)[.!]?$", x) for x in items):
        return False  # "A, B": two answers, not a sentence about one (whose clauses end in a predicate)
    return single_number(gold) is None and (any(_named(pred, g) for g in _spellings(gold))
                                            or _romanized(pred, gold))
