"""What every synthesized example must satisfy, checked on its written conversation.

The pipeline drops a draft that fails any of these, and the tests assert them over a
thousand examples:

* **tool_name** — the question names no catalog tool;
* **hidden_argument** — every argument of every tool call (paging, format, auth and catalog
  defaults aside) is stated in the question, as a person would state it (the value, its date
  in words, or its code's label), or appears in an earlier tool message of the conversation;
* **answer_in_question** — the answer (or an intermediate value) is not in the question, nor a
  number within ``NEAR`` of a numeric answer (a threshold of 167 for an answer of 166);
* **meaningless_reduction** — every reduction reads a field whose semantic type it means
  something for (:mod:`edge.synth.semantics`);
* **fake_fan** — every FAN step's set comes from one call's multi-record result, and the
  branches are not all single-record lookups;
* **budget** — no tool message over ``TOOL_MESSAGE_BUDGET`` characters (nothing cut), the
  conversation's tool messages within ``CONVERSATION_BUDGET``;
* **echo** — no step passes on the value it was given;
* **unscoped_period** — every count, sum, mean, extreme, ranking or comparison reads records of
  one period (year, school year, month: :func:`~edge.synth.quality.period_fields`, from the
  catalog's field semantics), restricted by the program where the data spans more, and the
  period it keeps is stated in the question ("2025학년도"): never 41 + 41 classes of two school
  years asked as "how many classes";
* **raw_code** — the question states no code, id or coordinate a person would not know
  (:func:`~edge.synth.quality.raw_tokens`: ``SJB8000187``, ``7010057``, ``36.8195``): things are
  asked by name and the chain looks the code up; a stock code or bill number a person has in
  hand (a param of entity *stock*, a bill number) may stand;
* **unit** — a sum, mean or extreme of a field the catalog gives a unit (``거래금액 (만원)``)
  says that unit in the question, so the number answered is in the unit asked — or, for a
  money unit, is converted to 원 before it is answered (``arith`` ``mul`` by 10,000), so the
  question asks "얼마" as people do and the answer reads "3억 6,507만 원".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from simulator import Catalog
from simulator.tools import CallStep, OpStep, Program, Step, eval_expr, refs_in

from .korean import date_text
from .quality import conversation_chars, period_kind, period_text, raw_tokens, unit_of, unscoped_periods
from .semantics import ALLOWED, field_type
from .writers import CONVERSATION_BUDGET, TOOL_MESSAGE_BUDGET

__all__ = ["API_WORDS", "CHECKS", "NEAR", "appears", "arg_label", "check_example", "is_stated", "quiet_params", "region_short"]

CHECKS = ("tool_name", "hidden_argument", "answer_in_question", "meaningless_reduction", "fake_fan", "budget", "echo",
          "unscoped_period", "raw_code", "unit", "api_words")
#: A question in the API's words: its label for a search argument ("검색어 '청운길 138'"), a
#: field label before a quoted value ("학교명 '초동고등학교'", "지역주소명 '…'", "주소 '…'", "코드 '…'"), or a
#: value only the API spells so ("'대전광역시/계룡시'", a table title with its outline number,
#: "'4.2.1. 소비자물가지수'"). People ask by the name itself.
API_WORDS = re.compile(r"검색어|[가-힣](?:명|코드) '|주소 '|'[^'\s]+/[^'\s]+'|'\d+(?:\.\d+)+\. ")
_ENUM = re.compile(r"(?:^|[(,;]\s*)([0-9A-Za-z]{1,6})\s*[=:]?\s*([가-힣][가-힣A-Za-z0-9·]*)")


def arg_label(catalog: Catalog, tool: str, param: str, value: str) -> str | None:
    """The label a param's catalog description gives a code value (``2`` → ``국회의원``)."""
    p = catalog.endpoint(tool).param(param)
    desc = (p.description if p else "") or ""
    inner = desc[desc.find("(") + 1:] if "(" in desc else ""
    for code, label in _ENUM.findall(inner):
        if code == value:
            return label
    return None


