"""Drift between two versions (``simulator diff A B``, and the recorder's closing report)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..catalog import Catalog
from .store import Version

__all__ = ["CollectionDrift", "Drift", "diff_versions"]


def _type_name(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    return type(v).__name__


@dataclass
class CollectionDrift:
    key: str
    endpoint: str
    added: int = 0
    removed: int = 0
    changed: int = 0
    total_before: int | None = None
    total_after: int | None = None

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed) and self.total_before == self.total_after


@dataclass
class Drift:
    a: str
    b: str
    endpoints_added: list[str] = field(default_factory=list)
    endpoints_removed: list[str] = field(default_factory=list)
    collections_added: list[str] = field(default_factory=list)
    collections_removed: list[str] = field(default_factory=list)
    collections_changed: list[CollectionDrift] = field(default_factory=list)
    interactions_added: int = 0
    interactions_removed: int = 0
    interactions_changed: int = 0
    fields_added: dict[str, list[str]] = field(default_factory=dict)
    fields_removed: dict[str, list[str]] = field(default_factory=dict)
    fields_retyped: dict[str, list[str]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not any(
            [
                self.endpoints_added,
                self.endpoints_removed,
                self.collections_added,
                self.collections_removed,
                self.collections_changed,
                self.interactions_added,
                self.interactions_removed,
                self.interactions_changed,
                self.fields_added,
                self.fields_removed,
                self.fields_retyped,
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)

    def to_markdown(self) -> str:
        lines = [f"# Drift {self.a} → {self.b}", ""]
        if self.empty:
            return "\n".join(lines + ["No drift: same endpoints, collections and records."]) + "\n"
        for title, items in (
            ("Endpoints added", self.endpoints_added),
            ("Endpoints removed", self.endpoints_removed),
            ("Collections added", self.collections_added),
            ("Collections removed", self.collections_removed),
        ):
            if items:
                lines.append(f"- {title} ({len(items)}): " + ", ".join(items[:20]) + (" …" if len(items) > 20 else ""))
        lines.append(
            f"- Interactions: +{self.interactions_added} −{self.interactions_removed} "
            f"~{self.interactions_changed}"
        )
        for title, d in (
            ("Fields added", self.fields_added),
            ("Fields removed", self.fields_removed),
            ("Fields retyped", self.fields_retyped),
        ):
            for ep, names in sorted(d.items()):
                lines.append(f"- {title} in {ep}: {', '.join(names)}")
        if self.collections_changed:
            lines += ["", "| collection | added | removed | changed | total before | total after |",
                      "|---|---:|---:|---:|---:|---:|"]
            for c in self.collections_changed:
                lines.append(
                    f"| `{c.key}` | {c.added} | {c.removed} | {c.changed} | {c.total_before} | {c.total_after} |"
                )
        return "\n".join(lines) + "\n"


def _identity(catalog: Catalog | None, endpoint: str) -> list[str]:
    if catalog is None or endpoint not in catalog.endpoints:
        return []
    return [f.name for f in catalog.endpoints[endpoint].fields if f.code]


def _field_types(records: list[dict[str, Any]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in records:
        for k, v in r.items():
            if v is not None:
                out.setdefault(k, set()).add(_type_name(v))
            else:
                out.setdefault(k, set())
    return out


def diff_versions(a: Version, b: Version, catalog: Catalog | None = None,
                  progress: Callable[[int, int | None, str], None] | None = None) -> Drift:
    """What changed from version ``a`` to version ``b``.

    ``progress(done, total, stage)`` is told how far the comparison is (the CLI's bar): the
    collections one by one, then the interactions.
    """
    tick = progress or (lambda _d, _t, _s: None)
    drift = Drift(a.id, b.id)
    ea, eb = set(a.manifest.endpoints), set(b.manifest.endpoints)
    drift.endpoints_added = sorted(eb - ea)
    drift.endpoints_removed = sorted(ea - eb)
    ca = {c.key: c for c in a.collections()}
    cb = {c.key: c for c in b.collections()}
    drift.collections_added = sorted(set(cb) - set(ca))
    drift.collections_removed = sorted(set(ca) - set(cb))
    types_a: dict[str, dict[str, set[str]]] = {}
    types_b: dict[str, dict[str, set[str]]] = {}
    keys = sorted(set(ca) | set(cb))
    for done, key in enumerate(keys):
        tick(done, len(keys), "comparing collections")
        ra = a.index.records(ca[key].id, 0, ca[key].count) if key in ca else []
        rb = b.index.records(cb[key].id, 0, cb[key].count) if key in cb else []
        ep = (ca.get(key) or cb[key]).endpoint
        for src, dst in ((ra, types_a), (rb, types_b)):
            for name, ts in _field_types(src).items():
                dst.setdefault(ep, {}).setdefault(name, set()).update(ts)
        if key not in ca or key not in cb:
            continue
        ident = _identity(catalog, ep)
        dumps = lambda r: json.dumps(r, ensure_ascii=False, sort_keys=True)  # noqa: E731
        sa, sb = Counter(map(dumps, ra)), Counter(map(dumps, rb))
        gone = list((sa - sb).elements())
        new = list((sb - sa).elements())
        changed = 0
        if ident:
            ida = Counter(tuple(json.loads(g).get(f) for f in ident) for g in gone)
            idb = Counter(tuple(json.loads(n).get(f) for f in ident) for n in new)
            changed = sum((ida & idb).values())
        cd = CollectionDrift(
            key,
            ep,
            added=len(new) - changed,
            removed=len(gone) - changed,
            changed=changed,
            total_before=ca[key].total,
            total_after=cb[key].total,
        )
        if not cd.empty:
            drift.collections_changed.append(cd)
    for ep in sorted(set(types_a) & set(types_b)):
        fa, fb = types_a[ep], types_b[ep]
        if set(fb) - set(fa):
            drift.fields_added[ep] = sorted(set(fb) - set(fa))
        if set(fa) - set(fb):
            drift.fields_removed[ep] = sorted(set(fa) - set(fb))
        retyped = [f for f in sorted(set(fa) & set(fb)) if fa[f] and fb[f] and fa[f] != fb[f]]
        if retyped:
            drift.fields_retyped[ep] = [
                f"{f} ({'/'.join(sorted(fa[f]))} → {'/'.join(sorted(fb[f]))})" for f in retyped
            ]
    tick(len(keys), len(keys), "comparing collections")
    ia = dict(a.index.interaction_requests(None, limit=10**9))
    ib = dict(b.index.interaction_requests(None, limit=10**9))
    drift.interactions_added = len(set(ib) - set(ia))
    drift.interactions_removed = len(set(ia) - set(ib))
    both = set(ia) & set(ib)
    for done, fp in enumerate(both):
        tick(done, len(both), "comparing interactions")
        x, y = a.index.interaction(fp), b.index.interaction(fp)
        if x != y:
            drift.interactions_changed += 1
    return drift
