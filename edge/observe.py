"""What a cassette version shows about each tool, read once: values, recorded params, cardinality.

The proposers compare these values (overlap, formats) and the verifier feeds them into calls.
Everything is read through the public ``Version`` (its collections and their records).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulator import Catalog, Version

__all__ = ["Observations", "endpoint_digest", "scalar"]


def scalar(value: Any) -> str | None:
    """A record value as the string a request would carry; None for objects, lists, empties."""
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    return text or None


@dataclass
class Observations:
    """Per endpoint: distinct field values, recorded request params and per-call cardinality.

    Attributes:
        content_hash: the version these come from ("" for none).
        field_values: endpoint → field → distinct values in recorded order (capped).
        filters: endpoint → the filter dicts its collections were recorded with.
        param_values: endpoint → param → values it was recorded with.
        distinct_per_call: endpoint → field → distinct-value count of each recorded collection.
    """

    content_hash: str = ""
    field_values: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    filters: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    param_values: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    distinct_per_call: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    @classmethod
    def from_version(
        cls,
        version: Version,
        catalog: Catalog,
        *,
        max_records: int = 30000,
        max_values: int = 50000,
    ) -> Observations:
        """Read ``version``: at most ``max_records`` records per endpoint, ``max_values`` per field."""
        obs = cls(content_hash=version.content_hash)
        read: dict[str, int] = {}
        seen: dict[str, dict[str, dict[str, None]]] = {}
        for info in version.collections():
            ep = info.endpoint
            if ep not in catalog.endpoints:
                continue
            obs.filters.setdefault(ep, []).append(dict(info.filters))
            pv = obs.param_values.setdefault(ep, {})
            for k, v in info.filters.items():
                pv.setdefault(k, set()).add(v)
            budget = max(0, max_records - read.get(ep, 0))
            records = version.index.records(info.id, 0, min(info.count, budget)) if budget else []
            read[ep] = read.get(ep, 0) + len(records)
            values = seen.setdefault(ep, {})
            per_call: dict[str, set[str]] = {}
            for rec in records:
                for k, v in rec.items():
                    s = v if type(v) is str and v and not v[0].isspace() and not v[-1].isspace() else scalar(v)
                    if s is None:
                        continue
                    pc = per_call.get(k)
                    if pc is None:
                        pc = per_call[k] = set()
                    pc.add(s)
            for k, pc in per_call.items():
                lst = values.setdefault(k, {})
                if len(lst) < max_values:
                    lst.update(dict.fromkeys(sorted(pc)[: max_values - len(lst)]))
            card = version.index.cardinality(info.id)
            dpc = obs.distinct_per_call.setdefault(ep, {})
            for k in sorted(set(card) | set(per_call)):
                dpc.setdefault(k, []).append(int(card.get(k, len(per_call.get(k, ())))))
        obs.field_values = {ep: {k: list(d) for k, d in f.items()} for ep, f in seen.items()}
        return obs

    def values(self, endpoint: str, name: str) -> list[str]:
        return self.field_values.get(endpoint, {}).get(name, [])

    def recorded(self, endpoint: str, param: str) -> set[str]:
        return self.param_values.get(endpoint, {}).get(param, set())


def endpoint_digest(obs: Observations, endpoint: str) -> str:
    """A short hash of everything ``obs`` holds about ``endpoint`` (changes when its data does)."""
    import hashlib
    import json

    data = {
        "filters": sorted(json.dumps(f, sort_keys=True, ensure_ascii=False) for f in obs.filters.get(endpoint, [])),
        "values": {k: v for k, v in sorted(obs.field_values.get(endpoint, {}).items())},
        "card": obs.distinct_per_call.get(endpoint, {}),
    }
    blob = json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:16]