def quiet_params(catalog: Catalog, tool: str) -> set[str]:
    """Params a client sends without being told: auth, format and paging."""
    return {p.name for p in catalog.endpoint(tool).params
            if p.role in ("auth", "format", "page", "page_size", "range_start", "range_end")}


def appears(value: str, text: str) -> bool:
    """Whether ``value`` stands in ``text`` as a token, or (4 characters or more) as the start
    of one: never inside a longer run of letters or digits. A GRADE of ``2`` is not stated by
    ``2025``, a code ``12`` not by ``112``; a 5-digit ``LAWD_CD`` is the documented prefix
    (``slice:0:5``) of the 10-digit legal-dong code it was read from.

    >>> appears("2", "2학년 학급"), appears("2", "2025년"), appears("11110", '"1111010100",')
    (True, False, True)
    """
    if not value:
        return False
    if not (value[0].isascii() and value[0].isalnum() or value[-1].isascii() and value[-1].isalnum()):
        return value in text
    end = "" if len(value) >= 4 else "(?![0-9A-Za-z])"
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(value)}{end}", text) is not None


#: A language param's Korean value: a question asked in Korean asks for the Korean text.
_KOREAN = frozenset({"kr", "ko", "KO", "KR", "kor"})


def implied(catalog: Catalog, tool: str, param: str, value: str) -> bool:
    """Whether a Korean question implies ``value`` of ``param``: the Korean choice of a language
    param (``LANG=kr`` of ECOS, ``LANG=KO`` of law.go.kr's detail). Nobody asking in Korean adds
    "국문판"; the English choice (``en``) stays one the question must say."""
    p = catalog.endpoint(tool).param(param)
    desc = (p.description if p else "") or ""
    return value in _KOREAN and (desc.startswith(("언어", "원문/한글")) or param.upper() == "LANG")


def is_stated(catalog: Catalog, tool: str, param: str, value: str, text: str) -> bool:
    """Whether ``value`` of ``param`` is stated in ``text`` (raw, as a date, or its label), or
    implied by a Korean question (:func:`implied`)."""
    if appears(value, text) or implied(catalog, tool, param, value):
        return True
    d = date_text(value)
    if d and (d in text or _whole_year(value, text)):
        return True
    lab = arg_label(catalog, tool, param, value)
    if lab and lab in text:
        return True
    short = region_short(value)
    return bool(short and short in text)


def _whole_year(value: str, text: str) -> bool:
    """Whether a year's first or last day (``20240101``, ``20241231``: the bounds of a
    whole-year search) is said as people say the year: "2024년 한 해 (동안)", "2024년 1년 동안"
    (never "2024년 1월 1일부터 2024년 12월 31일까지")."""
    m = re.fullmatch(r"((?:19|20)\d\d)-?(0101|1231|01-01|12-31)", value.strip())
    return bool(m and re.search(rf"{m.group(1)}년 (?:한 해|1년 동안|1년간)", text))


#: A metropolitan city's full name and the short one people say ("서울특별시" → "서울").
_METRO = re.compile(r"^(서울|부산|대구|인천|광주|대전|울산|세종)(특별시|광역시|특별자치시)(?= |$)")


def region_short(value: str) -> str | None:
    """A place name as people say it, the city's suffix dropped: ``서울특별시 마포구`` → ``서울 마포구``
    (None when ``value`` is no such name).

    >>> region_short("서울특별시 마포구"), region_short("마포구")
    ('서울 마포구', None)
    """
    m = _METRO.match(value)
    return m.group(1) + value[m.end():] if m else None


def _num_in(x: float, q: str) -> bool:
    s = str(int(x)) if float(x).is_integer() else str(x)
    forms = {s, f"{int(x):,}"} if float(x).is_integer() else {s}
    return any(re.search(rf"(?<![\d.,]){re.escape(f)}(?![\d.,]*\d)", q) for f in forms)


