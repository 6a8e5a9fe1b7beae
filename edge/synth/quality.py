"""What a reader of a synthesized set would count against it: meaning, raw codes, coverage, size.

These are the measures behind the meaning rules of :mod:`edge.synth.checks` and the figures
`scripts/synth_audit.py` prints for a run folder (docs/synthesis.md, *Quality*):

* :func:`period_fields` / :func:`unscoped_periods` — a count, sum, mean, extreme or comparison
  over records that span more than one period (a school's classes of two 학년도, a company's
  filings of three years) without the program restricting them to one: the answer then mixes
  periods the question never names;
* :func:`raw_tokens` — codes, ids and coordinates a person would not know, as they stand in a
  question (``SJB8000187``, ``967805.922479``, ``7010057``);
* :func:`conversation_chars` — the characters of a conversation's messages (what a context holds);
* :func:`platform_shares` — the share of examples that touch each main platform.

The period of a field comes from the catalog's field semantics (:func:`~edge.synth.semantics.
field_type` says *date*), narrowed to the fields that name a period rather than an instant:
a year, a school year, a month, a reporting term (``AY`` 학년도, ``bsns_year``, ``…_ym``,
기준년월). A trade's day (``dealDay``) varies inside the month the question states and is no
period of its own.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from simulator import Catalog
from simulator.tools import CallStep, OpStep, Program

from ..observe import scalar
from .semantics import field_type

__all__ = ["AGGREGATES", "conversation_chars", "if_else_ask", "opener_stats", "period_fields", "period_kind", "period_text",
           "platform_shares", "raw_tokens", "unit_of", "unscoped_periods"]

#: Program ops whose value depends on how many records they read (a count, a sum, an extreme):
#: their scope must be one the question states.
AGGREGATES = frozenset({"count", "sum", "mean", "max", "min", "argmax", "argmin", "sort", "group_count"})

#: Names and labels of fields that carry a period (not an instant): year, school year, month, term.
_PERIOD_NAME = re.compile(r"(^ay$|year|^yr$|_yy$|^yy|_ym$|^ym$|yyyymm|^deal_?ym|bsns_year|stdr_?ym|base_?ym|"
                          r"^sg_?year|^trm$|term$|_yr$)", re.I)
_PERIOD_DESC = re.compile(r"(학년도|연도|년도|년월|연월|기준년|기준월|사업연도|회계연도|결산연도|분기|반기|기수$)")


def period_kind(catalog: Catalog, tool: str, name: str) -> str | None:
    """The period a field of ``tool`` names (``school_year``, ``year``, ``month``), or None.

    >>> from simulator import load_catalog
    >>> c = load_catalog(tier="curated")
    >>> period_kind(c, "neis_class_info", "AY"), period_kind(c, "neis_class_info", "GRADE")
    ('school_year', None)
    >>> period_kind(c, "molit_rh_trades", "buildYear") is None   # the building's year, not a period
    True
    """
    spec = next((f for f in catalog.endpoint(tool).fields if f.name == name), None)
    desc = (spec.description or "") if spec else ""
    if not (_PERIOD_NAME.search(name) or _PERIOD_DESC.search(desc)) or _ATTRIBUTE.search(f"{name} {desc}"):
        return None
    if field_type(catalog, tool, name) not in ("date", "ordinal", "measure", "text", "code"):
        return None
    if "학년도" in desc or name.upper() == "AY":
        return "school_year"
    if re.search(r"(년월|연월|_ym$|^ym$|yyyymm|기준월)", desc + " " + name, re.I):
        return "month"
    return "year"

#: A year that describes the thing itself (built, born, founded), not the period a record
#: counts in: records of many build years are one month's trades.
_ATTRIBUTE = re.compile(r"(건축|생년|출생|설립|창립|준공|개교|개원|build|birth|found|estab|open|constr)", re.I)


def period_fields(catalog: Catalog, tool: str, records: Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Period fields of ``tool`` whose values differ across ``records``: field → sorted values."""
    recs = list(records)
    if len(recs) < 2:
        return {}
    names = dict.fromkeys(k for r in recs[:50] for k in r if k != "_item")
    out: dict[str, list[str]] = {}
    for name in names:
        if period_kind(catalog, tool, name) is None:
            continue
        vals = sorted({v for r in recs if (v := scalar(r.get(name)))})
        if len(vals) > 1:
            out[name] = vals
    return out


def period_text(kind: str, value: str) -> str:
    """A period value as a person says it: ``2025`` → ``2025학년도`` / ``2025년``, ``202407`` →
    ``2024년 7월``.

    >>> period_text("school_year", "2025"), period_text("month", "202407"), period_text("year", "2023")
    ('2025학년도', '2024년 7월', '2023년')
    """
    v = value.strip()
    if kind == "month" and re.fullmatch(r"\d{6}", v):
        return f"{v[:4]}년 {int(v[4:])}월"
    if kind == "month" and re.fullmatch(r"\d{4}[-.]\d{2}", v):
        return f"{v[:4]}년 {int(v[5:])}월"
    if kind == "school_year":
        return f"{v}학년도"
    if re.fullmatch(r"\d{4}", v):
        return f"{v}년"
    return v


def _pinned(step: OpStep) -> set[str]:
    """Fields an op's ``where`` fixes to one value."""
    return {w.field for w in (step.where or []) if w.op in ("eq", "==", "=")}


