"""Run a recording plan against the live APIs (or a sandbox) and publish a new version.

Whole collections are fetched at the maximum page size, page after page. Each finished
collection is appended to a checkpoint file (fsynced) beside the set, so a killed job
resumes where it stopped; only when every collection is in does the version builder publish,
atomically. A failure publishes nothing and leaves the checkpoint for the next run.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..catalog import Catalog, Endpoint
from ..dialects import Parsed, collection_key, get_dialect
from ..errors import DialectError, RecordError
from ..fidelity import sniff_format
from ..ignore import collection_filters
from ..query import apply_query, query_split, transform_value
from ..request import SimResponse
from ..secrets import Scrubber, redact_body
from ..store import Manifest, Store, VersionBuilder
from ..store.diff import Drift, diff_versions
from ..store.lock import set_lock
from ..store.oserrors import os_error_message
from .live import LiveClient
from .plan import Plan

__all__ = ["RecordResult", "Recorder"]

_TRANSIENT = {"rate_limited", "server_error"}
_PERMANENT = {"invalid_key", "missing_key", "quota_exceeded", "unknown_operation"}


@dataclass
class RecordResult:
    manifest: Manifest
    drift: Drift | None
    fidelity: dict[str, float] = field(default_factory=dict)
    calls: int = 0
    collections: int = 0
    resumed: int = 0
    warnings: list[str] = field(default_factory=list)
    #: False when the content was already the newest version's (nothing new published).
    published: bool = True


class Recorder:
    """Records a plan. ``progress(done, total, label)`` is called before each collection (``done``
    recorded so far, ``label`` the endpoint it records next) and once before publishing."""

    def __init__(
        self,
        plan: Plan,
        *,
        store: Store,
        catalog: Catalog,
        client: LiveClient,
        set_name: str | None = None,
        source: str = "live",
        exact: bool = False,
        progress: Callable[[int, int | None, str], None] | None = None,
        seed: int = 0,
    ) -> None:
        self.plan = plan
        self.store = store
        self.catalog = catalog
        self.client = client
        self.set_name = set_name or plan.set
        self.source = source
        self.exact = exact
        self.progress = progress or (lambda _d, _t, _l: None)
        self.rng = random.Random(seed)
        self.done: dict[str, dict[str, Any]] = {}
        self.warnings: list[str] = []
        self.pages: list[tuple[Any, SimResponse]] = []
        self._scrubber: Scrubber | None = None
        plan.validate_against(catalog)
        self.checkpoint_dir = store.set_dir(self.set_name) / f".record-{plan.digest()}-{source}"
        self.checkpoint = self.checkpoint_dir / "checkpoint.jsonl"

    # ---- checkpoint ----------------------------------------------------------------
    def _load_checkpoint(self) -> int:
        if not self.checkpoint.exists():
            return 0
        n = 0
        # JSON Lines split at "\n" only (str.splitlines would split inside a string holding
        # U+2028 and friends).
        for line in self.checkpoint.read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                break  # a torn last line from a kill: that collection is fetched again
            self.done[entry["key"]] = entry
            n += 1
        return n

    def _scrubbed(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` with every key the client holds masked (a body may echo its key).

        The checkpoint is a written file too, and a resumed job must see exactly what an
        uninterrupted one saw, so the masked form is both saved and used.
        """
        if self._scrubber is None:
            self._scrubber = Scrubber([k for k in self.client.keys.values() if k])
        if not self._scrubber:
            return data
        raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        clean = redact_body(raw, self._scrubber)
        return data if clean == raw else dict(json.loads(clean))

    def _save(self, entry: dict[str, Any]) -> None:
        try:
            self.checkpoint_dir.mkdir(parents=True, exist_ok=True)
            with open(self.checkpoint, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise RecordError(os_error_message(exc, "write the recording checkpoint", self.checkpoint)) from None

    # ---- fetching ------------------------------------------------------------------
    def _record_format(self, ep: Endpoint) -> str:
        if ep.kind == "binary":
            return "zip"
        if ep.params_with_role("format"):
            return str(ep.opt("record_format", "json"))
        return str(ep.opt("default_format", "xml"))

    def _fetch_page(self, ep: Endpoint, params: dict[str, str]) -> Parsed:
        dialect = get_dialect(ep.dialect)
        holder: dict[str, Parsed] = {}

        def check(resp: SimResponse) -> str | None:
            if resp.status >= 500 or resp.status == 429:
                return "retry"
            fmt = sniff_format(resp.body)
            try:
                parsed = dialect.parse(ep, resp.body, fmt)
            except (DialectError, ValueError, KeyError, IndexError):
                if resp.status in (401, 403):
                    return f"HTTP {resp.status} (key refused)"
                return "retry"  # truncated or garbled: fetch again
            if parsed.outcome == "error" or (parsed.outcome == "empty" and parsed.kind not in (None, "no_data")):
                kind = parsed.kind or "server_error"
                if kind in _TRANSIENT:
                    return "retry"
                if kind in _PERMANENT:
                    return f"native error {parsed.code or kind} ({kind})"
                if kind != "no_data":
                    return f"native error {parsed.code or kind} ({kind})"
            holder["p"] = parsed
            return None

        req, resp = self.client.fetch(ep, params, check)
        if self.exact:
            self.pages.append((req, resp))
        return holder["p"]

    def record_collection(self, ep: Endpoint, params: dict[str, str]) -> dict[str, Any]:
        filters = collection_filters(ep, params)  # keyed as replay will look it up
        key = collection_key(ep.id, filters)
        if key in self.done:
            return self.done[key]
        dialect = get_dialect(ep.dialect)
        fmt = self._record_format(ep)
        pages = dialect.page_requests(ep, filters, 1, fmt)
        first = self._fetch_page(ep, pages[0])
        records = list(first.records)
        total = first.total if first.total is not None else len(records)
        if first.outcome != "ok":
            total = 0
            records = []
        if ep.kind == "collection" and total > len(records):
            for page in dialect.page_requests(ep, filters, total, fmt)[1:]:
                parsed = self._fetch_page(ep, page)
                if parsed.outcome != "ok" or not parsed.records:
                    break
                records.extend(parsed.records)
        if ep.kind == "collection" and len(records) != total:
            self.warnings.append(
                f"{key}: reported total {total} but {len(records)} records fetched"
            )
        entry = {
            "key": key,
            "endpoint": ep.id,
            "filters": filters,
            "fmt": fmt,
            "total": total,
            **self._scrubbed({"envelope": first.envelope, "records": records}),
        }
        self._save(entry)
        self.done[key] = entry
        return entry

    # ---- plan ----------------------------------------------------------------------
    def _crawl_values(self, crawl: Any) -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        seen: set[tuple[str, ...]] = set()
        for key in sorted(self.done):
            entry = self.done[key]
            if entry["endpoint"] != crawl.source:
                continue
            if any(entry["filters"].get(k) != v for k, v in crawl.source_filters.items()):
                continue
            for rec in entry["records"]:
                ok = True
                for fld, cond in crawl.where.items():
                    val = "" if rec.get(fld) is None else str(rec.get(fld))
                    for op, want in cond.items():
                        if op == "contains" and want not in val:
                            ok = False
                        elif op == "equals" and val != want:
                            ok = False
                        elif op == "prefix" and not val.startswith(want):
                            ok = False
                        elif op == "not_equals" and val == want:
                            ok = False
                if not ok or rec.get(crawl.field) in (None, "", " "):
                    continue
                params = dict(crawl.params)
                params[crawl.param] = transform_value(rec.get(crawl.field), crawl.transform)
                for p, f in crawl.also.items():
                    if rec.get(f) not in (None, ""):
                        params[p] = str(rec.get(f))
                ident = tuple(sorted(params.items()))
                if ident in seen:
                    continue
                seen.add(ident)
                out.append(params)
                if len(out) >= crawl.limit:
                    return out
        return out

    def run(
        self, *, recorded_at: str, info: dict[str, Any] | None = None, parent: str | None = "latest",
        wait: float = 0.0,
    ) -> RecordResult:
        """Record the plan and publish it, holding the set's lock throughout.

        A second recorder (or publisher) of the same set is refused with the holder's pid and
        host, or waits up to ``wait`` seconds; the parent is read under the lock, so no
        recording is lost to another. Content equal to the newest version's (a rerun after a
        kill between publishing and removing the checkpoint) is not published again.
        """
        set_dir = self.store.set_dir(self.set_name)
        with set_lock(set_dir, self.set_name, purpose=f"recording plan {self.plan.digest()[:12]}", wait=wait):
            return self._run(recorded_at, info, parent)

    def _run(self, recorded_at: str, info: dict[str, Any] | None, parent: str | None) -> RecordResult:
        resumed = self._load_checkpoint()
        steps: list[tuple[Endpoint, dict[str, str]]] = [
            (self.catalog.endpoint(s.endpoint), dict(s.params)) for s in self.plan.seeds
        ]
        n = 0
        for ep, params in steps:
            self.progress(n, None, ep.id)  # before: one collection can take minutes at a plan's rate
            self.record_collection(ep, params)
            n += 1
        for crawl in self.plan.crawls:
            dst = self.catalog.endpoint(crawl.to)
            for params in self._crawl_values(crawl):
                self.progress(n, None, dst.id)
                self.record_collection(dst, params)
                n += 1
        self.progress(n, None, "publishing")
        fidelity = self._fidelity()
        builder = VersionBuilder(
            self.store, self.set_name, self.catalog, parent=parent, secrets=list(self.client.keys.values())
        )
        if self.plan.replace_tiers:
            replaced = set(self.plan.replace_tiers)
            for key in [k for k, e in _endpoints_of(builder.collections) if _tier(self.catalog, e) in replaced]:
                del builder.collections[key]
        for key in sorted(self.done):
            e = self.done[key]
            builder.add_collection(
                endpoint=e["endpoint"], key=e["key"], filters=e["filters"], fmt=e["fmt"],
                total=e["total"], records=e["records"], envelope=e["envelope"],
            )
        for req, resp in self.pages:
            builder.add_interaction(req, resp)
        parent_manifest = builder.parent
        meta = {"plan": self.plan.digest(), "query_fidelity": fidelity, **(info or {})}
        manifest = builder.publish(recorded_at=recorded_at, source=self.source, info=meta, if_changed=True)
        drift = None
        if builder.unchanged:
            self.warnings.append(
                f"{manifest.set}@{manifest.version} already holds exactly this content (an earlier "
                "run published it); nothing new was published"
            )
        elif parent_manifest is not None:
            a = self.store.open(self.set_name, parent_manifest.version)
            b = self.store.open(self.set_name, manifest.version)
            drift = diff_versions(a, b, self.catalog)
        shutil.rmtree(self.checkpoint_dir, ignore_errors=True)
        return RecordResult(manifest, drift, fidelity, self.client.calls, len(self.done), resumed, self.warnings,
                            published=not builder.unchanged)

    # ---- query fidelity ------------------------------------------------------------
    def _fidelity(self) -> dict[str, float]:
        """Check sampled filter values live against the local query answer (per endpoint)."""
        scores: dict[str, float] = {}
        if self.plan.fidelity_samples <= 0:
            return scores
        for key in sorted(self.done):
            e = self.done[key]
            ep = self.catalog.endpoints[e["endpoint"]]
            if ep.query is None or not e["records"] or ep.id in scores:
                continue
            base, q = query_split(ep, e["filters"])
            if q:
                continue  # not a full collection
            rule = ep.query.filters[0]
            values = sorted({str(r.get(rule.field)) for r in e["records"] if r.get(rule.field) not in (None, "")})
            if not values:
                continue
            picks = self.rng.sample(values, min(self.plan.fidelity_samples, len(values)))
            good = 0
            for value in picks:
                wanted = value[:2] if rule.op == "contains" else value
                local = apply_query(ep, e["records"], {rule.param: wanted})
                params = {**base, rule.param: wanted}
                page = get_dialect(ep.dialect).page_requests(ep, params, 1, e["fmt"])[0]
                live = self._fetch_page(ep, page)
                size = ep.max_page_size
                live_total = live.total if live.total is not None else len(live.records)
                if live.outcome != "ok":
                    live_total = 0
                # The local records were masked as recorded (a body may echo its key, as
                # law.go.kr's links echo OC=): mask the live page the same way to compare.
                live_records = self._scrubbed({"records": live.records})["records"]
                if live_total == len(local) and _same(live_records, local[:size]):
                    good += 1
            scores[ep.id] = good / len(picks)
        return scores


def _endpoints_of(collections: Any) -> list[tuple[str, str]]:
    """(key, endpoint) of every collection a builder holds (read without decoding records)."""
    text = getattr(collections, "text", None)
    if text is not None:
        return [(k, text(k)[0]) for k in list(collections)]
    return [(k, collections[k]["endpoint"]) for k in list(collections)]


def _tier(catalog: Catalog, endpoint: str) -> str:
    ep = catalog.endpoints.get(endpoint)
    return ep.tier if ep is not None else "inferred"


def _same(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    norm = lambda rs: [json.dumps({k: str(v) for k, v in r.items()}, sort_keys=True, ensure_ascii=False) for r in rs]  # noqa: E731
    return norm(a) == norm(b)