#: A number the question states within this share of a numeric answer gives the answer away.
NEAR = 0.1
#: A number the question states outright: not part of a date (2024년 7월 3일), an ordinal
#: (제22대) or a quoted argument, which ``_near_in`` blanks first.
_STATED = re.compile(r"(?<![\d.,제])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\d.,]*\d)(?!\s*(?:년|월|일|시|분))")


def _near_in(x: float, q: str) -> bool:
    """Whether ``q`` states a number other than ``x`` within ``NEAR`` of it (only for ``x`` of
    10 or more that is not a date: below that every month or count is near)."""
    if abs(x) < 10 or 1e7 <= abs(x) < 1e8 and float(x).is_integer():
        return False
    bare = re.sub(r"'[^']*'", " ", q)
    for m in _STATED.finditer(bare):
        n = float(m.group(1).replace(",", ""))
        if n != x and abs(n - x) <= NEAR * abs(x):
            return True
    return False


def _answer_values(answer: Any) -> list[Any]:
    if isinstance(answer, list):
        return [v for a in answer for v in _answer_values(a)]
    if isinstance(answer, Mapping):
        return [v for a in answer.values() for v in _answer_values(a)]
    return [answer]


def check_example(e: Mapping[str, Any], messages: list[dict[str, Any]], run_values: Mapping[str, Any],
                  catalog: Catalog) -> list[str]:
    """The names (``CHECKS``) of the rules example ``e`` breaks, given its conversation
    ``messages`` and its program's executed step values ``run_values``."""
    q = e["question"]
    bad: list[str] = []
    low = q.lower()
    if any(t.lower() in low for t in catalog.endpoints):
        bad.append("tool_name")
    # hidden arguments: each call's args stated in the question or an earlier tool message
    seen = ""
    hidden = False
    tool_chars = 0
    over = False
    import json as _json

    for m in messages:
        if m["role"] == "assistant" and m.get("tool_calls"):
            for c in m["tool_calls"]:
                tool = c["function"]["name"]
                args = _json.loads(c["function"]["arguments"])
                quiet = quiet_params(catalog, tool)
                ep = catalog.endpoint(tool)
                for k, v in args.items():
                    p = ep.param(k)
                    if k in quiet or (p is not None and p.default is not None and str(p.default) == str(v)):
                        continue
                    if not (is_stated(catalog, tool, k, str(v), q) or appears(str(v), seen)):
                        hidden = True
        elif m["role"] == "tool":
            seen += m["content"]
            tool_chars += len(m["content"])
            over = over or len(m["content"]) > TOOL_MESSAGE_BUDGET or "…(cut:" in m["content"]
    if hidden:
        bad.append("hidden_argument")
    prog = Program.model_validate(e["gold_program"])
    # a choice between options the question names (cmp, "which of these has most") answers
    # with one of them: only a number answer could give it away there
    choice = _is_choice(prog)
    vals = [v for v in _answer_values(e["answer"]) if v not in (None, "") and not (choice and isinstance(v, str))]
    inq = False
    for v in vals:
        if isinstance(v, bool):
            continue
        if isinstance(v, (int, float)):
            inq = inq or _num_in(float(v), q) or _near_in(float(v), q)
        elif len(str(v)) >= 2 and str(v) in q:
            inq = True
    if inq or any(len(b) >= 3 and b in q for b in e.get("bound_values", [])):
        bad.append("answer_in_question")
    if not all(_meaningful(s, prog, catalog) for s in prog.steps):
        bad.append("meaningless_reduction")
    if not _fans_ok(prog, run_values):
        bad.append("fake_fan")
    if over or tool_chars > CONVERSATION_BUDGET or conversation_chars(messages) > CONVERSATION_BUDGET:
        bad.append("budget")
    if _echoes(prog, run_values):
        bad.append("echo")
    if not _scoped(prog, run_values, catalog, q):
        bad.append("unscoped_period")
    if _raw_codes(prog, catalog, q):
        bad.append("raw_code")
    if not _units_said(prog, catalog, q):
        bad.append("unit")
    if API_WORDS.search(q):
        bad.append("api_words")
    return bad


