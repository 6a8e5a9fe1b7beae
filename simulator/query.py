"""Query semantics: select and order records of a full collection by filter values.

Shared by the resolver's query tier and the sandbox, so both answer a filter the same way.
"""

from __future__ import annotations

from typing import Any, Iterable

from .catalog import Endpoint, FilterRule

__all__ = ["IndexedRecords", "apply_order", "apply_query", "query_split", "requested_order", "transform_value"]


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
    if rule.when is not None:
        switched = rule.when.get(wanted)
        if switched is None:
            return True  # the switch's default: every record
        wanted = switched
    have = transform_value(record.get(rule.field), rule.transform)
    if rule.op == "not_prefix":
        return not have.startswith(wanted)
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


class IndexedRecords:
    """A full collection's records, with an equality index per (field, transform) built on
    first use: ``select`` gives what ``apply_query`` gives, without scanning every record
    when a query has an ``equals`` filter (a code looked up in 20,000 legal-dong records).

    >>> from simulator.catalog import Endpoint, QuerySemantics, FilterRule, Param
    >>> ep = Endpoint(id="demo_codes", operation="x", summary="s", path="/x",
    ...     params=[Param(name="cd", role="filter")],
    ...     query=QuerySemantics(filters=[FilterRule(param="cd", field="code")]))
    >>> IndexedRecords([{"code": "11"}, {"code": "26"}]).select(ep, {"cd": "26"})
    [{'code': '26'}]
    """

    def __init__(self, records: list[dict[str, Any]]) -> None:
        self.records = records
        self._equal: dict[tuple[str, str | None], dict[str, list[int]]] = {}

    def _index(self, field: str, transform: str | None) -> dict[str, list[int]]:
        found = self._equal.get((field, transform))
        if found is None:
            found = {}
            for i, rec in enumerate(self.records):
                found.setdefault(transform_value(rec.get(field), transform), []).append(i)
            self._equal[(field, transform)] = found  # built whole, then shared (threads)
        return found

    def select(self, endpoint: Endpoint, query: dict[str, str]) -> list[dict[str, Any]]:
        """``apply_query(endpoint, self.records, query)``."""
        rules = [] if endpoint.query is None else endpoint.query.filters
        for rule in rules:
            if rule.param in query and rule.op == "equals" and rule.when is None:
                hits = self._index(rule.field, rule.transform).get(query[rule.param], [])
                # The records that can match, in recorded order: every rule (this one too)
                # and the order are then applied to them as to the whole collection.
                return apply_query(endpoint, [self.records[i] for i in hits], query)
        return apply_query(endpoint, self.records, query)


def requested_order(endpoint: Endpoint, params: dict[str, str]) -> tuple[str, bool, bool] | None:
    """What the request's ``order`` params ask: (field, descending, same key as recorded), or
    None when they ask for the recorded (default) order or the endpoint has none.

    A sort-key param maps its values to record fields, a direction param to ``asc``/``desc``
    (``Param.orders``); an unknown value counts as the default, as the real APIs treat it.
    """
    key_param = dir_param = None
    for p in endpoint.params:
        if p.role != "order":
            continue
        if set(p.orders.values()) <= {"asc", "desc"}:
            dir_param = p
        else:
            key_param = p
    if key_param is None and dir_param is None:
        return None

    def pick(p: Any) -> tuple[str, str]:
        default = p.orders[p.default]
        return p.orders.get(params.get(p.name, p.default), default), default

    if key_param is None:
        return None  # a direction alone has no field to order by
    fld, default_fld = pick(key_param)
    desc, default_desc = True, True
    # One param naming key and direction together (law.go.kr ``sort=ldes``: "법령명한글 desc").
    fld, own = _with_direction(fld)
    default_fld, default_own = _with_direction(default_fld)
    if own is not None and default_own is not None:
        desc, default_desc = own == "desc", default_own == "desc"
    if dir_param is not None:
        d, dd = pick(dir_param)
        desc, default_desc = d == "desc", dd == "desc"
    if fld == default_fld and desc == default_desc:
        return None
    return fld, desc, fld == default_fld


def _with_direction(value: str) -> tuple[str, str | None]:
    """``"field desc"`` → ``("field", "desc")``; a bare ``"field"`` → ``("field", None)``."""
    head, _, tail = value.rpartition(" ")
    return (head, tail) if head and tail in ("asc", "desc") else (value, None)


def apply_order(
    endpoint: Endpoint, records: list[dict[str, Any]], params: dict[str, str]
) -> list[dict[str, Any]] | None:
    """``records`` (in the recorded, default order) in the order the request's ``order``
    params ask for; None when that is the recorded order.

    The same key in the other direction is the recorded list reversed (ties too, as a
    database reverses ``ORDER BY``); another key is a stable sort on that field.

    >>> from simulator.catalog import Endpoint, Param
    >>> ep = Endpoint(id="demo_list", operation="x", summary="s", path="/x", params=[
    ...     Param(name="sort", role="order", default="date", orders={"date": "d", "nm": "n"}),
    ...     Param(name="sort_mth", role="order", default="desc", orders={"asc": "asc", "desc": "desc"})])
    >>> rows = [{"d": "2", "n": "b"}, {"d": "1", "n": "a"}]
    >>> apply_order(ep, rows, {"sort_mth": "asc"})
    [{'d': '1', 'n': 'a'}, {'d': '2', 'n': 'b'}]
    >>> apply_order(ep, rows, {"sort": "date", "sort_mth": "desc"}) is None
    True
    >>> law = Endpoint(id="demo_law", operation="x", summary="s", path="/x", params=[
    ...     Param(name="sort", role="order", default="lasc", orders={"lasc": "n asc", "ldes": "n desc", "ddes": "d desc"})])
    >>> apply_order(law, rows, {"sort": "ldes"}), apply_order(law, rows, {"sort": "ddes"}) == rows
    ([{'d': '1', 'n': 'a'}, {'d': '2', 'n': 'b'}], True)
    """
    wanted = requested_order(endpoint, params)
    if wanted is None:
        return None
    fld, desc, same_key = wanted
    if same_key:
        return list(reversed(records))
    return sorted(records, key=lambda r: _sort_key(r.get(fld)), reverse=desc)


def _sort_key(value: Any) -> tuple[bool, int, str]:
    """Missing last; numerals by their value (공포번호 9 before 10), other text as text."""
    text = "" if value is None else str(value)
    numeral = text.isascii() and text.isdigit() and len(text) < 19
    return value is None, int(text) if numeral else 0, "" if numeral else text
