"""What the synthesizer may do with a tool's fields: name them, sum them, group by them.

Decided from the catalog ``FieldSpec`` (type, ``code`` flag, description) and from the
records a call actually returned (a "number" field must hold numbers there).
"""

from __future__ import annotations

import re
from typing import Any

from simulator import Catalog, Endpoint
from simulator.cache import BoundedCache
from simulator.tools import num

from ..observe import scalar
from .korean import clean_desc
from .semantics import field_type

__all__ = ["QUANTITIES", "FieldMemo", "FieldRoles", "column", "field_desc", "roles", "tool_desc"]

def column(records: list[dict[str, Any]], name: str) -> list[str | None]:
    """``scalar`` of field ``name`` for every record."""
    return [scalar(r.get(name)) for r in records]


_DATE = re.compile(r"(ymd|dt|date|_de$|일자|일시|날짜|시각|time|연도|year|^ay$|dtm|birth|기념일|생년|_ym$|yy)", re.I)
_IDLIKE = re.compile(r"(cd$|code|_id$|id$|^id|_no$|no$|번호|코드|seq|sn$|link|url|tel|email|image|mst|^num$|giho|order)", re.I)
#: A record's bookkeeping, not its content: when the row was loaded or last changed
#: (NEIS's ``LOAD_DTM`` 수정일자). Nobody asks for it, so no question picks it.
#: Numbers people cite by themselves (a case number from a ruling, a bill number from the news):
#: labels a question may name a record by, not codes to look up.
_CITABLE = re.compile(r"^(사건번호|의안번호|BILL_NO|routeno)$", re.I)
_BOOKKEEPING = re.compile(r"(load_dtm|_dtm$|mdfcn|updt|last_?mod|수정일|적재일|최종수정|갱신일)", re.I)
_LABEL = re.compile(r"(nm$|name$|_nm|명$|명한글|이름|명칭|title)", re.I)
_LABEL_DESC = re.compile(r"(명$|이름|명칭|제목|이름\b)")


def bookkeeping(ep: Endpoint, name: str) -> bool:
    """Whether field ``name`` of ``ep`` records when its row was loaded or changed.

    >>> from simulator import load_catalog
    >>> ep = load_catalog(tier="curated").endpoint("neis_class_info")
    >>> bookkeeping(ep, "LOAD_DTM"), bookkeeping(ep, "CLASS_NM")
    (True, False)
    """
    f = next((f for f in ep.fields if f.name == name), None)
    return bool(_BOOKKEEPING.search(name) or f is not None and _BOOKKEEPING.search(f.description or ""))


def field_desc(ep: Endpoint, name: str) -> str:
    """The Korean noun a question uses for field ``name`` of ``ep`` (its catalog description)."""
    for f in ep.fields:
        if f.name == name:
            return clean_desc(f.description, name)
    return name


def tool_desc(ep: Endpoint) -> str:
    """The tool's summary as a noun phrase."""
    return clean_desc(ep.summary, ep.id)


#: Semantic types a "number" field may have (quantities; never a coordinate, code or id).
QUANTITIES = ("count", "money", "ratio", "measure", "ordinal")


class FieldRoles:
    """Label, number and category fields of one call result, and each number's semantic type."""

    def __init__(self, label: list[str], number: list[str], category: list[str],
                 types: dict[str, str] | None = None) -> None:
        self.label, self.number, self.category = label, number, category
        self.types = types or {}

    def numbers_for(self, op: str) -> list[str]:
        """The number fields reduction ``op`` may read (:func:`edge.synth.semantics.allowed`)."""
        from .semantics import allowed

        return [n for n in self.number if allowed(op, self.types.get(n, "text"))]


def roles(catalog: Catalog, tool: str, records: list[dict[str, Any]]) -> FieldRoles:
    """Roles of ``tool``'s fields given the ``records`` one call returned."""
    return _roles(catalog, tool, records)


class FieldMemo:
    """Columns and field roles of call results, kept by their owner (a sampler), bounded.

    A result is known by its list's identity; each entry holds the list, so an id is never
    reused while it is kept.
    """

    def __init__(self, catalog: Catalog, size: int = 4096) -> None:
        self.catalog = catalog
        self._columns: BoundedCache[tuple[int, str], tuple[list[dict[str, Any]], list[str | None]]] = (
            BoundedCache(size * 4)
        )
        self._roles: BoundedCache[tuple[str, int, int], tuple[list[dict[str, Any]], FieldRoles]] = (
            BoundedCache(size)
        )

    def column(self, records: list[dict[str, Any]], name: str) -> list[str | None]:
        """``column(records, name)``, computed once per result list."""
        key = (id(records), name)
        hit = self._columns.get(key)
        if hit is not None and hit[0] is records and len(hit[1]) == len(records):
            return hit[1]
        col = column(records, name)
        self._columns.put(key, (records, col))
        return col

    def roles(self, tool: str, records: list[dict[str, Any]]) -> FieldRoles:
        """``roles(catalog, tool, records)``, computed once per result list."""
        key = (tool, id(records), len(records))
        hit = self._roles.get(key)
        if hit is not None and hit[0] is records:
            return hit[1]
        fr = _roles(self.catalog, tool, records)
        self._roles.put(key, (records, fr))
        return fr


def _roles(catalog: Catalog, tool: str, records: list[dict[str, Any]]) -> FieldRoles:
    ep = catalog.endpoint(tool)
    specs = {f.name: f for f in ep.fields}
    names = list(specs) or (list(records[0]) if records else [])
    label: list[str] = []
    number: list[str] = []
    category: list[str] = []
    types: dict[str, str] = {}
    n = len(records)
    for name in names:
        spec = specs.get(name)
        desc = spec.description if spec else ""
        citable = bool(_CITABLE.search(name))
        is_code = not citable and (bool(spec and spec.code) or bool(_IDLIKE.search(name)) or "코드" in desc)
        is_date = bool(_DATE.search(name)) or bool(_DATE.search(desc[:12]))
        vals = column(records, name)
        present = [v for v in vals if v is not None]
        if not present or len(present) < 0.9 * n:
            continue
        nums = [num(v) for v in present]
        numeric_share = sum(x == x for x in nums) / len(present)  # NaN: not a number
        distinct = len(set(present))
        stype = field_type(catalog, tool, name)
        if (not is_code and not is_date and numeric_share >= 0.95 and stype in QUANTITIES
                and (spec is None or spec.type in ("integer", "number") or numeric_share == 1.0)
                and distinct >= 2):
            number.append(name)
            types[name] = stype
            continue
        if is_code or is_date or numeric_share > 0.5 and not citable:
            continue
        avg_len = sum(len(v) for v in present) / len(present)
        if (citable or _LABEL.search(name) or _LABEL_DESC.search(clean_desc(desc, ""))) and distinct >= max(2, 0.3 * n) and avg_len <= 40:
            label.append(name)
        elif 2 <= distinct <= 12 and distinct < n and avg_len <= 20:
            category.append(name)
    return FieldRoles(label, number, category, types)
