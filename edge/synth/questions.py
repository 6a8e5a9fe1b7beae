"""Korean questions from templates (per junction type and domain).

The question is written from the draft's parts — what a person calls each tool's records
(:data:`~edge.synth.lexicon.TOOL_NOUNS`, else the tool's summary), the fields' catalog
descriptions (``FieldSpec.description``) or their other words, the arguments the user gives —
never from the answer. A question draws its register, words, ask and frame (a context clause,
an opener, a closing remark) from :mod:`edge.synth.lexicon` with the draft's seeded rng. Intermediate values (codes found on the way) stay out of the question: a
model has to look them up. The optional rewrite through a model is :mod:`edge.synth.paraphrase`
(off by default); the templates alone are deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from simulator import Catalog

from .checks import region_short
from .draft import (CallPart, CmpPart, CondPart, FanPart, FinalMapPart, FinalPart, IntentPart, Part, PickLabelPart,
                    PickReducePart, ScopePart, SemPart, StartPart)
from .fields import field_desc, tool_desc
from .quality import period_text, unit_of
from .korean import clean_desc, counter, date_text, josa, num_text
from .lexicon import (CLOSERS, ENDS, FIELD_WORDS, LABEL_WORDS, OPENERS, PARAM_WORDS, REGISTERS, TOOL_NOUNS, TOPIC_CONTEXTS,
                      TOPICS)
from ..errors import EdgeError

__all__ = ["answer_kinds", "answer_text", "arg_phrase", "fill", "write_question", "write_question_t"]

_SLOT = re.compile(r"\{(\w+)(?:\|(\w+))?\}")


def fill(template: str, **slots: str) -> str:
    """``template`` with its slots filled: ``{s}`` is slot ``s``, ``{s|은}`` it with the particle
    that fits its last syllable (:func:`edge.synth.korean.josa`).

    >>> fill("{s|은} 몇 건인가요?", s="급식 식단")
    '급식 식단은 몇 건인가요?'
    """
    def one(m: re.Match[str]) -> str:
        word = slots[m.group(1)]
        return josa(word, m.group(2)) if m.group(2) else word

    return _SLOT.sub(one, template)


def _noun(text: str) -> str:
    """A tool summary as the thing asked about (platform prefixes and list words dropped)."""
    t = re.sub(r"^[A-Za-z0-9·/ ]{2,12}\s+", "", text).strip() or text
    t = re.sub(r"\s*\([^)]*\)", "", t)
    t = re.sub(r"\s*(목록|조회|검색|서비스|정보 조회)$", "", t).strip() or t
    return t


def arg_phrase(catalog: Catalog, tool: str, param: str, value: str) -> str:
    """An argument as a person states it: a date in words, a code's label, or the quoted value."""
    d = date_text(value)
    if d:
        return d
    from .checks import arg_label

    lab = arg_label(catalog, tool, param, value)
    if lab:
        return lab
    p = catalog.endpoint(tool).param(param)
    desc = clean_desc((p.description if p else "") or "", param)
    return f"{desc} '{value}'"


#: How people name a record by a number they cite (:data:`edge.synth.fields._CITABLE`).
CITE_WORDS: dict[str, tuple[str, ...]] = {
    "routeno": ("{v}번 버스", "{v}번 노선", "{v}번 버스 노선"),
    "사건번호": ("사건번호 {v}", "{v} 사건", "'{v}' 사건"),
    "의안번호": ("의안번호 {v}", "의안번호 {v}번 법안"),
    "BILL_NO": ("의안번호 {v}", "의안번호 {v}번 법안"),
}


#: ECOS cycle codes (catalog: "A 년, S 반년, Q 분기, M 월, SM 반월, D 일") as people say them.
_CYCLE_WORDS = {"A": "연간", "S": "반기별", "Q": "분기별", "M": "월별", "SM": "반월별", "D": "일별"}


def _is_name_param(catalog: Catalog, tool: str, param: str) -> bool:
    p = catalog.endpoint(tool).param(param)
    desc = clean_desc((p.description if p else "") or "", param)
    return bool(re.search(r"(명|이름|명칭)$", desc) or re.search(r"(nm|name)$", param, re.I))


