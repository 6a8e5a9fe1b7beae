"""The sandbox ASGI app: every catalog endpoint on its real host and path, from a seeded world.

Routing (the same as ``simulator serve``):

* ``GET /{upstream-host}/{path}?{query}``, e.g.
  ``/apis.data.go.kr/1613000/RTMSDataSvcAptTrade/getRTMSDataSvcAptTrade?LAWD_CD=11680&…``
  (the first path segment names the upstream when it contains a dot; a port is ignored);
* absolute-form proxy requests (``GET http://host/path``) and a ``Host`` header naming the
  upstream host;
* ``GET /_sandbox/health`` and ``GET /_sandbox/stats`` (JSON), ``POST /_sandbox/reset``
  (clears the quota counters: a new sandbox day).

Per request: match the catalog endpoint (unknown path → the platform's native
unknown-operation error, unknown host → 404 JSON); the Assembly WAF; rate and quota limits
(native bodies); the key check (``keys[platform]``, default ``sandbox-<platform>``; the
public sample keys and NEIS's keyless mode behave as on the real services); split with the
endpoint's dialect (native errors for bad paging); records = generator → query semantics →
window; render with the dialect. Optional seeded faults come last.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from typing import Any, Sequence
from urllib.parse import parse_qsl, urlsplit

from ..catalog import Catalog, Endpoint, Match, load_catalog
from ..dialects import Dialect, SplitError, get_dialect
from ..dialects.headers import native_headers
from ..errors import UnknownEndpoint
from ..ignore import drop_ignored
from ..query import apply_order, apply_query, query_split
from ..request import SimRequest, SimResponse
from ..server.asgi import Receive, Scope, Send, serve_lifespan
from .gen import generator_for
from .gen.synth import synth_records
from .limits import Fault, Limits, LimitState
from .world import LATEST_EDITION, World

__all__ = ["SandboxApp", "create_app", "default_keys"]

log = logging.getLogger("kopa_sim.sandbox")


_LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "0.0.0.0", "testserver", ""}
_CACHE_SIZE = 256
#: The most body bytes the sandbox reads (a form of parameters; the rest is dropped unread).
_MAX_BODY = 64 * 1024


def default_keys(catalog: Catalog) -> dict[str, str]:
    """Every platform's sandbox key: ``sandbox-<platform id>`` (and, for keys written before
    platforms were merged, ``sandbox-<catalog file>``: ``sandbox-gen_opendart``)."""
    return {pid: f"sandbox-{pid}" for pid in (*catalog.parts, *catalog.platforms)}


def _json(obj: Any, status: int = 200) -> SimResponse:
    body = json.dumps(obj, ensure_ascii=False, indent=1).encode("utf-8")
    return SimResponse(status, [("content-type", "application/json; charset=utf-8")], body)


class SandboxApp:
    """ASGI app of the sandbox; see the module docstring.

    Args:
        seed: world seed (same seed → same data, byte for byte).
        keys: platform id → the one valid key (merged over :func:`default_keys`).
        limits: rates, quotas and faults (default: none).
        catalog: the catalog to serve (default: the shipped one).
        edition: world edition (default the latest, 6: what ``kopa@v0007``'s generated tier
            was recorded from; 5 ``kopa@v0006``'s generated tier, 4 ``kopa@v0004``/``kopa@v0005``'s,
            3 ``kopa@v0003``'s, 2 the world of ``kopa@v0001`` and ``kopa@v0002``).
    """

    def __init__(
        self,
        seed: int = 0,
        keys: dict[str, str] | None = None,
        limits: Limits | None = None,
        catalog: Catalog | None = None,
        edition: int = LATEST_EDITION,
    ) -> None:
        self.seed = seed
        self.catalog = catalog or load_catalog()
        self.world = World(seed, edition=edition)
        self.keys = {**default_keys(self.catalog), **(keys or {})}
        self.limits = limits or Limits()
        self.state = LimitState(self.limits, seed)
        self._cache: OrderedDict[str, Sequence[dict[str, Any]]] = OrderedDict()

    # ---- ASGI ----------------------------------------------------------------------
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        body = b""
        while True:  # a form body holds parameters (juso: POST); any other body is not read
            msg = await receive()
            if len(body) < _MAX_BODY:
                body += msg.get("body", b"")
            if not msg.get("more_body", False):
                break
        fault: Fault | None = None
        try:
            resp, fault = self.handle_scope(scope, body[:_MAX_BODY])
        except Exception:  # noqa: BLE001 - never a stack trace on the wire
            log.exception("sandbox internal error")
            resp = _json({"error": "internal_error", "detail": "the sandbox failed on this request"}, 500)
        if fault == "slow":
            await asyncio.sleep(self.limits.slow_seconds)
        body = resp.body
        if fault == "truncated":
            body = body[: max(1, len(body) // 2)]
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in resp.headers if k != "content-length"]
        length = len(resp.body) if fault == "reset" else len(body)
        await send({"type": "http.response.start", "status": resp.status,
                    "headers": headers + [(b"content-length", str(length).encode())]})
        if fault == "reset":
            await send({"type": "http.response.body", "body": body[: len(body) // 2], "more_body": True})
            raise ConnectionResetError("sandbox fault: connection reset mid-body")
        await send({"type": "http.response.body", "body": body})

    def handle_scope(self, scope: Scope, body: bytes = b"") -> tuple[SimResponse, Fault | None]:
        """Answer one HTTP scope and its body: the response and the fault to apply."""
        path: str = scope["path"]
        method: str = scope["method"]
        headers = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope.get("headers", [])]
        if path == "/_sandbox" or path.startswith("/_sandbox/"):
            return self._admin(path, method), None
        qs: bytes = scope.get("query_string", b"")
        try:
            query = tuple(parse_qsl(qs.decode("utf-8"), keep_blank_values=True))
        except UnicodeDecodeError:
            query = tuple(parse_qsl(qs.decode("latin-1"), keep_blank_values=True))
        host_header = next((v for k, v in headers if k == "host"), "")
        host, upstream_path = _upstream(path, host_header)
        if host is None:
            return _json({"error": "no_upstream", "detail": "name the upstream host as the first path "
                          "segment, e.g. /apis.data.go.kr/1613000/…, or use the sandbox as an HTTP proxy"}, 404), None
        req = SimRequest(method=method, host=host, path=upstream_path, query=query, headers=tuple(headers),
                         body=body, scheme=scope.get("scheme", "http"))
        fault = self.state.fault()
        if fault == "server_error":
            # The provider fell over: a gateway 5xx with no API envelope at all.
            status = 503 if self.state.requests % 2 else 502
            text = b"Service Unavailable" if status == 503 else b"Bad Gateway"
            return SimResponse(status, [("content-type", "text/plain; charset=utf-8")], text), fault
        return self.handle(req), fault

    # ---- the API -------------------------------------------------------------------
    def handle(self, req: SimRequest) -> SimResponse:
        """Answer one upstream request (no faults): the native response of the real API."""
        try:
            match = self.catalog.match(req)
        except UnknownEndpoint as exc:
            return self._unknown(req, str(exc))
        dialect = get_dialect(match.endpoint.dialect)
        served_endpoint = getattr(dialect, "served_endpoint", None)  # a later edition's envelope
        if served_endpoint is not None:
            view = served_endpoint(match.endpoint, self.world.edition)
            if view is not match.endpoint:
                unknown = tuple(n for n in match.unknown if view.param(n) is None)
                match = Match(view, match.params, unknown)
        # Like the real server (and the replay, ``simulator.ignore``), parameters the catalog
        # does not know select nothing: they never reach the collection key or the generator.
        match, _ignored = drop_ignored(match, frozenset())
        ep = match.endpoint
        fmt = _request_format(dialect, ep, match.params)
        waf = getattr(dialect, "waf_blocked", None)
        if waf is not None and waf(ep, req.header("user-agent")):
            return dialect.render_waf(ep)  # type: ignore[attr-defined,no-any-return]
        admitted = self.state.admit(ep.platform)
        if admitted != "ok":
            return dialect.render_error(ep, admitted, fmt)
        key = _auth_value(ep, match)
        mode = "key"
        if key is None:
            if ep.opt("keyless_rows") is None:
                return dialect.render_error(ep, "missing_key", fmt, "no key")
            mode = "keyless"
        elif key != self.keys.get(ep.id, self.keys.get(ep.platform)) and not self._old_key(ep, key):
            # endpoint keys first (subway)
            if not ep.opt("sample_key") or key != ep.opt("sample_key"):
                return dialect.render_error(ep, "invalid_key", fmt, "unregistered key")
            mode = "sample"
        try:
            split = dialect.split(match)
            if mode == "sample":
                check = getattr(dialect, "check_key", None)
                err = check(match) if check is not None else None
                if err is not None:
                    raise err
        except SplitError as exc:
            return dialect.render_error(ep, exc.kind, exc.fmt, exc.detail)
        window = split.window
        if mode == "sample" and hasattr(dialect, "sample_window"):
            window = dialect.sample_window(match, window)
        if mode == "keyless" and hasattr(dialect, "keyless_window"):
            window = dialect.keyless_window(match, window)
        records = self.collection(ep, split.key, split.filters)
        if window.limit > 0 and any(p.role == "order" for p in ep.params):
            records = apply_order(ep, list(records), match.params) or records  # sort/sort_mth
        page = list(records[window.offset : window.offset + window.limit]) if window.limit > 0 else []
        if window is not split.window:
            split = type(split)(split.endpoint, split.key, split.filters, window, split.fmt, split.extra)
        served = getattr(dialect, "served_envelope", None)  # names a later world edition corrected
        envelope = served(ep, self.world.edition) if served is not None else {}
        return native_headers(ep, dialect.render(split, page, len(records), envelope))

    def _old_key(self, ep: Endpoint, key: str) -> bool:
        """Whether ``key`` is the default key of ``ep``'s catalog file (``sandbox-gen_opendart``,
        written before platforms were merged) while its platform's key is the default too."""
        return (ep.id not in self.keys and ep.part_id != ep.platform
                and self.keys.get(ep.platform) == f"sandbox-{ep.platform}"
                and key == self.keys.get(ep.part_id) == f"sandbox-{ep.part_id}")

    def collection(self, ep: Endpoint, key: str, filters: dict[str, str]) -> Sequence[dict[str, Any]]:
        """The records a collection key selects: generator, then the query semantics (cached)."""
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        gen = generator_for(ep.part_id, ep.id)  # generators are per catalog file
        records: Sequence[dict[str, Any]]
        if gen is None and ep.fidelity != "curated":
            records = synth_records(self.world, ep, dict(filters))  # a generated endpoint
        else:
            records = [] if gen is None else gen(self.world, dict(filters))
        _, query = query_split(ep, filters)
        order = ep.query.order_by if ep.query is not None else []
        if query or (order and not getattr(records, "ordered", False)):
            records = apply_query(ep, records, query)
        self._cache[key] = records
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return records

    def _unknown(self, req: SimRequest, detail: str) -> SimResponse:
        """An unknown path of a known host gets that platform's own answer."""
        eps = [e for e in self.catalog.endpoints.values() if e.host.lower() == req.host]
        if not eps:
            return _json({"error": "unknown_host", "detail": detail}, 404)

        def shared(e: Endpoint) -> int:
            n = 0
            for a, b in zip(e.path, req.path):
                if a != b:
                    break
                n += 1
            return n

        ep = max(eps, key=lambda e: (shared(e), e.id))
        try:
            return get_dialect(ep.dialect).render_error(ep, "unknown_operation", str(ep.opt("default_format", "xml")), detail)
        except Exception:  # noqa: BLE001 - a dialect without that error: plain 404
            return _json({"error": "unknown_operation", "detail": detail}, 404)

    # ---- admin ---------------------------------------------------------------------
    def _admin(self, path: str, method: str) -> SimResponse:
        if path == "/_sandbox/health" and method in ("GET", "HEAD"):
            return _json({"status": "ok", "seed": self.seed, "edition": self.world.edition, "platforms": sorted(self.catalog.platforms),
                          "endpoints": len(self.catalog.endpoints)})
        if path == "/_sandbox/stats" and method in ("GET", "HEAD"):
            return _json({"requests": self.state.requests, "used": dict(sorted(self.state.used.items())),
                          "cached_collections": len(self._cache)})
        if path == "/_sandbox/reset" and method == "POST":
            self.state.reset()
            return _json({"status": "reset"})
        return _json({"error": "not_found", "detail": f"no admin route {method} {path}; try GET /_sandbox/health"}, 404)