def _scoped(prog: Program, values: Mapping[str, Any], catalog: Catalog, q: str) -> bool:
    """Every aggregate reads one period, and each period a program keeps is said in ``q``."""
    if unscoped_periods(prog, values, catalog):
        return False
    for s in prog.steps:
        if not isinstance(s, OpStep):
            continue
        src = prog.step(s.from_) if s.from_ else None
        while isinstance(src, OpStep) and src.from_ is not None:
            src = prog.step(src.from_)
        if not isinstance(src, CallStep):
            continue
        for w in s.where:
            kind = period_kind(catalog, src.call, w.field)
            if kind is None or isinstance(w.value, (dict, list)):
                continue
            v = str(w.value)
            if not (period_text(kind, v) in q or appears(v, q) or (date_text(v) or "\0") in q):
                return False
    return True


#: Params whose codes a person has in hand (a stock code from a quote, a bill number from the news).
_KNOWN_CODE = re.compile(r"(srtn|isin|stock|종목|bill_?no|의안번호|jurirno|bizrno|사건번호)", re.I)


def _raw_codes(prog: Program, catalog: Catalog, q: str) -> list[str]:
    """Raw codes, ids and coordinates in ``q`` that no known-code param of the program carries."""
    toks = raw_tokens(q)
    if not toks:
        return []
    known: set[str] = set()
    for s in prog.calls():
        ep = catalog.endpoint(s.call)
        for k, v in s.args.items():
            p = ep.param(k)
            if not isinstance(v, dict) and _KNOWN_CODE.search(f"{k} {(p.description if p else '') or ''}"):
                known.add(str(v))
    return [t for t in toks if t not in known]


def _units_said(prog: Program, catalog: Catalog, q: str) -> bool:
    """A sum/mean/max/min of a field with a catalog unit states that unit in ``q``."""
    for s in prog.steps:
        if not isinstance(s, OpStep) or s.op not in ("sum", "mean", "max", "min") or not s.field or not s.from_:
            continue
        src = prog.step(s.from_)
        while isinstance(src, OpStep) and src.from_ is not None:
            src = prog.step(src.from_)
        if not isinstance(src, CallStep):
            continue
        u = unit_of(catalog, src.call, s.field)
        if u and u not in q and not _in_won(prog, s.id, u):
            return False
    return True


#: 원 in one of a catalog's money units: a value so converted is answered in 원, and "얼마" asks it.
WON_FACTORS = {"천원": 1_000, "만원": 10_000, "백만원": 1_000_000, "억원": 100_000_000}


def _in_won(prog: Program, sid: str, unit: str) -> bool:
    """Whether step ``sid``'s value (in ``unit``, a money unit) reaches the answer only converted
    to 원: an ``arith`` ``mul`` by the unit's :data:`WON_FACTORS` ("거래금액 36,507만원" answered
    as 365,070,000원, asked "얼마에 팔렸나요?" — no unit to say)."""
    factor = WON_FACTORS.get(unit.replace(" ", ""))
    if factor is None:
        return False
    users = [t for t in prog.steps if isinstance(t, OpStep) and t.id != sid
             and (t.from_ == sid or sid in refs_in(t.model_dump(by_alias=True)))]
    conv = [t for t in users if t.op == "arith" and t.fn == "mul" and t.a == {"$ref": sid} and t.b == factor]
    return bool(conv) and len(conv) == len(users) and sid not in refs_in(prog.answer)


def _is_choice(prog: Program) -> bool:
    """Whether the answer is one of options the question names: a ``choose`` between two
    stated labels (CMP), or the winner of a fan-out's ``group_count`` (FAN's "which has most")."""
    head = _answer_step(prog)
    if head is None:
        return False
    if isinstance(head, OpStep) and head.op == "choose" and not refs_in([head.a, head.b]):
        return True
    todo = [head.id]
    seen: set[str] = set()
    while todo:
        sid = todo.pop()
        if sid in seen:
            continue
        seen.add(sid)
        st = prog.step(sid)
        if isinstance(st, OpStep) and st.op == "group_count":
            return True
        if isinstance(st, OpStep):
            todo.extend(prog.deps(st))
    return False