def _city_said(name: str) -> str | None:
    """A city picked by its name, as people say it, unquoted: "부산광역시" → "부산", TAGO's
    "세종특별시" → "세종시", "천안시" → "천안시" (never "'천안시'"); None for any other name."""
    from .asks import _CITY_NAMES

    name = _CITY_NAMES.get(name, name)
    m = re.fullmatch(r"([가-힣]{1,4}?)(특별자치시|특별시|광역시)", name)
    if m:
        return m.group(1) + ("시" if m.group(2) == "특별자치시" else "")
    return name if re.fullmatch(r"[가-힣]{1,4}(시|군)", name) else None


def _superl(op: str, stype: str) -> str:
    if stype == "date":
        return "가장 최근인" if op in ("argmax", "max") else "가장 이른"
    return "가장 큰" if op in ("argmax", "max") else "가장 작은"


class _Q:
    """One question being written: its register, the words chosen for its subjects, the
    template ids drawn (``tid``)."""

    def __init__(self, catalog: Catalog, rng: Any) -> None:
        self.catalog, self.rng, self.tid = catalog, rng, []
        self.reg = self.pick("R", REGISTERS)
        self._nouns: dict[str, str] = {}
        self._fields: dict[tuple[str, str], str] = {}
        self._args: dict[tuple[str, str], str] = {}

    def pick(self, name: str, options: Sequence[str]) -> str:
        i = self.rng.randrange(len(options))
        self.tid.append(f"{name}{i}")
        return options[i]

    def reg_pick(self, name: str, options: Mapping[str, Sequence[str]]) -> str:
        """One of the options written in this question's register."""
        return self.pick(name + self.reg, options[self.reg])

    def end(self, kind: str, **slots: str) -> str:
        """The ask of kind ``kind`` (:data:`~edge.synth.lexicon.ENDS`) with its slots filled."""
        # the counter of what is counted: 몇 건 of deals, 몇 개 of routes, 몇 곳 of stops
        slots.setdefault("c", counter(slots.get("s") or slots.get("t") or ""))
        return fill(self.reg_pick(kind[:2], ENDS[kind]), **slots)

    def t(self, tool: str) -> str:
        """What a person calls ``tool``'s records (one choice per question)."""
        if tool not in self._nouns:
            ep = self.catalog.endpoint(tool)
            self._nouns[tool] = self.pick("n", TOOL_NOUNS[tool]) if tool in TOOL_NOUNS else _noun(tool_desc(ep))
        return self._nouns[tool]

    def f(self, tool: str, name: str) -> str:
        """The word for field ``name`` of ``tool`` (one choice per question)."""
        key = (tool, name)
        if key not in self._fields:
            base = field_desc(self.catalog.endpoint(tool), name)
            self._fields[key] = self.pick("f", FIELD_WORDS[base]) if base in FIELD_WORDS else base
        return self._fields[key]

    def arg(self, tool: str, param: str, value: str) -> str:
        """An argument as said: :func:`arg_phrase` in one of the ways its label allows
        (:data:`~edge.synth.lexicon.PARAM_WORDS`), or a quoted name without its label."""
        key = ("", value) if region_short(value) else (param, value)  # one place, said one way
        if key not in self._args:  # said once per question, the same way each time
            self._args[key] = self._arg(tool, param, value)
        return self._args[key]

    def _arg(self, tool: str, param: str, value: str) -> str:
        short = region_short(value)
        if short and self.rng.random() < 0.6:  # "서울 마포구", as people say it
            return short if self.rng.random() < 0.7 else f"'{short}'"
        ph = arg_phrase(self.catalog, tool, param, value)
        if ph in LABEL_WORDS:
            return self.pick("B", LABEL_WORDS[ph])
        desc = ph[: -len(f" '{value}'")] if ph.endswith(f" '{value}'") else None
        if desc in PARAM_WORDS:
            return self.pick("P", PARAM_WORDS[desc]).replace("{v}", value)
        if desc is not None and _is_name_param(self.catalog, tool, param) and self.rng.random() < 0.5:
            return f"'{value}'"
        return ph

    def where(self, tool: str, where: dict[str, Any] | None) -> str:
        if not where:
            return ""
        fd = self.f(tool, where["field"])
        v = where["value"]
        lab = _CYCLE_WORDS.get(str(v)) if "주기" in fd or where["field"] == "CYCLE" else None
        if lab:  # a cycle code by its word: "일별로 나오는 통계표", never "주기가 'D'인"
            return self.pick("W", (f"{lab} ", f"{lab}로 나오는 ", f"{lab} 자료인 "))
        return self.pick("W", (f"{fd} '{v}'인 ", f"{josa(fd, '이')} '{v}'인 ", f"{josa(fd, '이')} '{v}'에 해당하는 "))