def unscoped_periods(prog: Program, values: Mapping[str, Any], catalog: Catalog) -> list[tuple[str, str]]:
    """(op step id, period field) of every aggregate that reads records of several periods
    without restricting them to one: the count of a school's classes over two 학년도 the
    question never names. A filter step between the call and the aggregate counts as the
    restriction when it pins the field."""
    bad: list[tuple[str, str]] = []
    for s in prog.steps:
        if not isinstance(s, OpStep) or s.op not in AGGREGATES or s.from_ is None:
            continue
        pinned = set(_pinned(s))
        src = prog.step(s.from_)
        while isinstance(src, OpStep) and src.op == "filter" and src.from_ is not None:
            pinned |= _pinned(src)
            src = prog.step(src.from_)
        if not isinstance(src, CallStep):
            continue
        recs = values.get(src.id)
        if not isinstance(recs, list):
            continue
        for f in period_fields(catalog, src.call, recs):
            if f not in pinned:
                bad.append((s.id, f))
    return bad


#: Tokens a person would not type: letter+digit ids (SJB8000187, B10 is short enough to pass),
#: long digit runs (7010057, 1168010300), and coordinates with many decimals (967805.922479, 36.8195).
_RAW = re.compile(r"(?<![\w.])("
                  r"[A-Za-z]{1,5}\d{5,}[A-Za-z0-9]*"      # SJB8000187, CAB285007963
                  r"|\d{5,}(?:\.\d+)?"                      # 7010057, 967805.922479 (dates are in words)
                  r"|\d{1,3}\.\d{3,}"                       # 36.8195, 127.1566
                  r")(?![\w.])"
                  r"|'([A-Z]{1,2})'")                        # a quoted letter code: 주기 'D'


def raw_tokens(question: str) -> list[str]:
    """The raw codes, ids and coordinates in ``question`` (not dates: those are in words).

    >>> raw_tokens("'세종특별시' 정류장 ID SJB8000187 노선, 위도 36.8195")
    ['SJB8000187', '36.8195']
    >>> raw_tokens("주기가 'D'인 한국은행 통계표")
    ['D']
    >>> raw_tokens("2024년 7월 서울특별시 마포구의 아파트 매매는 몇 건이에요?")
    []
    """
    return [m.group(1) or m.group(2) for m in _RAW.finditer(question)]


def conversation_chars(messages: list[dict[str, Any]]) -> int:
    """Characters of a conversation's messages: every content and every tool call's arguments."""
    n = 0
    for m in messages:
        n += len(m.get("content") or "")
        for c in m.get("tool_calls") or []:
            n += len(c["function"]["name"]) + len(c["function"]["arguments"])
    return n


def platform_shares(examples: list[Mapping[str, Any]], platforms: Iterable[str]) -> dict[str, float]:
    """Share of examples touching each of ``platforms`` (a provider id: ``gen_`` folded in)."""
    c: Counter[str] = Counter()
    for e in examples:
        for p in {str(x).removeprefix("gen_") for x in e.get("platforms", [])}:
            c[p] += 1
    total = max(1, len(examples))
    return {p: round(c[p] / total, 4) for p in platforms}


#: A unit a catalog description gives a quantity in: ``거래금액 (만원)``, ``면적 (㎡)``.
_UNIT = re.compile(r"\(\s*(?:단위\s*[:：]?\s*)?(만원|천원|백만원|억원|원|㎡|m²|km|kcal|%)(?=[\s,;)])")


def unit_of(catalog: Catalog, tool: str, name: str) -> str | None:
    """The unit the catalog states for field ``name`` of ``tool`` (None when it states none).

    >>> from simulator import load_catalog
    >>> unit_of(load_catalog(tier="curated"), "molit_offi_trades", "dealAmount")
    '만원'
    """
    spec = next((f for f in catalog.endpoint(tool).fields if f.name == name), None)
    m = _UNIT.search((spec.description or "") if spec else "")
    return m.group(1) if m else None


def opener_stats(frames: Iterable[str | None], sample: int = 40) -> dict[str, Any]:
    """How often questions open the same way (:func:`edge.synth.asks.opener_frame` of each
    example's template; None for one that opens with no frame): the most common frame, its share
    of all examples, and the number of pairs of a random ``sample`` of questions expected to open
    with the same frame (``C(sample, 2) × Σ share²``), which is what a blind reader of 40 notices.

    >>> s = opener_stats(["… 말인데요,"] * 6 + [None] * 34)
    >>> s["top"], s["top_share"], s["pairs_in_sample"]
    ('… 말인데요,', 0.15, 17.55)
    """
    fs = list(frames)
    n = max(1, len(fs))
    c = Counter(f for f in fs if f)
    top = c.most_common(1)
    pairs = sample * (sample - 1) / 2 * sum((v / n) ** 2 for v in c.values())
    return {"top": top[0][0] if top else None, "top_share": round(top[0][1] / n, 4) if top else 0.0,
            "with_frame": round(sum(c.values()) / n, 4), "frames": len(c), "pairs_in_sample": round(pairs, 2)}


#: A threshold asked yes/no, then two branches laid out after it ("200건은 됐나요? 그만큼
#: 활발했다면 … 아니면 …만", "…이상입니까? 그렇다면 …, 아니라면 …"): a program's if/else.
_IF_ELSE = re.compile(r"(?:됐나요|되나요|있었나요|팔렸나요|이상인지|이상입니까|이상인가요)[?.].*"
                      r"(?:아니면|아니라면|적었다면|안 된다면|미만이라면|그보다 적)")


def if_else_ask(question: str) -> bool:
    """Whether ``question`` asks a threshold yes/no and then lays out both branches.

    >>> if_else_ask("오피스텔이 200건은 됐나요? 그렇다면 빌라도, 아니면 오피스텔만 알려 주세요.")
    True
    >>> if_else_ask("오피스텔이 몇 건 팔렸는지 알려 주세요. 50건도 안 됐다면 대신 빌라 매매 건수를 알려 주세요.")
    False
    """
    return bool(_IF_ELSE.search(question))
