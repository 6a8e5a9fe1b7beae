"""Korean questions from templates (per junction type and domain), and an optional paraphrase.

The question is written from the draft's parts — the tools' summaries, the fields'
catalog descriptions (``FieldSpec.description``), the arguments the user gives — never
from the answer. Intermediate values (codes found on the way) stay out of the question: a
model has to look them up. ``paraphrase`` rewrites questions through an OpenAI-compatible
endpoint; it is off by default, and the templates alone are deterministic.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from simulator import Catalog

from .fields import field_desc, tool_desc
from .korean import clean_desc, date_text, josa, num_text

__all__ = ["DOMAIN_INTROS", "answer_text", "arg_phrase", "paraphrase", "write_question", "write_question_t"]

DOMAIN_INTROS: dict[str, tuple[str, ...]] = {
    "traffic": ("버스 타기 전에 확인하고 싶어요.", "출퇴근길이 궁금해서요.", "대중교통 얘기인데요,", "교통편을 알아보는 중입니다."),
    "finance": ("투자 전에 확인해 보려고요.", "회사 공시를 보다가 궁금해졌어요.", "기업 정보를 정리하는 중인데요,", "재무 자료를 살펴보고 있어요."),
    "education": ("아이 학교 때문에 여쭤봐요.", "학교 정보를 비교하고 있어요.", "전학을 고민 중인데요,", "학교 관련해서 궁금한 게 있어요."),
    "law": ("법령을 찾아보다가 궁금해졌어요.", "규정을 확인하려고 합니다.", "법 조항을 정리하는 중인데요,", "법제 자료를 보고 있어요."),
    "politics": ("선거 결과를 정리하고 있어요.", "국회 활동이 궁금해서요.", "지난 선거 얘기인데요,", "정치 기사 쓰다가 확인할 게 있어요."),
    "district": ("동네 정보를 알아보는 중이에요.", "이사 갈 곳을 알아보고 있어요.", "우리 지역 얘기인데요,", "지역 통계를 보고 있어요."),
}
_ENDS_WHAT = ("무엇인가요?", "뭐예요?", "알려 주세요.", "알고 싶어요.", "궁금합니다.", "어떻게 되나요?", "확인해 주시겠어요?")
_ENDS_COUNT = ("몇 건인가요?", "모두 몇 개예요?", "몇 건이나 되나요?", "몇 개인지 알려 주세요.", "총 몇 건일까요?", "개수가 궁금해요.")


def _t(catalog: Catalog, tool: str) -> str:
    return _noun(tool_desc(catalog.endpoint(tool)))


def _noun(text: str) -> str:
    """A tool summary as the thing asked about (platform prefixes and list words dropped)."""
    t = re.sub(r"^[A-Za-z0-9·/ ]{2,12}\s+", "", text).strip() or text
    t = re.sub(r"\s*\([^)]*\)", "", t)
    t = re.sub(r"\s*(목록|조회|검색|서비스|정보 조회)$", "", t).strip() or t
    return t


def _f(catalog: Catalog, tool: str, name: str) -> str:
    return field_desc(catalog.endpoint(tool), name)


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


def _ctx_args(catalog: Catalog, tool: str, args: dict[str, Any], skip: str | None = None) -> list[str]:
    from .checks import quiet_params

    quiet = quiet_params(catalog, tool)
    ep = catalog.endpoint(tool)
    out = []
    for k, v in sorted(args.items()):
        p = ep.param(k)
        if k == skip or k in quiet or (p is not None and p.default is not None and str(p.default) == str(v)):
            continue
        out.append(arg_phrase(catalog, tool, k, str(v)))
    return out


def _where_phrase(catalog: Catalog, tool: str, where: dict[str, Any] | None) -> str:
    if not where:
        return ""
    return f"{_f(catalog, tool, where['field'])} '{where['value']}'인 "


def _level(p: dict[str, Any]) -> str:
    """A handoff that widens the level (a legal-dong code cut to its district) said so."""
    tr = p.get("transform") or ""
    if tr.startswith("slice:0:5"):
        return "이 속한 시·군·구 전체의 "
    if tr.startswith("slice:0:2"):
        return "이 속한 시·도 전체의 "
    return "의 "


def _b(word: str) -> bool:
    return josa(word, "은").endswith("은")


def _superl(op: str, stype: str) -> str:
    if stype == "date":
        return "가장 최근인" if op in ("argmax", "max") else "가장 이른"
    return "가장 큰" if op in ("argmax", "max") else "가장 작은"


class _Q:
    """One question being written: its context phrases and the template ids drawn."""

    def __init__(self, catalog: Catalog, rng: Any) -> None:
        self.catalog, self.rng, self.ctx, self.tid = catalog, rng, [], []

    def pick(self, name: str, options: Sequence[str]) -> str:
        i = self.rng.randrange(len(options))
        self.tid.append(f"{name}{i}")
        return options[i]


def _subject(q: _Q, parts: Sequence[dict[str, Any]]) -> str:
    """The chain before the last call as a noun phrase a person would say."""
    return " ".join(_phrases(q, parts))


def _head(q: _Q, parts: Sequence[dict[str, Any]], kind: str, calls: Sequence[tuple[str, dict[str, Any], str | None]]) -> str:
    """What a question states before its ask: the chain before the ``kind`` part plus the other
    arguments of its ``calls`` (each phrase once)."""
    out = _phrases(q, [x for x in parts if x["kind"] != kind])
    for tool, args, skip in calls:
        out += _ctx_args(q.catalog, tool, args, skip=skip)
    return " ".join(dict.fromkeys(out))


def _phrases(q: _Q, parts: Sequence[dict[str, Any]]) -> list[str]:
    cat = q.catalog
    out: list[str] = []
    for p in parts:
        k = p["kind"]
        if k == "start":
            out += _ctx_args(cat, p["tool"], p.get("args", {}))
        elif k == "pick_label":
            out.append(f"'{p['name']}'")
        elif k == "pick_reduce":
            from .semantics import field_type

            ty = field_type(cat, p["tool"], p["key"])
            w = _where_phrase(cat, p["tool"], p.get("where"))
            out.append(f"{w}{josa(_f(cat, p['tool'], p['key']), '이')} {_superl(p['op'], ty)} {_t(cat, p['tool'])}")
        elif k == "call":
            extra = _ctx_args(cat, p["tool"], p.get("args", {}), skip=p.get("param"))
            if extra:
                out += extra
    return list(dict.fromkeys(out))


def _ask_final(q: _Q, p: dict[str, Any], subj: str, lvl: str) -> str:  # noqa: C901 - one table
    cat = q.catalog
    tool, op = p["tool"], p["op"]
    t = _t(cat, tool)
    w = _where_phrase(cat, tool, p.get("where"))
    head = f"{subj}{lvl}" if subj else ""
    if op == "count":
        return q.pick("c", (f"{head}{w}{josa(t, '은')} {q.pick('e', _ENDS_COUNT)}",
                            f"{head}{w}{t} 건수를 알려 주세요.",
                            f"{head}{t} 가운데 {w}것은 {q.pick('e', _ENDS_COUNT)}" if w else
                            f"{head}{t}{'는' if not _b(t) else '은'} 전부 몇 건이 있나요?",
                            f"{head}{w}{t}, 전부 합쳐 몇 건이죠?"))
    if op == "distinct_count":
        fd = _f(cat, tool, p["field"])
        return q.pick("d", (f"{head}{t}에 나오는 {josa(fd, '은')} 몇 가지인가요?", f"{head}{t}에서 서로 다른 {josa(fd, '은')} 몇 종류예요?",
                            f"{head}{t}에는 {josa(fd, '이')} 몇 가지 있나요?"))
    if op in ("sum", "mean", "max", "min"):
        kd = _f(cat, tool, p["key"])
        word = {"sum": q.pick("w", ("합계", "총합", "합")), "mean": q.pick("w", ("평균", "평균값")),
                "max": q.pick("w", ("최댓값", "가장 큰 값")), "min": q.pick("w", ("최솟값", "가장 작은 값"))}[op]
        return q.pick("s", (f"{head}{w}{t}의 {kd} {josa(word, '은')} {q.pick('e', _ENDS_WHAT)}",
                            f"{head}{w}{t} 전체에서 {kd}의 {josa(word, '을')} 구해 주세요.",
                            f"{head}{w}{josa(t, '을')} 모두 보면 {kd}의 {josa(word, '이')} 얼마인가요?"))
    if op in ("argmax", "argmin", "topk"):
        from .semantics import field_type

        kd, fd = _f(cat, tool, p["key"]), _f(cat, tool, p["field"])
        sup = _superl("argmax" if op == "topk" else op, field_type(cat, tool, p["key"]))
        if op == "topk":
            return q.pick("k", (f"{head}{w}{t} 중 {kd} 상위 {p['k']}개의 {josa(fd, '은')} {q.pick('e', _ENDS_WHAT)}",
                                f"{head}{w}{josa(t, '을')} {kd} 순으로 줄 세우면 위에서 {p['k']}개의 {josa(fd, '이')} {q.pick('e', _ENDS_WHAT)}"))
        return q.pick("a", (f"{head}{w}{t} 중 {josa(kd, '이')} {sup} 것의 {josa(fd, '은')} {q.pick('e', _ENDS_WHAT)}",
                            f"{head}{w}{t}에서 {kd} 기준으로 {sup} 곳의 {fd}, {q.pick('e', _ENDS_WHAT)}",
                            f"{josa(kd, '이')} {sup} {head}{w}{t}의 {josa(fd, '을')} 알려 주세요."))
    if op == "pick":
        fd = _f(cat, tool, p["field"])
        return q.pick("p", (f"{head}{t}에서 {josa(fd, '은')} {q.pick('e', _ENDS_WHAT)}", f"{head}{fd}, {q.pick('e', _ENDS_WHAT)}",
                            f"{head}{t} 기준 {josa(fd, '이')} 어떻게 되나요?"))
    raise ValueError(f"no template for final op={op!r}")


def _fan(q: _Q, parts: Sequence[dict[str, Any]]) -> str:
    cat = q.catalog
    fan = next(p for p in parts if p["kind"] == "fan")
    fm = next(p for p in parts if p["kind"] == "final_map")
    st = fan["set"]
    src = _t(cat, fan["tool"])
    if st["op"] == "topk":
        sel = f"{_f(cat, fan['tool'], st['key'])} 상위 {st['k']}개 {src}"
    elif st.get("where", {}).get("op") == "in":
        sel = ", ".join(f"'{x}'" for x in st["where"]["value"])
    elif st.get("where"):
        sel = f"{_where_phrase(cat, fan['tool'], st['where'])}{src} 전부"
    else:
        sel = f"{src} 전부"
    head = _head(q, [p for p in parts if p["kind"] != "final_map"], "fan",
                 [(fan["target"], fan.get("args", {}), fan.get("param"))])
    head = f"{head}, " if head else ""
    t = _t(cat, fan["target"])
    if fm["op"] == "map_sum":
        return q.pick("F", (f"{head}{sel} 각각의 {josa(t, '을')} 모두 합치면 몇 건인가요?",
                            f"{head}{sel}의 {t} 건수를 다 더하면 얼마예요?",
                            f"{head}{sel}에 대해 {josa(t, '을')} 모아 보면 총 몇 건일까요?",
                            f"{head}{sel}, 이들의 {josa(t, '은')} 합쳐서 몇 개인가요?"))
    word = "가장 많은" if fm["op"] == "map_argmax" else "가장 적은"
    return q.pick("G", (f"{head}{sel} 중 {josa(t, '이')} {word} 곳은 어디인가요?",
                        f"{head}{sel} 가운데 {t} 건수가 {word} 쪽을 알려 주세요.",
                        f"{head}{josa(sel, '을')} 비교하면 {josa(t, '이')} {word} 건 어느 쪽이에요?"))


def _sem(q: _Q, parts: Sequence[dict[str, Any]]) -> str:
    cat = q.catalog
    p = next(x for x in parts if x["kind"] == "sem")
    head = _head(q, parts, "sem", [(tool, args, prm) for tool, args, prm in p["calls"]])
    asks = []
    for (tool, _a, _prm), m in zip(p["calls"], p["metrics"]):
        asks.append(f"{_t(cat, tool)} {_f(cat, tool, m['field'])}" if m["op"] == "pick" else f"{_t(cat, tool)} 건수")
    return q.pick("S", (f"{head}의 {josa(asks[0], '과')} {josa(asks[1], '을')} 함께 알려 주세요.",
                        f"{head}에 대해 {asks[0]}, 그리고 {josa(asks[1], '을')} 차례로 알고 싶어요.",
                        f"{head} 관련해서 {josa(asks[0], '은')} 무엇이고 {josa(asks[1], '은')} 무엇인가요?",
                        f"{head}: {asks[0]}와(과) {asks[1]}, 두 가지를 확인해 주세요."))


def _cmp(q: _Q, parts: Sequence[dict[str, Any]]) -> str:
    cat = q.catalog
    p = next(x for x in parts if x["kind"] == "cmp")
    head = _head(q, parts, "cmp", [(p["target"], p.get("args", {}), p.get("param"))])
    head = f"{head} " if head else ""
    t = _t(cat, p["target"])
    a, b = p["names"]
    qa, repr_b = f"'{a}'", f"'{b}'"
    m = p["metric"]
    what = f"{t} 건수" if m["op"] == "count" else f"{t}의 {_f(cat, p['target'], m['key'])} {'합계' if m['op'] == 'sum' else '최댓값'}"
    return q.pick("C", (f"{head}{josa(qa, '과')} '{b}' 중 {josa(what, '이')} 더 큰 쪽은 어디인가요?",
                        f"{head}{what}, '{a}'와(과) '{b}' 중 어느 쪽이 더 많아요?",
                        f"{head}'{a}'하고 {josa(repr_b, '을')} 비교하면 {josa(what, '은')} 어느 쪽이 앞서나요?",
                        f"{josa(what, '을')} 놓고 보면 {head}'{a}'와(과) '{b}' 중 누가 더 많나요?"))


def _cond(q: _Q, parts: Sequence[dict[str, Any]]) -> str:
    cat = q.catalog
    p = next(x for x in parts if x["kind"] == "cond")
    t = _t(cat, p["tool"])
    then_t = _t(cat, p["then"]["target"])
    head = _head(q, parts, "cond", [(p["then"]["target"], p["then"].get("args", {}), p["then"].get("param"))])
    head = f"{head}의 " if head else ""
    k = p["k"]
    return q.pick("K", (f"{head}{josa(t, '이')} {k}건 이상이면 이어지는 {then_t} 건수를, 아니면 {t} 건수를 알려 주세요.",
                        f"{head}{josa(t, '이')} {k}건을 넘거나 같으면 {josa(then_t, '이')} 몇 건인지, 그보다 적으면 {josa(t, '이')} 몇 건인지 궁금해요.",
                        f"{head}{t} 건수가 {k} 이상인가요? 그렇다면 {then_t} 건수를, 아니라면 {t} 건수를 답해 주세요."))


def write_question_t(catalog: Catalog, rng: Any, parts: Sequence[dict[str, Any]], domain: str) -> tuple[str, str]:
    """The Korean question for a draft's ``parts`` and the id of the templates drawn.

    No tool names and no procedure: the question states the arguments the chain needs (dates
    in words, codes by their label, names quoted) and asks for what the final reduction
    computes, at the level it computes it.
    """
    q = _Q(catalog, rng)
    kinds = [p["kind"] for p in parts]
    if "fan" in kinds:
        jt, body = "FAN", _fan(q, parts)
    elif "sem" in kinds:
        jt, body = "SEM", _sem(q, parts)
    elif "cmp" in kinds:
        jt, body = "CMP", _cmp(q, parts)
    elif "cond" in kinds:
        jt, body = "COND", _cond(q, parts)
    else:
        final = next(p for p in reversed(parts) if p["kind"] == "final")
        before = parts[: len(parts) - 1 - list(reversed(parts)).index(final)]
        last_call = next((p for p in reversed(before) if p["kind"] == "call"), None)
        subj = _subject(q, before)
        lvl = _level(last_call) if last_call else "의 "
        jt, body = "SEQ", _ask_final(q, final, subj, lvl)
    body = re.sub(r"\s+", " ", body).strip()
    if q.rng.random() < 0.35:
        intro = q.pick("I", DOMAIN_INTROS.get(domain, ("",)))
        body = f"{intro} {body}"
    return body, f"{jt}:" + ".".join(q.tid)


def write_question(catalog: Catalog, rng: Any, parts: Sequence[dict[str, Any]], domain: str) -> str:
    """The Korean question for a draft's ``parts`` (see :func:`write_question_t`)."""
    return write_question_t(catalog, rng, parts, domain)[0]