def _ctx_args(q: _Q, tool: str, args: dict[str, Any], skip: str | None = None) -> list[str]:
    from .checks import implied, quiet_params

    quiet = quiet_params(q.catalog, tool)
    ep = q.catalog.endpoint(tool)
    out = []
    for k, v in sorted(args.items()):
        p = ep.param(k)
        if k == skip or k in quiet or (p is not None and p.default is not None and str(p.default) == str(v)) \
                or implied(q.catalog, tool, k, str(v)):
            continue
        out.append(q.arg(tool, k, str(v)))
    return out


def _widening(p: CallPart) -> str | None:
    """The unit a handoff widens to (a legal-dong code cut to its 시·군·구 or 시·도), if any."""
    tr = p.transform or ""
    if not p.widens:  # the place named is the unit itself (강남구's own code)
        return None
    return {"slice:0:5": "시·군·구", "slice:0:2": "시·도"}.get(tr)


def _widen(q: _Q, subj: str, unit: str) -> str:
    """``subj`` (a place) as the whole ``unit`` it lies in, as a noun phrase: what a count made
    at the district level is a count of (never the 동 the question named)."""
    return q.pick("L", (f"{josa(subj, '이')} 속한 {unit} 전체", f"{josa(subj, '이')} 있는 {unit} 전체",
                        f"{subj}, 그곳이 속한 {unit} 전체", f"{josa(subj, '을')} 품은 {unit} 전역",
                        f"{josa(subj, '을')} 포함하는 {unit} 단위"))


def _level(q: _Q, subj: str) -> str:
    """``subj`` joined to what follows."""
    if not subj:
        return ""
    # never "'천안시', 이곳의" (a blind read's template seam)
    return q.pick("J", (f"{subj}의 ", f"{subj}의 ", f"{subj}에서 ", f"{subj}에 대해 ", f"{subj} 기준 "))


def _head(q: _Q, parts: Sequence[Part], kind: type[Part], calls: Sequence[tuple[str, dict[str, Any], str | None]]) -> str:
    """What a question states before its ask: the chain before the ``kind`` part plus the other
    arguments of its ``calls`` (each phrase once)."""
    out = _phrases(q, [x for x in parts if not isinstance(x, kind)])
    for tool, args, skip in calls:
        out += _ctx_args(q, tool, args, skip=skip)
    return " ".join(dict.fromkeys(out))


def _phrases(q: _Q, parts: Sequence[Part]) -> list[str]:
    cat = q.catalog
    out: list[str] = []
    for p in parts:
        if isinstance(p, StartPart):
            out += _ctx_args(q, p.tool, p.args)
        elif isinstance(p, PickLabelPart):
            names = [p.name, *filter(None, [region_short(p.name)])]
            said = re.compile("|".join(rf"(?<![\w.]){re.escape(n)}(?![\w.])" for n in names))
            if not any(said.search(x) for x in out):  # '중랑구' after '서울특별시 중랑구' says nothing new
                cite = CITE_WORDS.get(p.label)
                city = _city_said(p.name)
                out.append(q.pick("c", cite).replace("{v}", p.name) if cite else city or f"'{p.name}'")
        elif isinstance(p, PickReducePart):
            from .semantics import field_type

            ty = field_type(cat, p.tool, p.key)
            w = q.where(p.tool, p.where)
            out.append(f"{w}{josa(q.f(p.tool, p.key), '이')} {_superl(p.op, ty)} {q.t(p.tool)}")
        elif isinstance(p, ScopePart):
            out.append(period_text(p.period or "year", str(p.value)))
        elif isinstance(p, CallPart):
            unit = _widening(p)
            if unit and out:  # what follows is about the whole district, not the place named
                out = [_widen(q, " ".join(dict.fromkeys(out)), unit)]
            out += _ctx_args(q, p.tool, p.args, skip=p.param)
    return list(dict.fromkeys(out))


def _with_unit(q: _Q, tool: str, name: str) -> str:
    """The field's word with the unit the catalog gives it ("거래금액(만원)"), so the number
    answered is in the unit asked."""
    kd = q.f(tool, name)
    u = unit_of(q.catalog, tool, name)
    if not u:
        return kd
    return f"{kd}({u})"  # "거래금액(만원)": the unit said, not "만원 단위로" (a blind read's "API unit")