def _upstream(path: str, host_header: str) -> tuple[str | None, str]:
    """(upstream host without port, upstream path) of a sandbox request."""
    if path.startswith(("http://", "https://")):
        u = urlsplit(path)
        return ((u.hostname or "").lower() or None), (u.path or "/")
    parts = path.lstrip("/").split("/", 1)
    first = parts[0]
    if "." in first and not first.startswith("."):
        return first.rsplit(":", 1)[0].lower(), "/" + (parts[1] if len(parts) > 1 else "")
    hh = host_header.rsplit(":", 1)[0] if host_header.count(":") == 1 else host_header
    if hh.strip("[]") in _LOCAL_HOSTS or "." not in hh:
        return None, path
    return hh.lower(), path


def _auth_value(ep: Endpoint, match: Match) -> str | None:
    for p in ep.params_with_role("auth"):
        v = match.params.get(p.name)
        if v:
            return v
    return None


def _request_format(dialect: Dialect, ep: Endpoint, params: dict[str, str]) -> str:
    fn = getattr(dialect, "request_format", None)
    if fn is not None:
        return str(fn(ep, params))
    return str(ep.opt("default_format", "xml"))


def create_app(
    seed: int = 0,
    keys: dict[str, str] | None = None,
    limits: Limits | None = None,
    catalog: Catalog | None = None,
    edition: int = LATEST_EDITION,
) -> SandboxApp:
    """The sandbox ASGI app (served by ``simulator sandbox serve``).

    >>> app = create_app(seed=1)
    >>> app.keys["opendart"]
    'sandbox-opendart'
    """
    return SandboxApp(seed=seed, keys=keys, limits=limits, catalog=catalog, edition=edition)
