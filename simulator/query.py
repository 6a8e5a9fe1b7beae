"""Query semantics: select and order records of a full collection by filter values.

Shared by the resolver's query tier and the sandbox, so both answer a filter the same way.
"""

from __future__ import annotations

from typing import Any, Iterable

from .catalog import Endpoint, FilterRule

__all__ = ["apply_query", "query_split", "transform_value"]


def transform_value(value: Any, transform: str | None) -> str:
    text = "" if value is None else str(value)
    if not transform:
        return text
    for step in transform.split("|"):
        if step.startswith("slice:"):
            _, a, b = (step.split(":") + [""])[:3]
            text = text[int(a or 0) : int(b) if b else None]
        elif step == "digits":
            text = "".join(ch for ch in text if ch.isdigit())
        elif step == "lower":
            text = text.lower()
        elif step == "strip":
            text = text.strip()
        elif step == "nospace":
            text = "".join(text.split())
    return text


def _matches(record: dict[str, Any], rule: FilterRule, wanted: str) -> bool:
    have = transform_value(record.get(rule.field), rule.transform)
    if rule.op == "equals":
        return have == wanted
    if rule.op == "prefix":
        return have.startswith(wanted)
    if rule.op == "contains":
        return wanted in have
    if rule.op in ("min", "max"):
        a, b = (have, wanted) if rule.op == "min" else (wanted, have)
        try:
            return float(a.replace(",", "")) >= float(b.replace(",", ""))
        except ValueError:
            return a >= b  # YYYYMMDD-style strings order correctly as text
    raise AssertionError(rule.op)


def query_split(endpoint: Endpoint, filters: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """Split key filters into (base filters of the full collection, query filters).

    Query filters are the params named by the endpoint's query semantics; the rest
    identify the full collection they select from.
    """
    if endpoint.query is None:
        return dict(filters), {}
    qnames = {r.param for r in endpoint.query.filters}
    base = {k: v for k, v in filters.items() if k not in qnames}
    query = {k: v for k, v in filters.items() if k in qnames}
    return base, query


def apply_query(
    endpoint: Endpoint, records: Iterable[dict[str, Any]], query: dict[str, str]
) -> list[dict[str, Any]]:
    """Records of ``records`` that every query filter selects, in the declared order.

    >>> from simulator.catalog import Endpoint, QuerySemantics, FilterRule, Param
    >>> ep = Endpoint(id="demo_search", operation="x", summary="s", path="/x",
    ...     params=[Param(name="q", role="filter")],
    ...     query=QuerySemantics(filters=[FilterRule(param="q", field="name", op="contains")]))
    >>> apply_query(ep, [{"name": "서울"}, {"name": "부산"}], {"q": "서"})
    [{'name': '서울'}]
    """
    rules = [] if endpoint.query is None else list(endpoint.query.filters)
    active = [(r, query[r.param]) for r in rules if r.param in query]
    out = [r for r in records if all(_matches(r, rule, v) for rule, v in active)]
    order = [] if endpoint.query is None else endpoint.query.order_by
    for name in reversed(order):
        desc = name.startswith("-")
        fld = name.lstrip("-")
        out.sort(key=lambda rec: (rec.get(fld) is None, str(rec.get(fld) or "")), reverse=desc)
    return out