def _ask_final(q: _Q, p: FinalPart, head: str) -> str:  # noqa: C901 - one table
    cat = q.catalog
    tool, op = p.tool, p.op
    t = q.t(tool)
    w = q.where(tool, p.where)
    if op == "count":
        if w and q.rng.random() < 0.4:
            return q.end("count", s=f"{head}{t} 가운데 {w}것")
        return q.end("count", s=f"{head}{w}{t}")
    if op == "distinct_count":
        fd = q.f(tool, str(p.field))
        return fill(q.reg_pick("d", {
            "yo": ("{h}{t}에 나오는 {f|은} 몇 가지인가요?", "{h}{t}에서 서로 다른 {f|은} 몇 종류예요?",
                   "{h}{t}에는 {f|이} 몇 가지 있나요?", "{h}{t|은} {f} 기준으로 몇 가지로 나뉘나요?",
                   "{h}{t}의 {f|을} 겹치지 않게 세면 몇 가지일까요?"),
            "da": ("{h}{t}에 나오는 {f|은} 몇 가지입니까?", "{h}{t}에서 서로 다른 {f}의 수를 알려 주십시오.",
                   "{h}{t}의 {f} 종류가 몇 가지인지 알고 싶습니다.")}), h=head, t=t, f=fd)
    if op in ("sum", "mean", "max", "min"):
        kd = _with_unit(q, tool, str(p.key))
        word = {"sum": ("합계", "총합", "합", "전체 합"), "mean": ("평균", "평균값", "평균치"),
                "max": ("최댓값", "가장 큰 값", "최고치"), "min": ("최솟값", "가장 작은 값", "최저치")}[op]
        wd = q.pick("w", word)
        s = q.pick("s", (f"{head}{w}{t}의 {kd} {wd}", f"{head}{w}{t} 전체에서 {kd}의 {wd}",
                         f"{head}{w}{josa(t, '을')} 모두 보면 {kd}의 {wd}", f"{head}{w}{t}에 대해 {kd} {wd}",
                         f"{head}{w}{josa(t, '을')} 통틀어 본 {kd} {wd}"))
        return q.end("value", s=s)
    if op in ("argmax", "argmin", "topk"):
        from .semantics import field_type

        kd, fd = q.f(tool, str(p.key)), q.f(tool, str(p.field))
        sup = _superl("argmax" if op == "topk" else op, field_type(cat, tool, str(p.key)))
        if op == "topk":
            n = p.k
            s = q.pick("k", (f"{head}{w}{t} 중 {kd} 상위 {n}개의 {fd}",
                             f"{head}{w}{josa(t, '을')} {kd} 순으로 줄 세우면 위에서 {n}개의 {fd}",
                             f"{head}{w}{t}에서 {josa(kd, '이')} 큰 순서로 {n}개를 고른 {fd}",
                             f"{head}{w}{t} 가운데 {kd} 기준 상위 {n}개의 {fd}"))
            return q.end("what", s=s)
        s = q.pick("a", (f"{head}{w}{t} 중 {josa(kd, '이')} {sup} 것의 {fd}",
                         f"{head}{w}{t}에서 {kd} 기준으로 {sup} 곳의 {fd}",
                         f"{josa(kd, '이')} {sup} {head}{w}{t}의 {fd}",
                         f"{head}{w}{t} 가운데 {josa(kd, '이')} {sup} 건의 {fd}",
                         f"{head}{w}{t} 중 {josa(kd, '으로')} 따져 {sup} 것의 {fd}"))
        return q.end("what", s=s)
    if op == "pick":
        fd = q.f(tool, str(p.field))
        s = q.pick("p", (f"{head}{t}의 {fd}", f"{head}{fd}", f"{head}{t} 기준 {fd}", f"{head}{t}에 적힌 {fd}"))
        return q.end("what", s=s)
    raise EdgeError(f"no template for final op={op!r}")


