"""Korean questions from templates (per junction type and domain), and an optional paraphrase.

The question is written from the draft's parts — the tools' summaries, the fields'
catalog descriptions (``FieldSpec.description``), the arguments the user gives — never
from the answer. Intermediate values (codes found on the way) stay out of the question: a
model has to look them up. ``paraphrase`` rewrites questions through an OpenAI-compatible
endpoint; it is off by default, and the templates alone are deterministic.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from simulator import Catalog

from .fields import field_desc, tool_desc
from .korean import josa, num_text

__all__ = ["DOMAIN_INTROS", "answer_text", "paraphrase", "write_question"]

DOMAIN_INTROS: dict[str, tuple[str, ...]] = {
    "traffic": ("대중교통 정보를 확인하려고 합니다.", "버스·지하철 이용 정보를 알아보는 중입니다.", "교통 데이터로 확인해 주세요."),
    "finance": ("기업·금융 공시 자료를 살펴보고 있습니다.", "증권과 기업 정보를 확인하려 합니다.", "금융 데이터를 바탕으로 답해 주세요."),
    "education": ("학교 정보를 조사하고 있습니다.", "교육청 학교 데이터를 확인하려고 합니다.", "학교 관련 공공데이터로 답해 주세요."),
    "law": ("법령 정보를 찾아보고 있습니다.", "법제처 자료를 확인하려 합니다.", "법령·판례 데이터를 기준으로 답해 주세요."),
    "politics": ("선거·국회 자료를 정리하고 있습니다.", "정치 관련 공공데이터를 확인하려고 합니다.", "선거관리위원회·국회 데이터로 답해 주세요."),
    "district": ("지역 행정 정보를 확인하고 있습니다.", "행정구역과 지역 데이터를 살펴보려 합니다.", "지자체 공공데이터로 답해 주세요."),
}
_ALL_PAGES = ("(모든 페이지를 빠짐없이 확인해서)", "(결과 전체를 끝까지 조회해서)", "(첫 페이지만이 아니라 전체 결과 기준으로)")


def _args(catalog: Catalog, tool: str, args: dict[str, Any], skip: str | None = None) -> str:
    ep = catalog.endpoint(tool)
    out = []
    for k, v in sorted(args.items()):
        if k == skip:
            continue
        p = ep.param(k)
        desc = (p.description if p else "") or k
        desc = desc.split(" (")[0].split("(")[0].strip() or k
        out.append(f"{desc} {v}")
    return ", ".join(out)


def _t(catalog: Catalog, tool: str) -> str:
    return tool_desc(catalog.endpoint(tool))


def _f(catalog: Catalog, tool: str, name: str) -> str:
    return field_desc(catalog.endpoint(tool), name)


def _where(catalog: Catalog, tool: str, where: dict[str, Any] | None) -> str:
    if not where:
        return ""
    return f"{josa(_f(catalog, tool, where['field']), '이')} '{where['value']}'인 항목 중 "


def _final(catalog: Catalog, rng: Any, p: dict[str, Any]) -> str:  # noqa: C901 - one table
    tool, op = p["tool"], p["op"]
    t = _t(catalog, tool)
    w = _where(catalog, tool, p.get("where"))
    if op == "count":
        return rng.choice((f"{t} 결과 {w}건수는 모두 몇 건인가요?", f"{w}{t}에 나오는 항목은 몇 개입니까?",
                           f"{t}에서 {w}조회되는 건수를 알려 주세요."))
    if op == "distinct_count":
        fd = _f(catalog, tool, p["field"])
        return rng.choice((f"{t} 결과에 나오는 {fd}의 종류는 몇 가지인가요?", f"{t}에서 서로 다른 {fd}는 몇 개입니까?"))
    if op in ("sum", "mean", "max", "min"):
        kd = _f(catalog, tool, p["key"])
        word = {"sum": "합계", "mean": "평균", "max": "최댓값", "min": "최솟값"}[op]
        return rng.choice((f"{t} 결과 전체에서 {kd}의 {word}는 얼마인가요?", f"{t}에 나온 {kd}의 {word}를 구해 주세요."))
    if op in ("argmax", "argmin"):
        kd, fd = _f(catalog, tool, p["key"]), _f(catalog, tool, p["field"])
        word = "가장 큰" if op == "argmax" else "가장 작은"
        return rng.choice((f"{t} 결과 중 {josa(kd, '이')} {word} 항목의 {fd}는 무엇인가요?",
                           f"{t}에서 {kd} 기준으로 {word} 것의 {josa(fd, '을')} 알려 주세요."))
    if op == "topk":
        kd, fd = _f(catalog, tool, p["key"]), _f(catalog, tool, p["field"])
        return rng.choice((f"{t} 결과를 {kd} 내림차순으로 정렬했을 때 상위 {p['k']}개 항목의 {josa(fd, '은')} 무엇인가요?",
                           f"{t}에서 {kd} 상위 {p['k']}개의 {josa(fd, '을')} 순서대로 알려 주세요."))
    if op == "pick":
        fd = _f(catalog, tool, p["field"])
        return rng.choice((f"{t}에 나오는 {josa(fd, '은')} 무엇인가요?", f"{t} 결과의 {josa(fd, '을')} 알려 주세요."))
    raise ValueError(f"no template for final op={op!r}")


def _pick(catalog: Catalog, rng: Any, p: dict[str, Any]) -> str:
    tool = p["tool"]
    t, fd = _t(catalog, tool), _f(catalog, tool, p["field"])
    if p["kind"] == "pick_label":
        ld = _f(catalog, tool, p["label"])
        return rng.choice((f"{t}에서 {josa(ld, '이')} '{p['name']}'인 항목의 {josa(fd, '을')} 찾고,",
                           f"'{p['name']}'({ld})의 {josa(fd, '을')} {t}에서 확인한 뒤,",
                           f"{t}로 '{p['name']}'의 {josa(fd, '을')} 알아낸 다음,"))
    if p["kind"] == "pick_reduce":
        kd = _f(catalog, tool, p["key"])
        word = "가장 큰" if p["op"] == "argmax" else "가장 작은"
        w = _where(catalog, tool, p.get("where"))
        pages = rng.choice(_ALL_PAGES) if p.get("pages", 1) > 1 or p.get("records", 0) > 20 else ""
        return rng.choice((f"{t} 결과 {w}{josa(kd, '이')} {word} 항목{pages}의 {josa(fd, '을')} 구하고,",
                           f"{t}{pages}에서 {w}{kd} 기준 {word} 것의 {josa(fd, '을')} 골라,"))
    return rng.choice((f"{t} 결과의 {josa(fd, '을')} 확인하고,", f"{t}에서 {josa(fd, '을')} 얻어,"))


def _call(catalog: Catalog, rng: Any, p: dict[str, Any]) -> str:
    t = _t(catalog, p["tool"])
    extra = _args(catalog, p["tool"], p.get("args", {}), skip=p.get("param"))
    extra = f"({extra}) " if extra else ""
    return rng.choice((f"그 값으로 {t}{extra}를 조회합니다.", f"이어서 {josa(t, '을')} {extra}조회합니다.",
                       f"그 결과로 {t} {extra}정보를 찾습니다."))


def _start(catalog: Catalog, rng: Any, p: dict[str, Any]) -> str:
    t = _t(catalog, p["tool"])
    a = _args(catalog, p["tool"], p.get("args", {}))
    if a:
        return rng.choice((f"{a} 조건으로 {josa(t, '을')} 봅니다.", f"{t}({a})에서 시작합니다."))
    return rng.choice((f"{josa(t, '을')} 먼저 확인합니다.", f"{t}에서 시작합니다.", ""))


def write_question(catalog: Catalog, rng: Any, parts: Sequence[dict[str, Any]], domain: str) -> str:
    """The Korean question for a draft's ``parts`` (one template draw per part)."""
    out: list[str] = [rng.choice(DOMAIN_INTROS.get(domain, ("",)))]
    for p in parts:
        k = p["kind"]
        if k == "start":
            s = _start(catalog, rng, p)
        elif k.startswith("pick"):
            s = _pick(catalog, rng, p)
        elif k == "call":
            s = _call(catalog, rng, p)
        elif k == "final":
            s = _final(catalog, rng, p)
        elif k == "fan":
            src = _t(catalog, p["tool"])
            st = p["set"]
            fd = _f(catalog, p["tool"], st["field"])
            if st["op"] == "topk":
                sel = f"{josa(_f(catalog, p['tool'], st['key']), '이')} 큰 상위 {st['k']}개 항목의 {fd}"
            elif st.get("where", {}).get("op") == "in":
                names = ", ".join(f"'{x}'" for x in st["where"]["value"])
                sel = f"{_f(catalog, p['tool'], st['where']['field'])} {names} 각각의 {fd}"
            elif st.get("where"):
                sel = f"{_where(catalog, p['tool'], st['where'])}{fd} 전부"
            else:
                sel = f"모든 {fd}"
            extra = _args(catalog, p["target"], p.get("args", {}), skip=p.get("param"))
            extra = f"({extra})" if extra else ""
            s = rng.choice((f"{src}에서 {josa(sel, '을')} 구한 뒤, 각각에 대해 {_t(catalog, p['target'])}{extra}를 조회합니다.",
                            f"{src} 결과의 {sel}마다 {josa(_t(catalog, p['target']), '을')}{extra} 조회하려 합니다."))
        elif k == "final_map":
            t = _t(catalog, p["tool"])
            if p["op"] == "map_sum":
                s = rng.choice((f"{t} 결과를 모두 합치면 몇 건인가요?", f"조회된 {t} 건수의 총합은 얼마입니까?"))
            else:
                word = "가장 많은" if p["op"] == "map_argmax" else "가장 적은"
                who = _f(catalog, p["label"]["from_tool"], p["label"]["field"]) if p.get("label") and p["label"].get("from_tool") else "대상"
                s = rng.choice((f"{t} 건수가 {word} {josa(who, '은')} 무엇인가요? (같으면 먼저 나온 것)",
                                f"{t} 결과가 {word} {josa(who, '을')} 알려 주세요. (동률이면 앞의 것)"))
        elif k == "sem":
            names = [_t(catalog, c[0]) for c in p["calls"]]
            asks = []
            for (tool, _a, _prm), m in zip(p["calls"], p["metrics"]):
                asks.append(f"{_t(catalog, tool)}의 {_f(catalog, tool, m['field'])}" if m["op"] == "pick"
                            else f"{_t(catalog, tool)} 건수")
            s = rng.choice((f"같은 값으로 {josa(names[0], '과')} {josa(names[1], '을')} 함께 조회해서, {josa(asks[0], '과')} {josa(asks[1], '을')} 차례로 알려 주세요.",
                            f"그 값 하나로 {names[0]}, {names[1]}를 동시에 조회했을 때 {asks[0]}, {asks[1]}는 각각 무엇인가요?"))
        elif k == "cmp":
            t = _t(catalog, p["target"])
            ld = _f(catalog, p["tool"], p["label"])
            a, b = p["names"]
            m = p["metric"]
            what = f"{t} 건수" if m["op"] == "count" else f"{t}의 {_f(catalog, p['target'], m['key'])} {'합계' if m['op'] == 'sum' else '최댓값'}"
            fd = _f(catalog, p["tool"], p["field"]) if p.get("field") else "값"
            s = rng.choice((f"{_t(catalog, p['tool'])}에서 {ld} '{a}'와(과) '{b}'의 {josa(fd, '을')} 찾아 각각 {josa(t, '을')} 조회하고 {josa(what, '을')} 비교하면 어느 쪽이 더 큰가요?",
                            f"'{a}'와(과) '{b}' 중 {josa(what, '이')} 더 많은 쪽은 어디인가요? ({ld} 기준으로 {_t(catalog, p['tool'])}에서 찾아서)"))
        elif k == "cond":
            t = _t(catalog, p["tool"])
            then_t = _t(catalog, p["then"]["target"])
            s = rng.choice((f"{t} 결과가 {p['k']}건 이상이면, 그 결과로 {josa(then_t, '을')} 조회한 건수를 답하고, 아니면 {t} 건수를 답해 주세요.",
                            f"만약 {t}가 {p['k']}건 이상 나오면 이어서 {josa(then_t, '을')} 조회해 그 건수를, 그렇지 않으면 {t} 건수를 알려 주세요."))
        else:
            raise ValueError(f"no template for part kind={k!r}")
        if s:
            out.append(s)
    return " ".join(out)


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
