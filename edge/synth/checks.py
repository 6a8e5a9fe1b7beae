"""What every synthesized example must satisfy, checked on its written conversation.

The pipeline drops a draft that fails any of these, and the tests assert them over a
thousand examples:

* **tool_name** — the question names no catalog tool;
* **hidden_argument** — every argument of every tool call (paging, format, auth and catalog
  defaults aside) is stated in the question, as a person would state it (the value, its date
  in words, or its code's label), or appears in an earlier tool message of the conversation;
* **answer_in_question** — the answer (or an intermediate value) is not in the question;
* **meaningless_reduction** — every reduction reads a field whose semantic type it means
  something for (:mod:`edge.synth.semantics`);
* **fake_fan** — every FAN step's set comes from one call's multi-record result, and the
  branches are not all single-record lookups;
* **budget** — no tool message over ``TOOL_MESSAGE_BUDGET`` characters (nothing cut), the
  conversation's tool messages within ``CONVERSATION_BUDGET``;
* **echo** — no step passes on the value it was given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from simulator import Catalog

from .korean import date_text
from .semantics import ALLOWED, field_type
from .writers import CONVERSATION_BUDGET, TOOL_MESSAGE_BUDGET

__all__ = ["CHECKS", "arg_label", "check_example", "is_stated", "quiet_params"]

CHECKS = ("tool_name", "hidden_argument", "answer_in_question", "meaningless_reduction", "fake_fan", "budget", "echo")
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


def is_stated(catalog: Catalog, tool: str, param: str, value: str, text: str) -> bool:
    """Whether ``value`` of ``param`` is stated in ``text`` (raw, as a date, or its label)."""
    if value in text:
        return True
    d = date_text(value)
    if d and d in text:
        return True
    lab = arg_label(catalog, tool, param, value)
    return bool(lab and lab in text)


def _num_in(x: float, q: str) -> bool:
    s = str(int(x)) if float(x).is_integer() else str(x)
    forms = {s, f"{int(x):,}"} if float(x).is_integer() else {s}
    return any(re.search(rf"(?<![\d.,]){re.escape(f)}(?![\d.,]*\d)", q) for f in forms)


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
                    if not (is_stated(catalog, tool, k, str(v), q) or str(v) in seen):
                        hidden = True
        elif m["role"] == "tool":
            seen += m["content"]
            tool_chars += len(m["content"])
            over = over or len(m["content"]) > TOOL_MESSAGE_BUDGET or "…(cut:" in m["content"]
    if hidden:
        bad.append("hidden_argument")
    final = next((s for s in e["gold_program"]["steps"] if s["id"] == e["gold_program"]["answer"]), {})
    # a choice between options the question names (cmp, "which of these has most") answers
    # with one of them: only a number answer could give it away there
    choice = final.get("op") in ("cmp", "map_argmax", "map_argmin")
    vals = [v for v in _answer_values(e["answer"]) if v not in (None, "") and not (choice and isinstance(v, str))]
    inq = False
    for v in vals:
        if isinstance(v, bool):
            continue
        if isinstance(v, (int, float)):
            inq = inq or _num_in(float(v), q)
        elif len(str(v)) >= 2 and str(v) in q:
            inq = True
    if inq or any(len(b) >= 3 and b in q for b in e.get("bound_values", [])):
        bad.append("answer_in_question")
    steps = e["gold_program"]["steps"]
    by_id = {s["id"]: s for s in steps}
    tool_of = {s["id"]: s["tool"] for s in steps if s.get("op") == "call"}
    if not all(_meaningful(s, tool_of, catalog) for s in steps):
        bad.append("meaningless_reduction")
    if not _fans_ok(steps, by_id, run_values):
        bad.append("fake_fan")
    if over or tool_chars > CONVERSATION_BUDGET:
        bad.append("budget")
    if _echoes(steps, run_values):
        bad.append("echo")
    return bad


def _meaningful(s: Mapping[str, Any], tool_of: Mapping[str, str], catalog: Catalog) -> bool:
    op = s.get("op")
    tool = tool_of.get(s.get("from", ""))
    if tool is None or op not in ALLOWED:
        return True
    name = s.get("key") if op != "distinct_count" else s.get("field")
    return name is None or field_type(catalog, tool, name) in ALLOWED[op]


def _fans_ok(steps: list[dict[str, Any]], by_id: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
    for s in steps:
        if not s.get("each"):
            continue
        src = by_id.get(s["each"]["ref"], {})
        call = values.get(src.get("from", ""))
        if src.get("op") not in ("values", "topk", "distinct") or call is None or len(getattr(call, "records", [])) < 2:
            return False
        branches = values.get(s["id"])
        if isinstance(branches, list) and all(len(r.records) <= 1 for _v, r in branches):
            users = [t for t in steps if t.get("from") == s["id"]]
            if any(t["op"] in ("map_sum", "map_argmax", "map_argmin", "map_count") for t in users):
                return False  # summing single-record lookups only counts the names given
    return True


def _echoes(steps: list[dict[str, Any]], values: Mapping[str, Any]) -> bool:
    """A call all of whose passed-on values (read from its result) are values it was given."""
    from ..transforms import apply_transform

    inputs: dict[str, set[str]] = {}
    for s in steps:
        if s.get("op") != "call":
            continue
        got = {str(v) for v in s.get("args", {}).values()}
        for b in (s.get("bind") or {}).values():
            v = values.get(b["ref"])
            if v is not None and not isinstance(v, (list, dict)):
                got |= {str(v), apply_transform(str(v), b.get("transform", ""))}
        if s.get("each"):
            v = values.get(s["each"]["ref"])
            got |= {str(x) for x in v} if isinstance(v, list) else set()
        inputs[s["id"]] = got
    # what each call passes on (the values read from it that feed a later call)
    passed = {b["ref"] for s in steps if s.get("op") == "call" for b in (s.get("bind") or {}).values()}
    passed |= {s["each"]["ref"] for s in steps if s.get("each")}
    out_of: dict[str, set[str]] = {}
    for s in steps:
        if s["id"] in passed and s.get("from") in inputs:
            v = values.get(s["id"])
            out_of.setdefault(s["from"], set()).update({str(x) for x in v} if isinstance(v, list) else {str(v)})
    return any(outs and outs <= inputs[c] for c, outs in out_of.items())