def _fan(q: _Q, parts: Sequence[Part]) -> str:
    fan = next(p for p in parts if isinstance(p, FanPart))
    fm = next(p for p in parts if isinstance(p, FinalMapPart))
    st = fan.set
    src = q.t(fan.tool)
    if st["op"] == "topk":
        sel = q.pick("T", (f"{q.f(fan.tool, st['key'])} 상위 {st['k']}개 {src}",
                           f"{q.f(fan.tool, st['key'])} 기준 위에서 {st['k']}개의 {src}"))
    elif st.get("where", {}).get("op") == "in":
        sel = ", ".join(_city_said(str(x)) or f"'{x}'" for x in st["where"]["value"])
    elif st.get("where"):
        sel = f"{q.where(fan.tool, st['where'])}{src} " + q.pick("A", ("전부", "모두", "하나하나", "각각"))
    else:
        sel = f"{src} " + q.pick("A", ("전부", "모두", "하나하나", "각각"))
    head = _head(q, [p for p in parts if not isinstance(p, FinalMapPart)], FanPart, [(fan.target, fan.args, fan.param)])
    head = q.pick("H", (f"{head}, ", f"{head} 기준으로 ", f"{head}에서 ")) if head else ""
    t = q.t(fan.target)
    if fm.op == "map_sum":
        return fill(q.reg_pick("F", {
            "yo": ("{h}{sel} 각각의 {t|을} 모두 합치면 몇 {c}인가요?", "{h}{sel}의 {t} 수를 다 더하면 얼마예요?",
                   "{h}{sel}에 대해 {t|을} 모아 보면 총 몇 {c}일까요?", "{h}{sel}, 이들의 {t|은} 합쳐서 몇 {c}인가요?",
                   "{h}{sel|을} 통틀어 {t|은} 몇 {c} 정도 되나요?"),
            "da": ("{h}{sel} 각각의 {t|을} 합산하면 몇 {c}입니까?", "{h}{sel}의 {t} 수 합계를 알려 주십시오.",
                   "{h}{sel}에 해당하는 {t|을} 모두 더하면 몇 {c}인지 알려 주십시오.")}), h=head, sel=sel, t=t, c=counter(t))
    word = q.pick("M", ("가장 많은", "제일 많은")) if fm.op == "map_argmax" else q.pick("M", ("가장 적은", "제일 적은"))
    s = q.pick("G", (f"{head}{sel} 중 {josa(t, '이')} {word} 곳", f"{head}{sel} 가운데 {t} 수가 {word} 쪽",
                     f"{head}{josa(sel, '을')} 비교했을 때 {josa(t, '이')} {word} 곳",
                     f"{head}{sel} 사이에서 {josa(t, '이')} {word} 쪽"))
    return q.end("which", s=s)


def _sem(q: _Q, parts: Sequence[Part]) -> str:
    p = next(x for x in parts if isinstance(x, SemPart))
    head = _head(q, parts, SemPart, [(tool, args, prm) for tool, args, prm in p.calls])
    asks = []
    for (tool, _a, _prm), m in zip(p.calls, p.metrics):
        t = q.t(tool)
        asks.append(f"{t} {q.f(tool, m['field'])}" if m["op"] == "pick"
                    else q.pick("U", _count_words(t)))
    head = q.pick("H", (f"{head}의 ", f"{head}에 대해 ", f"{head} 관련해서 ", f"{head}: ", f"{head}, ")) if head else ""
    return head + q.end("pair", a=asks[0], b=asks[1])


def _cmp(q: _Q, parts: Sequence[Part]) -> str:
    p = next(x for x in parts if isinstance(x, CmpPart))
    head = _head(q, parts, CmpPart, [(p.target, p.args, p.param)])
    head = f"{head} " if head else ""
    t = q.t(p.target)
    qa, qb = (_city_said(str(x)) or f"'{x}'" for x in p.names)
    m = p.metric
    if m["op"] == "count":
        what = q.pick("U", _count_words(t))
    else:
        kd = _with_unit(q, p.target, m["key"])
        what = f"{t}의 {kd} " + (q.pick("w", ("합계", "총합")) if m["op"] == "sum" else q.pick("w", ("최댓값", "최고치")))
    if q.rng.random() < 0.5:
        more = "더 많은" if m["op"] == "count" else "더 큰"  # a count is many, not big ("노선 개수가 더 큰")
        s = q.pick("C", (f"{head}{josa(qa, '과')} {qb} 중 {josa(what, '이')} {more} 쪽",
                         f"{josa(what, '을')} 놓고 보면 {head}{josa(qa, '과')} {qb} 중 더 많은 쪽",
                         f"{head}{josa(qa, '과')} {qb}, 둘 가운데 {josa(what, '이')} 앞서는 곳",
                         f"{head}{qa}하고 {qb} 중에서 {josa(what, '이')} 더 많은 곳"))
        return q.end("which", s=s)
    return fill(q.reg_pick("C", {
        "yo": ("{h}{what}, {a|과} {b} 중 어느 쪽이 더 많아요?", "{h}{a}하고 {b|을} 비교하면 {what|은} 어느 쪽이 앞서나요?",
               "{what|을} 놓고 보면 {h}{a|과} {b} 중 어디가 더 많나요?", "{h}{a|이} 많아요, {b|이} 많아요? {what} 기준으로요.",
               "{h}{a|과} {b} 중에 {what|이} 더 많은 곳이 어딘지 궁금해요."),
        "da": ("{h}{a|과} {b} 중 {what|이} 더 많은 쪽은 어디입니까?", "{h}{what|을} 기준으로 {a|과} {b|을} 비교해 주십시오.",
               "{h}{a|과} {b} 가운데 {what|이} 큰 쪽을 알려 주십시오.")}), h=head, what=what, a=qa, b=qb)