def _answer_step(prog: Program) -> Step | None:
    refs = refs_in(prog.answer)
    return prog.step(refs[0]) if len(refs) == 1 else None


#: The program ops whose field the semantic rules (``ALLOWED``) judge, as the rules name them.
_SEMANTIC_OP = {"sum": "sum", "mean": "mean", "max": "max", "min": "min", "argmax": "argmax",
                "argmin": "argmin", "sort": "topk", "distinct": "distinct_count"}


def _meaningful(s: Step, prog: Program, catalog: Catalog) -> bool:
    if not isinstance(s, OpStep) or s.op not in _SEMANTIC_OP or s.from_ is None:
        return True
    src = prog.step(s.from_)
    if not isinstance(src, CallStep):
        return True
    op = _SEMANTIC_OP[s.op]
    if op == "distinct_count" and not any(isinstance(t, OpStep) and t.op == "count" and t.from_ == s.id
                                          for t in prog.steps):
        return True  # a fan-out's set of values, not a count of distinct values
    name = s.by if s.op in ("argmax", "argmin", "sort") else s.field
    return name is None or field_type(catalog, src.call, name) in ALLOWED[op]


def _fans_ok(prog: Program, values: Mapping[str, Any]) -> bool:
    for s in prog.calls():
        if s.foreach is None:
            continue
        refs = refs_in(s.foreach)
        src = prog.step(refs[0]) if refs else None
        if not isinstance(src, OpStep) or src.op not in ("distinct", "sort") or src.from_ is None:
            return False
        call = values.get(src.from_)
        if not isinstance(prog.step(src.from_), CallStep) or not isinstance(call, list) or len(call) < 2:
            return False
        branches = Counter(str(r.get("_item")) for r in values.get(s.id) or [])
        if all(n <= 1 for n in branches.values()):
            users = [t for t in prog.steps if isinstance(t, OpStep) and t.from_ == s.id]
            if any(t.op in ("count", "group_count") for t in users):
                return False  # summing single-record lookups only counts the names given
    return True


def _echoes(prog: Program, values: Mapping[str, Any]) -> bool:
    """A call all of whose passed-on values (read from its result) are values it was given."""
    inputs: dict[str, set[str]] = {}
    out_of: dict[str, set[str]] = {}
    for s in prog.calls():
        got: set[str] = set()
        for v in s.args.values():
            if not isinstance(v, dict):
                got.add(str(v))
            elif "$ref" in v:
                raw = _text(eval_expr({k: x for k, x in v.items() if k != "transform"}, dict(values)))
                got |= {raw, _text(eval_expr(v, dict(values)))}
        if s.foreach is not None:
            items = eval_expr(s.foreach, dict(values))
            got |= {str(x) for x in items} if isinstance(items, list) else set()
        inputs[s.id] = got
        # what earlier calls pass on to this one (the values read from them)
        exprs = [v for v in s.args.values() if isinstance(v, dict) and "$ref" in v]
        exprs += [s.foreach] if isinstance(s.foreach, dict) and "$ref" in s.foreach else []
        for ex in exprs:
            base = _source_call(prog, str(ex["$ref"]))
            if base is None:
                continue
            v = eval_expr({k: x for k, x in ex.items() if k != "transform"}, dict(values))
            out_of.setdefault(base, set()).update({_text(x) for x in v} if isinstance(v, list) else {_text(v)})
    return any(outs and outs <= inputs.get(c, set()) for c, outs in out_of.items())


def _source_call(prog: Program, sid: str) -> str | None:
    """The call step a value read from step ``sid`` comes from (through one reduction)."""
    st = prog.step(sid)
    if isinstance(st, CallStep):
        return sid
    if isinstance(st, OpStep) and st.from_ is not None and isinstance(prog.step(st.from_), CallStep):
        return st.from_
    return None


def _text(v: Any) -> str:
    from ..observe import scalar

    return scalar(v) or ""
