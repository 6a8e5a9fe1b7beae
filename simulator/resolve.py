"""The resolver: one request in, one response out, deterministically (DESIGN §6).

Tiers, in order:

1. **exact** — the request's fingerprint was recorded: its bytes, verbatim;
2. **window** — its collection was recorded whole: the requested page, rendered natively;
3. **query** — the endpoint declares query semantics and the full collection is recorded:
   filter, order and page it for values never requested while recording;
4. **miss** — by policy: ``strict`` (a simulator error naming the nearest recordings),
   ``native`` (the platform's own no-data body) or ``live`` (forwarded and recorded).

Every answer carries ``x-sim-source`` (exact / window / query / miss / fault / error) and
``x-sim-version`` (the version's content hash). Faults are injected only when configured,
chosen by a hash of (seed, episode id, call index), so a seeded rollout replays exactly.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Iterable

from .cache import BoundedCache
from .catalog import Catalog, Endpoint, Match, load_catalog
from .dialects import Split, SplitError, collection_key, get_dialect
from .dialects.headers import native_headers
from .errors import UnknownEndpoint
from .hints import HINT_HEADER, describe_hints, header_safe, unknown_param_hints
from .ignore import IGNORED_HEADER, drop_ignored, ignored_header_value, normalize_ignore_params, without_params
from .query import IndexedRecords, apply_order, query_split
from .request import SimRequest, SimResponse, form_params
from .identity import IdentityPlan, canonical_by_plan, canonical_request, fingerprint, identity_plan
from .store import CollectionInfo, Version
from .vocab import MissPolicy

__all__ = ["FaultConfig", "MissDetails", "MissPolicy", "Resolution", "Resolver", "Source", "FAULT_KINDS", "sim_error"]

FAULT_KINDS = ("timeout", "server_error", "rate_limited", "truncated", "latency")

#: Forwards a request to the live API (or a sandbox) and returns its answer; used by the
#: ``live`` miss policy. It must record what it fetched itself (see ``simulator.record``).
LiveForwarder = Callable[[SimRequest], SimResponse]


@dataclass(frozen=True)
class FaultConfig:
    """Seeded fault injection: a fraction ``rate`` of calls get one of ``kinds``."""

    seed: int = 0
    rate: float = 0.1
    kinds: tuple[str, ...] = FAULT_KINDS
    latency_ms: int = 250

    def __post_init__(self) -> None:
        if not 0.0 <= self.rate <= 1.0:
            raise ValueError(f"rate={self.rate!r} must be between 0 and 1")
        bad = [k for k in self.kinds if k not in FAULT_KINDS]
        if bad:
            raise ValueError(f"kinds={bad!r} unknown; choose from {', '.join(FAULT_KINDS)}")

    def choose(self, episode: str | None, call_index: int) -> str | None:
        digest = hashlib.sha256(f"{self.seed}:{episode or ''}:{call_index}".encode()).digest()
        u = int.from_bytes(digest[:8], "big") / 2**64
        if u >= self.rate or not self.kinds:
            return None
        return self.kinds[int.from_bytes(digest[8:16], "big") % len(self.kinds)]


def sim_error(status: int, kind: str, message: str, **extra: Any) -> SimResponse:
    """A documented simulator error (not a platform's): JSON ``{"error": {...}}``."""
    body = json.dumps(
        {"error": {"type": kind, "message": message, **extra}}, ensure_ascii=False, indent=1
    ).encode("utf-8")
    return SimResponse(
        status,
        [("content-type", "application/json; charset=utf-8"), ("x-sim-error", kind)],
        body,
    )


#: How a strict miss says to record what it lacks (the pytest plugin names its own options).
MISS_HINT = "record it with `simulator record --live` (a plan entry for this endpoint)"
#: A miss diagnosis scores at most this many candidates, on this many characters each.
NEAREST_POOL = 16
NEAREST_CHARS = 256
NEAREST_SCAN = 2000
#: ``resolve_fast`` leaves larger requests (path + query characters) to a worker thread.
FAST_MAX_TARGET = 2048
#: Requests whose identity (match, canonical form, fingerprint) a resolver memoises.
IDENTITY_CACHE_SIZE = 4096
#: Larger bodies are identified afresh each time (not held in the memo).
IDENTITY_MAX_BODY = 8192
#: Default budget of rendered answers a resolver keeps (``Resolver(answer_memo_bytes=...)``).
ANSWER_MEMO_BYTES = 32 << 20
#: Larger rendered answers are not kept.
ANSWER_MAX_BYTES = 1 << 20
#: Default number of decoded full-collection records the query tier keeps (about 1.3 KB each).
QUERY_RECORDS_KEPT = 50_000


class Source(StrEnum):
    """Which tier answered a request (its ``x-sim-source`` header)."""

    EXACT = "exact"
    WINDOW = "window"
    QUERY = "query"
    #: No recording answered: a strict miss (with :class:`MissDetails`) or a native no-data body.
    MISS = "miss"
    #: Forwarded to the live API (miss policy ``live``).
    LIVE = "live"
    #: A seeded fault replaced the answer.
    FAULT = "fault"
    #: A simulator or native error for a bad request (unknown endpoint, wrong method, bad params).
    ERROR = "error"


@dataclass(frozen=True)
class MissDetails:
    """Why a strict miss found no recording: what adapters raise as ``ReplayMiss``."""

    #: The whole explanation (the request, the nearest recordings, how to record it).
    message: str
    #: The request's canonical form.
    request: str
    endpoint: str
    #: The nearest recorded requests: ``{"request": ..., "differs": ...}`` each.
    nearest: list[dict[str, str]]
    #: Parameters left out when looking (the real API ignores them too).
    ignored: list[str] = field(default_factory=list)
    #: Unknown parameter name → the known one it looks like.
    did_you_mean: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Resolution:
    """What :meth:`Resolver.resolve` found: the tier that answered, the response, and on a
    strict miss its details (``miss``) or on a seeded fault its kind (``fault``).

    ``status``, ``headers``, ``body`` and ``header()`` read the response, so a resolution
    reads like the :class:`~simulator.request.SimResponse` it carries.
    """

    source: Source
    response: SimResponse
    miss: MissDetails | None = None
    fault: str | None = None

    @property
    def status(self) -> int:
        return self.response.status

    @property
    def headers(self) -> list[tuple[str, str]]:
        return self.response.headers

    @property
    def body(self) -> bytes:
        return self.response.body

    def header(self, name: str) -> str | None:
        """The response's header ``name`` (None if absent)."""
        return self.response.header(name)


@dataclass(frozen=True)
class _Identity:
    """What a request is, as far as the store is concerned."""

    match: Match | None
    #: Why nothing matched (``UnknownEndpoint``'s message), when ``match`` is None.
    unknown: str
    canonical: str
    fingerprint: str


_Answer = tuple["Source", int, tuple[tuple[str, str], ...], bytes]
#: ``Resolver._plans`` has not seen the shape yet (None: seen, no plan).
_NO_PLAN_YET: Any = object()


class Resolver:
    """Answers requests from one opened version.

    Args:
        version: an opened version (``Store.open``).
        catalog: the catalog (default: the shipped one).
        miss: ``strict``, ``native`` or ``live``.
        faults: seeded fault injection, off when None.
        live: forwarder for the ``live`` miss policy.
        answer_memo_bytes: how many bytes of rendered window and query answers to keep for
            repeated requests (0: render every time; the bytes are the same either way).
        query_records_kept: how many decoded records of full collections the query tier keeps
            (with their equality indexes) for the next query on them (0: decode every time).
        ignore_params: parameter names never used to find a recording (like vcrpy's
            ``match_on``); parameters the catalog does not know, and role ``ignore`` ones,
            are ignored anyway. Answers name what they ignored in ``x-sim-ignored``.
        miss_hint: how a strict miss's message says to record the request.
    """

    def __init__(
        self,
        version: Version,
        catalog: Catalog | None = None,
        *,
        miss: MissPolicy | str = MissPolicy.STRICT,
        faults: FaultConfig | None = None,
        live: LiveForwarder | None = None,
        answer_memo_bytes: int = ANSWER_MEMO_BYTES,
        miss_hint: str = MISS_HINT,
        ignore_params: Iterable[str] = (),
        query_records_kept: int = QUERY_RECORDS_KEPT,
    ) -> None:
        if miss not in tuple(MissPolicy):
            raise ValueError(f"miss={miss!r} is not a miss policy; use {', '.join(MissPolicy)}")
        miss = MissPolicy(miss)
        if miss == "live" and live is None:
            raise ValueError("miss='live' needs a live forwarder (simulator.record.LiveClient)")
        self.version = version
        self.catalog = catalog or load_catalog()
        self.miss = miss
        self.faults = faults
        self.live = live
        self.miss_hint = miss_hint
        # Filtered full collections (query tier), keyed by (collection, query).
        self._query_cache: BoundedCache[tuple[Any, ...], list[dict[str, Any]]] = BoundedCache(64)
        # Decoded full collections (query tier), by collection id, within a record budget.
        self._full: BoundedCache[int, IndexedRecords] = BoundedCache(
            64, weigh=lambda kept: len(kept.records), max_weight=max(query_records_kept, 0)
        )
        self.ignore_params = normalize_ignore_params(ignore_params)
        self._by_endpoint: dict[str, list[CollectionInfo]] = {}
        # The catalog is immutable, so a request's match and canonical
        # form depend on nothing but the parts of it they read: memoise them (repeated
        # requests, e.g. an episode replayed, skip matching, key stripping and hashing).
        # Oldest entries leave first when it is full.
        # A request whose exact answer was found from its shape's plan keeps only its
        # fingerprint here (a str) until another tier needs the rest.
        self._identities: BoundedCache[tuple[Any, ...], _Identity | str] = BoundedCache(IDENTITY_CACHE_SIZE)
        # Request shapes (method, host, path, query names) → their identity plans (None:
        # identified one by one); cleared when full. Plain dict reads and writes are atomic.
        self._plans: dict[tuple[Any, ...], IdentityPlan | None] = {}
        # Recorded header tuples (shared by the index) → the exact answer's headers.
        self._exact_headers: dict[tuple[tuple[str, str], ...], list[tuple[str, str]]] = {}
        self._version_header = ("x-sim-version", version.content_hash)
        # Rendered answers (window and query tiers) by request identity: a pure function of
        # the request's parts and the version, so a repeat is answered with the same bytes
        # without reading and rendering its records again. Oldest leave first past the budget.
        self.answer_memo_bytes = answer_memo_bytes
        self._answers: BoundedCache[tuple[Any, ...], _Answer] = BoundedCache(
            IDENTITY_CACHE_SIZE if answer_memo_bytes > 0 else 0,
            weigh=lambda kept: len(kept[3]),
            max_weight=max(answer_memo_bytes, 0),
        )

    # ---- public ----------------------------------------------------------------------
    def resolve(
        self, req: SimRequest, *, episode: str | None = None, call_index: int = 0
    ) -> Resolution:
        """Answer ``req``: which tier answered, the response, and a strict miss's details.

        Never raises for bad input (errors are responses, ``source`` ``error``)."""
        # ``_key``, inlined (every request pays it)
        key = (req.method, req.host, req.path, req.query, req.body) if len(req.body) <= IDENTITY_MAX_BODY else None
        res = self._recorded(req, key)  # headers final (the version header last)
        if res is None:
            res = self._resolve(req, key)
            res.response.set_header("x-sim-version", self.version.content_hash)
        if self.faults is not None:
            kind = self.faults.choose(episode or req.header("x-sim-episode"), call_index)
            if kind is not None:
                out = self._fault(kind, req, res.response)
                out.set_header("x-sim-version", self.version.content_hash)
                return Resolution(Source.FAULT, out, fault=kind)
        return res

    # ---- tiers -----------------------------------------------------------------------
    @staticmethod
    def _key(req: SimRequest) -> tuple[Any, ...] | None:
        """All that ``Catalog.match`` and ``canonical_request`` read of a request (None for
        a large body: not memoised)."""
        if len(req.body) > IDENTITY_MAX_BODY:
            return None
        return (req.method, req.host, req.path, req.query, req.body)

    def _identify(self, req: SimRequest, key: tuple[Any, ...] | None = None) -> _Identity:
        if key is None:
            key = self._key(req)
            if key is None:
                return self._identify_request(req)
        ident = self._identities.get(key)
        if not isinstance(ident, _Identity):  # unknown, or only its fingerprint is
            ident = self._identify_request(req)
            self._identities.put(key, ident)
        return ident

    def _planned_fingerprint(self, req: SimRequest) -> str | None:
        """``req``'s fingerprint from its shape's plan (matching done once per shape), or None
        where it has none (``identity_plan``)."""
        if req.body:
            return None
        shape = (req.method, req.host, req.path, tuple([k for k, _ in req.query]))
        plan = self._plans.get(shape, _NO_PLAN_YET)
        if plan is _NO_PLAN_YET:
            plan = identity_plan(req, self.catalog)
            if len(self._plans) >= IDENTITY_CACHE_SIZE:
                self._plans.clear()
            self._plans[shape] = plan
        if plan is None:
            return None
        return fingerprint(canonical_by_plan(plan, req.query))  # type: ignore[arg-type]

    def _identify_request(self, req: SimRequest) -> _Identity:
        """Match, canonical request and fingerprint of ``req`` (reads only the parts above)."""
        try:
            match: Match | None = self.catalog.match(req)
            unknown = ""
        except UnknownEndpoint as exc:
            match = None
            unknown = str(exc)
        # Unmatched, the catalog adds nothing to the canonical form: don't match again.
        canon = canonical_request(req, self.catalog if match is not None else None, match)
        return _Identity(match, unknown, canon, fingerprint(canon))

    def _remember(self, key: tuple[Any, ...] | None, res: Resolution) -> Resolution:
        """Keep a rendered answer for ``key`` (within the byte budget); returns ``res``."""
        resp = res.response
        size = len(resp.body)
        if key is None or self.answer_memo_bytes <= 0 or size > min(
            ANSWER_MAX_BYTES, self.answer_memo_bytes
        ):
            return res
        # Stored as ``resolve`` finishes it: the version header last (see ``resolve``).
        headers = (*(h for h in resp.headers if h[0] != "x-sim-version"), self._version_header)
        if key not in self._answers:
            self._answers.put(key, (res.source, resp.status, headers, resp.body))
        return res

    def _recorded(self, req: SimRequest, key: tuple[Any, ...] | None) -> Resolution | None:
        """A remembered answer or an exact hit, its headers final; None: neither."""
        if key is not None and key in self._answers:  # (a miss takes no lock)
            kept = self._answers.get(key)
            if kept is not None:
                return Resolution(kept[0], SimResponse(kept[1], list(kept[2]), kept[3]))
        # Asked before (its identity is kept): keep the exact answer too, below.
        ident = self._identities.get(key) if key is not None else None
        again = ident is not None
        if ident is None:
            # A first sighting: the fingerprint from its shape's plan where it has one, kept
            # alone (the rest of its identity waits until a tier past the exact one needs it).
            ident = self._planned_fingerprint(req) or self._identify_request(req)
            if key is not None:
                self._identities.put(key, ident)
        hit = self.version.index.interaction_parts(ident if isinstance(ident, str) else ident.fingerprint)
        if hit is None:
            return None
        status, headers, body = hit
        tagged = self._exact_headers.get(headers)
        if tagged is None:
            # What ``_tag`` and then ``resolve`` make of them, computed once.
            tagged = _tag(SimResponse(status, list(headers)), "exact").headers
            tagged = [h for h in tagged if h[0] != "x-sim-version"]
            tagged.append(self._version_header)
            if len(self._exact_headers) >= IDENTITY_CACHE_SIZE:
                self._exact_headers.clear()
            self._exact_headers[headers] = tagged
        res = Resolution(Source.EXACT, SimResponse(status, list(tagged), body))
        # A request asked a second time is kept like a rendered answer: from its third time
        # on it skips identity and index (a first sighting pays nothing for the memo).
        return self._remember(key, res) if again else res

    def _resolve(self, req: SimRequest, key: tuple[Any, ...] | None) -> Resolution:
        """Every tier after the exact one (``_recorded`` found nothing)."""
        ident = self._identify(req, key)
        canon = ident.canonical
        found = ident.match
        if found is None:
            found = self.catalog.infer(req)  # an unknown path on a known platform host
        if found is None:
            if self.miss == "live" and self.live is not None:
                return Resolution(Source.LIVE, _tag(self.live(req), "live"))  # any other host: recorded exactly
            return Resolution(Source.ERROR, _tag(
                sim_error(404, "unknown_endpoint", ident.unknown, request=canon), "error"
            ))
        allowed = found.endpoint.method
        # a form POSTed to a GET endpoint that documents POST too (juso) reads as that GET
        posted_form = (req.method == "POST" and allowed == "GET" and bool(found.endpoint.opt("form_post"))
                       and bool(form_params(req)))
        if req.method != allowed and not (req.method == "HEAD" and allowed == "GET") and not posted_form:
            # The method is no part of a collection's identity: answering it would be a guess.
            if self.miss == "live" and self.live is not None:
                return Resolution(Source.LIVE, _tag(self.live(req), "live"))  # recording: the real API answers it
            out = sim_error(
                405, "method_not_allowed",
                f"endpoint {found.endpoint.id!r} answers {allowed} only, not {req.method}",
                request=canon,
            )
            out.set_header("allow", allowed)
            return Resolution(Source.ERROR, _tag(out, "error"))
        # The memoised match is shared: what follows gets its own params.
        match, ignored = drop_ignored(found, self.ignore_params)
        if ignored:
            again = self._exact_without(req, ignored)
            if again is not None:
                return Resolution(Source.EXACT, _ignored(again, ignored))
        else:
            match = Match(match.endpoint, dict(match.params), match.unknown)
        ep = match.endpoint
        dialect = get_dialect(ep.dialect)
        try:
            split = dialect.split(match)
        except SplitError as exc:
            # The native body as the API sends it; what was wrong, named, in a header.
            answer = dialect.render_error(ep, exc.kind, exc.fmt, exc.detail)
            if exc.detail:
                answer.set_header(HINT_HEADER, header_safe(exc.detail))
            return Resolution(Source.ERROR, _tag(answer, "error"))
        missing = _missing_path_param(match)
        if missing is not None:
            # A trailing path segment left out (dialects that check required params
            # themselves answered in ``split`` already).
            return Resolution(Source.ERROR, _tag(
                dialect.render_error(ep, "missing_param", split.fmt, f"{missing} is required"),
                "error",
            ))
        split = _keyless(dialect, match, split)
        coll = self.version.index.collection(split.key)
        if coll is not None:
            split, ignored = _in_family(dialect, found.params, split, coll.envelope, ignored)
            w = split.window
            ordered = None
            if any(p.role == "order" for p in ep.params):
                ordered = apply_order(
                    ep, self.version.index.records(coll.id, 0, coll.count), match.params
                )
            if ordered is not None:
                records = ordered[w.offset : w.offset + w.limit]
            else:
                records = self.version.index.records(coll.id, w.offset, w.limit)
            out = native_headers(ep, dialect.render(split, records, coll.total, coll.envelope))
            out = _tag(out, "window")
            return self._remember(key, Resolution(Source.WINDOW, _inferred(ep, _ignored(out, ignored, ep))))
        answered = self._query(ep, split, match.params)
        if answered is not None:
            return self._remember(key, Resolution(Source.QUERY, _ignored(answered, ignored, ep)))
        res = self._miss(req, match, split, canon, ignored)
        _inferred(ep, _ignored(res.response, ignored))
        return res

    def _exact_without(self, req: SimRequest, ignored: list[str]) -> SimResponse | None:
        """The exact recording of ``req`` without its ignored params, if there is one."""
        bare = without_params(req, ignored)
        ident = self._identify_request(bare)
        hit = self.version.index.interaction_parts(ident.fingerprint)
        if hit is None:
            return None
        status, headers, body = hit
        return _tag(SimResponse(status, list(headers), body), "exact")

    def _query(
        self, ep: Endpoint, split: Split, params: dict[str, str] | None = None
    ) -> SimResponse | None:
        if ep.query is None:
            return None
        base, query = query_split(ep, split.filters)
        if not query:
            return None
        # The collection recorded with the most of the request's values: the one recorded with
        # the non-query params alone is the API's answer without the others, which is not
        # always a superset (OpenDART's list without bgn_de answers a default window, not every
        # filing: a client asking a year with last_reprt_at=Y must meet the year's collection).
        full = self._narrowest_superset(ep, base, split.filters)
        if full is None:
            return None
        # Query values the collection was recorded with are already applied to it.
        query = {k: v for k, v in query.items() if full.filters.get(k) != v}
        cache_key = (full.id, tuple(sorted(query.items())))
        selected = self._query_cache.get(cache_key)
        if selected is None:
            everything = self._full.get(full.id)
            if everything is None:
                everything = IndexedRecords(self.version.index.records(full.id, 0, full.count))
                self._full.put(full.id, everything)
            selected = everything.select(ep, query)
            self._query_cache.put(cache_key, selected)
        if params is not None:
            selected = apply_order(ep, selected, params) or selected
        w = split.window
        page = selected[w.offset : w.offset + w.limit]
        dialect = get_dialect(ep.dialect)
        out = native_headers(ep, dialect.render(split, page, len(selected), full.envelope))
        return _tag(out, "query")

    def _narrowest_superset(
        self, ep: Endpoint, base: dict[str, str], filters: dict[str, str]
    ) -> CollectionInfo | None:
        """A recorded collection that holds every answer to ``filters``: recorded with the same
        non-query params and a subset of the request's query values (FSC prices recorded for one
        ``basDt`` answer ``basDt`` + ``likeSrtnCd``). The one recorded with most values wins."""
        colls = self._by_endpoint.get(ep.id)
        if colls is None:
            colls = self.version.index.collections(ep.id)
            self._by_endpoint[ep.id] = colls
        best: CollectionInfo | None = None
        for c in colls:
            if any(c.filters.get(k) != v for k, v in base.items()):
                continue
            if any(filters.get(k) != v for k, v in c.filters.items()):
                continue
            if best is None or len(c.filters) > len(best.filters):
                best = c
        return best

    def _miss(
        self, req: SimRequest, match: Match, split: Split, canon: str, ignored: list[str] = ()  # type: ignore[assignment]
    ) -> Resolution:
        ep = match.endpoint
        if self.miss == "native":
            dialect = get_dialect(ep.dialect)
            return Resolution(Source.MISS, _tag(dialect.render(split, [], 0, {}), "miss"))
        if self.miss == "live" and self.live is not None:
            return Resolution(Source.LIVE, _tag(self.live(req), "live"))
        nearest = self.nearest(ep, canon, split)
        lines = [f"  {i + 1}. {n['request']}  (differs: {n['differs']})" for i, n in enumerate(nearest)]
        # Unknown names (kept on an inferred endpoint, ignored elsewhere) that look like known ones.
        sent = [*match.unknown, *(n for n in ignored if ep.param(n) is None)]
        meant = unknown_param_hints(sent, (p.name for p in ep.params))
        message = (
            f"no recording answers {canon!r} in version {self.version.id} "
            f"({self.version.content_hash[:12]}).\n"
            + describe_hints(meant, ep.id)
            + ("nearest recorded requests:\n" + "\n".join(lines) + "\n" if lines else
               f"nothing is recorded for endpoint {ep.id!r}.\n")
            + (f"ignored parameters (the real API ignores them too): {', '.join(ignored)}\n"
               if ignored else "")
            + (f"the catalog does not list this path; {ep.id!r} was inferred from platform "
               f"{ep.platform!r} (its dialect, paging and errors). {self._unknown_text(req)}\n"
               if ep.opt("inferred") else "")
            + f"to fix: {'use the parameter names above, or ' if meant else ''}{self.miss_hint}, "
            "or replay with miss policy 'native' to get the platform's own no-data answer"
        )
        extra: dict[str, Any] = {"did_you_mean": meant} if meant else {}
        details = MissDetails(message, canon, ep.id, nearest, list(ignored), dict(meant))
        return Resolution(Source.MISS, _tag(
            sim_error(
                404, "replay_miss", message, request=canon, endpoint=ep.id, nearest=nearest,
                ignored=list(ignored), **extra,
            ),
            "miss",
        ), miss=details)

    def resolve_fast(
        self, req: SimRequest, *, episode: str | None = None, call_index: int = 0
    ) -> Resolution | None:
        """``resolve(req)`` when the answer is cheap (memoised, or an exact hit: a point read),
        else None: a window render, a query over a collection or a miss diagnosis may take
        milliseconds, so an event loop runs ``resolve`` for those in a worker thread."""
        key = self._key(req)
        if key is None or len(req.path) + sum(len(k) + len(v) for k, v in req.query) > FAST_MAX_TARGET:
            return None
        if key not in self._answers:
            ident = self._identify(req, key)
            if self.version.index.interaction_parts(ident.fingerprint) is None:
                return None
        return self.resolve(req, episode=episode, call_index=call_index)

    def _unknown_text(self, req: SimRequest) -> str:
        try:
            self.catalog.match(req)
        except UnknownEndpoint as exc:
            return str(exc)
        return ""

    def nearest(self, ep: Endpoint, canon: str, split: Split, n: int = 3) -> list[dict[str, str]]:
        """The recorded requests and collections of ``ep`` closest to ``canon``.

        Bounded whatever the request's size and the version's (a 16 KB query against 2,000
        recordings once took 0.8 s here): a cheap score (query pieces shared, compared as
        raw text) keeps the best ``NEAREST_POOL`` candidates, the edit-distance ratio compares
        at most ``NEAREST_CHARS`` of each, and only the ``n`` shown are parsed.
        """
        cands: list[tuple[str, frozenset[str], dict[str, str] | None]] = []
        for _fp, rc in self.version.index.interaction_requests(ep.id, limit=NEAREST_SCAN):
            cands.append((rc, _pieces(rc), None))
        for c in self.version.index.collections(ep.id)[:NEAREST_SCAN]:
            cands.append((f"collection {c.key}", frozenset(f"{k}={v}" for k, v in c.filters.items()), c.filters))
        wanted = split.filters
        have = _pieces(canon) | {f"{k}={v}" for k, v in wanted.items()}
        pool = sorted(cands, key=lambda c: (-len(have & c[1]), c[0]))[:NEAREST_POOL]
        probe = canon[:NEAREST_CHARS]
        scored = []
        for text, _pcs, params in pool:
            ratio = difflib.SequenceMatcher(None, probe, text[:NEAREST_CHARS], autojunk=False).ratio()
            scored.append((-ratio, text, params))
        scored.sort(key=lambda x: (x[0], x[1]))
        out = []
        for _r, text, params in scored[:n]:
            params = _params_of(text) if params is None else params
            diffs = [
                f"{k}={wanted.get(k)!r} vs {params.get(k)!r}"
                for k in sorted(set(wanted) | set(params))
                if wanted.get(k) != params.get(k)
            ]
            out.append({"request": text, "differs": ", ".join(diffs) or "paging or format"})
        return out

    # ---- faults ----------------------------------------------------------------------
    def _fault(self, kind: str, req: SimRequest, resp: SimResponse) -> SimResponse:
        if kind == "timeout":
            out = sim_error(504, "fault_timeout", "injected timeout (seeded fault)")
        elif kind == "server_error":
            out = SimResponse(
                503, [("content-type", "text/plain; charset=utf-8")], b"Service Unavailable"
            )
        elif kind == "rate_limited":
            try:
                match = self.catalog.match(req)
                dialect = get_dialect(match.endpoint.dialect)
                fmt = dialect.split(match).fmt
                out = dialect.render_error(match.endpoint, "rate_limited", fmt)
            except Exception:  # noqa: BLE001 - unknown endpoint or bad input: plain 429
                out = SimResponse(429, [("content-type", "text/plain")], b"Too Many Requests")
        elif kind == "truncated":
            out = SimResponse(resp.status, list(resp.headers), resp.body[: len(resp.body) // 2])
        else:  # latency
            out = SimResponse(resp.status, list(resp.headers), resp.body)
            out.set_header("x-sim-latency-ms", str(self.faults.latency_ms if self.faults else 0))
        out.set_header("x-sim-source", "fault")
        out.set_header("x-sim-fault", kind)
        return out


def _missing_path_param(match: Match) -> str | None:
    """The first required path param ``match`` lacks (the route lets trailing ones out)."""
    for p in match.endpoint.params:
        if (
            p.location == "path"
            and p.required
            and p.role not in ("auth", "format", "range_start", "range_end")
            and not match.params.get(p.name)
        ):
            return p.name
    return None


#: Header on answers for an endpoint inferred from its platform (``simulator.catalog.infer``).
ENDPOINT_HEADER = "x-sim-endpoint"


def _inferred(ep: Endpoint, resp: SimResponse) -> SimResponse:
    if ep.opt("inferred"):
        resp.set_header(ENDPOINT_HEADER, "inferred")
    return resp


def _ignored(resp: SimResponse, ignored: list[str], ep: Endpoint | None = None) -> SimResponse:
    """Name the ignored params; an answer that ignored a likely misspelling says so too."""
    if ignored:
        resp.set_header(IGNORED_HEADER, ignored_header_value(ignored))
        unknown = [n for n in ignored if ep is not None and ep.param(n) is None]
        meant = unknown_param_hints(unknown, (p.name for p in ep.params)) if ep is not None else {}
        if meant and resp.header(HINT_HEADER) is None:
            note = "; ".join(f"{k!r} was ignored: did you mean {v!r}?" for k, v in sorted(meant.items()))
            resp.set_header(HINT_HEADER, header_safe(note))
    return resp


def _in_family(dialect: Any, asked: dict[str, str], split: Split, envelope: dict[str, Any],
               ignored: list[str]) -> tuple[Split, list[str]]:
    """``split`` as the endpoint's late family serves it when the collection was recorded in that
    family's shape (envelope ``family``: a version recorded from the family's world edition on,
    the MOIS 행정안전통계연보 services from edition 9, ``kopa@v0010``), and ``ignored`` without the
    format param the family declares and the request sent (``asked``: the request's params,
    unknown ones included).

    The 2022 yearbook services publish no ``type``, so the catalog endpoint has no format param
    and the request's ``type=json`` would be dropped as unknown (an XML answer); the family's view
    declares it, as the sandbox that recorded the version serves it. A collection recorded
    before (no ``family`` in its envelope) keeps the endpoint's own split: older versions answer
    the bytes they always did. The collection key is the same (a format param is no filter). A
    query over a collection (``_query``) does not reach these services: they publish no params."""
    view_of = getattr(dialect, "family_view", None)
    if not envelope.get("family") or view_of is None or split.endpoint.opt("family"):
        return split, ignored
    view = view_of(split.endpoint)
    if view is None:
        return split, ignored
    own = {p.name for p in split.endpoint.params}
    names = {p.name for p in view.params_with_role("format")} - own
    sent = {p: v for n in names for p, v in asked.items() if p == n or p.lower() == n.lower()}
    if not sent:
        return split, ignored
    params = {n: v for n in names for p, v in sent.items() if p.lower() == n.lower()}
    fmt = dialect.request_format(view, params)
    extra = {**split.extra, **params}
    return type(split)(view, split.key, split.filters, split.window, fmt, extra), \
        [n for n in ignored if n not in sent]


def _keyless(dialect: Any, match: Match, split: Split) -> Split:
    """``split`` with the window a request without a key gets (NEIS: at most ``keyless_rows``
    rows, page 1), as the sandbox and the real portal answer it; else ``split`` itself."""
    narrow = getattr(dialect, "keyless_window", None)
    if narrow is None:
        return split
    window = narrow(match, split.window)
    if window is split.window:
        return split
    return type(split)(split.endpoint, split.key, split.filters, window, split.fmt, split.extra)


def _tag(resp: SimResponse, source: str) -> SimResponse:
    resp.set_header("x-sim-source", source)
    return resp


def _pieces(canon: str) -> frozenset[str]:
    """The raw ``name=value`` pieces of a canonical request's query (no decoding: cheap)."""
    if "?" not in canon:
        return frozenset()
    return frozenset(canon.split("?", 1)[1].split(" ", 1)[0].split("&"))


def _params_of(canon: str) -> dict[str, str]:
    from urllib.parse import parse_qsl

    if "?" not in canon:
        return {}
    qs = canon.split("?", 1)[1].split(" ", 1)[0]
    return dict(parse_qsl(qs))