def _cond(q: _Q, parts: Sequence[Part]) -> str:
    p = next(x for x in parts if isinstance(x, CondPart))
    t = q.t(p.tool)
    then = p.then
    # the then-branch's own arguments (an election, a month) belong to its ask, not to the
    # subject of the count the condition tests
    said = _phrases(q, [x for x in parts if not isinstance(x, CondPart) and x.branch != "then"])
    # the then-branch's own pick (the stop its arrivals are asked of) is said with its ask too
    then_pick = [a for a in _phrases(q, [x for x in parts if x.branch == "then"]) if a not in said]
    then_args = [a for a in _ctx_args(q, then.target, then.args, skip=then.param) if a not in said]
    then_t = " ".join([*then_pick, *then_args, q.t(then.target)])
    head = " ".join(said)
    head = q.pick("H", (f"{head}의 ", f"{head}에서 ")) if head else ""
    return head + q.end("cond", t=t, then=then_t, k=str(p.k), kc=f"{p.k}{counter(t)}", c=counter(t), c2=counter(q.t(then.target)))


def _count_words(t: str) -> tuple[str, str, str]:
    """How a person names the count of ``t``: 건수 only of filings and deals (counter 건)."""
    c = counter(t)
    return (f"{t} 건수", f"{t} 수", f"{t} 개수") if c == "건" else (f"{t} 수", f"{t} 수", f"{t} 개수" if c == "개" else f"{t} 수")


def topic_of(tool: str) -> str | None:
    """What a question about ``tool``'s records is about (:data:`~edge.synth.lexicon.TOPICS`)."""
    return next((t for prefix, t in TOPICS if tool.startswith(prefix)), None)


def _ask_tool(parts: Sequence[Part]) -> str:
    """The tool whose records the question's ask is about."""
    for p in reversed(parts):
        if isinstance(p, SemPart):
            return str(p.calls[0][0])
        if isinstance(p, (CmpPart, FanPart)):
            return str(p.target)
        if isinstance(p, (FinalPart, FinalMapPart, CondPart)):
            return str(p.tool)
    return str(getattr(parts[-1], "tool", ""))


def _frame(q: _Q, body: str, domain: str, topic: str | None = None) -> str:
    """The question around its body: an optional opener, context clause and closing remark.

    A context clause comes from the ask's topic (:data:`~edge.synth.lexicon.TOPIC_CONTEXTS`)
    and only for some questions (35 %): a reason that fits what is asked, or none."""
    if topic in TOPIC_CONTEXTS and q.rng.random() < 0.35:
        clause = q.pick("X", TOPIC_CONTEXTS[topic])
        body = f"{clause}, {body}"
    if q.rng.random() < 0.15:
        body = f"{q.reg_pick('O', OPENERS)} {body}"
    closers = CLOSERS[q.reg]
    if domain in closers and (domain != "district" or topic == "housing") and q.rng.random() < 0.15:
        body = f"{body} {q.pick('Z' + q.reg, closers[domain])}"
    return body