def answer_text(answer: Any) -> str:
    """The final assistant message for an answer value."""
    if isinstance(answer, list):
        return "답: " + ", ".join(num_text(x) for x in answer)
    if isinstance(answer, dict):
        return "답: " + ", ".join(f"{k} {num_text(v)}" for k, v in answer.items())
    return f"답: {num_text(answer)}"


def paraphrase(questions: list[str], *, base_url: str, model: str, api_key: str | None = None,
               timeout: float = 60.0) -> list[str]:
    """Rewrite each question more naturally through an OpenAI-compatible chat endpoint.

    Keeps any quoted value verbatim (a rewrite that drops one is discarded: the template
    question stays). Non-deterministic by nature: off unless asked for.
    """
    import re

    import httpx

    out = []
    with httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout,
                      headers={"Authorization": f"Bearer {api_key}"} if api_key else {}) as client:
        for q in questions:
            body = {"model": model, "temperature": 0, "messages": [
                {"role": "system", "content": "다음 한국어 질문을 뜻과 조건, 따옴표 안의 값은 그대로 두고 자연스러운 한 문단 질문으로 다시 써라. 질문만 출력하라."},
                {"role": "user", "content": q}]}
            try:
                r = client.post("/chat/completions", json=body)
                r.raise_for_status()
                text = r.json()["choices"][0]["message"]["content"].strip()
            except (httpx.HTTPError, KeyError, IndexError, ValueError, json.JSONDecodeError):
                out.append(q)
                continue
            quoted = re.findall(r"'([^']+)'", q)
            out.append(text if text and all(v in text for v in quoted) else q)
    return out