def write_question_t(catalog: Catalog, rng: Any, parts: Sequence[Part], domain: str) -> tuple[str, str]:
    """The Korean question for a draft's ``parts`` and the id of the templates drawn.

    No tool names and no procedure: the question states the arguments the chain needs (dates
    in words, codes by their label, names quoted) and asks for what the final reduction
    computes, at the level it computes it. The register (해요체 or 합니다체), the subjects'
    words, the ask and an optional context clause are drawn from :mod:`edge.synth.lexicon`.
    """
    intent = next((p for p in parts if isinstance(p, IntentPart)), None)
    if intent is not None:  # a question written for its platform (edge.synth.intents)
        from .asks import phrase

        return phrase(intent, rng)
    q = _Q(catalog, rng)
    kinds = {type(p) for p in parts}
    if FanPart in kinds:
        jt, body = "FAN", _fan(q, parts)
    elif SemPart in kinds:
        jt, body = "SEM", _sem(q, parts)
    elif CmpPart in kinds:
        jt, body = "CMP", _cmp(q, parts)
    elif CondPart in kinds:
        jt, body = "COND", _cond(q, parts)
    else:
        final = next(p for p in reversed(parts) if isinstance(p, FinalPart))
        before = parts[: len(parts) - 1 - list(reversed(parts)).index(final)]
        subj = " ".join(_phrases(q, before))
        jt, body = "SEQ", _ask_final(q, final, _level(q, subj))
    body = re.sub(r"\s+", " ", _frame(q, body, domain, topic_of(_ask_tool(parts)))).strip()
    body = re.sub(r"(종류|유형) 종류", r"\1", body)
    body = re.sub(r"기준 기준(으로)?", "기준으로", body)
    return body, f"{jt}:" + ".".join(q.tid)


def write_question(catalog: Catalog, rng: Any, parts: Sequence[Part], domain: str) -> str:
    """The Korean question for a draft's ``parts`` (see :func:`write_question_t`)."""
    return write_question_t(catalog, rng, parts, domain)[0]


#: The counters a question asks a count in ("몇 건", "며칠"): the answer says its number with it.
_ASKED_COUNTER = re.compile(r"몇\s*(건|개|곳|명|대|번|가지|차례)|(며칠)")
#: Classes counted: "몇 반", "몇 개 반", "반 수", "학급 수" (a count of classes reads "15개 반").
_ARTICLES_COUNTED = re.compile(r"몇\s*개\s*조")
_ASKED_CLASSES = re.compile(r"몇\s*(?:개\s*)?반(?![찬죽])|(?:학급|반)\s*수")
#: A count asked by its noun with no "몇": the counter that noun takes.
_COUNT_NOUNS = ((r"건수", "건"), (r"횟수", "번"), (r"(?:노선|학과|조문)\s*수", "개"), (r"(?:후보자?|당선인|당선자|출마자)\s*수|인원", "명"))


def asked_counters(question: str) -> list[str]:
    """The counter of each count ``question`` asks, in order: "몇 건" → 건, "며칠" → 일, classes
    ("몇 반", "몇 개 반", "학급 수") → "개 반", and a count asked by its noun with no "몇"
    ("매매 건수", "나온 횟수", "학과 수", "후보 수").

    >>> asked_counters("학급 수와 학과 수를 각각 알려 주세요."), asked_counters("며칠이고, 행사는 몇 개였어요?")
    (['개 반', '개'], ['일', '개'])
    """
    found: list[tuple[int, int, str]] = []
    for m in _ASKED_CLASSES.finditer(question):
        found.append((m.start(), m.end(), "개 반"))
    for m in _ASKED_COUNTER.finditer(question):
        found.append((m.start(), m.end(), m.group(1) or "일"))
    for pat, w in _COUNT_NOUNS:
        for m in re.finditer(pat, question):
            found.append((m.start(), m.end(), w))
    out: list[tuple[int, int, str]] = []
    for st in sorted(found, key=lambda x: (x[0], -x[1])):  # the longest at a place; no overlaps
        if not out or st[0] >= out[-1][1]:
            out.append(st)
    return [w for _s, _e, w in out]
#: An article asked by its number ("제 몇 조예요?", "몇 조인가요?", "몇 번째 조인지").
_ARTICLE = re.compile(r"몇\s*(?:번째\s*)?조(?!문|항)|조문\s*번호")
#: Platforms whose money fields with no unit in the catalog are amounts in 원 (OpenDART's
#: accounts, FSC's prices and market values).
_WON_PLATFORMS = ("opendart_", "fsc_")


def answer_kinds(prog: Any, catalog: Catalog) -> list[str | None]:
    """What each value of ``prog``'s answer is, for :func:`answer_text`: ``"won"`` (an amount
    in 원: a money field in 원, or one in 만원 converted by ``arith``), ``"date"`` (a date
    field), ``"count"`` (a ``count``) or None (a name, a code, a number of no known kind)."""
    from simulator.tools import CallStep, OpStep

    from .checks import WON_FACTORS
    from .semantics import field_type

    exprs = prog.answer if isinstance(prog.answer, list) else [prog.answer]

    def source(step: Any) -> Any:
        while isinstance(step, OpStep) and step.from_ is not None:
            step = prog.step(step.from_)
        return step if isinstance(step, CallStep) else None

    def kind(expr: Any) -> str | None:
        if not isinstance(expr, dict) or "$ref" not in expr:
            return None
        step = prog.step(str(expr["$ref"]))
        if not isinstance(step, OpStep):
            return None
        if step.op == "count":
            return "count"
        if step.op == "choose":  # a COND's answer: a count either way ("76건")
            ka, kb = kind(step.a), kind(step.b)
            return ka if ka == kb else None
        if step.op == "arith" and step.fn == "mul" and step.b in WON_FACTORS.values() and isinstance(step.a, dict):
            inner = prog.step(str(step.a.get("$ref")))
            src = source(inner)
            field = getattr(inner, "field", None)
            if src is not None and field and field_type(catalog, src.call, field) == "money":
                return "won"
            return None
        field = expr.get("field") or (step.field if step.op in ("max", "min", "sum", "mean") else None)
        src = source(step)
        if src is None or not field:
            return None
        ty = field_type(catalog, src.call, field)
        if ty == "date":
            return "date"
        if ty == "money" and step.op != "mean" and (unit_of(catalog, src.call, field) == "원" or (
                unit_of(catalog, src.call, field) is None and src.call.startswith(_WON_PLATFORMS))):
            return "won"
        return None

    return [kind(x) for x in exprs]


def _value_text(x: Any, kind: str | None, count_word: str | None) -> str:
    from .korean import won_text

    if kind == "date" and isinstance(x, (str, int)) and not isinstance(x, bool):
        d = date_text(str(x))
        if d:
            return d
    num = x if isinstance(x, (int, float)) and not isinstance(x, bool) else None
    if num is None and isinstance(x, str) and re.fullmatch(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)", x.strip()):
        num = int(x.strip().replace(",", ""))  # OpenDART's "3,145,000,000"
    if kind == "won" and num is not None:
        w = won_text(num)
        if w:
            return w
    if kind == "count" and count_word and isinstance(x, int) and not isinstance(x, bool):
        return f"{x:,}{count_word}"
    if count_word == "조" and num is not None:  # "제 몇 조예요?" → "제11조"
        return f"제{num}조"
    if count_word == "번" and kind is None and isinstance(x, str) and x.strip().isdigit():
        return f"{x.strip()}번"  # a bus's number asked "몇 번이에요?" → "607번"
    return num_text(x)


def answer_text(answer: Any, question: str = "", kinds: Sequence[str | None] | None = None) -> str:
    """The final assistant message for an answer value, as a person reads it: an amount in 원
    by 조/억/만 ("3억 6,507만 원"), a date in words ("2025년 10월 15일"), a count with the counter
    its question asks it in ("12건", "며칠" → "19일"; none where the question asks in several).
    ``kinds`` (:func:`answer_kinds`) says which value is which; without them, numbers as they
    are ("답: 36,507"). The example's ``answer``/``ground_truth`` keep the raw value; KOPA-Bench's
    checker reads this text as that value (``tests/edge/synth/test_phrasing.py``)."""
    vals = answer if isinstance(answer, list) else [answer]
    ks = list(kinds or [])
    ks += [None] * (len(vals) - len(ks))
    each = asked_counters(question)  # the counter of each count asked, in the question's order
    word = each[0] if len(set(each)) == 1 else None
    if _ARTICLE.search(question) and len(vals) == 1:
        word = "조"
    elif _ARTICLES_COUNTED.search(question):  # "몇 개 조로 이루어져 있나요?" → "14개 조"
        word = "개 조"
    if isinstance(answer, dict):
        return "답: " + ", ".join(f"{k} {num_text(v)}" for k, v in answer.items())
    if len(vals) > 1 and len(each) == len(vals):  # "며칠이고, 학교 행사는 몇 개였어요?" → "22일, 6개"
        return "답: " + ", ".join(_value_text(v, k, w) for v, k, w in zip(vals, ks, each))
    return "답: " + ", ".join(_value_text(v, k, word) for v, k in zip(vals, ks))
